// Re-run Failed: one new task per failed or aborted child of a batch (or per failed or aborted task selected), with
// the same app and inputs (clone and run). The plan and its confirmation, the write kind (the re-run's identity rule,
// paced to the API budget), and the watch that says once, at the end, how the new tasks ended. No `vscode` import.

import * as l10n from '@vscode/l10n';
import type { Clock } from '../api/clock';
import type { TaskListQuery } from '../api/tasks';
import { hasEnded, type BulkTaskItem, type Task } from '../api/types';
import { readState, STATE, writeState, type StoredRerunWatch } from '../keys/state';
import { Poller, type PollBudget } from '../util/poller';
import type { StateStore } from '../util/stateStore';
import { waitsForPerson, type WriteRecord } from '../write/records';
import { andMore, count, failedCountWords, notSentWords, taskCount, unansweredWords } from '../util/words';
import type { TaskActionPayload } from './actions';
import { costOf, moneyWords, type CostSource, type CostTotal } from './cost';
import { namePages } from './findTask';

export { rerunFailedWrite } from './rerunFailedWrite';

/** What a re-run of failed tasks will do: which tasks, how many failed and aborted, what they cost. */
export interface RerunPlan {
  tasks: Task[];
  failed: number;
  aborted: number;
  /** What the originals cost before they ended. */
  cost: CostTotal;
}

/** The tasks to re-run among the candidates: failed or aborted, not batch parents, each once, in the order given. */
export function planRerun(candidates: readonly Task[]): RerunPlan {
  const tasks: Task[] = [];
  const seen = new Set<string>();
  for (const t of candidates) {
    if (t.batch || (t.status !== 'FAILED' && t.status !== 'ABORTED') || seen.has(t.id)) continue;
    seen.add(t.id);
    tasks.push(t);
  }
  return { tasks, failed: tasks.filter((t) => t.status === 'FAILED').length, aborted: tasks.filter((t) => t.status === 'ABORTED').length, cost: costOf(tasks) };
}

/** What each new task is sent as: the original's ID, name, app and project (the identity rule reads them). */
export function rerunPayloads(plan: RerunPlan): TaskActionPayload[] {
  return plan.tasks.map((t) => ({ action: 'rerun', task: { id: t.id, name: t.name, app: t.app, project: t.project, status: t.status } }));
}

/** "Re-run 37 failed tasks of "RNA batch 12"? They cost $41.20 before failing." and the detail. */
export function rerunConfirmation(plan: RerunPlan, of: string | undefined): { message: string; detail: string } {
  const n = plan.tasks.length;
  const what = plan.aborted === 0 ? (n === 1 ? l10n.t('1 failed task') : l10n.t('{0} failed tasks', count(n))) : plan.failed === 0 ? (n === 1 ? l10n.t('1 aborted task') : l10n.t('{0} aborted tasks', count(n))) : l10n.t('{0} ({1} failed, {2} aborted)', taskCount(n), count(plan.failed), count(plan.aborted));
  const question = of ? l10n.t('Re-run {0} of "{1}"?', what, of) : l10n.t('Re-run {0}?', what);
  const money = moneyWords(plan.cost);
  const cost = money ? (plan.aborted === 0 ? (n === 1 ? l10n.t('It cost {0} before failing.', money) : l10n.t('They cost {0} before failing.', money)) : l10n.t('They cost {0} before they ended.', money)) : undefined;
  const listed = plan.tasks.slice(0, 10).map((t) => `• ${t.name || t.id}`).join('\n');
  const detail = [
    l10n.t('One new task is made per task, with the same app and inputs, and run at once; the originals stay as they are. The new runs are charged to their project\'s billing group.'),
    `${listed}${n > 10 ? `\n${andMore(n - 10)}` : ''}`,
  ].join('\n\n');
  return { message: cost ? `${question} ${cost}` : question, detail };
}

/** Where a group of writes stands: how many the platform has (answered, or found), how many are being looked for (an answer lost). */
export interface WritesProgress {
  made: number;
  total: number;
  checking: number;
}

/** "49 of 50 made", and when answers were lost, "· 1 being looked for on the platform (its answer was lost)". */
export function rerunProgressWords(progress: WritesProgress): string {
  const made = l10n.t('{0} of {1} made', count(progress.made), count(progress.total));
  if (!progress.checking) return made;
  const checking = progress.checking === 1 ? l10n.t('1 being looked for on the platform (its answer was lost)') : l10n.t('{0} being looked for on the platform (their answers were lost)', count(progress.checking));
  return `${made} · ${checking}`;
}

