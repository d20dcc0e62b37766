// The lighter wire (#27 §2): a listing asks only for the fields a row draws, and no row draws differently for it.
// Rows are built from the emulator's task records as the platform lists them with TASK_LIST_FIELDS, through the tree
// model and its whole-record reads, and compared with rows built from the whole records.
import * as assert from 'assert';
import type { TaskListQuery } from '../../../src/api/tasks';
import { isActive, type BulkTaskItem, type Page, type Task } from '../../../src/api/types';
import { FilterModel } from '../../../src/tasks/filterModel';
import { TASK_LIST_FIELDS, TASK_ROW_FIELDS } from '../../../src/tasks/taskListing';
import { TaskRecords } from '../../../src/tasks/taskRecords';
import { offersOutputs, taskTooltip, taskView } from '../../../src/tasks/taskRows';
import { TaskNode, type GroupNode } from '../../../src/tasks/taskNodes';
import { TaskTreeModel } from '../../../src/tasks/taskTree';
import type { RowView } from '../../../src/ui/rowView';
import { generateData } from '../../emulator/data';
import { taskRecord } from '../../emulator/tasks';
import { memoryState } from '../../support/sharedState';

const NOW = Date.UTC(2026, 2, 1);

/** The emulator's tasks as whole records (`fields=_all`). */
function wholeTasks(n: number): Task[] {
  const data = generateData({ seed: 27, tasks: n, files: 10, now: NOW });
  return data.tasks.map((t) => taskRecord('https://api.example/v2', t) as unknown as Task);
}

/** A record with only the given top-level fields, as a listing with `fields=` answers. */
function strip(task: Task, fields: readonly string[]): Task {
  return Object.fromEntries(Object.entries(task).filter(([k]) => fields.includes(k))) as Task;
}

/** The platform as the tree sees it: lists honour `fields`, `get` and `POST /v2/bulk/tasks/get` answer whole records. */
class Platform {
  readonly calls: string[] = [];
  constructor(private readonly tasks: Task[]) {}
  async list(query: TaskListQuery, page: { offset?: number; limit?: number }): Promise<Page<Task>> {
    const matching = this.tasks.filter((t) => (query.status === undefined || t.status === query.status) && (query.parent === undefined || t.parent === query.parent));
    const offset = page.offset ?? 0;
    const items = matching.slice(offset, offset + (page.limit ?? 25)).map((t) => (query.fields ? strip(t, query.fields.split(',')) : t));
    this.calls.push(`list ${query.status ?? query.parent} ${offset}`);
    return { items, total: matching.length, next: undefined };
  }
  async next(): Promise<Page<Task>> {
    throw new Error('no next links here');
  }
  async count(query: TaskListQuery): Promise<number> {
    return this.tasks.filter((t) => query.status === undefined || t.status === query.status).length;
  }
  async get(id: string): Promise<Task> {
    this.calls.push(`get ${id}`);
    const task = this.tasks.find((t) => t.id === id);
    if (!task) throw new Error(`no task ${id}`);
    return task;
  }
  async bulkGet(ids: readonly string[]): Promise<BulkTaskItem[]> {
    assert.ok(ids.length <= 100, 'at most 100 IDs a request');
    this.calls.push(`bulk ${ids.length}`);
    return ids.map((id) => {
      const task = this.tasks.find((t) => t.id === id);
      return task ? { resource: task } : { error: { status: 404, code: 5002, message: 'not found', more_info: '' } };
    });
  }
}

function tree(platform: Platform): TaskTreeModel {
  const store = memoryState();
  return new TaskTreeModel({ source: platform, filter: new FilterModel(store), store, signedIn: () => true, now: () => NOW });
}

/** What a row draws, its tooltip aside (read on hover). */
const drawn = (view: RowView) => ({ label: view.label, description: view.description, ariaLabel: view.ariaLabel, icon: view.icon, contextValue: view.contextValue, expandable: view.expandable });

