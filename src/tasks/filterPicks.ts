// The quick picks of "Filter Tasks…": one per kind of filter, each showing the current value.

import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { isTaskId } from '../api/ids';
import { parseFilterTimestamp, timestampForms } from '../api/timestamps';
import { TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import type { Services } from '../services';
import {
  checkRange,
  describeParent,
  describeRange,
  describeStatuses,
  type FilterModel,
  TIME_FIELDS,
  TIME_PRESETS,
  timeFieldLabel,
  type TimeField,
  type TimePreset,
  type TimeRange,
} from './filterModel';
import { taskListing } from './taskListing';
import { batchSummary, taskTime } from './taskRows';
import { groupIcon, STATUS_LABELS, statusLook } from './statuses';
import { taskCount } from '../util/words';
import { inUseWords, pickProject } from '../ui/projectPick';
import type { TaskListQuery } from '../api/tasks';
import type { TaskTreeModel } from './taskTree';
import { commandTitles } from '../keys/commands';

type Kind = 'status' | 'project' | 'parent' | TimeField | 'clear';

interface KindPick extends vscode.QuickPickItem {
  filterKind: Kind;
}

/** The task pickers' placeholder and the name of their list. */
export const whichTaskPlaceholder = (): string => vscode.l10n.t('Which task? Pick one, or paste a task ID');

/** "Filter Tasks…": the kinds of filter with their values; picking one opens its own pick. */
export async function pickFilter(services: Services, filters: FilterModel, tree: TaskTreeModel): Promise<void> {
  const f = filters.filter;
  const any = (active: boolean) => (active ? '$(filter-filled) ' : '');
  const items: KindPick[] = [
    { filterKind: 'status', label: `${any(!!f.statuses)}${vscode.l10n.t({ message: 'Status', comment: ['A kind of task filter'] })}`, description: describeStatuses(f.statuses) },
    { filterKind: 'project', label: `${any(!!f.project)}${vscode.l10n.t({ message: 'Project', comment: ['A kind of task filter'] })}`, description: f.project ?? allProjects() },
    { filterKind: 'parent', label: `${any(!!f.parent)}${vscode.l10n.t({ message: 'Parent task', comment: ['A kind of task filter'] })}`, description: f.parent ? describeParent(f.parent) : vscode.l10n.t('Any (top-level and child tasks)') },
    ...TIME_FIELDS.map((field) => ({
      filterKind: field,
      label: `${any(!!f[field])}${timeFieldLabel(field)}`,
      description: f[field] ? describeRange(f[field]!) : anyTime(),
    })),
  ];
  if (filters.active) items.push({ filterKind: 'clear', label: `$(clear-all) ${commandTitles().clearTaskFilter}`, description: filters.description });
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Seven Bridges: Filter Tasks'),
    placeHolder: vscode.l10n.t('What to filter by (filters combine)'),
    matchOnDescription: true,
  });
  if (!pick) return;
  switch (pick.filterKind) {
    case 'status':
      return pickStatuses(filters, tree);
    case 'project':
      return pickFilterProject(services, filters);
    case 'parent':
      return pickParent(services, filters);
    case 'clear':
      return filters.clear();
    default:
      return pickTimeRange(filters, pick.filterKind);
  }
}

interface StatusPick extends vscode.QuickPickItem {
  status: TaskStatus;
}

function statusItems(tree: TaskTreeModel): StatusPick[] {
  return TASK_STATUSES.map((status) => {
    const count = tree.group(status).count;
    return {
      status,
      label: STATUS_LABELS[status],
      description: count !== undefined ? taskCount(count) : undefined,
      iconPath: new vscode.ThemeIcon(groupIcon(status).id),
    };
  });
}

/** Status: a multi-select of the six; none or all selected means every status. */
export async function pickStatuses(filters: FilterModel, tree: TaskTreeModel): Promise<void> {
  const current = filters.filter.statuses;
  const qp = vscode.window.createQuickPick<StatusPick>();
  qp.title = vscode.l10n.t('Seven Bridges: Filter Tasks by Status');
  qp.placeholder = vscode.l10n.t('Statuses to show (none: all)');
  qp.canSelectMany = true;
  qp.items = statusItems(tree);
  qp.selectedItems = qp.items.filter((i) => current?.includes(i.status));
  const chosen = await new Promise<TaskStatus[] | undefined>((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems.map((i) => i.status));
      qp.hide();
    });
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  if (chosen === undefined) return;
  await filters.update({ statuses: chosen.length ? chosen : undefined });
}

