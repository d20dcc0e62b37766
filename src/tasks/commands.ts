// The task view's commands: thin, each asks the filter model, the tree model or the platform.

import * as vscode from 'vscode';
import { isTaskId } from '../api/ids';
import { endpointLabel, platformFor } from '../api/endpoint';
import { TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import type { Services } from '../services';
import { showApiError } from '../ui/errors';
import { retryTitle } from '../ui/errorActions';
import { TaskDetailsProvider } from './details';
import type { FilterModel } from './filterModel';
import { pickFilter, pickOneStatus, pickParent, pickProject, pickTask } from './filterPicks';
import type { Refresher } from './refresher';
import { type ContainerNode, type LoadMoreNode, type TaskTreeModel } from './taskTree';
import { TASKS_VIEW_ID, withViewProgress } from './treeProvider';
import { commandTitles, COMMANDS } from '../keys/commands';
import { couldNotReadTask, openTaskDetailsTitle } from './taskInfo';

/** A quick pick's title for a command run from the palette: "Seven Bridges: Copy Task ID". */
export const paletteTitle = (command: string): string => vscode.l10n.t({ message: 'Seven Bridges: {0}', args: [command], comment: ['{0}: a command\'s title'] });
/** The task pickers' placeholder and the name of their list. */
export const whichTaskPlaceholder = (): string => vscode.l10n.t('Which task? Pick one, or paste a task ID');
export { couldNotReadTask } from './taskInfo';

export interface TaskCommandParts {
  services: Services;
  filters: FilterModel;
  tree: TaskTreeModel;
  refresher: Refresher;
  details: TaskDetailsProvider;
  /** The Tasks view's selection, so a command run from the palette acts on the focused row. */
  selection?: () => readonly unknown[];
}

/** The task a command was given: a tree node (`{task}`), a task record, or a task ID. */
export function taskArgument(arg: unknown): Pick<Task, 'id'> & Partial<Task> | undefined {
  if (typeof arg === 'string') return isTaskId(arg) ? { id: arg } : undefined;
  if (!arg || typeof arg !== 'object') return undefined;
  const node = arg as { task?: unknown; id?: unknown };
  if (node.task && typeof node.task === 'object' && typeof (node.task as Task).id === 'string') return node.task as Task;
  if (typeof node.id === 'string' && isTaskId(node.id)) return arg as Task;
  return undefined;
}

function statusArgument(arg: unknown): TaskStatus | undefined {
  const status = typeof arg === 'string' ? arg : (arg as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' && (TASK_STATUSES as readonly string[]).includes(status) ? (status as TaskStatus) : undefined;
}

/**
 * The task a command acts on: its argument (a tree row's context menu), else the task selected in the
 * Tasks view (a keyboard user's focus), else one picked from the newest tasks the view's filter shows.
 */
async function chosenTask(arg: unknown, parts: TaskCommandParts, command: string): Promise<(Pick<Task, 'id'> & Partial<Task>) | undefined> {
  const given = taskArgument(arg) ?? taskArgument(parts.selection?.()[0]);
  if (given) return given;
  // The tasks the view shows: its filter's query, and its statuses (a query names one status at most).
  const statuses = parts.filters.filter.statuses;
  const picked = await pickTask(parts.services, {
    title: paletteTitle(command),
    placeholder: whichTaskPlaceholder(),
    query: parts.filters.query(statuses?.length === 1 ? statuses[0] : undefined, Date.now()),
    accept: statuses?.length ? (t) => (statuses as string[]).includes(t.status ?? '') : undefined,
    list: 'tasks',
  });
  return picked && picked !== 'none' ? picked : undefined;
}

export function taskWebUrl(endpoint: string, task: Pick<Task, 'id' | 'project'>): string | undefined {
  const platform = platformFor(endpoint);
  if (!platform || !task.project) return undefined;
  return `${platform.webBase}/u/${task.project}/tasks/${task.id}/`;
}

/** A node's full record when the node came from a list with fewer fields. */
async function fullTask(parts: TaskCommandParts, task: Pick<Task, 'id'> & Partial<Task>): Promise<Task> {
  return task.project && task.name ? (task as Task) : await parts.services.client.tasks.get(task.id);
}

/** Show Only This Status: of the group given or selected, else one picked. */
async function showOnlyStatus(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const status = statusArgument(arg) ?? statusArgument(parts.selection?.()[0]) ?? (await pickOneStatus(parts.tree));
  if (status) await parts.filters.update({ statuses: [status] });
}

/** Filter by This Project: the task's project; from the palette with no task at hand, the project is what is asked for. */
async function filterByProject(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const task = taskArgument(arg) ?? taskArgument(parts.selection?.()[0]);
  if (!task) return pickProject(parts.services, parts.filters);
  try {
    const full = await fullTask(parts, task);
    if (full.project) await parts.filters.update({ project: full.project });
  } catch (error) {
    await showApiError(couldNotReadTask(), error);
  }
}

/** Show Child Tasks: of the batch given or selected, else a parent picked among the batch tasks. */
async function showChildren(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const selected = taskArgument(parts.selection?.()[0]);
  const task = taskArgument(arg) ?? (selected?.batch ? selected : undefined);
  if (!task) return pickParent(parts.services, parts.filters);
  await parts.filters.update({ parent: { id: task.id, ...(task.name ? { name: task.name } : {}) } });
}

async function copyTaskId(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const task = await chosenTask(arg, parts, commandTitles().copyTaskId);
  if (!task) return;
  await vscode.env.clipboard.writeText(task.id);
  vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Copied task ID {0}', task.id)}`, 3000);
}

/** Open Task Details: the whole record as read-only JSON. */
async function openDetails(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const task = await chosenTask(arg, parts, openTaskDetailsTitle());
  if (!task) return;
  try {
    const record = await vscode.window.withProgress({ location: { viewId: TASKS_VIEW_ID } }, () => parts.details.load(task.id));
    const doc = await vscode.workspace.openTextDocument(TaskDetailsProvider.uriFor(record));
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  } catch (error) {
    await showApiError(vscode.l10n.t('Could not open the task details'), error, { title: retryTitle(), run: () => vscode.commands.executeCommand(COMMANDS.openTaskDetails, arg) });
  }
}

/** Open Task in Browser: the platform's page of the task; a custom endpoint's is not known, so its ID is offered. */
async function openInBrowser(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const task = await chosenTask(arg, parts, vscode.l10n.t('Open Task in Browser'));
  if (!task) return;
  let full: Pick<Task, 'id' | 'project'> = task;
  if (!task.project) {
    try {
      full = await parts.services.client.tasks.get(task.id);
    } catch (error) {
      return showApiError(couldNotReadTask(), error);
    }
  }
  const endpoint = parts.services.session.endpoint;
  const url = taskWebUrl(endpoint, full);
  if (!url) {
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('The web page of {0} is not known (a custom endpoint). The task ID is {1}.', endpointLabel(endpoint), task.id),
      commandTitles().copyTaskId,
    );
    if (choice) await vscode.env.clipboard.writeText(task.id);
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url));
}

