// Watched tasks: the ones run or re-run here (automatically) and any the user chose to watch. One poll reads them
// all with POST /v2/bulk/tasks/get (100 per request: 50 watched tasks cost one request per round) and announces
// each that ended. Kept in global state per endpoint, so a reload keeps watching. No `vscode` import.

import { MAX_BULK_IDS } from '../api/tasks';
import { TERMINAL_TASK_STATUSES, type BulkTaskItem, type Task } from '../api/types';
import { Emitter } from '../util/emitter';
import type { StateStore } from '../util/stateStore';
import { STATE_KEYS } from '../keys/state';

export const NOTIFY_SETTING = 'sevenbridges.tasks.notifyWhenWatchedTasksEnd';
export type NotifyMode = 'all' | 'failures' | 'off';

export interface WatchedTask {
  id: string;
  name: string;
  endpoint: string;
  /** epoch ms */
  since: number;
  /** The status last seen. */
  status?: string;
}

export interface TaskEnded {
  task: Task;
  how: 'COMPLETED' | 'FAILED' | 'ABORTED';
}

export interface BulkSource {
  bulkGet(ids: readonly string[], signal?: AbortSignal): Promise<BulkTaskItem[]>;
}

export function notifyMode(value: unknown): NotifyMode {
  return value === 'failures' || value === 'off' ? value : 'all';
}

/** Whether an ending is worth a notification under the setting. */
export function shouldNotify(mode: NotifyMode, how: TaskEnded['how']): boolean {
  if (mode === 'off') return false;
  return mode === 'all' || how !== 'COMPLETED';
}

export class TaskWatcher {
  private readonly endedEmitter = new Emitter<TaskEnded>();
  private readonly changedEmitter = new Emitter<void>();
  /** Fires once for each watched task that ended; it is no longer watched then. */
  readonly onDidEnd = this.endedEmitter.event;
  /** Fires when the set of watched tasks changes. */
  readonly onDidChange = this.changedEmitter.event;

  constructor(
    private readonly source: BulkSource,
    private readonly store: StateStore,
    private readonly endpoint: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The tasks watched on the current endpoint. */
  list(): WatchedTask[] {
    return this.all().filter((w) => w.endpoint === this.endpoint());
  }

  isWatched(id: string): boolean {
    return this.list().some((w) => w.id === id);
  }

  async watch(task: Pick<Task, 'id' | 'name' | 'status'>): Promise<void> {
    if (task.status && TERMINAL_TASK_STATUSES.includes(task.status)) return;
    if (this.isWatched(task.id)) return;
    await this.save([...this.all(), { id: task.id, name: task.name || task.id, endpoint: this.endpoint(), since: this.now(), status: task.status }]);
  }

  async unwatch(id: string): Promise<void> {
    const endpoint = this.endpoint();
    await this.save(this.all().filter((w) => !(w.id === id && w.endpoint === endpoint)));
  }

  /**
   * Reads every watched task (one bulk request per 100) and announces those that ended. Resolves to whether
   * anything changed. A task the platform no longer knows is dropped.
   */
  async poll(signal?: AbortSignal): Promise<boolean> {
    const watched = this.list();
    if (!watched.length) return false;
    const seen = new Map<string, Task>();
    const gone = new Set<string>();
    for (let i = 0; i < watched.length; i += MAX_BULK_IDS) {
      const ids = watched.slice(i, i + MAX_BULK_IDS).map((w) => w.id);
      const items = await this.source.bulkGet(ids, signal);
      items.forEach((item, k) => {
        if (item.resource && typeof item.resource.id === 'string') seen.set(item.resource.id, item.resource);
        else if (item.error?.status === 404 && ids[k]) gone.add(ids[k]);
      });
    }
    const ended: TaskEnded[] = [];
    let changed = false;
    const endpoint = this.endpoint();
    const kept = this.all().filter((w) => {
      if (w.endpoint !== endpoint) return true;
      if (gone.has(w.id)) {
        changed = true;
        return false;
      }
      const task = seen.get(w.id);
      if (!task) return true;
      if (task.status !== w.status) changed = true;
      w.status = task.status;
      if (task.status === 'COMPLETED' || task.status === 'FAILED' || task.status === 'ABORTED') {
        ended.push({ task, how: task.status as TaskEnded['how'] });
        return false;
      }
      return true;
    });
    if (changed) await this.save(kept);
    for (const e of ended) this.endedEmitter.fire(e);
    return changed;
  }

  dispose(): void {
    this.endedEmitter.dispose();
    this.changedEmitter.dispose();
  }

  private all(): WatchedTask[] {
    const value = this.store.get<WatchedTask[]>(STATE_KEYS.watchedTasks.key);
    return Array.isArray(value) ? value.filter((w) => w && typeof w.id === 'string' && typeof w.endpoint === 'string') : [];
  }

  private async save(list: WatchedTask[]): Promise<void> {
    await this.store.update(STATE_KEYS.watchedTasks.key, list.length ? list : undefined);
    this.changedEmitter.fire();
  }
}