/** Project: the caller's projects (type to search), or an `owner/project` typed in and checked with the platform. */
export async function pickFilterProject(services: Services, filters: FilterModel): Promise<void> {
  const current = filters.filter.project;
  const chosen = await pickProject(services.projects, {
    title: vscode.l10n.t('Seven Bridges: Filter Tasks by Project'),
    placeholder: vscode.l10n.t('Type to search your projects, or type owner/project'),
    allowReadOnly: true,
    none: { label: allProjects(), description: current ? vscode.l10n.t('remove the project filter') : inUseWords() },
    current,
    // Checked with the platform so a typo does not silently show an empty view.
    check: (id) => services.client.projects.get(id),
  });
  if (!chosen) return;
  await filters.update({ project: chosen === 'none' ? undefined : chosen.id });
}

interface TaskPick extends vscode.QuickPickItem {
  task?: Pick<Task, 'id' | 'name'>;
  typed?: boolean;
  /** The row that removes a filter ("Any parent"). */
  none?: boolean;
  /** A note (the list is empty, cut short, or could not be read): it cannot be chosen. */
  note?: boolean;
}

/** How many pages of recent tasks are scanned for a task pick. */
const TASK_SCAN_PAGES = 2;

/** The kinds of task list a pick offers. */
export type TaskListKind = 'tasks' | 'batchTasks' | 'tasksWithOutputs';

/** A task list's heading and notes, whole messages per kind (no noun spliced into a sentence). */
function taskListWords(kind: TaskListKind): { heading: string; empty: string; older: (shown: number) => string; failed: string } {
  switch (kind) {
    case 'batchTasks':
      return {
        heading: vscode.l10n.t('Batch tasks'),
        empty: vscode.l10n.t('No batch tasks among the newest tasks'),
        older: (shown) => vscode.l10n.t('Batch tasks among the newest {0} tasks', shown),
        failed: vscode.l10n.t('Could not list the batch tasks'),
      };
    case 'tasksWithOutputs':
      return {
        heading: vscode.l10n.t('Completed tasks with outputs'),
        empty: vscode.l10n.t('No completed tasks with outputs among the newest tasks'),
        older: (shown) => vscode.l10n.t('Completed tasks with outputs among the newest {0} tasks', shown),
        failed: vscode.l10n.t('Could not list the completed tasks'),
      };
    default:
      return {
        heading: vscode.l10n.t({ message: 'Tasks', comment: ['The list of tasks in a task picker'] }),
        empty: vscode.l10n.t('No tasks among the newest tasks'),
        older: (shown) => vscode.l10n.t('From the newest {0} tasks', shown),
        failed: vscode.l10n.t('Could not list the tasks'),
      };
  }
}

export interface TaskPickOptions {
  title: string;
  placeholder: string;
  /** The newest tasks of this query are offered (newest first, two pages of 100). */
  query: TaskListQuery;
  /** Which of the listed tasks to offer; all when absent. */
  accept?: (task: Task) => boolean;
  /** Which tasks are offered, for the list's heading and notes (each a whole message per kind). */
  list: TaskListKind;
  /** Why a task typed in by ID is refused, or undefined when it is fine. */
  refuse?: (task: Task) => string | undefined;
  /** A first row that chooses no task (a filter's "Any parent"). */
  none?: { label: string; description: string; iconPath?: vscode.ThemeIcon };
  currentId?: string;
}

/**
 * A task from the newest ones (two pages), or a task ID pasted and checked with the platform. Resolves with
 * the task, `'none'` when the `none` row was chosen, or undefined when dismissed.
 */
