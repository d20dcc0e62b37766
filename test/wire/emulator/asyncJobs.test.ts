/** The emulator's asynchronous move and delete jobs (platform-api.md §9.2), beside the copy: states, per-item results, rules. */
import * as assert from 'assert';
import { startEmulator, type Emulator, type FileRec } from '../../emulator';
import { caller, type Json } from './call';

describe('emulator: async move and delete jobs', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;
  let clock = 0;
  const STEP = 100;

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    // immediateResults 0: every job shows its states; the early answers are a test of their own.
    emu = await startEmulator({ tasks: 30, files: 600, batches: [], copyStepMs: STEP, immediateResults: 0, now: () => clock });
    call = caller(emu);
  });
  afterEach(() => emu.close());

  const project = () => emu.data.projects[0];
  const other = () => emu.data.projects[1];
  const readOnly = () => emu.data.projects.find((p) => !p.permissions.write)!;
  const filesOf = (folderId: string) => emu.data.children(folderId).filter((f) => f.type === 'file');
  const foldersOf = (folderId: string) => emu.data.children(folderId).filter((f) => f.type === 'folder');
  /** A folder of the project with files in it and no subfolder. */
  const leafFolder = (p = project()): FileRec =>
    emu.data.files.find((f) => f.type === 'folder' && f.project === p.id && f.parent && filesOf(f.id).length >= 2 && foldersOf(f.id).length === 0)!;

  /** Every state the job shows, the clock moved a step at a time until it is FINISHED. */
  async function follow(kind: string, id: string): Promise<Json[]> {
    const seen: Json[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await call('GET', `/async/files/${kind}/${id}`);
      assert.strictEqual(r.status, 200, r.text);
      seen.push(r.body);
      if (r.body.state === 'FINISHED') return seen;
      clock += STEP;
    }
    throw new Error('the job did not finish');
  }

  describe('move', () => {
    it('SUBMITTED → RESOLVING → RUNNING → FINISHED; a file keeps its ID, listed in its new place only', async () => {
      const file = filesOf(project().root_folder)[0];
      const dest = foldersOf(other().root_folder)[0];
      const r = await call('POST', '/async/files/move', { items: [{ file: file.id, parent: dest.id }] });
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual([r.body.type, r.body.state, r.body.href], ['MOVE', 'SUBMITTED', `${emu.baseUrl}/async/files/move/${r.body.id}`]);
      assert.match(r.body.id, /^\d+$/);
      assert.strictEqual(file.parent, project().root_folder, 'nothing moves before the job runs');
      const seen = await follow('move', r.body.id);
      assert.deepStrictEqual([...new Set(seen.map((s) => s.state))], ['SUBMITTED', 'RESOLVING', 'RUNNING', 'FINISHED']);
      const done = seen.at(-1)!;
      assert.deepStrictEqual([done.total_files, done.completed_files, done.failed_files], [1, 1, 0]);
      assert.ok(done.started_on && done.finished_on);
      assert.deepStrictEqual([done.result[0].resource.id, done.result[0].resource.parent, done.result[0].resource.project], [file.id, dest.id, other().id]);
      assert.ok(filesOf(dest.id).includes(file));
      assert.ok(!filesOf(project().root_folder).includes(file));
      assert.strictEqual((await call('GET', `/files/${file.id}`)).body.project, other().id);
      assert.strictEqual((await call('GET', `/async/files/copy/${r.body.id}`)).status, 404, 'a move job is not a copy job');
      const listed = await call('GET', '/async/files?limit=100');
      assert.deepStrictEqual(listed.body.items.find((j: Json) => j.id === r.body.id)?.type, 'MOVE');
    });

    it('a file whose name is taken arrives as 1_<name>, then 2_<name>', async () => {
      const [a] = filesOf(project().root_folder);
      const dest = leafFolder();
      const [x, y] = filesOf(dest.id);
      const r = await call('POST', '/async/files/move', { items: [{ file: a.id, parent: dest.id, name: x.name }, { file: y.id, project: project().id, name: x.name }] });
      const done = (await follow('move', r.body.id)).at(-1)!;
      assert.strictEqual(done.result[0].resource.name, `1_${x.name}`);
      assert.strictEqual(done.result[0].resource.id, a.id);
      assert.strictEqual(done.result[1].resource.name, x.name, 'the root had no such name');
      const third = await call('POST', '/async/files/move', { items: [{ file: y.id, parent: dest.id }] });
      const moved = (await follow('move', third.body.id)).at(-1)!;
      assert.strictEqual(moved.result[0].resource.name, `2_${x.name}`, 'y, now named as x, back where x and 1_x are');
    });

    it('a folder gets a new ID and keeps its files (their IDs too); into a folder of the same name it is merged', async () => {
      const folder = leafFolder();
      const kids = filesOf(folder.id);
      const dest = emu.data.projects[2].root_folder;
      const r = await call('POST', '/async/files/move', { items: [{ file: folder.id, parent: dest }] });
      const done = (await follow('move', r.body.id)).at(-1)!;
      const moved = done.result[0].resource;
      assert.notStrictEqual(moved.id, folder.id, 'a moved folder has a new ID');
      assert.strictEqual(moved.name, folder.name);
      assert.ok(!emu.data.fileById.has(folder.id), 'the old folder is gone');
      assert.strictEqual(done.total_files, kids.length);
      assert.deepStrictEqual(filesOf(moved.id).map((f) => f.id), kids.map((f) => f.id));
      assert.ok(kids.every((k) => k.project === emu.data.projects[2].id));

      const twin = await call('POST', '/files', { name: 'twin', type: 'folder', parent: project().root_folder });
      const sameName = await call('POST', '/files', { name: 'twin', type: 'folder', parent: moved.id });
      const inner = kids[0];
      await call('POST', `/files/${inner.id}/actions/move`, { parent: sameName.body.id });
      const merge = await call('POST', '/async/files/move', { items: [{ file: sameName.body.id, parent: project().root_folder }] });
      const merged = (await follow('move', merge.body.id)).at(-1)!;
      assert.strictEqual(merged.result[0].resource.id, twin.body.id, 'merged into the folder of the same name');
      assert.deepStrictEqual(filesOf(twin.body.id).map((f) => f.id), [inner.id]);
      assert.ok(!emu.data.fileById.has(sameName.body.id));
    });

    it('refuses per item: a folder into itself or its subtree, a root, no write on either side, what does not exist', async () => {
      const parentFolder = emu.data.files.find((f) => f.type === 'folder' && f.project === project().id && f.parent && foldersOf(f.id).length > 0)!;
      const sub = foldersOf(parentFolder.id)[0];
      const file = filesOf(project().root_folder)[0];
      const roFile = emu.data.files.find((f) => f.project === readOnly().id && f.type === 'file')!;
      const items = [
        { file: parentFolder.id, parent: parentFolder.id },
        { file: sub.id, parent: sub.id },
        { file: parentFolder.id, parent: sub.id },
        { file: project().root_folder, project: other().id },
        { file: file.id, project: readOnly().id },
        { file: roFile.id, project: project().id },
        { file: 'ffffffffffffffffffffffff', project: project().id },
        { file: file.id, parent: 'ffffffffffffffffffffffff' },
        { file: file.id },
        { file: filesOf(project().root_folder)[1].id, parent: file.id },
      ];
      const r = await call('POST', '/async/files/move', { items });
      const done = (await follow('move', r.body.id)).at(-1)!;
      assert.deepStrictEqual(
        done.result.map((x: Json) => x.error?.code ?? 'ok'),
        [10229, 10229, 10231, 90000, 90002, 10226, 10225, 10231, 5029, 10227],
      );
      assert.strictEqual(done.failed_files, items.length);
      assert.strictEqual(done.completed_files + done.failed_files, done.total_files);
      assert.strictEqual(file.parent, project().root_folder, 'nothing moved');
    });

    it('an item whose source is gone by the time the job runs fails then, counted in failed_files', async () => {
      const [a, b] = filesOf(project().root_folder);
      const r = await call('POST', '/async/files/move', { items: [{ file: a.id, parent: foldersOf(project().root_folder)[0].id }, { file: b.id, project: other().id }] });
      clock += 2 * STEP; // resolved, RUNNING until a step later
      assert.strictEqual((await call('GET', `/async/files/move/${r.body.id}`)).body.state, 'RUNNING');
      assert.strictEqual((await call('DELETE', `/files/${a.id}`)).status, 204);
      const done = (await follow('move', r.body.id)).at(-1)!;
      assert.deepStrictEqual(done.result.map((x: Json) => x.error?.code ?? 'ok'), [10225, 'ok']);
      assert.deepStrictEqual([done.completed_files, done.failed_files, done.total_files], [1, 1, 2]);
    });
  });

  describe('delete', () => {
    it('takes files and whole folders, non-empty ones included; each result the record as it was', async () => {
      const parentFolder = emu.data.files.find((f) => f.type === 'folder' && f.project === project().id && f.parent && foldersOf(f.id).length > 0)!;
      const below = emu.data.files.filter((f) => f !== parentFolder && emu.data.isWithin(f.id, parentFolder.id));
      const file = filesOf(project().root_folder)[0];
      const r = await call('POST', '/async/files/delete', { items: [{ file: parentFolder.id }, { file: file.id }] });
      assert.deepStrictEqual([r.status, r.body.type, r.body.state], [200, 'DELETE', 'SUBMITTED']);
      assert.ok(emu.data.fileById.has(file.id), 'nothing deleted before the job runs');
      const done = (await follow('delete', r.body.id)).at(-1)!;
      assert.deepStrictEqual(done.result.map((x: Json) => x.resource.id), [parentFolder.id, file.id]);
      assert.strictEqual(done.result[1].resource.name, file.name);
      assert.strictEqual(done.total_files, below.filter((f) => f.type === 'file').length + 1);
      for (const f of [parentFolder, file, ...below]) assert.ok(!emu.data.fileById.has(f.id), `${f.name} is gone`);
      assert.strictEqual((await call('GET', `/files/${file.id}`)).status, 404);
      assert.ok(!emu.data.children(project().root_folder).includes(file));
    });

    it('refuses per item: a root, a read-only project, what does not exist, a duplicate', async () => {
      const file = filesOf(project().root_folder)[0];
      const roFile = emu.data.files.find((f) => f.project === readOnly().id && f.type === 'file')!;
      const r = await call('POST', '/async/files/delete', { items: [{ file: project().root_folder }, { file: roFile.id }, { file: 'ffffffffffffffffffffffff' }, { file: file.id }, { file: file.id }, {}] });
      const done = (await follow('delete', r.body.id)).at(-1)!;
      assert.deepStrictEqual(done.result.map((x: Json) => x.error?.code ?? 'ok'), [90000, 10226, 10225, 'ok', 10231, 90000]);
      assert.ok(emu.data.fileById.has(roFile.id));
    });
  });

  it('every kind: at most 100 items (the emulator\'s pick), at least one, an items list; recorded per kind', async () => {
    const items = emu.data.files.filter((f) => f.parent).slice(0, 101).map((f) => ({ file: f.id, project: project().id }));
    for (const kind of ['copy', 'move', 'delete']) {
      const over = await call('POST', `/async/files/${kind}`, { items });
      assert.strictEqual(over.status, 400, kind);
      assert.match(over.body.message, /At most 100 items.*101 given.*split/);
      assert.strictEqual((await call('POST', `/async/files/${kind}`, { items: [] })).body.code, 10230);
      assert.strictEqual((await call('POST', `/async/files/${kind}`, { files: [] })).status, 400);
    }
    assert.strictEqual((await call('POST', '/async/files/move', { items: items.slice(0, 100) })).status, 200);
    assert.deepStrictEqual([emu.copyRequests.length, emu.moveRequests.length, emu.deleteRequests.length], [3, 4, 3]);
    assert.deepStrictEqual(emu.moveRequests.map((m) => m.status), [400, 400, 400, 200]);
    assert.ok(emu.moveRequests[3].jobId);
  });

  it('a small job may answer with its results at once (immediateResults), as the copy does', async () => {
    emu.copySettings.immediateResults = 1;
    const file = filesOf(project().root_folder)[0];
    const r = await call('POST', '/async/files/delete', { items: [{ file: file.id }] });
    assert.strictEqual(r.body.state, 'SUBMITTED');
    assert.strictEqual(r.body.result[0].resource.id, file.id);
    assert.ok(!emu.data.fileById.has(file.id));
  });
});
