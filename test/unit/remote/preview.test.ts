import * as assert from 'assert';
import * as zlib from 'zlib';
import { ASK_BEYOND_BYTES, asksBeforeWhole, binaryWhat, fileKind, PREVIEW_BYTES, readContent, shownName, type RangeRead } from '../../../src/remote/preview';

const MB = 1024 * 1024;

/** A file of `size` bytes of numbered lines, served by range in 64 KiB chunks; records each range asked and bytes sent. */
function servedFile(bytes: Buffer, honoursRange = true) {
  const asked: (string | undefined)[] = [];
  let sent = 0;
  const read: RangeRead = async (range, signal) => {
    asked.push(range ? `${range.start}-${range.end ?? ''}` : undefined);
    const start = honoursRange && range ? range.start : 0;
    const end = honoursRange && range?.end !== undefined ? Math.min(range.end, bytes.length - 1) : bytes.length - 1;
    return {
      status: honoursRange && range ? 206 : 200,
      size: bytes.length,
      body: (async function* () {
        for (let at = start; at <= end; at += 65536) {
          if (signal.aborted) throw new Error('aborted');
          const chunk = bytes.subarray(at, Math.min(end + 1, at + 65536));
          sent += chunk.length;
          yield chunk;
        }
      })(),
    };
  };
  return { read, asked, sent: () => sent };
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
    const content = await readContent(served.read, 'text', file.length, false);
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(file));
  });

  it('reads a larger text file by one range of its first 1 MB, cut after its last whole line', async () => {
    const file = lines(100_000);
    const served = servedFile(file);
    const content = await readContent(served.read, 'text', file.length, false);
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
    const content = await readContent(served.read, 'text', file.length, true);
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(file));
  });

  it('a storage that ignores Range and sends it all: all of it, nothing said to be missing', async () => {
    const file = lines(60_000);
    const content = await readContent(servedFile(file, false).read, 'text', file.length, false);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(file));
  });

  it('decompresses .gz text as it arrives (BGZF members too) and stops once 1 MB of text is there', async () => {
    const text = lines(200_000);
    // Members of 64 KiB of text each, as BGZF and the emulator write them.
    const members: Buffer[] = [];
    for (let at = 0; at < text.length; at += 65536) members.push(zlib.gzipSync(text.subarray(at, at + 65536), { level: 0 }));
    const gz = Buffer.concat(members);
    const served = servedFile(gz);
    const content = await readContent(served.read, 'gzipText', gz.length, false);
    assert.strictEqual(content.partial, true);
    assert.ok(content.bytes.length <= MB && content.bytes.length > MB - 100, `${content.bytes.length}`);
    assert.ok(content.bytes.equals(text.subarray(0, content.bytes.length)));
    assert.strictEqual(content.bytes[content.bytes.length - 1], 0x0a);
    assert.ok(served.sent() < gz.length / 2, `read ${served.sent()} of ${gz.length} bytes`);
  });

  it('decompresses a small .gz whole, and a large one whole when asked', async () => {
    const small = lines(1000);
    const content = await readContent(servedFile(zlib.gzipSync(small)).read, 'gzipText', undefined, false);
    assert.strictEqual(content.partial, false);
    assert.ok(content.bytes.equals(small));
    const large = lines(100_000);
    const whole = await readContent(servedFile(zlib.gzipSync(large)).read, 'gzipText', undefined, true);
    assert.strictEqual(whole.partial, false);
    assert.ok(whole.bytes.equals(large));
  });

  it('a .gz that is not gzip fails with zlib\'s words, not garbage', async () => {
    await assert.rejects(readContent(servedFile(Buffer.from('plain text, not gzip\n')).read, 'gzipText', 21, false), /incorrect header check/);
  });

  it('reads an image whole whatever its size', async () => {
    const png = Buffer.alloc(3 * MB, 7);
    const served = servedFile(png);
    const content = await readContent(served.read, 'image', png.length, false);
    assert.deepStrictEqual(served.asked, [undefined]);
    assert.strictEqual(content.bytes.length, png.length);
  });
});