/**
 * A cancelled Re-run Failed, in words: "Re-run Failed cancelled: 120 of 500 new tasks made, 370 not sent, 10 sent and
 * not answered yet (followed in the Data Jobs view)." (the last part when there are such).
 */
export function rerunCancelledWords(made: number, pending: number, notSent: number, total: number): string {
  const parts = [l10n.t('{0} of {1} new tasks made', count(made), count(total))];
  if (notSent) parts.push(notSentWords(count(notSent)));
  if (pending) parts.push(unansweredWords(pending));
  return l10n.t('Re-run Failed cancelled: {0}.', parts.join(', '));
}

/** How a Re-run Failed came out, once it stopped waiting: the writes made, those left in the outbox, those taken back. */
export interface RerunOutcome {
  /** The person pressed Cancel. */
  cancelled: boolean;
  made: number;
  total: number;
  /** Still in the outbox: refused (they wait for the person), or sent and not answered yet, or looked up. */
  left: readonly Pick<WriteRecord, 'state' | 'label' | 'note'>[];
  /** Taken back by the Cancel, never sent. */
  withdrawn: number;
}

/**
 * What a person is told when Re-run Failed stops waiting: a warning, or (all made) a passing word in the status bar.
 * After a Cancel that left anything undone — writes taken back, or sent and not answered yet — the summary says what
 * was made and what not, even when nothing was left to take back; a Cancel that came after all were made changes
 * nothing, and is not spoken of. Refusals are named as without a Cancel.
 */
export function rerunSummary(outcome: RerunOutcome): { warning: string } | { done: string } {
  const { made, total, withdrawn } = outcome;
  const refused = outcome.left.filter((r) => waitsForPerson(r));
  const pending = outcome.left.length - refused.length;
  const problems = outcome.left.map((r) => `${r.label ?? ''}: ${r.note ?? r.state}`);
  const notMade = l10n.t('Re-run Failed: {0} of {1} new tasks made. Not made, or not known yet: {2}', count(made), count(total), problems.slice(0, 5).join('; ') + (problems.length > 5 ? ` ${andMore(problems.length - 5)}` : ''));
  if (outcome.cancelled && (withdrawn || pending)) {
    const cancelled = rerunCancelledWords(made, pending, withdrawn, total);
    return { warning: refused.length ? `${cancelled} ${notMade}` : cancelled };
  }
  if (problems.length) return { warning: notMade };
  return { done: l10n.t('Re-run Failed: {0} new tasks made; you will be told when they have all ended', count(made)) };
}

/** What a re-run's candidates are read with. */
const RERUN_FIELDS = 'id,name,status,project,app,batch,parent,price';

/** A batch parent's children that ended FAILED or ABORTED, by name, 100 a page, each page paced to the budget. */
export async function rerunnableChildren(source: CostSource, parent: string, options: { signal?: AbortSignal; pace?: () => Promise<void> } = {}): Promise<Task[]> {
  const found: Task[] = [];
  for (const status of ['FAILED', 'ABORTED'] as const) {
    const query: TaskListQuery = { parent, status };
    await options.pace?.();
    for await (const page of namePages(source, query, { signal: options.signal, beforePage: options.pace, fields: RERUN_FIELDS, max: Infinity })) found.push(...page.items);
  }
  return found;
}

/** How the new tasks ended. */
export interface RerunEnded {
  completed: number;
  failed: number;
  aborted: number;
}

/** "35 completed, 2 failed again" (the counts that are not 0); "2 failed" for tasks that are not re-runs (`again` false). */
export function rerunEndedWords(ended: RerunEnded, again = true): string {
  const parts: string[] = [];
  if (ended.completed) parts.push(l10n.t('{0} completed', count(ended.completed)));
  if (ended.failed) parts.push(again ? l10n.t('{0} failed again', count(ended.failed)) : failedCountWords(ended.failed));
  if (ended.aborted) parts.push(l10n.t('{0} aborted', count(ended.aborted)));
  return parts.join(', ');
}

export interface RerunWatchOptions {
  bulkGet(ids: readonly string[], signal?: AbortSignal): Promise<BulkTaskItem[]>;
  clock: Clock;
  /** The wait between rounds (the refresh interval), read each time. */
  intervalMs: () => number;
  /** Once, when every new task has ended (or could no longer be read: it counts as neither). */
  onEnded: (ended: RerunEnded) => void;
  budget?: PollBudget;
  /**
   * Kept in stored state (global, `rerunWatches`) after each round, so that a window reload resumes it and still
   * says how the re-run ended; without it the watch lives in memory only.
   */
  keep?: { store: StateStore; id: string; account: string; of?: string; sheet?: string };
  /** What already ended (a resumed watch's counts). */
  ended?: RerunEnded;
}