describe('a lighter wire: the rows ask only for what they draw', () => {
  const whole = wholeTasks(600);

  it('a row reads no field of a task record that the listing did not ask for (a batch parent: its counts, read apart)', () => {
    for (const task of whole) {
      const read = new Set<string>();
      const listed = new Proxy(strip(task, TASK_ROW_FIELDS), {
        get(target, key, receiver) {
          if (typeof key === 'string') read.add(key);
          return Reflect.get(target, key, receiver);
        },
      });
      taskView(listed, { now: NOW, hasOutputs: offersOutputs(listed, false), tooltip: false });
      // `outputs` is only asked whether it was read (it was not); a batch parent's counts come from its whole record.
      const extra = [...read].filter((k) => !TASK_ROW_FIELDS.includes(k) && k !== 'outputs' && !(k === 'execution_status' && task.batch));
      assert.deepStrictEqual(extra, [], `${task.status}${task.batch ? ' batch' : ''} task ${task.id} reads ${extra.join(', ')}`);
    }
  });

  it('each row of a listing draws as it does from the whole record, and the listing asks for no more than TASK_LIST_FIELDS', async () => {
    const platform = new Platform(whole);
    const model = tree(platform);
    // The same tree over a source that only lists: its rows drawn from the whole records given.
    const store = memoryState();
    const listsOnly = { list: platform.list.bind(platform), next: platform.next.bind(platform), count: platform.count.bind(platform) };
    const fromWholeModel = new TaskTreeModel({ source: listsOnly, filter: new FilterModel(store), store, signedIn: () => true, now: () => NOW });
    await model.getChildren();
    for (const status of ['COMPLETED', 'FAILED', 'RUNNING', 'QUEUED', 'DRAFT', 'ABORTED'] as const) {
      const group = model.group(status);
      const rows = (await model.getChildren(group)) as TaskNode[];
      await model.settled();
      for (const row of rows.filter((r) => r.kind === 'task')) {
        const full = whole.find((t) => t.id === row.task.id)!;
        const fromWhole = drawn(fromWholeModel.rowView(new TaskNode(full, group)));
        const expected = { ...fromWhole, contextValue: fromWhole.contextValue.replace(/\bhasOutputs\b ?/, '') };
        const got = drawn(model.rowView(row));
        // The one token that may differ: a completed task whose outputs were not read is offered them.
        const gotWithout = { ...got, contextValue: got.contextValue.replace(/\bhasOutputs\b ?/, '') };
        assert.deepStrictEqual(gotWithout, expected, `${status} task ${full.id}`);
        if (fromWhole.contextValue.includes('hasOutputs')) assert.match(got.contextValue, /\bhasOutputs\b/, 'a task with outputs offers them');
      }
    }
    for (const call of platform.calls.filter((c) => c.startsWith('bulk'))) assert.ok(Number(call.split(' ')[1]) <= 100);
    assert.strictEqual(TASK_LIST_FIELDS, TASK_ROW_FIELDS.join(','));
  });

  it('reads the batch parents of a page in one request, as the page arrives, and draws their counts', async () => {
    const platform = new Platform(whole);
    const model = tree(platform);
    await model.getChildren();
    const group: GroupNode = model.group('COMPLETED');
    await model.getChildren(group);
    await model.settled();
    const parents = group.list.items.filter((t) => t.batch);
    assert.ok(parents.length > 0, 'the page holds batch parents');
    assert.deepStrictEqual(platform.calls.filter((c) => !c.startsWith('list')), [`bulk ${parents.length}`]);
    const row = [...group.taskNodes.values()].find((n) => n.task.batch && n.task.execution_status?.completed)!;
    assert.match(model.rowView(row).description, /\d+ done/);
    // Opening again, or a redraw, reads nothing more.
    await model.getChildren(group);
    await model.settled();
    assert.strictEqual(platform.calls.filter((c) => c.startsWith('bulk')).length, 1);
  });

  it('a model disposed before its batch counts are read asks for nothing more (a view closed, a window reloading)', async () => {
    const platform = new Platform(whole);
    const model = tree(platform);
    await model.getChildren();
    await model.getChildren(model.group('COMPLETED'));
    model.dispose();
    await model.settled();
    assert.deepStrictEqual(platform.calls.filter((c) => c.startsWith('bulk')), []);
  });

  it('a tooltip is read on hover, once per task while its record is current; a row whose whole record is at hand needs no request', async () => {
    const platform = new Platform(whole);
    const model = tree(platform);
    await model.getChildren();
    const group = model.group('FAILED');
    const rows = ((await model.getChildren(group)) as TaskNode[]).filter((r) => r.kind === 'task');
    await model.settled();
    const plain = rows.find((r) => !r.task.batch)!;
    assert.strictEqual(model.rowView(plain).tooltipOnHover, true);
    const before = platform.calls.length;
    const tooltip = await model.resolveTooltip(plain);
    const full = whole.find((t) => t.id === plain.task.id)!;
    assert.strictEqual(tooltip, taskTooltip(full, NOW), 'the same tooltip as from the whole record');
    assert.deepStrictEqual(platform.calls.slice(before), [`get ${plain.task.id}`]);
    await model.resolveTooltip(plain);
    assert.strictEqual(platform.calls.length, before + 1, 'the second hover costs nothing');
    // Its whole record known, the row draws its tooltip at once, and a completed task's outputs are known.
    assert.ok(!model.rowView(plain).tooltipOnHover);
    const parent = rows.find((r) => r.task.batch);
    if (parent) {
      assert.ok(!model.rowView(parent).tooltipOnHover, "a batch parent's whole record was read for its counts");
      assert.strictEqual(model.rowView(parent).tooltip, taskTooltip(whole.find((t) => t.id === parent.task.id)!, NOW));
    }
  });

  it('a hover whose read fails shows what the listing holds and why the rest is missing', async () => {
    const platform = new Platform(whole);
    platform.get = async () => {
      throw new Error('unreachable');
    };
    const model = tree(platform);
    await model.getChildren();
    const rows = ((await model.getChildren(model.group('QUEUED'))) as TaskNode[]).filter((r) => r.kind === 'task' && !r.task.batch);
    const tooltip = (await model.resolveTooltip(rows[0]))!;
    assert.ok(tooltip.startsWith(taskTooltip(rows[0].task, NOW)));
    assert.match(tooltip, /The rest could not be read: unreachable/);
  });

  it('whole records: 100 IDs a request, the kept ones free while current, those of active tasks forgotten at a refresh', async () => {
    const platform = new Platform(whole);
    const records = new TaskRecords(platform);
    const listed = whole.slice(0, 250).map((t) => strip(t, TASK_ROW_FIELDS));
    const read = await records.many(listed);
    assert.strictEqual(read.size, 250);
    assert.deepStrictEqual(platform.calls, ['bulk 100', 'bulk 100', 'bulk 50']);
    await records.many(listed);
    assert.strictEqual(platform.calls.length, 3, 'kept');
    // A task that moved on (another status, an end) is read again.
    const moved = { ...listed[0], status: 'ABORTED' as const, end_time: '2026-03-01T00:00:00Z' };
    await records.many([moved]);
    assert.deepStrictEqual(platform.calls.slice(3), ['bulk 1']);
    const active = listed.filter((t) => isActive(t.status));
    records.forgetActive();
    await records.many(listed);
    assert.deepStrictEqual(platform.calls.slice(4), active.length ? [`bulk ${active.length}`] : []);
  });
});
