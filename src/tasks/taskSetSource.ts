// The Tasks view's listings while the filter is a set of tasks made together (a sample sheet's, `TaskFilter.set`):
// the platform lists tasks by status, project, parent and time, never by ID, so the set's tasks are read 100 a request
// (`POST /v2/bulk/tasks/get`) and each group's count and pages taken from them; without a set, the platform's lists as
// they are. No `vscode` import.
import { PAGE_SIZE } from '../api/pagedLoader';
import { MAX_BULK_IDS, type TaskListQuery } from '../api/tasks';
import type { BulkTaskItem, Page, Task } from '../api/types';
import type { TaskFilter } from '../keys/state';
import { matchesFilter } from './filterModel';
import type { TaskCountSource } from './taskGroups';

export interface TaskSetReads extends TaskCountSource {
  bulkGet(ids: readonly string[], signal?: AbortSignal): Promise<BulkTaskItem[]>;
}

const createdAt = (t: Task): string => t.created_time ?? '';

export function taskSetSource(source: TaskSetReads, filter: () => TaskFilter, now: () => number): TaskCountSource {
  // The groups' counts are asked together: one read of the set serves them all while it is on its way.
  let reading: { ids: readonly string[]; tasks: Promise<Task[]> } | undefined;
  const members = (ids: readonly string[]): Promise<Task[]> => {
    if (reading?.ids === ids) return reading.tasks;
    const tasks = (async () => {
      const found: Task[] = [];
      for (let i = 0; i < ids.length; i += MAX_BULK_IDS) for (const item of await source.bulkGet(ids.slice(i, i + MAX_BULK_IDS))) if (item.resource) found.push(item.resource);
      return found;
    })();
    const entry = { ids, tasks };
    reading = entry;
    const done = () => {
      if (reading === entry) reading = undefined;
    };
    tasks.then(done, done);
    return tasks;
  };
  /** The set's tasks the query's group shows (its status; the filter's other parts), newest first. */
  const matching = async (query: TaskListQuery, set: NonNullable<TaskFilter['set']>): Promise<Task[]> =>
    (await members(set.ids))
      .filter((t) => (query.status === undefined || t.status === query.status) && matchesFilter(t, filter(), now()))
      .sort((a, b) => createdAt(b).localeCompare(createdAt(a)));
  return {
    async count(query, signal) {
      const set = filter().set;
      return set ? (await matching(query, set)).length : source.count(query, signal);
    },
    async list(query, page): Promise<Page<Task>> {
      const set = filter().set;
      if (!set) return source.list(query, page);
      const all = await matching(query, set);
      const offset = page.offset ?? 0;
      return { items: all.slice(offset, offset + (page.limit ?? PAGE_SIZE)), total: all.length, next: undefined };
    },
    next: (url, signal) => source.next(url, signal),
  };
}
