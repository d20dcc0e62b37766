// What the commands on a task's execution do (tasks/commands.ts lists them): open a log (and all of it), watch / stop
// watching, abort, run, re-run; and the notification when a watched task ends. Thin: each asks the models in
// ./actions, ./watcher, ./logs and the client.

import * as vscode from 'vscode';
import type { TaskActionKind } from '../api/tasks';
import type { Task } from '../api/types';
import type { Services } from '../services';
import { setting } from '../ui/settings';
import { formatDuration } from '../util/time';
import { count } from '../util/words';
import { actionName, canTake, confirmationText, describeOutcome, type TaskActionSender } from './actions';
import { statusWord } from './filterModel';
import { LOG_SCHEME, LogDocumentProvider, showLog } from './logs';
import type { Refresher } from './refresher';
import { fullTask, type TaskRef } from './targets';
import { jobLogs, sortJobs, type LogRef } from './taskInfo';
import type { TaskTreeModel } from './taskTree';
import { shouldNotify, type TaskEnded, type TaskWatcher } from './watcher';
import { commandTitles, COMMANDS } from '../keys/commands';

export interface ExecutionParts {
  services: Services;
  tree: TaskTreeModel;
  refresher: Refresher;
  watcher: TaskWatcher;
  sender: TaskActionSender;
}

export async function watch(parts: ExecutionParts, tasks: TaskRef[]): Promise<void> {
  for (const task of tasks) await parts.watcher.watch(await fullTask(parts.services.client, task));
  parts.tree.redraw();
  const watching = tasks.length === 1
    ? vscode.l10n.t('Watching "{0}": you will be told when it ends', tasks[0].name ?? tasks[0].id)
    : vscode.l10n.t('Watching {0} tasks: you will be told when they end', count(tasks.length));
  vscode.window.setStatusBarMessage(`$(eye) ${watching}`, 5000);
}

export async function unwatch(parts: ExecutionParts, tasks: TaskRef[]): Promise<void> {
  for (const task of tasks) await parts.watcher.unwatch(task.id);
  parts.tree.redraw();
}

export async function openLog(log: LogRef): Promise<void> {
  await showLog(LogDocumentProvider.uriFor(log));
}

/** Load Whole Log: the log given, else the one in the active editor, fetched whole. */
export async function loadWholeLog(uri?: unknown): Promise<void> {
  const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  if (!target || target.scheme !== LOG_SCHEME) return void vscode.window.showInformationMessage(vscode.l10n.t("Load Whole Log: open a job's log first."));
  await showLog(LogDocumentProvider.whole(target));
}

/**
 * Abort, run or re-run the tasks, after one confirmation (`options.confirm: false` skips it: the tests, and callers
 * that confirmed already). Tasks the action does not fit are left alone, and the confirmation says so.
 */
export async function act(parts: ExecutionParts, kind: TaskActionKind, given: TaskRef[], options: { confirm?: unknown } = {}): Promise<Task[]> {
  const listed = await Promise.all(given.map((task) => fullTask(parts.services.client, task)));
  // What they ran and cost so far (the confirmation's words) is in their whole records, not in a row's: 100 a request.
  const whole = await parts.tree.wholeRecords(listed.filter((t) => t.price === undefined)).catch(() => new Map<string, Task>());
  const tasks = listed.map((task) => ({ ...whole.get(task.id), ...task }));
  const able = tasks.filter((t) => canTake(kind, t.status));
  const skipped = tasks.length - able.length;
  if (!able.length) {
    void vscode.window.showInformationMessage(noTaskFits(kind, tasks.length === 1 ? tasks[0] : undefined));
    return [];
  }
  const { message, detail } = confirmationText(kind, able, parts.services.clock.now());
  const note = skipped ? `\n\n${leftAlone(kind, skipped, tasks.length)}` : '';
  const button = actionButton(kind, able.length);
  if (options.confirm !== false) {
    const chosen = await vscode.window.showWarningMessage(message, { modal: true, detail: detail + note }, button);
    if (chosen !== button) return [];
  }
  const results: Task[] = [];
  const problems: string[] = [];
  await Promise.all(
    able.map(async (task) => {
      const outcome = await parts.sender.sendTaskAction(kind, task);
      if (outcome.kind === 'done' || outcome.kind === 'found') {
        results.push(outcome.task);
        // The new status at once, in the group it belongs to (Aborting, Queued; a re-run's copy), until the refresh
        // that follows reads the platform again.
        if (kind === 'rerun') parts.tree.addTask(outcome.task);
        else parts.tree.applyTask(outcome.task, task.status);
        if (kind !== 'abort') await parts.watcher.watch(outcome.task);
      } else {
        problems.push(describeOutcome(kind, task, outcome)!);
      }
    }),
  );
  void parts.refresher.refreshNow();
  if (problems.length) void vscode.window.showErrorMessage(problems.join('\n'));
  else vscode.window.setStatusBarMessage(`$(check) ${actionDone(kind, results)}`, 5000);
  return results;
}

/** Opens the log that explains the task: the failed job's job.err.log, else the last job's. */
export async function showLogs(parts: ExecutionParts, task: TaskRef): Promise<void> {
  const details = await parts.services.client.tasks.executionDetails(task.id);
  const jobs = sortJobs(details.jobs ?? []);
  const job = jobs.find((j) => j.status === 'FAILED' && !j.retried) ?? jobs[jobs.length - 1];
  const log = job ? jobLogs(job, { id: task.id, name: task.name ?? '', project: task.project })[0] : undefined;
  if (!log) {
    void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" has no job logs yet.', task.name ?? task.id));
    return;
  }
  await showLog(LogDocumentProvider.uriFor(log));
}

