/**
 * The task explorer in a real VS Code against the emulator: groups and counts, paging with "Load more",
 * filters through the model and the commands, the context-menu commands, the details document.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { GroupNode, LoadMoreNode, TaskNode, TaskTreeNode } from '../../../src/tasks/taskNodes';
import type { TaskRec } from '../../emulator';
import { activateProduct, emulator, tasksStartedBeforeEnded, waitFor } from '../helpers';

const STATUSES = ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'];

describe('task explorer', function () {
  this.timeout(60_000);
  let api: ExtensionApi;

  const tasks = () => api.tasks;
  const count = (status: string, pred: (t: TaskRec) => boolean = () => true) =>
    emulator().data.tasks.filter((t) => (status === 'OTHER' ? !STATUSES.includes(t.status) : t.status === status) && pred(t)).length;
  const roots = () => Promise.resolve(tasks().rows.getChildren()) as Promise<TaskTreeNode[]>;
  const children = (node: TaskTreeNode) => Promise.resolve(tasks().rows.getChildren(node)) as Promise<TaskTreeNode[]>;
  const item = (node: TaskTreeNode) => tasks().rows.getTreeItem(node);
  const groups = async () => (await roots()).filter((n): n is GroupNode => n.kind === 'group');
  const group = async (status: string) => (await groups()).find((g) => g.status === status)!;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator (SB_AUTH_TOKEN)', 20_000);
    // The tasks the suites before started end first (each run moves them on): the counts compared below hold still.
    await tasksStartedBeforeEnded(120_000);
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
    await vscode.commands.executeCommand('sevenbridges.tasks.focus');
    await vscode.commands.executeCommand('sevenbridges.tasks.refresh');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
  });

  it('shows one group per status with its count from the platform', async () => {
    const all = await groups();
    // The emulator filters status exactly: its ABORTING and CREATING tasks are counted in "Other statuses".
    assert.deepStrictEqual(all.map((g) => g.status), [...STATUSES, 'OTHER']);
    assert.ok(count('OTHER') > 0);
    for (const g of all) {
      const treeItem = item(g);
      assert.strictEqual(treeItem.description, count(g.status).toLocaleString('en-US'), g.status);
      assert.strictEqual(treeItem.contextValue, g.status === 'OTHER' ? 'otherStatusGroup' : g.status === 'FAILED' ? 'taskGroup failedGroup' : 'taskGroup');
      assert.strictEqual(treeItem.id, `group:${g.status}`);
      assert.ok(treeItem.iconPath instanceof vscode.ThemeIcon);
    }
    assert.strictEqual(tasks().view.description, undefined, 'no filter, no description');
  });

  it('opens a group 100 tasks at a time and loads the next page with "Load more"', async () => {
    // Tasks the suites before started end meanwhile: the group read afresh, its count between the platform's before and after.
    await vscode.commands.executeCommand('sevenbridges.tasks.refresh');
    const before = count('COMPLETED');
    const completed = await group('COMPLETED');
    let kids = await children(completed);
    const after = count('COMPLETED');
    const more = kids[kids.length - 1] as LoadMoreNode;
    assert.strictEqual(more.kind, 'loadMore');
    const moreItem = item(more);
    const left = Number(/^Load more \((\d+) left\)$/.exec(String(moreItem.label))?.[1]);
    const total = left + 100;
    assert.ok(total >= before && total <= after, `"${String(moreItem.label)}" for ${before} to ${after} completed tasks`);
    assert.strictEqual(kids.filter((k) => k.kind === 'task').length, Math.min(100, total));
    assert.strictEqual(moreItem.command?.command, 'sevenbridges.tasks.loadMore');

    const pageRequests = (from: number) => emulator().received.slice(from).filter((r) => r.method === 'GET' && r.path === '/v2/tasks').length;
    const pagesLeft = Math.ceil((total - 100) / 100);
    const mark = emulator().received.length;
    await vscode.commands.executeCommand(moreItem.command!.command, ...(moreItem.command!.arguments ?? []));
    kids = await children(completed);
    const loaded = kids.filter((k): k is TaskNode => k.kind === 'task');
    assert.strictEqual(loaded.length, Math.min(200, total), `after Load more: ${String(tasks().tree.listOf(completed).error ?? 'no error')}`);
    assert.strictEqual(new Set(loaded.map((k) => k.task.id)).size, loaded.length);
    // After that first Load more the next 3 pages are on their way, never past the end (the emulator's 400 tasks put
    // fewer than 300 in a group: nothing is read ahead here); on a larger group the next Load more shows one already
    // there, and paging on asks for no page twice.
    await waitFor(() => pageRequests(mark) === Math.min(4, pagesLeft), 'the pages after the one shown, read ahead');
    await new Promise((r) => setTimeout(r, 200));
    assert.strictEqual(pageRequests(mark), Math.min(4, pagesLeft), 'no page past the end');
    if (pagesLeft > 1) {
      await vscode.commands.executeCommand(moreItem.command!.command, ...(moreItem.command!.arguments ?? []));
      const third = (await children(completed)).filter((k): k is TaskNode => k.kind === 'task');
      assert.strictEqual(third.length, Math.min(300, total));
      assert.strictEqual(new Set(third.map((k) => k.task.id)).size, third.length);
      await new Promise((r) => setTimeout(r, 200));
      assert.strictEqual(pageRequests(mark), Math.min(5, pagesLeft), 'each page asked for once, one more on its way');
    }

    const first = item(loaded[0]);
    // When first, the project last: a narrow side bar cuts the end of the row.
    assert.match(String(first.description), new RegExp(`^(ended|started|created) (\\d+ \\w+ ago|now)( · .+)? · ${loaded[0].task.project}$`));
    assert.strictEqual(first.accessibilityInformation?.label, `${loaded[0].task.name}, completed, ${String(first.description).split(' · ').join(', ')}`);
    // The tooltip needs the whole record: none drawn, one read when hovered (VS Code's resolveTreeItem).
    assert.strictEqual(first.tooltip, undefined);
    const hovered = await tasks().rows.resolvedItem(loaded[0]);
    assert.ok(hovered.tooltip instanceof vscode.MarkdownString);
    assert.ok((hovered.tooltip as vscode.MarkdownString).value.includes(loaded[0].task.id));
    assert.match((hovered.tooltip as vscode.MarkdownString).value, /App: /, 'what only the whole record has');
    assert.strictEqual(tasks().rows.getParent(loaded[0]), completed);
  });

  it('expands a batch parent into its children and sums them up in its description', async () => {
    const parentRec = emulator().data.batchParents.find((p) => p.status === 'COMPLETED')!;
    const all = await children(await group('COMPLETED'));
    let node = all.find((k): k is TaskNode => k.kind === 'task' && k.task.id === parentRec.id);
    if (!node) {
      await vscode.commands.executeCommand('sevenbridges.tasks.showChildren', { task: parentRec });
      await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
      node = (await children(await group('COMPLETED'))).find((k): k is TaskNode => k.kind === 'task' && k.task.id === parentRec.id);
    }
    assert.ok(node, 'the batch parent is among the newest completed tasks');
    // Its children's counts come with its whole record, read as its page arrived (POST /v2/bulk/tasks/get).
    await tasks().tree.settled();
    const parentItem = item(node);
    assert.strictEqual(parentItem.contextValue?.split(' ').includes('batch'), true);
    assert.strictEqual(parentItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.match(String(parentItem.description), /\d+ done/);
    const kids = (await children(node)).filter((k): k is TaskNode => k.kind === 'task');
    assert.strictEqual(kids.length, Math.min(100, emulator().data.tasks.filter((t) => t.parent === parentRec.id).length));
    // A row's fields carry no `parent` (the listing asks for what rows draw): the platform's records tell.
    assert.ok(kids.every((k) => emulator().data.tasks.find((t) => t.id === k.task.id)?.parent === parentRec.id));
    // A reveal that meets a redraw of the view (twice in CI runs, after suites that ran tasks) ends without selecting:
    // it is asked again every 3 s. A wrong getParent would never select the child.
    let revealedAt = 0;
    let refused: unknown;
    await waitFor(() => {
      if (refused) throw refused instanceof Error ? refused : new Error(String(refused));
      if (tasks().view.selection[0]?.id === kids[0].id) return true;
      if (Date.now() - revealedAt < 3_000) return false;
      revealedAt = Date.now();
      // Not awaited: a reveal that never settles must not hold the wait past its deadline.
      tasks().view.reveal(kids[0], { select: true, focus: true, expand: false }).then(undefined, (error: unknown) => (refused = error));
      return false;
    }, 'reveal to select the child (found through getParent)', 15_000);
  });

  it('"Show Only This Status" hides the other groups and describes the filter', async () => {
    await vscode.commands.executeCommand('sevenbridges.tasks.showOnlyStatus', await group('FAILED'));
    const shown = await groups();
    assert.deepStrictEqual(shown.map((g) => g.status), ['FAILED']);
    assert.strictEqual(tasks().view.description, 'Failed');
    assert.deepStrictEqual(tasks().filters.filter, { statuses: ['FAILED'] });
  });

  it('"Filter by This Project" filters every group to that project', async () => {
    const failed = await children(await group('FAILED'));
    const task = failed.find((k): k is TaskNode => k.kind === 'task')!;
    await vscode.commands.executeCommand('sevenbridges.tasks.filterByProject', task);
    const project = task.task.project!;
    assert.strictEqual(tasks().view.description, project.split('/')[1]);
    for (const g of await groups()) assert.strictEqual(item(g).description, count(g.status, (t) => t.project === project).toLocaleString('en-US'));
    const kids = (await children(await group('FAILED'))).filter((k): k is TaskNode => k.kind === 'task');
    assert.ok(kids.every((k) => k.task.project === project));
  });

  it('filters combine (status, project, time range) through the filter model', async () => {
    await tasks().filters.update({ statuses: ['COMPLETED', 'FAILED'], project: 'rfranklin/my-project', ended: { preset: 'month' } });
    const since = Date.now() - 30 * 24 * 3600_000;
    const shown = await groups();
    assert.deepStrictEqual(shown.map((g) => g.status), ['COMPLETED', 'FAILED']);
    for (const g of shown) {
      const expected = count(g.status, (t) => t.project === 'rfranklin/my-project' && !!t.end_time && Date.parse(t.end_time) >= since - 1000);
      assert.ok(Math.abs((g.count ?? -1) - expected) <= 1, `${g.status}: ${g.count} vs ${expected}`);
    }
    assert.strictEqual(tasks().view.description, 'Completed, Failed · my-project · ended in the last 30 days');
  });

  it('"Show Child Tasks" lists a batch parent\'s children by status', async () => {
    const parentRec = emulator().data.batchParents.find((p) => p.status === 'RUNNING')!;
    await vscode.commands.executeCommand('sevenbridges.tasks.showChildren', { task: parentRec });
    assert.match(tasks().view.description ?? '', /^children of /);
    const shown = await groups();
    for (const g of shown) assert.strictEqual(g.count, count(g.status, (t) => t.parent === parentRec.id), g.status);
  });

  it('says so in place when nothing matches, with "Clear Task Filters"', async () => {
    await tasks().filters.update({ created: { to: '2001-01-01' } });
    const [first] = await roots();
    assert.strictEqual(first.kind, 'message');
    const firstItem = item(first);
    assert.strictEqual(firstItem.label, 'No tasks match the filters.');
    assert.strictEqual(firstItem.command?.command, 'sevenbridges.tasks.clearFilter');
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
    assert.strictEqual(tasks().filters.active, false);
    assert.strictEqual((await groups()).length, 7);
  });

  it('"Copy Task ID" puts the ID on the clipboard', async () => {
    const task = (await children(await group('RUNNING'))).find((k): k is TaskNode => k.kind === 'task')!;
    await vscode.commands.executeCommand('sevenbridges.tasks.copyId', task);
    assert.strictEqual(await vscode.env.clipboard.readText(), task.task.id);
  });

  it('"Open Task Details" opens the whole record as read-only JSON', async () => {
    const task = (await children(await group('FAILED'))).find((k): k is TaskNode => k.kind === 'task')!;
    await vscode.commands.executeCommand('sevenbridges.tasks.openDetails', task);
    const editor = await waitFor(
      () => {
        const editor = vscode.window.activeTextEditor;
        return editor?.document.uri.scheme === 'sevenbridges-task' ? editor : undefined;
      },
      'the task details document',
    );
    const record = JSON.parse(editor.document.getText()) as Record<string, unknown>;
    assert.strictEqual(record.id, task.task.id);
    assert.ok('inputs' in record && 'outputs' in record, 'the whole record, not the list fields');
    assert.strictEqual(editor.document.languageId, 'json');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a details document whose task cannot be read (restored after a reload) says why instead of failing', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(`sevenbridges-task:/${missing}/gone.json`));
    const text = doc.getText();
    assert.ok(text.startsWith(`Could not load the details of task ${missing}.`), text);
    assert.match(text, /does not exist/);
    assert.match(text, /Open Task Details/);
  });

  it('a redraw draws again only the rows that look otherwise (a task watched), never the whole view', async () => {
    const running = await group('RUNNING');
    const rows = (await children(running)).filter((n): n is TaskNode => n.kind === 'task');
    for (const row of rows) item(row);
    // Rows by ID only: a failed comparison of the rows themselves (each holding its group and the group's listing)
    // makes a diff so large that it once took the extension host to 22 GB.
    const drawn: (string[] | undefined)[] = [];
    const listening = tasks().rows.onDidChangeTreeData((e) => drawn.push(e === undefined ? undefined : [e].flat().map((n) => (n as TaskTreeNode).id)));
    try {
      tasks().tree.redraw();
      // The rows just drawn look the same: none drawn again (rows drawn earlier elsewhere may be: their ages moved on).
      const justDrawn = new Set(rows.map((r) => r.id));
      const again = () => drawn.flatMap((ids) => ids ?? []).filter((id) => justDrawn.has(id));
      assert.deepStrictEqual(again(), [], 'nothing looks otherwise: nothing drawn again');
      assert.strictEqual(drawn.filter((ids) => ids === undefined).length, 0, 'never the whole view');
      const task = rows.find((r) => !tasks().watcher.isWatched(r.task.id))!;
      await tasks().watcher.watch(task.task);
      await waitFor(() => drawn.some((ids) => ids?.includes(task.id)), 'the watched task\'s row drawn again');
      // Rows elsewhere may be drawn again meanwhile (a task the suites before started, seen ending); of this group, its row alone.
      assert.deepStrictEqual([...new Set(again())], [task.id], 'its row alone');
      assert.strictEqual(drawn.filter((ids) => ids === undefined).length, 0, 'never the whole view');
      await tasks().watcher.unwatch(task.task.id);
    } finally {
      listening.dispose();
    }
  });

  it('a refresh costs one request per group plus one per open group', async () => {
    await groups();
    const before = emulator().stats.requests;
    await vscode.commands.executeCommand('sevenbridges.tasks.refresh');
    const spent = emulator().stats.requests - before;
    const pages = openListPages();
    assert.strictEqual(spent, 7 + pages, `requests for one refresh: six counts, the unfiltered count for other statuses, ${pages} pages of open listings`);
  });

  it('refreshes on its own while the view is visible and a task is running', async function () {
    this.timeout(60_000);
    const config = vscode.workspace.getConfiguration('sevenbridges');
    await config.update('tasks.refreshInterval', 10, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('sevenbridges.tasks.focus');
      await groups();
      assert.ok(tasks().tree.hasActiveTasks(), 'the emulator has running tasks');
      const before = emulator().stats.requests;
      // Nothing else asks the platform while the view sits there: requests mean an automatic refresh.
      await waitFor(() => emulator().stats.requests - before >= 6 && !tasks().refresher.running, 'an automatic refresh counting the groups again', 25_000);
      assert.ok((tasks().refresher.nextDelay ?? 0) > 0, 'the next one is scheduled');
    } finally {
      await config.update('tasks.refreshInterval', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  /** Pages an open (expanded and loaded) listing reloads on a refresh: as many as shown. */
  function openListPages(): number {
    const tree = tasks().tree;
    let n = 0;
    const pages = (shown: number) => Math.max(1, Math.ceil(shown / 100));
    const visit = (nodes: Map<string, TaskNode>) => {
      for (const node of nodes.values()) {
        if (node.task.batch && node.list?.loaded && tree.isExpanded(node)) {
          n += pages(node.list.items.length);
          visit(node.taskNodes);
        }
      }
    };
    for (const status of STATUSES) {
      const g = tree.group(status as 'RUNNING');
      if (tree.isExpanded(g) && g.list.loaded) {
        n += pages(g.list.items.length);
        visit(g.taskNodes);
      }
    }
    return n;
  }
});