export async function pickTask(services: Services, options: TaskPickOptions): Promise<Pick<Task, 'id' | 'name'> | 'none' | undefined> {
  const qp = vscode.window.createQuickPick<TaskPick>();
  qp.title = options.title;
  qp.placeholder = options.placeholder;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  const fixed: TaskPick[] = options.none ? [{ ...options.none, none: true }] : [];
  const words = taskListWords(options.list);
  let found: TaskPick[] = [];
  let note: TaskPick | undefined;
  const render = () => {
    const typed = qp.value.trim();
    const extra: TaskPick[] = [];
    if (typed && isTaskId(typed) && !found.some((b) => b.task?.id === typed.toLowerCase())) {
      extra.push({ label: typed, iconPath: new vscode.ThemeIcon('edit'), description: vscode.l10n.t('use this task ID'), task: { id: typed.toLowerCase(), name: '' }, typed: true, alwaysShow: true });
    }
    qp.items = [...extra, ...fixed, { label: words.heading, kind: vscode.QuickPickItemKind.Separator }, ...found, ...(note ? [note] : [])];
  };
  qp.onDidChangeValue(render);
  render();
  const query = { ...options.query, order_by: 'created_time' as const, order: 'desc' as const, fields: 'id,name,status,project,batch,created_time,start_time,end_time,execution_status,outputs' };
  const listing = taskListing(services.client.tasks, () => query);
  const accept = options.accept ?? (() => true);
  let closed = false;
  void (async () => {
    for (let page = 0; page < TASK_SCAN_PAGES && (page === 0 || listing.hasMore); page++) {
      await listing.loadMore();
      if (listing.error !== undefined) throw listing.error;
    }
    return { tasks: listing.items.filter(accept), more: listing.hasMore };
  })().then(
    ({ tasks, more }) => {
      const now = services.clock.now();
      found = tasks.map((t) => ({
        label: t.name || t.id,
        // The words that tell tasks apart first: status and time; the project and ID below.
        description: [statusLook(t.status).label, taskTime(t, now), t.batch ? batchSummary(t) : undefined].filter(Boolean).join(' · '),
        detail: [t.project, t.id, t.id === options.currentId ? inUseWords() : undefined].filter(Boolean).join(' · '),
        task: { id: t.id, name: t.name },
      }));
      const info = new vscode.ThemeIcon('info');
      note = !tasks.length
        ? { label: words.empty, iconPath: info, description: vscode.l10n.t('paste a task ID instead'), alwaysShow: true, note: true }
        : more
          ? { label: words.older(TASK_SCAN_PAGES * 100), iconPath: info, description: vscode.l10n.t('paste a task ID for an older one'), alwaysShow: true, note: true }
          : undefined;
      qp.busy = false;
      render();
    },
    (error: unknown) => {
      qp.busy = false;
      if (closed) return;
      note = { label: words.failed, iconPath: new vscode.ThemeIcon('warning'), description: describeError(error), alwaysShow: true, note: true };
      render();
    },
  );
  const chosen = await acceptChecked(qp, async (pick) => {
    if (!pick.typed || !pick.task) return undefined;
    try {
      const task = await services.client.tasks.get(pick.task.id);
      const refused = options.refuse?.(task);
      if (refused) return refused;
      pick.task = { id: task.id, name: task.name };
      return undefined;
    } catch (error) {
      return describeError(error);
    }
  });
  closed = true;
  listing.reset();
  qp.dispose();
  if (!chosen) return undefined;
  return chosen.none ? 'none' : chosen.task;
}

/** Parent task: the batch tasks among the newest (two pages), or a task ID typed in and checked. */
export async function pickParent(services: Services, filters: FilterModel): Promise<void> {
  const current = filters.filter.parent;
  const chosen = await pickTask(services, {
    title: vscode.l10n.t('Seven Bridges: Show the Children of a Batch Task'),
    placeholder: vscode.l10n.t('Pick a batch task, or paste a task ID'),
    query: { project: filters.filter.project },
    accept: (t) => t.batch === true,
    list: 'batchTasks',
    refuse: (task) => (task.batch ? undefined : vscode.l10n.t('"{0}" is not a batch task: it has no children.', task.name || task.id)),
    none: { label: vscode.l10n.t('Any parent'), iconPath: new vscode.ThemeIcon('close'), description: current ? vscode.l10n.t('remove the parent filter') : inUseWords() },
    currentId: current?.id,
  });
  if (!chosen) return;
  await filters.update({ parent: chosen !== 'none' ? { id: chosen.id, ...(chosen.name ? { name: chosen.name } : {}) } : undefined });
}

/** One status, for "Show Only This Status" run from the palette. */
export async function pickOneStatus(tree: TaskTreeModel): Promise<TaskStatus | undefined> {
  const pick = await vscode.window.showQuickPick(statusItems(tree), { title: vscode.l10n.t('Seven Bridges: Show Only One Status'), placeHolder: vscode.l10n.t('Which status?') });
  return pick?.status;
}

/**
 * Shows the pick and resolves with the accepted item. Notes cannot be accepted; `check` may refuse an item (say, an
 * ID typed in and unknown to the platform): its reason then stays in the list, as a note.
 */
