// How a task or a status group looks in the tree: label, description, icon, tooltip text, context value.
// No `vscode` import; the tree provider turns these into TreeItems.

import { parseRecordTimestamp } from '../api/timestamps';
import { TERMINAL_TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import { outputFileIds } from '../copy/extract';
import { escapeMarkdown } from '../util/markdown';
import { formatDuration, formatUtc, relativeTime } from '../util/time';
import { STATUS_LABELS } from './filterModel';
import type { IconSpec, RowView } from '../ui/rowView';

/** Escapes text for a Markdown tooltip (names come from users and may hold any character). */
export { escapeMarkdown } from '../util/markdown';

/** The fields list requests ask for: what the nodes, the tooltips and "Copy Outputs" read, nothing more. */
export const TASK_LIST_FIELDS =
  'id,name,status,project,app,created_by,created_time,start_time,end_time,batch,parent,execution_status,price,errors,warnings,outputs';

export type { IconSpec } from '../ui/rowView';

export interface StatusLook {
  label: string;
  icon: IconSpec;
  /** For transitional and unknown statuses: what it means. */
  note?: string;
}

const LOOKS: Record<string, StatusLook> = {
  RUNNING: { label: 'Running', icon: { id: 'sync~spin', color: 'charts.blue' } },
  QUEUED: { label: 'Queued', icon: { id: 'clock', color: 'charts.yellow' } },
  DRAFT: { label: 'Draft', icon: { id: 'edit' } },
  COMPLETED: { label: 'Completed', icon: { id: 'pass', color: 'testing.iconPassed' } },
  FAILED: { label: 'Failed', icon: { id: 'error', color: 'testing.iconFailed' } },
  ABORTED: { label: 'Aborted', icon: { id: 'circle-slash', color: 'disabledForeground' } },
  CREATING: {
    label: 'Creating',
    icon: { id: 'loading~spin', color: 'charts.yellow' },
    note: 'Creating (a batch parent still making its children; moving to Queued/Running)',
  },
  ABORTING: {
    label: 'Aborting',
    icon: { id: 'loading~spin', color: 'testing.iconFailed' },
    note: 'Aborting (moving to Aborted)',
  },
};

const GROUP_ICONS: Record<TaskStatus, IconSpec> = {
  RUNNING: { id: 'sync', color: 'charts.blue' },
  QUEUED: { id: 'clock', color: 'charts.yellow' },
  DRAFT: { id: 'edit' },
  COMPLETED: { id: 'pass', color: 'testing.iconPassed' },
  FAILED: { id: 'error', color: 'testing.iconFailed' },
  ABORTED: { id: 'circle-slash', color: 'disabledForeground' },
};

/** The look of any status a record may carry, including ones this version does not know. */
export function statusLook(status: string | undefined): StatusLook {
  if (status && LOOKS[status]) return LOOKS[status];
  const shown = status ? status.charAt(0) + status.slice(1).toLowerCase() : 'Unknown';
  return { label: shown, icon: { id: 'question' }, note: status ? `Status "${status}" (not known to this extension)` : 'No status given' };
}

export function groupIcon(status: TaskStatus): IconSpec {
  return GROUP_ICONS[status];
}

/** What a tree row shows (the rows of every tree share the shape). */
export type NodeView = RowView;
export type GroupView = NodeView;

/** A status group: "Running" with "12" beside it; a count still loading or unavailable says so. */
export function groupView(status: TaskStatus, count: number | undefined, countError?: string): GroupView {
  const label = STATUS_LABELS[status];
  let description: string;
  let tooltip: string;
  if (countError) {
    description = 'count unavailable';
    tooltip = `${label} tasks: the count could not be read. ${countError}`;
  } else if (count === undefined) {
    description = '…';
    tooltip = `${label} tasks: counting…`;
  } else {
    description = count.toLocaleString('en-US');
    tooltip = `${count.toLocaleString('en-US')} ${label.toLowerCase()} task${count === 1 ? '' : 's'} match`;
  }
  const ariaLabel = countError ? `${label} tasks, count unavailable` : count === undefined ? `${label} tasks, counting` : tooltip;
  return { label, description, tooltip, ariaLabel, icon: groupIcon(status), contextValue: 'taskGroup', expandable: count !== 0 || !!countError };
}

/** "12 done · 3 running · 1 failed" from a batch parent's execution_status; undefined when there is nothing to count. */
export function batchSummary(task: Pick<Task, 'execution_status'>): string | undefined {
  const es = task.execution_status;
  if (!es) return undefined;
  const parts: string[] = [];
  const add = (n: number | undefined, word: string) => {
    if (typeof n === 'number' && n > 0) parts.push(`${n} ${word}`);
  };
  add(es.completed, 'done');
  add(es.running, 'running');
  add(es.queued, 'queued');
  add(es.failed, 'failed');
  add(es.aborted, 'aborted');
  return parts.length ? parts.join(' · ') : undefined;
}

/** "started 5 min ago" while running, "ended 2 days ago" once over, "created 1 h ago" before it starts. */
export function taskTime(task: Task, now: number): string | undefined {
  const created = parseRecordTimestamp(task.created_time);
  const started = parseRecordTimestamp(task.start_time);
  const ended = parseRecordTimestamp(task.end_time);
  const terminal = task.status !== undefined && TERMINAL_TASK_STATUSES.includes(task.status);
  if (ended && (terminal || !started)) return `ended ${relativeTime(ended, now)}`;
  if (started && task.status !== 'DRAFT' && task.status !== 'QUEUED') return `started ${relativeTime(started, now)}`;
  if (ended) return `ended ${relativeTime(ended, now)}`;
  if (created) return `created ${relativeTime(created, now)}`;
  return undefined;
}

export type TaskView = NodeView;

export interface TaskViewOptions {
  now: number;
  /** Leave the project out of the description (the view is already filtered to it). */
  hideProject?: boolean;
}

/** Whether a task has at least one output "Copy Outputs To…" can copy (the same rule the copy uses). */
export function hasFileOutputs(task: Pick<Task, 'outputs'>): boolean {
  return outputFileIds(task.outputs).length > 0;
}

export function taskContextValue(task: Task): string {
  const tokens = ['task'];
  if (task.batch) tokens.push('batch');
  if (task.status === 'COMPLETED' && hasFileOutputs(task)) tokens.push('hasOutputs');
  return tokens.join(' ');
}

export function taskView(task: Task, options: TaskViewOptions): TaskView {
  const look = statusLook(task.status);
  // The most useful words first: a narrow side bar cuts the description at its end.
  const parts: string[] = [];
  const time = taskTime(task, options.now);
  if (time) parts.push(time);
  if (task.batch) {
    const summary = batchSummary(task);
    if (summary) parts.push(summary);
  }
  if (task.project && !options.hideProject) parts.push(task.project);
  return {
    label: task.name || task.id,
    description: parts.join(' · '),
    ariaLabel: [task.name || task.id, look.label.toLowerCase(), ...parts].join(', '),
    tooltip: taskTooltip(task, options.now),
    icon: look.icon,
    contextValue: taskContextValue(task),
    expandable: task.batch === true,
  };
}

function when(value: string | undefined, now: number): string | undefined {
  const date = parseRecordTimestamp(value);
  return date ? `${formatUtc(date)} (${relativeTime(date, now)})` : undefined;
}

function messageOf(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object') {
    const e = entry as { message?: unknown; code?: unknown };
    if (typeof e.message === 'string') return typeof e.code === 'number' && e.code !== 0 ? `${e.message} (code ${e.code})` : e.message;
    return JSON.stringify(entry);
  }
  return String(entry);
}

