import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { TaskListQuery } from '../../../src/api/tasks';
import type { BulkTaskItem, Task } from '../../../src/api/types';
import { FilterModel } from '../../../src/tasks/filterModel';
import type { GroupNode, LoadMoreNode, MessageNode, TaskNode, InfoNode, TaskTreeNode } from '../../../src/tasks/taskNodes';
import { TaskTreeModel } from '../../../src/tasks/taskTree';
import type { StateStore } from '../../../src/util/stateStore';
import { FakeTasks, task, taskId } from '../../support/fakeTasks';
import { memoryState } from '../../support/sharedState';

const NOW = Date.UTC(2026, 2, 1);

/**
 * The platform of these tests. Running: a batch parent (1) and 2, 3, and the parent's child 11; queued 4; draft 5;
 * completed: 150 tasks (100–249) and the child 10; failed: 6 (in me/beta), 7 (with an error) and the child 12; no
 * aborted task; ABORTING 8 and CREATING 9, which no status filter lists.
 */
function tasks(): Task[] {
  const child = { parent: taskId(1) };
  return [
    task(1, 'RUNNING', { batch: true, execution_status: { running: 1, completed: 1, failed: 1 } }),
    task(2, 'RUNNING', { start_time: '2026-01-01T00:02:00Z' }),
    task(3, 'RUNNING'),
    task(4, 'QUEUED'),
    task(5, 'DRAFT'),
    task(6, 'FAILED', { project: 'me/beta' }),
    task(7, 'FAILED', { start_time: '2026-01-01T00:07:00Z', end_time: '2026-01-01T01:00:00Z', errors: [{ message: 'Out of memory', code: 0 }] }),
    task(8, 'ABORTING'),
    task(9, 'CREATING', { batch: true }),
    task(10, 'COMPLETED', child),
    task(11, 'RUNNING', child),
    task(12, 'FAILED', child),
    ...Array.from({ length: 150 }, (_, i) => task(100 + i, 'COMPLETED')),
  ];
}

function model(options: { memento?: StateStore; signedIn?: boolean; source?: FakeTasks; watched?: string[] } = {}) {
  const source = options.source ?? new FakeTasks(tasks());
  const memento = options.memento ?? memoryState();
  const filters = new FilterModel(memento);
  const tree = new TaskTreeModel({
    source,
    filter: filters,
    store: memento,
    signedIn: () => options.signedIn ?? true,
    info: source,
    now: () => NOW,
    watched: (id) => options.watched?.includes(id) ?? false,
  });
  return { tree, filters, memento, source, calls: source.calls };
}

const ids = (nodes: TaskTreeNode[]) => nodes.filter((n): n is TaskNode => n.kind === 'task').map((n) => n.task.id);
const ALL_COUNTS = ['count status=RUNNING', 'count status=QUEUED', 'count status=DRAFT', 'count status=COMPLETED', 'count status=FAILED', 'count status=ABORTED', 'count all'];

