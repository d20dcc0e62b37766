/**
 * Managing data where it lives, in a real VS Code against the emulator: Find Files answered by the server search (a
 * file deep in a folder, by tag), by the list filters where the platform has no search (said in the view's
 * description), and Clear Find bringing the projects back; a found file revealed in its project.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { FilesNode } from '../../../src/files/fileNodes';
import type { FileRec } from '../../emulator';
import { activateProduct, emulator, waitFor } from '../helpers';

type AnyNode = FilesNode & { kind: string; file?: FileRec };

describe('managing files: new folder, rename, tags, delete', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  const data = () => emulator().data;
  const children = async (node?: AnyNode) => (await api.files.rows.getChildren(node)) as AnyNode[];
  const writesTo = (method: string, path: RegExp) => emulator().writes.filter((w) => w.method === method && path.test(w.path)).length;
  /** A writable project with at least 4 files at its root, and its row. */
  const projectRow = async () => {
    const project = data().projects.find((p) => p.permissions?.write !== false && data().children(p.root_folder).filter((f) => f.type === 'file').length >= 4)!;
    const row = await waitFor(async () => {
      const roots = await children();
      const found = roots.find((n) => n.id === project.id);
      if (!found) {
        const more = roots.find((n) => n.kind === 'loadMore');
        if (more) await vscode.commands.executeCommand('sevenbridges.files.loadMore', more);
      }
      return found;
    }, `project ${project.id} in the view`);
    return { project, row };
  };
  const rowOf = (id: string, parent: AnyNode) => waitFor(async () => (await children(parent)).find((n) => n.id === id), `row ${id}`);

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    await vscode.commands.executeCommand('sevenbridges.files.focus');
  });

  it('makes a folder, renames a file, tags two files, finds them by tag and deletes them with the folder: each read back from the platform', async () => {
    const { project, row } = await projectRow();
    // Other suites (uploads) make folders on the same platform: this one counts its own.
    const foldersBefore = writesTo('POST', /^\/files$/);
    const made = (await vscode.commands.executeCommand('sevenbridges.files.newFolder', row, { name: 'int-made-here' })) as FileRec | undefined;
    assert.ok(made, 'the folder is answered');
    const folder = data().children(project.root_folder).find((f) => f.name === 'int-made-here' && f.type === 'folder');
    assert.ok(folder && folder.id === made.id, 'made once, in the project\'s root');
    assert.strictEqual(writesTo('POST', /^\/files$/) - foldersBefore, 1);

    const [a, b] = data().children(project.root_folder).filter((f) => f.type === 'file');
    const newName = `int-renamed-${a.name}`;
    await vscode.commands.executeCommand('sevenbridges.files.rename', await rowOf(a.id, row), { name: newName });
    assert.strictEqual(data().fileById.get(a.id)!.name, newName);
    await waitFor(async () => (await children(row)).some((n) => n.id === a.id && api.files.rows.getTreeItem(n).label === newName), 'the new name shown');

    const rowA = await rowOf(a.id, row);
    const rowB = await rowOf(b.id, row);
    await vscode.commands.executeCommand('sevenbridges.files.editTags', rowA, [rowA, rowB], { add: ['int-sample'] });
    assert.ok(data().fileById.get(a.id)!.tags.includes('int-sample') && data().fileById.get(b.id)!.tags.includes('int-sample'), 'both tagged');

    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, tag: 'int-sample' });
    const found = await waitFor(async () => {
      const shown = await children();
      return shown.length === 2 && shown.every((n) => n.kind === 'file') ? shown : undefined;
    }, 'the two tagged files found');
    assert.deepStrictEqual(found.map((n) => n.id).sort(), [a.id, b.id].sort());

    // Deleted from the results: two files, by the async delete (one job), then the folder.
    const result = (await vscode.commands.executeCommand('sevenbridges.files.delete', found[0], found, { confirm: false })) as { deleted: number };
    assert.strictEqual(result.deleted, 2);
    assert.ok(!data().fileById.has(a.id) && !data().fileById.has(b.id), 'both gone from the platform');
    await vscode.commands.executeCommand('sevenbridges.files.clearFind');
    await vscode.commands.executeCommand('sevenbridges.files.delete', folder.id, { confirm: false });
    assert.ok(!data().fileById.has(folder.id), 'the folder gone');
  });

  it('bad input sends nothing: an empty or illegal name, a folder named "__x", a tag with a comma; a delete of something gone is said once', async () => {
    const { project, row } = await projectRow();
    const file = data().children(project.root_folder).find((f) => f.type === 'file')!;
    const before = emulator().writes.length;
    for (const name of ['', '  ', 'a/b']) await vscode.commands.executeCommand('sevenbridges.files.rename', await rowOf(file.id, row), { name });
    await vscode.commands.executeCommand('sevenbridges.files.newFolder', row, { name: '__x' });
    await vscode.commands.executeCommand('sevenbridges.files.editTags', file.id, { add: ['a,b'] });
    assert.strictEqual(emulator().writes.length, before, 'nothing sent');
    assert.strictEqual(data().fileById.get(file.id)!.name, file.name);

    const gone = data().children(project.root_folder).filter((f) => f.type === 'file')[1];
    await vscode.commands.executeCommand('sevenbridges.files.delete', gone.id, { confirm: false });
    const path = new RegExp(`^/files/${gone.id}$`);
    assert.strictEqual(writesTo('DELETE', path), 1);
    const again = (await vscode.commands.executeCommand('sevenbridges.files.delete', gone.id, { confirm: false })) as { gone: number };
    assert.strictEqual(again.gone, 1, 'said as already gone');
    assert.strictEqual(writesTo('DELETE', path), 1, 'read, not sent again: no storm');
    assert.ok(!api.services.outbox.all().some((r) => r.kind === 'file.delete'), 'nothing left to decide in Copy Jobs');
  });

  it('edits a file\'s metadata as JSON: saved through the write path and read back; JSON that is not refused, nothing sent', async () => {
    const { project } = await projectRow();
    const file = data().children(project.root_folder).filter((f) => f.type === 'file')[2];
    await vscode.commands.executeCommand('sevenbridges.files.editMetadata', file.id);
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'sevenbridges-metadata' && e.document.uri.query === file.id), 'the metadata document');
    // Its tab and breadcrumbs say the file's name, not its ID; a tab that stays (edited, not previewed).
    assert.strictEqual(editor.document.uri.path, `/${file.name}.metadata.json`);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.strictEqual([tab?.label, tab?.isPreview].join(' '), `${file.name}.metadata.json false`);
    assert.deepStrictEqual(JSON.parse(editor.document.getText()), file.metadata);
    const whole = (text: string) => editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), text));
    const before = emulator().writes.length;
    await whole('{ "sample_id": "S-int", ');
    assert.strictEqual(await editor.document.save(), false, 'not saved');
    assert.strictEqual(emulator().writes.length, before, 'nothing sent');
    await whole('{ "sample_id": "S-int", "platform": "ONT" }\n');
    assert.strictEqual(await editor.document.save(), true);
    assert.deepStrictEqual(data().fileById.get(file.id)!.metadata, { sample_id: 'S-int', platform: 'ONT' });
    assert.strictEqual(emulator().writes.filter((w) => w.method === 'PUT' && w.path.startsWith(`/files/${file.id}/metadata`)).length, 1);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('refuses a project\'s root folder and a read-only project before anything is sent', async () => {
    const { project } = await projectRow();
    const before = emulator().writes.length;
    await vscode.commands.executeCommand('sevenbridges.files.delete', project.root_folder, { confirm: false });
    const readOnly = data().projects.find((p) => p.permissions?.write === false && data().children(p.root_folder).some((f) => f.type === 'file'));
    assert.ok(readOnly, 'the emulator has a read-only project with a file');
    await vscode.commands.executeCommand('sevenbridges.files.delete', data().children(readOnly.root_folder).find((f) => f.type === 'file')!.id, { confirm: false });
    assert.strictEqual(emulator().writes.length, before, 'nothing sent');
    assert.ok(data().fileById.has(project.root_folder));
  });
});

