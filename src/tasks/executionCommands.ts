// The commands that act on a task's execution: open a log (and all of it), watch / stop watching, abort, run,
// re-run, and the notification when a watched task ends. Thin: each asks the models in ./actions, ./watcher,
// ./logs and the client.

import * as vscode from 'vscode';
import type { TaskActionKind } from '../api/tasks';
import type { Task } from '../api/types';
import type { Services } from '../services';
import { showApiError } from '../ui/errors';
import { formatDuration } from '../util/time';
import { actionName, canTake, confirmationText, describeOutcome, TaskActionSender } from './actions';
import { couldNotReadTask, paletteTitle, taskArgument, whichTaskPlaceholder } from './commands';
import { statusWord } from './filterModel';
import { count } from '../util/words';
import { pickTask } from './filterPicks';
import { LOG_SCHEME, LogDocumentProvider, showLog } from './logs';
import type { Refresher } from './refresher';
import { jobLogs, sortJobs, type LogRef } from './taskInfo';
import type { TaskTreeModel, TaskTreeNode } from './taskTree';
import { shouldNotify, type TaskEnded, type TaskWatcher } from './watcher';
import { setting } from '../ui/settings';
import { commandTitles, COMMANDS } from '../keys/commands';

export interface ExecutionParts {
  services: Services;
  tree: TaskTreeModel;
  refresher: Refresher;
  watcher: TaskWatcher;
  sender: TaskActionSender;
  view: vscode.TreeView<TaskTreeNode>;
}

function isLogRef(arg: unknown): arg is LogRef {
  const a = arg as LogRef | undefined;
  return !!a && typeof a.fileId === 'string' && typeof a.name === 'string' && typeof a.taskId === 'string';
}

/** The tasks a command is for: the selection when the clicked row is in it, else the clicked row. */
function selectedTasks(arg: unknown, many: unknown): Task[] {
  const list = Array.isArray(many) && many.length ? many : [arg];
  const tasks = list.map(taskArgument).filter((t): t is Task => !!t && typeof t.id === 'string');
  const unique = new Map(tasks.map((t) => [t.id, t]));
  return [...unique.values()];
}

/**
 * The row a command acts on: its argument (a context menu), else the view's selection (a keyboard user's focus),
 * else a task picked from the newest ones (the palette), among those `fits` accepts.
 */
async function rowOrPick(parts: ExecutionParts, arg: unknown, title: string, fits: (task: Task) => boolean): Promise<unknown> {
  if (arg !== undefined || parts.view.selection.length) return arg ?? parts.view.selection[0];
  const picked = await pickTask(parts.services, { title: paletteTitle(title), placeholder: whichTaskPlaceholder(), query: {}, accept: fits, list: 'tasks' });
  return picked && picked !== 'none' ? picked : undefined;
}

const active = (t: Task) => t.status !== 'COMPLETED' && t.status !== 'FAILED' && t.status !== 'ABORTED';

/** A task's record with its status and name, read when the row or argument had fewer fields. */
async function fullTask(parts: ExecutionParts, task: Task): Promise<Task> {
  return task.status && task.name ? task : await parts.services.client.tasks.get(task.id);
}

/** Abort, run or re-run: the row given, else the selection, else one picked among the tasks the action fits. */
async function actOnRows(parts: ExecutionParts, kind: TaskActionKind, title: string, arg: unknown, many: unknown, options?: { confirm?: boolean }): Promise<Task[]> {
  const row = await rowOrPick(parts, arg, title, (t) => canTake(kind, t.status));
  return act(parts, kind, row, many ?? (arg === undefined ? parts.view.selection : undefined), options);
}

async function watch(parts: ExecutionParts, arg: unknown, many: unknown): Promise<void> {
  const tasks = selectedTasks(await rowOrPick(parts, arg, vscode.l10n.t('Watch Task'), active), many);
  for (const task of tasks) await parts.watcher.watch(await fullTask(parts, task));
  parts.tree.redraw();
  if (tasks.length) {
    const watching = tasks.length === 1
      ? vscode.l10n.t('Watching "{0}": you will be told when it ends', tasks[0].name ?? tasks[0].id)
      : vscode.l10n.t('Watching {0} tasks: you will be told when they end', count(tasks.length));
    vscode.window.setStatusBarMessage(`$(eye) ${watching}`, 5000);
  }
}

async function unwatch(parts: ExecutionParts, arg: unknown, many: unknown): Promise<void> {
  for (const task of selectedTasks(await rowOrPick(parts, arg, vscode.l10n.t('Stop Watching Task'), (t) => parts.watcher.isWatched(t.id)), many)) await parts.watcher.unwatch(task.id);
  parts.tree.redraw();
}

