/** Every new write of the emulator under faults: a lost answer after processing, 429, maintenance; and the rate limit. */
import * as assert from 'assert';
import { matchesWrite, startEmulator, WRITES, type Emulator } from '../../emulator';
import { caller } from './call';

interface Case {
  name: string;
  method: string;
  /** path below /v2 */
  path: (emu: Emulator) => string;
  body: (emu: Emulator) => unknown;
  /** whether the write took effect */
  done: (emu: Emulator) => boolean;
  /** the kind `WRITES` names it by, when it has one */
  kind?: keyof typeof WRITES;
}

const project = (emu: Emulator) => emu.data.projects[0];
const file = (emu: Emulator, i = 0) => emu.data.children(project(emu).root_folder).filter((f) => f.type === 'file')[i];
const folder = (emu: Emulator) => emu.data.children(project(emu).root_folder).find((f) => f.type === 'folder')!;
const draft = (emu: Emulator) => emu.data.tasks.find((t) => t.status === 'DRAFT' && !t.batch)!;
const failed = (emu: Emulator) => emu.data.tasks.find((t) => t.status === 'FAILED' && !t.batch)!;
const TOOL = { class: 'CommandLineTool', cwlVersion: 'v1.0', inputs: [{ id: 'x', type: 'string' }], outputs: [] };
const RUNS = 'rfranklin/sequencing_runs';
const RESULTS = 'rfranklin/analysis_results';
const app = (emu: Emulator, short: string) => emu.data.apps.get(`${project(emu).id}/${short}`);
const anImport = (e: Emulator) => ({ source: { volume: RUNS, location: 'README.txt' }, destination: { project: project(e).id } });
const anExport = (e: Emulator) => ({ source: { file: file(e).id }, destination: { volume: RESULTS, location: 'out/x.txt' } });
let tasksBefore = 0;
let jobsBefore = 0;

const CASES: Case[] = [
  { name: 'create a folder', method: 'POST', path: () => '/files', body: (e) => ({ name: 'made', type: 'folder', project: project(e).id }), done: (e) => e.data.children(project(e).root_folder).some((f) => f.name === 'made') },
  { name: 'rename', method: 'PATCH', path: (e) => `/files/${file(e).id}`, body: () => ({ name: 'renamed.txt' }), done: (e) => file(e).name === 'renamed.txt' },
  { name: 'tags', method: 'PUT', path: (e) => `/files/${file(e).id}/tags`, body: () => ['t1'], done: (e) => file(e).tags.join() === 't1' },
  { name: 'metadata PATCH', method: 'PATCH', path: (e) => `/files/${file(e).id}/metadata`, body: () => ({ m: '1' }), done: (e) => file(e).metadata.m === '1' },
  { name: 'metadata PUT', method: 'PUT', path: (e) => `/files/${file(e).id}/metadata`, body: () => ({ only: '1' }), done: (e) => JSON.stringify(file(e).metadata) === '{"only":"1"}' },
  { name: 'single move', method: 'POST', path: (e) => `/files/${file(e).id}/actions/move`, body: (e) => ({ parent: folder(e).id }), done: (e) => e.data.fileById.get(firstFileId)?.parent === folder(e).id },
  { name: 'delete', method: 'DELETE', path: (e) => `/files/${file(e).id}`, body: () => undefined, done: (e) => !emu0Has(e) },
  { name: 'async move', method: 'POST', path: () => '/async/files/move', body: (e) => ({ items: [{ file: file(e).id, parent: folder(e).id }] }), done: (e) => e.data.jobs.length === jobsBefore + 1 },
  { name: 'async delete', method: 'POST', path: () => '/async/files/delete', body: (e) => ({ items: [{ file: file(e).id }] }), done: (e) => e.data.jobs.length === jobsBefore + 1 },
  { name: 'bulk delete', method: 'POST', path: () => '/bulk/files/delete', body: (e) => ({ file_ids: [file(e).id] }), done: (e) => !emu0Has(e) },
  { name: 'bulk update', method: 'POST', path: () => '/bulk/files/update', body: (e) => ({ items: [{ id: file(e).id, tags: ['u'] }] }), done: (e) => file(e).tags.join() === 'u' },
  { name: 'bulk edit', method: 'POST', path: () => '/bulk/files/edit', body: (e) => ({ items: [{ id: file(e).id, metadata: { e: '1' } }] }), done: (e) => file(e).metadata.e === '1' },
  { name: 'create a task', method: 'POST', path: () => '/tasks', body: (e) => ({ project: project(e).id, app: `${project(e).id}/grep/1`, inputs: {} }), done: (e) => e.data.tasks.length === tasksBefore + 1, kind: 'createTask' },
  { name: 'clone and run', method: 'POST', path: (e) => `/tasks/${failed(e).id}/actions/clone?action=run`, body: () => undefined, done: (e) => e.data.tasks.length === tasksBefore + 1, kind: 'taskAction' },
  { name: 'change a draft', method: 'PATCH', path: (e) => `/tasks/${draft(e).id}`, body: () => ({ name: 'changed' }), done: (e) => draft(e).name === 'changed', kind: 'changeDraft' },
  { name: "change a draft's inputs", method: 'PATCH', path: (e) => `/tasks/${draft(e).id}/inputs`, body: () => ({ threads: 3 }), done: (e) => draft(e).inputs.threads === 3, kind: 'changeDraft' },
  { name: 'delete a draft', method: 'DELETE', path: (e) => `/tasks/${draft(e).id}`, body: () => undefined, done: (e) => e.data.tasks.length === tasksBefore - 1, kind: 'deleteTask' },
  { name: 'install an app', method: 'POST', path: (e) => `/apps/${project(e).id}/new-tool/raw`, body: () => TOOL, done: (e) => app(e, 'new-tool') !== undefined, kind: 'appInstall' },
  { name: 'an app revision', method: 'POST', path: (e) => `/apps/${project(e).id}/variant-filter/4/raw`, body: () => TOOL, done: (e) => app(e, 'variant-filter')!.revisions.length === 5, kind: 'appRevision' },
  { name: 'copy an app', method: 'POST', path: (e) => `/apps/${project(e).id}/variant-filter/actions/copy`, body: (e) => ({ project: e.data.projects[1].id }), done: (e) => e.data.apps.has(`${e.data.projects[1].id}/variant-filter`), kind: 'appCopy' },
  { name: 'import', method: 'POST', path: () => '/storage/imports', body: anImport, done: (e) => e.data.imports.length === 1, kind: 'import' },
  { name: 'bulk import', method: 'POST', path: () => '/bulk/storage/imports/create', body: (e) => ({ items: [anImport(e)] }), done: (e) => e.data.imports.length === 1, kind: 'bulkImport' },
  { name: 'export', method: 'POST', path: () => '/storage/exports?copy_only=true', body: anExport, done: (e) => e.data.exports.length === 1, kind: 'export' },
  { name: 'bulk export', method: 'POST', path: () => '/bulk/storage/exports/create?copy_only=true', body: (e) => ({ items: [anExport(e)] }), done: (e) => e.data.exports.length === 1, kind: 'bulkExport' },
];