describe('task tree model', () => {
  it('shows one group per status with its count, from one request per group and one for the other statuses', async () => {
    const { tree, calls } = model();
    const roots = (await tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(
      roots.map((g) => [g.status, g.count]),
      [
        ['RUNNING', 4],
        ['QUEUED', 1],
        ['DRAFT', 1],
        ['COMPLETED', 151],
        ['FAILED', 3],
        ['ABORTED', 0],
        ['OTHER', 2],
      ],
    );
    assert.deepStrictEqual(calls, ALL_COUNTS);
    assert.strictEqual(tree.runningCount(), 4);
  });

  it('finds the tasks no status filter returns (ABORTING, CREATING) in "Other statuses"; a status filter hides that group', async () => {
    const { tree } = model();
    await tree.getChildren();
    assert.deepStrictEqual(ids(await tree.getChildren(tree.group('OTHER'))), [taskId(9), taskId(8)]);
    assert.strictEqual(tree.hasActiveTasks(), true);
    const filtered = model();
    await filtered.filters.update({ statuses: ['RUNNING'] });
    assert.deepStrictEqual(((await filtered.tree.getChildren()) as GroupNode[]).map((g) => g.status), ['RUNNING']);
    assert.deepStrictEqual(filtered.calls, ['count status=RUNNING']);
  });

  it('a platform that lists ABORTING under RUNNING: the task shows in Running with its own status, "Other" keeps the rest', async () => {
    const source = new (class extends FakeTasks {
      protected override listedUnder(status: string | undefined, filter: string): boolean {
        return status === filter || (filter === 'RUNNING' && status === 'ABORTING');
      }
    })(tasks());
    const { tree } = model({ source });
    await tree.getChildren();
    assert.deepStrictEqual([tree.group('RUNNING').count, tree.group('OTHER').count], [5, 1]);
    assert.deepStrictEqual(ids(await tree.getChildren(tree.group('RUNNING'))), [taskId(11), taskId(8), taskId(3), taskId(2), taskId(1)]);
  });

  it('a task opens into what explains it (two requests: the record and its jobs), read again once its status moves on', async () => {
    const { tree, calls } = model();
    await tree.getChildren();
    const failed = (await tree.getChildren(tree.group('FAILED'))).find((n): n is TaskNode => n.kind === 'task' && n.task.id === taskId(7))!;
    assert.strictEqual(tree.canOpen(failed.task), true);
    calls.length = 0;
    const rows = (await tree.getChildren(failed)) as InfoNode[];
    assert.deepStrictEqual(calls, [`get ${taskId(7)}`, `details ${taskId(7)}`]);
    assert.deepStrictEqual(rows.map((r) => r.item.key), ['errors', 'jobs', 'rerun', 'raw']);
    assert.deepStrictEqual(
      rows.map((r) => [tree.rowView(r).label, tree.rowView(r).ariaLabel, tree.rowView(r).expanded]),
      [
        ['Errors', 'Errors, 1', true],
        ['Jobs', 'Jobs, 1', true],
        ['Re-run this task…', 'Re-run this task…', undefined],
        ['Task record (JSON)', 'Task record (JSON)', undefined],
      ],
      'every row under a task has an accessible label',
    );
    calls.length = 0;
    await tree.getChildren(failed);
    assert.deepStrictEqual(calls, [], 'kept while the task does not change');
    tree.applyTask({ ...failed.task, status: 'ABORTED' });
    assert.strictEqual(tree.findTaskNodes(taskId(7))[0].task.status, 'ABORTED');
    await tree.getChildren(failed);
    assert.deepStrictEqual(calls, [`get ${taskId(7)}`, `details ${taskId(7)}`], 'read again after the status moved on');
  });

  it('loads a group when it is opened: 100 newest first, with the fields the rows need, then "Load more (51 left)"', async () => {
    const source = new FakeTasks(tasks());
    const queries: TaskListQuery[] = [];
    const list = source.list.bind(source);
    source.list = (query, page) => {
      queries.push(query);
      return list(query, page);
    };
    const { tree, calls } = model({ source });
    await tree.getChildren();
    calls.length = 0;
    const completed = tree.group('COMPLETED');
    const children = await tree.getChildren(completed);
    assert.deepStrictEqual(calls, ['list status=COMPLETED 0+100']);
    assert.deepStrictEqual(queries, [
      {
        order_by: 'created_time',
        order: 'desc',
        status: 'COMPLETED',
        fields: 'id,name,status,project,created_time,start_time,end_time,batch',
      },
    ]);
    const shown = ids(children);
    assert.deepStrictEqual([shown.length, shown[0], shown[99]], [100, taskId(249), taskId(150)]);
    const more = children[100] as LoadMoreNode;
    assert.deepStrictEqual([more.kind, tree.listOf(completed).left, tree.rowView(more).label], ['loadMore', 51, 'Load more (51 left)']);
    assert.deepStrictEqual([tree.getParent(more), tree.getParent(children[0]), children[0].id], [completed, completed, `group:COMPLETED/${taskId(249)}`]);
  });

  it('"Load more" loads the next page once however often it is clicked, and redraws only its group', async () => {
    const { tree, calls } = model();
    const completed = tree.group('COMPLETED');
    await tree.getChildren();
    const first = await tree.getChildren(completed);
    const fired: (TaskTreeNode | undefined)[] = [];
    tree.onDidChange((n) => fired.push(n));
    calls.length = 0;
    await Promise.all([tree.loadMore(first[100] as LoadMoreNode), tree.loadMore(first[100] as LoadMoreNode), tree.loadMore(completed)]);
    assert.deepStrictEqual(calls, ['list status=COMPLETED 100+100']);
    assert.ok(fired.length > 0 && fired.every((n) => n === completed), 'only the group is redrawn');
    const shown = ids(await tree.getChildren(completed));
    assert.deepStrictEqual([shown.length, new Set(shown).size, shown[100], shown[150]], [151, 151, taskId(149), taskId(10)]);
  });

  it('expands a batch parent into its children, each with its own status', async () => {
    const { tree, calls } = model();
    await tree.getChildren();
    const parent = (await tree.getChildren(tree.group('RUNNING'))).find((n): n is TaskNode => n.kind === 'task' && n.task.id === taskId(1))!;
    calls.length = 0;
    const kids = (await tree.getChildren(parent)) as TaskNode[];
    assert.deepStrictEqual(calls, [`list parent=${taskId(1)} 0+100`]);
    assert.deepStrictEqual(kids.map((k) => [k.task.id, k.task.status]), [
      [taskId(12), 'FAILED'],
      [taskId(11), 'RUNNING'],
      [taskId(10), 'COMPLETED'],
    ]);
    assert.deepStrictEqual([tree.getParent(kids[0]), kids[0].id], [parent, `group:RUNNING/${taskId(1)}/${taskId(12)}`]);
  });

  it('names a batch child by what follows its parent\'s name, which tells the children apart at the side bar\'s width; the whole name in its aria label (#44)', async () => {
    const batch = 'RNA-seq quantification of the November samples';
    const child = { parent: taskId(1) };
    const { tree } = model({
      source: new FakeTasks([
        task(1, 'RUNNING', { batch: true, name: batch }),
        task(10, 'COMPLETED', { ...child, name: `${batch} - sample_07.fastq` }),
        task(11, 'RUNNING', { ...child, name: `${batch}2 - other` }),
        task(12, 'ABORTING', { ...child, name: `${batch} - sample_09.fastq` }),
      ]),
    });
    await tree.getChildren();
    const parent = (await tree.getChildren(tree.group('RUNNING'))).find((n): n is TaskNode => n.kind === 'task' && n.task.id === taskId(1))!;
    const kids = (await tree.getChildren(parent)) as TaskNode[];
    const views = new Map(kids.map((k) => [k.task.id, tree.rowView(k)]));
    assert.strictEqual(views.get(taskId(10))!.label, 'sample_07.fastq');
    assert.strictEqual(views.get(taskId(12))!.label, 'aborting · sample_09.fastq');
    assert.strictEqual(views.get(taskId(11))!.label, `${batch}2 - other`, 'a name that only begins like its parent\'s is shown whole');
    assert.match(views.get(taskId(10))!.ariaLabel!, new RegExp(`^${batch} - sample_07\\.fastq, completed`));
    assert.strictEqual(tree.rowView(parent).label, batch, 'the parent keeps its name');
  });

  it('applies the filters to every group, and a status filter hides the other groups', async () => {
    const { tree, filters, calls } = model();
    await filters.update({ statuses: ['FAILED', 'COMPLETED'], project: 'me/beta' });
    assert.deepStrictEqual(((await tree.getChildren()) as GroupNode[]).map((g) => [g.status, g.count]), [
      ['COMPLETED', 0],
      ['FAILED', 1],
    ]);
    assert.deepStrictEqual(calls, ['count status=COMPLETED project=me/beta', 'count status=FAILED project=me/beta']);
  });

  it('shows the children of a batch parent through the parent filter', async () => {
    const { tree, filters } = model();
    await filters.update({ parent: { id: taskId(1), name: 'task 1' } });
    assert.deepStrictEqual(((await tree.getChildren()) as GroupNode[]).map((g) => [g.status, g.count]), [
      ['RUNNING', 1],
      ['QUEUED', 0],
      ['DRAFT', 0],
      ['COMPLETED', 1],
      ['FAILED', 1],
      ['ABORTED', 0],
    ]);
  });

  it('says so in place when nothing matches, with a way to clear the filters', async () => {
    const { tree, filters } = model();
    await filters.update({ created: { to: '2001-01-01' } });
    const [message, ...groups] = await tree.getChildren();
    assert.deepStrictEqual([message.kind, (message as MessageNode).text, (message as MessageNode).action?.command], ['message', 'No tasks match the filters.', 'sevenbridges.tasks.clearFilter']);
    assert.deepStrictEqual(groups.map((g) => (g as GroupNode).count), [0, 0, 0, 0, 0, 0]);
  });

  it('a rejected token becomes a message with "Set Authentication Token", not an exception, and stops the refreshes', async () => {
    const { tree, source } = model();
    await tree.getChildren();
    assert.strictEqual(tree.hasActiveTasks(), true, 'tasks are running');
    source.failures.set('count', new ApiError({ kind: 'http', status: 401, code: 90001, message: 'Unauthorized' }));
    await tree.refresh();
    const [message, ...actions] = (await tree.getChildren()) as MessageNode[];
    assert.strictEqual(message.text, 'The platform rejected the authentication token. Set a new token to continue.');
    assert.deepStrictEqual(actions.map((r) => r.action?.command), ['sevenbridges.setToken']);
    assert.strictEqual(tree.hasActiveTasks(), false, 'no polling with a refused token');
  });

  it('an unreachable platform becomes a message with "Retry" and "Show Log"; a rate limit with "Retry"', async () => {
    const offline = model();
    offline.source.failures.set('count', new ApiError({ kind: 'network', message: 'ECONNREFUSED' }));
    const [message, ...actions] = (await offline.tree.getChildren()) as MessageNode[];
    assert.strictEqual(message.text, 'Cannot reach the platform (ECONNREFUSED). Check your connection and the API endpoint.');
    assert.deepStrictEqual(actions.map((r) => r.action?.command), ['sevenbridges.tasks.refresh', 'sevenbridges.showLog']);
    const limited = model();
    limited.source.failures.set('count', new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded' }));
    const rows = (await limited.tree.getChildren()) as MessageNode[];
    assert.deepStrictEqual(
      rows.map((r) => [r.text, r.action?.command]),
      [
        ["The platform's rate limit (1,000 requests per 5 minutes) is used up. Try again then.", undefined],
        ['Retry', 'sevenbridges.tasks.refresh'],
      ],
    );
  });

  it('a group whose listing fails says why in place, and its "Retry" loads it again', async () => {
    const { tree, source } = model();
    await tree.getChildren();
    source.failures.set('list status=QUEUED', new Error('socket hang up'));
    const queued = tree.group('QUEUED');
    const [message, retry] = (await tree.getChildren(queued)) as MessageNode[];
    assert.deepStrictEqual([message.text, message.severity], ['socket hang up', 'error']);
    assert.deepStrictEqual([retry.text, retry.action?.command, retry.action?.args?.[0]], ['Retry', 'sevenbridges.tasks.loadMore', queued]);
    assert.strictEqual((await tree.getChildren(queued)).length, 2, 'no retry by itself on a redraw');
    source.failures.clear();
    await tree.loadMore(queued);
    assert.deepStrictEqual(ids(await tree.getChildren(queued)), [taskId(4)]);
  });

  it('one failed group count marks that group, not the whole tree', async () => {
    const { tree, source } = model();
    source.failures.set('count status=FAILED', new Error('socket hang up'));
    const groups = (await tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(
      groups.map((g) => [g.status, g.count, g.countError]),
      [
        ['RUNNING', 4, undefined],
        ['QUEUED', 1, undefined],
        ['DRAFT', 1, undefined],
        ['COMPLETED', 151, undefined],
        ['FAILED', undefined, 'socket hang up'],
        ['ABORTED', 0, undefined],
      ],
      'no "Other statuses": its count needs every other count',
    );
    assert.deepStrictEqual(ids(await tree.getChildren(tree.group('FAILED'))), [taskId(12), taskId(7), taskId(6)], 'the group still opens');
  });

  it('a refresh after "Load more" keeps every row shown (151 shown stay 151), reloading both pages', async () => {
    const { tree, calls } = model();
    await tree.getChildren();
    const completed = tree.group('COMPLETED');
    tree.setExpanded(completed, true);
    await tree.getChildren(completed);
    await tree.loadMore(completed);
    assert.strictEqual(ids(await tree.getChildren(completed)).length, 151);
    calls.length = 0;
    await tree.refresh();
    assert.deepStrictEqual(calls, [...ALL_COUNTS, 'list status=COMPLETED 0+100', 'list status=COMPLETED 100+100']);
    const after = await tree.getChildren(completed);
    assert.deepStrictEqual([ids(after).length, after.some((c) => c.kind === 'loadMore')], [151, false]);
  });

  it('shows nothing when signed out (the welcome view takes over)', async () => {
    const { tree, calls } = model({ signedIn: false });
    assert.deepStrictEqual([await tree.getChildren(), calls], [[], []]);
  });

  it('a refresh counts again and reloads only the open groups; it reports whether anything changed', async () => {
    const memento = memoryState();
    const { tree, calls, source } = model({ memento });
    await tree.getChildren();
    const running = tree.group('RUNNING');
    tree.setExpanded(running, true);
    await tree.getChildren(running);
    calls.length = 0;
    assert.strictEqual(await tree.refresh(), false);
    assert.deepStrictEqual(calls, [...ALL_COUNTS, 'list status=RUNNING 0+100']);
    Object.assign(source.tasks[1], { status: 'COMPLETED', end_time: '2026-01-01T03:00:00Z' });
    assert.strictEqual(await tree.refresh(), true);
    assert.strictEqual(running.count, 3);
    assert.deepStrictEqual(memento.get('sevenbridges.tasks.expanded'), ['group:RUNNING'], 'open groups are remembered');
    const again = model({ memento }).tree;
    assert.strictEqual(again.isExpanded(again.group('RUNNING')), true);
  });

  it('keeps the same row objects across a refresh, so the view keeps its selection and expansion', async () => {
    const { tree } = model();
    await tree.getChildren();
    const failed = tree.group('FAILED');
    tree.setExpanded(failed, true);
    const before = await tree.getChildren(failed);
    await tree.refresh();
    const after = await tree.getChildren(failed);
    assert.strictEqual(after[0], before[0]);
    assert.strictEqual((await tree.getChildren())[0], tree.group('RUNNING'));
  });

  it('a new filter forgets the counts and listings and cancels what is loading', async () => {
    const { tree, filters } = model();
    await tree.getChildren();
    const loading = tree.getChildren(tree.group('DRAFT'));
    tree.reset();
    await filters.update({ statuses: ['DRAFT'], project: 'me/alpha' });
    await loading;
    const roots = (await tree.getChildren()) as GroupNode[];
    assert.deepStrictEqual(roots.map((g) => [g.status, g.count]), [['DRAFT', 1]]);
    assert.deepStrictEqual(ids(await tree.getChildren(roots[0])), [taskId(5)]);
  });

  it('draws a task\'s row from its record: what it can take, whether it is watched, whether it opens', async () => {
    const { tree } = model({ watched: [taskId(3)] });
    await tree.getChildren();
    const running = (await tree.getChildren(tree.group('RUNNING'))) as TaskNode[];
    const completed = (await tree.getChildren(tree.group('COMPLETED'))) as TaskNode[];
    assert.deepStrictEqual(
      [running[1], running[2], running[3], completed[0]].map((n) => [n.task.id, tree.rowView(n).contextValue, tree.rowView(n).expandable]),
      [
        [taskId(3), 'task canAbort watched', true],
        [taskId(2), 'task canAbort canWatch', true],
        [taskId(1), 'task batch hasFailedChildren hasRerunnableChildren canAbort canWatch', true],
        [taskId(249), 'task canRerun', true],
      ],
    );
    assert.strictEqual(tree.rowView(running[2]).ariaLabel, 'task 2, running, started 1 month ago, me/alpha');
  });

  it('Refresh makes a closed group\'s next opening current: its old listing is dropped, not reloaded, and read when opened', async () => {
    const { tree, calls, source } = model();
    await tree.getChildren();
    const running = tree.group('RUNNING');
    tree.setExpanded(running, true);
    assert.deepStrictEqual(ids(await tree.getChildren(running)), [taskId(11), taskId(3), taskId(2), taskId(1)]);
    tree.setExpanded(running, false);
    // A re-run elsewhere: a new running task, the newest.
    source.tasks.push(task(300, 'RUNNING'));
    calls.length = 0;
    await tree.refresh();
    assert.deepStrictEqual(calls, ALL_COUNTS, 'the closed group is not read again on a refresh');
    assert.strictEqual(running.count, 5);
    tree.setExpanded(running, true);
    assert.deepStrictEqual(ids(await tree.getChildren(running)), [taskId(300), taskId(11), taskId(3), taskId(2), taskId(1)], 'opened again: current');
    assert.deepStrictEqual(calls, [...ALL_COUNTS, 'list status=RUNNING 0+100']);
  });

  it('a group\'s count is what its listing holds: read together on a refresh, or redrawn when it opens later', async () => {
    const { tree, source } = model();
    const changed: (TaskTreeNode | undefined)[] = [];
    tree.onDidChange((node) => changed.push(node));
    await tree.getChildren();
    const queued = tree.group('QUEUED');
    assert.strictEqual(queued.count, 1);
    source.tasks.push(task(301, 'QUEUED'));
    assert.deepStrictEqual(ids(await tree.getChildren(queued)), [taskId(301), taskId(4)]);
    await Promise.resolve();
    assert.deepStrictEqual([queued.count, changed], [2, [queued]], 'the group row is drawn again with the count its list holds');
  });

  it('right after Abort, Run or Re-run the row shows its new status in the group it now belongs to, counts too, before any request', async () => {
    const { tree, calls, source } = model();
    await tree.getChildren();
    const [running, queued, draft, other] = (['RUNNING', 'QUEUED', 'DRAFT', 'OTHER'] as const).map((s) => tree.group(s));
    for (const group of [running, queued, other]) {
      tree.setExpanded(group, true);
      await tree.getChildren(group);
    }
    calls.length = 0;
    // Abort: RUNNING → ABORTING, which no status group names.
    const three = source.tasks[2];
    tree.applyTask({ ...three, status: 'ABORTING' }, 'RUNNING');
    // Run: a draft → QUEUED (its group was never opened: only its count moves).
    tree.applyTask({ ...source.tasks[4], status: 'QUEUED' }, 'DRAFT');
    // Re-run: a new task, QUEUED.
    tree.addTask(task(400, 'QUEUED'));
    assert.deepStrictEqual(calls, [], 'nothing asked of the platform');
    assert.deepStrictEqual(
      [running, queued, draft, other].map((g) => [g.status, g.count]),
      [['RUNNING', 3], ['QUEUED', 3], ['DRAFT', 0], ['OTHER', 3]],
    );
    assert.deepStrictEqual(ids(await tree.getChildren(running)), [taskId(11), taskId(2), taskId(1)]);
    assert.deepStrictEqual(ids(await tree.getChildren(queued)), [taskId(400), taskId(5), taskId(4)]);
    const others = (await tree.getChildren(other)) as TaskNode[];
    assert.deepStrictEqual(ids(others), [taskId(9), taskId(8), taskId(3)]);
    assert.strictEqual(tree.rowView(others[2]).label, 'aborting · task 3');
    // The refresh that follows reads the platform (which agrees): the same rows.
    Object.assign(three, { status: 'ABORTING' });
    Object.assign(source.tasks[4], { status: 'QUEUED' });
    source.tasks.push(task(400, 'QUEUED'));
    await tree.refresh();
    assert.deepStrictEqual([running, queued, draft, other].map((g) => g.count), [3, 3, 0, 3]);
    assert.deepStrictEqual(ids(await tree.getChildren(other)), [taskId(9), taskId(8), taskId(3)]);
  });

  it('while a refresh waits on a slow platform, the tree draws what it knows at once: an abort moves its row before the listings answer', async () => {
    const { tree, source } = model();
    await tree.getChildren();
    const [running, other] = (['RUNNING', 'OTHER'] as const).map((s) => tree.group(s));
    for (const group of [running, other]) {
      tree.setExpanded(group, true);
      await tree.getChildren(group);
    }
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    const [count, list] = [source.count.bind(source), source.list.bind(source)];
    source.count = async (query) => gate.then(() => count(query));
    source.list = async (query, page) => gate.then(() => list(query, page));
    const refreshing = tree.refresh();
    tree.applyTask({ ...source.tasks[2], status: 'ABORTING' }, 'RUNNING');
    // Drawn from memory: answered before the next turn of the event loop, the platform still silent.
    const drawn = await Promise.race([
      (async () => ({ roots: await tree.getChildren(), other: (await tree.getChildren(other)) as TaskNode[] }))(),
      new Promise<undefined>((r) => setImmediate(() => r(undefined))),
    ]);
    assert.ok(drawn, 'the view waited for the refresh');
    assert.deepStrictEqual([running.count, other.count], [3, 3]);
    assert.deepStrictEqual(ids(drawn.other), [taskId(9), taskId(8), taskId(3)]);
    assert.strictEqual(tree.rowView(drawn.other[2]).label, 'aborting · task 3');
    release();
    await refreshing;
  });

  it('a task an action makes or moves is shown at once only where the filter lets the platform list it', async () => {
    const { tree, filters } = model();
    await filters.update({ project: 'me/beta' });
    await tree.getChildren();
    const queued = tree.group('QUEUED');
    tree.addTask(task(400, 'QUEUED'));
    assert.strictEqual(queued.count, 0, 'a re-run in me/alpha is not counted under me/beta');
    tree.addTask(task(401, 'QUEUED', { project: 'me/beta' }));
    assert.strictEqual(queued.count, 1);
  });

  describe('a refresh keeps what a person loaded and where they are (#44)', () => {
    /** `n` completed tasks (1000…; newest first), and a tree that knows which groups are open. */
    function loaded(n: number, more: Task[] = [], source = new FakeTasks([...Array.from({ length: n }, (_, i) => task(1000 + i, 'COMPLETED')), ...more])) {
      const memento = memoryState();
      const tree = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true, now: () => NOW, readAheadPages: 0 });
      const fired: (TaskTreeNode | undefined)[] = [];
      tree.onDidChange((node) => fired.push(node));
      return { tree, source, fired, completed: tree.group('COMPLETED') };
    }
    const lists = (source: FakeTasks) => source.calls.filter((c) => c.startsWith('list'));

    it('an open group of 801 rows stays 801 rows: every page shown is read again, none dropped', async () => {
      const { tree, source, completed } = loaded(950);
      await tree.getChildren();
      tree.setExpanded(completed, true);
      await tree.getChildren(completed);
      for (let i = 0; i < 7; i++) await tree.loadMore(completed);
      const before = await tree.getChildren(completed);
      assert.deepStrictEqual([ids(before).length, before.length], [800, 801], '800 tasks and "Load more"');
      source.calls.length = 0;
      await tree.refresh();
      assert.deepStrictEqual(lists(source), [0, 100, 200, 300, 400, 500, 600, 700].map((o) => `list status=COMPLETED ${o}+100`));
      const after = await tree.getChildren(completed);
      assert.deepStrictEqual([ids(after).length, after.length], [800, 801], 'the rows loaded stay loaded');
      assert.deepStrictEqual(after.slice(0, 800), before.slice(0, 800), 'the same rows, so VS Code keeps the selection and the focus on them');
      assert.strictEqual(tree.rowView(after[800]).label, 'Load more (150 left)');
    });

    it('a batch parent opened at row 1,094 keeps its place and its children after a refresh', async () => {
      const parent = task(5, 'COMPLETED', { batch: true });
      const kids = [task(6, 'FAILED', { parent: taskId(5) }), task(7, 'ABORTED', { parent: taskId(5) })];
      // 1,093 newer tasks above the parent.
      const { tree, source, completed } = loaded(1_093, [parent, ...kids]);
      await tree.getChildren();
      tree.setExpanded(completed, true);
      await tree.getChildren(completed);
      while (ids(await tree.getChildren(completed)).length < 1_094) await tree.loadMore(completed);
      const row = tree.findTaskNodes(taskId(5))[0];
      assert.strictEqual(ids(await tree.getChildren(completed)).indexOf(taskId(5)), 1_093);
      tree.setExpanded(row, true);
      assert.deepStrictEqual(ids(await tree.getChildren(row)), [taskId(7), taskId(6)]);
      source.calls.length = 0;
      await tree.refresh();
      assert.ok(lists(source).includes(`list parent=${taskId(5)} 0+100`), 'its children are read again with the group');
      assert.strictEqual(ids(await tree.getChildren(completed)).indexOf(taskId(5)), 1_093, 'still at its row');
      assert.deepStrictEqual(tree.findTaskNodes(taskId(5)), [row], 'the same row');
      assert.deepStrictEqual(ids(await tree.getChildren(row)), [taskId(7), taskId(6)], 'its children under it');
    });

    it('draws again only what changed: nothing, a group whose rows changed, the whole tree when the groups shown change', async () => {
      const { tree, source, completed, fired } = loaded(250, [task(1, 'RUNNING')]);
      await tree.getChildren();
      tree.setExpanded(completed, true);
      await tree.getChildren(completed);
      fired.length = 0;
      assert.strictEqual(await tree.refresh(), false);
      assert.deepStrictEqual(fired, [], 'nothing changed: no row is drawn again');
      source.tasks.push(task(2000, 'COMPLETED'));
      assert.strictEqual(await tree.refresh(), true);
      assert.deepStrictEqual(fired, [completed], 'the group whose count and rows changed, alone');
      fired.length = 0;
      Object.assign(source.tasks[250], { status: 'QUEUED' });
      await tree.refresh();
      assert.deepStrictEqual(fired, [tree.group('RUNNING'), tree.group('QUEUED')], 'two counts changed');
      fired.length = 0;
      source.tasks.push(task(3000, 'ABORTING'));
      await tree.refresh();
      assert.deepStrictEqual(fired, [undefined], '"Other statuses" shows up: the groups shown changed');
    });

    it('a running batch parent keeps its counts drawn while a refresh reads them again; only its row is drawn again', async () => {
      const parent = task(5, 'RUNNING', { batch: true });
      const counts = { completed: 2, running: 3, failed: 0, queued: 0, aborted: 0 };
      let gate: Promise<void> = Promise.resolve();
      const source = new (class extends FakeTasks {
        async bulkGet(ids: readonly string[]): Promise<BulkTaskItem[]> {
          await gate;
          this.calls.push(`bulk ${ids.length}`);
          return ids.map((id) => ({ resource: { ...this.tasks.find((t) => t.id === id)!, execution_status: { ...counts } } }));
        }
      })([parent, task(6, 'RUNNING')]);
      const memento = memoryState();
      const timers = { setTimeout: (run: () => void) => (setImmediate(run), { dispose: () => undefined }) };
      const tree = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true, now: () => NOW, clock: timers as never });
      const running = tree.group('RUNNING');
      await tree.getChildren();
      tree.setExpanded(running, true);
      await tree.getChildren(running);
      await tree.settled();
      const row = tree.findTaskNodes(taskId(5))[0];
      assert.match(tree.rowView(row).description ?? '', /2 done · 3 running/);
      const fired: (TaskTreeNode | undefined)[] = [];
      tree.onDidChange((node) => fired.push(node));
      let release = () => undefined as void;
      gate = new Promise<void>((r) => (release = r));
      await tree.refresh();
      assert.match(tree.rowView(row).description ?? '', /2 done · 3 running/, 'drawn as read until read again');
      Object.assign(counts, { completed: 3, running: 2 });
      release();
      await tree.settled();
      assert.match(tree.rowView(row).description ?? '', /3 done · 2 running/);
      assert.deepStrictEqual(fired, [row], 'its row alone is drawn again');
    });

    it('a closed group\'s old rows are dropped as the refresh begins, so opening it shows the platform as it is then', async () => {
      const { tree, source, completed, fired } = loaded(150);
      await tree.getChildren();
      tree.setExpanded(completed, true);
      await tree.getChildren(completed);
      tree.setExpanded(completed, false);
      fired.length = 0;
      let release = () => undefined as void;
      const gate = new Promise<void>((r) => (release = r));
      const count = source.count.bind(source);
      source.count = async (query) => gate.then(() => count(query));
      const refreshing = tree.refresh();
      assert.deepStrictEqual(fired, [completed], 'drawn again at once: VS Code drops the rows it held of the closed group');
      assert.strictEqual(completed.list.loaded, false);
      source.tasks.push(task(2000, 'COMPLETED'));
      tree.setExpanded(completed, true);
      assert.strictEqual(ids(await tree.getChildren(completed))[0], taskId(2000), 'opened during the refresh: read then');
      release();
      await refreshing;
    });
  });

  describe('pages read ahead of "Load more"', () => {
    /** 650 completed tasks (1000–1649; newest first, 1649 first) and a filter; the API budget as the test sets it. */
    function big() {
      const source = new FakeTasks(Array.from({ length: 650 }, (_, i) => task(1000 + i, 'COMPLETED')));
      const budget = { low: false };
      const memento = memoryState();
      const filters = new FilterModel(memento);
      const tree = new TaskTreeModel({ source, filter: filters, store: memento, signedIn: () => true, now: () => NOW, budget });
      const group = tree.group('COMPLETED');
      tree.setExpanded(group, true);
      return { tree, source, budget, filters, group, lists: () => source.calls.filter((c) => c.startsWith('list')) };
    }
    const newestFirst = (from: number, n: number) => Array.from({ length: n }, (_, i) => taskId(from - i));
    const turn = () => new Promise((r) => setImmediate(r));
    const lists = (source: FakeTasks) => source.calls.filter((c) => c.startsWith('list'));

    it('a group opened and left costs one page; after the first "Load more" the next 3 pages are on their way, none past the end', async () => {
      const { tree, group, lists } = big();
      await tree.getChildren();
      await tree.getChildren(group);
      await turn();
      assert.deepStrictEqual(lists(), ['list status=COMPLETED 0+100'], 'nothing read ahead of a listing nobody asked more of');
      await tree.loadMore(group);
      assert.deepStrictEqual(lists().slice(1), ['list status=COMPLETED 100+100', 'list status=COMPLETED 200+100', 'list status=COMPLETED 300+100', 'list status=COMPLETED 400+100']);
      assert.deepStrictEqual(ids(await tree.getChildren(group)), newestFirst(1649, 200), 'only the page asked for is shown');
      while (group.list.hasMore) await tree.loadMore(group);
      assert.deepStrictEqual(ids(await tree.getChildren(group)), newestFirst(1649, 650), 'every task once, newest first');
      assert.deepStrictEqual(lists(), [0, 100, 200, 300, 400, 500, 600].map((o) => `list status=COMPLETED ${o}+100`), 'each page once, in all as many as paging one by one');
    });

    it('no page is read ahead while the API budget is low', async () => {
      const { tree, group, budget, lists } = big();
      budget.low = true;
      await tree.getChildren();
      await tree.getChildren(group);
      await tree.loadMore(group);
      await tree.loadMore(group);
      assert.deepStrictEqual(lists(), ['list status=COMPLETED 0+100', 'list status=COMPLETED 100+100', 'list status=COMPLETED 200+100']);
      budget.low = false;
      await tree.loadMore(group);
      assert.deepStrictEqual(lists().slice(3), [300, 400, 500, 600].map((o) => `list status=COMPLETED ${o}+100`));
    });

    it('a refresh or a new filter drops the pages on their way: the next "Load more" shows the platform as it is now', async () => {
      const { tree, group, source, filters, lists } = big();
      await tree.getChildren();
      await tree.getChildren(group);
      // The pages read ahead stay on their way until the refresh.
      const list = source.list.bind(source);
      let hold: (() => void)[] = [];
      source.list = (query, page) => (page?.offset ?? 0) >= 200 ? new Promise((r) => hold.push(() => r(list(query, page)))) : list(query, page);
      await tree.loadMore(group);
      assert.strictEqual(hold.length, 3, 'pages 3, 4 and 5 on their way');
      // Meanwhile a newer task: a page read before the refresh would show the tasks it pushed down twice, or miss one.
      source.tasks.push(task(5000, 'COMPLETED'));
      await tree.refresh();
      for (const release of hold) release();
      hold = [];
      await turn();
      assert.deepStrictEqual(ids(await tree.getChildren(group)), [taskId(5000), ...newestFirst(1649, 199)], 'the refresh read the two pages shown');
      const before = lists().length;
      const more = tree.loadMore(group);
      for (const release of hold) release();
      hold = [];
      await more;
      assert.deepStrictEqual(lists().slice(before, before + 3), ['list status=COMPLETED 200+100', 'list status=COMPLETED 300+100', 'list status=COMPLETED 400+100'], 'asked again after the refresh');
      const shown = ids(await tree.getChildren(group));
      assert.deepStrictEqual([shown.length, new Set(shown).size], [300, 300]);
      assert.deepStrictEqual(shown, [taskId(5000), ...newestFirst(1649, 299)]);

      assert.strictEqual(hold.length, 1, 'page 6 on its way');
      await filters.update({ project: 'me/beta' });
      tree.reset();
      for (const release of hold) release();
      await turn();
      assert.strictEqual(group.list.items.length, 0, 'nothing of the old filter lands');
      const count = lists().length;
      assert.deepStrictEqual(ids(await tree.getChildren(group)), []);
      assert.deepStrictEqual(lists().slice(count), ['list status=COMPLETED project=me/beta 0+100']);
    });

    it('an action forgets the pages read ahead before it: the next "Load more" never shows a task aborted meanwhile as running', async () => {
      const source = new FakeTasks(Array.from({ length: 600 }, (_, i) => task(1000 + i, 'RUNNING')));
      const memento = memoryState();
      const tree = new TaskTreeModel({ source, filter: new FilterModel(memento), store: memento, signedIn: () => true, now: () => NOW });
      const running = tree.group('RUNNING');
      tree.setExpanded(running, true);
      await tree.getChildren();
      await tree.getChildren(running);
      await tree.loadMore(running);
      await turn();
      assert.ok(lists(source).includes('list status=RUNNING 200+100'), 'rows 201–300 read ahead');
      // Row 251, not shown yet, is aborted (from the palette): the platform lists it no more under Running.
      const aborted = source.tasks.find((t) => t.id === taskId(1349))!;
      aborted.status = 'ABORTING';
      tree.applyTask({ ...aborted }, 'RUNNING');
      await tree.loadMore(running);
      const shown = (await tree.getChildren(running)).filter((n): n is TaskNode => n.kind === 'task');
      assert.strictEqual(shown.length, 300);
      assert.ok(!shown.some((n) => n.task.id === taskId(1349)), 'not back under Running');
      assert.strictEqual(tree.rowView(shown[shown.length - 1]).label, 'task 1299', 'the page as the platform lists it after the abort');
    });

    it('a page read ahead that failed shows on the Load more row when its turn comes, and is asked for again from there', async () => {
      const { tree, group, source, lists } = big();
      await tree.getChildren();
      await tree.getChildren(group);
      source.failures.set('list status=COMPLETED 200+100', new ApiError({ kind: 'network', message: 'socket hang up' }));
      await tree.loadMore(group);
      let rows = await tree.getChildren(group);
      assert.strictEqual(tree.rowView(rows[rows.length - 1]).label, 'Load more (450 left)', 'not shown before its turn');
      await tree.loadMore(group);
      rows = await tree.getChildren(group);
      assert.deepStrictEqual([ids(rows).length, tree.rowView(rows[rows.length - 1]).label], [200, 'Could not load more: click to retry']);
      source.failures.clear();
      await tree.loadMore(group);
      while (group.list.hasMore) await tree.loadMore(group);
      assert.deepStrictEqual(ids(await tree.getChildren(group)), newestFirst(1649, 650));
      assert.deepStrictEqual(
        lists().filter((c) => c.endsWith('200+100')).length,
        2,
        'the failed page asked again; every other page once',
      );
      assert.strictEqual(lists().length, 8);
    });
  });
});
