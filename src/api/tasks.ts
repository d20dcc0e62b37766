import { ApiError } from './errors';
import { isProjectId, isTaskId } from './ids';
import { parseFilterTimestamp } from './timestamps';
import type { Credentials, Transport } from './transport';
import { TASK_STATUSES, type Page, type Task, type TaskStatus } from './types';

export const TIME_BOUNDS = ['created_from', 'created_to', 'started_from', 'started_to', 'ended_from', 'ended_to'] as const;
export type TimeBound = (typeof TIME_BOUNDS)[number];
export const TASK_ORDER_COLUMNS = ['created_time', 'start_time', 'end_time', 'name', 'created_by'] as const;

/** The filters of `GET /v2/tasks` (contract §3); all optional, combined with AND. */
export type TaskListQuery = Partial<Record<TimeBound, string>> & {
  status?: TaskStatus;
  parent?: string;
  project?: string;
  order_by?: (typeof TASK_ORDER_COLUMNS)[number];
  order?: 'asc' | 'desc';
  origin_id?: string;
  fields?: string;
};

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
    return this.transport.page<Task>('tasks', { query: { ...checkTaskQuery(query), offset: page.offset, limit: page.limit }, signal: page.signal });
  }

  /** The number of tasks matching a query, from one request of one item. */
  async count(query: TaskListQuery, signal?: AbortSignal): Promise<number> {
    const page = await this.list({ ...query, fields: 'id' }, { limit: 1, signal });
    if (page.total === undefined) throw new ApiError({ kind: 'malformed', message: 'the task list did not say how many tasks match (X-Total-Matching-Query)' });
    return page.total;
  }

  async get(id: string, signal?: AbortSignal): Promise<Task> {
    if (!isTaskId(id)) throw invalid(`"${id}" is not a task ID (a UUID).`);
    return (await this.transport.get<Task>(`tasks/${id}`, { signal })).body;
  }

  /** Continues a listing from its `next` link. */
  next(url: string, signal?: AbortSignal): Promise<Page<Task>> {
    return this.transport.page<Task>(url, { signal });
  }
}

/** Refuses, before sending, any filter value the API would reject. Returns the query as it will be sent. */
export function checkTaskQuery(query: TaskListQuery): Record<string, string | undefined> {
  if (query.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(query.status)) {
    throw invalid(`"${query.status}" is not a task status (one of ${TASK_STATUSES.join(', ')}).`);
  }
  if (query.parent !== undefined && !isTaskId(query.parent)) throw invalid(`"${query.parent}" is not a task ID (a UUID).`);
  if (query.project !== undefined && !isProjectId(query.project)) throw invalid(`"${query.project}" is not a project ID (owner/project).`);
  const sent: Record<string, string | undefined> = { ...query };
  for (const bound of TIME_BOUNDS) {
    const value = query[bound];
    if (value === undefined) continue;
    const check = parseFilterTimestamp(value);
    if (!check.ok) throw invalid(`${bound}: ${check.reason}`);
    // Send the value that was checked: parseFilterTimestamp ignores surrounding blanks, the platform does not.
    sent[bound] = value.trim();
  }
  if (query.order_by !== undefined && !(TASK_ORDER_COLUMNS as readonly string[]).includes(query.order_by)) {
    throw invalid(`order_by: "${query.order_by}" is not a column to order by (one of ${TASK_ORDER_COLUMNS.join(', ')}).`);
  }
  if (query.order !== undefined && query.order !== 'asc' && query.order !== 'desc') throw invalid(`order is asc or desc, not "${query.order}".`);
  if (query.order !== undefined && query.order_by === undefined) throw invalid('order needs order_by.');
  return sent;
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}