/** The duration: from execution_status when the platform gives it, else from the start and end times (or now). */
export function taskDuration(task: Task, now: number): string | undefined {
  const seconds = task.execution_status?.duration;
  if (typeof seconds === 'number' && seconds >= 0) return formatDuration(seconds * 1000);
  const started = parseRecordTimestamp(task.start_time);
  if (!started) return undefined;
  const ended = parseRecordTimestamp(task.end_time);
  if (ended) return formatDuration(ended.getTime() - started.getTime());
  if (task.status === 'RUNNING') return `${formatDuration(now - started.getTime())} so far`;
  return undefined;
}

/** The Markdown text of a task's tooltip. */
export function taskTooltip(task: Task, now: number): string {
  const look = statusLook(task.status);
  const lines: string[] = [];
  lines.push(`**${escapeMarkdown(task.name || task.id)}**`, '');
  const rows: [string, string | undefined][] = [
    ['Status', look.note ?? look.label],
    ['ID', `\`${task.id}\``],
    ['Project', task.project ? escapeMarkdown(task.project) : undefined],
    ['App', task.app ? escapeMarkdown(task.app) : undefined],
    ['Created by', task.created_by ? escapeMarkdown(task.created_by) : undefined],
    ['Created', when(task.created_time, now)],
    ['Started', when(task.start_time, now)],
    ['Ended', when(task.end_time, now)],
    ['Duration', taskDuration(task, now)],
  ];
  const es = task.execution_status;
  if (es && typeof es.steps_total === 'number' && es.steps_total > 0) {
    rows.push(['Progress', `${es.steps_completed ?? 0}/${es.steps_total} steps`]);
  }
  if (task.batch) rows.push(['Batch', batchSummary(task) ?? 'no children yet']);
  if (task.parent) rows.push(['Batch parent', `\`${task.parent}\``]);
  if (es?.message && es.message !== look.label) rows.push(['Message', escapeMarkdown(es.message)]);
  if (es?.account_limit) rows.push(['Waiting', 'account limit reached']);
  if (es?.system_limit) rows.push(['Waiting', 'system limit reached']);
  if (task.price && typeof task.price.amount === 'number') {
    rows.push(['Price', `${task.price.amount.toFixed(2)} ${task.price.currency ?? ''}`.trim()]);
  }
  for (const [name, value] of rows) if (value !== undefined) lines.push(`${name}: ${value}  `);
  const errors = Array.isArray(task.errors) ? task.errors : [];
  const warnings = Array.isArray(task.warnings) ? task.warnings : [];
  if (errors.length) {
    lines.push('', `**Errors (${errors.length})**`, '');
    for (const e of errors.slice(0, 5)) lines.push(`- $(error) ${escapeMarkdown(messageOf(e))}`);
    if (errors.length > 5) lines.push(`- … and ${errors.length - 5} more`);
  }
  if (warnings.length) {
    lines.push('', `**Warnings (${warnings.length})**`, '');
    for (const w of warnings.slice(0, 5)) lines.push(`- $(warning) ${escapeMarkdown(messageOf(w))}`);
    if (warnings.length > 5) lines.push(`- … and ${warnings.length - 5} more`);
  }
  return lines.join('\n');
}

/** "Load more (230 left)". */
export function loadMoreLabel(left: number | undefined, loading: boolean): string {
  if (loading) return 'Loading more…';
  return left !== undefined && left > 0 ? `Load more (${left.toLocaleString('en-US')} left)` : 'Load more';
}
