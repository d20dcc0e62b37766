// Show Timeline: what the timeline panel draws, laid out here so that the webview only places it. A task's jobs, or a
// batch parent's children, as bars on one time axis (positions in percent of the axis), coloured by status, retries
// marked, failed first on request; the same rows are the panel's table. No `vscode` import.

import * as l10n from '@vscode/l10n';
import { parseRecordTimestamp } from '../api/timestamps';
import type { ExecutionDetails, Task, TaskJob } from '../api/types';
import { formatDuration, formatUtc } from '../util/time';
import { statusLook } from './statuses';
import { jobLogs, numberedJob, retriedWord, soFar, type LogRef } from './taskInfo';
import { count } from '../util/words';

/** The fields a batch's children are read with for its timeline. */
export const TIMELINE_CHILD_FIELDS = 'id,name,status,project,batch,parent,created_time,start_time,end_time,execution_status';

/** The files the panel loads, all from media/ (packaged: .vscodeignore, test/build/manifest.test.ts). */
export const TIMELINE_MEDIA = { script: 'timeline.js', style: 'timeline.css' } as const;

/** A bar's colour, by what its status means: the webview maps each to a theme colour. */
export type Tone = 'passed' | 'failed' | 'running' | 'aborted' | 'waiting';

export interface TimelineBar {
  /** Unique in the timeline: what a click sends back. */
  key: string;
  label: string;
  status: string;
  statusWord: string;
  tone: Tone;
  /** Where the bar starts and how wide it is, in percent of the axis; undefined for what has not started. */
  left?: number;
  width?: number;
  /** Still running: its end is now, and open. */
  open: boolean;
  /** An attempt replaced by another (a job's retry). */
  retried: boolean;
  /** "attempt 1 of 2" for a job that was retried, else undefined. */
  attempt?: string;
  instance?: string;
  duration?: string;
  start?: string;
  end?: string;
  /** Name, duration, instance, status: the bar's hover text and the screen reader's words. */
  tooltip: string;
  /** Whether a click opens something (a job's log, a child's timeline). */
  opens: boolean;
}

export interface TimelineTick {
  left: number;
  label: string;
}

/** The words the panel shows, from the extension's bundle (the webview has no l10n of its own). */
export interface TimelineWords {
  failedFirst: string;
  showTable: string;
  name: string;
  status: string;
  start: string;
  end: string;
  duration: string;
  instance: string;
  retried: string;
  yes: string;
  empty: string;
  caption: string;
  chart: string;
  opensHint: string;
}

/** What is posted to the panel. */
export interface TimelineData {
  kind: 'task' | 'batch';
  taskId: string;
  title: string;
  /** One line under the title: counts, the span, "reading 300 of 1,000 children…". */
  summary: string;
  axis: { start?: string; end?: string; ticks: TimelineTick[] };
  bars: TimelineBar[];
  failedFirst: boolean;
  /** Still reading (a batch's children, page by page). */
  loading: boolean;
  words: TimelineWords;
}

/** One thing on the timeline before it is laid out: a job or a child task. */
export interface TimelineItem {
  key: string;
  label: string;
  status: string;
  start?: number;
  end?: number;
  retried?: boolean;
  attempt?: string;
  instance?: string;
  opens: boolean;
}

/** Maps a time (epoch ms) to a percent of the axis. */
export interface TimeScale {
  start: number;
  end: number;
  at(time: number): number;
}

/** The axis from the earliest start to the latest end (now for what still runs); at least one second long. */
export function timeScale(items: readonly Pick<TimelineItem, 'start' | 'end'>[], now: number): TimeScale | undefined {
  const starts = items.map((i) => i.start).filter((t): t is number => t !== undefined);
  if (!starts.length) return undefined;
  const start = Math.min(...starts);
  const end = Math.max(start + 1000, ...items.filter((i) => i.start !== undefined).map((i) => i.end ?? Math.max(now, i.start!)));
  const span = end - start;
  return { start, end, at: (time) => Math.min(100, Math.max(0, ((time - start) / span) * 100)) };
}

/** Steps an axis is ticked at: round seconds, minutes, hours, days. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800].map((s) => s * 1000);

/** Ticks at a round step from the start, at most `most` of them (the start included), labelled by the time since the start. */
export function axisTicks(scale: TimeScale, most = 8): TimelineTick[] {
  const span = scale.end - scale.start;
  const step = STEPS.find((s) => span / s <= most - 1) ?? Math.ceil(span / (most - 1));
  const ticks: TimelineTick[] = [];
  for (let t = 0; t <= span; t += step) ticks.push({ left: scale.at(scale.start + t), label: t === 0 ? '0' : `+${formatDuration(t)}` });
  return ticks;
}

