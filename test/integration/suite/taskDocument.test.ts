/**
 * Starting work from the editor (issue 39) in the real host: New Task… opens an app's task document, problems show
 * as you type, completion offers an input's values and the project's files by name, Run Task makes the task on the
 * platform once and watches it (the document names no draft: it describes a run, to make again).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { activateProduct, emulator, revertDirtyEditors, waitFor } from '../helpers';

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
    await revertDirtyEditors();
    // Run Task revealed the new task, opening its group: folded again, as the suites after this one expect the view.
    await vscode.commands.executeCommand('workbench.actions.treeView.sevenbridges.tasks.collapseAll');
  });

  const problems = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).map((d) => d.message);
  const labels = async (uri: vscode.Uri, position: vscode.Position) => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position);
    return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  };

  it('New Task… on an app opens its document; Run Task makes the task once and watches it, the document left a run to make again (no draft line)', async () => {
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

    // A document with no problem: the project's newest tasks are read ahead (what the send reads to find its task if
    // the answer is lost, with the fields its rule compares), so Run Task sends its POST with no request before it (#43).
    // (The task explorer lists tasks newest first too, with fields of its own: the identity's are matched.)
    const snapshotRead = (r: { method: string; path: string; search: string }) =>
      r.method === 'GET' && r.path === '/v2/tasks' && r.search.includes('order_by=created_time') && r.search.includes('fields=id%2Ccreated_time%2Cname%2Capp%2Cstatus%2Cproject%2Cinputs');
    await waitFor(() => emu.received.some(snapshotRead), 'the project\'s newest tasks read ahead once the document has no problem', 10_000);
    const from = emu.received.length;
    const before = emu.data.tasks.length;
    await vscode.commands.executeCommand('sevenbridges.tasks.runDocument', document.uri);
    const sent = emu.received.slice(from);
    const post = sent.findIndex((r) => r.method === 'POST' && r.path === '/v2/tasks');
    assert.ok(post >= 0, sent.map((r) => `${r.method} ${r.path}${r.search}`).join('\n'));
    assert.deepStrictEqual(sent.slice(0, post).filter(snapshotRead), [], 'no snapshot read between the click and the POST');
    const made = emu.data.tasks.filter((t) => t.name === 'VF from the editor');
    assert.strictEqual(made.length, 1, 'one task made');
    assert.strictEqual(emu.data.tasks.length, before + 1);
    assert.strictEqual(made[0].project, PROJECT);
    assert.notStrictEqual(made[0].status, 'DRAFT', 'run');
    assert.deepStrictEqual(made[0].inputs.input_bam, { class: 'File', path: bam.id });
    // A task that runs is not named in the document (only a draft is): Run Task on it again makes another task.
    assert.ok(!/^draft:/m.test(document.getText()), document.getText());
    assert.ok(api.tasks.watcher.isWatched(made[0].id), 'watched: told when it ends');
    // Shown in the Tasks view, selected, though its group was never opened (its first page read to show it).
    await waitFor(() => api.tasks.view.selection.some((n) => n.kind === 'task' && n.task.id === made[0].id), 'the new task selected in the Tasks view');
  });
});

describe('Run for Each Row…: a sample sheet makes a task per row', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let folder: string;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in', 20_000);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sheet-'));
  });

  after(async () => {
    await revertDirtyEditors();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('finds the files by name, leaves out a row naming none, makes each other row\'s task once and follows them as one set', async () => {
    const emu = emulator();
    const root = emu.data.files.find((f) => f.project === PROJECT && f.parent === null)!;
    const files = emu.data.children(root.id).filter((f) => f.type === 'file');
    const bams = files.filter((f) => f.name.endsWith('.bam')).slice(0, 2);
    const reference = files.find((f) => !f.name.endsWith('.bam'))!;
    assert.strictEqual(bams.length, 2, 'two BAM files at the project\'s top level');
    const revision = (await api.services.client.apps.get(APP)).revision;
    const template = path.join(folder, 'vf.sbtask.yaml');
    fs.writeFileSync(template, [`app: ${APP}/${revision}`, `project: ${PROJECT}`, 'name: VF', 'inputs:', `  reference: ${reference.id}`, '  mode: strict', ''].join('\n'));
    const sheet = path.join(folder, 'samples.csv');
    fs.writeFileSync(sheet, ['input_bam,min_quality,sample', `${bams[0].name},25,s1`, `${bams[1].id},30,s2`, 'no-such-file.bam,30,s3', ''].join('\n'));
    const before = emu.data.tasks.length;

    const run = (await vscode.commands.executeCommand('sevenbridges.tasks.runForEachRow', { template, sheet, confirm: false })) as {
      plan: { tasks: { problems: string[] }[] };
      preview: string;
      made: { id: string; name: string }[];
      watch?: { left: number; saved: Promise<void>; dispose(): void };
    };
    const KEY = 'sevenbridges.tasks.rerunWatches';
    const state = api.services.context.globalState;
    try {
      assert.deepStrictEqual(run.plan.tasks.map((t) => t.problems.length > 0), [false, false, true]);
      assert.match(run.preview, /No file named "no-such-file.bam"/);
      assert.deepStrictEqual(run.made.map((t) => t.name), [`VF · ${bams[0].name}`, `VF · ${bams[1].id}`]);
      assert.strictEqual(emu.data.tasks.length, before + 2, 'one task per row that validates, each made once');
      const made = emu.data.tasks.filter((t) => run.made.some((m) => m.id === t.id));
      assert.deepStrictEqual(made.map((t) => [t.inputs.input_bam, t.inputs.min_quality, t.inputs.mode]), [
        [{ class: 'File', path: bams[0].id }, 25, 'strict'],
        [{ class: 'File', path: bams[1].id }, 30, 'strict'],
      ]);
      assert.ok(made.every((t) => t.status !== 'DRAFT'), 'run as soon as made');
      await run.watch?.saved;
      const stored = (state.get(KEY) ?? []) as { sheet?: string; open: string[] }[];
      const set = stored.find((w) => w.sheet === 'samples.csv');
      assert.deepStrictEqual(set?.open.slice().sort(), run.made.map((t) => t.id).sort(), 'followed as one set');
      // The Tasks view shows just them, read by ID.
      assert.deepStrictEqual(api.tasks.filters.filter, { set: { name: 'samples.csv', ids: run.made.map((t) => t.id) } });
      assert.strictEqual(api.tasks.filters.description, 'sheet samples.csv, 2 tasks');
      const shown = async () => {
        const ids: string[] = [];
        for (const group of await api.tasks.tree.getChildren()) if (group.kind === 'group') for (const row of await api.tasks.tree.getChildren(group)) if (row.kind === 'task') ids.push(row.task.id);
        return ids.sort();
      };
      await waitFor(async () => JSON.stringify(await shown()) === JSON.stringify(run.made.map((t) => t.id).sort()), 'the Tasks view to show just the two tasks', 20_000);
    } finally {
      await api.tasks.filters.clear();
      // Taken out of the platform: running, they would end during the suites after this one and move their counts.
      for (const made of run.made) {
        const record = emu.data.taskById.get(made.id);
        if (record) emu.data.removeTask(record);
      }
      run.watch?.dispose();
      const left = ((state.get(KEY) ?? []) as { open: string[] }[]).filter((w) => !w.open.some((id) => run.made.some((t) => t.id === id)));
      await state.update(KEY, left.length ? left : undefined);
    }
  });

  it('Cancel while the tasks are sent: those made stay, Make the Rest makes only the rows not sent, each row once', async () => {
    const emu = emulator();
    const root = emu.data.files.find((f) => f.project === PROJECT && f.parent === null)!;
    const files = emu.data.children(root.id).filter((f) => f.type === 'file');
    const bam = files.find((f) => f.name.endsWith('.bam'))!;
    const reference = files.find((f) => !f.name.endsWith('.bam'))!;
    const revision = (await api.services.client.apps.get(APP)).revision;
    const template = path.join(folder, 'rest.sbtask.yaml');
    fs.writeFileSync(template, [`app: ${APP}/${revision}`, `project: ${PROJECT}`, 'name: VF', 'inputs:', `  reference: ${reference.id}`, '  mode: strict', ''].join('\n'));
    const sheet = path.join(folder, 'rest.csv');
    const names = Array.from({ length: 8 }, (_, i) => `rest row ${i + 1}`);
    fs.writeFileSync(sheet, ['name,input_bam,min_quality', ...names.map((n, i) => `${n},${bam.name},${20 + i}`), ''].join('\n'));
    const ours = () => emu.data.tasks.filter((t) => names.includes(t.name));
    // Cancel as soon as the platform has made the first.
    const cancel = new AbortController();
    const poll = setInterval(() => ours().length && cancel.abort(), 0);
    type Run = { made: { id: string; name: string }[]; rest?: () => Promise<Run>; watch?: { dispose(): void } };
    const runs: Run[] = [];
    try {
      runs.push((await vscode.commands.executeCommand('sevenbridges.tasks.runForEachRow', { template, sheet, confirm: false, signal: cancel.signal })) as Run);
      clearInterval(poll);
      const first = runs[0];
      assert.ok(first, 'the run ended with its outcome, not an error');
      assert.ok(first.made.length >= 1 && first.made.length < names.length, `some made before the Cancel, not all: ${first.made.length}`);
      assert.strictEqual(ours().length, first.made.length, 'those sent were made; none after the Cancel');
      assert.ok(first.rest, 'the rest offered');
      runs.push(await first.rest());
      assert.strictEqual(runs[1].rest, undefined, 'nothing left');
      assert.deepStrictEqual(ours().map((t) => t.name).sort(), names.slice().sort(), 'each row made once');
      assert.deepStrictEqual([...first.made, ...runs[1].made].map((t) => t.name).sort(), names.slice().sort());
      // The Tasks view's set holds both sendings.
      assert.strictEqual(api.tasks.filters.description, `sheet rest.csv, ${names.length} tasks`);
    } finally {
      clearInterval(poll);
      await api.tasks.filters.clear();
      for (const run of runs) run?.watch?.dispose();
      for (const t of ours()) emu.data.removeTask(t);
      const KEY = 'sevenbridges.tasks.rerunWatches';
      const state = api.services.context.globalState;
      const left = ((state.get(KEY) ?? []) as { sheet?: string }[]).filter((w) => w.sheet !== 'rest.csv');
      await state.update(KEY, left.length ? left : undefined);
    }
  });
});

describe('New Task with This Revision (Run this revision)', function () {
  this.timeout(60_000);
  const COUNT = 'rfranklin/my-project/count-matches';
  let api: ExtensionApi;
  let folder: string;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in', 20_000);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-revision-'));
  });

  after(async () => {
    await revertDirtyEditors();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('moves the app\'s last task document to the revision, its draft line out; with none, opens a new one for it', async () => {
    const revision = (await api.services.client.apps.get(COUNT)).revision;
    assert.ok(revision >= 1, 'an app with two revisions or more');
    const older = path.join(folder, 'older.sbtask.yaml');
    const last = path.join(folder, 'last.sbtask.yaml');
    fs.writeFileSync(older, `app: ${COUNT}/0\nproject: ${PROJECT}\ninputs: {}\n`);
    fs.writeFileSync(last, `app: ${COUNT}/0\nproject: ${PROJECT}\ndraft: 1f0e3c7a-0000-4000-8000-000000000001\ninputs:\n  max_count: 3\n`);
    fs.utimesSync(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    // Both open (a workspace's files are found too; the tests' host has no folder): the one changed last is used.
    await vscode.workspace.openTextDocument(older);
    await vscode.workspace.openTextDocument(last);

    const moved = (await vscode.commands.executeCommand('sevenbridges.tasks.newTaskWithRevision', `${COUNT}/${revision}`)) as vscode.TextDocument;
    assert.strictEqual(moved.uri.fsPath, last);
    assert.strictEqual(moved.getText(), `app: ${COUNT}/${revision}\nproject: ${PROJECT}\ninputs:\n  max_count: 3\n`);
    assert.strictEqual(vscode.window.activeTextEditor?.document, moved);
    assert.match(fs.readFileSync(older, 'utf8'), new RegExp(`app: ${COUNT}/0`), 'the other left as it was');

    const fresh = (await vscode.commands.executeCommand('sevenbridges.tasks.newTaskWithRevision', `rfranklin/my-project/align-and-sort/1`)) as vscode.TextDocument;
    assert.strictEqual(fresh.uri.scheme, 'untitled');
    assert.match(fresh.getText(), /^app: rfranklin\/my-project\/align-and-sort\/1$/m);
  });
});
