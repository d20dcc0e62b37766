// The task explorer's commands: one table, each entry what it acts on and what it does (see ui/commands.ts for how a
// target is found and an error shown). The run functions are thin: they ask the filter model, the tree model, the
// platform, or the execution functions of ./executionCommands.
import * as vscode from 'vscode';
import { endpointLabel, platformFor } from '../api/endpoint';
import { offersOutputs } from './taskRows';
import { canTake } from './actions';
import { isActive, type Task } from '../api/types';
import type { Services } from '../services';
import { onMany, onOne, plain, type Command } from '../ui/commands';
import { withProgressBar } from '../ui/rowTree';
import { commandTitles } from '../keys/commands';
import { collectLogs, findTask, rerunFailed, showCost, showFailedChildren } from './batchCommands';
import { copyTaskOutputs } from './copyOutputs';
import type { TimelinePanels } from './timelinePanels';
import { TaskDetailsProvider } from './details';
import { act, openLog, loadWholeLog, showLogs, unwatch, watch, type ExecutionParts } from './executionCommands';
import type { FilterModel } from './filterModel';
import { pickFilter, pickFilterProject, pickParent } from './filterPicks';
import type { Refresher } from './refresher';
import { costTarget, failureTarget, fullTask, listingTarget, logTarget, statusTarget, taskTarget, type TaskAsk, type TaskRef } from './targets';
import type { TaskTreeModel } from './taskTree';
import type { CopyFeature } from '../copy/register';
import { gatherOutputs } from '../copy/taskOutputs';
import { readingOutputs } from './copyOutputs';
import { download, type DownloadOptions } from '../remote/download';
import { taskOutputRefs } from '../remote/downloadItems';

export interface TaskCommandParts extends ExecutionParts {
  services: Services;
  filters: FilterModel;
  tree: TaskTreeModel;
  refresher: Refresher;
  details: TaskDetailsProvider;
  copy: CopyFeature;
  timelines: TimelinePanels;
  viewId: string;
}

const whoseOutputs = (): string => vscode.l10n.t('Whose outputs? Pick a completed task, or paste a task ID');

/** Every command of the task explorer. */
export function taskCommands(parts: TaskCommandParts): Command[] {
  const { services, filters, tree, refresher } = parts;
  const task = taskTarget(services);
  const status = statusTarget(tree);
  const progress = <T>(work: Promise<T>) => withProgressBar(parts.viewId, work, services.clock);
  /** The newest tasks the view shows: its filter's query, and its statuses (a query names one status at most). */
  const shown: TaskAsk = {
    query: () => {
      const statuses = filters.filter.statuses;
      return filters.query(statuses?.length === 1 ? statuses[0] : undefined, services.clock.now());
    },
  };
  const inView = (t: TaskRef) => !filters.filter.statuses?.length || (filters.filter.statuses as string[]).includes(t.status ?? '');
  const able = (kind: 'abort' | 'run' | 'rerun') => (t: TaskRef) => canTake(kind, t.status);
  return [
    plain('refreshTasks', () => progress(refresher.refreshNow())),
    plain('filterTasks', () => pickFilter(services, filters, tree)),
    plain('clearTaskFilter', () => filters.clear()),
    onOne('showOnlyStatus', { type: status }, (s) => filters.update({ statuses: [s] })),
    // With no task at hand, the project is what is asked for.
    onOne('filterByProject', { type: task, orElse: () => pickFilterProject(services, filters) }, async (t) => {
      const full = await fullTask(services.client, t);
      if (full.project) await filters.update({ project: full.project });
    }),
    onOne('showChildTasks', { type: task, fits: (t) => t.batch === true, orElse: () => pickParent(services, filters) }, (t) =>
      filters.update({ parent: { id: t.id, ...(t.name ? { name: t.name } : {}) } }),
    ),
    onOne('copyTaskId', { type: task, fits: inView, ask: shown }, copyTaskId),
    onOne('openTaskDetails', { type: task, fits: inView, ask: shown }, (t) => openDetails(parts, t)),
    onOne('openTaskInBrowser', { type: task, fits: inView, ask: shown }, (t) => openInBrowser(parts, t)),
    onMany(
      'copyTaskOutputs',
      {
        type: task,
        fits: (t) => t.batch === true || offersOutputs(t),
        ask: { query: () => ({ status: 'COMPLETED' as const }), list: 'tasksWithOutputs', placeholder: () => whoseOutputs() },
      },
      (tasks, options) => copyTaskOutputs(services, parts.copy, tasks, options),
    ),
    onMany(
      'downloadTaskOutputs',
      {
        type: task,
        fits: (t) => t.batch === true || offersOutputs(t),
        ask: { query: () => ({ status: 'COMPLETED' as const }), list: 'tasksWithOutputs', placeholder: () => whoseOutputs() },
      },
      (tasks, options) => downloadTaskOutputs(services, tasks, options as DownloadOptions),
    ),
    onOne('loadMoreTasks', { type: listingTarget, from: 'argument' }, (node) => progress(tree.loadMore(node))),
    onMany('abortTask', { type: task, fits: able('abort') }, (tasks, options) => act(parts, 'abort', tasks, options)),
    onMany('runTask', { type: task, fits: able('run') }, (tasks, options) => act(parts, 'run', tasks, options)),
    onMany('rerunTask', { type: task, fits: able('rerun') }, (tasks, options) => act(parts, 'rerun', tasks, options)),
    onMany('watchTask', { type: task, fits: (t) => isActive(t.status) }, (tasks) => watch(parts, tasks)),
    onMany('unwatchTask', { type: task, fits: (t) => parts.watcher.isWatched(t.id) }, (tasks) => unwatch(parts, tasks)),
    onOne('openLog', { type: logTarget, orElse: () => vscode.window.showInformationMessage(vscode.l10n.t('Open Log: open a task in the Tasks view, then a job, then click one of its logs.')) }, openLog),
    onOne('showLogs', { type: task, fits: (t) => t.status !== 'DRAFT' }, (t) => showLogs(parts, t)),
    plain('loadWholeLog', loadWholeLog),
    // A row's menu gives its group or batch; the view's title and the palette mean every task under the filter, whatever is selected.
    onOne('costOfTasks', { type: costTarget, fits: () => false, orElse: () => showCost(parts, undefined) }, (scope) => showCost(parts, scope)),
    onOne('showFailedChildren', { type: task, fits: (t) => t.batch === true, ask: { query: () => ({ status: 'FAILED' as const }) } }, (t) => showFailedChildren(filters, t)),
    plain('findTask', () => findTask(parts)),
    onOne('showTimeline', { type: task, ask: shown }, (t) => parts.timelines.show(t)),
    onMany(
      'collectFailureLogs',
      {
        type: failureTarget(services),
        fits: (s) => s.kind === 'failedGroup' || s.task.status === 'FAILED' || (s.task.execution_status?.failed ?? 0) > 0,
        ask: { query: () => ({ status: 'FAILED' as const }) },
        orElse: (options) => collectLogs(parts, [{ kind: 'failedGroup' }], options),
      },
      (scopes, options) => collectLogs(parts, scopes, options),
    ),
    onMany('rerunFailed', { type: task, fits: (t) => (t.batch === true && ((t.execution_status?.failed ?? 0) + (t.execution_status?.aborted ?? 0)) > 0) || (!t.batch && (t.status === 'FAILED' || t.status === 'ABORTED')), ask: { query: () => ({ status: 'FAILED' as const }) } }, (tasks, options) =>
      rerunFailed(parts, tasks, options),
    ),
  ];
}