const TONES: Record<string, Tone> = { COMPLETED: 'passed', FAILED: 'failed', RUNNING: 'running', ABORTING: 'running', ABORTED: 'aborted' };
const FAILED_FIRST: Record<string, number> = { FAILED: 0, ABORTED: 1 };

/** Failed, then aborted, then the rest; by start time within each (what has not started last), else as given. */
export function orderItems<T extends Pick<TimelineItem, 'status' | 'start'>>(items: readonly T[], failedFirst: boolean): T[] {
  const rank = (i: T) => (failedFirst ? FAILED_FIRST[i.status] ?? 2 : 0);
  const start = (i: T) => i.start ?? Number.MAX_SAFE_INTEGER;
  return items
    .map((item, n) => ({ item, n }))
    .sort((a, b) => rank(a.item) - rank(b.item) || start(a.item) - start(b.item) || a.n - b.n)
    .map((x) => x.item);
}

const time = (value: unknown): number | undefined => parseRecordTimestamp(value)?.getTime();

/** A job's attempts: each retried job is "attempt 1 of 2" of its name, in start order. */
function attempts(jobs: readonly TaskJob[]): Map<TaskJob, string> {
  const byName = new Map<string, TaskJob[]>();
  for (const job of jobs) byName.set(job.name ?? '', [...(byName.get(job.name ?? '') ?? []), job]);
  const words = new Map<TaskJob, string>();
  for (const same of byName.values()) {
    if (same.length < 2 || !same.some((j) => j.retried)) continue;
    const ordered = orderItems(same.map((job) => ({ job, status: '', start: time(job.start_time) })), false);
    ordered.forEach(({ job }, i) => words.set(job, l10n.t('attempt {0} of {1}', i + 1, ordered.length)));
  }
  return words;
}

/** A task's jobs as timeline items, each keyed by its place in the platform's list (`job:<n>`). */
export function jobItems(details: ExecutionDetails, task: Pick<Task, 'id' | 'name' | 'project'>): TimelineItem[] {
  const jobs = details.jobs ?? [];
  const attempt = attempts(jobs);
  return jobs.map((job, n) => ({
    key: `job:${n}`,
    label: job.name || numberedJob(n + 1),
    status: job.status ?? 'UNKNOWN',
    start: time(job.start_time),
    end: time(job.end_time),
    retried: job.retried === true,
    attempt: attempt.get(job),
    instance: job.instance?.type,
    opens: jobLogs(job, task).length > 0,
  }));
}

/** The log a job's bar opens: the first in reading order (job.err.log first). */
export function jobLog(details: ExecutionDetails, task: Pick<Task, 'id' | 'name' | 'project'>, key: string): LogRef | undefined {
  const n = /^job:(\d+)$/.exec(key)?.[1];
  const job = n !== undefined ? details.jobs?.[Number(n)] : undefined;
  return job ? jobLogs(job, task)[0] : undefined;
}

/** A batch's children as timeline items, keyed by task ID. */
export function childItems(children: readonly Task[]): TimelineItem[] {
  return children.map((c) => ({ key: c.id, label: c.name || c.id, status: c.status ?? 'UNKNOWN', start: time(c.start_time), end: time(c.end_time), opens: true }));
}