async function loadMore(parts: TaskCommandParts, arg: unknown): Promise<void> {
  const node = arg as LoadMoreNode | ContainerNode | undefined;
  if (!node || (node.kind !== 'loadMore' && node.kind !== 'group' && node.kind !== 'task')) return;
  await withViewProgress(parts.tree.loadMore(node));
}

export function registerTaskCommands(parts: TaskCommandParts): vscode.Disposable[] {
  const { services, filters, tree, refresher } = parts;
  const on = (id: string, handler: (parts: TaskCommandParts, arg: unknown) => unknown) => vscode.commands.registerCommand(id, (arg: unknown) => handler(parts, arg));
  return [
    vscode.commands.registerCommand(COMMANDS.refreshTasks, () => withViewProgress(refresher.refreshNow())),
    vscode.commands.registerCommand(COMMANDS.filterTasks, () => pickFilter(services, filters, tree)),
    vscode.commands.registerCommand(COMMANDS.clearTaskFilter, () => filters.clear()),
    on(COMMANDS.showOnlyStatus, showOnlyStatus),
    on(COMMANDS.filterByProject, filterByProject),
    on(COMMANDS.showChildTasks, showChildren),
    on(COMMANDS.copyTaskId, copyTaskId),
    on(COMMANDS.openTaskDetails, openDetails),
    on(COMMANDS.openTaskInBrowser, openInBrowser),
    on(COMMANDS.loadMoreTasks, loadMore),
  ];
}
