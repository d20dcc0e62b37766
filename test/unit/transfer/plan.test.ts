// The pure parts of transfer/: part sizes, ranges, progress maths, local names, resume records.
import * as assert from 'assert';
import { describeLocalError, keepBothName } from '../../../src/transfer/localFiles';
import { downloadRanges, MiB, uploadPartSize, uploadParts } from '../../../src/transfer/partPlan';
import { ProgressMeter } from '../../../src/transfer/progress';
import { addRange, isWhole, rangesBytes, ResumeBook, type DownloadResume } from '../../../src/transfer/resumeState';
import { FakeClock } from '../../support/fakeClock';
import { memoryState } from '../../support/sharedState';

const GiB = 1024 * MiB;

describe('transfer: part planner', () => {
  it('asks for 32 MiB parts, more for a file that would need over 10,000 (whole MiB), at most 5 GiB', () => {
    assert.strictEqual(uploadPartSize(0), 32 * MiB);
    assert.strictEqual(uploadPartSize(10 * GiB), 32 * MiB);
    assert.strictEqual(uploadPartSize(312.5 * GiB), 32 * MiB, '32 MiB × 10,000 parts exactly');
    assert.strictEqual(uploadPartSize(312.5 * GiB + 1), 33 * MiB);
    assert.strictEqual(uploadPartSize(1024 * GiB), 105 * MiB);
    assert.strictEqual(uploadPartSize(5 * 1024 * GiB), 525 * MiB);
    for (const size of [1, 5 * GiB, 700 * GiB, 5 * 1024 * GiB]) assert.ok(Math.ceil(size / uploadPartSize(size)) <= 10_000);
    assert.strictEqual(uploadPartSize(1e15), 5 * GiB);
  });

  it('cuts a file at the server part size: the last part shorter, an empty file one empty part', () => {
    const parts = uploadParts(12 * MiB + 3, 5 * MiB);
    assert.deepStrictEqual(parts.map((p) => [p.number, p.start, p.end - p.start]), [[1, 0, 5 * MiB], [2, 5 * MiB, 5 * MiB], [3, 10 * MiB, 2 * MiB + 3]]);
    assert.deepStrictEqual(uploadParts(0, 5 * MiB), [{ number: 1, start: 0, end: 0 }]);
    assert.strictEqual(uploadParts(10 * MiB, 5 * MiB).length, 2, 'no empty part after a whole one');
    assert.throws(() => uploadParts(10, 0), RangeError);
  });

  it('downloads in ranges of 8 to 64 MiB, two per connection on a large file, one for a small file', () => {
    assert.deepStrictEqual(downloadRanges(0, 8), []);
    assert.deepStrictEqual(downloadRanges(100_000, 8), [{ number: 1, start: 0, end: 100_000 }]);
    assert.strictEqual(downloadRanges(8 * MiB, 8).length, 1);
    const ranges = downloadRanges(1e9, 8);
    assert.strictEqual(ranges[0].end, 60 * MiB);
    assert.strictEqual(ranges.length, 16);
    assert.strictEqual(ranges.at(-1)!.end, 1e9);
    assert.ok(ranges.every((r, i) => i === 0 || r.start === ranges[i - 1].end), 'contiguous');
    assert.strictEqual(downloadRanges(40 * GiB, 8)[0].end, 64 * MiB);
  });
});

describe('transfer: progress maths', () => {
  it('rate over the last seconds of bytes moved (not those already on disk), time left at that rate', () => {
    const clock = new FakeClock();
    const meter = new ProgressMeter(clock, { files: 2, bytes: 10_000_000, bytesDoneAtStart: 4_000_000 });
    assert.deepStrictEqual(meter.snapshot(), { filesDone: 0, filesTotal: 2, bytesDone: 4_000_000, bytesTotal: 10_000_000, bytesPerSecond: undefined, secondsLeft: undefined });
    for (let i = 0; i < 8; i++) {
      clock.advance(250);
      meter.add(250_000);
    }
    const after2s = meter.snapshot();
    assert.strictEqual(after2s.bytesDone, 6_000_000);
    assert.strictEqual(after2s.bytesPerSecond, 1_000_000);
    assert.strictEqual(after2s.secondsLeft, 4);
    meter.fileDone();
    // Faster now: after the 5-second window has passed, only the new pace counts.
    for (let i = 0; i < 24; i++) {
      clock.advance(250);
      meter.add(i < 12 ? 0 : 500_000);
    }
    const later = meter.snapshot();
    assert.strictEqual(later.filesDone, 1);
    assert.ok(later.bytesPerSecond! > 1_000_000 && later.bytesPerSecond! <= 2_000_000, String(later.bytesPerSecond));
  });

  it('a failed part takes its bytes back; a dropped file leaves the totals; a size learned joins them', () => {
    const meter = new ProgressMeter(new FakeClock(), { files: 3, bytes: 300 });
    meter.add(150);
    meter.add(-50);
    meter.fileDropped(60);
    meter.sizeLearned(20);
    meter.alreadyDone(10);
    assert.deepStrictEqual([meter.snapshot().bytesDone, meter.snapshot().bytesTotal, meter.snapshot().filesTotal], [110, 260, 2]);
  });

  it('is told at most every 250 ms unless forced', () => {
    const clock = new FakeClock();
    const meter = new ProgressMeter(clock, { files: 1, bytes: 1 });
    assert.deepStrictEqual([meter.due(), meter.due(), meter.due(true)], [true, false, true]);
    clock.advance(249);
    assert.strictEqual(meter.due(), false);
    clock.advance(1);
    assert.strictEqual(meter.due(), true);
  });
});

