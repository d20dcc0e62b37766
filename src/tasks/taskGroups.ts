// The task tree's status groups: the six a filter can name and "Other statuses" (the tasks none of them names), their
// counts read together (what the root of the tree shows; one failure for all is said in their place), a group's cost
// when known, and a task moved from one group to another as an action left it. No `vscode` import; taskTree.ts shows
// them.

import * as l10n from '@vscode/l10n';
import type { TaskListQuery } from '../api/tasks';
import type { Task, TaskStatus } from '../api/types';
import { ApiError, describeError } from '../api/errors';
import { type FilterModel, matchesFilter, visibleStatuses } from './filterModel';
import { STATUS_LABELS } from './statuses';
import { TASK_LIST_FIELDS, taskListing, type TaskListing, type TaskSource } from './taskListing';
import { OTHER_GROUP, otherCount, otherStatusSource } from './otherStatuses';
import type { TaskRecords } from './taskRecords';
import { costOf, costWords, emptyCost, mergeCosts, mergeInto, readCost, type CostReadOptions, type CostTotal } from './cost';
import { GroupNode, type GroupStatus } from './taskNodes';

export interface TaskCountSource extends TaskSource {
  count(query: TaskListQuery, signal?: AbortSignal): Promise<number>;
}

export interface TaskGroupsOptions {
  source: TaskCountSource;
  filter: FilterModel;
  now: () => number;
  /** The listing of a named status's group. */
  listing: (status: TaskStatus) => TaskListing;
  /** Each page the "Other statuses" listing reads, as it arrives. */
  onPage: (tasks: Task[]) => void;
  /** Counts arrived from the platform. */
  onLoad: () => void;
  /** Whole records read on demand, when there is somewhere to read them. */
  records: TaskRecords | undefined;
}

export class TaskGroups {
  private readonly groups = new Map<GroupStatus, GroupNode>();
  private countsPromise: Promise<void> | undefined;
  private countsLoaded = false;
  private countsError: unknown;
  private countsController = new AbortController();

  constructor(private readonly options: TaskGroupsOptions) {
    for (const status of Object.keys(STATUS_LABELS) as TaskStatus[]) {
      this.groups.set(status, new GroupNode(status, options.listing(status)));
    }
    const otherList = taskListing(
      otherStatusSource(options.source, () => this.groups.get(OTHER_GROUP)?.count),
      () => ({ ...this.filter.query(undefined, this.options.now()), fields: TASK_LIST_FIELDS }),
      (tasks) => options.onPage(tasks),
    );
    this.groups.set(OTHER_GROUP, new GroupNode(OTHER_GROUP, otherList));
  }

  private get filter(): FilterModel {
    return this.options.filter;
  }

  group(status: GroupStatus): GroupNode {
    return this.groups.get(status)!;
  }

  /** Every group, shown or not. */
  all(): GroupNode[] {
    return [...this.groups.values()];
  }

  /** One failure of every count (no token, platform unreachable, rate limit): said once, in place of the groups. */
  get error(): unknown {
    return this.countsError;
  }

  /** The groups the filter lets through, in the view's order; "Other statuses" last, when it holds any task. */
  visible(): GroupNode[] {
    const groups = visibleStatuses(this.filter.filter).map((s) => this.group(s));
    const other = this.group(OTHER_GROUP);
    if (this.countsOther() && (other.count !== 0 || other.countError) && other.count !== undefined) groups.push(other);
    return groups;
  }

  /** The six groups' counts tell the "Other" count only when none is filtered out. */
  private countsOther(): boolean {
    return !this.filter.filter.statuses?.length;
  }

  /** The task in the group its status now names, out of the one before: counts and loaded listings alike. */
  move(task: Task, from: GroupStatus | undefined, to: GroupStatus): void {
    if (from === to || !matchesFilter(task, this.filter.filter, this.options.now())) return;
    if (from) {
      const group = this.group(from);
      group.list.remove(task.id);
      if (group.count !== undefined) group.count = Math.max(0, group.count - 1);
    }
    const group = this.group(to);
    if (group.list.loaded) {
      const record = { ...this.listedRecord(task.id), ...task };
      // Newest first, as the platform lists a group.
      const at = group.list.items.findIndex((t) => (t.created_time ?? '') < (record.created_time ?? ''));
      group.list.insert(record, at < 0 ? group.list.items.length : at);
    }
    if (group.count !== undefined) group.count += 1;
  }

