// Task actions (abort, run, re-run) as they reach the platform, and the words that confirm them. No `vscode` import.
//
// Until the shared write path (issue #11) lands, every action POST goes through `sendTaskAction` alone:
// - it is sent once and never repeated here (the transport never repeats a POST);
// - an answer that proves the platform did not process it (a 4xx, 429, 503 code 0) is reported as such;
// - an answer that was lost (timeout, dropped connection, 5xx, unreadable) is looked up by reading the task
//   before anything is sent again: abort → ABORTING/ABORTED means it was processed; run → no longer DRAFT; re-run
//   (clone and run) → a task with the same name and app created in the project since the send. When the look-up
//   cannot tell, the action is remembered as uncertain and the next send of it looks up first.
// Two sends of the same action on the same task at once are refused (a double click).

import { ApiError, describeError } from '../api/errors';
import type { TaskActionKind, TaskListQuery } from '../api/tasks';
import { formatFilterTimestamp } from '../api/timestamps';
import type { Page, Task } from '../api/types';
import { formatDuration } from '../util/time';

export interface TaskActionApi {
  action(kind: TaskActionKind, id: string): Promise<Task>;
  get(id: string): Promise<Task>;
  list(query: TaskListQuery, page: { limit?: number }): Promise<Page<Task>>;
}

export type ActionOutcome =
  /** The platform answered: the task as it is now (for a re-run, the new task). */
  | { kind: 'done'; task: Task }
  /** The answer was lost, but the look-up shows it was processed. */
  | { kind: 'found'; task: Task }
  /** Refused or not processed: nothing happened, it can be tried again. */
  | { kind: 'refused'; error: unknown }
  /** The answer was lost and the look-up could not tell: it may have been processed. Not sent again unasked. */
  | { kind: 'uncertain'; error: unknown };

export const ACTION_WORDS: Record<TaskActionKind, { verb: string; button: string; past: string }> = {
  abort: { verb: 'Abort', button: 'Abort', past: 'aborted' },
  run: { verb: 'Run', button: 'Run', past: 'started' },
  rerun: { verb: 'Re-run', button: 'Re-run', past: 're-run' },
};

/** Whether a task in this status can take the action (the platform's rules). */
export function canTake(kind: TaskActionKind, status: string | undefined): boolean {
  if (kind === 'abort') return status === 'RUNNING' || status === 'QUEUED';
  if (kind === 'run') return status === 'DRAFT';
  return status === 'COMPLETED' || status === 'FAILED' || status === 'ABORTED';
}

/** The context-value tokens that show the action menu items on a task row. */
export function actionTokens(task: Pick<Task, 'status'>, watched: boolean): string {
  const tokens: string[] = [];
  if (canTake('abort', task.status)) tokens.push('canAbort');
  if (canTake('run', task.status)) tokens.push('canRun');
  if (canTake('rerun', task.status)) tokens.push('canRerun');
  const terminal = task.status === 'COMPLETED' || task.status === 'FAILED' || task.status === 'ABORTED';
  if (!terminal) tokens.push(watched ? 'watched' : 'canWatch');
  return tokens.join(' ');
}

export class TaskActionSender {
  private readonly inFlight = new Set<string>();
  /** Actions whose answer was lost and whose look-up could not tell: looked up again before any resend. */
  private readonly uncertain = new Map<string, { sentAt: number; task: Task }>();

