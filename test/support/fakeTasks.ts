// An in-memory fake of the part of the client the task models read (counts, listings, a record, its jobs), for the
// models' unit tests: it filters and orders as the platform does (status exactly, project, parent, created time;
// newest first), cuts pages by offset and limit, and records every call in a short form the tests compare.
import { ApiError } from '../../src/api/errors';
import type { TaskListQuery } from '../../src/api/tasks';
import type { ExecutionDetails, Page, Task } from '../../src/api/types';

/** A task ID (a UUID) ending in `n`. */
export const taskId = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A task record: `n` names it ("task n") and orders it (a higher n was created later). */
export function task(n: number, status: string, more: Partial<Task> = {}): Task {
  return { href: '', id: taskId(n), name: `task ${n}`, status, project: 'me/alpha', created_time: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().replace('.000', ''), ...more };
}

export class FakeTasks {
  /** `count status=RUNNING`, `list status=COMPLETED 0+100`, `get <id>`, `details <id>`: every call, in order. */
  readonly calls: string[] = [];
  /** A call that fails, by the start of its short form (`count status=FAILED`), with what it throws. */
  readonly failures = new Map<string, unknown>();
  /** The queries the `next` links carry forward. */
  private readonly links: TaskListQuery[] = [];

  constructor(readonly tasks: Task[]) {}

  async count(query: TaskListQuery): Promise<number> {
    this.call(`count ${describe(query)}`);
    return this.matching(query).length;
  }

  async list(query: TaskListQuery, page: { offset?: number; limit?: number } = {}): Promise<Page<Task>> {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? 25;
    this.call(`list ${describe(query)} ${offset}+${limit}`);
    const matching = this.matching(query);
    // A `next` link while more remain, as the platform gives one: absolute, carrying the query (here: a link number), offset and limit.
    const next = offset + limit < matching.length ? `https://fake.test/v2/tasks?link=${this.links.push(query) - 1}&offset=${offset + limit}&limit=${limit}` : undefined;
    return { items: matching.slice(offset, offset + limit), total: matching.length, next };
  }

  /** A `next` link, or one the client moved to another offset of the same listing (its query carried forward). */
  async next(url: string): Promise<Page<Task>> {
    const params = new URL(url).searchParams;
    return this.list(this.links[Number(params.get('link'))], { offset: Number(params.get('offset')), limit: Number(params.get('limit')) });
  }

  async get(id: string): Promise<Task> {
    this.call(`get ${id}`);
    const found = this.tasks.find((t) => t.id === id);
    if (!found) throw new ApiError({ kind: 'http', status: 404, code: 9001, message: 'Task not found' });
    return found;
  }

  async executionDetails(id: string): Promise<ExecutionDetails> {
    this.call(`details ${id}`);
    return { jobs: [{ name: 'align', status: 'FAILED', logs: { 'job.err.log': `https://api/files/${'a'.repeat(24)}/download` } }] };
  }

  private call(text: string): void {
    this.calls.push(text);
    for (const [start, error] of this.failures) if (text.startsWith(start)) throw error;
  }

  /** Whether a task of `status` is listed for the `status` filter: exactly, as the platform documents it. */
  protected listedUnder(status: string | undefined, filter: string): boolean {
    return status === filter;
  }

  private matching(query: TaskListQuery): Task[] {
    return this.tasks
      .filter((t) => (query.status === undefined || this.listedUnder(t.status, query.status)) && (query.project === undefined || t.project === query.project))
      .filter((t) => (query.parent === undefined ? true : t.parent === query.parent))
      .filter((t) => (query.created_from === undefined || (t.created_time ?? '') >= query.created_from) && (query.created_to === undefined || (t.created_time ?? '') <= query.created_to))
      .sort((a, b) => (b.created_time ?? '').localeCompare(a.created_time ?? ''));
  }
}

/** The query's filters, in a fixed order: `status=RUNNING project=me/alpha`. */
function describe(query: TaskListQuery): string {
  const parts = (['status', 'project', 'parent', 'created_from', 'created_to'] as const).filter((k) => query[k] !== undefined).map((k) => `${k}=${query[k]}`);
  return parts.length ? parts.join(' ') : 'all';
}
