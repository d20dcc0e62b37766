// Saving a file of a mounted project (remote/saveFile.ts) and the file system's other writes (remote/remoteWriter.ts),
// on an in-memory platform: what is checked before anything is sent, and what is sent.
import * as assert from 'assert';
import type { FileRecord, Project } from '../../../src/api/types';
import type { Upload } from '../../../src/api/uploads';
import { RemoteFiles } from '../../../src/remote/remoteFiles';
import { remoteWriter } from '../../../src/remote/remoteWriter';
import { AlreadyThere, saveFile, VersionChanged, WriteRefused, type SaveDeps } from '../../../src/remote/saveFile';
import type { SavePayload } from '../../../src/remote/saveWrite';
import type { TrackedJob } from '../../../src/jobs/tracker';
import { FakeFiles, fileId } from '../../support/fakeFiles';

const MINE: Project = { href: '', id: 'rfranklin/sheets', name: 'Sheets', root_folder: fileId(1), permissions: { write: true } } as Project;
const THEIRS: Project = { href: '', id: 'team/reference', name: 'Reference', root_folder: fileId(90), permissions: { write: false } } as Project;
const rec = (n: number, name: string, parent: number, type: 'file' | 'folder', size = 0, modified = '2026-11-01T10:00:00Z', project = MINE.id): FileRecord => ({
  href: '',
  id: fileId(n),
  name,
  parent: fileId(parent),
  project,
  type,
  size,
  modified_on: modified,
  created_on: modified,
});

function setup() {
  const records = [rec(2, 'sheets', 1, 'folder'), rec(3, 'samples.csv', 2, 'file', 12), rec(4, 'empty', 1, 'folder'), rec(91, 'genome.fa', 90, 'file', 7, undefined, THEIRS.id)];
  const fake = new FakeFiles([MINE, THEIRS], records);
  const files = new RemoteFiles({
    list: (location, page) => fake.files.list(location, page),
    get: (id) => fake.files.get(id),
    project: async (id) => [MINE, THEIRS].find((p) => p.id === id)!,
    downloadInfo: async () => 'https://storage.example/x',
    reader: () => Promise.reject(new Error('nothing is read here')),
  });
  const sent: string[] = [];
  const writes: { kind: string; payload: unknown }[] = [];
  let failPut = false;
  const deps: SaveDeps = {
    uploads: {
      init: async (init) => (sent.push(`init ${init.name} ${init.size}${init.overwrite ? ' overwrite' : ''}`), { upload_id: 'up1', part_size: init.partSize, initiated: '2026-11-01T11:00:00Z' } as Upload),
      partTarget: async (_id, n) => (sent.push(`part ${n}`), { url: 'https://storage.example/put', method: 'PUT', headers: {}, successCodes: [200], reportHeaders: ['ETag'] }),
      reportPart: async (_id, n, etag) => void sent.push(`report ${n} ${etag}`),
      abort: async (id) => void sent.push(`abort ${id}`),
    },
    storage: {
      put: async (_url, body, length) => {
        if (failPut) throw new Error('the storage went away');
        let bytes = '';
        for await (const chunk of body as unknown as AsyncIterable<Buffer>) bytes += chunk.toString();
        sent.push(`put ${length} ${bytes}`);
        return 'etag1';
      },
    },
    complete: async (kind, payload) => {
      writes.push({ kind, payload });
      const made = { ...rec(50, payload.name, 2, 'file', payload.size, '2026-11-01T11:00:05Z') };
      return made;
    },
  };
  return { fake, records, files, deps, sent, writes, failing: () => (failPut = true) };
}

