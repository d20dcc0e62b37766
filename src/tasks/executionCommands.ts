// The commands that act on a task's execution: open a log (and all of it), watch / stop watching, abort, run,
// re-run, and the notification when a watched task ends. Thin: each asks the models in ./actions, ./watcher,
// ./logs and the client.

import * as vscode from 'vscode';
import type { TaskActionKind } from '../api/tasks';
import type { Task } from '../api/types';
import type { Services } from '../services';
import { showApiError } from '../ui/errors';
import { formatDuration } from '../util/time';
import { ACTION_WORDS, canTake, confirmationText, describeOutcome, TaskActionSender } from './actions';
import { taskArgument } from './commands';
import { pickTask } from './filterPicks';
import { LOG_SCHEME, LogDocumentProvider, showLog } from './logs';
import type { Refresher } from './refresher';
import { jobLogs, sortJobs, type LogRef } from './taskInfo';
import type { TaskTreeModel, TaskTreeNode } from './taskTree';
import { NOTIFY_SETTING, notifyMode, shouldNotify, type TaskEnded, type TaskWatcher } from './watcher';
import { COMMAND_TITLES, COMMANDS } from '../keys/commands';

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

export function registerExecutionCommands(parts: ExecutionParts): vscode.Disposable[] {
  const { services, tree, refresher, watcher, sender, view } = parts;
  const { client } = services;

  /** The tasks a command is for: the selection when the clicked row is in it, else the clicked row. */
  const selectedTasks = (arg: unknown, many: unknown): Task[] => {
    const list = Array.isArray(many) && many.length ? many : [arg];
    const tasks = list.map(taskArgument).filter((t): t is Task => !!t && typeof t.id === 'string');
    const unique = new Map(tasks.map((t) => [t.id, t]));
    return [...unique.values()];
  };

  /**
   * The row a command acts on: its argument (a context menu), else the view's selection (a keyboard user's focus),
   * else a task picked from the newest ones (the palette), among those `fits` accepts.
   */
  const rowOrPick = async (arg: unknown, title: string, fits: (task: Task) => boolean): Promise<unknown> => {
    if (arg !== undefined || view.selection.length) return arg ?? view.selection[0];
    const picked = await pickTask(services, { title: `Seven Bridges: ${title}`, placeholder: 'Which task? Pick one, or paste a task ID', query: {}, accept: fits, noun: 'Tasks' });
    return picked && picked !== 'none' ? picked : undefined;
  };
  const active = (t: Task) => t.status !== 'COMPLETED' && t.status !== 'FAILED' && t.status !== 'ABORTED';

  const full = async (task: Task): Promise<Task> => (task.status && task.name ? task : await client.tasks.get(task.id));

  /** `options.confirm: false` skips the confirmation (the tests, and callers that confirmed already). */
  async function act(kind: TaskActionKind, arg: unknown, many: unknown, options?: { confirm?: boolean }): Promise<Task[]> {
    const words = ACTION_WORDS[kind];
    let tasks: Task[];
    try {
      tasks = await Promise.all(selectedTasks(arg, many).map(full));
    } catch (error) {
      await showApiError('Could not read the task', error);
      return [];
    }
    if (!tasks.length) {
      void vscode.window.showInformationMessage(`${words.verb}: right-click a task in the Tasks view.`);
      return [];
    }
    const able = tasks.filter((t) => canTake(kind, t.status));
    const skipped = tasks.length - able.length;
    if (!able.length) {
      const rule = kind === 'abort' ? 'running or queued' : kind === 'run' ? 'draft' : 'completed, failed or aborted';
      void vscode.window.showInformationMessage(`${words.verb}: only ${rule} tasks can be ${words.past}; ${tasks.length === 1 ? `"${tasks[0].name}" is ${tasks[0].status?.toLowerCase()}` : 'none of the selected is'}.`);
      return [];
    }
    const { message, detail } = confirmationText(kind, able, Date.now());
    const note = skipped ? `\n\n${skipped} of the ${tasks.length} selected ${skipped === 1 ? 'is' : 'are'} left alone (not ${kind === 'abort' ? 'running or queued' : kind === 'run' ? 'a draft' : 'finished'}).` : '';
    const button = able.length === 1 ? `${words.button} Task` : `${words.button} ${able.length} Tasks`;
    if (options?.confirm !== false) {
      const chosen = await vscode.window.showWarningMessage(message, { modal: true, detail: detail + note }, button);
      if (chosen !== button) return [];
    }
    const results: Task[] = [];
    const problems: string[] = [];
    await Promise.all(
      able.map(async (task) => {
        const outcome = await sender.sendTaskAction(kind, task);
        if (outcome.kind === 'done' || outcome.kind === 'found') {
          results.push(outcome.task);
          // Show the new status at once (ABORTING, QUEUED); the refresh that follows catches up with the rest.
          if (kind !== 'rerun') tree.applyTask(outcome.task);
          if (kind !== 'abort') await watcher.watch(outcome.task);
        } else {
          problems.push(describeOutcome(kind, task, outcome)!);
        }
      }),
    );
    void refresher.refreshNow();
    if (problems.length) void vscode.window.showErrorMessage(problems.join('\n'));
    else {
      const what = results.length === 1 ? `"${results[0].name}"` : `${results.length} tasks`;
      vscode.window.setStatusBarMessage(`$(check) ${words.verb}: ${what} ${kind === 'abort' ? 'aborting' : kind === 'run' ? 'queued' : 're-run (the copy is watched)'}`, 5000);
    }
    return results;
  }

  /** Opens the log that explains the task: the failed job's job.err.log, else the last job's. */
  async function showLogs(arg: unknown): Promise<void> {
    const task = taskArgument(arg);
    if (!task) return;
    try {
      const details = await client.tasks.executionDetails(task.id);
      const jobs = sortJobs(details.jobs ?? []);
      const job = jobs.find((j) => j.status === 'FAILED' && !j.retried) ?? jobs[jobs.length - 1];
      const log = job ? jobLogs(job, task.id)[0] : undefined;
      if (!log) {
        void vscode.window.showInformationMessage(`"${task.name ?? task.id}" has no job logs yet.`);
        return;
      }
      await showLog(LogDocumentProvider.uriFor(log));
    } catch (error) {
      await showApiError('Could not read the task\'s jobs', error);
    }
  }

  async function announce(ended: TaskEnded): Promise<void> {
    const mode = notifyMode(vscode.workspace.getConfiguration().get(NOTIFY_SETTING));
    tree.applyTask(ended.task);
    void refresher.refreshNow();
    if (!shouldNotify(mode, ended.how)) return;
    const { task, how } = ended;
    const name = `"${task.name || task.id}"`;
    const took = typeof task.execution_status?.duration === 'number' ? ` in ${formatDuration(task.execution_status.duration * 1000)}` : '';
    const actions: string[] = [];
    let message: string;
    let show: (m: string, ...items: string[]) => Thenable<string | undefined>;
    if (how === 'COMPLETED') {
      message = `Task ${name} completed${took}.`;
      show = vscode.window.showInformationMessage;
      if (task.outputs && Object.keys(task.outputs).length) actions.push(COMMAND_TITLES.copyTaskOutputs);
      actions.push(COMMAND_TITLES.showLogs);
    } else if (how === 'FAILED') {
      const errors = Array.isArray(task.errors) ? task.errors : task.errors ? Object.values(task.errors as object) : [];
      const first = errors[0] as { message?: unknown } | string | undefined;
      const why = typeof first === 'string' ? first : typeof first?.message === 'string' ? first.message : undefined;
      message = `Task ${name} failed${why ? `: ${why}` : '.'}`;
      show = vscode.window.showErrorMessage;
      actions.push(COMMAND_TITLES.showLogs, 'Re-run');
    } else {
      message = `Task ${name} was aborted.`;
      show = vscode.window.showWarningMessage;
      actions.push(COMMAND_TITLES.showLogs, 'Re-run');
    }
    const chosen = await show(message, ...actions);
    if (chosen === COMMAND_TITLES.showLogs) await showLogs(task);
    else if (chosen === 'Re-run') await vscode.commands.executeCommand(COMMANDS.rerunTask, task);
    else if (chosen === COMMAND_TITLES.copyTaskOutputs) await vscode.commands.executeCommand(COMMANDS.copyTaskOutputs, task);
  }

  return [
    watcher.onDidEnd((ended) => void announce(ended)),

    vscode.commands.registerCommand(COMMANDS.openLog, async (arg: unknown) => {
      if (!isLogRef(arg)) return void vscode.window.showInformationMessage('Open Log: open a task in the Tasks view, then a job, then click one of its logs.');
      await showLog(LogDocumentProvider.uriFor(arg));
    }),

    vscode.commands.registerCommand(COMMANDS.loadWholeLog, async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target || target.scheme !== LOG_SCHEME) return void vscode.window.showInformationMessage('Load Whole Log: open a job\'s log first.');
      await showLog(target.with({ query: 'whole' }));
    }),

    vscode.commands.registerCommand(COMMANDS.showLogs, async (arg: unknown) => showLogs(await rowOrPick(arg, COMMAND_TITLES.showLogs, (t) => t.status !== 'DRAFT'))),

    vscode.commands.registerCommand(COMMANDS.abortTask, async (arg: unknown, many: unknown, options?: { confirm?: boolean }) =>
      act('abort', await rowOrPick(arg, 'Abort Task…', (t) => canTake('abort', t.status)), many ?? (arg === undefined ? view.selection : undefined), options),
    ),
    vscode.commands.registerCommand(COMMANDS.runTask, async (arg: unknown, many: unknown, options?: { confirm?: boolean }) =>
      act('run', await rowOrPick(arg, 'Run Task…', (t) => canTake('run', t.status)), many ?? (arg === undefined ? view.selection : undefined), options),
    ),
    vscode.commands.registerCommand(COMMANDS.rerunTask, async (arg: unknown, many: unknown, options?: { confirm?: boolean }) =>
      act('rerun', await rowOrPick(arg, 'Re-run Task…', (t) => canTake('rerun', t.status)), many ?? (arg === undefined ? view.selection : undefined), options),
    ),

    vscode.commands.registerCommand(COMMANDS.watchTask, async (arg: unknown, many: unknown) => {
      const tasks = selectedTasks(await rowOrPick(arg, 'Watch Task', active), many);
      for (const task of tasks) await watcher.watch(await full(task));
      tree.redraw();
      if (tasks.length) vscode.window.setStatusBarMessage(`$(eye) Watching ${tasks.length === 1 ? `"${tasks[0].name ?? tasks[0].id}"` : `${tasks.length} tasks`}: you will be told when ${tasks.length === 1 ? 'it ends' : 'they end'}`, 5000);
    }),
    vscode.commands.registerCommand(COMMANDS.unwatchTask, async (arg: unknown, many: unknown) => {
      for (const task of selectedTasks(await rowOrPick(arg, 'Stop Watching Task', (t) => watcher.isWatched(t.id)), many)) await watcher.unwatch(task.id);
      tree.redraw();
    }),
  ];
}
