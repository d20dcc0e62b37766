// The download engine on a storage in memory, the fake clock and a real temporary folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Downloader, type DownloaderDeps, type LocalDisk } from '../../../src/transfer/download';
import { QUICK_WRITE_BYTES, WRITE_BYTES, WRITING_SHARE_MS } from '../../../src/transfer/rangeFetcher';
import type { DownloadItem, ExistingFile } from '../../../src/transfer/downloadPlan';
import { MiB } from '../../../src/transfer/partPlan';
import type { TransferProgress } from '../../../src/transfer/progress';
import { ResumeBook, type DownloadResume } from '../../../src/transfer/resumeState';
import { openUnder } from '../../../src/transfer/underFolder';
import { FakeClock } from '../../support/fakeClock';
import { memoryState, type WindowState } from '../../support/sharedState';
import { bytesOf, FakeStorage } from '../../unit/transfer/fakeStorage';

describe('transfer: download engine', function () {
  this.timeout(20_000);
  let dir: string;
  let storage: FakeStorage;
  let clock: FakeClock;
  let state: WindowState;

  const downloader = (more: Partial<DownloaderDeps> = {}, store: WindowState = state) =>
    new Downloader({
      downloadInfo: storage.downloadInfo,
      storage,
      clock,
      resume: new ResumeBook<DownloadResume>(store, 'download', 'acc'),
      freeSpace: async () => 1e12,
      ...more,
    });
  const item = (fileId: string, relativePath: string): DownloadItem => ({ fileId, relativePath, size: storage.files.get(fileId)!.bytes.length });
  const onDisk = (relative: string) => fs.readFileSync(path.join(dir, relative));
  const same = (relative: string, fileId: string) => assert.ok(onDisk(relative).equals(storage.files.get(fileId)!.bytes), `${relative} is byte for byte the remote file`);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-download-'));
    storage = new FakeStorage();
    clock = new FakeClock();
    state = memoryState();
    // 1,000 bytes a millisecond: progress is told every 250 KB.
    storage.onChunk = (bytes) => clock.advance(bytes / 1000);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the remote layout, a large file as several ranges at once, each file checked and named when whole', async () => {
    storage.add('big', bytesOf(20 * MiB + 5));
    storage.add('a', bytesOf(3000, 2));
    storage.add('b', bytesOf(0));
    const progress: TransferProgress[] = [];
    const d = downloader();
    const plan = await d.plan({ target: dir, items: [item('big', 'run/out/big.bam'), item('a', 'run/a.txt'), item('b', 'empty.txt')], ifExists: 'ask' });
    assert.deepStrictEqual(plan.space, { needed: 20 * MiB + 5 + 3000, available: 1e12 });
    assert.strictEqual(plan.shortfall, false);
    const summary = await d.run(plan, { onProgress: (p) => progress.push(p) });
    assert.deepStrictEqual(summary.failed, []);
    assert.strictEqual(summary.saved.length, 3);
    same('run/out/big.bam', 'big');
    same('run/a.txt', 'a');
    assert.strictEqual(onDisk('empty.txt').length, 0);
    assert.deepStrictEqual(fs.readdirSync(path.join(dir, 'run', 'out')), ['big.bam'], 'no .part left');
    const bigReads = storage.reads.filter((r) => r.fileId === 'big');
    assert.strictEqual(bigReads.length, 3, 'three ranges of 8 MiB');
    assert.deepStrictEqual(bigReads.map((r) => [r.start, r.end]).sort((x, y) => x[0]! - y[0]!), [[0, 8 * MiB - 1], [8 * MiB, 16 * MiB - 1], [16 * MiB, 20 * MiB + 4]]);
    assert.strictEqual(summary.bytes, 20 * MiB + 5 + 3000, 'every byte received once');
    const last = progress.at(-1)!;
    assert.deepStrictEqual([last.filesDone, last.filesTotal, last.bytesDone, last.bytesTotal], [3, 3, 20 * MiB + 5 + 3000, 20 * MiB + 5 + 3000]);
    assert.ok(progress.every((p, i) => i === 0 || p.bytesDone >= progress[i - 1].bytesDone), 'bytes done only grow');
    assert.ok(storage.infos.length === 3, 'one download_info per file');
  });

  it('asks the next files\' URLs while the first are read: a small file waits for its bytes, not for its URL and then its bytes; one URL a file', async () => {
    for (let i = 0; i < 12; i++) storage.add(`f${i}`, bytesOf(500 + i, i));
    const order: string[] = [];
    const d = downloader({
      connections: 2,
      downloadInfo: (id) => (order.push(`url ${id}`), storage.downloadInfo(id)),
      storage: { read: (url, range, signal) => (order.push(`bytes ${new URL(url).pathname.slice(1)}`), storage.read(url, range, signal)) },
    });
    const plan = await d.plan({ target: dir, items: Array.from({ length: 12 }, (_, i) => item(`f${i}`, `f${i}.txt`)), ifExists: 'ask' });
    const summary = await d.run(plan, {});
    assert.deepStrictEqual(summary.failed, []);
    assert.strictEqual(summary.saved.length, 12);
    for (let i = 0; i < 12; i++) same(`f${i}.txt`, `f${i}`);
    const first = order.findIndex((o) => o.startsWith('bytes'));
    assert.deepStrictEqual(order.slice(0, first), ['url f0', 'url f1', 'url f2', 'url f3'], 'with 2 connections, the URLs of the 2 files after the first two asked before the first bytes');
    for (let i = 0; i + 2 < 12; i++) assert.ok(order.indexOf(`url f${i + 2}`) < order.indexOf(`bytes f${i}`) + 1, `f${i + 2}'s URL asked by the time f${i}'s bytes are`);
    assert.deepStrictEqual([...storage.infos].sort(), Array.from({ length: 12 }, (_, i) => `f${i}`).sort(), 'one download_info a file');
  });

  it('tells its progress at most every 250 ms however many files end, and the last count whole: 200 small files are not 200 redraws of the notification', async () => {
    for (let i = 0; i < 200; i++) storage.add(`f${i}`, bytesOf(300, i));
    const progress: TransferProgress[] = [];
    const d = downloader();
    const plan = await d.plan({ target: dir, items: Array.from({ length: 200 }, (_, i) => item(`f${i}`, `f${i}.txt`)), ifExists: 'ask' });
    const summary = await d.run(plan, { onProgress: (p) => progress.push(p) });
    assert.strictEqual(summary.saved.length, 200);
    assert.ok(clock.monotonic() < 250, 'the fake clock moved less than 250 ms');
    assert.ok(progress.length <= 3, `${progress.length} progress reports`);
    assert.deepStrictEqual([progress.at(-1)!.filesDone, progress.at(-1)!.filesTotal], [200, 200]);
  });

  it('a URL asked ahead that fails (the file deleted since it was listed) is asked once more when its file opens, never at every open before', async () => {
    for (let i = 0; i < 40; i++) storage.add(`f${i}`, bytesOf(700, i));
    const d = downloader({ connections: 8 });
    const plan = await d.plan({ target: dir, items: Array.from({ length: 40 }, (_, i) => item(`f${i}`, `f${i}.txt`)), ifExists: 'ask' });
    const deleted = ['f12', 'f20', 'f21'];
    for (const id of deleted) storage.files.delete(id);
    const summary = await d.run(plan, {});
    assert.deepStrictEqual(summary.failed.map((f) => f.item.fileId).sort(), deleted);
    assert.ok(summary.failed.every((f) => f.reason === 'The file is no longer on the platform (deleted).'));
    assert.strictEqual(summary.saved.length, 37);
    for (const id of deleted) assert.ok(storage.infos.filter((i) => i === id).length <= 2, `${id}: asked ahead at most once, then at its turn`);
    assert.ok(storage.infos.length <= 40 + deleted.length, `${storage.infos.length} download_info calls for 40 files, 3 of them gone`);
    assert.ok(!fs.readdirSync(dir).some((f) => deleted.some((id) => f.startsWith(id))), 'no file nor .part of the deleted ones');
  });

  it('a URL asked ahead that waited over a minute (the ranges of a large file read first) is asked again before it is used', async () => {
    // 100 bytes a millisecond: the 16 MiB file's two ranges take some 170 s of the fake clock, on one connection (with
    // more, a small file opened beside the large one may wait for its range behind it: a 403 then asks again).
    storage.onChunk = (bytes) => clock.advance(bytes / 100);
    storage.add('big', bytesOf(16 * MiB, 3));
    for (let i = 1; i <= 4; i++) storage.add(`f${i}`, bytesOf(900, i));
    const ages: Record<string, number> = {};
    const d = downloader({
      connections: 1,
      downloadInfo: async (id) => `${await storage.downloadInfo(id)}&asked=${clock.monotonic()}`,
      storage: {
        read: (url, range, signal) => {
          const parsed = new URL(url);
          ages[parsed.pathname.slice(1)] = clock.monotonic() - Number(parsed.searchParams.get('asked'));
          return storage.read(url, range, signal);
        },
      },
    });
    const plan = await d.plan({ target: dir, items: [item('big', 'big.bin'), ...[1, 2, 3, 4].map((i) => item(`f${i}`, `f${i}.txt`))], ifExists: 'ask' });
    const summary = await d.run(plan, {});
    assert.deepStrictEqual(summary.failed, []);
    assert.strictEqual(summary.saved.length, 5);
    same('big.bin', 'big');
    for (let i = 1; i <= 4; i++) same(`f${i}.txt`, `f${i}`);
    assert.ok(clock.monotonic() > 120_000, 'the large file took minutes');
    // The large file's second range uses the URL its first did (an expired one is refused, and asked again then).
    for (let i = 1; i <= 4; i++) assert.ok(ages[`f${i}`] <= 60_000, `f${i}'s URL used ${Math.round(ages[`f${i}`] / 1000)} s after it was asked`);
    assert.ok(storage.infos.length > 5, 'the URLs that waited were asked again');
  });

  it('makes the chosen folder if it is missing (removed since it was picked, or named by a script): the file arrives in it', async () => {
    storage.add('a', bytesOf(3000, 2));
    const chosen = path.join(dir, 'results', 'run-1');
    const d = downloader();
    const plan = await d.plan({ target: chosen, items: [item('a', 'a.txt')], ifExists: 'ask' });
    const summary = await d.run(plan, {});
    assert.deepStrictEqual(summary.failed, []);
    assert.ok(fs.readFileSync(path.join(chosen, 'a.txt')).equals(storage.files.get('a')!.bytes), 'a.txt is byte for byte the remote file');
  });

  it('resumes after a dropped connection, a 5xx and an expired URL from the last byte written: no byte fetched twice', async () => {
    storage.add('big', bytesOf(20 * MiB));
    storage.cutNext(3 * MiB + 17);
    storage.failNext(503);
    // One connection: two ranges of 10 MiB one after the other, the URL expiring during the first.
    const d = downloader({ connections: 1 });
    const plan = await d.plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'overwrite' });
    let expired = false;
    const summary = await d.run(plan, {
      onProgress: (p) => {
        if (!expired && p.bytesDone > 5 * MiB) {
          expired = true;
          storage.expire('big');
        }
      },
    });
    assert.deepStrictEqual(summary.failed, []);
    same('big.bin', 'big');
    assert.strictEqual(summary.bytes, 20 * MiB);
    assert.strictEqual(storage.bytesSent, 20 * MiB, 'the storage sent each byte once');
    assert.ok(storage.reads.some((r) => r.outcome === 'expired'));
    assert.strictEqual(storage.infos.length, 2, 'download_info asked again once');
    const resumed = storage.reads.find((r) => r.start === 3 * MiB + 17);
    assert.ok(resumed, 'the cut range went on from the byte after the last one written');
    assert.ok(clock.sleeps.length >= 2 && clock.sleeps[0] === 1000, `backed off: ${clock.sleeps}`);
  });

  it('resumes a cancelled download from its .part, in a new engine (a reload), fetching only the rest', async () => {
    storage.add('big', bytesOf(24 * MiB));
    const cancel = new AbortController();
    const first = await downloader().run(await downloader().plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'overwrite' }), {
      signal: cancel.signal,
      onProgress: (p) => p.bytesDone > 9 * MiB && cancel.abort(),
    });
    assert.strictEqual(first.cancelled, true);
    assert.deepStrictEqual(first.retry, [item('big', 'big.bin')]);
    assert.ok(fs.existsSync(path.join(dir, 'big.bin.part')) && !fs.existsSync(path.join(dir, 'big.bin')));
    const kept = first.bytes;
    const again = downloader();
    const plan = await again.plan({ target: dir, items: first.retry, ifExists: 'ask' });
    assert.strictEqual(plan.files[0].resumeFrom, kept, 'the bytes on disk are kept');
    assert.strictEqual(plan.space.needed, 24 * MiB - kept);
    const second = await again.run(plan);
    same('big.bin', 'big');
    assert.strictEqual(kept + second.bytes, 24 * MiB, 'nothing fetched twice');
    assert.deepStrictEqual(state.keys().filter((k) => k.startsWith('sevenbridges.transfer.')), [], 'its record is gone once whole');
  });

  it('a Cancel leaves no .part that nothing can resume (#44): before the storage answered, the files begun are removed; one with bytes keeps its .part and its record', async () => {
    storage.add('big', bytesOf(24 * MiB));
    storage.add('a', bytesOf(3 * MiB, 2));
    storage.add('b', bytesOf(3 * MiB, 3));
    const cancel = new AbortController();
    // Cancel as the storage is first asked for a file's bytes: each file begun has its .part, none has a byte nor a size said.
    const asking: Pick<FakeStorage, 'read'> = { read: (url, range, signal) => (cancel.abort(), storage.read(url, range, signal)) };
    const early = downloader({ storage: asking });
    const first = await early.run(await early.plan({ target: dir, items: [item('a', 'run/a.txt'), item('b', 'b.txt')], ifExists: 'overwrite' }), { signal: cancel.signal });
    assert.strictEqual(first.cancelled, true);
    assert.deepStrictEqual(first.kept, []);
    assert.deepStrictEqual(fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.part')), [], 'no .part left that no record names');
    assert.deepStrictEqual(new ResumeBook<DownloadResume>(state, 'download', 'acc').all(), []);
    // With bytes on disk: the .part stays, and a record names it (Data Jobs shows it, to resume or discard).
    const later = new AbortController();
    const second = await downloader().run(await downloader().plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'overwrite' }), {
      signal: later.signal,
      onProgress: (p) => p.bytesDone > 9 * MiB && later.abort(),
    });
    assert.strictEqual(second.cancelled, true);
    assert.ok(fs.existsSync(path.join(dir, 'big.bin.part')));
    assert.deepStrictEqual(second.kept.map((k) => [k.partPath, k.bytes > 9 * MiB]), [[path.join(dir, 'big.bin.part'), true]], 'the summary says what is kept');
    assert.deepStrictEqual(new ResumeBook<DownloadResume>(state, 'download', 'acc').all().map((r) => r.partPath), [path.join(dir, 'big.bin.part')]);
  });

  it('after a crash, resumes from what the last saved record vouches for; the rest is fetched again', async () => {
    storage.add('big', bytesOf(20 * MiB));
    // The first range stalls after its first chunk; the two others arrive (12 MiB).
    storage.hangNext();
    const stop = new AbortController();
    let snapshot: WindowState | undefined;
    let doneAtCrash = 0;
    const running = downloader().run(await downloader().plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'overwrite' }), {
      signal: stop.signal,
      onProgress: (p) => {
        // The window dies here: global state holds what was last saved, the disk what was written.
        if (!snapshot && p.bytesDone >= 10 * MiB) {
          doneAtCrash = p.bytesDone;
          snapshot = memoryState();
          for (const key of state.keys()) void snapshot.update(key, state.get(key));
        }
      },
    });
    for (let waited = 0; !snapshot; waited += 5) {
      assert.ok(waited < 10_000, 'the window died');
      await new Promise((r) => setTimeout(r, 5));
    }
    stop.abort();
    await running;
    const record = new ResumeBook<DownloadResume>(snapshot, 'download', 'acc').all()[0];
    assert.ok(record && record.done.length > 0, 'a record was saved before the crash');
    const after = downloader({}, snapshot);
    const plan = await after.plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'ask' });
    assert.ok(plan.files[0].resumeFrom > 0 && plan.files[0].resumeFrom <= doneAtCrash, `${plan.files[0].resumeFrom} of ${doneAtCrash}`);
    const summary = await after.run(plan);
    same('big.bin', 'big');
    assert.strictEqual(summary.bytes, 20 * MiB - plan.files[0].resumeFrom);
  });

  it('a file there with the same size is skipped; another size: ask, then keep both, overwrite or skip', async () => {
    for (const id of ['a', 'b', 'c', 'd']) storage.add(id, bytesOf(500, id.charCodeAt(0)));
    fs.writeFileSync(path.join(dir, 'a.vcf.gz'), bytesOf(500, 99));
    fs.writeFileSync(path.join(dir, 'b.vcf.gz'), 'old');
    fs.writeFileSync(path.join(dir, 'b (1).vcf.gz'), 'older');
    fs.writeFileSync(path.join(dir, 'c.txt'), 'old');
    fs.writeFileSync(path.join(dir, 'd.txt'), 'old');
    const asked: ExistingFile[] = [];
    const answers: Record<string, 'keepBoth' | 'overwrite' | 'skip'> = { b: 'keepBoth', c: 'overwrite', d: 'skip' };
    const d = downloader();
    const plan = await d.plan({
      target: dir,
      items: [item('a', 'a.vcf.gz'), item('b', 'b.vcf.gz'), item('c', 'c.txt'), item('d', 'd.txt')],
      ifExists: 'ask',
      ask: async (existing) => {
        asked.push(existing);
        return answers[existing.item.fileId];
      },
    });
    assert.deepStrictEqual(asked.map((a) => [a.item.fileId, a.localSize]), [['b', 3], ['c', 3], ['d', 3]], 'the same size is not asked about');
    assert.deepStrictEqual(plan.skipped.map((s) => s.item.fileId), ['a', 'd']);
    assert.deepStrictEqual(plan.files.map((f) => path.basename(f.path)), ['b (2).vcf.gz', 'c.txt']);
    const summary = await d.run(plan);
    assert.deepStrictEqual(summary.skipped.map((s) => s.item.fileId), ['a', 'd']);
    same('b (2).vcf.gz', 'b');
    assert.strictEqual(onDisk('b.vcf.gz').toString(), 'old');
    same('c.txt', 'c');
    assert.strictEqual(onDisk('d.txt').toString(), 'old');
    assert.deepStrictEqual(storage.reads.map((r) => r.fileId).sort(), ['b', 'c'], 'skipped files are not fetched');
  });

  it('several files there with another size: one answer for all of them, or Ask for Each', async () => {
    for (const id of ['a', 'b', 'c']) storage.add(id, bytesOf(400, id.charCodeAt(0)));
    for (const name of ['a.txt', 'b.txt']) fs.writeFileSync(path.join(dir, name), 'old');
    fs.writeFileSync(path.join(dir, 'c.txt'), bytesOf(400, 'c'.charCodeAt(0)));
    const items = [item('a', 'a.txt'), item('b', 'b.txt'), item('c', 'c.txt')];
    const groups: string[][] = [];
    const single: string[] = [];
    const plan = (forAll: 'overwrite' | 'keepBoth' | 'skip' | 'each') =>
      downloader().plan({
        target: dir,
        items,
        ifExists: 'ask',
        askAll: async (existing) => (groups.push(existing.map((e) => e.item.fileId)), forAll),
        ask: async (existing) => (single.push(existing.item.fileId), existing.item.fileId === 'a' ? 'overwrite' : 'skip'),
      });
    const kept = await plan('keepBoth');
    assert.deepStrictEqual(groups, [['a', 'b']], 'asked once, of the two with another size (c has the same size)');
    assert.deepStrictEqual(single, [], 'no question per file');
    assert.deepStrictEqual(kept.files.map((f) => path.basename(f.path)), ['a (1).txt', 'b (1).txt']);
    assert.deepStrictEqual((await plan('skip')).skipped.map((f) => f.item.fileId), ['a', 'b', 'c']);
    const each = await plan('each');
    assert.deepStrictEqual(single, ['a', 'b'], 'then asked for each, in order');
    assert.deepStrictEqual(each.files.map((f) => path.basename(f.path)), ['a.txt']);
    groups.length = 0;
    await downloader().plan({ target: dir, items: [item('a', 'a.txt')], ifExists: 'ask', askAll: async () => (groups.push(['?']), 'skip'), ask: async () => 'skip' });
    assert.deepStrictEqual(groups, [], 'one file: asked about itself, not for all');
  });

  it('a file deleted on the platform, a path a file is in the way of, a full disk: each fails clearly, the rest carries on', async () => {
    for (const id of ['ok', 'gone', 'blocked', 'full']) storage.add(id, bytesOf(9 * MiB, id.length));
    fs.writeFileSync(path.join(dir, 'sub'), 'a file where a folder should be');
    const disk: LocalDisk = {
      open: async (target, file, how) => {
        const handle = await openUnder(target, file, how);
        if (!file.includes('full')) return handle;
        let written = 0;
        return {
          write: async (buffer, offset, length, position) => {
            written += length;
            if (written > MiB) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
            return handle.write(buffer, offset, length, position);
          },
          stat: () => handle.stat(),
          close: () => handle.close(),
        };
      },
    };
    // gone.bin is deleted on the platform while its first range is read (that read cut after 2 MiB): the next read is a 404.
    let goneReads = 0;
    const deleting: DownloaderDeps['storage'] = {
      read: (url, range, signal) => {
        if (!url.includes('/gone?') || goneReads++) return storage.read(url, range, signal);
        storage.cutNext(2 * MiB);
        const read = storage.read(url, range, signal);
        storage.files.delete('gone');
        return read;
      },
    };
    const d = downloader({ disk, connections: 2, storage: deleting });
    const plan = await d.plan({ target: dir, items: [item('gone', 'gone.bin'), item('blocked', 'sub/blocked.bin'), item('full', 'full.bin'), item('ok', 'ok.bin')], ifExists: 'overwrite' });
    const summary = await d.run(plan);
    const reasons = Object.fromEntries(summary.failed.map((f) => [f.item.fileId, f.reason]));
    assert.match(reasons.gone, /no longer on the platform/);
    assert.match(reasons.blocked, /file is in the way/);
    assert.match(reasons.full, /disk is full/);
    assert.deepStrictEqual(summary.saved, [path.join(dir, 'ok.bin')]);
    same('ok.bin', 'ok');
    assert.ok(!fs.existsSync(path.join(dir, 'gone.bin.part')), 'the bytes of a deleted file are dropped');
    assert.ok(fs.existsSync(path.join(dir, 'full.bin.part')), 'a full disk keeps what was written, to resume');
    assert.deepStrictEqual(summary.retry.map((r) => r.fileId).sort(), ['blocked', 'full', 'gone']);
  });

  it('writes through two buffers a connection (one written while the other fills), reused whatever the size, a buffer a call (its hand-over to the thread pool costs more than the bytes); a short write is completed', async () => {
    storage.add('big', bytesOf(20 * MiB + 5));
    storage.add('small', bytesOf(3000, 3));
    const buffers = new Set<ArrayBufferLike>();
    let writes = 0;
    let largest = 0;
    const disk: LocalDisk = {
      open: async (target, file, how) => {
        const handle = await openUnder(target, file, how);
        return {
          write: async (buffer, offset, length, position) => {
            buffers.add(buffer.buffer);
            largest = Math.max(largest, length);
            // Every other write takes only part of what it is given (a disk may).
            const taken = ++writes % 2 ? Math.max(1, Math.floor(length / 3)) : length;
            return handle.write(buffer, offset, taken, position);
          },
          stat: () => handle.stat(),
          close: () => handle.close(),
        };
      },
    };
    const d = downloader({ disk, connections: 2 });
    const summary = await d.run(await d.plan({ target: dir, items: [item('big', 'big.bin'), item('small', 'small.bin')], ifExists: 'overwrite' }));
    assert.deepStrictEqual(summary.failed, []);
    same('big.bin', 'big');
    same('small.bin', 'small');
    assert.ok(buffers.size <= 4, `${buffers.size} buffers written from (at most two a connection)`);
    assert.strictEqual(largest, WRITE_BYTES, 'a whole buffer a call');
  });

  /** A disk whose files write on this thread too (as this machine's does): each call of either kind seen by `watch`. */
  const diskWithWriteNow = (watch: { now?(length: number): number | void; pool?(length: number): void }): LocalDisk => ({
    open: async (target, file, how) => {
      const handle = await openUnder(target, file, how);
      return {
        write: async (buffer, offset, length, position) => {
          watch.pool?.(length);
          return handle.write(buffer, offset, length, position);
        },
        writeNow: (buffer, offset, length, position) => fs.writeSync(handle.fd, buffer, offset, watch.now?.(length) ?? length, position),
        stat: () => handle.stat(),
        close: () => handle.close(),
      };
    },
  });

  it('writes on this thread, 64 KiB a call, while the disk takes each at once (no hand-over to the thread pool); a short write is completed', async () => {
    storage.add('big', bytesOf(20 * MiB + 5));
    storage.add('small', bytesOf(3000, 3));
    // Chunks that do not fall on the writes' bounds (TLS hands on records of 16 KiB at most).
    storage.chunkBytes = 40 * 1024 + 7;
    const now: number[] = [];
    let pool = 0;
    const disk = diskWithWriteNow({
      // Every other write takes only part of what it is given (a disk may).
      now: (length) => (now.push(length) % 2 ? Math.max(1, Math.floor(length / 3)) : length),
      pool: () => pool++,
    });
    const d = downloader({ disk, connections: 2 });
    const summary = await d.run(await d.plan({ target: dir, items: [item('big', 'big.bin'), item('small', 'small.bin')], ifExists: 'overwrite' }));
    assert.deepStrictEqual(summary.failed, []);
    same('big.bin', 'big');
    same('small.bin', 'small');
    assert.strictEqual(pool, 0, 'no write through the thread pool');
    assert.strictEqual(Math.max(...now), QUICK_WRITE_BYTES, 'at most 64 KiB a call');
    // Each 64 KiB in two calls at most (the short ones completed), the ends of the ranges and the small file aside.
    assert.ok(now.length >= (20 * MiB) / QUICK_WRITE_BYTES && now.length <= (2 * (20 * MiB)) / QUICK_WRITE_BYTES + 20, `${now.length} writes`);
  });

  it('writes on this thread that take half of its time send the rest of the run, and later runs into the folder, to the thread pool, a buffer a call', async () => {
    storage.add('big', bytesOf(20 * MiB + 5));
    storage.add('other', bytesOf(5 * MiB, 4));
    // Chunks that do not fall on the writes' bounds: the run leaves the thread with part of a buffer filled.
    storage.chunkBytes = 40 * 1024 + 7;
    let now = 0;
    const pool: number[] = [];
    const disk = diskWithWriteNow({
      // Each write keeps the thread 100 ms (the fake clock moves by as much during it; 65 ms while 64 KiB arrive).
      now: () => {
        now++;
        clock.advance(100);
      },
      pool: (length) => pool.push(length),
    });
    const d = downloader({ disk, connections: 2 });
    const items = [item('big', 'big.bin'), item('other', 'other.bin')];
    const summary = await d.run(await d.plan({ target: dir, items, ifExists: 'overwrite' }));
    assert.deepStrictEqual(summary.failed, []);
    same('big.bin', 'big');
    same('other.bin', 'other');
    // 60 % of the thread: the sum that fades by e every second reaches 500 ms after some 11 writes.
    assert.ok(now >= 5 && now <= 20, `${now} writes on this thread before the thread pool took over`);
    assert.strictEqual(Math.max(...pool), WRITE_BYTES, 'the thread pool is handed a whole buffer a call');
    assert.ok(pool.reduce((a, b) => a + b, 0) >= 25 * MiB - now * QUICK_WRITE_BYTES, 'every other byte went through the thread pool');

    const [before, poolBefore] = [now, pool.length];
    for (const name of ['big.bin', 'other.bin']) fs.rmSync(path.join(dir, name));
    const again = await d.run(await d.plan({ target: dir, items, ifExists: 'overwrite' }));
    assert.deepStrictEqual(again.failed, []);
    same('big.bin', 'big');
    assert.strictEqual(now, before, 'the next run into the folder writes through the thread pool from the start');
    assert.ok(pool.length > poolBefore, 'the next run wrote through the thread pool');
  });

  /** One file of `size` through `diskWithWriteNow`, its nth write on this thread holding it `holdMs(n)`: the writes made each way. */
  const timedWrites = async (size: number, holdMs: (n: number) => number) => {
    storage.add('big', bytesOf(size));
    const counts = { now: 0, pool: 0 };
    const disk = diskWithWriteNow({ now: () => void clock.advance(holdMs(++counts.now)), pool: () => counts.pool++ });
    const d = downloader({ disk, connections: 2 });
    const summary = await d.run(await d.plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'overwrite' }));
    assert.deepStrictEqual(summary.failed, []);
    same('big.bin', 'big');
    return counts;
  };

  it('one write on this thread that keeps it half a second sends the rest of the run to the thread pool', async () => {
    const { now, pool } = await timedWrites(10 * MiB, (n) => (n === 2 ? WRITING_SHARE_MS : 0));
    assert.strictEqual(now, 2, 'no write on this thread after the one that kept it');
    assert.ok(pool > 0, 'the rest went through the thread pool');
  });

  it('writes on this thread that wait as a busy machine makes them (a few ms, now and then) stay on this thread', async () => {
    // One write in four is held 8 ms, the scheduler's slices (the fake clock also moves 65 ms for each 64 KiB received).
    const { now, pool } = await timedWrites(30 * MiB, (n) => (n % 4 === 0 ? 8 : 0));
    assert.strictEqual(pool, 0, 'no write through the thread pool');
    assert.strictEqual(now, (30 * MiB) / QUICK_WRITE_BYTES);
  });

  it('a full disk met on this thread fails that file clearly and keeps what was written; the rest carries on', async () => {
    storage.add('full', bytesOf(9 * MiB, 5));
    storage.add('ok', bytesOf(2 * MiB, 6));
    let written = 0;
    const full: LocalDisk = {
      open: async (target, file, how) => {
        const part = await diskWithWriteNow({}).open(target, file, how);
        if (!file.includes('full')) return part;
        return {
          ...part,
          writeNow: (buffer, offset, length, position) => {
            if ((written += length) > MiB) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
            return part.writeNow!(buffer, offset, length, position);
          },
        };
      },
    };
    const d = downloader({ disk: full, connections: 2 });
    const summary = await d.run(await d.plan({ target: dir, items: [item('full', 'full.bin'), item('ok', 'ok.bin')], ifExists: 'overwrite' }));
    assert.deepStrictEqual(summary.saved, [path.join(dir, 'ok.bin')]);
    same('ok.bin', 'ok');
    assert.match(summary.failed[0]?.reason ?? '', /disk is full/);
    assert.ok(fs.existsSync(path.join(dir, 'full.bin.part')), 'the .part is kept, to resume');
    const kept = summary.kept.map((k) => k.bytes);
    assert.ok(kept.length === 1 && kept[0] >= QUICK_WRITE_BYTES && kept[0] <= MiB, `${kept.join()} bytes kept`);
  });

  it('a file given up and dropped while another of its ranges still hands on bytes keeps no record and no .part', async () => {
    storage.add('x', bytesOf(20 * MiB, 7));
    let firstTaken: () => void = () => undefined;
    const taken = new Promise<void>((resolve) => (firstTaken = resolve));
    let late = false;
    const changing: DownloaderDeps['storage'] = {
      read: async (url, range, signal) => {
        if (range && 'start' in range && range.start !== 0) {
          // The second range, once the first has handed on a chunk: the file on the platform has another size now.
          await taken;
          return { ...(await storage.read(url, range, signal)), size: 30 * MiB };
        }
        const read = await storage.read(url, range, signal);
        const chunks = read.body[Symbol.asyncIterator]();
        async function* body(): AsyncGenerator<Buffer> {
          yield (await chunks.next()).value as Buffer;
          // Received before the file was given up, taken after (a socket's chunks wait in a queue).
          const received = (await chunks.next()).value as Buffer;
          firstTaken();
          while (!signal?.aborted) await new Promise((resolve) => setTimeout(resolve, 2));
          late = true;
          yield received;
          await chunks.return?.();
        }
        return { ...read, body: body() };
      },
    };
    const d = downloader({ storage: changing, connections: 2 });
    const summary = await d.run(await d.plan({ target: dir, items: [item('x', 'x.bin')], ifExists: 'overwrite' }));
    assert.ok(late, 'a chunk was handed on after the file was given up');
    assert.match(summary.failed[0]?.reason ?? '', /file changed/);
    assert.deepStrictEqual(summary.kept, []);
    assert.deepStrictEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.part')), [], 'no .part left');
    assert.deepStrictEqual(new ResumeBook<DownloadResume>(state, 'download', 'acc').all(), [], 'no record of bytes dropped');
  });

  it('goes on receiving into a second buffer while the first is written: a slow disk does not hold the response back', async () => {
    storage.add('big', bytesOf(3 * MiB));
    let sent = 0;
    const chunked = storage.onChunk;
    storage.onChunk = (bytes) => {
      sent += bytes;
      chunked(bytes);
    };
    const receivedDuringFirstWrite: number[] = [];
    const disk: LocalDisk = {
      open: async (target, file, how) => {
        const handle = await openUnder(target, file, how);
        return {
          write: async (buffer, offset, length, position) => {
            if (!receivedDuringFirstWrite.length) {
              // The first buffer's first write waits (at most 2 s) until the next buffer's worth has arrived meanwhile.
              const at = sent;
              for (const until = Date.now() + 2_000; sent < at + 512 * 1024 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 5));
              receivedDuringFirstWrite.push(sent - at);
            }
            return handle.write(buffer, offset, length, position);
          },
          stat: () => handle.stat(),
          close: () => handle.close(),
        };
      },
    };
    const d = downloader({ disk, connections: 1 });
    const summary = await d.run(await d.plan({ target: dir, items: [item('big', 'big.bin')], ifExists: 'overwrite' }));
    assert.deepStrictEqual(summary.failed, []);
    same('big.bin', 'big');
    assert.ok(receivedDuringFirstWrite[0] >= 512 * 1024, `${receivedDuringFirstWrite[0]} bytes received during the first write`);
  });

  it('says before the first byte that the disk is short, and refuses a path that leaves the folder', async () => {
    storage.add('a', bytesOf(5000));
    const d = downloader({ freeSpace: async () => 4000 });
    const plan = await d.plan({ target: dir, items: [item('a', 'a.bin'), item('a', '../escape.bin')], ifExists: 'overwrite' });
    assert.deepStrictEqual([plan.shortfall, plan.space.needed, plan.space.available], [true, 5000, 4000]);
    assert.match(plan.refused[0].reason, /not a path inside the folder/);
    assert.deepStrictEqual(storage.reads, []);
  });

  it('a listed size is a hint: the storage\'s is the file\'s; bytes or a size that changed since the .part began: that file fails and starts over next time', async () => {
    storage.add('a', bytesOf(4000));
    storage.add('b', bytesOf(9 * MiB));
    storage.add('c', bytesOf(9 * MiB, 3));
    const d = downloader();
    const listed = await d.run(await d.plan({ target: dir, items: [{ ...item('a', 'a.bin'), size: 4100 }], ifExists: 'overwrite' }));
    assert.deepStrictEqual(listed.failed, []);
    same('a.bin', 'a');
    const cancel = new AbortController();
    const first = await d.run(await d.plan({ target: dir, items: [item('b', 'b.bin'), item('c', 'c.bin')], ifExists: 'overwrite' }), {
      signal: cancel.signal,
      onProgress: (p) => p.bytesDone > 6 * MiB && cancel.abort(),
    });
    assert.strictEqual(first.cancelled, true);
    // b is replaced on the platform by a file of the same size: other bytes, another ETag. c by a larger one.
    storage.files.get('b')!.etag = '"another"';
    storage.add('c', bytesOf(10 * MiB, 4));
    const second = await d.run(await d.plan({ target: dir, items: first.retry, ifExists: 'overwrite' }));
    const reasons = Object.fromEntries(second.failed.map((f) => [f.item.fileId, f.reason]));
    assert.match(reasons.b, /changed on the platform/);
    assert.match(reasons.c, /The storage had 9437184 bytes of this file and now has 10485760: the file changed/);
    const third = await d.run(await d.plan({ target: dir, items: second.retry, ifExists: 'overwrite' }));
    assert.deepStrictEqual(third.failed, []);
    same('b.bin', 'b');
    same('c.bin', 'c');
  });
});
