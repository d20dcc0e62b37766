import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { isAppId, isProjectId, isTaskId, notAppId, notProjectId, notTaskId } from './ids';
import { parseFilterTimestamp } from './timestamps';
import type { Call, Credentials, Transport } from './transport';
import { TASK_STATUSES, type BulkTaskItem, type DraftChanges, type ExecutionDetails, type NewTask, type Page, type Task, type TaskStatus } from './types';

export const TIME_BOUNDS = ['created_from', 'created_to', 'started_from', 'started_to', 'ended_from', 'ended_to'] as const;
export type TimeBound = (typeof TIME_BOUNDS)[number];
export const TASK_ORDER_COLUMNS = ['created_time', 'start_time', 'end_time', 'name', 'created_by'] as const;

/** The filters of `GET /v2/tasks` (platform-api.md §3); all optional, combined with AND. */
export type TaskListQuery = Partial<Record<TimeBound, string>> & {
  status?: TaskStatus;
  parent?: string;
  project?: string;
  order_by?: (typeof TASK_ORDER_COLUMNS)[number];
  order?: 'asc' | 'desc';
  origin_id?: string;
  fields?: string;
};

export const MAX_BULK_IDS = 100;

/** abort, run (a draft), or rerun (clone and run the copy, keeping the original). */
export type TaskActionKind = 'abort' | 'run' | 'rerun';

export interface PageRequest {
  offset?: number;
  limit?: number;
  signal?: AbortSignal;
  /** Ask as this account and no other (see `RequestOptions.credentials`). */
  credentials?: Credentials;
}

export class TasksApi {
  constructor(private readonly transport: Transport) {}

  // async: a refused filter value arrives as a rejected promise, like every other failure.
  async list(query: TaskListQuery, page: PageRequest = {}): Promise<Page<Task>> {
    return this.transport.page<Task>('tasks', {
      query: { ...checkTaskQuery(query), offset: page.offset, limit: page.limit },
      signal: page.signal,
      credentials: page.credentials,
    });
  }

  /** The number of tasks matching a query, from one request of one item. */
  async count(query: TaskListQuery, signal?: AbortSignal): Promise<number> {
    const page = await this.list({ ...query, fields: 'id' }, { limit: 1, signal });
    if (page.total === undefined) throw new ApiError({ kind: 'malformed', message: l10n.t('the task list did not say how many tasks match (X-Total-Matching-Query)') });
    return page.total;
  }

  async get(id: string, options: AbortSignal | Call = {}): Promise<Task> {
    if (!isTaskId(id)) throw invalid(notTaskId(id));
    return (await this.transport.get<Task>(`tasks/${id}`, options instanceof AbortSignal ? { signal: options } : options)).body;
  }

  /** The task's jobs, each with its instance and its logs (file URLs). */
  async executionDetails(id: string, signal?: AbortSignal): Promise<ExecutionDetails> {
    if (!isTaskId(id)) throw invalid(notTaskId(id));
    const body = (await this.transport.get<ExecutionDetails>(`tasks/${id}/execution_details`, { signal })).body;
    if (!body || typeof body !== 'object') throw new ApiError({ kind: 'malformed', message: l10n.t('the execution details are not an object') });
    return { ...body, jobs: Array.isArray(body.jobs) ? body.jobs.filter((j) => j !== null && typeof j === 'object') : [] };
  }

  /**
   * Up to 100 tasks in one request (`POST /v2/bulk/tasks/get`), one entry per ID in order. It only reads, so it
   * is repeated after a transient fault like a GET.
   */
  async bulkGet(ids: readonly string[], signal?: AbortSignal): Promise<BulkTaskItem[]> {
    if (ids.length > MAX_BULK_IDS) throw invalid(l10n.t('At most {0} tasks per bulk request ({1} given).', MAX_BULK_IDS, ids.length));
    const bad = ids.find((id) => !isTaskId(id));
    if (bad !== undefined) throw invalid(notTaskId(bad));
    if (!ids.length) return [];
    const body = (await this.transport.request<{ items?: unknown }>('POST', 'bulk/tasks/get', { body: { task_ids: ids }, signal, idempotent: true })).body;
    if (!body || !Array.isArray(body.items)) throw new ApiError({ kind: 'malformed', message: l10n.t('the bulk task answer has no items array') });
    return (body.items as unknown[]).filter((i): i is BulkTaskItem => !!i && typeof i === 'object' && ('resource' in i || 'error' in i));
  }

