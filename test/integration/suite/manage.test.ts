/**
 * Managing data where it lives, in a real VS Code against the emulator: Find Files answered by the server search (a
 * file deep in a folder, by tag), by the list filters where the platform has no search (said in the view's
 * description), and Clear Find bringing the projects back; a found file revealed in its project.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { FilesNode } from '../../../src/files/filesModel';
import type { FileRec } from '../../emulator';
import { activateProduct, emulator, waitFor } from '../helpers';

type AnyNode = FilesNode & { kind: string; file?: FileRec };

describe('managing files: Find Files', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  const data = () => emulator().data;
  const rows = async () => (await api.files.rows.getChildren()) as AnyNode[];
  const description = () => api.files.view.description;

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
    assert.strictEqual(description(), `Found: tag "int-find-tag" in ${project.id} (server search)`);
    const item = await api.files.rows.getTreeItem(found[0]);
    assert.match(String(item.description), new RegExp(`${project.id.replace('/', '\\/')}\\/…$`));
    assert.match(String((item.tooltip as vscode.MarkdownString).value), /Tags: .*`int-find-tag`/);
    await vscode.commands.executeCommand('sevenbridges.files.clearFind');
    assert.strictEqual(description(), undefined);
    assert.ok((await rows()).some((n) => n.kind === 'project'), 'the projects are shown again');
  });

  it('reveals a found file in its project', async () => {
    const { project, folder, file } = deepFile();
    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, name: file.name });
    const found = await waitFor(async () => (await rows()).find((n) => n.id === file.id), 'the file found by name');
    await vscode.commands.executeCommand('sevenbridges.files.reveal', found);
    assert.strictEqual(description(), undefined);
    await waitFor(() => api.files.view.selection.some((n) => (n as AnyNode).id === file.id), 'the file selected in its folder');
    assert.strictEqual(api.files.model.getParent(api.files.view.selection[0])?.id, folder.id);
  });

  // Last: the product remembers, for this sign-in, that the platform has no search.
  it('a platform without the search: the list filters answer (top level only) and the description says so', async () => {
    emulator().searchSettings.mode = 'absent';
    const project = data().projects.find((p) => data().children(p.root_folder).some((f) => f.type === 'file'))!;
    const top = data().children(project.root_folder).find((f) => f.type === 'file')!;
    await vscode.commands.executeCommand('sevenbridges.files.find', { project: project.id, name: top.name });
    await waitFor(async () => (await rows()).some((n) => n.id === top.id), 'the file found by the list filter');
    await waitFor(() => description()?.endsWith('(list filter, top level only)'), 'the description to name the list filter');
    assert.strictEqual(description(), `Found: name "${top.name}" in ${project.id} (list filter, top level only)`);
  });
});
