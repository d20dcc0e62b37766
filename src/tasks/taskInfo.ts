// What a task opens into in the tree: its errors and warnings, its jobs (failed first, each with its logs), its
// inputs and outputs by file name, and a link to the raw record. Built from the task record and its execution
// details; no `vscode` import (the tree provider renders these rows).

import * as l10n from '@vscode/l10n';
import { findFileIds } from '../api/ids';
import { parseRecordTimestamp } from '../api/timestamps';
import { hasEnded, type ExecutionDetails, type Task, type TaskJob } from '../api/types';
import { formatDuration, formatUtc } from '../util/time';
import type { IconSpec, RowView } from '../ui/rowView';
import { commandTitles, COMMANDS } from '../keys/commands';
import { STATUS_LABELS } from './statuses';

/** "3 min so far": how long something still running has run. */
export const soFar = (duration: string): string => l10n.t('{0} so far', duration);

/** The start of an error message when a task could not be read. */
export const couldNotReadTask = (): string => l10n.t('Could not read the task');

const unnamedJob = (): string => l10n.t({ message: 'job', comment: ['A job of a task that has no name'] });

/** "job 3": a job the platform gave no name, by its place in the list (from 1). */
export const numberedJob = (n: number): string => l10n.t('job {0}', n);

/** "retried": an attempt of a job that was replaced by another. */
export const retriedWord = (): string => l10n.t({ message: 'retried', comment: ['A job attempt that was replaced by another'] });

/** A job's status as shown: the task status's label when it is one, else the platform's word capitalised. */
function jobStatusWord(status: string): string {
  return (STATUS_LABELS as Record<string, string | undefined>)[status] ?? status.charAt(0) + status.slice(1).toLowerCase();
}

export interface InfoCommand {
  command: string;
  title: string;
  args: unknown[];
}

/** A file or folder a task names (an input or an output). */
export interface TaskFileRef {
  id: string;
  name: string;
  folder: boolean;
}

/** One row under a task. `key` is unique among its siblings. */
export interface InfoItem {
  key: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: IconSpec;
  contextValue: string;
  command?: InfoCommand;
  children?: InfoItem[];
  /** Open at first (errors, a failed job). */
  expanded?: boolean;
  /** The record of an input or output row. */
  file?: TaskFileRef;
  /** The record of a log row. */
  log?: LogRef;
}

/** How a row under a task looks. */
export function infoView(item: InfoItem): RowView {
  return {
    label: item.label,
    description: item.description ?? '',
    tooltip: item.tooltip ?? '',
    ariaLabel: [item.label, item.description].filter(Boolean).join(', '),
    icon: item.icon,
    contextValue: item.contextValue,
    expandable: !!item.children?.length,
    expanded: item.expanded,
    command: item.command,
  };
}

/** A job's log: what the log editor needs to fetch and title it. */
export interface LogRef {
  fileId: string;
  name: string;
  taskId: string;
  job: string;
  /** The task's name and project, when known: a log's tab and its tooltip say whose log it is. */
  taskName?: string;
  project?: string;
}

/** A log's tab: "job.err.log · samtools_index · BWA-MEM run", so that open logs can be told apart. */
export function logTitle(log: LogRef): string {
  return [log.name, log.job, ...(log.taskName ? [log.taskName] : [])].join(' · ');
}

/** Whose log it is, whole, for its tab's tooltip: "rfranklin/my-project › BWA-MEM run › samtools_index". */
export function logLocation(log: LogRef): string {
  return [...(log.project ? [log.project] : []), log.taskName ?? log.taskId, log.job].join(' › ');
}

const JOB_ORDER: Record<string, number> = { FAILED: 0, ABORTED: 1, RUNNING: 2, QUEUED: 3, COMPLETED: 4 };
const JOB_ICONS: Record<string, IconSpec> = {
  FAILED: { id: 'error', color: 'testing.iconFailed' },
  ABORTED: { id: 'circle-slash', color: 'disabledForeground' },
  RUNNING: { id: 'sync~spin', color: 'charts.blue' },
  COMPLETED: { id: 'pass', color: 'testing.iconPassed' },
};
/** Logs in the order a person reads them when a job failed. */
const LOG_ORDER = ['job.err.log', 'job.out.log', 'cmd.log'];

/** An error or warning entry as text: a string, or a record's message (with its code), or its JSON. */
export function entryText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const e = value as { message?: unknown; code?: unknown };
    if (typeof e.message === 'string') return typeof e.code === 'number' && e.code !== 0 ? `${e.message} (code ${e.code})` : e.message;
    return JSON.stringify(value);
  }
  return String(value);
}

/** Errors and warnings arrive as lists in the docs' examples and as objects in the official Python client. */
export function messages(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(entryText);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if ('message' in (value as object)) return [entryText(value)];
    return entries.map(([k, v]) => (typeof v === 'string' ? `${k}: ${v}` : entryText(v)));
  }
  return [entryText(value)];
}

