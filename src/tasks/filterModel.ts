// The task filter: what the user chose, the query it makes per status group, and its description in words.
// No `vscode` import: persisted through a Memento-like store, changes announced with an Emitter.

import * as l10n from '@vscode/l10n';
import { isProjectId, isTaskId } from '../api/ids';
import type { TaskListQuery, TimeBound } from '../api/tasks';
import { formatFilterTimestamp, parseFilterTimestamp, parseRecordTimestamp } from '../api/timestamps';
import { TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import { Emitter } from '../util/emitter';
import { readState, STATE, writeState, type TaskFilter, type TimePreset, type TimeRange } from '../keys/state';
import type { StateStore } from '../util/stateStore';
import { STATUS_LABELS } from './statuses';
import { taskCount } from '../util/words';

export const TIME_FIELDS = ['created', 'started', 'ended'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];

// Words are getters: read from the bundle when used (main.ts hands it over after this module has loaded).
export const TIME_PRESETS: Record<TimePreset, { readonly label: string; readonly words: string; readonly ms: number }> = {
  hour: {
    get label() { return l10n.t('Last hour'); },
    get words() { return l10n.t('in the last hour'); },
    ms: 3600_000,
  },
  day: {
    get label() { return l10n.t('Last 24 hours'); },
    get words() { return l10n.t('in the last 24 hours'); },
    ms: 24 * 3600_000,
  },
  week: {
    get label() { return l10n.t('Last 7 days'); },
    get words() { return l10n.t('in the last 7 days'); },
    ms: 7 * 24 * 3600_000,
  },
  month: {
    get label() { return l10n.t('Last 30 days'); },
    get words() { return l10n.t('in the last 30 days'); },
    ms: 30 * 24 * 3600_000,
  },
};
export type { TaskFilter, TimePreset, TimeRange } from '../keys/state';



/** A status's label; a status this version does not know (ABORTING, …), as the platform names it. */
export function statusWord(status: string | undefined): string {
  if (status === undefined) return l10n.t({ message: 'unknown', comment: ['A task\'s status when the platform gave none'] });
  return (STATUS_LABELS as Record<string, string>)[status] ?? status;
}

const TIME_LABELS: Record<TimeField, string> = {
  get created() { return l10n.t({ message: 'Created', comment: ['A task filter: when the task was created'] }); },
  get started() { return l10n.t({ message: 'Started', comment: ['A task filter: when the task started'] }); },
  get ended() { return l10n.t({ message: 'Ended', comment: ['A task filter: when the task ended'] }); },
};

/** "created in the last 24 hours": a time filter in words ({0} is describeRange's phrase). */
function timeFilterWords(field: TimeField, range: TimeRange): string {
  const when = describeRange(range);
  if (field === 'created') return l10n.t({ message: 'created {0}', args: [when], comment: ['{0}: "in the last 24 hours", "since 2026-03-01", …'] });
  if (field === 'started') return l10n.t({ message: 'started {0}', args: [when], comment: ['{0}: "in the last 24 hours", "since 2026-03-01", …'] });
  return l10n.t({ message: 'ended {0}', args: [when], comment: ['{0}: "in the last 24 hours", "since 2026-03-01", …'] });
}

/** Checks a custom range: each bound in one of the three forms, `from` not after `to`. Returns the problem, or undefined. */
export function checkRange(from: string | undefined, to: string | undefined): string | undefined {
  const f = from?.trim() ? parseFilterTimestamp(from) : undefined;
  const t = to?.trim() ? parseFilterTimestamp(to) : undefined;
  if (f && !f.ok) return l10n.t('From: {0}', f.reason);
  if (t && !t.ok) return l10n.t('To: {0}', t.reason);
  if (!f && !t) return l10n.t('Give a start, an end, or both.');
  if (f?.ok && t?.ok && f.date.getTime() > t.date.getTime()) return l10n.t('"From" ({0}) is after "to" ({1}).', from!.trim(), to!.trim());
  return undefined;
}

/** The `*_from` / `*_to` values of a time range at a given moment. */
export function rangeBounds(range: TimeRange, now: number): { from?: string; to?: string } {
  if ('preset' in range) return { from: formatFilterTimestamp(new Date(now - TIME_PRESETS[range.preset].ms)) };
  return { from: range.from?.trim() || undefined, to: range.to?.trim() || undefined };
}

/** Drops what is not a valid filter (a stored value of an older version, a hand-edited state, a caller's patch). */
export function sanitizeFilter(filter: TaskFilter | undefined): TaskFilter {
  const out: TaskFilter = {};
  if (!filter) return out;
  const statuses = TASK_STATUSES.filter((s) => filter.statuses?.includes(s));
  if (statuses.length && statuses.length < TASK_STATUSES.length) out.statuses = statuses;
  if (filter.project !== undefined && isProjectId(filter.project)) out.project = filter.project;
  const parent = filter.parent;
  if (parent && isTaskId(parent.id)) out.parent = { id: parent.id, ...(parent.name ? { name: parent.name } : {}) };
  const ids = filter.set?.ids.filter(isTaskId);
  if (filter.set && ids?.length) out.set = { name: filter.set.name, ids };
  for (const field of TIME_FIELDS) {
    const range = filter[field];
    if (!range) continue;
    if ('preset' in range) {
      if (range.preset in TIME_PRESETS) out[field] = { preset: range.preset };
    } else {
      const from = range.from?.trim() || undefined;
      const to = range.to?.trim() || undefined;
      if (!checkRange(from, to)) out[field] = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
    }
  }
  return out;
}

export function isFilterActive(filter: TaskFilter): boolean {
  return Object.keys(sanitizeFilter(filter)).length > 0;
}

/** The statuses whose groups show: the filter's, in the view's order, or all six. */
export function visibleStatuses(filter: TaskFilter): TaskStatus[] {
  const chosen = filter.statuses?.length ? filter.statuses : TASK_STATUSES;
  return TASK_STATUSES.filter((s) => chosen.includes(s));
}

/** The query for one status group (or, with no status, for every status), newest first. */
export function buildQuery(filter: TaskFilter, status: TaskStatus | undefined, now: number): TaskListQuery {
  const query: TaskListQuery = { order_by: 'created_time', order: 'desc' };
  if (status) query.status = status;
  if (filter.project) query.project = filter.project;
  if (filter.parent) query.parent = filter.parent.id;
  for (const field of TIME_FIELDS) {
    const range = filter[field];
    if (!range) continue;
    const { from, to } = rangeBounds(range, now);
    if (from) query[`${field}_from` as TimeBound] = from;
    if (to) query[`${field}_to` as TimeBound] = to;
  }
  return query;
}

const TIME_OF: Record<TimeField, 'created_time' | 'start_time' | 'end_time'> = { created: 'created_time', started: 'start_time', ended: 'end_time' };

/**
 * Whether the platform lists this task under the filter's project, parent and times (its status aside): a task an
 * action has just made or moved is shown at once only where the next listing will show it.
 */
export function matchesFilter(task: Task, filter: TaskFilter, now: number): boolean {
  if (filter.set && !filter.set.ids.includes(task.id)) return false;
  if (filter.project && task.project !== filter.project) return false;
  if (filter.parent && task.parent !== filter.parent.id) return false;
  for (const field of TIME_FIELDS) {
    const range = filter[field];
    if (!range) continue;
    const at = parseRecordTimestamp(task[TIME_OF[field]])?.getTime();
    if (at === undefined) return false;
    const { from, to } = rangeBounds(range, now);
    const bound = (text: string | undefined) => {
      const check = text ? parseFilterTimestamp(text) : undefined;
      return check?.ok ? check.date.getTime() : undefined;
    };
    const start = bound(from);
    const end = bound(to);
    if ((start !== undefined && at < start) || (end !== undefined && at > end)) return false;
  }
  return true;
}

/** "in the last 24 hours", "from 2026-03-01 to 2026-03-07", "since 2026-03-01", "until 2026-03-07". */
export function describeRange(range: TimeRange): string {
  if ('preset' in range) return TIME_PRESETS[range.preset].words;
  if (range.from && range.to) return l10n.t('from {0} to {1}', range.from, range.to);
  if (range.from) return l10n.t('since {0}', range.from);
  if (range.to) return l10n.t('until {0}', range.to);
  return l10n.t('at any time');
}

export function describeStatuses(statuses: readonly TaskStatus[] | undefined): string {
  if (!statuses?.length || statuses.length === TASK_STATUSES.length) return l10n.t('All statuses');
  return statuses.map((s) => STATUS_LABELS[s]).join(', ');
}

/** Longest parent name the view's description shows whole; names can be 60 characters and more. */
const PARENT_NAME_SHOWN = 24;

export function describeParent(parent: { id: string; name?: string }, maxName = Infinity): string {
  if (!parent.name) return l10n.t('children of {0}…', parent.id.slice(0, 8));
  const name = parent.name.length > maxName ? `${parent.name.slice(0, maxName - 1).trimEnd()}…` : parent.name;
  return l10n.t('children of "{0}"', name);
}

/** "rna-seq-analysis" for "rfranklin/rna-seq-analysis": the words that tell projects apart, for narrow places. */
export function projectShortName(project: string): string {
  const slash = project.indexOf('/');
  return slash >= 0 && slash < project.length - 1 ? project.slice(slash + 1) : project;
}

/** Each active filter in words, in a fixed order; empty when nothing filters. */
export function filterParts(filter: TaskFilter): string[] {
  const parts: string[] = [];
  if (filter.statuses?.length && filter.statuses.length < TASK_STATUSES.length) parts.push(describeStatuses(filter.statuses));
  if (filter.project) parts.push(projectShortName(filter.project));
  if (filter.parent) parts.push(describeParent(filter.parent, PARENT_NAME_SHOWN));
  if (filter.set) parts.push(l10n.t({ message: 'sheet {0}, {1}', args: [filter.set.name, taskCount(filter.set.ids.length)], comment: ['The tasks a sample sheet made: "sheet samples.csv, 12 tasks"'] }));
  for (const field of TIME_FIELDS) {
    const range = filter[field];
    if (range) parts.push(timeFilterWords(field, range));
  }
  return parts;
}

/**
 * The view's description, read after the view's name ("Tasks  Running, Failed · my-project · created in the
 * last 24 hours"): short, because a side bar at its default width shows about 25 characters of it. The
 * "Clear Task Filters" action beside "Filter Tasks…" says that a filter is on.
 */
export function describeFilter(filter: TaskFilter): string | undefined {
  const parts = filterParts(filter);
  if (!parts.length) return undefined;
  // Not capitalised: a project's name is shown as it is written.
  return parts.join(' · ');
}

export function timeFieldLabel(field: TimeField): string {
  return TIME_LABELS[field];
}

/** The filter in use, persisted per workspace; fires on every change. */
export class FilterModel {
  private value: TaskFilter;
  private readonly changed = new Emitter<TaskFilter>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly store: StateStore) {
    this.value = sanitizeFilter(readState(store, STATE.taskFilter));
  }

  get filter(): TaskFilter {
    return this.value;
  }

  get active(): boolean {
    return isFilterActive(this.value);
  }

  get description(): string | undefined {
    return describeFilter(this.value);
  }

  /** Replaces the whole filter. */
  async set(filter: TaskFilter): Promise<void> {
    const next = sanitizeFilter(filter);
    if (JSON.stringify(next) === JSON.stringify(this.value)) return;
    this.value = next;
    this.changed.fire(next);
    await writeState(this.store, STATE.taskFilter, Object.keys(next).length ? next : undefined);
  }

  /** Changes some kinds of filter and keeps the others; an `undefined` value clears that kind. */
  update(patch: Partial<TaskFilter>): Promise<void> {
    const next: TaskFilter = { ...this.value, ...patch };
    for (const key of Object.keys(patch) as (keyof TaskFilter)[]) if (patch[key] === undefined) delete next[key];
    return this.set(next);
  }

  clear(): Promise<void> {
    return this.set({});
  }

  query(status: TaskStatus | undefined, now: number): TaskListQuery {
    return buildQuery(this.value, status, now);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