  constructor(
    private readonly api: TaskActionApi,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends one action on one task (the one function every action POST goes through). */
  async sendTaskAction(kind: TaskActionKind, task: Task): Promise<ActionOutcome> {
    const key = `${kind}:${task.id}`;
    if (this.inFlight.has(key)) {
      return { kind: 'refused', error: new ApiError({ kind: 'invalid', message: `${ACTION_WORDS[kind].verb} of "${task.name}" is already being sent.` }) };
    }
    this.inFlight.add(key);
    try {
      const earlier = this.uncertain.get(key);
      if (earlier) {
        const found = await this.lookUp(kind, earlier.task, earlier.sentAt).catch(() => undefined);
        if (found) {
          this.uncertain.delete(key);
          return { kind: 'found', task: found };
        }
        this.uncertain.delete(key);
      }
      const sentAt = this.now();
      try {
        return { kind: 'done', task: await this.api.action(kind, task.id) };
      } catch (error) {
        if (!(error instanceof ApiError) || !error.maybeDelivered) return { kind: 'refused', error };
        const found = await this.lookUp(kind, task, sentAt).catch(() => undefined);
        if (found) return { kind: 'found', task: found };
        this.uncertain.set(key, { sentAt, task });
        return { kind: 'uncertain', error };
      }
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** The task that shows the action was processed, or undefined when nothing shows it. */
  private async lookUp(kind: TaskActionKind, task: Task, sentAt: number): Promise<Task | undefined> {
    if (kind === 'abort') {
      const now = await this.api.get(task.id);
      return now.status === 'ABORTING' || now.status === 'ABORTED' ? now : undefined;
    }
    if (kind === 'run') {
      const now = await this.api.get(task.id);
      return now.status !== 'DRAFT' ? now : undefined;
    }
    // A re-run made a new task: the same name and app, in the same project, created since the send (a minute of
    // clock skew allowed), and not the original.
    if (!task.project) return undefined;
    const since = formatFilterTimestamp(new Date(sentAt - 60_000));
    const page = await this.api.list(
      { project: task.project, created_from: since, order_by: 'created_time', order: 'desc', fields: 'id,name,app,status,project,created_time' },
      { limit: 100 },
    );
    return page.items.find((t) => t.id !== task.id && t.name === task.name && (!task.app || t.app === task.app));
  }
}

/** Words for an outcome that did not go as asked. */
export function describeOutcome(kind: TaskActionKind, task: Pick<Task, 'name'>, outcome: ActionOutcome): string | undefined {
  const what = `${ACTION_WORDS[kind].verb} "${task.name}"`;
  if (outcome.kind === 'refused') return `${what}: ${describeError(outcome.error)}`;
  if (outcome.kind === 'uncertain') {
    return `${what}: the platform's answer was lost and the task does not show it yet. It may have been processed: check the task before trying again.`;
  }
  return undefined;
}

function money(amount: number, currency: string | undefined): string {
  return currency === 'USD' || !currency ? `$${amount.toFixed(2)}` : `${amount.toFixed(2)} ${currency}`;
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
  const subject = one ? `"${one.name || one.id}"` : `${tasks.length} tasks`;
  const costs = tasks.map((t) => t.price?.amount).filter((a): a is number => typeof a === 'number');
  const cost = costs.length ? money(costs.reduce((a, b) => a + b, 0), tasks.find((t) => t.price)?.price?.currency) : undefined;
  let message: string;
  let detail: string;
  if (kind === 'abort') {
    const ran = tasks.map((t) => (t.status === 'RUNNING' ? runSoFar(t, now) : undefined)).filter((d): d is number => d !== undefined);
    const parts: string[] = [];
    if (ran.length) parts.push(`${one ? 'It has' : 'They have'} run ${formatDuration(ran.reduce((a, b) => a + b, 0))}${one ? '' : ' in all'}`);
    if (cost) parts.push(`${parts.length ? 'cost' : `${one ? 'It has' : 'They have'} cost`} ${cost} so far`);
    message = `Abort ${subject}?${parts.length ? ` ${parts.join(' and ')}.` : one?.status === 'QUEUED' ? ' It has not started yet.' : ''}`;
    detail = 'Running jobs are stopped; outputs made so far are kept. An aborted task cannot be resumed, only re-run.';
  } else if (kind === 'run') {
    message = `Run ${subject}?`;
    detail = `${one ? 'It is' : 'They are'} queued on the platform and charged to ${one ? 'its' : 'their'} project's billing group.`;
  } else {
    message = `Re-run ${subject}?`;
    detail = `A copy of ${one ? 'the task' : 'each task'} is made with the same app and inputs and run at once; the original stays as it is. The new run is charged to the project's billing group.`;
  }
  if (!one) detail += `\n\n${tasks.slice(0, 10).map((t) => `• ${t.name || t.id}`).join('\n')}${tasks.length > 10 ? `\n… and ${tasks.length - 10} more` : ''}`;
  return { message, detail };
}