/** The re-runs kept for an account, to resume when it is signed in. */
export function storedRerunWatches(store: Pick<StateStore, 'get'>, account: string): StoredRerunWatch[] {
  return (readState(store, STATE.rerunWatches) ?? []).filter((w) => w.account === account);
}

/** Follows the new tasks of a re-run, 100 per request, until all have ended; then says so once. */
export class RerunWatch {
  private readonly open: Set<string>;
  private readonly ended: RerunEnded;
  private readonly poller: Poller;
  private reported = false;
  /** The first save of a new watch (a resumed one is stored already). */
  readonly saved: Promise<void>;

  constructor(
    ids: readonly string[],
    private readonly options: RerunWatchOptions,
  ) {
    this.open = new Set(ids);
    this.ended = { completed: 0, failed: 0, aborted: 0, ...options.ended };
    this.poller = new Poller({ poll: () => this.round(), hasWork: () => !this.reported, interval: options.intervalMs, awayWaitMs: 60_000, clock: options.clock, budget: options.budget });
    this.saved = options.keep && !options.ended ? this.save(true).then(() => undefined) : Promise.resolve();
    this.poller.schedule();
  }

  get id(): string | undefined {
    return this.options.keep?.id;
  }

  /** Tasks still followed. */
  get left(): number {
    return this.open.size;
  }

  /** One round: each task still open read (100 a request); those that ended counted. */
  async round(): Promise<void> {
    const ids = [...this.open];
    for (let i = 0; i < ids.length; i += 100) {
      const asked = ids.slice(i, i + 100);
      const items = await this.options.bulkGet(asked);
      for (const [n, item] of items.entries()) {
        // A task the platform no longer has (deleted) is not followed any more: it counts as neither. The answer is in
        // request order; one with an entry missing cannot say which.
        if (item.error?.status === 404 && items.length === asked.length) this.open.delete(asked[n]);
        const task = item.resource;
        if (!task || !hasEnded(task.status) || !this.open.delete(task.id)) continue;
        if (task.status === 'COMPLETED') this.ended.completed++;
        else if (task.status === 'FAILED') this.ended.failed++;
        else this.ended.aborted++;
      }
    }
    if (this.reported) return;
    if (this.open.size) {
      // Gone from stored state: another window followed it to its end and said so.
      if (!(await this.save(false))) this.stop();
      return;
    }
    this.reported = true;
    if (await this.remove()) this.options.onEnded({ ...this.ended });
  }

  /** Stores where the watch is; resolves to false when it is no longer stored (and `add` is false). */
  private async save(add: boolean): Promise<boolean> {
    const keep = this.options.keep;
    if (!keep) return true;
    const all = readState(keep.store, STATE.rerunWatches) ?? [];
    const at = all.findIndex((w) => w.id === keep.id);
    if (at < 0 && !add) return false;
    const record: StoredRerunWatch = { id: keep.id, account: keep.account, ...(keep.of !== undefined ? { of: keep.of } : {}), ...(keep.sheet !== undefined ? { sheet: keep.sheet } : {}), open: [...this.open], ended: { ...this.ended } };
    await writeState(keep.store, STATE.rerunWatches, at < 0 ? [...all, record] : all.map((w, i) => (i === at ? record : w)));
    return true;
  }

  /** Takes the watch out of stored state; resolves to whether this window did (false: another already had). */
  private async remove(): Promise<boolean> {
    const keep = this.options.keep;
    if (!keep) return true;
    const all = readState(keep.store, STATE.rerunWatches) ?? [];
    if (!all.some((w) => w.id === keep.id)) return false;
    const left = all.filter((w) => w.id !== keep.id);
    await writeState(keep.store, STATE.rerunWatches, left.length ? left : undefined);
    return true;
  }

  private stop(): void {
    this.reported = true;
    this.poller.dispose();
  }

  /** Follows one more task (made after the watch began: a write on its way at a Cancel); false once it has reported. */
  add(id: string): boolean {
    if (this.reported) return false;
    this.open.add(id);
    void this.save(false);
    return true;
  }

  setFocused(focused: boolean): void {
    this.poller.setFocused(focused);
  }

  dispose(): void {
    this.poller.dispose();
  }
}
