// A sample sheet's tasks as one set in the Tasks view (tasks/taskSetSource.ts, TaskFilter.set in tasks/filterModel.ts):
// read by ID, 100 a request, each group's count and pages from them; the filter kept, described and matched.
import * as assert from 'assert';
import type { TaskListQuery } from '../../../src/api/tasks';
import type { BulkTaskItem, Page, Task } from '../../../src/api/types';
import { describeFilter, matchesFilter, sanitizeFilter, type TaskFilter } from '../../../src/tasks/filterModel';
import { taskSetSource } from '../../../src/tasks/taskSetSource';
import { FilterModel } from '../../../src/tasks/filterModel';
import { memoryState } from '../../support/sharedState';

const id = (n: number) => `1f0e3c7a-0000-4000-8000-${String(n).padStart(12, '0')}`;
const task = (n: number, status: Task['status']): Task => ({ href: '', id: id(n), name: `t${n}`, status, project: 'rfranklin/rna-seq', created_time: `2026-11-28T10:${String(n % 60).padStart(2, '0')}:00Z` }) as Task;

function platform(tasks: Task[]) {
  const calls: string[] = [];
  return {
    calls,
    count: async (q: TaskListQuery) => (calls.push(`count ${q.status}`), 7),
    list: async (q: TaskListQuery): Promise<Page<Task>> => (calls.push(`list ${q.status}`), { items: [], total: 0, next: undefined }),
    next: async (): Promise<Page<Task>> => ({ items: [], total: 0, next: undefined }),
    bulkGet: async (ids: readonly string[]): Promise<BulkTaskItem[]> => {
      calls.push(`bulk ${ids.length}`);
      return ids.map((i) => {
        const t = tasks.find((x) => x.id === i);
        return t ? { resource: t } : { error: { status: 404 } };
      }) as BulkTaskItem[];
    },
  };
}

describe('A set of tasks in the Tasks view (a sample sheet\'s)', () => {
  const tasks = Array.from({ length: 150 }, (_, i) => task(i, i < 120 ? 'RUNNING' : 'FAILED'));
  const set: TaskFilter['set'] = { name: 'samples.csv', ids: [...tasks.map((t) => t.id), id(999)] };

  it('counts each group from one read of the set, 100 a request, shared by the counts asked together', async () => {
    const p = platform(tasks);
    const source = taskSetSource(p, () => ({ set }), () => Date.now());
    const [running, failed, all] = await Promise.all([source.count({ status: 'RUNNING' }), source.count({ status: 'FAILED' }), source.count({})]);
    assert.deepStrictEqual([running, failed, all], [120, 30, 150], 'a task the platform no longer has counts nowhere');
    assert.deepStrictEqual(p.calls, ['bulk 100', 'bulk 51']);
  });

  it('lists a group newest first, a page at a time, with the total', async () => {
    const source = taskSetSource(platform(tasks), () => ({ set }), () => Date.now());
    const first = await source.list({ status: 'FAILED' }, { offset: 0, limit: 20 });
    assert.strictEqual(first.total, 30);
    assert.strictEqual(first.items.length, 20);
    assert.ok(first.items.every((t, i) => i === 0 || (t.created_time ?? '') <= (first.items[i - 1].created_time ?? '')), 'newest first');
    assert.strictEqual((await source.list({ status: 'FAILED' }, { offset: 20, limit: 20 })).items.length, 10);
  });

  it('without a set, asks the platform as before', async () => {
    const p = platform(tasks);
    const source = taskSetSource(p, () => ({}), () => Date.now());
    assert.strictEqual(await source.count({ status: 'RUNNING' }), 7);
    await source.list({ status: 'RUNNING' }, {});
    assert.deepStrictEqual(p.calls, ['count RUNNING', 'list RUNNING']);
  });

  it('the filter: kept (IDs only), matched (a task made since, not of the set, is not shown), described', () => {
    const kept = sanitizeFilter({ set: { name: 'samples.csv', ids: [id(1), 'not an id', id(2)] } });
    assert.deepStrictEqual(kept, { set: { name: 'samples.csv', ids: [id(1), id(2)] } });
    assert.strictEqual(matchesFilter(task(1, 'RUNNING'), kept, Date.now()), true);
    assert.strictEqual(matchesFilter(task(3, 'RUNNING'), kept, Date.now()), false);
    assert.strictEqual(describeFilter(kept), 'sheet samples.csv, 2 tasks');
  });

  it('is kept in workspace state: a reload shows the same set; a damaged one is dropped', async () => {
    const store = memoryState();
    await new FilterModel(store).set({ set: { name: 'samples.csv', ids: [id(1), id(2)] } });
    assert.deepStrictEqual(new FilterModel(store).filter, { set: { name: 'samples.csv', ids: [id(1), id(2)] } });
    await store.update('sevenbridges.tasks.filter', { set: { name: 3, ids: [id(1)] }, project: 'rfranklin/rna-seq' });
    assert.deepStrictEqual(new FilterModel(store).filter, { project: 'rfranklin/rna-seq' });
  });
});
