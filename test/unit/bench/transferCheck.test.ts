import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { differs } from '../../../scripts/bench/peer/transfers';
import { generatedBlob, type Blob } from '../../emulator/content';

/** The bench's byte check of a transfer: a file that arrived wrong must not pass as a fast one. */
describe('bench transfers: what arrived is checked against the emulator', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-check-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function bytesOf(blob: Blob): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  for (const size of [100 * 1024, 6 * 1024 * 1024]) {
    it(`a file of ${size} bytes: the same bytes pass; a byte changed, a byte missing fail`, async () => {
      const remote = generatedBlob('file-1', 'a.bin', size);
      const file = path.join(dir, 'a.bin');
      const bytes = await bytesOf(remote);
      fs.writeFileSync(file, bytes);
      assert.strictEqual(await differs('a.bin', { path: file }, remote), undefined);
      assert.strictEqual(await differs('a.bin', { blob: generatedBlob('file-1', 'a.bin', size) }, remote), undefined);

      bytes[10] ^= 0xff;
      fs.writeFileSync(file, bytes);
      assert.match((await differs('a.bin', { path: file }, remote)) ?? '', /a\.bin: bytes 0–\d+ differ/);

      fs.writeFileSync(file, bytes.subarray(0, size - 1));
      assert.strictEqual(await differs('a.bin', { path: file }, remote), `a.bin: ${size - 1} bytes where ${size} were expected`);
      assert.match((await differs('a.bin', { blob: generatedBlob('file-2', 'a.bin', size) }, remote)) ?? '', /differ/);
    });
  }
});