  /** The record of a task as a group lists it, if any does. */
  listedRecord(id: string): Task | undefined {
    for (const group of this.groups.values()) {
      const found = group.list.items.find((t) => t.id === id);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * A group's cost in words when known without a request: read by Cost of These Tasks for its current count, or its
   * whole listing loaded (the listing's records carry their price).
   */
  knownCost(node: GroupNode): string | undefined {
    if (node.cost && node.cost.count === node.count) return costWords(node.cost.total);
    const list = node.list;
    if (list.loaded && !list.hasMore && list.error === undefined && list.total === node.count && node.count !== undefined) {
      // Listings do not ask for prices: known when every task's whole record was read (and is current).
      const records = this.options.records;
      const items = records ? list.items.map((t) => ({ ...records.current(t), ...t })) : list.items;
      if (items.every((t) => t.price !== undefined)) return costWords(costOf(items));
    }
    return undefined;
  }

  /**
   * What the tasks of a status group, or (with none) every task under the filter cost, read page by page with the
   * price field only. A group's total shows in its tooltip until its count changes.
   */
  async cost(scope: GroupNode | undefined, options: CostReadOptions = {}): Promise<CostTotal> {
    const source = this.options.source;
    if (scope) {
      if (scope.status === OTHER_GROUP) throw new ApiError({ kind: 'invalid', message: l10n.t('The platform cannot list the tasks in other statuses by status.') });
      const counted = scope.count;
      const total = await readCost(source, this.filter.query(scope.status, this.options.now()), options);
      scope.cost = { total, count: counted ?? total.tasks };
      return total;
    }
    const statuses = this.filter.filter.statuses;
    if (!statuses?.length) return readCost(source, this.filter.query(undefined, this.options.now()), options);
    // A query names one status at most: one read per status shown, added up.
    const total = emptyCost();
    for (const status of statuses) {
      const part = await readCost(source, this.filter.query(status, this.options.now()), { ...options, onPage: (sofar, matching) => options.onPage?.(mergeCosts(total, sofar), matching) });
      mergeInto(total, part);
    }
    return total;
  }

  /** What the root of the tree shows: the groups, the message in their place. */
  rootState(): string {
    const groups = this.visible();
    const error = this.countsError === undefined ? '' : describeError(this.countsError);
    return `${error}|${groups.map((g) => g.status).join(',')}|${groups.every((g) => g.count === 0)}`;
  }

  /** Forgets every count and listing (a new filter, a new sign-in). */
  reset(): void {
    this.countsController.abort();
    this.countsController = new AbortController();
    this.countsPromise = undefined;
    this.countsLoaded = false;
    this.countsError = undefined;
    for (const group of this.groups.values()) {
      group.count = undefined;
      group.countError = undefined;
      group.cost = undefined;
      group.list.reset();
      group.taskNodes.clear();
    }
  }

  load(force: boolean): Promise<void> {
    // Counts known are drawn at once (with the moves an action made) while a refresh reads them again: a slow
    // platform never holds the view back.
    if (!force && this.countsLoaded) return Promise.resolve();
    if (this.countsPromise && !this.countsLoaded) return this.countsPromise;
    this.countsController.abort();
    const controller = new AbortController();
    this.countsController = controller;
    const groups = visibleStatuses(this.filter.filter).map((s) => this.group(s));
    if (this.countsOther()) groups.push(this.group(OTHER_GROUP));
    const promise = (async () => {
      const results = await Promise.allSettled(
        groups.map((group) => {
          const status = group.status === OTHER_GROUP ? undefined : group.status;
          return this.options.source.count(this.filter.query(status, this.options.now()), controller.signal);
        }),
      );
      if (controller.signal.aborted) return;
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      // One failure for all (no token, platform unreachable, rate limit): say it once, in place of the groups.
      this.countsError = failures.length === results.length && results.length ? failures[0].reason : undefined;
      results.forEach((result, i) => {
        const group = groups[i];
        if (result.status === 'fulfilled') {
          group.count = result.value;
          group.countError = undefined;
        } else {
          group.countError = describeError(result.reason);
        }
      });
      const other = this.group(OTHER_GROUP);
      if (this.countsOther() && other.countError === undefined && other.count !== undefined) {
        // Until now it held the unfiltered total; what no group holds is the rest.
        const named = groups.filter((g) => g !== other);
        other.count = named.every((g) => g.count !== undefined && !g.countError) ? otherCount(other.count, named.map((g) => g.count!)) : undefined;
      }
      this.countsLoaded = true;
      this.options.onLoad();
    })();
    this.countsPromise = promise;
    return promise;
  }

  /** Sets a group's count to its listing's total (when read without an error); true when that changed it. */
  countFromListing(group: GroupNode): boolean {
    const { total, error } = group.list;
    if (total === undefined || error !== undefined || group.count === total) return false;
    group.count = total;
    return true;
  }

  /** Stops reading counts and drops every listing (the view is gone). */
  dispose(): void {
    this.countsController.abort();
    for (const group of this.groups.values()) group.list.reset();
  }
}
