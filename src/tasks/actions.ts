// Task actions (abort, run, re-run) as they reach the platform, and the words that confirm them. No `vscode` import.
//
// Every action POST is a write of the outbox (src/write/outbox.ts: recorded first, one owner window, bound to its
// account, resent by itself only after a 429 or maintenance). After a lost answer it is looked up by reading the
// task before anything is sent again: abort → ABORTING/ABORTED (or already ended) means done, still RUNNING/QUEUED
// means not received; run → no longer DRAFT; re-run (clone and run) → a task with the same name and app created
// in the project since the send; not found within RERUN_SETTLE_MS of the send, it was not received.

import * as l10n from '@vscode/l10n';
import { systemClock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import type { TaskActionKind, TaskListQuery } from '../api/tasks';
import { formatFilterTimestamp } from '../api/timestamps';
import type { Credentials } from '../api/transport';
import { hasEnded, type Page, type Task } from '../api/types';
import { formatDuration } from '../util/time';
import { costOf, moneyWords } from './cost';
import { andMore, count } from '../util/words';
import { followWrites, type Account, type Lookup, type Outbox, type WriteKind, type WriteRecord } from '../write/outbox';

export interface TaskActionApi {
  action(kind: TaskActionKind, id: string, options: { credentials?: Credentials }): Promise<Task>;
  get(id: string, options: { credentials?: Credentials }): Promise<Task>;
  list(query: TaskListQuery, page: { limit?: number; credentials?: Credentials }): Promise<Page<Task>>;
}

export type ActionOutcome =
  /** The platform answered: the task as it is now (for a re-run, the new task). */
  | { kind: 'done'; task: Task }
  /** The answer was lost, but the look-up shows it was processed. */
  | { kind: 'found'; task: Task }
  /** Refused: nothing happened, it can be tried again. */
  | { kind: 'refused'; error: unknown }
  /** Not sent yet (rate limit, maintenance): it is sent by itself after the wait. */
  | { kind: 'waiting'; note: string }
  /** The answer was lost and the look-up cannot tell yet: it may have been processed; it is checked, not resent. */
  | { kind: 'uncertain'; error: unknown };

/** The action's name, as a title and a button ("Abort"). */
export function actionName(kind: TaskActionKind): string {
  if (kind === 'abort') return l10n.t({ message: 'Abort', comment: ['Abort a task (a button, a title)'] });
  if (kind === 'run') return l10n.t({ message: 'Run', comment: ['Run a draft task (a button, a title)'] });
  return l10n.t({ message: 'Re-run', comment: ['Re-run a task (a button, a title)'] });
}

/** "Abort "BWA-MEM run"": the action on one task, as the start of a message about it. */
function actionOn(kind: TaskActionKind, name: string | undefined): string {
  const task = name ?? '';
  if (kind === 'abort') return l10n.t('Abort "{0}"', task);
  if (kind === 'run') return l10n.t('Run "{0}"', task);
  return l10n.t('Re-run "{0}"', task);
}

/** Whether a task in this status can take the action (the platform's rules). */
export function canTake(kind: TaskActionKind, status: string | undefined): boolean {
  if (kind === 'abort') return status === 'RUNNING' || status === 'QUEUED';
  if (kind === 'run') return status === 'DRAFT';
  return hasEnded(status);
}

/** The context-value tokens that show the action menu items on a task row. */
export function actionTokens(task: Pick<Task, 'status'>, watched: boolean): string {
  const tokens: string[] = [];
  if (canTake('abort', task.status)) tokens.push('canAbort');
  if (canTake('run', task.status)) tokens.push('canRun');
  if (canTake('rerun', task.status)) tokens.push('canRerun');
  if (!hasEnded(task.status)) tokens.push(watched ? 'watched' : 'canWatch');
  return tokens.join(' ');
}

export const TASK_ACTION_WRITE = 'taskAction';
/** A re-run's new task shows in the project's list at once; one not there this long after the send was not made. */
const RERUN_SETTLE_MS = 30_000;

export interface TaskActionPayload {
  action: TaskActionKind;
  task: Pick<Task, 'id' | 'name' | 'app' | 'project' | 'status'>;
}

/** The task action as a write of the outbox. */
export class TaskActionWrite implements WriteKind<TaskActionPayload, null, Task> {
  readonly name = TASK_ACTION_WRITE;

  constructor(
    private readonly api: TaskActionApi,
    private readonly now: () => number = systemClock.now,
  ) {}

  async prepare(): Promise<null> {
    return null;
  }

  send(record: WriteRecord<TaskActionPayload>, credentials: Credentials): Promise<Task> {
    return this.api.action(record.payload.action, record.payload.task.id, { credentials });
  }

  async lookup(record: WriteRecord<TaskActionPayload>, credentials: Credentials): Promise<Lookup<Task>> {
    const { action, task } = record.payload;
    if (action === 'abort') {
      const now = await this.api.get(task.id, { credentials });
      if (now.status === 'RUNNING' || now.status === 'QUEUED') return { absent: l10n.t('The task still runs: the abort was not received.') };
      return { found: now };
    }
    if (action === 'run') {
      const now = await this.api.get(task.id, { credentials });
      return now.status === 'DRAFT' ? { absent: l10n.t('The task is still a draft: the run was not received.') } : { found: now };
    }
    if (!task.project) return { unknown: l10n.t('The task has no project to look for its copy in.') };
    const sentAt = record.lastAttemptAt ?? record.createdAt;
    const page = await this.api.list(
      { project: task.project, created_from: formatFilterTimestamp(new Date(sentAt - 60_000)), order_by: 'created_time', order: 'desc', fields: 'id,name,app,status,project,created_time' },
      { limit: 100, credentials },
    );
    const copy = page.items.find((t) => t.id !== task.id && t.name === task.name && (!task.app || t.app === task.app));
    if (copy) return { found: copy };
    return this.now() - sentAt > RERUN_SETTLE_MS
      ? { absent: l10n.t('No copy of the task was made: the re-run was not received.') }
      : { unknown: l10n.t('No copy of the task shows yet; checking again shortly.') };
  }

  finish(): void {
    // The caller (the command that asked) shows the outcome; a write taken over from a closed window shows in the next refresh.
  }
}

/** Sends one action on one task through the outbox and says how it went. */
export class TaskActionSender {
  constructor(
    private readonly outbox: Outbox,
    private readonly account: () => Promise<Account | undefined>,
    /** How long the command waits for the lookup after a lost answer before saying it is being checked. */
    private readonly lookupWaitMs = 10_000,
  ) {}

  async sendTaskAction(kind: TaskActionKind, task: Task): Promise<ActionOutcome> {
    let account: Account | undefined;
    try {
      account = await this.account();
    } catch (error) {
      return { kind: 'refused', error };
    }
    if (!account) return { kind: 'refused', error: new ApiError({ kind: 'signedOut', message: l10n.t('Not signed in.') }) };
    // The same action on the same task already on its way (a double click, or an answer being checked): follow that one.
    const existing = this.outbox
      .forAccount(account.key)
      .filter((r): r is WriteRecord<TaskActionPayload> => r.kind === TASK_ACTION_WRITE)
      .find((r) => r.payload.action === kind && r.payload.task.id === task.id && this.outbox.owns(r));
    const payload: TaskActionPayload = { action: kind, task: { id: task.id, name: task.name, app: task.app, project: task.project, status: task.status } };
    // A lost answer is looked up in the background; the person waits a little for it rather than hear "maybe" at once.
    const found = new Promise<Task | undefined>((resolve) => {
      const done = (outcome: Task | undefined) => {
        listening.dispose();
        systemClock.clearTimeout(timer);
        resolve(outcome);
      };
      const listening = this.outbox.onDidFinish(({ record, outcome }) => {
        if (record.kind === TASK_ACTION_WRITE && (record.payload as TaskActionPayload).task.id === task.id) done(outcome as Task);
      });
      const timer = systemClock.setTimeout(() => done(undefined), this.lookupWaitMs);
    });
    const { finished, left } = await followWrites(this.outbox, async () => (existing ? [existing] : this.outbox.submit(TASK_ACTION_WRITE, [payload], account)));
    if (finished[0]) return { kind: finished[0].found ? 'found' : 'done', task: finished[0].outcome as Task };
    if (left[0]?.state === 'unsure') {
      const task = await found;
      if (task) return { kind: 'found', task };
    }
    const record = this.outbox.all().find((r) => r.id === left[0]?.id) ?? left[0];
    if (!record) return { kind: 'refused', error: new Error(l10n.t('It was discarded.')) };
    if (record.state === 'failed') return { kind: 'refused', error: new Error(record.note ?? l10n.t('The platform refused it.')) };
    if (record.state === 'queued') return { kind: 'waiting', note: record.note ?? l10n.t('The platform asked to wait.') };
    return { kind: 'uncertain', error: new Error(record.note ?? l10n.t('No answer came.')) };
  }
}

/** Words for an outcome that did not go as asked. */
export function describeOutcome(kind: TaskActionKind, task: Pick<Task, 'name'>, outcome: ActionOutcome): string | undefined {
  const what = actionOn(kind, task.name);
  if (outcome.kind === 'refused') return l10n.t({ message: '{0}: {1}', args: [what, describeError(outcome.error)], comment: ['{0}: the action ("Abort "BWA-MEM run""); {1}: why it was refused'] });
  if (outcome.kind === 'waiting') return l10n.t('{0}: not sent yet. {1} It is sent by itself after the wait; nothing to do.', what, outcome.note);
  if (outcome.kind === 'uncertain') {
    return l10n.t("{0}: the platform's answer was lost and the task does not show it yet. It may have been processed: it is checked on the platform and not sent again until that is known.", what);
  }
  return undefined;
}

function runSoFar(task: Task, now: number): number | undefined {
  const seconds = task.execution_status?.duration;
  if (typeof seconds === 'number' && seconds >= 0) return seconds * 1000;
  const start = task.start_time ? Date.parse(task.start_time) : NaN;
  return Number.isFinite(start) ? Math.max(0, now - start) : undefined;
}

/** The confirmation: what will happen, to which tasks, and what they have cost so far. */
export function confirmationText(kind: TaskActionKind, tasks: readonly Task[], now: number): { message: string; detail: string } {
  const one = tasks.length === 1 ? tasks[0] : undefined;
  const name = one ? one.name || one.id : '';
  const cost = moneyWords(costOf(tasks));
  let message: string;
  let detail: string;
  if (kind === 'abort') {
    const ran = tasks.map((t) => (t.status === 'RUNNING' ? runSoFar(t, now) : undefined)).filter((d): d is number => d !== undefined);
    const took = ran.length ? formatDuration(ran.reduce((a, b) => a + b, 0)) : undefined;
    const question = one ? l10n.t('Abort "{0}"?', name) : l10n.t('Abort {0} tasks?', count(tasks.length));
    const sofar = one ? soFarOne(took, cost, one.status === 'QUEUED') : soFarMany(took, cost);
    message = sofar ? `${question} ${sofar}` : question;
    detail = l10n.t('Running jobs are stopped; outputs made so far are kept. An aborted task cannot be resumed, only re-run.');
  } else if (kind === 'run') {
    message = one ? l10n.t('Run "{0}"?', name) : l10n.t('Run {0} tasks?', count(tasks.length));
    detail = one
      ? l10n.t("It is queued on the platform and charged to its project's billing group.")
      : l10n.t("They are queued on the platform and charged to their project's billing group.");
  } else {
    message = one ? l10n.t('Re-run "{0}"?', name) : l10n.t('Re-run {0} tasks?', count(tasks.length));
    detail = one
      ? l10n.t("A copy of the task is made with the same app and inputs and run at once; the original stays as it is. The new run is charged to the project's billing group.")
      : l10n.t("A copy of each task is made with the same app and inputs and run at once; the original stays as it is. The new run is charged to the project's billing group.");
  }
  if (!one) {
    const listed = tasks.slice(0, 10).map((t) => `• ${t.name || t.id}`).join('\n');
    detail += `\n\n${listed}${tasks.length > 10 ? `\n${andMore(tasks.length - 10)}` : ''}`;
  }
  return { message, detail };
}

/** What one task to abort has run and cost: a sentence, or undefined when nothing is known. */
function soFarOne(took: string | undefined, cost: string | undefined, queued: boolean): string | undefined {
  if (took && cost) return l10n.t('It has run {0} and cost {1} so far.', took, cost);
  if (took) return l10n.t('It has run {0}.', took);
  if (cost) return l10n.t('It has cost {0} so far.', cost);
  return queued ? l10n.t('It has not started yet.') : undefined;
}

/** What the tasks to abort have run and cost together. */
function soFarMany(took: string | undefined, cost: string | undefined): string | undefined {
  if (took && cost) return l10n.t('They have run {0} in all and cost {1} so far.', took, cost);
  if (took) return l10n.t('They have run {0} in all.', took);
  if (cost) return l10n.t('They have cost {0} so far.', cost);
  return undefined;
}
