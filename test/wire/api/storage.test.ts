// The storage client (signed URLs: no token, never logged whole, bodies streamed) and the multipart upload API.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import type { AddressInfo } from 'net';
import { Readable } from 'stream';
import { SbClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { FileSpanBody } from '../../../src/transfer/fileSpanBody';
import { isLocalError } from '../../../src/util/localError';
import { nodeStorageFetch } from '../../../src/api/storageFetch';
import { StorageClient, StorageError, safeLocation } from '../../../src/api/storage';
import type { RequestLogEntry } from '../../../src/api/transport';
import { startEmulator, type Emulator } from '../../emulator';
import { FakeClock } from '../../support/fakeClock';

const MiB = 1024 * 1024;

async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('storage client and uploads API', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let client: SbClient;
  let log: RequestLogEntry[];
  let storage: StorageClient;
  const sample = (name: string) => {
    const folder = emu.data.children(emu.data.projects[0].root_folder).find((f) => f.name === 'samples')!;
    return emu.data.children(folder.id).find((f) => f.name === name)!;
  };

  beforeEach(async () => {
    emu = await startEmulator({ tasks: 10, files: 60 });
    client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) });
    log = [];
    storage = new StorageClient({ onRequest: (e) => log.push(e) });
  });
  afterEach(() => emu.close());

  it('reads a range, a tail and the whole file without the token, logging host and path only', async () => {
    const bam = sample('sample_01.bam');
    const url = await client.files.downloadInfo(bam.id);
    const whole = await storage.read(url, undefined);
    const bytes = await collect(whole.body);
    assert.deepStrictEqual([whole.status, whole.start, whole.size, bytes.length], [200, 0, bam.size, bam.size]);
    assert.match(whole.etag!, /^"[0-9a-f]{32}"$/);
    const range = await storage.read(url, { start: 1000, end: 1999 });
    assert.deepStrictEqual([range.status, range.start, range.size, range.length], [206, 1000, bam.size, 1000]);
    assert.ok((await collect(range.body)).equals(bytes.subarray(1000, 2000)));
    const rest = await storage.read(url, { start: bam.size! - 10 });
    assert.ok((await collect(rest.body)).equals(bytes.subarray(-10)));
    const tail = await storage.read(url, { tail: 28 });
    assert.strictEqual((await collect(tail.body)).toString('hex').slice(0, 8), '1f8b0804', 'the BGZF end block');
    const past = await storage.read(url, { start: bam.size! + 5 });
    assert.deepStrictEqual([past.status, past.size, (await collect(past.body)).length], [416, bam.size, 0]);
    assert.ok(emu.storageRequests.every((r) => !r.carriedToken));
    assert.deepStrictEqual(emu.storageRequests.map((r) => r.range), [undefined, 'bytes=1000-1999', `bytes=${bam.size! - 10}-`, 'bytes=-28', `bytes=${bam.size! + 5}-`]);
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    assert.ok(log.length === 5 && log.every((e) => e.path === safeLocation(url) && !JSON.stringify(e).includes(signature)));
  });

  it('a refusal says the status and S3 code, never the signature: expired (a new link may work), deleted (gone)', async () => {
    const file = sample('regions.bed');
    const url = await client.files.downloadInfo(file.id);
    emu.expireSignedUrls();
    const expired = await storage.read(url, undefined).then(() => undefined, (e: unknown) => e);
    assert.ok(expired instanceof StorageError && expired.linkRefused && !expired.gone && expired.storageCode === 'AccessDenied');
    assert.strictEqual(expired.message, 'The file storage answered HTTP 403 (AccessDenied).');
    const fresh = await client.files.downloadInfo(file.id);
    emu.data.fileById.delete(file.id);
    const gone = await storage.read(fresh, undefined).then(() => undefined, (e: unknown) => e);
    assert.ok(gone instanceof StorageError && gone.gone && gone.status === 404);
    for (const error of [expired, gone]) assert.ok(!JSON.stringify({ m: error.message, p: error.path, s: error.stack }).includes('Signature='));
  });

  it('a body cut in the middle ends the read with a network error at once (not a wait)', async () => {
    const bam = sample('sample_01.bam');
    emu.storageFaults.dropNextDownloads(1);
    const read = await storage.read(await client.files.downloadInfo(bam.id), undefined);
    let received = 0;
    const error = await (async () => {
      for await (const chunk of read.body) received += chunk.length;
    })().then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ApiError && error.kind === 'network' && error.isTransient, String(error));
    assert.ok(received > 0 && received <= Math.floor(bam.size! / 2));
  });

  it('a stalled body ends when nothing moved for the idle time (on the injected clock)', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write(Buffer.alloc(10));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const clock = new FakeClock();
    try {
      const slow = new StorageClient({ clock, idleTimeoutMs: 30_000 });
      const read = await slow.read(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?sig=1`, undefined);
      const iterator = read.body[Symbol.asyncIterator]();
      assert.strictEqual((await iterator.next()).value.length, 10);
      const next = iterator.next();
      clock.advance(30_000);
      await assert.rejects(next, (e: ApiError) => e.kind === 'timeout' && /stopped answering/.test(e.message));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a body that keeps moving is not cut after the idle time; one that stops is, counted from its last byte (on the injected clock)', async () => {
    let response: http.ServerResponse | undefined;
    const server = http.createServer((_req, res) => {
      response = res;
      res.writeHead(200, { 'Content-Length': '100' });
      res.write(Buffer.alloc(10));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const clock = new FakeClock();
    try {
      const slow = new StorageClient({ clock, idleTimeoutMs: 30_000 });
      const read = await slow.read(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?sig=1`, undefined);
      const iterator = read.body[Symbol.asyncIterator]();
      assert.strictEqual((await iterator.next()).value.length, 10);
      await clock.tickAsync(20_000);
      response!.write(Buffer.alloc(20));
      assert.strictEqual((await iterator.next()).value.length, 20);
      // 40 s since the start, 20 s since the last byte: still alive.
      await clock.tickAsync(20_000);
      const seen: { outcome?: unknown } = {};
      const next = iterator.next().then((r) => (seen.outcome = r), (e: unknown) => (seen.outcome = e));
      await new Promise((r) => setTimeout(r, 20));
      assert.strictEqual(seen.outcome, undefined, 'not cut 20 s after its last byte');
      await clock.tickAsync(10_000);
      await next;
      const error: unknown = Reflect.get(seen, 'outcome');
      assert.ok(error instanceof ApiError && error.kind === 'timeout' && /stopped answering/.test(error.message), String(error));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('hands on each chunk as it arrived (never joined into a new buffer); while one waits to be taken the response is paused, the rest left in the socket; leaving the loop early ends the request', async () => {
    const body = Buffer.alloc(8 * MiB);
    for (let i = 0; i < body.length; i += 4) body.writeUInt32LE(i, i);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(body.length) });
      const write = (at: number): void => {
        while (at < body.length) {
          const more = res.write(body.subarray(at, at + 64 * 1024));
          at += 64 * 1024;
          if (!more) return void res.once('drain', () => write(at));
        }
        res.end();
      };
      write(0);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x?sig=1`;
    const responses: http.IncomingMessage[] = [];
    const reader = new StorageClient({
      fetch: async (u, init) => {
        const answer = await nodeStorageFetch(u, init);
        responses.push(answer.body as http.IncomingMessage);
        return answer;
      },
    });
    try {
      const read = await reader.read(url, undefined);
      const iterator = read.body[Symbol.asyncIterator]();
      const chunks: Buffer[] = [(await iterator.next()).value as Buffer];
      // Not taken for a while: the response stops flowing with little of it buffered.
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(responses[0].isPaused(), 'paused while a chunk waits');
      assert.ok(responses[0].readableLength <= 128 * 1024, `${responses[0].readableLength} bytes buffered`);
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) chunks.push(r.value);
      assert.ok(Buffer.concat(chunks).equals(body), 'every byte, in order');
      assert.ok(chunks.every((c) => c.length <= 64 * 1024), `chunks as they arrived (largest ${Math.max(...chunks.map((c) => c.length))} bytes)`);
      const again = await reader.read(url, undefined);
      for await (const chunk of again.body) {
        assert.ok(chunk.length > 0);
        break;
      }
      assert.ok(responses[1].destroyed, 'the request left early is ended');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('PUTs a part with its length and no token; the ETag comes back without quotes; a 503 is a transient StorageError', async () => {
    const upload = await client.uploads.init({ destination: { project: 'rfranklin/my-project' }, name: 'p.bin', size: 6 * MiB, partSize: 5 * MiB }, {});
    assert.strictEqual(upload.part_size, 5 * MiB);
    const target = await client.uploads.partTarget(upload.upload_id, 1);
    assert.deepStrictEqual([target.method, target.successCodes, target.reportHeaders], ['PUT', [200], ['ETag']]);
    const part = Buffer.alloc(5 * MiB, 1);
    emu.storageFaults.failNextParts(1);
    const refused = await storage.put(target.url, Readable.from([part]), part.length).then(() => undefined, (e: unknown) => e);
    assert.ok(refused instanceof StorageError && refused.status === 503 && refused.isTransient);
    const etag = await storage.put(target.url, Readable.from([part.subarray(0, MiB), part.subarray(MiB)]), part.length, { successCodes: target.successCodes });
    assert.match(etag, /^[0-9a-f]{32}$/);
    await client.uploads.reportPart(upload.upload_id, 1, etag);
    const info = await client.uploads.info(upload.upload_id, { listParts: true });
    assert.deepStrictEqual(info.parts?.map((p) => [p.part_number, p.response?.headers?.ETag]), [[1, etag]]);
    assert.deepStrictEqual((await client.uploads.list()).items.map((u) => u.upload_id), [upload.upload_id]);
    await client.uploads.abort(upload.upload_id);
    await client.uploads.abort(upload.upload_id); // gone already: not an error
    assert.ok(emu.storageRequests.every((r) => !r.carriedToken));
    assert.ok(log.every((e) => !e.path.includes('?')));
  });

  it('PUTs stretches of a local file from two buffers used in turn: the file made of them reads back byte for byte; a file shorter than the stretch fails the request', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-span-'));
    try {
      const local = path.join(dir, 'big.bin');
      const bytes = Buffer.alloc(13 * MiB);
      for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE(i, i);
      fs.writeFileSync(local, bytes);
      const upload = await client.uploads.init({ destination: { project: 'rfranklin/my-project' }, name: 'span.bin', size: bytes.length, partSize: 5 * MiB }, {});
      const putPart = async (partNumber: number, body: FileSpanBody) => {
        const target = await client.uploads.partTarget(upload.upload_id, partNumber);
        await client.uploads.reportPart(upload.upload_id, partNumber, await storage.put(target.url, body, body.length, { successCodes: target.successCodes }));
      };
      // Bytes 5–10 MiB, in chunks of 2 MiB (the last one smaller): 3 writes, each one counted once it was taken.
      const middle = new FileSpanBody(local, 5 * MiB, 10 * MiB, 2 * MiB);
      const sent: number[] = [];
      middle.on('data', (chunk: Buffer) => sent.push(chunk.length));
      await putPart(2, middle);
      assert.deepStrictEqual(sent, [2 * MiB, 2 * MiB, MiB]);
      // The stretch runs past the file's end (the file was cut meanwhile): the disk's error, not a part of the wrong
      // length, nor a network error to be tried again.
      const short = new FileSpanBody(local, 10 * MiB, 15 * MiB);
      const third = await client.uploads.partTarget(upload.upload_id, 3);
      await assert.rejects(storage.put(third.url, short, short.length), (e: Error) => isLocalError(e) && !(e instanceof ApiError) && /ended at byte/.test(e.message));
      await putPart(1, new FileSpanBody(local, 0, 5 * MiB, 2 * MiB));
      await putPart(3, new FileSpanBody(local, 10 * MiB, 13 * MiB, 2 * MiB));
      const made = await client.uploads.complete(upload.upload_id);
      const back = await collect((await storage.read(await client.files.downloadInfo(made.id), undefined)).body);
      assert.ok(back.equals(bytes), 'the file reads back as the local one, byte for byte');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads success codes inside `report` too; refuses an upload ID that would leave its path, before sending', async () => {
    const fake = new SbClient({
      credentials: async () => ({ endpoint: 'https://api.example/v2', token: '0d9b3c1f6a7e4b2c8d5f1a3e7c9b2d4f' }),
      fetch: async () => ({
        status: 200,
        headers: { get: () => null },
        text: async () => JSON.stringify({ url: 'https://bucket.example/p?sig', report: { headers: ['ETag'], success_codes: [200, 201] } }),
      }),
    });
    assert.deepStrictEqual((await fake.uploads.partTarget('abc', 2)).successCodes, [200, 201]);
    await assert.rejects(fake.uploads.info('../../user'), (e: ApiError) => e.kind === 'invalid');
  });
});
