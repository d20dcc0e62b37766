// How a task or a status group looks in the tree: label, description, icon, tooltip text, context value.
// No `vscode` import; the tree provider turns these into TreeItems.

import { parseRecordTimestamp } from '../api/timestamps';
import { TERMINAL_TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import { escapeMarkdown } from '../util/markdown';
import { formatDuration, relativeTime } from '../util/time';
import { tooltipLines, whenText, type RowView } from '../ui/rowView';
import { groupIcon, STATUS_LABELS, statusLook } from './statuses';
import { entryText } from './taskInfo';


/** A status group: "Running" with "12" beside it; a count still loading or unavailable says so. */
export function groupView(status: TaskStatus, count: number | undefined, countError?: string): RowView {
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

export interface TaskViewOptions {
  now: number;
  /** Leave the project out of the description (the view is already filtered to it). */
  hideProject?: boolean;
  /** Whether the task has outputs "Copy Outputs To…" can copy. */
  hasOutputs?: boolean;
}

export function taskContextValue(task: Task, hasOutputs = false): string {
  const tokens = ['task'];
  if (task.batch) tokens.push('batch');
  if (task.status === 'COMPLETED' && hasOutputs) tokens.push('hasOutputs');
  return tokens.join(' ');
}

export function taskView(task: Task, options: TaskViewOptions): RowView {
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
    markdownTooltip: true,
    icon: look.icon,
    contextValue: taskContextValue(task, options.hasOutputs),
    expandable: task.batch === true,
  };
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
    ['Created', whenText(task.created_time, now)],
    ['Started', whenText(task.start_time, now)],
    ['Ended', whenText(task.end_time, now)],
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
  lines.push(...tooltipLines(rows));
  const errors = Array.isArray(task.errors) ? task.errors : [];
  const warnings = Array.isArray(task.warnings) ? task.warnings : [];
  if (errors.length) {
    lines.push('', `**Errors (${errors.length})**`, '');
    for (const e of errors.slice(0, 5)) lines.push(`- $(error) ${escapeMarkdown(entryText(e))}`);
    if (errors.length > 5) lines.push(`- … and ${errors.length - 5} more`);
  }
  if (warnings.length) {
    lines.push('', `**Warnings (${warnings.length})**`, '');
    for (const w of warnings.slice(0, 5)) lines.push(`- $(warning) ${escapeMarkdown(entryText(w))}`);
    if (warnings.length > 5) lines.push(`- … and ${warnings.length - 5} more`);
  }
  return lines.join('\n');
}
