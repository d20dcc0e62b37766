/** The emulator's file bytes (download_info, the storage origin) and its multipart upload API. */
import * as assert from 'assert';
import * as zlib from 'zlib';
import { startEmulator, type Emulator, type FileRec } from '../../emulator';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const MiB = 1024 * 1024;

describe('emulator: file bytes and multipart upload', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let clock = Date.parse('2026-11-20T12:00:00Z');

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(emu.baseUrl + path, {
      method,
      headers: { 'X-SBG-Auth-Token': emu.token, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  const bytesOf = async (url: string, headers: Record<string, string> = {}) => {
    const r = await fetch(url, { headers });
    return { status: r.status, headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
  };
  const samples = (): FileRec[] => {
    const root = emu.data.children(emu.data.projects[0].root_folder).find((f) => f.name === 'samples')!;
    const qc = emu.data.children(root.id).find((f) => f.name === 'qc')!;
    return [...emu.data.children(root.id), ...emu.data.children(qc.id)].filter((f) => f.type === 'file');
  };
  const urlOf = async (id: string) => (await call('GET', `/files/${id}/download_info`)).body.url as string;
  /** One upload from init to complete, parts PUT straight to the storage; returns the init answer and the complete's. */
  const upload = async (bytes: Buffer, init: Json, query = '') => {
    const started = await call('POST', `/upload/multipart${query}`, { size: bytes.length, ...init });
    if (started.status !== 200) return { started, completed: undefined };
    const { upload_id: id, part_size: partSize } = started.body;
    const count = Math.max(1, Math.ceil(bytes.length / partSize));
    for (let n = 1; n <= count; n++) {
      const part = (await call('GET', `/upload/multipart/${id}/part/${n}`)).body;
      const put = await fetch(part.url, { method: 'PUT', body: bytes.subarray((n - 1) * partSize, n * partSize) });
      assert.strictEqual(put.status, 200);
      await call('POST', `/upload/multipart/${id}/part`, { part_number: n, response: { headers: { ETag: put.headers.get('etag')!.replace(/"/g, '') } } });
    }
    return { started, completed: await call('POST', `/upload/multipart/${id}/complete`) };
  };

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ tasks: 20, files: 300, now: () => clock });
  });
  afterEach(() => emu.close());

  it('every sample file is served whole and by range: valid gzip, BGZF, PNG and text, with an ETag', async () => {
    const kinds = new Set<string>();
    for (const file of samples()) {
      const url = await urlOf(file.id);
      assert.strictEqual(new URL(url).origin, emu.storageOrigin);
      const whole = await bytesOf(url);
      assert.strictEqual(whole.status, 200);
      assert.strictEqual(whole.bytes.length, file.size, file.name);
      assert.match(whole.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
      if (/\.(gz|bam)$/.test(file.name)) {
        const text = zlib.gunzipSync(whole.bytes);
        kinds.add(file.name.endsWith('.bam') ? 'bam' : 'gz');
        if (file.name.endsWith('.bam')) assert.strictEqual(text.subarray(0, 4).toString('latin1'), 'BAM\x01');
        else assert.match(text.toString('latin1', 0, 200), file.name.includes('vcf') ? /^##fileformat=VCFv4\.2\n/ : /^@read_\d+\/1\n[ACGT]+\n\+\n/);
      } else if (file.name.endsWith('.png')) {
        kinds.add('png');
        assert.strictEqual(whole.bytes.subarray(1, 4).toString('latin1'), 'PNG');
        assert.strictEqual(whole.bytes.subarray(12, 16).toString('latin1'), 'IHDR');
        assert.ok(zlib.inflateSync(whole.bytes.subarray(41, whole.bytes.length - 12 - 4)).length > 0, 'its IDAT inflates');
      } else if (/\.(txt|bed|tsv)$/.test(file.name)) {
        kinds.add('text');
        assert.match(whole.bytes.toString('latin1'), /^[\x20-\x7e\t\n]+$/);
      }
      for (const [start, end] of [[0, 99], [65_530, 65_545], [file.size! - 40, file.size! - 1]]) {
        if (end >= file.size! || start < 0) continue;
        const part = await bytesOf(url, { Range: `bytes=${start}-${end}` });
        assert.strictEqual(part.status, 206);
        assert.strictEqual(part.headers.get('content-range'), `bytes ${start}-${end}/${file.size}`);
        assert.ok(part.bytes.equals(whole.bytes.subarray(start, end + 1)), `${file.name} ${start}-${end}`);
      }
    }
    assert.deepStrictEqual([...kinds].sort(), ['bam', 'gz', 'png', 'text']);
  });

  it('a file of tens of GB: its last bytes come at once (BGZF end block), the same on every read', async () => {
    const big = emu.data.files.filter((f) => f.name.endsWith('.bam') && (f.size ?? 0) > 10e9)[0];
    assert.ok(big, 'the seeded data has a BAM over 10 GB');
    const url = await urlOf(big.id);
    const tail = await bytesOf(url, { Range: 'bytes=-28' });
    assert.strictEqual(tail.headers.get('content-range'), `bytes ${big.size! - 28}-${big.size! - 1}/${big.size}`);
    assert.strictEqual(tail.bytes.toString('hex'), '1f8b08040000000000ff0600424302001b0003000000000000000000');
    const middle = `bytes=${Math.floor(big.size! / 2)}-${Math.floor(big.size! / 2) + 99_999}`;
    assert.ok((await bytesOf(url, { Range: middle })).bytes.equals((await bytesOf(url, { Range: middle })).bytes));
  });

  it('refuses the token, a folder, a forged or expired URL; a deleted file is NoSuchKey', async () => {
    const [file] = samples();
    const url = await urlOf(file.id);
    assert.strictEqual((await bytesOf(url, { 'X-SBG-Auth-Token': emu.token })).status, 400);
    const folder = emu.data.fileById.get(file.parent!)!;
    assert.deepStrictEqual([(await call('GET', `/files/${folder.id}/download_info`)).status, (await call('GET', `/files/${folder.id}/download_info`)).body.message], [400, 'Downloading folders is not supported.']);
    emu.expireSignedUrls();
    const expired = await bytesOf(url);
    assert.strictEqual(expired.status, 403);
    assert.match(expired.bytes.toString(), /<Code>AccessDenied<\/Code><Message>Request has expired/);
    assert.strictEqual((await bytesOf(await urlOf(file.id))).status, 200, 'a URL signed afterwards works');
    clock += 16 * 60_000;
    assert.strictEqual((await bytesOf(url)).status, 403);
    const fresh = await urlOf(file.id);
    emu.data.fileById.delete(file.id);
    assert.match((await bytesOf(fresh)).bytes.toString(), /NoSuchKey/);
    assert.ok(emu.storageRequests.every((r) => !r.path.includes('Signature')));
  });

  it('a multipart upload: the server part size obeyed, parts PUT without the token, completed, downloaded back byte for byte', async () => {
    emu.uploads.settings.partSize = 5 * MiB;
    const bytes = Buffer.alloc(12 * MiB + 3, 7);
    bytes.write('hello', 5 * MiB);
    const { started, completed } = await upload(bytes, { project: 'rfranklin/my-project', name: 'new.bin', part_size: 32 * MiB });
    assert.strictEqual(started.body.part_size, 5 * MiB, 'the server answers its own part size');
    assert.strictEqual(completed!.status, 200);
    assert.strictEqual(completed!.body.name, 'new.bin');
    assert.strictEqual(completed!.body.size, bytes.length);
    const back = await bytesOf(await urlOf(completed!.body.id));
    assert.ok(back.bytes.equals(bytes));
    assert.match(back.headers.get('etag')!, /^"[0-9a-f]{32}-3"$/);
    assert.strictEqual((await bytesOf(await urlOf(completed!.body.id), { Range: `bytes=${5 * MiB}-${5 * MiB + 4}` })).bytes.toString(), 'hello');
    assert.strictEqual((await call('GET', `/upload/multipart/${started.body.upload_id}`)).status, 404, 'a completed upload is gone');
    assert.strictEqual((await call('POST', `/upload/multipart/${started.body.upload_id}/complete`)).status, 404, 'and cannot complete twice');
    assert.ok(emu.storageRequests.every((r) => !r.carriedToken));
    assert.deepStrictEqual(emu.uploads.calls.map((c) => [c.call, c.status]), [['init', 200], ['complete', 200], ['complete', 404]]);
  });

  it('part size: the server answers its own when the asked one is missing, too small, too many parts or a large file', async () => {
    const size = async (size: number, part_size?: number) => (await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name: `f${size}-${part_size}`, size, part_size })).body.part_size;
    assert.strictEqual(await size(10 * MiB), 32 * MiB);
    assert.strictEqual(await size(10 * MiB, MiB), 32 * MiB);
    assert.strictEqual(await size(10 * MiB, 8 * MiB), 8 * MiB);
    assert.strictEqual(await size(10 * MiB, 8 * MiB + 1), 9 * MiB);
    assert.strictEqual(await size(2 * 1024 * MiB, 32 * MiB), 64 * MiB);
    assert.strictEqual(await size(1000 * 1024 * MiB, 32 * MiB), 103 * MiB);
  });

  it('complete refuses a part not reported, a wrong ETag and sizes that disagree, and creates nothing', async () => {
    emu.uploads.settings.partSize = 5 * MiB;
    const started = (await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name: 'x.bin', size: 6 * MiB })).body;
    const put = async (n: number, bytes: Buffer) => {
      const r = await fetch((await call('GET', `/upload/multipart/${started.upload_id}/part/${n}`)).body.url, { method: 'PUT', body: bytes });
      return r.headers.get('etag')!.replace(/"/g, '');
    };
    const e1 = await put(1, Buffer.alloc(5 * MiB));
    await call('POST', `/upload/multipart/${started.upload_id}/part`, { part_number: 1, response: { headers: { ETag: e1 } } });
    const complete = () => call('POST', `/upload/multipart/${started.upload_id}/complete`);
    assert.match((await complete()).body.message, /Part 2 of 2 was not reported/);
    const e2 = await put(2, Buffer.alloc(2 * MiB));
    await call('POST', `/upload/multipart/${started.upload_id}/part`, { part_number: 2, response: { headers: { ETag: 'f'.repeat(32) } } });
    assert.match((await complete()).body.message, /ETag does not match/);
    await call('POST', `/upload/multipart/${started.upload_id}/part`, { part_number: 2, response: { headers: { ETag: e2 } } });
    assert.match((await complete()).body.message, /sizes disagree/);
    const info = (await call('GET', `/upload/multipart/${started.upload_id}?list_parts=true`)).body;
    assert.deepStrictEqual(info.parts.map((p: Json) => [p.part_number, p.response.headers.ETag]), [[1, e1], [2, e2]]);
    assert.strictEqual(info.uploaded_parts_count, 2);
    assert.ok(!emu.data.children(emu.data.projects[0].root_folder).some((f) => f.name === 'x.bin'));
    assert.strictEqual((await call('GET', `/upload/multipart/${started.upload_id}/part/3`)).status, 400);
  });

  it('a name taken: 409 at init, replaced with overwrite=true (a new ID); refused names are 400', async () => {
    const taken = { ...emu.data.children(emu.data.projects[0].root_folder).find((f) => f.type === 'file')! };
    const clash = await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name: taken.name, size: 3 });
    assert.deepStrictEqual([clash.status, clash.body.code], [409, 10223]);
    const { completed } = await upload(Buffer.from('new'), { project: 'rfranklin/my-project', name: taken.name }, '?overwrite=true');
    assert.strictEqual(completed!.status, 200);
    assert.notStrictEqual(completed!.body.id, taken.id);
    assert.strictEqual(emu.data.children(emu.data.projects[0].root_folder).filter((f) => f.name === taken.name).length, 1);
    assert.strictEqual((await call('GET', `/files/${taken.id}`)).status, 404);
    assert.strictEqual((await bytesOf(await urlOf(completed!.body.id))).bytes.toString(), 'new');
    for (const name of ['a/b', '', '..', 'x'.repeat(256), 'tab\there']) {
      assert.strictEqual((await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name, size: 1 })).status, 400, JSON.stringify(name));
    }
    const readOnly = emu.data.projects.find((p) => !p.permissions.write)!;
    assert.strictEqual((await call('POST', '/upload/multipart', { project: readOnly.id, name: 'x', size: 1 })).status, 403);
  });

  it('abort: 204, then nothing is left (no upload, no parts on disk, no file); list shows only pending uploads', async () => {
    const a = (await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name: 'a.bin', size: 10 })).body;
    const b = (await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name: 'b.bin', size: 10 })).body;
    await fetch((await call('GET', `/upload/multipart/${a.upload_id}/part/1`)).body.url, { method: 'PUT', body: Buffer.alloc(10) });
    assert.strictEqual(emu.uploads.bytesOnDisk(), 10);
    assert.deepStrictEqual((await call('GET', '/upload/multipart')).body.items.map((u: Json) => u.name).sort(), ['a.bin', 'b.bin']);
    const aborted = await call('DELETE', `/upload/multipart/${a.upload_id}`);
    assert.deepStrictEqual([aborted.status, aborted.body], [204, undefined]);
    assert.strictEqual(emu.uploads.bytesOnDisk(), 0);
    assert.deepStrictEqual((await call('GET', '/upload/multipart')).body.items.map((u: Json) => u.upload_id), [b.upload_id]);
    assert.strictEqual((await call('DELETE', `/upload/multipart/${a.upload_id}`)).status, 404);
  });

  it('a lost complete answer: the file is created, the connection drops', async () => {
    emu.uploads.loseNextCompleteResponse();
    await assert.rejects(upload(Buffer.from('lost'), { project: 'rfranklin/my-project', name: 'lost.txt' }));
    const made = emu.data.children(emu.data.projects[0].root_folder).filter((f) => f.name === 'lost.txt');
    assert.strictEqual(made.length, 1);
    assert.deepStrictEqual(emu.uploads.calls.filter((c) => c.call === 'complete').map((c) => [c.status, c.responseLost]), [[200, true]]);
  });

  it('faults: a GET body cut halfway, a PUT cut halfway (not kept), a 503 on a part', async () => {
    const file = samples().find((f) => f.name === 'sample_01.bam')!;
    const url = await urlOf(file.id);
    emu.storageFaults.dropNextDownloads(1);
    const cut = await fetch(url).then((r) => r.arrayBuffer()).then(() => 'whole', (e: Error) => e.message);
    assert.notStrictEqual(cut, 'whole');
    const dropped = emu.storageRequests.at(-1)!;
    assert.deepStrictEqual([dropped.dropped, dropped.bytes], [true, Math.floor(file.size! / 2)]);
    const started = (await call('POST', '/upload/multipart', { project: 'rfranklin/my-project', name: 'p.bin', size: 1000 })).body;
    const partUrl = async () => (await call('GET', `/upload/multipart/${started.upload_id}/part/1`)).body.url as string;
    emu.storageFaults.dropNextUploads(1);
    await assert.rejects(fetch(await partUrl(), { method: 'PUT', body: Buffer.alloc(1000) }));
    emu.storageFaults.failNextParts(1);
    assert.strictEqual((await fetch(await partUrl(), { method: 'PUT', body: Buffer.alloc(1000) })).status, 503);
    assert.strictEqual(emu.uploads.bytesOnDisk(), 0, 'neither was kept');
    const ok = await fetch(await partUrl(), { method: 'PUT', body: Buffer.alloc(1000, 1) });
    assert.match(ok.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
    assert.strictEqual(emu.uploads.bytesOnDisk(), 1000, 'the whole PUT is kept');
    assert.deepStrictEqual(emu.storageFaults.injected, { droppedDownloads: 1, droppedUploads: 1, partErrors: 1, getErrors: 0, expiredRefusals: 0, rangesIgnored: 0 });
  });

  it('faults: a storage that ignores Range answers every GET 200 with the whole file, and counts the ranges it ignored', async () => {
    const file = samples().find((f) => f.name === 'sample_01.bam')!;
    const url = await urlOf(file.id);
    emu.storageFaults.settings.ignoreRange = true;
    const ranged = await bytesOf(url, { Range: 'bytes=0-99' });
    assert.deepStrictEqual([ranged.status, ranged.bytes.length, ranged.headers.get('content-range')], [200, file.size, null]);
    assert.strictEqual(emu.storageFaults.injected.rangesIgnored, 1);
  });
});