/** Download Outputs…: each task's outputs under a folder of its name (a batch: its completed children's). */
async function downloadTaskOutputs(services: Services, tasks: TaskRef[], options: DownloadOptions): ReturnType<typeof download> {
  const gathered = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: readingOutputs() }, () =>
    gatherOutputs(tasks, services.client.tasks),
  );
  if (!gathered.ids.length) {
    void vscode.window.showInformationMessage([vscode.l10n.t('The selected tasks have no output files to download.'), ...gathered.notes].join(' '));
    return undefined;
  }
  for (const note of gathered.notes) void vscode.window.showWarningMessage(note);
  return download(services, taskOutputRefs(gathered.byTask), options);
}

async function copyTaskId(task: TaskRef): Promise<void> {
  await vscode.env.clipboard.writeText(task.id);
  vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Copied task ID {0}', task.id)}`, 3000);
}

/** Open Task Details: the whole record as read-only JSON. */
async function openDetails(parts: TaskCommandParts, task: TaskRef): Promise<void> {
  const record = await withProgressBar(parts.viewId, parts.details.load(task.id), parts.services.clock);
  const doc = await vscode.workspace.openTextDocument(TaskDetailsProvider.uriFor(record));
  await vscode.languages.setTextDocumentLanguage(doc, 'json');
  await vscode.window.showTextDocument(doc, { preview: true });
}

export function taskWebUrl(endpoint: string, task: Pick<Task, 'id' | 'project'>): string | undefined {
  const platform = platformFor(endpoint);
  if (!platform || !task.project) return undefined;
  return `${platform.webBase}/u/${task.project}/tasks/${task.id}/`;
}

/** Open Task in Browser: the platform's page of the task; a custom endpoint's is not known, so its ID is offered. */
async function openInBrowser(parts: TaskCommandParts, task: TaskRef): Promise<void> {
  const full = task.project ? task : await fullTask(parts.services.client, task);
  const endpoint = parts.services.session.endpoint;
  const url = taskWebUrl(endpoint, { id: full.id, project: full.project });
  if (!url) {
    const copy = commandTitles().copyTaskId;
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('The web page of {0} is not known (a custom endpoint). The task ID is {1}.', endpointLabel(endpoint), task.id), copy);
    if (choice) await vscode.env.clipboard.writeText(task.id);
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url));
}
