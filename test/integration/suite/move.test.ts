/**
 * Move To… and the drop's choice, in a real VS Code against the emulator: a file moved within its project (the single
 * move), a folder moved to another project (the async move, followed to its end), a folder into its own subfolder
 * refused with nothing sent, and drops through the controller's handleDrop: Move offered first within one project,
 * Copy first across projects. Each read back from the platform and from the rows.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { FilesNode } from '../../../src/files/fileNodes';
import type { FileRec } from '../../emulator';
import { activateProduct, emulator, waitFor } from '../helpers';

type AnyNode = FilesNode & { kind: string; id: string; file?: FileRec };
const ACCEPT = 'workbench.action.acceptSelectedQuickOpenItem';
const LAST = 'quickInput.last';

describe('Move To… and the drop\'s choice', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const data = () => emulator().data;
  const children = async (node?: AnyNode) => (await api.files.rows.getChildren(node)) as AnyNode[];
  const posts = (path: RegExp) => emulator().writes.filter((w) => w.method === 'POST' && path.test(w.path)).length;
  const writable = () => data().projects.filter((p) => p.permissions?.write !== false && data().children(p.root_folder).some((f) => f.type === 'file'));
  const projectRow = (id: string) =>
    waitFor(async () => {
      const roots = await children();
      const found = roots.find((n) => n.id === id);
      if (!found) {
        const more = roots.find((n) => n.kind === 'loadMore');
        if (more) await vscode.commands.executeCommand('sevenbridges.files.loadMore', more);
      }
      return found;
    }, `project ${id} in the view`);
  /** The row of `id` under `parent`, its listing paged with "Load more" until it shows (a new entry comes last). */
  const rowOf = (id: string, parent: AnyNode) =>
    waitFor(async () => {
      const rows = await children(parent);
      const found = rows.find((n) => n.id === id);
      const more = rows.find((n) => n.kind === 'loadMore');
      if (!found && more) await vscode.commands.executeCommand('sevenbridges.files.loadMore', more);
      return found;
    }, `row ${id}`, 20_000);
  const folder = async (name: string, where: { project: string } | { parent: string }) => (await api.services.client.files.createFolder(name, where)) as unknown as FileRec;
  /** Drops `rows` onto `target` through the controller; the quick pick answered as a person would: Enter, or End then Enter. */
  const drop = async (rows: AnyNode[], target: AnyNode, second = false) => {
    const transfer = new vscode.DataTransfer();
    await api.files.dragAndDrop.handleDrag(rows, transfer);
    let done = false;
    const dropping = api.files.dragAndDrop.handleDrop(target, transfer, new vscode.CancellationTokenSource().token).then(() => (done = true));
    // The pick shows once the drop is checked (nothing is read before): Down or Enter pressed then, not before.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitFor(async () => {
      if (done) return true;
      if (second) await vscode.commands.executeCommand(LAST);
      await vscode.commands.executeCommand(ACCEPT);
      return done;
    }, 'the drop answered and done', 60_000);
    await dropping;
  };

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    await vscode.commands.executeCommand('sevenbridges.files.focus');
  });

  it('moves a file within its project by the single move, and a folder to another project by the async move; the rows follow', async () => {
    const [a, b] = writable();
    const here = await folder('int-move-here', { project: a.id });
    const file = data().children(a.root_folder).find((f) => f.type === 'file')!;
    const aRow = await projectRow(a.id);
    const single = posts(/^\/files\/[^/]+\/actions\/move$/);
    const moved = (await vscode.commands.executeCommand('sevenbridges.files.moveTo', await rowOf(file.id, aRow), {
      destination: { kind: 'sameProjectFolder', project: a.id, folder: here.id, path: [here.name] },
      confirm: false,
    })) as { moved: number };
    assert.strictEqual(moved.moved, 1);
    assert.strictEqual(data().fileById.get(file.id)!.parent, here.id, 'in its new folder, its ID kept');
    assert.strictEqual(posts(/^\/files\/[^/]+\/actions\/move$/) - single, 1, 'one single move');
    await waitFor(async () => !(await children(aRow)).some((n) => n.id === file.id), 'the file gone from the project\'s root row');
    assert.ok((await children(await rowOf(here.id, aRow))).some((n) => n.id === file.id), 'shown in its new folder');

    const asyncMoves = emulator().moveRequests.length;
    const result = (await vscode.commands.executeCommand('sevenbridges.files.moveTo', here.id, { destination: { kind: 'projectRoot', project: b.id }, confirm: false })) as { moved: number };
    assert.ok(result.moved >= 1);
    assert.strictEqual(emulator().moveRequests.length - asyncMoves, 1, 'one call of the async move');
    assert.deepStrictEqual(emulator().moveRequests.at(-1)!.items, [{ file: here.id, project: b.id }]);
    const arrived = data().children(b.root_folder).find((f) => f.type === 'folder' && f.name === 'int-move-here');
    assert.ok(arrived, 'the folder in the other project');
    assert.strictEqual(data().fileById.get(file.id)!.parent, arrived.id, 'with its file (ID kept)');
    assert.ok(!data().children(a.root_folder).some((f) => f.name === 'int-move-here'), 'gone from the first project');
    await waitFor(async () => !(await children(aRow)).some((n) => n.id === here.id), 'the folder row gone from the first project');
    assert.ok(!api.services.outbox.all().some((r) => r.kind.startsWith('file.')), 'nothing left in the outbox');
  });

  it('a move job that no command waits for (its window reloaded, its wait cancelled) reads its rows again when it ends (#44)', async () => {
    const [a] = writable();
    const there = await folder('int-move-later', { project: a.id });
    const file = data().children(a.root_folder).find((f) => f.type === 'file')!;
    const aRow = await projectRow(a.id);
    // The folder was made behind the view's back: its listing is read again to show it.
    await vscode.commands.executeCommand('sevenbridges.files.refresh', aRow);
    await rowOf(file.id, aRow);
    const thereRow = await rowOf(there.id, aRow);
    assert.deepStrictEqual((await children(thereRow)).map((n) => n.kind), ['message'], 'shown empty');
    // Sent as a resumed job is: by the outbox, with no command to read the rows after it.
    const account = (await api.services.account())!;
    await api.services.outbox.submit('file.asyncMove', [{ items: [{ file: file.id, parent: there.id }], destination: { label: `${a.id} › ${there.name}`, project: a.id, parent: there.id } }], account);
    await waitFor(() => data().fileById.get(file.id)!.parent === there.id, 'the platform to move it');
    await waitFor(async () => !(await children(aRow)).some((n) => n.id === file.id), 'the file gone from the project\'s root row', 20_000);
    await waitFor(async () => (await children(thereRow)).some((n) => n.id === file.id), 'the file shown in the folder it went to', 20_000);
  });

  it('a folder into its own subfolder, or a file into a read-only project, is refused with nothing sent', async () => {
    const [a] = writable();
    const outer = await folder('int-outer', { project: a.id });
    const inner = await folder('int-inner', { parent: outer.id });
    const before = emulator().writes.length;
    const refused = await vscode.commands.executeCommand('sevenbridges.files.moveTo', outer.id, {
      destination: { kind: 'sameProjectFolder', project: a.id, folder: inner.id, path: [outer.name, inner.name] },
      confirm: false,
    });
    assert.strictEqual(refused, undefined);
    const readOnly = data().projects.find((p) => p.permissions?.write === false)!;
    const file = data().children(a.root_folder).find((f) => f.type === 'file')!;
    await vscode.commands.executeCommand('sevenbridges.files.moveTo', file.id, { destination: { kind: 'projectRoot', project: readOnly.id }, confirm: false });
    assert.strictEqual(emulator().writes.length, before, 'nothing sent');
    assert.strictEqual(data().fileById.get(outer.id)!.parent, a.root_folder);
    assert.strictEqual(data().fileById.get(file.id)!.parent, a.root_folder);
  });

  it('a drop within one project moves by default (Enter); across projects Copy comes first, Move second', async () => {
    const [a, b] = writable();
    const into = await folder('int-drop-into', { project: a.id });
    const aRow = await projectRow(a.id);
    await vscode.commands.executeCommand('sevenbridges.files.refresh', aRow);
    const file = data().children(a.root_folder).find((f) => f.type === 'file' && !data().children(into.id).some((c) => c.name === f.name))!;
    const copies = emulator().copyRequests.length;
    await drop([await rowOf(file.id, aRow)], await rowOf(into.id, aRow));
    assert.strictEqual(data().fileById.get(file.id)!.parent, into.id, 'moved (the default within a project)');
    assert.strictEqual(emulator().copyRequests.length, copies, 'nothing copied');

    const bRow = await projectRow(b.id);
    await vscode.commands.executeCommand('sevenbridges.files.refresh', bRow);
    const other = data().children(b.root_folder).find((f) => f.type === 'file' && !data().children(into.id).some((c) => c.name === f.name))!;
    const intoRow = await rowOf(into.id, await projectRow(a.id));
    await drop([await rowOf(other.id, bRow)], intoRow, true);
    assert.strictEqual(data().fileById.get(other.id)!.parent, into.id, 'the second choice across projects is Move');
    assert.strictEqual(emulator().copyRequests.length, copies, 'nothing copied');
  });

  it('local files dropped from the Explorer or the OS (text/uri-list) onto a folder are uploaded there', async () => {
    const [a] = writable();
    const into = await folder('int-drop-upload', { project: a.id });
    const aRow = await projectRow(a.id);
    await vscode.commands.executeCommand('sevenbridges.files.refresh', aRow);
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sb-drop-'));
    const local = path.join(dir, 'int-dropped.txt');
    await fs.promises.writeFile(local, 'dropped from the Explorer\n');
    const transfer = new vscode.DataTransfer();
    transfer.set('text/uri-list', new vscode.DataTransferItem(`${vscode.Uri.file(local).toString()}\r\n`));
    await api.files.dragAndDrop.handleDrop(await rowOf(into.id, aRow), transfer, new vscode.CancellationTokenSource().token);
    const uploaded = data().children(into.id).filter((f) => f.name === 'int-dropped.txt');
    assert.strictEqual(uploaded.length, 1, 'uploaded once, into the folder dropped onto');
    assert.strictEqual(uploaded[0].size, 'dropped from the Explorer\n'.length);
    await fs.promises.rm(dir, { recursive: true, force: true });
  });
});