/** The first root file of the first project is still the one the case started with (set in beforeEach). */
let firstFileId = '';
function emu0Has(e: Emulator): boolean {
  return e.data.fileById.has(firstFileId) && e.data.fileById.get(firstFileId)!.parent === project(e).root_folder;
}

describe('emulator: faults and the rate limit on every new write', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;

  beforeEach(async () => {
    emu = await startEmulator({ tasks: 40, files: 200, batches: [], immediateResults: 0 });
    call = caller(emu);
    firstFileId = file(emu).id;
    tasksBefore = emu.data.tasks.length;
    jobsBefore = emu.data.jobs.length;
  });
  afterEach(() => emu.close());

  for (const c of CASES) {
    describe(c.name, () => {
      it('answers with the X-RateLimit headers and counts against the limit', async () => {
        const before = Number((await call('GET', '/user')).headers.get('x-ratelimit-remaining'));
        const r = await call(c.method, c.path(emu), c.body(emu));
        assert.ok(r.status < 300, `${c.name}: ${r.status} ${r.text}`);
        assert.strictEqual(Number(r.headers.get('x-ratelimit-remaining')), before - 1);
        assert.match(r.headers.get('x-ratelimit-reset') ?? '', /^\d+$/);
        assert.strictEqual(r.headers.get('x-ratelimit-limit'), '1000');
        assert.ok(c.done(emu), 'took effect');
        assert.deepStrictEqual(emu.writes.map((w) => [w.method, w.status]), [[c.method, r.status]]);
      });

      it('a lost answer: processed, then the connection dropped; the write is recorded as lost', async () => {
        emu.loseNextWriteResponse();
        await assert.rejects(call(c.method, c.path(emu), c.body(emu)));
        assert.ok(c.done(emu), 'it took effect');
        assert.strictEqual(emu.writes.length, 1);
        assert.strictEqual(emu.writes[0].responseLost, true);
        assert.strictEqual(emu.writes[0].method, c.method);
      });

      it('429 and maintenance: not processed, recorded as such', async () => {
        emu.burst429(1, 30);
        const limited = await call(c.method, c.path(emu), c.body(emu));
        assert.deepStrictEqual([limited.status, limited.body.code], [429, 1000]);
        emu.maintenance(60_000);
        const closed = await call(c.method, c.path(emu), c.body(emu));
        assert.deepStrictEqual([closed.status, closed.body.code], [503, 0]);
        emu.maintenance(0);
        assert.ok(!c.done(emu), 'nothing happened');
        assert.deepStrictEqual(emu.unprocessedWrites.map((w) => [w.status, w.notProcessed]), [[429, 'fault: burst429'], [503, 'fault: maintenance']]);
        assert.strictEqual(emu.writes.length, 0);
      });
    });
  }

  it('WRITES names the kinds: each write of a kind is matched by its entry and by no other', () => {
    for (const c of CASES.filter((x) => x.kind)) {
      const matched = (Object.keys(WRITES) as (keyof typeof WRITES)[]).filter((k) => matchesWrite(WRITES[k], c.method, c.path(emu)));
      assert.deepStrictEqual(matched, [c.kind], c.name);
    }
  });

  it('a lost answer for a kind named by WRITES: only that kind\'s next write loses it; the bulk gets of imports and exports are reads', async () => {
    emu.loseNextWriteResponse(WRITES.import);
    assert.strictEqual((await call('POST', '/bulk/storage/imports/create', { items: [anImport(emu)] })).status, 200);
    await assert.rejects(call('POST', '/storage/imports', anImport(emu)));
    assert.strictEqual(emu.data.imports.length, 2, 'processed, its answer lost');
    emu.loseNextWriteResponse();
    assert.strictEqual((await call('POST', '/bulk/storage/imports/get', { import_ids: [emu.data.imports[0].id] })).status, 200);
    assert.strictEqual((await call('POST', '/bulk/storage/exports/get', { export_ids: ['x'] })).status, 200);
    assert.deepStrictEqual(emu.writes.map((w) => `${w.method} ${w.path} ${w.responseLost ? 'lost' : w.status}`), ['POST /bulk/storage/imports/create 200', 'POST /storage/imports lost']);
  });

  it('a lost answer for one kind of write waits for that kind; reads are never lost as writes', async () => {
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/async\/files\/move$/ });
    emu.loseNextCopyResponse();
    emu.loseNextActionResponse();
    assert.strictEqual((await call('POST', '/bulk/files/get', { file_ids: [firstFileId] })).status, 200);
    assert.strictEqual((await call('POST', '/files/search', { query: `IN "/Projects/${project(emu).id}"` })).status, 200);
    assert.strictEqual((await call('PUT', `/files/${firstFileId}/tags`, ['x'])).status, 200);
    assert.strictEqual((await call('POST', '/async/files/delete', { items: [{ file: file(emu, 1).id }] })).status, 200);
    await assert.rejects(call('POST', `/tasks/${failed(emu).id}/actions/clone`));
    assert.strictEqual(emu.actionRequests.at(-1)?.responseLost, true);
    await assert.rejects(call('POST', '/async/files/copy', { items: [{ file: firstFileId, project: project(emu).id }] }));
    assert.strictEqual(emu.copyRequests.at(-1)?.responseLost, true);
    await assert.rejects(call('POST', '/async/files/move', { items: [{ file: firstFileId, parent: folder(emu).id }] }));
    assert.strictEqual(emu.moveRequests.at(-1)?.responseLost, true);
    assert.strictEqual((await call('POST', '/async/files/move', { items: [{ file: file(emu, 2).id, parent: folder(emu).id }] })).status, 200, 'one order, one lost answer');
    assert.deepStrictEqual(emu.writes.map((w) => `${w.method} ${w.path.split('?')[0]} ${w.responseLost ? 'lost' : w.status}`), [
      `PUT /files/${firstFileId}/tags 200`,
      'POST /async/files/delete 200',
      `POST /tasks/${failed(emu).id}/actions/clone lost`,
      'POST /async/files/copy lost',
      'POST /async/files/move lost',
      'POST /async/files/move 200',
    ]);
  });

  it('a refused write (4xx) is processed too: its answer can be lost', async () => {
    emu.loseNextWriteResponse();
    await assert.rejects(call('POST', '/files', { name: '__bad', type: 'folder', project: project(emu).id }));
    assert.deepStrictEqual(emu.writes.map((w) => [w.status, w.responseLost]), [[400, true]]);
  });

  it('past the limit every new call is 429 (code 1000), and GET /v2/rate_limit still answers for free', async () => {
    const small = await startEmulator({ tasks: 10, files: 50, batches: [], rateLimit: { limit: 2, windowMs: 60_000 } });
    const c = caller(small);
    try {
      assert.strictEqual((await c('PUT', `/files/${file(small).id}/tags`, ['a'])).status, 200);
      assert.strictEqual((await c('POST', '/files/search', { query: `IN "/Projects/${project(small).id}"` })).status, 200);
      const over = await c('PATCH', `/files/${file(small).id}`, { name: 'x.txt' });
      assert.deepStrictEqual([over.status, over.body.code, over.headers.get('x-ratelimit-remaining')], [429, 1000, '0']);
      assert.notStrictEqual(file(small).name, 'x.txt');
      const free = await c('GET', '/rate_limit');
      assert.deepStrictEqual([free.status, free.body.rate.remaining, free.body.instance_limit.limit], [200, 0, -1]);
      assert.deepStrictEqual(small.unprocessedWrites.map((w) => w.notProcessed), ['rate limit']);
    } finally {
      await small.close();
    }
  });
});
