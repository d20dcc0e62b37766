// Find Task: the tasks under the filter by name, page by page as they arrive (the platform has no name filter,
// platform-api.md §10.3, but orders by name). No `vscode` import.

import type { TaskListQuery } from '../api/tasks';
import type { Task } from '../api/types';
import { withoutOrder, type CostSource } from './cost';

/** What a found task shows and what opening it reads. */
export const FIND_TASK_FIELDS = 'id,name,status,project,batch,parent,created_time,start_time,end_time,execution_status,price';

/** Stop after this many tasks: a name typed narrows a list this long at once; past it, filter first. */
export const FIND_TASK_MAX = 10_000;

export interface NamePagesOptions {
  signal?: AbortSignal;
  /** Waits before each page after the first while the API budget asks bulk work to hold back. */
  beforePage?: () => Promise<void>;
  max?: number;
  /** The fields each task is read with (default: what Find Task shows). */
  fields?: string;
}

/**
 * The tasks of `query` (its filters; its order replaced by the name's), 100 a page, each page as it arrives, following
 * the `next` links until the end, `max` tasks, or the signal.
 */
export async function* namePages(source: CostSource, query: TaskListQuery, options: NamePagesOptions = {}): AsyncGenerator<{ items: Task[]; total: number | undefined }> {
  const max = options.max ?? FIND_TASK_MAX;
  let page = await source.list({ ...withoutOrder(query), order_by: 'name', order: 'asc', fields: options.fields ?? FIND_TASK_FIELDS }, { offset: 0, limit: 100, signal: options.signal });
  const total = page.total;
  let seen = 0;
  for (;;) {
    const items = page.items.slice(0, max - seen);
    seen += items.length;
    yield { items, total };
    if (!page.next || !page.items.length || seen >= max || options.signal?.aborted) return;
    await options.beforePage?.();
    page = await source.next(page.next, options.signal);
  }
}
