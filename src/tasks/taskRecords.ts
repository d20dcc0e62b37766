// Whole task records, read when something needs more than a row's fields (a tooltip, a batch parent's counts, a menu
// over several rows): one GET for one task, `POST /v2/bulk/tasks/get` 100 a request for several, each kept while the
// listed record says it is current (the same status, start and end). Records of tasks still queued or running change
// without that (progress, price): `forgetActive` marks them at each refresh, to be read again, and drawn as they were
// until then (a batch parent's counts never blink out). No `vscode` import.

import { MAX_BULK_IDS } from '../api/tasks';
import { isActive, type BulkTaskItem, type Task } from '../api/types';
import { readableTask } from './taskListing';

/** Where whole records come from (SbClient's `tasks`, or a test double). */
export interface TaskRecordSource {
  get(id: string, signal?: AbortSignal): Promise<Task>;
  bulkGet(ids: readonly string[], signal?: AbortSignal): Promise<BulkTaskItem[]>;
}

/** Whether a source can read whole records too (SbClient's `tasks` can). */
export function isRecordSource(source: object): source is TaskRecordSource {
  const s = source as Partial<TaskRecordSource>;
  return typeof s.get === 'function' && typeof s.bulkGet === 'function';
}

/** Records kept at most; the oldest go first. */
export const KEPT_RECORDS = 5_000;

/** What tells whether a kept record is still the listed task's: its status, start and end. */
export function currentKey(task: Pick<Task, 'status' | 'start_time' | 'end_time'>): string {
  return `${task.status ?? ''}|${task.start_time ?? ''}|${task.end_time ?? ''}`;
}

export class TaskRecords {
  /** `stale`: a task still active when a refresh began; drawn, but read again before anything relies on it. */
  private readonly kept = new Map<string, { key: string; task: Task; stale?: boolean }>();
  private readonly reading = new Map<string, Promise<Task>>();
  /** Requests sent, for tests and the bench. */
  requests = 0;

  constructor(
    private readonly source: TaskRecordSource,
    private readonly max = KEPT_RECORDS,
  ) {}

  /** The whole record kept for this listed task, if it is still current. */
  current(listed: Pick<Task, 'id' | 'status' | 'start_time' | 'end_time'>): Task | undefined {
    const entry = this.kept.get(listed.id);
    return entry && !entry.stale && entry.key === currentKey(listed) ? entry.task : undefined;
  }

  /**
   * The listed record with what a kept whole record adds (the listed fields win: they are as new or newer), for drawing
   * it: a record marked by `forgetActive` counts until it is read again.
   */
  known<T extends Task>(listed: T): T {
    const entry = this.kept.get(listed.id);
    return entry && entry.key === currentKey(listed) ? { ...entry.task, ...listed } : listed;
  }

  /** Keeps a whole record read elsewhere (opening a task reads it). */
  put(task: Task): void {
    if (typeof task?.id !== 'string') return;
    const readable = readableTask(task);
    this.kept.delete(task.id);
    this.kept.set(task.id, { key: currentKey(readable), task: readable });
    while (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
  }

  /** The whole record of one listed task: the kept one when current (no request), else one GET (shared while it runs). */
  async one(listed: Pick<Task, 'id' | 'status' | 'start_time' | 'end_time'>, signal?: AbortSignal): Promise<Task> {
    const whole = this.current(listed);
    if (whole) return whole;
    let pending = this.reading.get(listed.id);
    if (!pending) {
      this.requests++;
      pending = this.source.get(listed.id, signal).then((task) => {
        this.put(task);
        return readableTask(task);
      });
      const tracked = pending.finally(() => {
        if (this.reading.get(listed.id) === tracked) this.reading.delete(listed.id);
      });
      this.reading.set(listed.id, tracked);
      pending = tracked;
    }
    return pending;
  }

  /**
   * The whole records of several listed tasks, by ID: the kept ones, and the others read 100 a request
   * (`POST /v2/bulk/tasks/get`). A task the platform answers with an error (gone, not shared) is left out.
   */
  async many(listed: readonly Pick<Task, 'id' | 'status' | 'start_time' | 'end_time'>[], signal?: AbortSignal): Promise<Map<string, Task>> {
    const found = new Map<string, Task>();
    const missing: string[] = [];
    for (const task of listed) {
      const whole = this.current(task);
      if (whole) found.set(task.id, whole);
      else if (!missing.includes(task.id)) missing.push(task.id);
    }
    for (let i = 0; i < missing.length; i += MAX_BULK_IDS) {
      this.requests++;
      const items = await this.source.bulkGet(missing.slice(i, i + MAX_BULK_IDS), signal);
      for (const item of items) {
        const task = item.resource;
        if (!task || typeof task.id !== 'string') continue;
        this.put(task);
        found.set(task.id, readableTask(task));
      }
    }
    return found;
  }

  /** Marks the records of tasks still queued, running or in between to be read again: they change under the same status. */
  forgetActive(): void {
    for (const entry of this.kept.values()) if (isActive(entry.task.status) || entry.task.status === undefined) entry.stale = true;
  }

  clear(): void {
    this.kept.clear();
  }
}
