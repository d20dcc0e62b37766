// Tasks in a status the `status` filter cannot name (ABORTING, CREATING, a value unknown to us): no status=…
// listing returns them on a platform that filters exactly, so they are found from the unfiltered list.
// Their number is the unfiltered count minus the six groups' counts (one request more per round); when the
// platform lists them under the status they are leaving, that difference is 0 and they show, marked with their
// own status, in that group instead. No `vscode` import.

import * as l10n from '@vscode/l10n';
import type { TaskListQuery } from '../api/tasks';
import { TASK_STATUSES, type Page, type Task } from '../api/types';
import type { IconSpec, RowView } from '../ui/rowView';
import { PAGE_SIZE } from '../api/pagedLoader';
import type { TaskSource } from './taskListing';
import { taskCount } from '../util/words';
import { countUnavailable } from './taskRows';

export const OTHER_GROUP = 'OTHER';
export const otherStatusesLabel = (): string => l10n.t('Other statuses');
/** Pages of the unfiltered list scanned at most when the "Other" group opens (newest first: transitions are recent). */
export const MAX_OTHER_SCAN_PAGES = 20;

export function isNamedStatus(status: string | undefined): boolean {
  return status !== undefined && (TASK_STATUSES as readonly string[]).includes(status);
}

/** How many tasks no status group holds: the unfiltered count minus the groups' counts (never below 0). */
export function otherCount(all: number, groupCounts: readonly number[]): number {
  return Math.max(0, all - groupCounts.reduce((a, b) => a + b, 0));
}

/**
 * A source for the "Other" group: reads the unfiltered list newest first and keeps the tasks whose status is not
 * one of the six, until it has `expected()` of them, reached the end, or read MAX_OTHER_SCAN_PAGES pages. The whole
 * group comes as one page (nothing left to load).
 */
export function otherStatusSource(source: TaskSource, expected: () => number | undefined): TaskSource {
  const scan = async (query: TaskListQuery, signal?: AbortSignal): Promise<Page<Task>> => {
    const found: Task[] = [];
    const want = expected();
    let page = await source.list(query, { offset: 0, limit: PAGE_SIZE, signal });
    for (let pages = 1; ; pages++) {
      for (const task of page.items) if (!isNamedStatus(task.status)) found.push(task);
      if (!page.next || !page.items.length || (want !== undefined && found.length >= want) || pages >= MAX_OTHER_SCAN_PAGES) break;
      page = await source.next(page.next, signal);
    }
    return { items: found, total: found.length, next: undefined };
  };
  return {
    list: (query, page) => scan(query, page.signal),
    next: async () => ({ items: [], total: undefined, next: undefined }),
  };
}

const OTHER_ICON: IconSpec = { id: 'question', color: 'charts.orange' };

/** The "Other statuses" group row. */
export function otherGroupView(count: number | undefined, countError?: string): RowView {
  const label = otherStatusesLabel();
  const description = countError ? countUnavailable() : count === undefined ? '…' : count.toLocaleString('en-US');
  const tooltip = countError
    ? l10n.t('Tasks in other statuses: the count could not be read. {0}', countError)
    : l10n.t('Tasks whose status no filter value names: aborting, batch parents still creating their children, or a status this extension does not know.');
  const ariaLabel = countError
    ? l10n.t('{0}: count unavailable', label)
    : count === undefined
      ? l10n.t('{0}: counting', label)
      : l10n.t({ message: '{0}: {1}', args: [label, taskCount(count)], comment: ['{0}: a group of tasks; {1}: "12 tasks"'] });
  return { label, description, tooltip, ariaLabel, icon: OTHER_ICON, contextValue: 'otherStatusGroup', expandable: count !== 0 || !!countError };
}