async function openLog(arg: unknown): Promise<void> {
  if (!isLogRef(arg)) return void vscode.window.showInformationMessage(vscode.l10n.t('Open Log: open a task in the Tasks view, then a job, then click one of its logs.'));
  await showLog(LogDocumentProvider.uriFor(arg));
}

/** Load Whole Log: the log given, else the one in the active editor, fetched whole. */
async function loadWholeLog(uri?: vscode.Uri): Promise<void> {
  const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  if (!target || target.scheme !== LOG_SCHEME) return void vscode.window.showInformationMessage(vscode.l10n.t("Load Whole Log: open a job's log first."));
  await showLog(target.with({ query: 'whole' }));
}

/** `options.confirm: false` skips the confirmation (the tests, and callers that confirmed already). */
async function act(parts: ExecutionParts, kind: TaskActionKind, arg: unknown, many: unknown, options?: { confirm?: boolean }): Promise<Task[]> {
  let tasks: Task[];
  try {
    tasks = await Promise.all(selectedTasks(arg, many).map((task) => fullTask(parts, task)));
  } catch (error) {
    await showApiError(couldNotReadTask(), error);
    return [];
  }
  if (!tasks.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t({ message: '{0}: right-click a task in the Tasks view.', args: [actionName(kind)], comment: ['{0}: Abort, Run or Re-run'] }));
    return [];
  }
  const able = tasks.filter((t) => canTake(kind, t.status));
  const skipped = tasks.length - able.length;
  if (!able.length) {
    void vscode.window.showInformationMessage(noTaskFits(kind, tasks.length === 1 ? tasks[0] : undefined));
    return [];
  }
  const { message, detail } = confirmationText(kind, able, Date.now());
  const note = skipped ? `\n\n${leftAlone(kind, skipped, tasks.length)}` : '';
  const button = actionButton(kind, able.length);
  if (options?.confirm !== false) {
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
        // Show the new status at once (ABORTING, QUEUED); the refresh that follows catches up with the rest.
        if (kind !== 'rerun') parts.tree.applyTask(outcome.task);
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
async function showLogs(parts: ExecutionParts, arg: unknown): Promise<void> {
  const task = taskArgument(arg);
  if (!task) return;
  try {
    const details = await parts.services.client.tasks.executionDetails(task.id);
    const jobs = sortJobs(details.jobs ?? []);
    const job = jobs.find((j) => j.status === 'FAILED' && !j.retried) ?? jobs[jobs.length - 1];
    const log = job ? jobLogs(job, task.id)[0] : undefined;
    if (!log) {
      void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" has no job logs yet.', task.name ?? task.id));
      return;
    }
    await showLog(LogDocumentProvider.uriFor(log));
  } catch (error) {
    await showApiError(vscode.l10n.t("Could not read the task's jobs"), error);
  }
}

async function announce(parts: ExecutionParts, ended: TaskEnded): Promise<void> {
  const mode = setting('notifyWhenWatchedTasksEnd');
  parts.tree.applyTask(ended.task);
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
  if (chosen === showLogsAction) await showLogs(parts, task);
  else if (chosen === rerunAction) await vscode.commands.executeCommand(COMMANDS.rerunTask, task);
  else if (chosen === copyOutputsAction) await vscode.commands.executeCommand(COMMANDS.copyTaskOutputs, task);
}

export function registerExecutionCommands(parts: ExecutionParts): vscode.Disposable[] {
  type Confirm = { confirm?: boolean };
  return [
    parts.watcher.onDidEnd((ended) => void announce(parts, ended)),
    vscode.commands.registerCommand(COMMANDS.openLog, openLog),
    vscode.commands.registerCommand(COMMANDS.loadWholeLog, loadWholeLog),
    vscode.commands.registerCommand(COMMANDS.showLogs, async (arg: unknown) => showLogs(parts, await rowOrPick(parts, arg, commandTitles().showLogs, (t) => t.status !== 'DRAFT'))),
    vscode.commands.registerCommand(COMMANDS.abortTask, (arg: unknown, many: unknown, options?: Confirm) => actOnRows(parts, 'abort', vscode.l10n.t('Abort Task…'), arg, many, options)),
    vscode.commands.registerCommand(COMMANDS.runTask, (arg: unknown, many: unknown, options?: Confirm) => actOnRows(parts, 'run', vscode.l10n.t('Run Task…'), arg, many, options)),
    vscode.commands.registerCommand(COMMANDS.rerunTask, (arg: unknown, many: unknown, options?: Confirm) => actOnRows(parts, 'rerun', vscode.l10n.t('Re-run Task…'), arg, many, options)),
    vscode.commands.registerCommand(COMMANDS.watchTask, (arg: unknown, many: unknown) => watch(parts, arg, many)),
    vscode.commands.registerCommand(COMMANDS.unwatchTask, (arg: unknown, many: unknown) => unwatch(parts, arg, many)),
  ];
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
function actionButton(kind: TaskActionKind, tasks: number): string {
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
