/**
 * Files in and out of the editor, in a real VS Code against the emulator: a remote text file opened and read (whole,
 * its first 1 MB, then whole on request; gzipped text decompressed), a mounted project changed (save, new file, folder,
 * rename, delete; refusals), a project added to the workspace; Download… of a folder and of a task's outputs to a temporary folder, compared byte for byte with the
 * emulator's content; a folder that cannot be written refused before anything is fetched; Upload to Seven Bridges…
 * of a folder with a 50 MB file, listed and downloaded back byte for byte, and an upload cancelled leaving nothing.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as zlib from 'zlib';
import type { ExtensionApi } from '../../../src/extension';
import type { FilesNode } from '../../../src/files/fileNodes';
import type { FileRec } from '../../emulator';
import { generatedBlob } from '../../emulator/content';
import { activateProduct, closeAllEditors, emulator, repoRoot, waitFor } from '../helpers';

type AnyNode = FilesNode & { kind: string; file?: FileRec };

/** A measured figure, kept in test-artifacts/files-figures.json for the report (not asserted: speed is the bench's). */
function figure(name: string, value: number): void {
  const file = path.join(repoRoot(), 'test-artifacts', 'files-figures.json');
  const figures = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>) : {};
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...figures, [name]: value }, null, 2));
}

async function remoteBytes(fileId: string): Promise<Buffer> {
  const blob = emulator().contentOf(fileId)!;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Every file under `dir`, by its path relative to it (`/`-separated). */
function localFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

describe('files in and out of the editor', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const data = () => emulator().data;
  const project = () => data().projects[0];
  const samples = () => data().children(project().root_folder).find((f) => f.name === 'samples' && f.type === 'folder')!;
  const sample = (name: string, parent = samples().id) => data().children(parent).find((f) => f.name === name)!;
  const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sb-files-'));
  /** Files this suite adds (in a folder of its own at the first project's root), taken out at the end. */
  const added: FileRec[] = [];
  const add = (name: string, type: 'file' | 'folder', parent: string, size?: number, id = data().newFileId()) => {
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    const f = data().addFile({ id, name, size, project: project().id, parent, type, created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
    added.unshift(f);
    return f;
  };
  let previews: FileRec;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    previews = add('previews', 'folder', project().root_folder);
  });

  after(() => added.forEach((f) => data().removeFile(f)));

  afterEach(async () => {
    await closeAllEditors();
  });

  it('opens a text file clicked in Projects & Files at sevenbridges:/<owner>/<project>/<folders>/<name>, its text whole, writable as its project is', async () => {
    await vscode.commands.executeCommand('sevenbridges.files.focus');
    const roots = (await api.files.rows.getChildren()) as AnyNode[];
    const projectRow = roots.find((n) => n.kind === 'project' && n.id === project().id)!;
    const folderRow = ((await api.files.rows.getChildren(projectRow)) as AnyNode[]).find((n) => n.kind === 'folder' && n.file!.name === 'samples')!;
    const fileRow = ((await api.files.rows.getChildren(folderRow)) as AnyNode[]).find((n) => n.kind === 'file' && n.file!.name === 'README.txt')!;
    const item = api.files.rows.getTreeItem(fileRow);
    assert.strictEqual(item.command?.command, 'sevenbridges.files.open', 'a click opens the file');
    const uri = (await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []))) as vscode.Uri;
    assert.strictEqual(uri.toString(), `sevenbridges:/${project().id}/samples/README.txt`);
    const editor = await waitFor(() => (vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() ? vscode.window.activeTextEditor : undefined), 'the file in the editor');
    assert.strictEqual(editor.document.getText(), (await remoteBytes(sample('README.txt').id)).toString('utf8'));
    assert.strictEqual(editor.document.languageId, 'plaintext');
    const stat = await vscode.workspace.fs.stat(uri);
    // Permissions are the project's (issue 42): a file of a project you may change is not read-only.
    assert.strictEqual(project().permissions?.write !== false, true, 'the suite\'s project may be changed');
    assert.strictEqual(stat.permissions, undefined);
  });

  it('opens a file by ID (a task\'s output row) at its path, found through its folders', async () => {
    const metrics = sample('metrics.tsv', sample('qc').id);
    const uri = (await vscode.commands.executeCommand('sevenbridges.files.open', { id: metrics.id, name: metrics.name, folder: false })) as vscode.Uri;
    assert.strictEqual(uri.path, `/${project().id}/samples/qc/metrics.tsv`);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), (await remoteBytes(metrics.id)).toString('utf8'));
  });

  it('opens a large text file\'s first 1 MB by one Range request, and the whole file on Load Whole File', async () => {
    const big = add('three-MB.tsv', 'file', previews.id, 3_000_000);
    const before = emulator().storageRequests.length;
    const started = Date.now();
    const uri = (await vscode.commands.executeCommand('sevenbridges.files.open', big.id)) as vscode.Uri;
    const doc = await vscode.workspace.openTextDocument(uri);
    const opened = Date.now() - started;
    const reads = emulator().storageRequests.slice(before).filter((r) => r.method === 'GET');
    assert.deepStrictEqual(reads.map((r) => r.range), ['bytes=0-1048575']);
    const whole = await remoteBytes(big.id);
    const text = doc.getText();
    assert.ok(text.length <= 1024 * 1024 && text.length > 1024 * 1024 - 200, `${text.length} characters`);
    assert.strictEqual(text, whole.subarray(0, text.length).toString('utf8'));
    assert.ok(text.endsWith('\n'), 'cut after a whole line');
    figure('previewOpenMs', opened);
    figure('previewBytesRead', reads[0].bytes);
    assert.strictEqual(uri.query, 'head', 'opened by its head: a form of its own, never the file');
    await vscode.window.showTextDocument(doc);
    const loaded = (await vscode.commands.executeCommand('sevenbridges.files.loadWhole', uri, { confirm: false })) as vscode.TextDocument;
    assert.strictEqual(loaded.uri.toString(), uri.with({ query: '' }).toString());
    assert.strictEqual(vscode.window.activeTextEditor?.document, loaded);
    assert.strictEqual(loaded.getText(), whole.toString('utf8'));
  });

  it('the file system says what the file is, whole: its size, its bytes, and a copy out of the mounted project (a .gz as it is)', async () => {
    const big = add('ten-MB.tsv', 'file', previews.id, 10_000_000);
    const vcf = sample('sample_01.vcf.gz');
    const local = temp();
    try {
      for (const [file, names] of [
        [big, ['previews', 'ten-MB.tsv']],
        [vcf, ['samples', 'sample_01.vcf.gz']],
      ] as const) {
        const uri = vscode.Uri.from({ scheme: 'sevenbridges', path: `/${project().id}/${names.join('/')}` });
        const bytes = await remoteBytes(file.id);
        assert.strictEqual((await vscode.workspace.fs.stat(uri)).size, bytes.length, `${file.name}: its size`);
        assert.ok(Buffer.from(await vscode.workspace.fs.readFile(uri)).equals(bytes), `${file.name}: its bytes, whole`);
        // As a drag or a copy from the Explorer to a local folder does it.
        const target = vscode.Uri.file(path.join(local, file.name));
        await vscode.workspace.fs.copy(uri, target);
        assert.ok(fs.readFileSync(target.fsPath).equals(bytes), `${file.name}: the copy is the whole file`);
      }
    } finally {
      fs.rmSync(local, { recursive: true, force: true });
    }
  });

  it('reads 1 MB of a 10 GB text file to open it', async () => {
    const huge = add('ten-GB.tsv', 'file', previews.id, 10 * 1024 ** 3);
    const before = emulator().storageRequests.length;
    const uri = (await vscode.commands.executeCommand('sevenbridges.files.open', huge.id)) as vscode.Uri;
    const doc = await vscode.workspace.openTextDocument(uri);
    const bytes = emulator().storageRequests.slice(before).reduce((n, r) => n + r.bytes, 0);
    assert.strictEqual(bytes, 1024 * 1024);
    assert.ok(doc.getText().length <= 1024 * 1024);
    figure('tenGbPreviewBytesRead', bytes);
  });

  it('opens .gz text decompressed', async () => {
    const vcf = sample('sample_01.vcf.gz');
    const uri = (await vscode.commands.executeCommand('sevenbridges.files.open', vcf.id)) as vscode.Uri;
    assert.strictEqual(uri.query, 'inflated', 'opened as its text, a form of its own');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), zlib.gunzipSync(await remoteBytes(vcf.id)).toString('utf8'));
    assert.match(doc.getText(), /^##fileformat=VCF/);
    // In its inner file's language: a log, which VS Code knows.
    const log = add('align.log.gz', 'file', previews.id, 40_000);
    const opened = (await vscode.commands.executeCommand('sevenbridges.files.open', log.id)) as vscode.Uri;
    assert.strictEqual(opened.path.endsWith('/align.log.gz'), true, 'its path stays the platform\'s');
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), opened.toString());
    assert.strictEqual(vscode.window.activeTextEditor?.document.languageId, 'log');
  });

  it('a file whose kind its name does not tell, binary by its bytes, is said in words when clicked: no editor, no error', async () => {
    // An ID whose generated bytes hold a zero byte in their first 512, as nearly every binary file's do.
    let id = data().newFileId();
    const startsBinary = async (fileId: string) => {
      for await (const chunk of generatedBlob(fileId, 'blob.dat', 200_000).read(0, 511)) if (chunk.includes(0)) return true;
      return false;
    };
    while (!(await startsBinary(id))) id = data().newFileId();
    const blob = add('blob.dat', 'file', previews.id, 200_000, id);
    const uri = (await vscode.commands.executeCommand('sevenbridges.files.open', { kind: 'output', file: { id: blob.id, name: blob.name, folder: false } })) as vscode.Uri | undefined;
    assert.strictEqual(uri?.toString(), `sevenbridges:/${project().id}/previews/blob.dat`, 'the command ended without an error');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.path.endsWith('/blob.dat')), 'no text editor for it');
  });

  it('a mounted project is a folder you can change: a new file, Save as a new version (checked against the version read), a folder, a rename, a delete, each on the platform (a folder moved by a job); a part of a file, a changed file and a read-only project refused in words', async () => {
    const folder = add('editing', 'folder', project().root_folder);
    const at = (name: string) => vscode.Uri.from({ scheme: 'sevenbridges', path: `/${project().id}/editing/${name}` });
    const inFolder = () => data().children(folder.id).filter((f) => data().fileById.get(f.id) === f);
    const named = (name: string) => inFolder().filter((f) => f.name === name);
    assert.strictEqual(vscode.workspace.fs.isWritableFileSystem('sevenbridges'), true);
    const sheet = at('sheet.csv');
    // A new file (an untitled file saved there, a local file dropped there).
    await vscode.workspace.fs.writeFile(sheet, Buffer.from('id,x\n1,a\n'));
    const made = named('sheet.csv');
    assert.strictEqual(made.length, 1);
    assert.strictEqual((await remoteBytes(made[0].id)).toString(), 'id,x\n1,a\n');
    const firstId = made[0].id;
    // Save: a new version in its place (a new ID, one file of the name), read back as saved.
    await vscode.workspace.fs.writeFile(sheet, Buffer.from('id,x\n1,b\n'));
    const saved = named('sheet.csv');
    assert.strictEqual(saved.length, 1);
    assert.notStrictEqual(saved[0].id, firstId);
    assert.strictEqual((await remoteBytes(saved[0].id)).toString(), 'id,x\n1,b\n');
    assert.strictEqual(Buffer.from(await vscode.workspace.fs.readFile(sheet)).toString(), 'id,x\n1,b\n');
    // Someone else saves it meanwhile: a save over it is refused, nothing sent.
    saved[0].modified_on = new Date(Date.now() + 60_000).toISOString().slice(0, 19) + 'Z';
    const uploadsBefore = emulator().received.filter((r) => r.method === 'POST' && r.path.includes('upload/multipart')).length;
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(sheet, Buffer.from('mine'))), (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'NoPermissions' && /changed on the platform since it was opened/.test(e.message));
    assert.strictEqual(emulator().received.filter((r) => r.method === 'POST' && r.path.includes('upload/multipart')).length, uploadsBefore, 'no upload begun');
    // Its first 1 MB, or a .gz's text, is not the file: not saved as it.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(sheet.with({ query: 'head' }), Buffer.from('x'))), (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'NoPermissions' && /Load Whole File/.test(e.message));
    // A folder, a rename, a delete.
    await vscode.workspace.fs.createDirectory(at('runs'));
    assert.strictEqual(named('runs')[0]?.type, 'folder');
    await vscode.workspace.fs.rename(sheet, at('sheet-v2.csv'));
    assert.deepStrictEqual([named('sheet.csv').length, named('sheet-v2.csv').length], [0, 1]);
    // A folder dragged into another under a new name: the async move, one job, followed to its end.
    await vscode.workspace.fs.createDirectory(at('lane1'));
    await vscode.workspace.fs.writeFile(at('lane1/reads.txt'), Buffer.from('r'));
    const moveCalls = () => emulator().received.filter((r) => r.method === 'POST' && r.path.endsWith('/async/files/move')).length;
    const movesBefore = moveCalls();
    await vscode.workspace.fs.rename(at('lane1'), at('runs/lane1-2026'));
    const runs = named('runs')[0];
    const movedFolder = data().children(runs.id).filter((f) => f.name === 'lane1-2026');
    assert.deepStrictEqual([named('lane1').length, movedFolder.length], [0, 1]);
    assert.deepStrictEqual(data().children(movedFolder[0].id).map((f) => f.name), ['reads.txt']);
    assert.strictEqual(moveCalls() - movesBefore, 1, 'one move call');
    await vscode.workspace.fs.delete(at('sheet-v2.csv'));
    assert.strictEqual(named('sheet-v2.csv').length, 0);
    // A folder with a file in it: refused unless its contents go too (as the Explorer asks once the person agreed),
    // then deleted by the async delete, one job followed to its end.
    const deleteCalls = () => emulator().received.filter((r) => r.method === 'POST' && r.path.endsWith('/async/files/delete')).length;
    const deletesBefore = deleteCalls();
    await assert.rejects(Promise.resolve(vscode.workspace.fs.delete(at('runs'), { recursive: false })), (e: unknown) => e instanceof vscode.FileSystemError && /is a folder with files in it/.test(e.message));
    assert.strictEqual(named('runs').length, 1, 'nothing deleted without recursive');
    await vscode.workspace.fs.delete(at('runs'), { recursive: true });
    assert.deepStrictEqual([named('runs').length, data().fileById.has(movedFolder[0].id)], [0, false], 'the folder and what was in it gone');
    assert.strictEqual(deleteCalls() - deletesBefore, 1, 'one delete call');
    // Copy and Paste into another project (or a drag with Ctrl): the platform copies it, one copy call, no byte here.
    const other = data().projects.find((p) => p.id !== project().id && p.permissions?.write !== false)!;
    await vscode.workspace.fs.writeFile(at('to-copy.txt'), Buffer.from('copied by the platform\n'));
    const copyCalls = () => emulator().received.filter((r) => r.method === 'POST' && r.path.endsWith('/async/files/copy')).length;
    const copiesBefore = copyCalls();
    const storageBefore = emulator().storageRequests.length;
    const copyName = `copied-${Date.now()}.txt`;
    await vscode.workspace.fs.copy(at('to-copy.txt'), vscode.Uri.from({ scheme: 'sevenbridges', path: `/${other.id}/${copyName}` }));
    assert.deepStrictEqual([copyCalls() - copiesBefore, emulator().storageRequests.length - storageBefore], [1, 0], 'one copy call, no byte through the editor');
    const copy = data().children(other.root_folder).filter((f) => f.name === copyName);
    assert.strictEqual(copy.length, 1, 'the copy in the other project');
    added.unshift(copy[0]);
    assert.strictEqual((await remoteBytes(copy[0].id)).toString(), 'copied by the platform\n');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(at('sheet-v2.csv'))), (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'FileNotFound');
    // A project the caller may only read: its files read-only, a write refused in words.
    const readOnly = data().projects.find((p) => p.permissions?.write === false)!;
    const theirs = data().children(readOnly.root_folder).find((f) => f.type !== 'folder')!;
    const theirUri = vscode.Uri.from({ scheme: 'sevenbridges', path: `/${readOnly.id}/${theirs.name}` });
    assert.strictEqual((await vscode.workspace.fs.stat(theirUri)).permissions, vscode.FilePermission.Readonly);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(theirUri, Buffer.from('x'))), (e: unknown) => e instanceof vscode.FileSystemError && /is read only: nothing in it can be changed/.test(e.message));
    for (const f of inFolder()) added.unshift(f);
  });

  it('lists a project through the file system, folders page by page (as the Explorer does after Add Project to Workspace)', async () => {
    const root = vscode.Uri.from({ scheme: 'sevenbridges', path: `/${project().id}` });
    const entries = await vscode.workspace.fs.readDirectory(root);
    assert.strictEqual(entries.length, data().children(project().root_folder).length);
    assert.ok(entries.some(([name, type]) => name === 'samples' && type === vscode.FileType.Directory));
    const inside = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, 'samples'));
    assert.deepStrictEqual(inside.map(([n]) => n).sort(), data().children(samples().id).map((f) => f.name).sort());
  });

  it('downloads a folder, its whole tree, keeping the layout, byte for byte; a second time skips what is there', async () => {
    const target = temp();
    const summary = (await vscode.commands.executeCommand('sevenbridges.files.download', { id: samples().id, name: 'samples', type: 'folder' }, { target, confirm: false })) as {
      saved: string[];
      failed: unknown[];
      skipped: unknown[];
    };
    assert.deepStrictEqual(summary.failed, []);
    const expected: Record<string, string> = {};
    const walk = (folder: FileRec, prefix: string) => {
      for (const f of data().children(folder.id)) {
        if (f.type === 'folder') walk(f, `${prefix}${f.name}/`);
        else expected[`${prefix}${f.name}`] = f.id;
      }
    };
    walk(samples(), 'samples/');
    assert.deepStrictEqual(localFiles(target), Object.keys(expected).sort());
    for (const [relative, id] of Object.entries(expected)) assert.ok(fs.readFileSync(path.join(target, relative)).equals(await remoteBytes(id)), relative);
    const again = (await vscode.commands.executeCommand('sevenbridges.files.download', { id: samples().id, name: 'samples', type: 'folder' }, { target, confirm: false })) as { saved: string[]; skipped: unknown[] };
    assert.strictEqual(again.saved.length, 0);
    assert.strictEqual(again.skipped.length, Object.keys(expected).length);
    fs.rmSync(target, { recursive: true, force: true });
  });

  it('uploads a local folder holding a 50 MB file to a project folder (its complete answer lost once: found, not sent twice), lists it back, downloads it byte for byte', async () => {
    const local = temp();
    const run = path.join(local, 'upload-run');
    fs.mkdirSync(path.join(run, 'qc'), { recursive: true });
    const big = Buffer.alloc(50 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE((i * 2654435761) >>> 0, i);
    fs.writeFileSync(path.join(run, 'reads.bam'), big);
    fs.writeFileSync(path.join(run, 'qc', 'metrics.tsv'), 'sample\tq30\nS1\t0.93\n');
    const destination = add('upload-here', 'folder', project().root_folder);
    const emu = emulator();
    const callsBefore = emu.uploads.calls.length;
    const requestsBefore = emu.stats.requests + emu.storageRequests.length;
    emu.uploads.loseNextCompleteResponse();
    const started = Date.now();
    const summary = (await vscode.commands.executeCommand('sevenbridges.files.upload', { sources: [run], destination: { parent: destination.id }, confirm: false })) as {
      uploaded: { localPath: string; file: { id: string } }[];
      failed: unknown[];
      cancelled: boolean;
    };
    figure('upload50MbFolderMs', Date.now() - started);
    figure('upload50MbFolderRequests', emu.stats.requests + emu.storageRequests.length - requestsBefore);
    assert.deepStrictEqual(summary.failed, []);
    assert.strictEqual(summary.uploaded.length, 2);
    const calls = emu.uploads.calls.slice(callsBefore);
    // One complete per file processed (the lost one found by the write path's lookup, not sent again).
    assert.strictEqual(calls.filter((c) => c.call === 'complete' && c.status === 200).length, 2);
    assert.strictEqual(calls.filter((c) => c.responseLost).length, 1);
    const remoteRun = data().children(destination.id).find((f) => f.name === 'upload-run' && f.type === 'folder')!;
    assert.ok(remoteRun, 'the folder was made on the platform');
    const listed = await vscode.workspace.fs.readDirectory(vscode.Uri.from({ scheme: 'sevenbridges', path: `/${project().id}/upload-here/upload-run` }));
    assert.deepStrictEqual(listed.map(([n, t]) => `${n}:${t}`).sort(), [`qc:${vscode.FileType.Directory}`, `reads.bam:${vscode.FileType.File}`]);
    assert.strictEqual(data().children(remoteRun.id).filter((f) => f.name === 'reads.bam').length, 1, 'made once');
    const back = temp();
    const downloaded = (await vscode.commands.executeCommand('sevenbridges.files.download', { id: remoteRun.id, name: 'upload-run', type: 'folder' }, { target: back, confirm: false })) as { failed: unknown[] };
    assert.deepStrictEqual(downloaded.failed, []);
    assert.deepStrictEqual(localFiles(back), ['upload-run/qc/metrics.tsv', 'upload-run/reads.bam']);
    assert.ok(fs.readFileSync(path.join(back, 'upload-run', 'reads.bam')).equals(big), 'reads.bam byte for byte');
    assert.ok(fs.readFileSync(path.join(back, 'upload-run', 'qc', 'metrics.tsv')).equals(fs.readFileSync(path.join(run, 'qc', 'metrics.tsv'))));
    for (const dir of [local, back]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an upload cancelled leaves nothing on the platform: its multipart upload aborted, no file made', async () => {
    const local = temp();
    const file = path.join(local, 'cancelled.bin');
    fs.writeFileSync(file, Buffer.alloc(64 * 1024 * 1024, 7));
    const destination = add('upload-cancelled', 'folder', project().root_folder);
    const emu = emulator();
    const pendingBefore = new Set(emu.uploads.pending.keys());
    const controller = new AbortController();
    // A slow link (8 MB/s), so that the parts are still on their way when Cancel comes.
    emu.storageFaults.settings.bytesPerSecond = 8 * 1024 * 1024;
    const running = vscode.commands.executeCommand('sevenbridges.files.upload', { sources: [file], destination: { parent: destination.id }, confirm: false, signal: controller.signal }) as Thenable<{ cancelled: boolean; uploaded: unknown[] }>;
    // Cancelled once the upload is begun on the platform and its first part has arrived.
    await waitFor(() => emu.storageRequests.some((r) => r.method === 'PUT') && [...emu.uploads.pending.keys()].some((id) => !pendingBefore.has(id)), 'the upload to begin', 30_000);
    controller.abort();
    const summary = await running;
    emu.storageFaults.settings.bytesPerSecond = 0;
    assert.strictEqual(summary.cancelled, true);
    assert.deepStrictEqual(summary.uploaded, []);
    // The abort is sent as the run stops: it reaches the platform at most a round trip after the summary.
    const left = () => [...emu.uploads.pending.keys()].filter((id) => !pendingBefore.has(id));
    await waitFor(() => left().length === 0, 'no upload left pending', 10_000).catch((error: Error) => assert.fail(`${error.message}: ${left().join(', ')}`));
    assert.deepStrictEqual(data().children(destination.id), [], 'no file made');
    fs.rmSync(local, { recursive: true, force: true });
  });

  it('downloads a task\'s outputs under <task name>/, byte for byte', async () => {
    const outputIds = (t: { outputs: Record<string, unknown> }) => JSON.stringify(t.outputs).match(/"path":"([0-9a-f]{24})"/g)?.map((m) => m.slice(8, 32)) ?? [];
    const task = data().tasks.find((t) => {
      if (t.status !== 'COMPLETED') return false;
      const files = outputIds(t).map((id) => data().fileById.get(id));
      return files.length > 1 && files.every((f) => f && f.type === 'file') && files.reduce((n, f) => n + f!.size!, 0) < 30_000_000;
    })!;
    assert.ok(task, 'a completed task with a few small output files');
    const target = temp();
    const summary = (await vscode.commands.executeCommand('sevenbridges.tasks.downloadOutputs', task.id, { target, confirm: false })) as { failed: unknown[] };
    assert.deepStrictEqual(summary.failed, []);
    // The task's name as one folder: a slash is never a name; Windows refuses its own characters too.
    const folder = task.name.replace(process.platform === 'win32' ? /[\\/:*?"<>|]/g : /\//g, '_');
    const files = [...new Set(outputIds(task))].map((id) => data().fileById.get(id)!);
    assert.deepStrictEqual(localFiles(target), files.map((f) => `${folder}/${f.name}`).sort());
    for (const f of files) assert.ok(fs.readFileSync(path.join(target, folder, f.name)).equals(await remoteBytes(f.id)), f.name);
    fs.rmSync(target, { recursive: true, force: true });
  });

  it('refuses a local folder that cannot be written before reading anything, with what is wrong', async () => {
    const blocker = path.join(temp(), 'a-file');
    fs.writeFileSync(blocker, 'in the way');
    const before = emulator().storageRequests.length;
    const summary = await vscode.commands.executeCommand('sevenbridges.files.download', sample('README.txt').id, { target: path.join(blocker, 'below'), confirm: false });
    assert.strictEqual(summary, undefined);
    assert.strictEqual(emulator().storageRequests.length, before, 'nothing fetched');
  });
});