const PATH = '/rfranklin/sheets/sheets/samples.csv';
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('remote/saveFile: Save as a new version, checked against the version shown', () => {
  it('an unchanged file: uploaded with overwrite in one part, completed as "file.save"; the next read is the saved bytes', async () => {
    const { files, deps, sent, writes } = setup();
    await files.entry(PATH); // what the editor was shown
    const saved = await saveFile(files, deps, PATH, bytes('id,sample\n1,a'), { create: true, overwrite: true });
    assert.deepStrictEqual(sent, ['init samples.csv 13 overwrite', 'part 1', 'put 13 id,sample\n1,a', 'report 1 etag1']);
    assert.deepStrictEqual(writes, [{ kind: 'file.save', payload: { uploadId: 'up1', destination: { parent: fileId(2) }, name: 'samples.csv', size: 13, initiated: '2026-11-01T11:00:00Z', path: PATH } }]);
    assert.strictEqual(saved.replaced, true);
    assert.strictEqual((await files.content(PATH, 'file')).bytes.toString(), 'id,sample\n1,a');
    assert.strictEqual((await files.entry(PATH)).id, fileId(50));
  });

  it('a file changed on the platform since it was shown (another modification time, or another ID): refused, nothing sent', async () => {
    for (const change of [{ modified_on: '2026-11-01T10:30:00Z' }, { id: fileId(77) }]) {
      const { files, deps, sent, writes, records } = setup();
      await files.entry(PATH);
      records[1] = { ...records[1], ...change };
      await assert.rejects(saveFile(files, deps, PATH, bytes('mine'), { create: true, overwrite: true }), (e: unknown) => e instanceof VersionChanged && /was changed on the platform since it was opened: nothing was saved/.test((e as Error).message));
      assert.deepStrictEqual([sent, writes], [[], []]);
    }
  });

  it('a read-only project refuses in words before anything is sent; so does a folder in the way, or a file there without overwrite', async () => {
    const { files, deps, sent } = setup();
    await assert.rejects(saveFile(files, deps, '/team/reference/genome.fa', bytes('x'), { create: true, overwrite: true }), (e: unknown) => e instanceof WriteRefused && (e as Error).message === 'team/reference is read only: nothing in it can be changed.');
    await assert.rejects(saveFile(files, deps, '/rfranklin/sheets/sheets', bytes('x'), { create: true, overwrite: true }), WriteRefused);
    await assert.rejects(saveFile(files, deps, PATH, bytes('x'), { create: true, overwrite: false }), AlreadyThere);
    assert.deepStrictEqual(sent, []);
  });

  it('a new file (an untitled file saved there, a local file dropped): uploaded without overwrite, completed as "file.new"', async () => {
    const { files, deps, sent, writes } = setup();
    const made = await saveFile(files, deps, '/rfranklin/sheets/notes.txt', bytes(''), { create: true, overwrite: false });
    assert.deepStrictEqual(sent, ['init notes.txt 0', 'part 1', 'put 0 ', 'report 1 etag1']);
    assert.deepStrictEqual([writes[0].kind, (writes[0].payload as SavePayload).destination], ['file.new', { project: MINE.id }]);
    assert.strictEqual(made.replaced, false);
  });

  it('a part that fails aborts the upload: no completion, no half file', async () => {
    const { files, deps, sent, writes, failing } = setup();
    failing();
    await assert.rejects(saveFile(files, deps, PATH, bytes('mine'), { create: true, overwrite: true }), /the storage went away/);
    assert.deepStrictEqual([sent, writes], [['init samples.csv 4 overwrite', 'part 1', 'abort up1'], []]);
  });
});

