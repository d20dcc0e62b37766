import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import type { Task, TaskStatus } from '../../../src/api/types';
import { FilterModel } from '../../../src/tasks/filterModel';
import type { StateStore } from '../../../src/util/stateStore';
import { memoryState } from '../../support/sharedState';
import { PAGE_SIZE } from '../../../src/api/pagedLoader';
import { GroupNode, LoadMoreNode, MessageNode, TaskNode, TaskTreeModel, type TaskTreeNode } from '../../../src/tasks/taskTree';
import { startEmulator, type Emulator, type TaskRec } from '../../emulator';

interface Seen {
  path: string;
  query: URLSearchParams;
}

describe('task tree model (against the emulator)', function () {
  let emu: Emulator;
  let client: SbClient;
  let seen: Seen[];

  before(async () => {
    emu = await startEmulator({ tasks: 400 });
  });
  after(() => emu.close());

  function model(options: { memento?: StateStore; token?: string; signedIn?: boolean } = {}) {
    seen = [];
    client = new SbClient({
      credentials: async () => ({ endpoint: emu.baseUrl, token: options.token ?? emu.token }),
      maxRetries: 0,
      onRequest: (entry) => {
        const url = new URL(entry.path, 'http://x');
        seen.push({ path: url.pathname, query: url.searchParams });
      },
    });
    const memento = options.memento ?? memoryState();
    const filters = new FilterModel(memento);
    const tree = new TaskTreeModel({ source: client.tasks, filter: filters, store: memento, signedIn: () => options.signedIn ?? true });
    return { tree, filters, memento };
  }

  const count = (status: string, pred: (t: TaskRec) => boolean = () => true) =>
    emu.data.tasks.filter((t) => t.status === status && pred(t)).length;

  it('shows one group per status with its count, from one small request per group (and one for the other statuses)', async () => {
    const { tree } = model();
    const roots = (await tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(
      roots.map((g) => g.status),
      ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED', 'OTHER'],
    );
    for (const group of roots.slice(0, 6)) assert.strictEqual(group.count, count(group.status), group.status);
    assert.strictEqual(seen.length, 7);
    assert.strictEqual(seen.filter((s) => !s.query.has('status')).length, 1, 'one unfiltered count');
    for (const s of seen) {
      assert.strictEqual(s.query.get('limit'), '1');
      assert.strictEqual(s.query.get('fields'), 'id');
    }
  });

  it('finds the tasks no status filter returns (ABORTING, CREATING) in "Other statuses", whatever status=RUNNING returns', async () => {
    const { tree } = model();
    await tree.getChildren();
    const other = tree.group('OTHER');
    const expected = emu.data.tasks.filter((t) => !['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'].includes(t.status));
    assert.ok(expected.length > 0);
    assert.strictEqual(other.count, expected.length);
    const shown = (await tree.getChildren(other)).filter((c): c is TaskNode => c.kind === 'task').map((n) => n.task);
    assert.deepStrictEqual(shown.map((t) => t.id).sort(), expected.map((t) => t.id).sort());
    assert.ok(shown.every((t) => t.status === 'ABORTING' || t.status === 'CREATING'));
    assert.strictEqual(tree.hasActiveTasks(), true);
    // A status filter hides the group: its count would need the hidden groups' counts.
    const filtered = model();
    await filtered.filters.update({ statuses: ['RUNNING'] });
    const roots = (await filtered.tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(roots.map((g) => g.status), ['RUNNING']);
  });

  it('a platform that lists ABORTING under RUNNING: no "Other" group, the task shows in Running with its own status', async () => {
    model();
    const aborting = emu.data.tasks.filter((t) => t.status === 'ABORTING');
    const source = {
      list: (query: Parameters<typeof client.tasks.list>[0], page: Parameters<typeof client.tasks.list>[1]) =>
        query.status === 'RUNNING' ? client.tasks.list({ ...query, status: undefined }, page).then((p) => ({ ...p, items: p.items.filter((t) => t.status === 'RUNNING' || t.status === 'ABORTING') })) : client.tasks.list(query, page),
      next: (url: string, signal?: AbortSignal) => client.tasks.next(url, signal),
      count: async (query: Parameters<typeof client.tasks.count>[0]) =>
        (await client.tasks.count(query)) + (query.status === 'RUNNING' ? aborting.length : 0),
    };
    const memento = memoryState();
    const tree = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true });
    const roots = (await tree.getChildren()) as GroupNode[];
    const other = roots.find((g) => g.status === 'OTHER');
    // CREATING parents are still outside every group here; only ABORTING moved into Running.
    assert.strictEqual(other?.count, emu.data.tasks.filter((t) => t.status === 'CREATING').length);
    assert.strictEqual(tree.group('RUNNING').count, count('RUNNING') + aborting.length);
  });

  it('a task opens into what explains it (two requests: the record and its jobs), read again once its status moves on', async () => {
    const memento = memoryState();
    model();
    const tree = new TaskTreeModel({ source: client.tasks, filter: new FilterModel(memento), store: memento, signedIn: () => true, info: client.tasks });
    await tree.getChildren();
    const failed = (await tree.getChildren(tree.group('FAILED'))).find((n): n is TaskNode => n.kind === 'task' && !n.task.batch)!;
    assert.strictEqual(tree.canOpen(failed.task), true);
    seen = [];
    const rows = await tree.getChildren(failed);
    assert.deepStrictEqual(seen.map((s) => s.path), [`/v2/tasks/${failed.task.id}`, `/v2/tasks/${failed.task.id}/execution_details`]);
    const keys = rows.map((r) => (r.kind === 'info' ? r.item.key : r.kind));
    assert.strictEqual(keys[0], 'errors');
    assert.ok(keys.includes('jobs') && keys.includes('raw'), keys.join(','));
    seen = [];
    await tree.getChildren(failed);
    assert.strictEqual(seen.length, 0, 'kept while the task does not change');
    tree.applyTask({ ...failed.task, status: 'ABORTED' } as typeof failed.task);
    assert.strictEqual(tree.findTaskNodes(failed.task.id)[0].task.status, 'ABORTED');
    await tree.getChildren(failed);
    assert.strictEqual(seen.length, 2, 'read again after the status moved on');
  });

  it('loads a group when it is opened: 100 newest first, with only the fields the nodes need, then "Load more"', async () => {
    const { tree } = model();
    const [, , , completed] = (await tree.getChildren()) as GroupNode[];
    seen = [];
    const children = await tree.getChildren(completed);
    const total = count('COMPLETED');
    assert.ok(total > PAGE_SIZE, `the emulator has more than a page of completed tasks (${total})`);
    const tasks = children.filter((c): c is TaskNode => c.kind === 'task');
    assert.strictEqual(tasks.length, PAGE_SIZE);
    const created = tasks.map((t) => t.task.created_time!);
    assert.deepStrictEqual([...created].sort().reverse(), created, 'newest first');
    assert.strictEqual(seen.length, 1);
    assert.strictEqual(seen[0].query.get('status'), 'COMPLETED');
    assert.strictEqual(seen[0].query.get('limit'), '100');
    assert.strictEqual(seen[0].query.get('order_by'), 'created_time');
    assert.strictEqual(seen[0].query.get('order'), 'desc');
    assert.match(seen[0].query.get('fields')!, /^id,name,status,project,.*execution_status.*outputs$/);
    assert.ok(tasks.every((t) => t.task.inputs === undefined), 'inputs are not fetched');

    const more = children[children.length - 1] as LoadMoreNode;
    assert.strictEqual(more.kind, 'loadMore');
    assert.strictEqual(tree.listOf(completed).left, total - PAGE_SIZE);
    assert.strictEqual(tree.getParent(more), completed);
    assert.strictEqual(tree.getParent(tasks[0]), completed);
    assert.strictEqual(tasks[0].id, `group:COMPLETED/${tasks[0].task.id}`);
  });

  it('"Load more" loads the next page once however often it is clicked, and refreshes only its group', async () => {
    const { tree } = model();
    const completed = tree.group('COMPLETED');
    await tree.getChildren();
    const first = await tree.getChildren(completed);
    const more = first[first.length - 1] as LoadMoreNode;
    const fired: (TaskTreeNode | undefined)[] = [];
    tree.onDidChange((n) => fired.push(n));
    seen = [];
    await Promise.all([tree.loadMore(more), tree.loadMore(more), tree.loadMore(more)]);
    assert.strictEqual(seen.length, 1, 'one request for three clicks');
    assert.ok(fired.length > 0 && fired.every((n) => n === completed), 'only the group is redrawn');
    const second = await tree.getChildren(completed);
    const ids = second.filter((c): c is TaskNode => c.kind === 'task').map((t) => t.task.id);
    assert.strictEqual(ids.length, Math.min(2 * PAGE_SIZE, count('COMPLETED')));
    assert.strictEqual(new Set(ids).size, ids.length, 'no task twice');
    const expected = emu.data.tasks
      .filter((t) => t.status === 'COMPLETED')
      .sort((a, b) => (a.created_time < b.created_time ? 1 : a.created_time > b.created_time ? -1 : 0))
      .slice(0, ids.length)
      .map((t) => t.id);
    assert.deepStrictEqual(new Set(ids), new Set(expected));
  });

  it('expands a batch parent into its children, each with its own status', async () => {
    const { tree } = model();
    const parentRec = emu.data.batchParents.find((p) => p.status === 'RUNNING')!;
    await tree.getChildren();
    let node: TaskNode | undefined;
    const running = tree.group('RUNNING');
    let children = await tree.getChildren(running);
    while (!node) {
      node = children.find((c): c is TaskNode => c.kind === 'task' && c.task.id === parentRec.id);
      if (node) break;
      await tree.loadMore(running);
      children = await tree.getChildren(running);
    }
    assert.strictEqual(node.task.batch, true);
    seen = [];
    const kids = (await tree.getChildren(node)).filter((c): c is TaskNode => c.kind === 'task');
    const expected = emu.data.tasks.filter((t) => t.parent === parentRec.id);
    assert.strictEqual(kids.length, Math.min(expected.length, PAGE_SIZE));
    assert.strictEqual(seen[0].query.get('parent'), parentRec.id);
    assert.strictEqual(seen[0].query.get('status'), null);
    // Each child row carries the status of its own record, not its parent's or its group's.
    const statusOf = new Map(expected.map((t) => [t.id, t.status]));
    for (const kid of kids) assert.strictEqual(kid.task.status, statusOf.get(kid.task.id), kid.task.id);
    const shown = new Set(kids.map((k) => k.task.status));
    assert.ok(shown.size > 1, `the batch mixes statuses (${[...shown].join(', ')})`);
    assert.ok([...shown].some((st) => st !== parentRec.status), 'a child differs from its parent');
    assert.strictEqual(tree.getParent(kids[0]), node);
    assert.strictEqual(kids[0].id, `${node.id}/${kids[0].task.id}`);
  });

  it('applies the filters to every group, and a status filter hides the other groups', async () => {
    const { tree, filters } = model();
    const project = 'rfranklin/rna-seq-analysis';
    await filters.update({ statuses: ['FAILED', 'COMPLETED'], project });
    const roots = (await tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(roots.map((g) => g.status), ['COMPLETED', 'FAILED']);
    assert.strictEqual(seen.length, 2, 'hidden groups are not counted');
    for (const g of roots) assert.strictEqual(g.count, count(g.status, (t) => t.project === project));
    assert.ok(seen.every((s) => s.query.get('project') === project));
  });

  it('shows the children of a batch parent through the parent filter', async () => {
    const { tree, filters } = model();
    const parent = emu.data.batchParents.find((p) => p.status === 'COMPLETED')!;
    await filters.update({ parent: { id: parent.id, name: parent.name } });
    const roots = (await tree.getChildren()) as GroupNode[];
    const total = roots.reduce((n, g) => n + (g.count ?? 0), 0);
    assert.strictEqual(total, emu.data.tasks.filter((t) => t.parent === parent.id && t.status !== 'CREATING' && t.status !== 'ABORTING').length);
  });

  it('says so in place when nothing matches, with a way to clear the filters', async () => {
    const { tree, filters } = model();
    await filters.update({ created: { to: '2001-01-01' } });
    const roots = await tree.getChildren();
    const message = roots[0] as MessageNode;
    assert.strictEqual(message.kind, 'message');
    assert.strictEqual(message.text, 'No tasks match the filters.');
    assert.strictEqual(message.action?.command, 'sevenbridges.tasks.clearFilter');
    assert.ok(roots.slice(1).every((g) => g.kind === 'group' && g.count === 0));
  });

  it('a rejected token becomes a message with "Set Authentication Token", not an exception', async () => {
    const { tree } = model({ token: 'wrong-token' });
    const roots = (await tree.getChildren()) as MessageNode[];
    assert.match(roots[0].text, /rejected the authentication token/);
    assert.deepStrictEqual(roots.slice(1).map((r) => r.action?.command), ['sevenbridges.setToken']);
  });

  it('stops asking to be refreshed once the token is refused', async () => {
    let token = emu.token;
    const revocable = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token }), maxRetries: 0 });
    const memento = memoryState();
    const tree = new TaskTreeModel({ source: revocable.tasks, filter: new FilterModel(memento), store: memento, signedIn: () => true });
    await tree.getChildren();
    assert.strictEqual(tree.hasActiveTasks(), true, 'tasks are running');
    token = 'revoked';
    await tree.refresh();
    assert.match((await tree.getChildren())[0].kind === 'message' ? ((await tree.getChildren())[0] as MessageNode).text : '', /rejected/);
    assert.strictEqual(tree.hasActiveTasks(), false, 'no polling with a refused token');
  });

  it('an unreachable platform becomes a message with "Retry"', async () => {
    const { tree } = model();
    const unreachable = new SbClient({ credentials: async () => ({ endpoint: 'http://127.0.0.1:9/v2', token: 't' }), maxRetries: 0 });
    const memento = memoryState();
    const offline = new TaskTreeModel({ source: unreachable.tasks, filter: new FilterModel(memento), store: memento, signedIn: () => true });
    const roots = (await offline.getChildren()) as MessageNode[];
    assert.match(roots[0].text, /Cannot reach the platform/);
    assert.deepStrictEqual(roots.slice(1).map((r) => r.action?.command), ['sevenbridges.tasks.refresh', 'sevenbridges.showLog']);
    tree.dispose();
  });

  it('a rate limit says when it resets and offers "Retry"', async () => {
    const { tree } = model();
    emu.burst429(50, 3600);
    try {
      const roots = (await tree.getChildren()) as MessageNode[];
      assert.match(roots[0].text, /rate limit/);
      assert.strictEqual(roots[1].action?.command, 'sevenbridges.tasks.refresh');
    } finally {
      emu.burst429(0);
    }
  });

  it('a group whose listing fails says why in place, and its "Retry" loads it again', async () => {
    const { tree } = model();
    await tree.getChildren();
    let fail = true;
    const source = {
      count: client.tasks.count.bind(client.tasks),
      next: client.tasks.next.bind(client.tasks),
      list: (...args: Parameters<typeof client.tasks.list>) => {
        if (fail) return Promise.reject(new Error('socket hang up'));
        return client.tasks.list(...args);
      },
    };
    const memento = memoryState();
    const flaky = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true });
    await flaky.getChildren();
    const queued = flaky.group('QUEUED');
    const [message, retry] = (await flaky.getChildren(queued)) as MessageNode[];
    assert.strictEqual(message.text, 'socket hang up');
    assert.strictEqual(message.severity, 'error');
    assert.deepStrictEqual([retry.text, retry.action?.command, retry.action?.args?.[0]], ['Retry', 'sevenbridges.tasks.loadMore', queued]);
    assert.strictEqual((await flaky.getChildren(queued)).length, 2, 'no retry by itself on a redraw');
    fail = false;
    await flaky.loadMore(queued);
    const kids = await flaky.getChildren(queued);
    assert.strictEqual(kids.filter((k) => k.kind === 'task').length, Math.min(100, count('QUEUED')));
  });

  it('one failed group count marks that group, not the whole tree', async () => {
    model();
    const source = {
      list: client.tasks.list.bind(client.tasks),
      next: client.tasks.next.bind(client.tasks),
      count: (query: Parameters<typeof client.tasks.count>[0], signal?: AbortSignal) =>
        query.status === 'FAILED' ? Promise.reject(new Error('socket hang up')) : client.tasks.count(query, signal),
    };
    const memento = memoryState();
    const tree = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true });
    const roots = await tree.getChildren();
    assert.ok(roots.every((n) => n.kind === 'group'), `groups, no message in their place: ${roots.map((n) => n.kind).join(', ')}`);
    const groups = roots as GroupNode[];
    assert.deepStrictEqual(groups.filter((g) => g.countError).map((g) => g.status), ['FAILED']);
    assert.strictEqual(tree.group('FAILED').countError, 'socket hang up');
    for (const g of groups.filter((g) => g.status !== 'FAILED' && g.status !== 'OTHER')) assert.strictEqual(g.count, count(g.status), g.status);
    assert.ok(!groups.some((g) => g.status === 'OTHER' && g.count !== undefined), 'the other statuses cannot be told without every count');
    const failedTasks = (await tree.getChildren(tree.group('FAILED'))).filter((c) => c.kind === 'task');
    assert.strictEqual(failedTasks.length, Math.min(PAGE_SIZE, count('FAILED')), 'the group still opens');
  });

  it('a refresh after "Load more" with a partly full last page keeps every row shown (150 shown stay 150)', async () => {
    const tasks: Task[] = Array.from({ length: 150 }, (_, i) => ({ href: '', id: `task-${i}`, name: `t${i}`, status: 'COMPLETED' }));
    const pages: { offset?: number; limit?: number }[] = [];
    const source = {
      list: async (query: { status?: string }, page: { offset?: number; limit?: number }) => {
        pages.push({ offset: page.offset, limit: page.limit });
        const matching = !query.status || query.status === 'COMPLETED' ? tasks : [];
        const offset = page.offset ?? 0;
        return { items: matching.slice(offset, offset + (page.limit ?? 25)), total: matching.length, next: undefined };
      },
      next: async () => Promise.reject(new Error('no next links')),
      count: async (query: { status?: string }) => (!query.status || query.status === 'COMPLETED' ? tasks.length : 0),
    };
    const memento = memoryState();
    const tree = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true });
    await tree.getChildren();
    const completed = tree.group('COMPLETED');
    tree.setExpanded(completed, true);
    const rows = async () => (await tree.getChildren(completed)).filter((c) => c.kind === 'task').length;
    assert.strictEqual(await rows(), 100);
    await tree.loadMore(completed);
    assert.strictEqual(await rows(), 150);
    pages.length = 0;
    await tree.refresh();
    assert.strictEqual(await rows(), 150);
    assert.ok(!(await tree.getChildren(completed)).some((c) => c.kind === 'loadMore'), 'nothing left to load');
    assert.deepStrictEqual(pages, [{ offset: 0, limit: 100 }, { offset: 100, limit: 100 }], 'both pages reloaded');
  });

  it('shows nothing when signed out (the welcome view takes over)', async () => {
    const { tree } = model({ signedIn: false });
    assert.deepStrictEqual(await tree.getChildren(), []);
    assert.strictEqual(seen.length, 0);
  });

  it('a refresh counts again and reloads only the open groups; it reports whether anything changed', async () => {
    const memento = memoryState();
    const { tree } = model({ memento });
    await tree.getChildren();
    const running = tree.group('RUNNING');
    tree.setExpanded(running, true);
    await tree.getChildren(running);
    seen = [];
    assert.strictEqual(await tree.refresh(), false);
    assert.strictEqual(seen.length, 8, 'six counts, the unfiltered count and the open group');
    assert.strictEqual(tree.hasActiveTasks(), true);

    const rec = emu.data.tasks.find((t) => t.status === 'RUNNING' && !t.batch && !t.parent)!;
    const saved = { ...rec };
    (rec as { status: TaskStatus }).status = 'COMPLETED';
    rec.end_time = new Date().toISOString().slice(0, 19) + 'Z';
    try {
      assert.strictEqual(await tree.refresh(), true);
      assert.strictEqual(running.count, count('RUNNING'));
    } finally {
      Object.assign(rec, saved);
    }
    assert.deepStrictEqual(memento.get('sevenbridges.tasks.expanded'), ['group:RUNNING'], 'open groups are remembered');
    const again = model({ memento }).tree;
    assert.strictEqual(again.isExpanded(again.group('RUNNING')), true);
  });

  it('keeps the same node objects across a refresh, so the tree keeps its selection and expansion', async () => {
    const { tree } = model();
    await tree.getChildren();
    const failed = tree.group('FAILED');
    tree.setExpanded(failed, true);
    const before = (await tree.getChildren(failed)).filter((c): c is TaskNode => c.kind === 'task');
    await tree.refresh();
    const after = (await tree.getChildren(failed)).filter((c): c is TaskNode => c.kind === 'task');
    assert.strictEqual(after[0], before[0]);
    assert.strictEqual((await tree.getChildren())[0], tree.group('RUNNING'));
  });

  it('a new filter forgets the counts and listings and cancels what is loading', async () => {
    const { tree, filters } = model();
    await tree.getChildren();
    const loading = tree.getChildren(tree.group('DRAFT'));
    tree.reset();
    await filters.update({ statuses: ['DRAFT'], project: 'rfranklin/my-project' });
    await loading;
    const roots = (await tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(roots.map((g) => g.status), ['DRAFT']);
    assert.strictEqual(roots[0].count, count('DRAFT', (t) => t.project === 'rfranklin/my-project'));
    const kids = (await tree.getChildren(roots[0])).filter((c): c is TaskNode => c.kind === 'task');
    assert.ok(kids.every((k: { task: Task }) => k.task.project === 'rfranklin/my-project' && k.task.status === 'DRAFT'));
  });
});