describe('transfer: local names', () => {
  it('keep both: name (1).ext, a compound extension kept whole, no extension or a dot file at the end', () => {
    const cases: [string, string][] = [
      ['report.html', 'report (1).html'],
      ['sample.vcf.gz', 'sample (1).vcf.gz'],
      ['reads_R1.fastq.gz', 'reads_R1 (1).fastq.gz'],
      ['sample.bam.bai', 'sample (1).bam.bai'],
      ['my.data.v2.txt', 'my.data.v2 (1).txt'],
      ['README', 'README (1)'],
      ['.bashrc', '.bashrc (1)'],
      ['.config.json', '.config (1).json'],
      ['x.gz', 'x (1).gz'],
      ['file with space.txt', 'file with space (1).txt'],
    ];
    for (const [name, expected] of cases) assert.strictEqual(keepBothName(name, 1), expected, name);
    assert.strictEqual(keepBothName('a.tar.gz', 12), 'a (12).tar.gz');
  });

  it('says what a file system error means, naming the path', () => {
    assert.match(describeLocalError({ code: 'ENOSPC' }, '/d/x'), /disk is full.*\/d\/x/);
    assert.match(describeLocalError({ code: 'EACCES' }, '/d/x'), /Permission denied/);
    assert.match(describeLocalError({ code: 'ENOTDIR' }, '/d/x'), /file is in the way/);
    assert.match(describeLocalError(new Error('odd'), '/d/x'), /Cannot write \/d\/x: odd/);
    assert.match(describeLocalError({ code: 'EACCES' }, '/d/x', 'read'), /Permission denied: cannot read \/d\/x/);
    assert.match(describeLocalError({ code: 'EIO' }, '/d/x', 'read'), /disk failed while reading \/d\/x/);
    assert.match(describeLocalError({ code: 'ELOOP' }, '/d/x'), /\/d\/x is a link: nothing is written through/);
  });
});

describe('transfer: resume records', () => {
  it('merges written ranges', () => {
    let ranges: [number, number][] = [];
    for (const [a, b] of [[10, 20], [30, 40], [20, 25], [0, 5], [24, 31], [5, 6]] as [number, number][]) ranges = addRange(ranges, a, b);
    assert.deepStrictEqual(ranges, [[0, 6], [10, 40]]);
    assert.strictEqual(rangesBytes(ranges), 36);
    assert.deepStrictEqual(addRange([[0, 5]], 7, 7), [[0, 5]]);
  });

  it('a file is whole only when one range covers it from its first byte to its last: enough bytes with a hole is not', () => {
    assert.strictEqual(isWhole([[0, 20]], 20), true);
    assert.strictEqual(isWhole([], 0), true, 'an empty file');
    assert.strictEqual(isWhole([[0, 8], [12, 24]], 20), false, '20 bytes written, a hole at 8-12');
    assert.strictEqual(isWhole([[0, 8], [16, 20]], 20), false);
    assert.strictEqual(isWhole([[4, 20]], 20), false);
    assert.strictEqual(isWhole([[0, 21]], 20), false);
    assert.strictEqual(isWhole([], 20), false);
  });

  it('binds a record to its account, and reads back only what has the right shape', async () => {
    const state = memoryState();
    const mine = new ResumeBook<DownloadResume>(state, 'download', 'https://api.example/v2 alice');
    const theirs = new ResumeBook<DownloadResume>(state, 'download', 'https://api.example/v2 bob');
    const record = { fileId: 'f', size: 10, partPath: '/t/a.part', done: [[0, 4]] as [number, number][] };
    await mine.set('/t/a.part', record);
    assert.deepStrictEqual(mine.get('/t/a.part'), { ...record, account: 'https://api.example/v2 alice' });
    assert.strictEqual(theirs.get('/t/a.part'), undefined);
    assert.deepStrictEqual(theirs.all(), []);
    assert.strictEqual(mine.all().length, 1);
    await mine.set('/t/b.part', { ...record, done: [[4, 11]] });
    assert.strictEqual(mine.get('/t/b.part'), undefined, 'a range past the size is not a record');
    await mine.set('/t/a.part', undefined);
    assert.deepStrictEqual(state.keys().filter((k) => k.startsWith('sevenbridges.transfer.')).length, 1);
  });

  it('forgetting a record that is not there writes nothing to the state (VS Code sends the whole of it on each write)', async () => {
    const state = memoryState();
    const writes: string[] = [];
    const update = state.update.bind(state);
    state.update = (key: string, value: unknown) => (writes.push(key), update(key, value));
    const book = new ResumeBook<DownloadResume>(state, 'download', 'https://api.example/v2 alice');
    await book.set('/t/never.part', undefined);
    assert.deepStrictEqual(writes, [], 'never saved: nothing written');
    await book.set('/t/a.part', { fileId: 'f', size: 10, partPath: '/t/a.part', done: [[0, 4]] });
    await book.set('/t/a.part', undefined);
    assert.strictEqual(writes.length, 2, 'saved, then forgotten');
    assert.strictEqual(book.get('/t/a.part'), undefined);
    await state.update(writes[0], { broken: true });
    await book.set('/t/a.part', undefined);
    assert.strictEqual(state.get(writes[0]), undefined, 'a damaged record under its key is forgotten too');
  });
});
