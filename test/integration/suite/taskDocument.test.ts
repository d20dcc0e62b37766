/**
 * Starting work from the editor (issue 39) in the real host: New Task… opens an app's task document, problems show
 * as you type, completion offers an input's values and the project's files by name, Run Task makes the task on the
 * platform once, writes its ID into the document and watches it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { activateProduct, emulator, waitFor } from '../helpers';

const APP = 'rfranklin/my-project/variant-filter';
const PROJECT = 'rfranklin/my-project';

describe('the task document: New Task…, completion, problems, Run Task', function () {
  this.timeout(60_000);
  let api: ExtensionApi;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in', 20_000);
  });

  after(async () => {
    for (const w of api.tasks.watcher.list()) await api.tasks.watcher.unwatch(w.id);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // Run Task revealed the new task, opening its group: folded again, as the suites after this one expect the view.
    await vscode.commands.executeCommand('workbench.actions.treeView.sevenbridges.tasks.collapseAll');
  });

  const problems = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).map((d) => d.message);
  const labels = async (uri: vscode.Uri, position: vscode.Position) => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position);
    return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  };

  it('New Task… on an app opens its document; Run Task makes the task once, names it in the document and watches it', async () => {
    await vscode.commands.executeCommand('sevenbridges.tasks.newTask', APP);
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.endsWith('.sbtask.yaml') === true, 'the task document to open');
    const editor = vscode.window.activeTextEditor!;
    const document = editor.document;
    assert.strictEqual(document.uri.scheme, 'untitled');
    assert.strictEqual(document.languageId, 'yaml');
    const text = document.getText();
    assert.match(text, new RegExp(`^app: ${APP}/\\d+$`, 'm'));
    assert.match(text, new RegExp(`^project: ${PROJECT}$`, 'm'));
    assert.match(text, /^ {2}# input_bam: {2}# File · required · Aligned reads$/m, 'each input a line to fill, what it takes beside it');
    await waitFor(() => problems(document.uri).some((p) => p.startsWith('The required input "input_bam"')), 'the missing inputs shown as problems');

    const emu = emulator();
    // The files of the project's root folder, its first page: what completion lists first.
    const root = emu.data.files.find((f) => f.project === PROJECT && f.parent === null)!;
    const inProject = emu.data.children(root.id).slice(0, 100).filter((f) => f.type === 'file');
    const bam = inProject.find((f) => f.name.endsWith('.bam'))!;
    const reference = inProject.find((f) => f !== bam)!;
    assert.ok(bam && reference, 'a BAM and another file in the project');
    const app = text.split('\n').find((l) => l.startsWith('app: '))!;
    const filled = [app, `project: ${PROJECT}`, 'name: VF from the editor', 'inputs:', `  input_bam: ${bam.id}`, `  reference: ${reference.id}`, '  mode: ', ''].join('\n');
    await editor.edit((e) => e.replace(new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), filled));
    const modeLine = document.lineAt(6);
    assert.deepStrictEqual(await labels(document.uri, modeLine.range.end), ['strict', 'lenient'], 'an enum\'s symbols');
    const bamLine = document.lineAt(4);
    const offered = await labels(document.uri, new vscode.Position(4, '  input_bam: '.length));
    assert.ok(offered.includes(bam.name) && offered.every((n) => n.toUpperCase().endsWith('.BAM')), `the project's BAM files by name: ${offered.join(', ')}`);
    assert.ok(bamLine.text.endsWith(bam.id));
    await editor.edit((e) => e.insert(modeLine.range.end, 'strict'));
    await waitFor(() => !problems(document.uri).some((p) => /required|Expected|not one of/.test(p)), 'no problems left', 10_000);

    const before = emu.data.tasks.length;
    await vscode.commands.executeCommand('sevenbridges.tasks.runDocument', document.uri);
    const made = emu.data.tasks.filter((t) => t.name === 'VF from the editor');
    assert.strictEqual(made.length, 1, 'one task made');
    assert.strictEqual(emu.data.tasks.length, before + 1);
    assert.strictEqual(made[0].project, PROJECT);
    assert.notStrictEqual(made[0].status, 'DRAFT', 'run');
    assert.deepStrictEqual(made[0].inputs.input_bam, { class: 'File', path: bam.id });
    await waitFor(() => document.getText().includes(`\ndraft: ${made[0].id}\n`), 'the task\'s ID written into the document');
    assert.ok(api.tasks.watcher.isWatched(made[0].id), 'watched: told when it ends');
    // Shown in the Tasks view, selected, though its group was never opened (its first page read to show it).
    await waitFor(() => api.tasks.view.selection.some((n) => n.kind === 'task' && n.task.id === made[0].id), 'the new task selected in the Tasks view');
  });
});