/** An item as a bar on the scale: where it sits, its words. */
export function layoutBar(item: TimelineItem, scale: TimeScale | undefined, now: number): TimelineBar {
  const look = statusLook(item.status);
  const open = item.start !== undefined && item.end === undefined && (item.status === 'RUNNING' || item.status === 'ABORTING');
  const end = item.end ?? (open ? Math.max(now, item.start!) : undefined);
  let left: number | undefined;
  let width: number | undefined;
  if (scale && item.start !== undefined) {
    left = scale.at(item.start);
    // A bar that lasted no time still shows: a sliver of the axis, kept inside it at the end.
    width = Math.max(0.4, scale.at(end ?? item.start) - left);
    left = Math.min(left, 100 - width);
  }
  const took = item.start !== undefined && end !== undefined ? formatDuration(end - item.start) : undefined;
  const duration = took && open ? soFar(took) : took;
  const tooltip = [
    item.label,
    look.label,
    duration,
    item.instance,
    item.attempt ?? (item.retried ? retriedWord() : undefined),
  ]
    .filter((w): w is string => !!w)
    .join(' · ');
  return {
    key: item.key,
    label: item.label,
    status: item.status,
    statusWord: look.label,
    tone: TONES[item.status] ?? 'waiting',
    ...(left !== undefined ? { left: round(left), width: round(width!) } : {}),
    open,
    retried: item.retried === true,
    ...(item.attempt ? { attempt: item.attempt } : {}),
    ...(item.instance ? { instance: item.instance } : {}),
    ...(duration ? { duration } : {}),
    ...(item.start !== undefined ? { start: formatUtc(new Date(item.start)) } : {}),
    ...(item.end !== undefined ? { end: formatUtc(new Date(item.end)) } : {}),
    tooltip,
    opens: item.opens,
  };
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

export interface LayoutInput {
  kind: 'task' | 'batch';
  task: Pick<Task, 'id' | 'name'>;
  items: readonly TimelineItem[];
  failedFirst: boolean;
  now: number;
  /** Reading a batch's children: how many so far, of how many. */
  reading?: { read: number; total?: number };
}

/** Everything the panel draws, laid out. */
export function layoutTimeline(input: LayoutInput): TimelineData {
  const scale = timeScale(input.items, input.now);
  const bars = orderItems(input.items, input.failedFirst).map((item) => layoutBar(item, scale, input.now));
  const name = input.task.name || input.task.id;
  return {
    kind: input.kind,
    taskId: input.task.id,
    title: timelineTitle(name),
    summary: summaryWords(input, scale),
    axis: { ...(scale ? { start: formatUtc(new Date(scale.start)), end: formatUtc(new Date(scale.end)) } : {}), ticks: scale ? axisTicks(scale) : [] },
    bars,
    failedFirst: input.failedFirst,
    loading: input.reading !== undefined && (input.reading.total === undefined || input.reading.read < input.reading.total),
    words: timelineWords(input.kind),
  };
}

/** The panel's title: "Timeline: BWA-MEM run". */
export function timelineTitle(name: string): string {
  return l10n.t('Timeline: {0}', name);
}

function summaryWords(input: LayoutInput, scale: TimeScale | undefined): string {
  const counts = new Map<string, number>();
  for (const item of input.items) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  const n = input.items.length;
  const what = input.kind === 'batch' ? (n === 1 ? l10n.t('1 child task') : l10n.t('{0} child tasks', count(n))) : n === 1 ? l10n.t('1 job') : l10n.t('{0} jobs', count(n));
  const byStatus = [...counts.entries()].map(([status, c]) => `${count(c)} ${statusLook(status).label.toLocaleLowerCase()}`).join(', ');
  const retried = input.items.filter((i) => i.retried).length;
  const parts = [byStatus ? `${what} (${byStatus})` : what];
  if (retried) parts.push(retried === 1 ? l10n.t('1 retried attempt') : l10n.t('{0} retried attempts', retried));
  if (scale) parts.push(l10n.t('{0} from first start to last end', formatDuration(scale.end - scale.start)));
  const reading = input.reading;
  if (reading && (reading.total === undefined || reading.read < reading.total)) {
    parts.push(reading.total !== undefined ? l10n.t('reading {0} of {1}…', count(reading.read), count(reading.total)) : l10n.t('reading…'));
  }
  return parts.join(' · ');
}

function timelineWords(kind: 'task' | 'batch'): TimelineWords {
  return {
    failedFirst: l10n.t('Failed first'),
    showTable: l10n.t('Show as table'),
    name: kind === 'batch' ? l10n.t({ message: 'Task', comment: ['A column heading of the timeline table'] }) : l10n.t({ message: 'Job', comment: ['A column heading of the timeline table'] }),
    status: l10n.t({ message: 'Status', comment: ['A column heading of the timeline table'] }),
    start: l10n.t({ message: 'Start', comment: ['A column heading of the timeline table'] }),
    end: l10n.t({ message: 'End', comment: ['A column heading of the timeline table'] }),
    duration: l10n.t({ message: 'Duration', comment: ['A column heading of the timeline table'] }),
    instance: l10n.t({ message: 'Instance', comment: ['A column heading of the timeline table'] }),
    retried: l10n.t({ message: 'Retried', comment: ['A column heading of the timeline table'] }),
    yes: l10n.t('yes'),
    empty: kind === 'batch' ? l10n.t('No child task has started yet.') : l10n.t('No job has started yet.'),
    caption: kind === 'batch' ? l10n.t('Child tasks, in the order of the timeline') : l10n.t('Jobs, in the order of the timeline'),
    chart: kind === 'batch' ? l10n.t('Timeline of the child tasks: arrow keys move between bars, Enter opens one') : l10n.t('Timeline of the jobs: arrow keys move between bars, Enter opens the log'),
    opensHint: kind === 'batch' ? l10n.t("Enter opens this task's timeline") : l10n.t('Enter opens the log'),
  };
}
