/** The emulator's volumes (platform-api.md §13): browsing, imports and exports with their job states, results and refusals. */
import * as assert from 'assert';
import { startEmulator, type Emulator, type FileRec } from '../../emulator';
import { caller, type Json } from './call';

describe('emulator: volumes, imports and exports', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;
  let clock = 0;
  const RUNS = 'rfranklin/sequencing_runs';
  const RESULTS = 'rfranklin/analysis_results';
  const ARCHIVE = 'rfranklin/old_archive';
  const mine = 'rfranklin/my-project';

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ now: () => clock, tasks: 40, files: 300, batches: [], copyStepMs: 1000 });
    call = caller(emu);
  });
  afterEach(() => emu.close());

  const root = () => emu.data.projectById.get(mine)!.root_folder;
  const rootNames = () => emu.data.children(root()).map((f) => f.name);
  const aFile = (): FileRec => emu.data.children(root()).find((f) => f.type === 'file' && !f.storage)!;
  /** Waits the job's steps out on the emulator's clock and reads it. */
  const settled = async (kind: 'imports' | 'exports', id: string, ms = 60_000) => {
    clock += ms;
    return (await call('GET', `/storage/${kind}/${id}`)).body;
  };

  describe('browsing', () => {
    it('lists the volumes (RO and RW, S3 and GCS, one inactive) and gets one; no secret; unknown 404 9007', async () => {
      const list = await call('GET', '/storage/volumes?fields=_all');
      assert.deepStrictEqual(list.body.items.map((v: Json) => [v.id, v.access_mode, v.service.type, v.active]), [
        [RUNS, 'RO', 'S3', true], [RESULTS, 'RW', 'GCS', true], [ARCHIVE, 'RW', 'S3', false],
      ]);
      assert.ok(!JSON.stringify(list.body).match(/secret|private_key/i));
      const one = await call('GET', `/storage/volumes/${RESULTS}`);
      assert.deepStrictEqual([one.body.name, one.body.service.bucket, one.body.service.prefix, one.body.href], ['analysis_results', 'franklin-lab-results', 'platform/', `${emu.baseUrl}/storage/volumes/${RESULTS}`]);
      const missing = await call('GET', '/storage/volumes/rfranklin/nothing');
      assert.deepStrictEqual([missing.status, missing.body.code], [404, 9007]);
    });

    it('one level at a time: objects and prefixes; a prefix with or without its /; pages of `limit` by continuation_token to the end', async () => {
      const top = await call('GET', `/storage/volumes/${RUNS}/list`);
      assert.deepStrictEqual(top.body.items.map((o: Json) => o.location), ['README.txt', 'samples.tsv']);
      assert.deepStrictEqual(top.body.prefixes.map((p: Json) => p.prefix), ['aligned/', 'references/', 'runs/']);
      assert.deepStrictEqual(Object.keys(top.body.items[0]).sort(), ['href', 'location', 'type', 'volume'], 'no metadata without fields=_all');
      assert.deepStrictEqual(top.body.links, []);
      const lane = await call('GET', `/storage/volumes/${RUNS}/list?prefix=runs/2026-11-02/lane1&limit=100`);
      assert.strictEqual(lane.body.items.length, 30, 'the e2e case: a prefix of exactly 30 objects');
      const seen: string[] = [];
      let url: string | undefined = `/storage/volumes/${RUNS}/list?prefix=${encodeURIComponent('runs/2026-10-14/')}&limit=100&fields=_all`;
      let pages = 0;
      while (url) {
        const page = await call('GET', url);
        assert.strictEqual(page.status, 200);
        seen.push(...page.body.items.map((o: Json) => o.location));
        url = page.body.links[0]?.next;
        if (url) assert.ok(url.startsWith(emu.baseUrl) && url.includes('continuation_token='), url);
        pages++;
      }
      assert.deepStrictEqual([pages, seen.length, new Set(seen).size], [4, 320, 320]);
      assert.deepStrictEqual(seen, [...seen].sort());
      const bad = await call('GET', `/storage/volumes/${RUNS}/list?continuation_token=nonsense`);
      assert.deepStrictEqual([bad.status, bad.body.code], [400, 9011]);
    });

    it('metadata with fields=_all: S3 size a number, GCS size a text; one object by location, missing 404 9105; an inactive volume 400 9001', async () => {
      const s3 = (await call('GET', `/storage/volumes/${RUNS}/object?location=README.txt`)).body;
      assert.deepStrictEqual([s3.type, typeof s3.metadata.size, s3.metadata.content_type], ['s3', 'number', 'text/plain']);
      const gcs = (await call('GET', `/storage/volumes/${RESULTS}/list?prefix=qc/2026/&fields=_all`)).body.items[0];
      assert.deepStrictEqual([gcs.type, typeof gcs.metadata.size, gcs.metadata.bucket, gcs.metadata.name], ['gcs', 'string', 'franklin-lab-results', 'platform/qc/2026/report_01.html']);
      const missing = await call('GET', `/storage/volumes/${RUNS}/object?location=nothing.txt`);
      assert.deepStrictEqual([missing.status, missing.body.code], [404, 9105]);
      const inactive = await call('GET', `/storage/volumes/${ARCHIVE}/list`);
      assert.deepStrictEqual([inactive.status, inactive.body.code], [400, 9001]);
    });
  });

  describe('imports', () => {
    it('a file: 201 PENDING, RUNNING, COMPLETED; the file is a link to the object, named after it; listed newest first; bulk get', async () => {
      const r = await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'samples.tsv' }, destination: { project: mine } });
      assert.deepStrictEqual([r.status, r.body.state, r.body.source, r.body.destination], [201, 'PENDING', { volume: RUNS, location: 'samples.tsv' }, { project: mine }]);
      assert.match(r.body.id, /^[A-Za-z0-9]{32}$/);
      clock += 1000;
      assert.strictEqual((await call('GET', `/storage/imports/${r.body.id}`)).body.state, 'RUNNING');
      const done = await settled('imports', r.body.id, 1000);
      assert.deepStrictEqual([done.state, done.result.name, done.result.storage, done.result.parent, typeof done.started_on, typeof done.finished_on],
        ['COMPLETED', 'samples.tsv', { type: 'VOLUME', volume: RUNS, location: 'samples.tsv' }, root(), 'string', 'string']);
      const second = (await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'README.txt' }, destination: { project: mine, name: 'readme.txt' } })).body;
      const list = await call('GET', `/storage/imports?project=${mine}&volume=${RUNS}`);
      assert.deepStrictEqual(list.body.items.map((j: Json) => j.id), [second.id, r.body.id]);
      assert.deepStrictEqual((await call('GET', '/storage/imports?state=COMPLETED')).body.items.map((j: Json) => j.id), [r.body.id]);
      assert.deepStrictEqual((await call('GET', '/storage/imports?state=PENDING&state=COMPLETED')).body.items.length, 2);
      const bulk = await call('POST', '/bulk/storage/imports/get', { import_ids: [second.id, 'nothing'] });
      assert.deepStrictEqual(bulk.body.items.map((i: Json) => i.resource?.id ?? i.error.code), [second.id, 9008]);
      assert.deepStrictEqual((await call('GET', '/storage/imports/nothing')).body.code, 9008);
    });

    it('a name taken: FAILED 409 9108 without flags; autorename _1_name; overwrite replaces the file', async () => {
      const existing = aFile();
      const item = (flags: Json) => ({ source: { volume: RUNS, location: 'README.txt' }, destination: { parent: root(), name: existing.name }, ...flags });
      const plain = (await call('POST', '/storage/imports', item({}))).body;
      const renamed = (await call('POST', '/storage/imports', item({ autorename: true }))).body;
      const failed = await settled('imports', plain.id);
      assert.deepStrictEqual([failed.state, failed.error.status, failed.error.code], ['FAILED', 409, 9108]);
      assert.strictEqual((await call('GET', `/storage/imports/${renamed.id}`)).body.result.name, `_1_${existing.name}`);
      const over = await settled('imports', (await call('POST', '/storage/imports', item({ overwrite: true }))).body.id);
      assert.deepStrictEqual([over.state, over.result.name, emu.data.fileById.has(existing.id)], ['COMPLETED', existing.name, false]);
    });

    it('a prefix of 30 objects into a folder: one folder named after the prefix holding them; flat without preserve_folder_structure; nested prefixes as subfolders', async () => {
      const folder = emu.data.children(root()).find((f) => f.type === 'folder')!;
      const job = (await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'runs/2026-11-02/lane1/' }, destination: { parent: folder.id } })).body;
      clock += 1000;
      assert.strictEqual((await call('GET', `/storage/imports/${job.id}`)).body.state, 'RUNNING');
      clock += 1000;
      assert.strictEqual((await call('GET', `/storage/imports/${job.id}`)).body.state, 'RUNNING', '30 objects: RUNNING for ceil(30 / 25) = 2 steps');
      clock += 1000;
      const done = (await call('GET', `/storage/imports/${job.id}`)).body;
      assert.deepStrictEqual([done.state, done.result.name, done.result.type], ['COMPLETED', 'lane1', 'folder']);
      assert.strictEqual(emu.data.children(done.result.id).length, 30);
      const flat = await settled('imports', (await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'runs/2026-11-02/lane2/' }, destination: { project: mine }, preserve_folder_structure: false })).body.id);
      assert.deepStrictEqual([flat.result.id, rootNames().filter((n) => n.startsWith('L2S')).length], [root(), 12]);
      const tree = await settled('imports', (await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'runs/2026-11-02/' }, destination: { project: mine, name: 'run_1102' } })).body.id);
      assert.deepStrictEqual(emu.data.children(tree.result.id).map((f) => [f.name, f.type, emu.data.children(f.id).length]), [['lane1', 'folder', 30], ['lane2', 'folder', 12]]);
      const again = await settled('imports', (await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'runs/2026-11-02/lane1/' }, destination: { parent: folder.id } })).body.id);
      assert.deepStrictEqual([again.state, again.error?.code, emu.data.children(done.result.id).length], ['FAILED', 9108, 30], 'merging into lane1 would clash: nothing made');
    });

    it('refused at submit: 9011, 9007, 9001, 9012, 5026, 5022, 90002; a location with nothing there FAILED 404 9105', async () => {
      const readOnly = emu.data.projects.find((p) => !p.permissions.write)!;
      const before = emu.data.imports.length;
      for (const [body, status, code] of [
        [{ source: { volume: RUNS }, destination: { project: mine } }, 400, 9011],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: {} }, 400, 9011],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: { project: mine, parent: root() } }, 400, 9011],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: { project: mine }, overwrite: 'yes' }, 400, 9011],
        [{ source: { volume: 'rfranklin/nothing', location: 'README.txt' }, destination: { project: mine } }, 404, 9007],
        [{ source: { volume: ARCHIVE, location: '2019/run_1.tar' }, destination: { project: mine } }, 400, 9001],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: { project: 'nobody/nothing' } }, 404, 9012],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: { parent: 'ffffffffffffffffffffffff' } }, 404, 5026],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: { parent: aFile().id } }, 400, 5022],
        [{ source: { volume: RUNS, location: 'README.txt' }, destination: { project: readOnly.id } }, 403, 90002],
      ] as [Json, number, number][]) {
        const r = await call('POST', '/storage/imports', body);
        assert.deepStrictEqual([r.status, r.body.code], [status, code], JSON.stringify(body));
      }
      assert.strictEqual(emu.data.imports.length, before);
      const nothing = await settled('imports', (await call('POST', '/storage/imports', { source: { volume: RUNS, location: 'nothing/here.txt' }, destination: { project: mine } })).body.id);
      assert.deepStrictEqual([nothing.state, nothing.error.status, nothing.error.code], ['FAILED', 404, 9105]);
    });

    it('bulk: at most 100 a call, one result per item in order (a refusal is its own item)', async () => {
      const items = [
        { source: { volume: RUNS, location: 'runs/2026-10-14/S001_R1.fastq.gz' }, destination: { project: mine } },
        { source: { volume: 'rfranklin/nothing', location: 'x' }, destination: { project: mine } },
        { source: { volume: RUNS, location: 'runs/2026-10-14/S001_R2.fastq.gz' }, destination: { project: mine } },
      ];
      const r = await call('POST', '/bulk/storage/imports/create', { items });
      assert.deepStrictEqual([r.status, r.body.items.map((i: Json) => i.resource?.state ?? i.error.code)], [200, ['PENDING', 9007, 'PENDING']]);
      clock += 60_000;
      const got = await call('POST', '/bulk/storage/imports/get', { import_ids: [r.body.items[0].resource.id, r.body.items[2].resource.id] });
      assert.deepStrictEqual(got.body.items.map((i: Json) => [i.resource.state, i.resource.result.name]), [['COMPLETED', 'S001_R1.fastq.gz'], ['COMPLETED', 'S001_R2.fastq.gz']]);
      const tooMany = await call('POST', '/bulk/storage/imports/create', { items: Array.from({ length: 101 }, () => items[0]) });
      assert.strictEqual(tooMany.status, 400);
      assert.strictEqual((await call('POST', '/bulk/storage/imports/create', { items: [] })).status, 400);
    });
  });

  describe('exports', () => {
    it('copy_only: the object appears on the volume, the file stays on the platform; without it the file becomes a link that cannot be exported again', async () => {
      const file = aFile();
      const copy = await call('POST', '/storage/exports?copy_only=true', { source: { file: file.id }, destination: { volume: RESULTS, location: `exports/${file.name}` } });
      assert.deepStrictEqual([copy.status, copy.body.state, copy.body.properties], [201, 'PENDING', { sse_algorithm: 'AES256' }]);
      const done = await settled('exports', copy.body.id);
      assert.deepStrictEqual([done.state, done.result.id, done.result.storage], ['COMPLETED', file.id, undefined]);
      const listed = await call('GET', `/storage/volumes/${RESULTS}/list?prefix=exports/`);
      assert.ok(listed.body.items.some((o: Json) => o.location === `exports/${file.name}`));
      const moved = await settled('exports', (await call('POST', '/storage/exports', { source: { file: file.id }, destination: { volume: RESULTS, location: `moved/${file.name}` } })).body.id);
      assert.deepStrictEqual(moved.result.storage, { type: 'VOLUME', volume: RESULTS, location: `moved/${file.name}` });
      assert.deepStrictEqual((await call('GET', `/files/${file.id}`)).body.storage.type, 'VOLUME');
      const again = await call('POST', '/storage/exports', { source: { file: file.id }, destination: { volume: RESULTS, location: 'again.txt' } });
      assert.deepStrictEqual([again.status, again.body.code], [403, 9006]);
      assert.deepStrictEqual((await call('GET', `/storage/exports?volume=${RESULTS}`)).body.items.map((j: Json) => j.id), [moved.id, copy.body.id]);
    });

    it('an occupied location without overwrite: FAILED 409 9107; with overwrite: COMPLETED', async () => {
      const item = (overwrite: boolean) => ({ source: { file: aFile().id }, destination: { volume: RESULTS, location: 'exports/existing.vcf.gz' }, overwrite });
      const failed = await settled('exports', (await call('POST', '/storage/exports?copy_only=true', item(false))).body.id);
      assert.deepStrictEqual([failed.state, failed.error.status, failed.error.code], ['FAILED', 409, 9107]);
      const over = await settled('exports', (await call('POST', '/storage/exports?copy_only=true', item(true))).body.id);
      assert.strictEqual(over.state, 'COMPLETED');
    });

    it('refused at submit: RO volume 9026, public file 9006, unknown file 9009, unknown volume 9007, a folder 400, inactive 9002, bad properties; bulk in order', async () => {
      const publicFile = emu.data.files.find((f) => f.project === 'admin/sbg-public-data' && f.type === 'file')!;
      const folder = emu.data.children(root()).find((f) => f.type === 'folder')!;
      const to = (volume: string, location = 'x.txt') => ({ volume, location });
      for (const [body, status, code] of [
        [{ source: { file: aFile().id }, destination: to(RUNS) }, 400, 9026],
        [{ source: { file: publicFile.id }, destination: to(RESULTS) }, 403, 9006],
        [{ source: { file: 'ffffffffffffffffffffffff' }, destination: to(RESULTS) }, 404, 9009],
        [{ source: { file: aFile().id }, destination: to('rfranklin/nothing') }, 404, 9007],
        [{ source: { file: folder.id }, destination: to(RESULTS) }, 400, 90000],
        [{ source: { file: aFile().id }, destination: to(ARCHIVE) }, 400, 9002],
        [{ source: { file: aFile().id }, destination: to(RESULTS, 'dir/') }, 400, 9011],
        [{ source: { file: aFile().id }, destination: to(RESULTS), properties: { sse_algorithm: 'rot13' } }, 400, 9032],
        [{ source: { file: aFile().id }, destination: to(RESULTS), properties: { aws_storage_class: 'CHEAP' } }, 400, 9024],
      ] as [Json, number, number][]) {
        const r = await call('POST', '/storage/exports?copy_only=true', body);
        assert.deepStrictEqual([r.status, r.body.code], [status, code], JSON.stringify(body));
      }
      assert.strictEqual(emu.data.exports.length, 0);
      const bulk = await call('POST', '/bulk/storage/exports/create?copy_only=true', { items: [{ source: { file: publicFile.id }, destination: to(RESULTS) }, { source: { file: aFile().id }, destination: to(RESULTS, 'bulk.txt') }] });
      assert.deepStrictEqual(bulk.body.items.map((i: Json) => i.error?.code ?? i.resource.state), [9006, 'PENDING']);
      const got = await call('POST', '/bulk/storage/exports/get', { export_ids: [bulk.body.items[1].resource.id] });
      assert.strictEqual(got.body.items[0].resource.destination.location, 'bulk.txt');
    });
  });
});
