// The client's file management, search and task-making calls against the emulator: real HTTP, the emulator's own
// data to compare with, the fake clock shared by both (jobs advance with it, no real sleeps).
import * as assert from 'assert';
import nodeFetch from 'node-fetch';
import { SbClient } from '../../../src/api/client';
import { fileListing } from '../../../src/api/files';
import { searchQuery, searchUnavailable } from '../../../src/api/fileSearch';
import { FileFinder } from '../../../src/files/find';
import type { FetchLike } from '../../../src/api/transport';
import type { AsyncJob, FileRecord } from '../../../src/api/types';
import { startEmulator, type Emulator, type EmulatorOptions, type FileRec } from '../../emulator/index';
import { FakeClock } from '../../support/fakeClock';
import { rejection } from '../../unit/api/fakes';

interface Setup {
  emu: Emulator;
  clock: FakeClock;
  sb: SbClient;
  /** `METHOD url` of every request the client sent */
  sent: string[];
  /** the body of each request sent, in the same order (empty for none) */
  bodies: string[];
}

const STEP = 600;

async function setup(options: EmulatorOptions = {}): Promise<Setup> {
  const clock = new FakeClock();
  const emu = await startEmulator({ now: () => clock.now(), copyStepMs: STEP, immediateResults: 0, tasks: 60, files: 800, ...options });
  const sent: string[] = [];
  const bodies: string[] = [];
  const fetch: FetchLike = (url, init) => {
    sent.push(`${init.method} ${url}`);
    bodies.push(typeof init.body === 'string' ? init.body : '');
    return (nodeFetch as unknown as FetchLike)(url, init);
  };
  const sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), fetch, clock, backoffMs: 100 });
  return { emu, clock, sb, sent, bodies };
}

const sorted = (ids: string[]) => [...ids].sort();

