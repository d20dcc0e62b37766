// A listing of tasks (a status group, a batch parent's children) on the one paged loader: the task query it
// sends, and the records as the rows can show them. No `vscode` import.

import { PagedLoader, recordKey } from '../api/pagedLoader';
import type { TaskListQuery } from '../api/tasks';
import type { Page, Task } from '../api/types';

/** The part of the client a listing needs (SbClient's `tasks`, or a test double). */
export interface TaskSource {
  list(query: TaskListQuery, page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<Task>>;
  next(url: string, signal?: AbortSignal): Promise<Page<Task>>;
}

export type TaskListing = PagedLoader<Task>;

/**
 * The fields list requests ask for: what a row draws (label, description, icon, the menus' tokens) and the order,
 * nothing more. What else a row of a batch parent draws (its children's counts) is read with its whole record
 * (TaskRecords, 100 a request); a tooltip reads its task's whole record when hovered; a command over rows reads
 * theirs (TaskRecords). test/unit/tasks/rowFields.test.ts fails when a row reads a field not listed here.
 */
export const TASK_LIST_FIELDS = 'id,name,status,project,created_time,start_time,end_time,batch';

/** The fields of TASK_LIST_FIELDS, each once. */
export const TASK_ROW_FIELDS: readonly string[] = TASK_LIST_FIELDS.split(',');

/**
 * Tasks of `query()` (read at each request, so a new filter applies to the next load), 100 a page. `onPage` sees each
 * page's records as they are listed (the tree reads the batch parents' counts from there); `readAhead` says how many
 * pages to keep on their way ahead of "Load more" once it was asked for (PagedLoader).
 */
export function taskListing(source: TaskSource, query: () => TaskListQuery, onPage?: (tasks: Task[]) => void, readAhead?: () => number): TaskListing {
  return new PagedLoader<Task>(
    {
      page: (offset, limit, signal) => source.list(query(), { offset, limit, signal }),
      next: (url, signal) => source.next(url, signal),
    },
    { key: recordKey, readable: readableTask, onAppend: onPage, readAhead },
  );
}

const TEXT_FIELDS = ['name', 'status', 'project', 'app', 'type', 'created_by', 'executed_by', 'created_time', 'start_time', 'end_time'] as const;

/**
 * The task as the rows can show it: a text field that is not a string in the platform's answer (broken or
 * hostile) is left out rather than crash the view (`status.charAt`, `escapeMarkdown(name)`), and so is an
 * execution status that is not an object or whose message is not text.
 */
export function readableTask(raw: Task): Task {
  const task: Task = { ...raw };
  for (const key of TEXT_FIELDS) if (task[key] !== undefined && typeof task[key] !== 'string') delete task[key];
  if (task.parent != null && typeof task.parent !== 'string') delete task.parent;
  if (task.batch !== undefined && typeof task.batch !== 'boolean') delete task.batch;
  const es: unknown = task.execution_status;
  if (es !== undefined && (es === null || typeof es !== 'object' || Array.isArray(es))) delete task.execution_status;
  else if (task.execution_status && task.execution_status.message !== undefined && typeof task.execution_status.message !== 'string') {
    task.execution_status = { ...task.execution_status };
    delete task.execution_status.message;
  }
  return task;
}