/** The files among a task's input or output values: `{class, path, name}`, possibly in lists. */
export function fileValues(values: Record<string, unknown> | undefined): { port: string; id: string; name: string; kind: string }[] {
  const out: { port: string; id: string; name: string; kind: string }[] = [];
  const visit = (port: string, value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => visit(port, v, depth + 1));
    const v = value as { class?: unknown; path?: unknown; name?: unknown };
    if ((v.class === 'File' || v.class === 'Directory') && typeof v.path === 'string') {
      out.push({ port, id: v.path, name: typeof v.name === 'string' && v.name ? v.name : v.path, kind: v.class });
    }
  };
  for (const [port, value] of Object.entries(values ?? {})) visit(port, value, 0);
  return out;
}

/** The job's duration: end − start, or "so far" while it runs. */
export function jobDuration(job: TaskJob, now: number): string | undefined {
  const start = parseRecordTimestamp(job.start_time);
  if (!start) return undefined;
  const end = parseRecordTimestamp(job.end_time);
  if (end) return formatDuration(end.getTime() - start.getTime());
  return job.status === 'RUNNING' ? soFar(formatDuration(now - start.getTime())) : undefined;
}

/** Failed jobs first, then aborted, running, completed; the platform's order within each. */
export function sortJobs(jobs: readonly TaskJob[]): TaskJob[] {
  return jobs
    .map((job, i) => ({ job, i }))
    .sort((a, b) => (JOB_ORDER[a.job.status ?? ''] ?? 5) - (JOB_ORDER[b.job.status ?? ''] ?? 5) || a.i - b.i)
    .map((x) => x.job);
}