function acceptChecked(qp: vscode.QuickPick<TaskPick>, check: (pick: TaskPick) => Promise<string | undefined>): Promise<TaskPick | undefined> {
  return new Promise<TaskPick | undefined>((resolve) => {
    qp.onDidAccept(async () => {
      const pick = qp.selectedItems[0];
      if (!pick || pick.note) return;
      qp.busy = true;
      qp.enabled = false;
      const problem = await check(pick);
      qp.busy = false;
      qp.enabled = true;
      if (problem) {
        const refused: TaskPick = { label: pick.label, iconPath: new vscode.ThemeIcon('error'), description: problem, alwaysShow: true, note: true };
        qp.items = [refused, ...qp.items.filter((i) => i !== pick)];
        return;
      }
      resolve(pick);
      qp.hide();
    });
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
}

interface TimePick extends vscode.QuickPickItem {
  range?: TimeRange;
  custom?: boolean;
}

/** Created / Started / Ended: presets, or a custom range whose bounds are checked as they are typed. */
export async function pickTimeRange(filters: FilterModel, field: TimeField): Promise<void> {
  const label = timeFieldLabel(field);
  const current = filters.filter[field];
  const inUse = (r: TimeRange | undefined) => JSON.stringify(r) === JSON.stringify(current);
  const items: TimePick[] = [
    { label: anyTime(), iconPath: new vscode.ThemeIcon('close'), description: inUse(undefined) ? inUseWords() : undefined },
    ...(Object.keys(TIME_PRESETS) as TimePreset[]).map((preset) => ({
      label: TIME_PRESETS[preset].label,
      description: inUse({ preset }) ? inUseWords() : undefined,
      range: { preset },
    })),
    {
      label: vscode.l10n.t('Custom range…'),
      description: current && !('preset' in current) ? vscode.l10n.t('in use: {0}', describeRange(current)) : undefined,
      detail: vscode.l10n.t('Dates in UTC: {0}', timestampForms()),
      custom: true,
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t({ message: 'Seven Bridges: Filter Tasks by {0} Time', args: [label], comment: ['{0}: Created, Started or Ended'] }),
    placeHolder: vscode.l10n.t({ message: '{0} when?', args: [label], comment: ['{0}: Created, Started or Ended'] }),
  });
  if (!pick) return;
  if (!pick.custom) return filters.update({ [field]: pick.range });
  const range = await askCustomRange(label, current && !('preset' in current) ? current : undefined);
  if (range) await filters.update({ [field]: range });
}

/** Two input boxes, each validated live: the three accepted forms, and `from` not after `to`. */
export async function askCustomRange(label: string, current?: { from?: string; to?: string }): Promise<TimeRange | undefined> {
  const from = await vscode.window.showInputBox({
    title: vscode.l10n.t({ message: '{0} from (1/2)', args: [label], comment: ['{0}: Created, Started or Ended'] }),
    prompt: vscode.l10n.t({ message: 'On or after (UTC unless an offset is given). {0}. Leave empty for no start.', args: [timestampForms()], comment: ['{0}: the accepted date forms'] }),
    placeHolder: vscode.l10n.t('e.g. 2026-03-01 or 2026-03-01T09:30:00 or 2026-03-01T09:30:00+01:00'),
    value: current?.from ?? '',
    ignoreFocusOut: true,
    validateInput: (value) => validateBound(value),
  });
  if (from === undefined) return undefined;
  const to = await vscode.window.showInputBox({
    title: vscode.l10n.t({ message: '{0} to (2/2)', args: [label], comment: ['{0}: Created, Started or Ended'] }),
    prompt: from.trim()
      ? vscode.l10n.t({ message: 'Up to (inclusive). {0}. After {1}. Leave empty for no end.', args: [timestampForms(), from.trim()], comment: ['{0}: the accepted date forms; {1}: the start given'] })
      : vscode.l10n.t({ message: 'Up to (inclusive). {0}. Leave empty for no end.', args: [timestampForms()], comment: ['{0}: the accepted date forms'] }),
    placeHolder: vscode.l10n.t('e.g. 2026-03-07 or 2026-03-07T18:00:00'),
    value: current?.to ?? '',
    ignoreFocusOut: true,
    validateInput: (value) => {
      const own = validateBound(value);
      if (own?.severity === vscode.InputBoxValidationSeverity.Error) return own;
      if (!from.trim() && !value.trim()) return { message: vscode.l10n.t('Give an end, or go back and give a start.'), severity: vscode.InputBoxValidationSeverity.Error };
      const problem = checkRange(from, value);
      return problem ? { message: problem, severity: vscode.InputBoxValidationSeverity.Error } : own;
    },
  });
  if (to === undefined) return undefined;
  if (checkRange(from, to)) return undefined;
  return { ...(from.trim() ? { from: from.trim() } : {}), ...(to.trim() ? { to: to.trim() } : {}) };
}

function validateBound(value: string): vscode.InputBoxValidationMessage | undefined {
  if (!value.trim()) return undefined;
  const check = parseFilterTimestamp(value);
  if (check.ok) return { message: vscode.l10n.t({ message: '= {0} UTC', args: [check.date.toISOString().slice(0, 19).replace('T', ' ')], comment: ['A date typed, as understood'] }), severity: vscode.InputBoxValidationSeverity.Info };
  return { message: check.reason, severity: vscode.InputBoxValidationSeverity.Error };
}

/** A filter's "in use" mark in the picks. */

export const allProjects = (): string => vscode.l10n.t({ message: 'All projects', comment: ['No project filter'] });
const anyTime = (): string => vscode.l10n.t({ message: 'Any time', comment: ['No time filter'] });