describe('client against the emulator: managing files, searching, making tasks', function () {
  this.timeout(30_000);
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });
  afterEach(() => s.emu.close());

  const project = () => s.emu.data.projects[0];
  const rootFiles = () => s.emu.data.children(project().root_folder).filter((f) => f.type === 'file');
  const rootFolders = () => s.emu.data.children(project().root_folder).filter((f) => f.type === 'folder');

  /** A job followed on the fake clock until FINISHED. */
  async function finished(kind: 'copy' | 'move' | 'delete', job: AsyncJob): Promise<AsyncJob> {
    for (let i = 0; i < 50; i++) {
      const now = await s.sb.fileJobs.get(kind, job.id);
      if (now.state === 'FINISHED') return now;
      await s.clock.sleep(STEP);
    }
    throw new Error('the job did not finish');
  }

  describe('files', () => {
    it('createFolder, update (rename, tags, metadata), setTags, metadata get / patch / replace, move, delete', async () => {
      const folder = await s.sb.files.createFolder('results 2026', { project: project().id });
      assert.strictEqual(s.emu.data.fileById.get(folder.id)?.name, 'results 2026');
      const inner = await s.sb.files.createFolder('inner', { parent: folder.id });
      assert.strictEqual(inner.parent, folder.id);

      const file = rootFiles()[0];
      const changed = await s.sb.files.update(file.id, { name: 'renamed.bam', tags: ['tumor'], metadata: { sample_id: 'S1' } });
      assert.deepStrictEqual([changed.name, changed.tags, changed.metadata], ['renamed.bam', ['tumor'], { sample_id: 'S1' }]);
      assert.deepStrictEqual(await s.sb.files.setTags(file.id, ['a', 'b']), ['a', 'b']);
      assert.deepStrictEqual(await s.sb.files.patchMetadata(file.id, { lane: '2', sample_id: null }), { sample_id: 'S1', lane: '2' });
      assert.deepStrictEqual(await s.sb.files.metadata(file.id), { sample_id: 'S1', lane: '2' });
      assert.deepStrictEqual(await s.sb.files.replaceMetadata(file.id, { only: 'x' }), { only: 'x' });

      const moved = await s.sb.files.move(file.id, { parent: folder.id, name: 'moved.bam' });
      assert.deepStrictEqual([moved.id, moved.parent, moved.name], [file.id, folder.id, 'moved.bam']);
      await s.sb.files.delete(file.id);
      assert.ok(!s.emu.data.fileById.has(file.id));
      await s.sb.files.delete(inner.id);
      assert.ok(!s.emu.data.fileById.has(inner.id));
      assert.deepStrictEqual(s.sent.filter((r) => !r.startsWith('GET')).map((r) => r.split(' ')[0]), ['POST', 'POST', 'PATCH', 'PUT', 'PATCH', 'PUT', 'POST', 'DELETE', 'DELETE']);
    });

    it("the platform's refusals arrive as ApiErrors with its status, code and message, not repeated", async () => {
      const [a, b] = rootFiles();
      const taken = await rejection(s.sb.files.update(a.id, { name: b.name }));
      assert.deepStrictEqual([taken.kind, taken.status, taken.code, taken.maybeDelivered], ['http', 409, 10223, false]);
      const clash = await rejection(s.sb.files.createFolder(rootFolders()[0].name, { project: project().id }));
      assert.deepStrictEqual([clash.status, clash.code], [409, 10224]);
      const full = rootFolders().find((f) => s.emu.data.children(f.id).length > 0)!;
      const notEmpty = await rejection(s.sb.files.delete(full.id));
      assert.strictEqual(notEmpty.status, 400);
      assert.match(notEmpty.message, /not empty/);
      const folderMove = await rejection(s.sb.files.move(full.id, { parent: project().root_folder }));
      assert.strictEqual(folderMove.status, 400);
      const gone = await rejection(s.sb.files.delete('ffffffffffffffffffffffff'));
      assert.deepStrictEqual([gone.status, gone.code], [404, 5002]);
      assert.strictEqual(s.emu.writes.length, 5, 'each sent once');
    });

    it('refuses before sending what the platform would refuse: a bad ID, a bad name, metadata over its limits', async () => {
      const file = rootFiles()[0];
      const requests = s.emu.stats.requests;
      for (const call of [
        () => s.sb.files.createFolder('__x', { project: project().id }),
        () => s.sb.files.createFolder('a/b', { parent: rootFolders()[0].id }),
        () => s.sb.files.createFolder('ok', { project: 'no-owner' }),
        () => s.sb.files.update('nope', { name: 'x' }),
        () => s.sb.files.update(file.id, { name: ' ' }),
        () => s.sb.files.update(file.id, { metadata: { ['k'.repeat(101)]: 'v' } }),
        () => s.sb.files.patchMetadata(file.id, { k: 'é'.repeat(151) }),
        () => s.sb.files.replaceMetadata(file.id, Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, 'v']))),
        () => s.sb.files.move(file.id, { parent: 'x' }),
        () => s.sb.files.move(file.id, { parent: rootFolders()[0].id, name: 'x'.repeat(256) }),
        () => s.sb.files.delete('x'),
      ]) {
        assert.strictEqual((await rejection(call())).kind, 'invalid');
      }
      assert.strictEqual(s.emu.stats.requests, requests, 'nothing sent');
    });

    it('a lost answer of each write: maybeDelivered, sent once, and the change was made', async () => {
      const [file, other] = rootFiles();
      const writes: [string, () => Promise<unknown>, () => boolean][] = [
        ['create a folder', () => s.sb.files.createFolder('lost', { project: project().id }), () => s.emu.data.children(project().root_folder).some((f) => f.name === 'lost')],
        ['rename', () => s.sb.files.update(file.id, { name: 'lost.txt' }), () => file.name === 'lost.txt'],
        ['tags', () => s.sb.files.setTags(file.id, ['lost']), () => file.tags[0] === 'lost'],
        ['metadata', () => s.sb.files.patchMetadata(file.id, { lost: '1' }), () => file.metadata.lost === '1'],
        ['move', () => s.sb.files.move(file.id, { parent: rootFolders()[0].id }), () => file.parent === rootFolders()[0].id],
        ['delete', () => s.sb.files.delete(other.id), () => !s.emu.data.fileById.has(other.id)],
        ['bulk edit', () => s.sb.bulkFiles.edit([{ id: file.id, tags: ['b'] }]), () => file.tags[0] === 'b'],
        ['async move', () => s.sb.fileJobs.submit('move', [{ file: file.id, project: project().id }]), () => s.emu.moveRequests.length === 1],
        ['async delete', () => s.sb.fileJobs.submit('delete', [{ file: file.id }]), () => s.emu.deleteRequests.length === 1],
      ];
      for (const [name, send, done] of writes) {
        const before = s.emu.writes.length;
        s.emu.loseNextWriteResponse();
        const error = await rejection(send());
        assert.deepStrictEqual([error.kind, error.maybeDelivered], ['network', true], name);
        assert.strictEqual(s.emu.writes.length, before + 1, `${name}: sent once`);
        assert.ok(s.emu.writes.at(-1)!.responseLost, name);
        assert.ok(done(), `${name}: made all the same`);
      }
    });
  });

  describe('listing with filters', () => {
    it('name (several, exact), tag, metadata and origin.task through files.list and the paged loader', async () => {
      const folder = s.emu.data.files.filter((f) => f.type === 'folder').sort((a, b) => s.emu.data.children(b.id).length - s.emu.data.children(a.id).length)[0];
      const kids = s.emu.data.children(folder.id);
      const names = kids.slice(0, 4).map((f) => f.name);
      const page = await s.sb.files.list({ parent: folder.id }, { name: names, limit: 100 });
      assert.deepStrictEqual(page.items.map((f) => f.name), names);
      const sent = new URL(s.sent.at(-1)!.split(' ')[1]);
      assert.deepStrictEqual(sent.searchParams.getAll('name'), names, 'one name= per name');

      for (const f of kids.slice(0, 3)) await s.sb.files.update(f.id, { tags: ['pick'], metadata: { lane: f === kids[0] ? '1' : '2' } });
      const loader = fileListing(s.sb.files, { parent: folder.id }, { tag: ['pick'], metadata: { lane: ['2', '3'] } });
      await loader.ensureLoaded();
      assert.deepStrictEqual(loader.items.map((f) => f.id), kids.slice(1, 3).map((f) => f.id));
      assert.strictEqual(loader.total, 2);

      const output = s.emu.data.files.find((f) => f.origin.task && f.parent)!;
      const byTask = await s.sb.files.list({ parent: output.parent! }, { originTask: output.origin.task, limit: 100 });
      assert.ok(byTask.items.some((f) => f.id === output.id));
      assert.ok(byTask.items.every((f) => s.emu.data.fileById.get(f.id)!.origin.task === output.origin.task));
    });

    it('a filtered listing pages to the end with its filters carried by the next links', async () => {
      const p = s.emu.data.projects.find((x) => s.emu.data.children(x.root_folder).filter((f) => f.type === 'file').length >= 5)!;
      const files = s.emu.data.children(p.root_folder).filter((f) => f.type === 'file');
      for (const f of files) await s.sb.files.setTags(f.id, ['batch']);
      const loader = fileListing(s.sb.files, { project: p.id }, { tag: ['batch'] });
      let page = await s.sb.files.list({ project: p.id }, { tag: ['batch'], limit: 2 });
      const ids = page.items.map((f) => f.id);
      while (page.next) {
        assert.strictEqual(new URL(page.next).searchParams.get('tag'), 'batch');
        page = await s.sb.files.next(page.next);
        ids.push(...page.items.map((f) => f.id));
      }
      assert.deepStrictEqual(ids, files.map((f) => f.id));
      await loader.ensureLoaded();
      assert.deepStrictEqual(loader.items.map((f) => f.id), files.map((f) => f.id));
    });

    it('too many names for one address: refused before sending', async () => {
      const requests = s.emu.stats.requests;
      const names = Array.from({ length: 400 }, (_, i) => `sample_${i}_R1.fastq.gz`);
      const error = await rejection(s.sb.files.list({ project: project().id }, { name: names }));
      assert.strictEqual(error.kind, 'invalid');
      assert.match(error.message, /too long.*fewer/);
      assert.strictEqual(s.emu.stats.requests, requests);
    });
  });

  describe('async file jobs', () => {
    it('move and delete: submit, get until FINISHED, listed with their type; copyJobs still speaks for copies', async () => {
      const [file, other] = rootFiles();
      const dest = rootFolders()[0];
      const move = await s.sb.fileJobs.submit('move', [{ file: file.id, parent: dest.id }]);
      assert.deepStrictEqual([move.type, move.state], ['MOVE', 'SUBMITTED']);
      const moved = await finished('move', move);
      assert.deepStrictEqual([moved.result?.[0].resource?.id, moved.result?.[0].resource?.parent, moved.completed_files], [file.id, dest.id, 1]);
      const del = await s.sb.fileJobs.submit('delete', [{ file: other.id }, { file: 'ffffffffffffffffffffffff' }]);
      const deleted = await finished('delete', del);
      assert.deepStrictEqual(deleted.result?.map((r) => r.resource?.id ?? r.error?.code), [other.id, 10225]);
      assert.ok(!s.emu.data.fileById.has(other.id));
      const copy = await s.sb.copyJobs.submit([{ file: file.id, project: s.emu.data.projects[1].id }]);
      assert.strictEqual((await s.sb.copyJobs.get(copy.id)).type, 'COPY');
      const wrongKind = await rejection(s.sb.fileJobs.get('copy', move.id));
      assert.deepStrictEqual([wrongKind.status, wrongKind.code], [404, 10211]);
      const listed = await s.sb.fileJobs.list({ limit: 100 });
      assert.deepStrictEqual(sorted(listed.items.filter((j) => [move.id, del.id, copy.id].includes(j.id)).map((j) => String(j.type))), ['COPY', 'DELETE', 'MOVE']);
    });

    it('more than 100 items: the platform refuses the whole call (the emulator\'s pick), nothing happens', async () => {
      const items = s.emu.data.files.filter((f) => f.parent).slice(0, 101).map((f) => ({ file: f.id }));
      const error = await rejection(s.sb.fileJobs.submit('delete', items));
      assert.deepStrictEqual([error.status, error.maybeDelivered], [400, false]);
      assert.ok(items.every((i) => s.emu.data.fileById.has(i.file)));
    });
  });

  describe('bulk file calls', () => {
    it('get, update, edit and delete: one entry per file in order; more than 100 refused before sending', async () => {
      const [a, b, c] = rootFiles();
      const got = await s.sb.bulkFiles.get([c.id, 'ffffffffffffffffffffffff', a.id]);
      assert.deepStrictEqual(got.map((i) => i.resource?.id ?? i.error?.code), [c.id, 5002, a.id]);
      await s.sb.files.update(a.id, { tags: ['keep'], metadata: { keep: '1' } });
      await s.sb.files.update(b.id, { tags: ['keep'], metadata: { keep: '1' } });
      const updated = await s.sb.bulkFiles.update([{ id: a.id, metadata: { set: '2' } }]);
      assert.deepStrictEqual([updated[0].resource?.tags, updated[0].resource?.metadata], [[], { set: '2' }]);
      const edited = await s.sb.bulkFiles.edit([{ id: b.id, metadata: { set: '2' } }, { id: c.id, name: b.name }]);
      assert.deepStrictEqual([edited[0].resource?.tags, edited[0].resource?.metadata, edited[1].error?.status], [['keep'], { keep: '1', set: '2' }, 409]);
      const deleted = await s.sb.bulkFiles.delete([a.id, a.id]);
      assert.deepStrictEqual(deleted.map((i) => i.resource?.name ?? i.error?.code), [a.name, 5002]);
      const requests = s.emu.stats.requests;
      const many = s.emu.data.files.slice(0, 101).map((f) => f.id);
      assert.strictEqual((await rejection(s.sb.bulkFiles.get(many))).kind, 'invalid');
      assert.strictEqual((await rejection(s.sb.bulkFiles.delete(['x']))).kind, 'invalid');
      assert.strictEqual((await rejection(s.sb.bulkFiles.edit([{ id: b.id, name: 'a/b' }]))).kind, 'invalid');
      assert.deepStrictEqual(await s.sb.bulkFiles.delete([]), []);
      assert.strictEqual(s.emu.stats.requests, requests);
    });

    it('records of any number of files: 100 a bulk read, in the order asked; a file refused throws', async () => {
      const files = s.emu.data.files.filter((f) => f.type === 'file').slice(0, 150);
      assert.strictEqual(files.length, 150);
      const ids = files.map((f) => f.id).reverse();
      const records = await s.sb.bulkFiles.records(ids);
      assert.deepStrictEqual(records.map((r) => r.id), ids);
      assert.strictEqual(s.sent.filter((r) => r.includes('/bulk/files/get')).length, 2);
      assert.strictEqual((await rejection(s.sb.bulkFiles.records([ids[0], 'ffffffffffffffffffffffff']))).status, 404);
    });

    it('bulk get is repeated after a fault like a GET; a bulk delete is not', async () => {
      const [a] = rootFiles();
      s.emu.faults.error500Rate = 1;
      s.clock.onSleep = () => (s.emu.faults.error500Rate = 0); // the fault ends while the client backs off
      const got = await s.sb.bulkFiles.get([a.id]);
      s.clock.onSleep = undefined;
      assert.strictEqual(got[0].resource?.id, a.id);
      assert.strictEqual(s.sent.filter((r) => r.includes('/bulk/files/get')).length, 2, 'asked again after the 500');
      s.emu.faults.error500Rate = 1;
      const error = await rejection(s.sb.bulkFiles.delete([a.id]));
      s.emu.faults.error500Rate = 0;
      assert.deepStrictEqual([error.status, error.maybeDelivered], [500, true]);
      assert.strictEqual(s.sent.filter((r) => r.includes('/bulk/files/delete')).length, 1);
    });
  });

  describe('search', () => {
    it('searchQuery and pages: every match once, page by page, type read as file/folder', async () => {
      const p = s.emu.data.projects[1];
      const below = (f: FileRec) => f.project === p.id && f.parent !== null;
      const tagged = s.emu.data.files.filter((f) => below(f) && f.tags.includes('tumor'));
      assert.ok(tagged.length > 2, 'the seed tags some files');
      const query = searchQuery({ projects: [p.id], tags: ['tumor'], type: 'file' });
      assert.strictEqual(query, `IN "/Projects/${p.id}" WHERE tags IN ("tumor") AND type = "FILE" RECURSIVE`);
      const found: FileRecord[] = [];
      let pages = 0;
      for await (const page of s.sb.search.pages(query, { limit: 2 })) {
        found.push(...page.results);
        pages++;
      }
      assert.deepStrictEqual(sorted(found.map((f) => f.id)), sorted(tagged.map((f) => f.id)));
      assert.strictEqual(pages, Math.ceil(tagged.length / 2));
      assert.ok(found.every((f) => f.type === 'file'));

      const target = s.emu.data.files.find((f) => below(f) && f.type === 'file' && f.metadata.sample_id)!;
      const part = target.name.slice(3, 9);
      // A part of a name: no operator the documented syntax lacks; every entry searched, the names compared here, and
      // without the search, the folders listed one by one: the same answer either way, and how far it looked.
      const holding = sorted(s.emu.data.files.filter((f) => below(f) && f.name.toLowerCase().includes(part.toLowerCase())).map((f) => f.id));
      for (const mode of ['available', 'absent'] as const) {
        s.emu.searchSettings.mode = mode;
        const sent = s.sent.length;
        const found = new FileFinder(s.sb).find({ projects: [p.id], namePart: part.toUpperCase() });
        await found.listing.ensureLoaded();
        while (found.listing.hasMore) await found.listing.loadMore();
        assert.deepStrictEqual(sorted(found.listing.items.map((f) => f.id)), holding, mode);
        assert.deepStrictEqual([found.way, found.looked?.complete], [mode === 'available' ? 'search' : 'walk', true]);
        assert.strictEqual(found.looked?.entries, s.emu.data.files.filter(below).length, `${mode}: every entry looked through, once`);
        assert.ok(s.bodies.slice(sent).every((b) => !/LIKE/.test(b)), 'no operator the documented syntax lacks');
      }
      s.emu.searchSettings.mode = 'available';
      const exact = await s.sb.search.page(searchQuery({ projects: [p.id], name: target.name, metadata: { sample_id: target.metadata.sample_id } }));
      assert.ok(exact.results.some((f) => f.id === target.id));
      const quoted = await s.sb.search.page(searchQuery({ projects: [p.id], name: 'a "quoted" \\ name' }));
      assert.deepStrictEqual(quoted.results, []);
    });

    it('a platform without the search: searchUnavailable says so (404 and 403); a bad query is not that', async () => {
      const query = searchQuery({ projects: [project().id] });
      s.emu.searchSettings.mode = 'absent';
      assert.ok(searchUnavailable(await rejection(s.sb.search.page(query))));
      s.emu.searchSettings.mode = 'forbidden';
      assert.ok(searchUnavailable(await rejection(s.sb.search.page(query))));
      s.emu.searchSettings.mode = 'available';
      const bad = await rejection(s.sb.search.page('IN "/Projects/nobody/nothing"'));
      assert.strictEqual(bad.status, 400);
      assert.ok(!searchUnavailable(bad));
      assert.strictEqual((await rejection(s.sb.search.page(' '))).kind, 'invalid');
      assert.throws(() => searchQuery({ projects: [] }), /at least one project/);
      assert.throws(() => searchQuery({ projects: Array.from({ length: 11 }, (_, i) => `o/p${i}`) }), /at most 10/);
      assert.throws(() => searchQuery({ projects: ['o/p'], metadata: { 'bad key': 'x' } }), /cannot be searched/);
    });
  });

  describe('tasks', () => {
    const input = () => s.emu.data.files.find((f) => f.project === project().id && f.type === 'file')!;

    it('create (a draft, or run), clone (run, or a draft), updateDraft; prices with their breakdown', async () => {
      const draft = await s.sb.tasks.create({ project: project().id, app: `${project().id}/bwa-mem/2`, name: 'draft', inputs: { reads: [{ class: 'File', path: input().id }] } });
      assert.deepStrictEqual([draft.status, draft.name], ['DRAFT', 'draft']);
      const changed = await s.sb.tasks.updateDraft(draft.id, { name: 'changed', description: 'd' });
      assert.strictEqual(changed.name, 'changed');
      const ran = await s.sb.tasks.create({ project: project().id, app: `${project().id}/bwa-mem`, inputs: { reads: [{ class: 'File', path: input().id }] } }, { run: true });
      assert.strictEqual(ran.status, 'QUEUED');
      const invalid = await s.sb.tasks.create({ project: project().id, app: `${project().id}/bwa-mem/2`, inputs: {} }, { run: true });
      assert.strictEqual(invalid.status, 'DRAFT');
      assert.ok(Array.isArray(invalid.errors) && invalid.errors.length === 1, 'refused to run: its reasons in errors');

      const failed = s.emu.data.tasks.find((t) => t.status === 'FAILED' && t.parent !== null)!;
      const rerun = await s.sb.tasks.clone(failed.id, { run: true });
      assert.deepStrictEqual([rerun.status, rerun.parent, rerun.name], ['QUEUED', null, failed.name]);
      assert.strictEqual((await s.sb.tasks.clone(failed.id)).status, 'DRAFT');
      const notDraft = await rejection(s.sb.tasks.updateDraft(rerun.id, { name: 'x' }));
      assert.strictEqual(notDraft.status, 400);

      const priced = (await s.sb.tasks.list({ parent: s.emu.data.scaleBatches[0].id, fields: 'id,price' }, { limit: 100 })).items;
      assert.strictEqual(priced.length, 40);
      for (const t of priced) assert.ok(typeof t.price?.amount === 'number' && typeof t.price.breakdown?.computation === 'string', JSON.stringify(t.price));
      const parent = await s.sb.tasks.get(s.emu.data.scaleBatches[0].id);
      const sum = priced.reduce((n, t) => n + Math.round(t.price!.amount! * 100), 0);
      assert.strictEqual(Math.round(parent.price!.amount! * 100), sum, "the parent's price is its children's");
    });

    it('refuses a bad project or app before sending; a lost create answer: maybeDelivered, the task made once', async () => {
      const requests = s.emu.stats.requests;
      assert.strictEqual((await rejection(s.sb.tasks.create({ project: 'x', app: 'a/b/c' }))).kind, 'invalid');
      assert.strictEqual((await rejection(s.sb.tasks.create({ project: project().id, app: 'bwa-mem' }))).kind, 'invalid');
      assert.strictEqual((await rejection(s.sb.tasks.clone('nope'))).kind, 'invalid');
      assert.strictEqual(s.emu.stats.requests, requests);
      const before = s.emu.data.tasks.length;
      s.emu.loseNextWriteResponse({ method: 'POST', path: /^\/tasks$/ });
      const lost = await rejection(s.sb.tasks.create({ project: project().id, app: `${project().id}/grep/1` }, { run: true }));
      assert.deepStrictEqual([lost.kind, lost.maybeDelivered], ['network', true]);
      assert.strictEqual(s.emu.data.tasks.length, before + 1);
      const unknownApp = await rejection(s.sb.tasks.create({ project: project().id, app: `${project().id}/no-such-app/1` }));
      assert.deepStrictEqual([unknownApp.status, unknownApp.maybeDelivered], [404, false]);
    });
  });

  it('every answer of the new calls updates the remembered rate limit', async () => {
    const file = rootFiles()[0];
    await s.sb.user();
    const before = s.sb.transport.rateLimit!.remaining;
    await s.sb.files.setTags(file.id, ['x']);
    await s.sb.bulkFiles.get([file.id]);
    await s.sb.search.page(searchQuery({ projects: [project().id] }));
    await s.sb.files.delete(file.id);
    assert.strictEqual(s.sb.transport.rateLimit!.remaining, before - 4);
    const free = await s.sb.rateLimit();
    assert.deepStrictEqual([free.rate.remaining, free.instance_limit?.limit], [before - 4, -1]);
  });
});