/** The logs of a job that name a file, in reading order. */
export function jobLogs(job: TaskJob, task: Pick<Task, 'id' | 'name' | 'project'>): LogRef[] {
  const logs: LogRef[] = [];
  for (const [name, url] of Object.entries(job.logs ?? {})) {
    const fileId = typeof url === 'string' ? findFileIds(url)[0] : undefined;
    if (fileId) logs.push({ fileId, name, taskId: task.id, job: job.name ?? unnamedJob(), ...(task.name ? { taskName: task.name } : {}), ...(task.project ? { project: task.project } : {}) });
  }
  const rank = (name: string) => (LOG_ORDER.includes(name) ? LOG_ORDER.indexOf(name) : LOG_ORDER.length);
  return logs.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

function jobItem(job: TaskJob, index: number, task: Task, now: number): InfoItem {
  const status = job.status ?? 'UNKNOWN';
  const parts = [jobStatusWord(status)];
  if (job.instance?.type) parts.push(job.instance.type);
  const duration = jobDuration(job, now);
  if (duration) parts.push(duration);
  if (job.retried) parts.push(retriedWord());
  const start = parseRecordTimestamp(job.start_time);
  const tooltip = [
    l10n.t({ message: '{0}: {1}', args: [job.name ?? unnamedJob(), status], comment: ['{0}: a job\'s name; {1}: its status as the platform names it'] }),
    job.instance?.type ? (job.instance.provider ? l10n.t('Instance: {0} ({1})', job.instance.type, job.instance.provider) : l10n.t('Instance: {0}', job.instance.type)) : undefined,
    start ? l10n.t('Started: {0}', formatUtc(start)) : undefined,
    duration ? l10n.t('Duration: {0}', duration) : undefined,
    job.retried ? l10n.t('Retried: this attempt was replaced by another') : undefined,
    job.command_line ? l10n.t('Command: {0}', job.command_line) : undefined,
  ]
    .filter((l): l is string => !!l)
    .join('\n');
  const logs = jobLogs(job, task).map(
    (log): InfoItem => ({
      key: `log:${log.fileId}`,
      label: log.name,
      tooltip: l10n.t('Open {0} of {1} (read-only; the last 1 MB first)', log.name, log.job),
      icon: { id: 'output' },
      contextValue: 'taskLog',
      command: { command: COMMANDS.openLog, title: commandTitles().openLog, args: [log] },
      log,
    }),
  );
  return {
    key: `job:${index}:${job.name ?? ''}`,
    label: job.name ?? numberedJob(index + 1),
    description: parts.join(' · '),
    tooltip,
    icon: JOB_ICONS[status] ?? { id: 'circle-outline' },
    contextValue: 'taskJob',
    children: logs.length ? logs : [{ key: 'nolog', label: l10n.t('No logs'), icon: { id: 'info' }, contextValue: 'message' }],
    expanded: status === 'FAILED' && !job.retried,
  };
}

function fileItems(prefix: string, values: Record<string, unknown> | undefined, contextValue: string): InfoItem[] {
  return fileValues(values).map((f, i) => ({
    key: `${prefix}:${i}:${f.id}`,
    label: f.name,
    description: f.port,
    tooltip: [f.kind === 'Directory' ? l10n.t('Directory {0}', f.name) : l10n.t('File {0}', f.name), l10n.t('ID: {0}', f.id), l10n.t('Port: {0}', f.port)].join('\n'),
    icon: { id: f.kind === 'Directory' ? 'folder' : 'file' },
    contextValue,
    file: { id: f.id, name: f.name, folder: f.kind === 'Directory' },
    // A click opens a file in the editor (a folder's files open from Projects & Files).
    ...(f.kind === 'Directory' ? {} : { command: { command: COMMANDS.openRemoteFile, title: commandTitles().openRemoteFile, args: [{ id: f.id, name: f.name, folder: false }] } }),
  }));
}

/**
 * The rows under a task. `details` is undefined for a task that has not started (it has no jobs yet);
 * `detailsError` says why the jobs could not be read (the rest is still shown).
 */
export function buildTaskInfo(task: Task, details: ExecutionDetails | undefined, now: number, detailsError?: string): InfoItem[] {
  const items: InfoItem[] = [];
  const errors = messages(task.errors);
  const warnings = messages(task.warnings);
  const section = (key: string, label: string, icon: IconSpec, children: InfoItem[], expanded = false): InfoItem => ({
    key,
    label,
    description: String(children.length),
    icon,
    contextValue: `taskSection ${key}`,
    children,
    expanded,
  });
  if (errors.length) {
    items.push(
      section('errors', l10n.t('Errors'), { id: 'error', color: 'testing.iconFailed' }, errors.map((m, i) => ({ key: `e${i}`, label: m, tooltip: m, icon: { id: 'error', color: 'testing.iconFailed' }, contextValue: 'taskMessage' })), true),
    );
  }
  if (warnings.length) {
    items.push(section('warnings', l10n.t('Warnings'), { id: 'warning', color: 'list.warningForeground' }, warnings.map((m, i) => ({ key: `w${i}`, label: m, tooltip: m, icon: { id: 'warning', color: 'list.warningForeground' }, contextValue: 'taskMessage' }))));
  }
  if (detailsError) {
    items.push({ key: 'jobs-error', label: l10n.t('Jobs could not be read'), description: detailsError, tooltip: detailsError, icon: { id: 'warning' }, contextValue: 'message' });
  } else if (details) {
    const jobs = sortJobs(details.jobs ?? []);
    const failed = jobs.some((j) => j.status === 'FAILED');
    items.push(section('jobs', l10n.t('Jobs'), { id: 'server-process' }, jobs.map((j, i) => jobItem(j, i, task, now)), failed));
  } else {
    items.push({ key: 'jobs-none', label: l10n.t('No jobs yet'), description: l10n.t('the task has not started'), icon: { id: 'info' }, contextValue: 'message' });
  }
  const inputs = fileItems('in', task.inputs, 'taskInput');
  if (inputs.length) items.push(section('inputs', l10n.t('Inputs'), { id: 'arrow-right' }, inputs));
  const outputs = fileItems('out', task.outputs, 'taskOutput');
  if (outputs.length) items.push(section('outputs', l10n.t('Outputs'), { id: 'arrow-left' }, outputs));
  // The action first, in few words: a narrow side bar cuts a row at its end; what it does is in the tooltip.
  const act = (key: string, label: string, tooltip: string | undefined, icon: IconSpec, command: string) =>
    items.push({ key, label, tooltip, icon, contextValue: 'taskAction', command: { command, title: label, args: [task.id] } });
  if (task.status === 'RUNNING' || task.status === 'QUEUED') act('abort', l10n.t('Abort this task…'), undefined, { id: 'debug-stop', color: 'testing.iconFailed' }, COMMANDS.abortTask);
  if (task.status === 'DRAFT') act('run', l10n.t('Run this task…'), undefined, { id: 'play', color: 'testing.iconPassed' }, COMMANDS.runTask);
  if (hasEnded(task.status)) {
    act('rerun', l10n.t('Re-run this task…'), l10n.t('A copy of the task with the same app and inputs is made and run; the original stays as it is.'), { id: 'debug-restart' }, COMMANDS.rerunTask);
  }
  items.push({
    key: 'raw',
    label: l10n.t('Task record (JSON)'),
    tooltip: l10n.t('The whole record as the platform returns it'),
    icon: { id: 'json' },
    contextValue: 'taskRaw',
    command: { command: COMMANDS.openTaskDetails, title: commandTitles().openTaskDetails, args: [task.id] },
  });
  return items;
}

/** Whether the task has started, so it has execution details worth a request. */
export function hasStarted(task: Task): boolean {
  return !!task.start_time || task.status === 'RUNNING' || task.status === 'ABORTING' || hasEnded(task.status);
}
