// How a task or a status group looks in the tree: label, description, icon, tooltip text, context value.
// No `vscode` import; the tree provider turns these into TreeItems.

import * as l10n from '@vscode/l10n';
import { parseRecordTimestamp } from '../api/timestamps';
import { hasEnded, TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import { hasFileOutputs } from '../api/outputs';
import { escapeMarkdown } from '../util/markdown';
import { formatDuration, relativeTime } from '../util/time';
import { FIELD, tooltipLines, whenText, type RowView } from '../ui/rowView';
import { andMore, count as digits } from '../util/words';
import { groupIcon, STATUS_LABELS, statusLook } from './statuses';
import { priceWords } from './cost';
import { entryText, soFar } from './taskInfo';

/** A group's description when its count could not be read. */
export const countUnavailable = (): string => l10n.t('count unavailable');


/** A status group: "Running" with "12" beside it; a count still loading or unavailable says so; its cost once read. */
export function groupView(status: TaskStatus, count: number | undefined, countError?: string, cost?: string): RowView {
  const label = STATUS_LABELS[status];
  let description: string;
  let tooltip: string;
  if (countError) {
    description = countUnavailable();
    tooltip = l10n.t({ message: '{0} tasks: the count could not be read. {1}', args: [label, countError], comment: ['{0}: a status, "Running"; {1}: why'] });
  } else if (count === undefined) {
    description = '…';
    tooltip = l10n.t({ message: '{0} tasks: counting…', args: [label], comment: ['{0}: a status, "Running"'] });
  } else {
    description = count.toLocaleString('en-US');
    tooltip = count === 1
      ? l10n.t({ message: '1 {0} task match', args: [label.toLocaleLowerCase()], comment: ['{0}: a status in lower case, "running"'] })
      : l10n.t({ message: '{0} {1} tasks match', args: [digits(count), label.toLocaleLowerCase()], comment: ['{0}: a count; {1}: a status in lower case, "running"'] });
  }
  const ariaLabel = countError
    ? l10n.t({ message: '{0} tasks, count unavailable', args: [label], comment: ['{0}: a status, "Running"'] })
    : count === undefined
      ? l10n.t({ message: '{0} tasks, counting', args: [label], comment: ['{0}: a status, "Running"'] })
      : tooltip;
  if (cost) tooltip += `\n${l10n.t({ message: 'Cost: {0}', args: [cost], comment: ['{0}: "214 tasks, $1,318.40"'] })}`;
  return { label, description, tooltip, ariaLabel, icon: groupIcon(status), contextValue: status === 'FAILED' ? 'taskGroup failedGroup' : 'taskGroup', expandable: count !== 0 || !!countError };
}

/** "12 done · 3 running · 1 failed" from a batch parent's execution_status; undefined when there is nothing to count. */
export function batchSummary(task: Pick<Task, 'execution_status'>): string | undefined {
  const es = task.execution_status;
  if (!es) return undefined;
  const parts: string[] = [];
  const add = (n: number | undefined, words: (n: string) => string) => {
    if (typeof n === 'number' && n > 0) parts.push(words(digits(n)));
  };
  add(es.completed, (n) => l10n.t({ message: '{0} done', args: [n], comment: ['Children of a batch task'] }));
  add(es.running, (n) => l10n.t({ message: '{0} running', args: [n], comment: ['Children of a batch task'] }));
  add(es.queued, (n) => l10n.t({ message: '{0} queued', args: [n], comment: ['Children of a batch task'] }));
  add(es.failed, (n) => l10n.t({ message: '{0} failed', args: [n], comment: ['Children of a batch task'] }));
  add(es.aborted, (n) => l10n.t({ message: '{0} aborted', args: [n], comment: ['Children of a batch task'] }));
  return parts.length ? parts.join(' · ') : undefined;
}

/** "started 5 minutes ago" while running, "ended 2 days ago" once over, "created 1 h ago" before it starts. */
export function taskTime(task: Task, now: number): string | undefined {
  const created = parseRecordTimestamp(task.created_time);
  const started = parseRecordTimestamp(task.start_time);
  const ended = parseRecordTimestamp(task.end_time);
  const terminal = hasEnded(task.status);
  const endedAgo = (at: Date) => l10n.t({ message: 'ended {0}', args: [relativeTime(at, now)], comment: ['{0}: "5 minutes ago"'] });
  if (ended && (terminal || !started)) return endedAgo(ended);
  if (started && task.status !== 'DRAFT' && task.status !== 'QUEUED') return l10n.t({ message: 'started {0}', args: [relativeTime(started, now)], comment: ['{0}: "5 minutes ago"'] });
  if (ended) return endedAgo(ended);
  if (created) return l10n.t({ message: 'created {0}', args: [relativeTime(created, now)], comment: ['{0}: "5 minutes ago"'] });
  return undefined;
}

export interface TaskViewOptions {
  now: number;
  /** Leave the project out of the description (the view is already filtered to it). */
  hideProject?: boolean;
  /** Whether the task has outputs "Copy Outputs To…" can copy. */
  hasOutputs?: boolean;
  /** false: the tooltip is read on hover from the whole record (RowView.tooltipOnHover), not made from this one. */
  tooltip?: boolean;
}

/**
 * Whether a task's row offers its outputs (Copy Outputs To…, Download Outputs…): a completed task whose outputs hold a
 * file or folder, or, while its outputs are not read (`read`: a listing does not ask for them), any completed task;
 * the command reads them and says when there are none.
 */
export function offersOutputs(task: Pick<Task, 'status' | 'outputs'>, read = task.outputs !== undefined): boolean {
  if (task.status !== 'COMPLETED') return false;
  return !read || hasFileOutputs(task);
}

export function taskContextValue(task: Task, hasOutputs = false): string {
  const tokens = ['task'];
  if (task.batch) tokens.push('batch');
  if (task.batch && (task.execution_status?.failed ?? 0) > 0) tokens.push('hasFailedChildren');
  if (!task.batch && task.status === 'FAILED') tokens.push('failedTask');
  if (task.batch && (task.execution_status?.failed ?? 0) + (task.execution_status?.aborted ?? 0) > 0) tokens.push('hasRerunnableChildren');
  if (task.status === 'COMPLETED' && hasOutputs) tokens.push('hasOutputs');
  return tokens.join(' ');
}

export function taskView(task: Task, options: TaskViewOptions): RowView {
  const look = statusLook(task.status);
  const status = look.label.toLocaleLowerCase();
  const name = task.name || task.id;
  // The most useful words first: a narrow side bar cuts the description at its end.
  const parts: string[] = [];
  const time = taskTime(task, options.now);
  if (time) parts.push(time);
  if (task.batch) {
    const summary = batchSummary(task);
    if (summary) parts.push(summary);
  }
  if (task.project && !options.hideProject) parts.push(task.project);
  // A status no group names (aborting, creating, one this version does not know) is said in words, first: its
  // icon alone does not tell it, and a long name leaves no room for the description.
  const named = (TASK_STATUSES as readonly (string | undefined)[]).includes(task.status);
  return {
    label: named ? name : `${status} · ${name}`,
    description: parts.join(' · '),
    ariaLabel: [name, status, ...parts].join(', '),
    tooltip: options.tooltip === false ? '' : taskTooltip(task, options.now),
    tooltipOnHover: options.tooltip === false || undefined,
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
  if (task.status === 'RUNNING') return soFar(formatDuration(now - started.getTime()));
  return undefined;
}

/** The Markdown text of a task's tooltip. */
export function taskTooltip(task: Task, now: number): string {
  const look = statusLook(task.status);
  const lines: string[] = [];
  lines.push(`**${escapeMarkdown(task.name || task.id)}**`, '');
  const rows: [string, string | undefined][] = [
    [FIELD.status, look.note ?? look.label],
    [FIELD.id, `\`${task.id}\``],
    [FIELD.project, task.project ? escapeMarkdown(task.project) : undefined],
    [FIELD.app, task.app ? escapeMarkdown(task.app) : undefined],
    [FIELD.createdBy, task.created_by ? escapeMarkdown(task.created_by) : undefined],
    [FIELD.created, whenText(task.created_time, now)],
    [FIELD.started, whenText(task.start_time, now)],
    [FIELD.ended, whenText(task.end_time, now)],
    [FIELD.duration, taskDuration(task, now)],
  ];
  const es = task.execution_status;
  // A batch parent's steps are not its children (a 1,000-child batch read "1/1 steps"): its Batch line says those.
  if (!task.batch && es && typeof es.steps_total === 'number' && es.steps_total > 0) {
    rows.push([FIELD.progress, l10n.t('{0} of {1} steps', es.steps_completed ?? 0, es.steps_total)]);
  }
  if (task.batch) rows.push([FIELD.batch, batchSummary(task) ?? l10n.t('no children yet')]);
  if (task.parent) rows.push([FIELD.batchParent, `\`${task.parent}\``]);
  if (es?.message && es.message !== look.label) rows.push([FIELD.message, escapeMarkdown(es.message)]);
  if (es?.account_limit) rows.push([FIELD.waiting, l10n.t('account limit reached')]);
  if (es?.system_limit) rows.push([FIELD.waiting, l10n.t('system limit reached')]);
  const price = priceWords(task.price);
  if (price) rows.push([task.batch ? FIELD.childrenCost : FIELD.price, price]);
  lines.push(...tooltipLines(rows));
  const errors = Array.isArray(task.errors) ? task.errors : [];
  const warnings = Array.isArray(task.warnings) ? task.warnings : [];
  if (errors.length) {
    lines.push('', `**${l10n.t('Errors ({0})', errors.length)}**`, '');
    for (const e of errors.slice(0, 5)) lines.push(`- $(error) ${escapeMarkdown(entryText(e))}`);
    if (errors.length > 5) lines.push(`- ${andMore(errors.length - 5)}`);
  }
  if (warnings.length) {
    lines.push('', `**${l10n.t('Warnings ({0})', warnings.length)}**`, '');
    for (const w of warnings.slice(0, 5)) lines.push(`- $(warning) ${escapeMarkdown(entryText(w))}`);
    if (warnings.length > 5) lines.push(`- ${andMore(warnings.length - 5)}`);
  }
  return lines.join('\n');
}
