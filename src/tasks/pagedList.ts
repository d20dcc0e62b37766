// One paged listing of tasks (a status group, or a batch parent's children): 100 a page, newest first,
// one page request at a time so a double click on "Load more" does not load a page twice.

import type { TaskListQuery } from '../api/tasks';
import type { Page, Task } from '../api/types';

export const PAGE_SIZE = 100;

/** The part of the client a listing needs (SbClient's `tasks`, or a test double). */
export interface TaskSource {
  list(query: TaskListQuery, page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<Task>>;
  next(url: string, signal?: AbortSignal): Promise<Page<Task>>;
}

export class PagedList {
  private itemsById = new Map<string, Task>();
  private order: string[] = [];
  private nextUrl: string | undefined;
  private totalCount: number | undefined;
  private pending: Promise<void> | undefined;
  private failure: unknown;
  private loadedOnce = false;
  private controller = new AbortController();

  constructor(
    private readonly source: TaskSource,
    private query: () => TaskListQuery,
  ) {}

  get items(): Task[] {
    return this.order.map((id) => this.itemsById.get(id)!);
  }
  get total(): number | undefined {
    return this.totalCount;
  }
  get error(): unknown {
    return this.failure;
  }
  get loaded(): boolean {
    return this.loadedOnce;
  }
  get loading(): boolean {
    return this.pending !== undefined;
  }
  /** How many tasks are left to load, when the total is known. */
  get left(): number | undefined {
    return this.totalCount === undefined ? undefined : Math.max(0, this.totalCount - this.order.length);
  }
  get hasMore(): boolean {
    if (this.nextUrl) return true;
    return this.totalCount !== undefined && this.order.length < this.totalCount;
  }

  /** Loads the first page unless it is loaded or loading. */
  ensureLoaded(): Promise<void> {
    // After a failure this does not retry by itself: the tree asks for children again on every render.
    if (this.loadedOnce) return Promise.resolve();
    return this.pending ?? this.reload();
  }

  /** The next page, appended; a call while a page is loading waits for that one instead of starting another. */
  loadMore(): Promise<void> {
    if (this.pending) return this.pending;
    if (!this.loadedOnce || (this.failure && !this.order.length)) return this.reload();
    if (!this.hasMore) return Promise.resolve();
    return this.run(async (signal) => {
      const page = this.nextUrl
        ? await this.source.next(this.nextUrl, signal)
        : await this.source.list(this.query(), { offset: this.order.length, limit: PAGE_SIZE, signal });
      if (signal.aborted) return;
      this.append(page);
    });
  }

  /**
   * Loads again from the start, as many tasks as were shown (in pages of 100, at most `maxPages`), replacing
   * what was there only once the answer is in, so the tree never flickers to empty.
   */
  reload(maxPages = 1): Promise<void> {
    this.controller.abort();
    this.controller = new AbortController();
    const wanted = Math.max(1, Math.min(maxPages, Math.ceil(this.order.length / PAGE_SIZE)));
    const promise = this.run(async (signal) => {
      let page = await this.source.list(this.query(), { offset: 0, limit: PAGE_SIZE, signal });
      const fresh = new PagedList(this.source, this.query);
      fresh.append(page);
      for (let i = 1; i < wanted && fresh.hasMore; i++) {
        page = page.next
          ? await this.source.next(page.next, signal)
          : await this.source.list(this.query(), { offset: fresh.order.length, limit: PAGE_SIZE, signal });
        fresh.append(page);
      }
      // A source that ignores the signal may still answer after a newer reload or a reset: keep its answer out.
      if (signal.aborted) return;
      this.itemsById = fresh.itemsById;
      this.order = fresh.order;
      this.nextUrl = fresh.nextUrl;
      this.totalCount = fresh.totalCount;
      this.loadedOnce = true;
    }, true);
    return promise;
  }

  /** Replaces a listed task with a newer record of it (after an action); a task not listed is left out. */
  replace(task: Task): boolean {
    const old = this.itemsById.get(task.id);
    if (!old) return false;
    this.itemsById.set(task.id, readableTask({ ...old, ...task }));
    return true;
  }

  /** Forgets everything and stops any request in flight. */
  reset(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.itemsById = new Map();
    this.order = [];
    this.nextUrl = undefined;
    this.totalCount = undefined;
    this.failure = undefined;
    this.loadedOnce = false;
    this.pending = undefined;
  }

  /** Ids, statuses and end times of what is shown: compared before and after a refresh to tell if anything changed. */
  signature(): string {
    return `${this.totalCount}|` + this.items.map((t) => `${t.id}:${t.status}:${t.end_time ?? ''}:${JSON.stringify(t.execution_status ?? '')}`).join(',');
  }

  private run(work: (signal: AbortSignal) => Promise<void>, replace = false): Promise<void> {
    const signal = this.controller.signal;
    const promise = work(signal).then(
      () => {
        if (signal.aborted) return;
        this.failure = undefined;
      },
      (error: unknown) => {
        if (signal.aborted) return;
        this.failure = error;
        if (replace) this.loadedOnce = true;
      },
    );
    const tracked = promise.finally(() => {
      if (this.pending === tracked) this.pending = undefined;
    });
    this.pending = tracked;
    return tracked;
  }

  private append(page: Page<Task>): void {
    for (const task of page.items) {
      if (typeof task.id !== 'string') continue;
      // A task can shift to a later page when newer ones arrive between requests; keep its first position.
      if (!this.itemsById.has(task.id)) this.order.push(task.id);
      this.itemsById.set(task.id, readableTask(task));
    }
    this.nextUrl = page.next;
    if (page.total !== undefined) this.totalCount = page.total;
    else if (!page.next) this.totalCount = this.order.length;
    this.loadedOnce = true;
  }
}

const TEXT_FIELDS = ['name', 'status', 'project', 'app', 'type', 'created_by', 'executed_by', 'created_time', 'start_time', 'end_time'] as const;

/**
 * The task as the nodes can show it: a text field that is not a string in the platform's answer (broken or
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