describe('remote/remoteWriter: the Explorer\'s writes on a mounted project, each through its kind', () => {
  /** What a folder's move job ends with: the folder made anew, or the platform's refusal of the item. */
  type Ended = Pick<TrackedJob, 'state' | 'result'>;
  const moved: Ended = { state: 'FINISHED', result: [{ resource: rec(61, 'sheets-2026', 4, 'folder') }] };
  const writer = (s: ReturnType<typeof setup>, ended: Ended = moved) =>
    remoteWriter(s.files, {
      ...s.deps,
      send: async <R>(kind: string, payload: unknown) => (s.writes.push({ kind, payload }), (kind === 'file.asyncMove' || kind === 'file.asyncDelete' || kind === 'copy' ? { id: 'J1', type: 'JOB', state: 'SUBMITTED' } : rec(60, 'made', 1, 'folder')) as R),
      settled: async (id) => (s.writes.push({ kind: 'settled', payload: id }), ended),
    });

  it('Rename within a folder is the rename; to another folder of the project, the single move, renaming it in the same call when the name changes too', async () => {
    const s = setup();
    await writer(s).rename(PATH, '/rfranklin/sheets/sheets/samples-v2.csv', { overwrite: false });
    await writer(s).rename(PATH, '/rfranklin/sheets/empty/samples.csv', { overwrite: false });
    await writer(s).rename(PATH, '/rfranklin/sheets/empty/samples-v3.csv', { overwrite: false });
    assert.deepStrictEqual(s.writes, [
      { kind: 'file.rename', payload: { id: fileId(3), name: 'samples-v2.csv', oldName: 'samples.csv' } },
      { kind: 'file.move', payload: { id: fileId(3), name: 'samples.csv', from: fileId(2), to: fileId(4), label: '/rfranklin/sheets/empty/samples.csv' } },
      // One write: a refusal leaves the file as it was, never moved under its old name.
      { kind: 'file.move', payload: { id: fileId(3), name: 'samples.csv', from: fileId(2), to: fileId(4), newName: 'samples-v3.csv', label: '/rfranklin/sheets/empty/samples-v3.csv' } },
    ]);
  });

  it('a folder dragged to another folder of the project (renamed or not) moves by the async move, one job followed to its end; its refusal said in words', async () => {
    const s = setup();
    const touched = await writer(s).rename('/rfranklin/sheets/sheets', '/rfranklin/sheets/empty/sheets-2026', { overwrite: false });
    assert.deepStrictEqual(s.writes, [
      {
        kind: 'file.asyncMove',
        payload: { items: [{ file: fileId(2), parent: fileId(4), name: 'sheets-2026' }], destination: { label: '/rfranklin/sheets/empty/sheets-2026', project: MINE.id, parent: fileId(4) }, sourceNames: { [fileId(2)]: 'sheets' } },
      },
      { kind: 'settled', payload: 'J1' },
    ]);
    assert.deepStrictEqual(touched, [fileId(2), fileId(61), fileId(1), fileId(4)], 'the folder, the one made in its place, both parents');
    const refused = setup();
    await assert.rejects(
      writer(refused, { state: 'FINISHED', result: [{ error: { status: 403, code: 10226, message: 'No write permission.' } }] }).rename('/rfranklin/sheets/empty', '/rfranklin/sheets/sheets/empty', { overwrite: false }),
      (e: unknown) => e instanceof WriteRefused && (e as Error).message === '/rfranklin/sheets/empty was not moved: No write permission.',
    );
    assert.deepStrictEqual(refused.writes.map((w) => (w.payload as { items?: unknown[] }).items ?? w.payload), [[{ file: fileId(4), parent: fileId(2) }], 'J1'], 'its name kept: no name sent');
  });

  it('refuses in words, sending nothing: a name taken, a name the platform refuses, another project, a project\'s root, a folder with files in it', async () => {
    const s = setup();
    const w = writer(s);
    await assert.rejects(w.rename(PATH, '/rfranklin/sheets/sheets', { overwrite: false }), AlreadyThere);
    await assert.rejects(w.createDirectory('/rfranklin/sheets/__hidden'), (e: unknown) => e instanceof WriteRefused && /cannot start with "__"/.test((e as Error).message));
    await assert.rejects(w.rename(PATH, '/team/reference/samples.csv', { overwrite: false }), WriteRefused);
    await assert.rejects(w.delete('/rfranklin/sheets/sheets', { recursive: false }), (e: unknown) => e instanceof WriteRefused && /a folder with files in it/.test((e as Error).message));
    await assert.rejects(w.delete('/team/reference/genome.fa', { recursive: true }), WriteRefused);
    assert.deepStrictEqual(s.writes, []);
  });

  it('a folder with files in it, deleted from the Explorer (which asked the person), goes by the async delete, its job followed to its end; a refusal said', async () => {
    const s = setup();
    await writer(s, { state: 'FINISHED', result: [{ resource: rec(2, 'sheets', 1, 'folder') }] }).delete('/rfranklin/sheets/sheets', { recursive: true });
    assert.deepStrictEqual(s.writes, [
      { kind: 'file.asyncDelete', payload: { items: [{ file: fileId(2) }], names: { [fileId(2)]: 'sheets' }, where: { label: '/rfranklin/sheets/sheets', project: MINE.id } } },
      { kind: 'settled', payload: 'J1' },
    ]);
    const refused = setup();
    await assert.rejects(
      writer(refused, { state: 'FINISHED', result: [{ error: { status: 403, code: 10226, message: 'No write permission.' } }] }).delete('/rfranklin/sheets/sheets', { recursive: true }),
      (e: unknown) => e instanceof WriteRefused && (e as Error).message === '/rfranklin/sheets/sheets was not deleted: No write permission.',
    );
  });

  it('Copy and Paste (or a drag with Ctrl) goes by the async copy, into another project too, one job followed to its end; a name taken or a root refused, nothing sent', async () => {
    const s = setup();
    const copied: Ended = { state: 'FINISHED', result: [{ resource: rec(70, 'samples copy.csv', 2, 'file') }] };
    const touched = await writer(s, copied).copy(PATH, '/rfranklin/sheets/sheets/samples copy.csv', { overwrite: false });
    assert.deepStrictEqual(s.writes, [
      { kind: 'copy', payload: { items: [{ file: fileId(3), parent: fileId(2), name: 'samples copy.csv' }], destination: { label: '/rfranklin/sheets/sheets/samples copy.csv', project: MINE.id, parent: fileId(2) }, sourceNames: { [fileId(3)]: 'samples.csv' } } },
      { kind: 'settled', payload: 'J1' },
    ]);
    assert.deepStrictEqual(touched, [fileId(70), fileId(2)]);
    // From a project the person may only read, into one of theirs: its name kept, none sent.
    const fromTheirs = setup();
    await writer(fromTheirs, copied).copy('/team/reference/genome.fa', '/rfranklin/sheets/genome.fa', { overwrite: false });
    assert.deepStrictEqual(fromTheirs.writes[0], { kind: 'copy', payload: { items: [{ file: fileId(91), project: MINE.id }], destination: { label: '/rfranklin/sheets/genome.fa', project: MINE.id }, sourceNames: { [fileId(91)]: 'genome.fa' } } });
    const refused = setup();
    await assert.rejects(writer(refused).copy(PATH, '/rfranklin/sheets/empty', { overwrite: false }), AlreadyThere);
    await assert.rejects(writer(refused).copy(PATH, '/team/reference/samples.csv', { overwrite: false }), WriteRefused);
    await assert.rejects(writer(refused).copy('/rfranklin/sheets', '/rfranklin/sheets/empty/x', { overwrite: false }), WriteRefused);
    assert.deepStrictEqual(refused.writes, []);
    const failed = setup();
    await assert.rejects(
      writer(failed, { state: 'FINISHED', result: [{ error: { status: 403, code: 10226, message: 'No write permission.' } }] }).copy(PATH, '/rfranklin/sheets/empty/samples.csv', { overwrite: false }),
      (e: unknown) => e instanceof WriteRefused && (e as Error).message === `${PATH} was not copied: No write permission.`,
    );
  });

  it('New Folder and Delete go as the new folder and the single delete', async () => {
    const s = setup();
    await writer(s).createDirectory('/rfranklin/sheets/runs');
    await writer(s).delete('/rfranklin/sheets/empty', { recursive: true });
    assert.deepStrictEqual(s.writes, [
      { kind: 'file.newFolder', payload: { name: 'runs', where: { project: MINE.id }, label: '/rfranklin/sheets/runs' } },
      { kind: 'file.delete', payload: { id: fileId(4), name: 'empty' } },
    ]);
  });
});
