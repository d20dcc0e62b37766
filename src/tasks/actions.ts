// Task actions (abort, run, re-run) as they reach the platform, and the words that confirm them. No `vscode` import.
//
// Every action POST is a write of the outbox (src/write/outbox.ts: recorded first, one owner window, bound to its
// account), one kind per action, each declaring how a lost answer is told apart (ARCHITECTURE.md, "Writes"):
// - abort, run: idempotent (the platform refuses a second abort or run), found by reading the task: abort is done
//   once the task is no longer RUNNING or QUEUED, run once it is no longer a DRAFT; otherwise sent again;
// - re-run (clone and run): not idempotent (each call makes a task, billed); its task is the clone that appeared in
//   the project since a snapshot taken before the send, with the original's name and app (./newTaskIdentity.ts).

import * as l10n from '@vscode/l10n';
import { systemClock, type Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import type { TaskActionKind, TaskListQuery } from '../api/tasks';
import type { Credentials } from '../api/transport';
import { hasEnded, type Page, type Task } from '../api/types';
import { formatDuration } from '../util/time';
import { costOf, moneyWords } from './cost';
import { andMore, count } from '../util/words';
import type { Identity, WriteKind } from '../write/kinds';
import { newTaskIdentity, type CloneSnapshot, type NewTaskRule } from './newTaskIdentity';
import { WRITE_KINDS } from '../keys/writes';
import { waitsForPerson, type Account, type Outbox, type WriteRecord } from '../write/outbox';

export interface TaskActionApi {
  action(kind: TaskActionKind, id: string, options: { credentials?: Credentials }): Promise<Task>;
  get(id: string, options: { credentials?: Credentials }): Promise<Task>;
  list(query: TaskListQuery, page: { offset?: number; limit?: number; credentials?: Credentials }): Promise<Page<Task>>;
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

/** The outbox's kind for each task action. */
export const TASK_ACTION_WRITES: Record<TaskActionKind, string> = { abort: WRITE_KINDS.abort, run: WRITE_KINDS.run, rerun: WRITE_KINDS.rerun };

export interface TaskActionPayload {
  action: TaskActionKind;
  task: Pick<Task, 'id' | 'name' | 'app' | 'project' | 'status'>;
}

/** What is kept of the task the platform answers with: what the views and the watcher read, not its inputs or outputs. */
export function keepTask(task: Task): Task {
  const { href, id, name, status, project, app, created_time, start_time, end_time, batch, parent, execution_status, price } = task;
  return { href, id, name, status, project, app, created_time, start_time, end_time, batch, parent, execution_status, price };
}

function isActionPayload(action: TaskActionKind) {
  return (payload: unknown): payload is TaskActionPayload => {
    const p = payload as TaskActionPayload | undefined;
    return !!p && typeof p === 'object' && p.action === action && !!p.task && typeof p.task.id === 'string';
  };
}

/** The parts every task action kind shares: how it is sent, what is kept, the words. */
function taskActionKind<S>(api: TaskActionApi, action: TaskActionKind, idempotent: boolean, identity: Identity<TaskActionPayload, S, Task>): WriteKind<TaskActionPayload, S, Task> {
  return {
    name: TASK_ACTION_WRITES[action],
    idempotent,
    identity,
    isPayload: isActionPayload(action),
    send: (record, credentials) => api.action(action, record.payload.task.id, { credentials }),
    keep: keepTask,
    isOutcome: (t): t is Task => !!t && typeof t === 'object' && typeof (t as Task).id === 'string',
    // The command that asked shows the outcome; a write taken over from a closed window shows in the next refresh.
    finish: () => undefined,
    describe: (payload) => actionOn(action, payload.task.name),
  };
}

/** Abort: sending it again does no harm; done once the task no longer runs or waits to. */
export function abortWrite(api: TaskActionApi): WriteKind<TaskActionPayload, undefined, Task> {
  return taskActionKind(api, 'abort', true, {
    by: 'state',
    async read(record, credentials) {
      const now = await api.get(record.payload.task.id, { credentials });
      return now.status === 'RUNNING' || now.status === 'QUEUED' ? { absent: l10n.t('The task still runs: the abort has not reached it.') } : { found: now };
    },
  });
}

/** Run a draft: the platform refuses a second run; done once the task is no longer a draft. */
export function runWrite(api: TaskActionApi): WriteKind<TaskActionPayload, undefined, Task> {
  return taskActionKind(api, 'run', true, {
    by: 'state',
    async read(record, credentials) {
      const now = await api.get(record.payload.task.id, { credentials });
      return now.status === 'DRAFT' ? { absent: l10n.t('The task is still a draft: the run has not reached it.') } : { found: now };
    },
  });
}

/**
 * Re-run: clone and run (`POST /v2/tasks/{id}/actions/clone?action=run`). Each call makes a task, so it is never
 * sent again without the person's word once it may have been processed. Its task is found by difference: the clone
 * with the original's name and app (./newTaskIdentity.ts). `serverNow`: the platform's time as estimated, undefined
 * until known.
 */
export function rerunWrite(api: TaskActionApi, clock: Pick<Clock, 'monotonic'> = systemClock, serverNow: () => number | undefined = () => undefined): WriteKind<TaskActionPayload, CloneSnapshot, Task> {
  const rule: NewTaskRule<TaskActionPayload> = {
    project: (payload) => payload.task.project,
    fields: 'name,app,status,project',
    matches: (t, { task }) => t.id !== task.id && t.name === task.name && (!task.app || t.app === task.app),
    absent: () => l10n.t('No copy of the task shows in its project.'),
  };
  return taskActionKind<CloneSnapshot>(api, 'rerun', false, newTaskIdentity(api, rule, clock, serverNow));
}

/** Why a write cannot be sent: no account signed in. */
export const notSignedIn = (): string => l10n.t('Not signed in.');

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
    if (!account) return { kind: 'refused', error: new ApiError({ kind: 'signedOut', message: notSignedIn() }) };
    const writeKind = TASK_ACTION_WRITES[kind];
    // The same action on the same task already on its way (a double click, or an answer being checked): follow that one.
    const existing = this.outbox
      .forAccount(account.key)
      .filter((r): r is WriteRecord<TaskActionPayload> => r.kind === writeKind && !r.problem)
      .find((r) => r.payload.task.id === task.id && this.outbox.owns(r));
    const payload: TaskActionPayload = { action: kind, task: { id: task.id, name: task.name, app: task.app, project: task.project, status: task.status } };
    // A lost answer is looked up in the background; the person waits a little for it rather than hear "maybe" at once.
    const patience = { until: 'lookup' as const, atMostMs: this.lookupWaitMs };
    const sent = existing ? await this.outbox.follow<Task>(async () => [existing], patience) : await this.outbox.send<Task>(writeKind, [payload], account, patience);
    return outcomeOf(sent);
  }
}

/** What became of a task write the outbox was asked for and waited on (its first write). */
export function outcomeOf(sent: { finished: { found?: boolean; outcome: Task }[]; left: WriteRecord[] }): ActionOutcome {
  const { finished, left } = sent;
  if (finished[0]) return { kind: finished[0].found ? 'found' : 'done', task: finished[0].outcome };
  const record = left[0];
  if (!record) return { kind: 'refused', error: new Error(l10n.t('It was discarded.')) };
  if (waitsForPerson(record)) return { kind: 'refused', error: new Error(record.note ?? l10n.t('The platform refused it.')) };
  if (record.state === 'queued') return { kind: 'waiting', note: record.note ?? l10n.t('The platform asked to wait.') };
  return { kind: 'uncertain', error: new Error(record.note ?? l10n.t('No answer came.')) };
}

/** Words for an outcome that did not go as asked. */
export function describeOutcome(kind: TaskActionKind, task: Pick<Task, 'name'>, outcome: ActionOutcome): string | undefined {
  return outcomeWords(actionOn(kind, task.name), outcome);
}

/** Words for an outcome that did not go as asked, of a write described as `what` ("Run task "VF 1""). */
export function outcomeWords(what: string, outcome: ActionOutcome): string | undefined {
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