/** Says how a watched task ended, with what to do next; the tree shows the new status at once. */
export async function announce(parts: ExecutionParts, ended: TaskEnded): Promise<void> {
  const mode = setting('notifyWhenWatchedTasksEnd');
  parts.tree.applyTask(ended.task, ended.was);
  void parts.refresher.refreshNow();
  if (!shouldNotify(mode, ended.how)) return;
  const { task, how } = ended;
  const name = task.name || task.id;
  const took = typeof task.execution_status?.duration === 'number' ? formatDuration(task.execution_status.duration * 1000) : undefined;
  const { showLogs: showLogsAction, copyTaskOutputs: copyOutputsAction } = commandTitles();
  const rerunAction = actionName('rerun');
  const actions: string[] = [];
  let message: string;
  let show: (m: string, ...items: string[]) => Thenable<string | undefined>;
  if (how === 'COMPLETED') {
    message = took ? vscode.l10n.t('Task "{0}" completed in {1}.', name, took) : vscode.l10n.t('Task "{0}" completed.', name);
    show = vscode.window.showInformationMessage;
    if (task.outputs && Object.keys(task.outputs).length) actions.push(copyOutputsAction);
    actions.push(showLogsAction);
  } else if (how === 'FAILED') {
    const errors = Array.isArray(task.errors) ? task.errors : task.errors ? Object.values(task.errors as object) : [];
    const first = errors[0] as { message?: unknown } | string | undefined;
    const why = typeof first === 'string' ? first : typeof first?.message === 'string' ? first.message : undefined;
    message = why ? vscode.l10n.t('Task "{0}" failed: {1}', name, why) : vscode.l10n.t('Task "{0}" failed.', name);
    show = vscode.window.showErrorMessage;
    actions.push(showLogsAction, rerunAction);
  } else {
    message = vscode.l10n.t('Task "{0}" was aborted.', name);
    show = vscode.window.showWarningMessage;
    actions.push(showLogsAction, rerunAction);
  }
  const chosen = await show(message, ...actions);
  if (chosen === showLogsAction) await vscode.commands.executeCommand(COMMANDS.showLogs, task);
  else if (chosen === rerunAction) await vscode.commands.executeCommand(COMMANDS.rerunTask, task);
  else if (chosen === copyOutputsAction) await vscode.commands.executeCommand(COMMANDS.copyTaskOutputs, task);
}

/** Why none of the tasks can take the action: which statuses can, and the one task's status (or that none can). */
function noTaskFits(kind: TaskActionKind, one: Task | undefined): string {
  if (one) {
    const name = one.name ?? '';
    const status = statusWord(one.status).toLocaleLowerCase();
    if (kind === 'abort') return vscode.l10n.t('Abort: only running or queued tasks can be aborted; "{0}" is {1}.', name, status);
    if (kind === 'run') return vscode.l10n.t('Run: only draft tasks can be started; "{0}" is {1}.', name, status);
    return vscode.l10n.t('Re-run: only completed, failed or aborted tasks can be re-run; "{0}" is {1}.', name, status);
  }
  if (kind === 'abort') return vscode.l10n.t('Abort: only running or queued tasks can be aborted; none of the selected is.');
  if (kind === 'run') return vscode.l10n.t('Run: only draft tasks can be started; none of the selected is.');
  return vscode.l10n.t('Re-run: only completed, failed or aborted tasks can be re-run; none of the selected is.');
}

/** The confirmation's note on the selected tasks the action leaves alone. */
function leftAlone(kind: TaskActionKind, skipped: number, selected: number): string {
  const one = skipped === 1;
  if (kind === 'abort') {
    return one
      ? vscode.l10n.t('1 of the {0} selected is left alone (not running or queued).', selected)
      : vscode.l10n.t('{0} of the {1} selected are left alone (not running or queued).', skipped, selected);
  }
  if (kind === 'run') {
    return one ? vscode.l10n.t('1 of the {0} selected is left alone (not a draft).', selected) : vscode.l10n.t('{0} of the {1} selected are left alone (not a draft).', skipped, selected);
  }
  return one ? vscode.l10n.t('1 of the {0} selected is left alone (not finished).', selected) : vscode.l10n.t('{0} of the {1} selected are left alone (not finished).', skipped, selected);
}

/** The confirmation's button: "Abort Task", "Abort 3 Tasks". */
export function actionButton(kind: TaskActionKind, tasks: number): string {
  if (kind === 'abort') return tasks === 1 ? vscode.l10n.t('Abort Task') : vscode.l10n.t('Abort {0} Tasks', tasks);
  if (kind === 'run') return tasks === 1 ? vscode.l10n.t('Run Task') : vscode.l10n.t('Run {0} Tasks', tasks);
  return tasks === 1 ? vscode.l10n.t('Re-run Task') : vscode.l10n.t('Re-run {0} Tasks', tasks);
}

/** The status bar's word once the platform took the action. */
function actionDone(kind: TaskActionKind, results: readonly Task[]): string {
  const one = results.length === 1 ? results[0].name ?? '' : undefined;
  const n = count(results.length);
  if (kind === 'abort') return one !== undefined ? vscode.l10n.t('Abort: "{0}" aborting', one) : vscode.l10n.t('Abort: {0} tasks aborting', n);
  if (kind === 'run') return one !== undefined ? vscode.l10n.t('Run: "{0}" queued', one) : vscode.l10n.t('Run: {0} tasks queued', n);
  return one !== undefined ? vscode.l10n.t('Re-run: "{0}" re-run (the copy is watched)', one) : vscode.l10n.t('Re-run: {0} tasks re-run (the copy is watched)', n);
}
