// Watched tasks: the ones run or re-run here (automatically) and any the user chose to watch. One poll reads them
// all with POST /v2/bulk/tasks/get (100 per request: 50 watched tasks cost one request per round) and announces
// each that ended. Kept in global state per endpoint, so a reload keeps watching. No `vscode` import.

import { systemClock } from '../api/clock';
import { MAX_BULK_IDS } from '../api/tasks';
import { hasEnded, type BulkTaskItem, type EndedStatus, type Task } from '../api/types';
import { Emitter } from '../util/emitter';
import type { StateStore } from '../util/stateStore';
import { readState, STATE, writeState, type WatchedTask } from '../keys/state';
import type { NotifyMode } from '../keys/settings';
import { Poller, type PollBudget, type Timers } from '../util/poller';
import { MAX_BACKOFF_MS } from './refresher';

export type { WatchedTask } from '../keys/state';

export interface TaskEnded {
  task: Task;
  how: EndedStatus;
  /** Its status at the check before. */
  was?: string;
}

export interface BulkSource {
  bulkGet(ids: readonly string[], signal?: AbortSignal): Promise<BulkTaskItem[]>;
}

/** Whether an ending is worth a notification under the setting. */
export function shouldNotify(mode: NotifyMode, how: TaskEnded['how']): boolean {
  if (mode === 'off') return false;
  return mode === 'all' || how !== 'COMPLETED';
}

export interface FollowOptions {
  /** The refresh interval (ms; 0 is off), read each time a round is scheduled. */
  intervalMs: () => number;
  /** Whether to follow at all (signed in, notifications on). */
  enabled: () => boolean;
  clock: Timers;
  onError?: (error: unknown) => void;
  /** The API budget: rounds wait longer only while it is low. */
  budget?: PollBudget;
}

/**
 * Follows the watched tasks: one round every refresh interval, never stretched while nothing changes, so an end is
 * told within the interval (and the round's answer); a failed round waits twice as long as the one before, 5 min at
 * most; a low API budget stretches the wait as it does every background poll's. Paused while the window is in the background (a round soon after it comes back).
 */
export function followWatched(watcher: TaskWatcher, options: FollowOptions): Poller {
  return new Poller({
    poll: () => watcher.poll(),
    hasWork: () => options.intervalMs() > 0 && options.enabled() && watcher.list().length > 0,
    interval: () => options.intervalMs(),
    maxWaitMs: () => Math.max(options.intervalMs(), MAX_BACKOFF_MS),
    clock: options.clock,
    onError: options.onError,
    budget: options.budget,
  });
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
    private readonly now: () => number = systemClock.now,
  ) {}

  /** The tasks watched on the current endpoint. */
  list(): WatchedTask[] {
    return this.all().filter((w) => w.endpoint === this.endpoint());
  }

  isWatched(id: string): boolean {
    return this.list().some((w) => w.id === id);
  }

  async watch(task: Pick<Task, 'id' | 'name' | 'status'>): Promise<void> {
    if (hasEnded(task.status)) return;
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
      const was = w.status;
      if (task.status !== was) changed = true;
      w.status = task.status;
      if (hasEnded(task.status)) {
        ended.push({ task, how: task.status, was });
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
    return readState(this.store, STATE.watchedTasks) ?? [];
  }

  private async save(list: WatchedTask[]): Promise<void> {
    await writeState(this.store, STATE.watchedTasks, list.length ? list : undefined);
    this.changedEmitter.fire();
  }
}