describe('managing files: Find Files', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  const data = () => emulator().data;
  const rows = async () => (await api.files.rows.getChildren()) as AnyNode[];
  /** What the view says above the results (its description, cut to a letter at the default width, is not set). */
  const said = () => api.files.view.message;

  /** A project with a file in a folder at its root. */
  const deepFile = () => {
    for (const project of data().projects) {
      for (const folder of data().children(project.root_folder).filter((f) => f.type === 'folder')) {
        const inner = data().children(folder.id).find((f) => f.type === 'file');
        if (inner) return { project, folder, file: inner };
      }
    }
    throw new Error('no file in a folder in the emulator\'s data');
  };

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    await vscode.commands.executeCommand('sevenbridges.files.focus');
  });

  afterEach(async () => {
    emulator().searchSettings.mode = 'available';
    await vscode.commands.executeCommand('sevenbridges.files.clearFind');
  });

  it('finds a file by tag anywhere in a project with the server search, shows its place, and Clear Find brings the projects back', async () => {
    const { project, file } = deepFile();
    file.tags = [...file.tags, 'int-find-tag'];
    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, tag: 'int-find-tag' });
    const found = await waitFor(async () => {
      const shown = await rows();
      return shown.length === 1 && shown[0].kind === 'file' ? shown : undefined;
    }, 'the tagged file to be listed');
    assert.strictEqual(found[0].id, file.id);
    assert.strictEqual(said(), `Found: tag "int-find-tag" in ${project.id} (server search)`);
    assert.strictEqual(api.files.view.description, undefined, 'not in the title, where the default width leaves a letter');
    const item = await api.files.rows.getTreeItem(found[0]);
    assert.match(String(item.description), new RegExp(`${project.id.replace('/', '\\/')}\\/…$`));
    assert.match(String((item.tooltip as vscode.MarkdownString).value), /Tags: .*`int-find-tag`/);
    await vscode.commands.executeCommand('sevenbridges.files.clearFind');
    assert.strictEqual(said(), undefined);
    assert.ok((await rows()).some((n) => n.kind === 'project'), 'the projects are shown again');
  });

  it('reveals a found file in its project', async () => {
    const { project, folder, file } = deepFile();
    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, name: file.name });
    const found = await waitFor(async () => (await rows()).find((n) => n.id === file.id), 'the file found by name');
    await vscode.commands.executeCommand('sevenbridges.files.reveal', found);
    assert.strictEqual(said(), undefined);
    await waitFor(() => api.files.view.selection.some((n) => (n as AnyNode).id === file.id), 'the file selected in its folder');
    assert.strictEqual(api.files.model.getParent(api.files.view.selection[0])?.id, folder.id);
  });

  it('reveals a file past the first 1,000 entries of its folder on its own: found by its name there, Clear Find brings the projects back', async () => {
    const { project, folder } = deepFile();
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    const add = (name: string) => data().addFile({ id: data().newFileId(), name, size: 1, project: project.id, parent: folder.id, type: 'file', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
    const filler = Array.from({ length: 1_050 }, (_, i) => add(`int-far-${String(i).padStart(4, '0')}.txt`));
    const far = add('int-far-down.bam');
    try {
      await vscode.commands.executeCommand('sevenbridges.files.reveal', far.id);
      await waitFor(() => api.files.view.selection.some((n) => (n as AnyNode).id === far.id), 'the file selected on its own');
      assert.ok(said()?.startsWith(`Found: name "int-far-down.bam" in the folder ${folder.name} (`), said());
      assert.deepStrictEqual((await rows()).map((n) => n.id), [far.id], 'the file alone in place of the projects');
      await vscode.commands.executeCommand('sevenbridges.files.clearFind');
      await waitFor(async () => (await rows()).some((n) => n.id === project.id), 'the projects shown again');
    } finally {
      for (const f of [...filler, far]) data().removeFile(f);
    }
  });

  // Last: the product remembers, for this sign-in, that the platform has no search.
  it('a platform without the search: the list filters answer (top level only) and the description says so', async () => {
    emulator().searchSettings.mode = 'absent';
    const project = data().projects.find((p) => data().children(p.root_folder).some((f) => f.type === 'file'))!;
    const top = data().children(project.root_folder).find((f) => f.type === 'file')!;
    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, name: top.name });
    await waitFor(async () => (await rows()).some((n) => n.id === top.id), 'the file found by the list filter');
    await waitFor(() => said()?.endsWith('(list filter, top level only)'), 'the words above the results to name the list filter');
    assert.strictEqual(said(), `Found: name "${top.name}" in ${project.id} (list filter, top level only)`);
    // A part of a name there: the folders listed one by one, the names compared here, and how far it looked.
    const part = top.name.slice(1, 5);
    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, namePart: part.toUpperCase() });
    await waitFor(async () => (await rows()).some((n) => n.id === top.id), 'the file found by a part of its name');
    assert.match(said() ?? '', new RegExp(`^Found: name contains "${part.toUpperCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" in ${project.id} \\((every folder listed|folders listed one by one), names compared here: [\\d,]+ entries in [\\d,]+ folders`));
  });
});
