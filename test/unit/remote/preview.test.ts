import * as assert from 'assert';
import * as zlib from 'zlib';
import { ASK_BEYOND_BYTES, asksBeforeWhole, binaryWhat, fileKind, PREVIEW_BYTES, ReadRefused, seemsBinary, shownName } from '../../../src/remote/fileKinds';
import { readHead, readInflated, readWhole, type RangeRead } from '../../../src/remote/preview';

const MB = 1024 * 1024;

/**
 * A file served by range in 64 KiB chunks (as a storage would: a 200 and the whole file when it ignores Range); records
 * each range asked, the bytes sent, and whether the reader let go of the body before its end.
 */
function servedFile(bytes: Buffer, honoursRange = true, say: { size?: number; start?: number } = {}) {
  const asked: (string | undefined)[] = [];
  let sent = 0;
  let closedEarly = 0;
  const read: RangeRead = async (range, signal) => {
    asked.push(range ? `${range.start}-${range.end ?? ''}` : undefined);
    const partial = honoursRange && range !== undefined;
    const start = partial ? range.start : 0;
    const end = partial && range.end !== undefined ? Math.min(range.end, bytes.length - 1) : bytes.length - 1;
    return {
      status: partial ? 206 : 200,
      start: say.start ?? start,
      size: 'size' in say ? say.size : bytes.length,
      body: (async function* () {
        let done = false;
        try {
          for (let at = start; at <= end; at += 65536) {
            if (signal.aborted) throw new Error('aborted');
            const chunk = bytes.subarray(at, Math.min(end + 1, at + 65536));
            sent += chunk.length;
            yield chunk;
          }
          done = true;
        } finally {
          if (!done) closedEarly++;
        }
      })(),
    };
  };
  return { read, asked, sent: () => sent, closedEarly: () => closedEarly };
}

const lines = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => `line ${String(i).padStart(7, '0')}\tsome text of the line\n`).join(''));

