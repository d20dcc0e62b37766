/**
 * A task's execution in the real host: opening a task into its errors, jobs and logs, a log in a read-only tab
 * (its last 1 MB, then the whole file), the actions (abort, run, re-run) and their effect on the tree, watching,
 * and the running-task badge.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { Task } from '../../../src/api/types';
import type { InfoNode, TaskNode, TaskTreeNode } from '../../../src/tasks/taskNodes';
import { activateProduct, closeAllEditors, emulator, waitFor } from '../helpers';

describe('task execution: details, logs, actions, watching', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  const tasks = () => api.tasks;
  const children = (node?: TaskTreeNode) => Promise.resolve(tasks().rows.getChildren(node)) as Promise<TaskTreeNode[]>;
  const item = (node: TaskTreeNode) => tasks().rows.getTreeItem(node);
  /** Whether the emulator has finished aborting the task (its steps due applied, as a request would). */
  const aborted = (id: string) => {
    emulator().advance();
    return emulator().data.taskById.get(id)?.status === 'ABORTED';
  };
  const info = (nodes: TaskTreeNode[], key: string) => nodes.find((n): n is InfoNode => n.kind === 'info' && n.item.key === key);

  /** The node of a task in its status group (its first page). */
  /** A task of the group's first page whose whole record (the emulator's: a row lists only what it draws) passes `pred`. */
  async function taskNode(pred: (t: Task) => boolean, status: string): Promise<TaskNode> {
    await children();
    const group = tasks().tree.group(status as 'RUNNING');
    const whole = (t: Task) => (emulator().data.taskById.get(t.id) as unknown as Task | undefined) ?? t;
    const node = (await children(group)).find((n): n is TaskNode => n.kind === 'task' && !n.task.batch && pred(whole(n.task)));
    assert.ok(node, `a ${status} task on the first page`);
    return node;
  }

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in', 20_000);
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
  });

  after(async () => {
    for (const w of tasks().watcher.list()) await tasks().watcher.unwatch(w.id);
    await closeAllEditors();
  });

  it('a failed task opens into its errors, its jobs (the failed one first) and a link to its record', async () => {
    const node = await taskNode(() => true, 'FAILED');
    assert.strictEqual(item(node).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'every task opens');
    const rows = await children(node);
    const errors = info(rows, 'errors')!;
    assert.strictEqual(item(errors).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const rec = emulator().data.taskById.get(node.task.id)!;
    assert.strictEqual(errors.children[0].item.label, rec.errors[0].message);
    const jobs = info(rows, 'jobs')!;
    const failedJob = jobs.children[0];
    assert.match(String(item(failedJob).description), /^Failed · [a-z0-9]+\.[a-z0-9]+ · /);
    assert.deepStrictEqual(failedJob.children.map((c) => c.item.label), ['job.err.log', 'job.out.log', 'cmd.log']);
    assert.strictEqual(item(failedJob.children[0]).command?.command, 'sevenbridges.tasks.openLog');
    assert.strictEqual(item(info(rows, 'raw')!).command?.command, 'sevenbridges.tasks.openDetails');
  });

  it('a job\'s log opens read-only, titled with its name, scrolled to the error; the whole file on demand', async () => {
    // A failed task whose job.err.log is above 1 MB, from the emulator's data.
    const emu = emulator();
    let found: { node: TaskNode; log: InfoNode; size: number } | undefined;
    const group = tasks().tree.group('FAILED');
    for (const node of (await children(group)).filter((n): n is TaskNode => n.kind === 'task' && !n.task.batch).slice(0, 40)) {
      const jobs = info(await children(node), 'jobs');
      const log = jobs?.children[0]?.children.find((c) => c.item.label === 'job.err.log');
      const args = log?.item.command?.args[0] as { fileId: string } | undefined;
      const size = args ? emu.logs.get(args.fileId)?.content.length ?? 0 : 0;
      if (log && size > 1024 * 1024) {
        found = { node, log, size };
        break;
      }
    }
    assert.ok(found, 'a failed task with a large job.err.log');
    const command = item(found.log).command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const editor = await waitFor(() => (vscode.window.activeTextEditor?.document.uri.scheme === 'sevenbridges-log' ? vscode.window.activeTextEditor : undefined), 'the log tab');
    // Named whose log it is: the log, its job, its task.
    const job = (found.log.parent as InfoNode).item.label;
    assert.strictEqual(editor.document.uri.path.split('/').pop(), `job.err.log · ${String(job)} · ${found.node.task.name!.replace(/[\\/]+/g, '_')}`);
    const text = editor.document.getText();
    assert.match(text.split('\n')[0], /^\[Showing the last 1\.0 MB of \d\.\d MB\./);
    const error = emu.data.taskById.get(found.node.task.id)!.errors[0].message;
    assert.ok(text.trimEnd().endsWith(error), 'the log ends with the task\'s error');
    assert.strictEqual(editor.selection.active.line, editor.document.lineCount - 1, 'scrolled to the end');
    // Read-only: a content provider's document, with no file system behind it to save to.
    assert.strictEqual(vscode.workspace.fs.isWritableFileSystem('sevenbridges-log'), undefined);
    assert.strictEqual(editor.document.isDirty, false);
    await vscode.commands.executeCommand('sevenbridges.tasks.loadWholeLog');
    const whole = await waitFor(() => (/"whole":true/.test(vscode.window.activeTextEditor?.document.uri.query ?? '') ? vscode.window.activeTextEditor : undefined), 'the whole log');
    assert.strictEqual(Buffer.byteLength(whole.document.getText()), found.size);
    assert.ok(emu.storageRequests.every((r) => !r.carriedToken), 'the storage never saw the token');
  });

  it('Abort: the tree shows ABORTING at once, then follows the task to ABORTED', async () => {
    const node = await taskNode(() => true, 'RUNNING');
    assert.match(String(item(node).contextValue), /\bcanAbort\b/);
    const before = emulator().actionRequests.length;
    const done = (await vscode.commands.executeCommand('sevenbridges.tasks.abort', node, undefined, { confirm: false })) as Task[];
    assert.strictEqual(done[0].status, 'ABORTING');
    assert.strictEqual(emulator().actionRequests.length, before + 1);
    const shown = tasks().tree.findTaskNodes(node.task.id);
    assert.ok(shown.length && shown.every((n) => n.task.status === 'ABORTING'), 'ABORTING shows before any refresh');
    assert.doesNotMatch(String(item(shown[0]).contextValue), /\bcanAbort\b/);
    // After the emulator's step (2 s) a refresh shows it ABORTED, in the Aborted group.
    await waitFor(() => aborted(node.task.id), 'the platform to finish the abort');
    await vscode.commands.executeCommand('sevenbridges.tasks.refresh');
    const group = await children(tasks().tree.group('ABORTED'));
    assert.ok(group.some((n) => n.kind === 'task' && n.task.id === node.task.id && n.task.status === 'ABORTED'));
  });

  it('Run a draft: queued at once and watched; Re-run a failed task: a new task, the original kept, watched', async () => {
    const draft = await taskNode(() => true, 'DRAFT');
    const [ran] = (await vscode.commands.executeCommand('sevenbridges.tasks.run', draft, undefined, { confirm: false })) as Task[];
    assert.strictEqual(ran.status, 'QUEUED');
    assert.ok(tasks().watcher.isWatched(draft.task.id));
    const failed = await taskNode(() => true, 'FAILED');
    const [copy] = (await vscode.commands.executeCommand('sevenbridges.tasks.rerun', failed, undefined, { confirm: false })) as Task[];
    assert.notStrictEqual(copy.id, failed.task.id);
    assert.strictEqual(copy.status, 'QUEUED');
    assert.strictEqual(emulator().data.taskById.get(failed.task.id)!.status, 'FAILED', 'the original stays');
    assert.ok(tasks().watcher.isWatched(copy.id));
    // A refused action says why and sends nothing more.
    const completed = await taskNode(() => true, 'COMPLETED');
    const before = emulator().actionRequests.length;
    const none = (await vscode.commands.executeCommand('sevenbridges.tasks.abort', completed, undefined, { confirm: false })) as Task[];
    assert.deepStrictEqual(none, []);
    assert.strictEqual(emulator().actionRequests.length, before);
  });

  it('a watched task that ends is announced once; following costs one bulk request per round', async () => {
    const watcher = tasks().watcher;
    const running = emulator().data.tasks.filter((t) => t.status === 'RUNNING' && !t.batch).slice(0, 3);
    for (const t of running) await vscode.commands.executeCommand('sevenbridges.tasks.watch', { task: t });
    const ended: string[] = [];
    const sub = watcher.onDidEnd((e) => ended.push(`${e.task.id}:${e.how}`));
    try {
      const before = emulator().stats.requests;
      await watcher.poll();
      assert.strictEqual(emulator().stats.requests - before, 1, 'one request for every watched task');
      await vscode.commands.executeCommand('sevenbridges.tasks.abort', { task: running[0] }, undefined, { confirm: false });
      await waitFor(() => aborted(running[0].id), 'the platform to finish the abort');
      await watcher.poll();
      assert.ok(ended.includes(`${running[0].id}:ABORTED`));
      assert.ok(!watcher.isWatched(running[0].id));
    } finally {
      sub.dispose();
    }
  });

  it('Reveal in Projects & Files, from a task\'s output: its project and folders open down to it, the file selected', async () => {
    // A task whose first output is still a file of the platform (a suite before this one may have moved or deleted it).
    const firstFile = (t: Task) => Object.values(t.outputs ?? {}).find((v) => v !== null) as { path?: string } | undefined;
    const node = await taskNode((t) => {
      const file = firstFile(t)?.path ? emulator().data.fileById.get(firstFile(t)!.path!) : undefined;
      return file !== undefined && emulator().data.files.includes(file);
    }, 'COMPLETED');
    const outputs = info(await children(node), 'outputs');
    assert.ok(outputs, 'the task opens into its outputs');
    const output = outputs.children[0];
    assert.match(String(item(output).contextValue), /\btaskOutput\b/);
    assert.strictEqual(item(output).accessibilityInformation?.label, [output.item.label, output.item.description].filter(Boolean).join(', '), 'a row under a task has its accessible label');
    // Projects & Files read afresh first: the listings the suites before this one left are not this test's.
    await vscode.commands.executeCommand('sevenbridges.files.refresh');
    await vscode.commands.executeCommand('sevenbridges.files.reveal', output);
    const id = output.item.file!.id;
    const selected = () => JSON.stringify({ visible: api.files.view.visible, selection: api.files.view.selection.map((n) => [n.kind, n.id]) });
    await waitFor(() => api.files.view.selection[0]?.id === id, `the output ${id} selected in Projects & Files`, 30_000).catch(async (error: Error) => {
      // What the reveal's own walk says now: its error is the product's message when it could not find the row.
      const located = await api.files.model.locate(id).then(
        async (n) => `located ${n.kind} ${n.id}; reveal again: ${await Promise.resolve(api.files.view.reveal(n, { select: true })).then(() => selected(), (e: Error) => `failed: ${e.message}`)}`,
        (e: Error) => `locate failed: ${e.message}`,
      );
      throw new Error(`${error.message}: ${selected()}; ${located}`);
    });
    const record = emulator().data.files.find((f) => f.id === id)!;
    const root = emulator().data.projects.find((p) => p.id === record.project)!.root_folder;
    const parent = api.files.rows.getParent(api.files.view.selection[0]);
    if (parent) {
      assert.strictEqual(parent.id, record.parent === root ? record.project : record.parent, 'under its folder, or its project');
    } else {
      // The tasks run during the suites fill My Project's root past the 1,000 entries Reveal reads: the file on its own.
      assert.ok(api.files.view.message?.startsWith(`Found: name "${record.name}" in `), `shown on its own, found by its name: ${api.files.view.message}`);
      await vscode.commands.executeCommand('sevenbridges.files.clearFind');
    }
  });

  it('the Tasks view shows the number of running tasks as its badge, from the counts it already has', async () => {
    await vscode.commands.executeCommand('sevenbridges.tasks.refresh');
    const running = emulator().data.tasks.filter((t) => t.status === 'RUNNING').length;
    await waitFor(() => tasks().view.badge?.value === running, `the badge to show ${running}`);
    assert.match(tasks().view.badge!.tooltip, /running task/);
  });
});