  /**
   * A task action: `abort` (RUNNING, QUEUED), `run` (DRAFT), `clone` (`run: true` runs the copy at once).
   * One POST, never repeated here: a lost answer may still have moved the task (see the write path).
   */
  async action(kind: TaskActionKind, id: string, options: Call = {}): Promise<Task> {
    if (!isTaskId(id)) throw invalid(notTaskId(id));
    const path = kind === 'rerun' ? `tasks/${id}/actions/clone` : `tasks/${id}/actions/${kind}`;
    const query = kind === 'rerun' ? { action: 'run' } : undefined;
    const body = (await this.transport.post<Task>(path, undefined, { ...options, query })).body;
    if (!body || typeof body !== 'object' || typeof body.id !== 'string') {
      throw new ApiError({ kind: 'malformed', message: l10n.t({ message: 'the answer to the {0} of task {1} is not a task', args: [kind, id], comment: ['{0}: abort, run or rerun (the API action)'] }), maybeDelivered: true });
    }
    return body;
  }

  /**
   * Makes a task (`POST /v2/tasks`): a DRAFT, or with `run` one run at once. A run the platform cannot start (an input
   * not set, a file gone) still makes the task: it comes back DRAFT with the reasons in `errors`. Sent once, never
   * repeated here: a lost answer may still have made the task (see the write path).
   */
  async create(task: NewTask, options: Call & { run?: boolean } = {}): Promise<Task> {
    if (!isProjectId(task.project)) throw invalid(notProjectId(task.project));
    if (!isAppId(task.app)) throw invalid(notAppId(task.app));
    const { run, ...call } = options;
    return taskAnswer((await this.transport.post<Task>('tasks', task, { ...call, query: run ? { action: 'run' } : undefined })).body, l10n.t('the answer to the new task is not a task'));
  }

  /**
   * A copy of a task with its app and inputs (`POST /v2/tasks/{id}/actions/clone`), a DRAFT, or run at once with `run`
   * (it may come back DRAFT with the reasons in `errors`). The original stays. Sent once, never repeated here.
   */
  async clone(id: string, options: Call & { run?: boolean } = {}): Promise<Task> {
    if (!isTaskId(id)) throw invalid(notTaskId(id));
    const { run, ...call } = options;
    const body = (await this.transport.post<Task>(`tasks/${id}/actions/clone`, undefined, { ...call, query: run ? { action: 'run' } : undefined })).body;
    return taskAnswer(body, l10n.t('the answer to the copy of task {0} is not a task', id));
  }

  /** Changes a DRAFT (`PATCH /v2/tasks/{id}`): name, description, inputs (the whole map), settings. */
  async updateDraft(id: string, changes: DraftChanges, options: Call = {}): Promise<Task> {
    if (!isTaskId(id)) throw invalid(notTaskId(id));
    return taskAnswer((await this.transport.request<Task>('PATCH', `tasks/${id}`, { ...options, body: changes })).body, l10n.t('the answer to the change of task {0} is not a task', id));
  }

  /** Continues a listing from its `next` link. */
  next(url: string, signal?: AbortSignal): Promise<Page<Task>> {
    return this.transport.page<Task>(url, { signal });
  }
}

/** Refuses, before sending, any filter value the API would reject. Returns the query as it will be sent. */
export function checkTaskQuery(query: TaskListQuery): Record<string, string | undefined> {
  if (query.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(query.status)) {
    throw invalid(l10n.t('"{0}" is not a task status (one of {1}).', query.status, TASK_STATUSES.join(', ')));
  }
  if (query.parent !== undefined && !isTaskId(query.parent)) throw invalid(notTaskId(query.parent));
  if (query.project !== undefined && !isProjectId(query.project)) throw invalid(notProjectId(query.project));
  const sent: Record<string, string | undefined> = { ...query };
  for (const bound of TIME_BOUNDS) {
    const value = query[bound];
    if (value === undefined) continue;
    const check = parseFilterTimestamp(value);
    if (!check.ok) throw invalid(l10n.t({ message: '{0}: {1}', args: [bound, check.reason], comment: ['{0}: a filter name of the API (created_from, …); {1}: why its value is refused'] }));
    // Send the value that was checked: parseFilterTimestamp ignores surrounding blanks, the platform does not.
    sent[bound] = value.trim();
  }
  if (query.order_by !== undefined && !(TASK_ORDER_COLUMNS as readonly string[]).includes(query.order_by)) {
    throw invalid(l10n.t('order_by: "{0}" is not a column to order by (one of {1}).', query.order_by, TASK_ORDER_COLUMNS.join(', ')));
  }
  if (query.order !== undefined && query.order !== 'asc' && query.order !== 'desc') throw invalid(l10n.t('order is asc or desc, not "{0}".', query.order));
  if (query.order !== undefined && query.order_by === undefined) throw invalid(l10n.t('order needs order_by.'));
  return sent;
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}

/** A write's answer: a task with a text id, or an unreadable answer the write may still stand for. */
function taskAnswer(body: unknown, unreadable: string): Task {
  if (!body || typeof body !== 'object' || typeof (body as Task).id !== 'string') throw new ApiError({ kind: 'malformed', message: unreadable, maybeDelivered: true });
  return body as Task;
}