describe('remote/preview: what opening a remote file shows', () => {
  it('knows the kind by name: text, gzipped text, images, binaries of the field', () => {
    const kinds = ['a.txt', 'calls.vcf', 'x.tsv', 'noext', 'a.vcf.gz', 'b.fastq.bgz', 'plot.PNG', 'c.jpeg', 'r.bam', 's.cram', 'r.bam.bai', 'a.tar.gz', 'v.bcf'].map(fileKind);
    assert.deepStrictEqual(kinds, ['text', 'text', 'text', 'text', 'gzipText', 'gzipText', 'image', 'image', 'binary', 'binary', 'binary', 'binary', 'binary']);
    assert.strictEqual(binaryWhat('sample.bam'), 'a BAM alignment file');
    assert.strictEqual(binaryWhat('x.tar.gz'), 'a compressed tar archive');
    assert.strictEqual(binaryWhat('blob.bin'), 'a binary file');
    assert.strictEqual(shownName('calls.vcf.gz'), 'calls.vcf');
    assert.strictEqual(shownName('calls.vcf'), 'calls.vcf');
  });

  it('asks before loading whole beyond 50 MB, not at it', () => {
    assert.strictEqual(ASK_BEYOND_BYTES, 50 * MB);
    assert.deepStrictEqual([undefined, 50 * MB, 50 * MB + 1, 10 * 1024 * MB].map(asksBeforeWhole), [false, false, true, true]);
  });

  it('reads a text file up to 1 MB whole, in one request without a range', async () => {
    const file = lines(20_000).subarray(0, MB);
    const served = servedFile(file);
    const content = await readHead(served.read, 'text', file.length);
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(file));
  });

  it('reads a larger text file by one range of its first 1 MB, cut after its last whole line', async () => {
    const file = lines(100_000);
    const served = servedFile(file);
    const content = await readHead(served.read, 'text', file.length);
    assert.deepStrictEqual(served.asked, [`0-${PREVIEW_BYTES - 1}`]);
    assert.strictEqual(content.partial, true);
    assert.strictEqual(content.received, MB);
    assert.strictEqual(served.sent(), MB);
    const lineLength = 'line 0000000\tsome text of the line\n'.length;
    assert.strictEqual(content.bytes.length, Math.floor(MB / lineLength) * lineLength);
    assert.ok(content.bytes.equals(file.subarray(0, content.bytes.length)));
  });

  it('reads it whole when asked, and says so', async () => {
    const file = lines(100_000);
    const served = servedFile(file);
    const content = await readWhole(served.read, 'big.tsv');
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(file));
  });

  it('a storage that ignores Range (a 200 with the whole file): the head holds 1 MB, reads one chunk past it, and lets go of the rest', async () => {
    const file = lines(300_000); // 10.5 MB
    const served = servedFile(file, false);
    const content = await readHead(served.read, 'text', file.length);
    assert.strictEqual(content.partial, true);
    assert.ok(content.bytes.length <= MB && content.bytes.length > MB - 100, `${content.bytes.length} bytes held`);
    assert.ok(content.bytes.equals(file.subarray(0, content.bytes.length)));
    assert.ok(served.sent() <= MB + 65536, `${served.sent()} bytes read of ${file.length}`);
    assert.strictEqual(served.closedEarly(), 1, 'the body was let go before its end');
  });

  it('a file listed small that is not: its head is still 1 MB at most, and said to be partial', async () => {
    const file = lines(300_000);
    const served = servedFile(file);
    // Listed as 10 bytes: asked without a range, the storage sends it all.
    const content = await readHead(served.read, 'text', 10);
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.strictEqual(content.partial, true);
    assert.ok(content.bytes.length <= MB);
    assert.ok(served.sent() <= MB + 65536, `${served.sent()} bytes read`);
  });

  it('a range answer that starts elsewhere than asked is refused, not shown shifted', async () => {
    const file = lines(100_000);
    await assert.rejects(readHead(servedFile(file, true, { start: 4096 }).read, 'text', file.length), (e: unknown) => e instanceof ReadRefused && /from byte 4096/.test((e as Error).message));
    await assert.rejects(readWhole(servedFile(file, true, { start: 4096 }).read, 'big.tsv'), (e: unknown) => e instanceof ReadRefused && /from byte 4096/.test((e as Error).message));
  });

  it('the whole file is refused, never cut, when the storage sends fewer or more bytes than it said', async () => {
    const file = lines(50_000);
    const short = servedFile(file, true, { size: file.length + 100 });
    await assert.rejects(readWhole(short.read, 'short.tsv'), (e: unknown) => e instanceof ReadRefused && /sent 1\.7 MB of the 1\.7 MB of short\.tsv: nothing was kept/.test((e as Error).message));
    const long = servedFile(file, true, { size: file.length - 100 });
    await assert.rejects(readWhole(long.read, 'long.tsv'), (e: unknown) => e instanceof ReadRefused && /sent more of long\.tsv than/.test((e as Error).message));
    assert.strictEqual(long.closedEarly(), 1);
  });

  it('a file larger than the whole read may hold is refused: before reading when its size is told, at the bound when not', async () => {
    const file = lines(100_000); // 3.3 MB
    const told = servedFile(file);
    await assert.rejects(readWhole(told.read, 'big.tsv', undefined, 2 * MB), (e: unknown) => e instanceof ReadRefused && /big\.tsv is 3\.3 MB, more than the 2\.0 MB the editor reads of one file: nothing was read/.test((e as Error).message));
    assert.strictEqual(told.sent(), 0);
    const untold = servedFile(file, true, { size: undefined });
    await assert.rejects(readWhole(untold.read, 'big.tsv', undefined, 2 * MB), (e: unknown) => e instanceof ReadRefused && /more than the 2\.0 MB the editor reads of one file: the reading stopped there/.test((e as Error).message));
    assert.ok(untold.sent() <= 2 * MB + 65536, `${untold.sent()} bytes read`);
  });

  it('decompresses .gz text as it arrives (BGZF members too) and stops once 1 MB of text is there', async () => {
    const text = lines(200_000);
    // Members of 64 KiB of text each, as BGZF and the emulator write them.
    const members: Buffer[] = [];
    for (let at = 0; at < text.length; at += 65536) members.push(zlib.gzipSync(text.subarray(at, at + 65536), { level: 0 }));
    const gz = Buffer.concat(members);
    const served = servedFile(gz);
    const content = await readHead(served.read, 'gzipText', gz.length);
    assert.strictEqual(content.partial, true);
    assert.ok(content.bytes.length <= MB && content.bytes.length > MB - 100, `${content.bytes.length}`);
    assert.ok(content.bytes.equals(text.subarray(0, content.bytes.length)));
    assert.strictEqual(content.bytes[content.bytes.length - 1], 0x0a);
    assert.ok(served.sent() < gz.length / 2, `read ${served.sent()} of ${gz.length} bytes`);
  });

  it('decompresses a small .gz whole, and a large one whole when asked', async () => {
    const small = lines(1000);
    const content = await readHead(servedFile(zlib.gzipSync(small)).read, 'gzipText', undefined);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(small));
    const large = lines(100_000);
    const whole = await readInflated(servedFile(zlib.gzipSync(large)).read, Infinity);
    assert.strictEqual(whole.partial, false);
    assert.ok(whole.bytes.equals(large));
  });

  it('a small .gz that inflates to 200 MB stops inflating at the bound asked: nothing more held, and said to be more', async () => {
    // 200 members of 1 MB of zeros: 200 KB on the wire.
    const bomb = Buffer.concat(Array.from({ length: 200 }, () => zlib.gzipSync(Buffer.alloc(MB))));
    const served = servedFile(bomb);
    const content = await readInflated(served.read, ASK_BEYOND_BYTES);
    assert.strictEqual(content.partial, true);
    assert.ok(content.bytes.length <= ASK_BEYOND_BYTES, `${content.bytes.length} bytes held`);
    assert.ok(served.sent() < bomb.length, `${served.sent()} of ${bomb.length} compressed bytes read`);
  });

  it('a .gz that is not gzip fails with zlib\'s words, not garbage', async () => {
    await assert.rejects(readHead(servedFile(Buffer.from('plain text, not gzip\n')).read, 'gzipText', 21), /incorrect header check/);
  });

  it('reads any file whole, an image too, in one request without a range', async () => {
    const png = Buffer.alloc(3 * MB, 7);
    const served = servedFile(png);
    const content = await readWhole(served.read, 'plot.png');
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.ok(content.bytes.equals(png));
  });

  it('tells a binary file by its first bytes as VS Code does: a zero byte, unless laid out as UTF-16', () => {
    const utf16le = Buffer.from('plain text\n', 'utf16le');
    const utf16be = Buffer.from(utf16le).swap16();
    const cases = [Buffer.from('plain text\n'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), utf16le, utf16be, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0, 0, 7, 0])]), Buffer.concat([Buffer.alloc(600, 0x41), Buffer.from([0])]), Buffer.alloc(0)];
    assert.deepStrictEqual(cases.map(seemsBinary), [false, true, false, false, false, false, false]);
  });
});
