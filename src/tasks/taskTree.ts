// The task tree's data: status groups with counts, their paged tasks, batch children, and the messages shown
// in place of a blank view, and how each row looks. No `vscode` import; ui/rowTree.ts draws it.

import * as l10n from '@vscode/l10n';
import type { ApiBudget } from '../api/budget';
import { systemClock, type Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import type { TaskListQuery } from '../api/tasks';
import { isActive, type ExecutionDetails, type Task, type TaskStatus } from '../api/types';
import { buildTaskInfo, couldNotReadTask, hasStarted, infoView, type InfoItem, type TaskFileRef } from './taskInfo';
import { retryTitle } from '../ui/errorActions';
import { Emitter } from '../util/emitter';
import { errorRows, LoadMoreNode as ListingEnd, loadMoreView, MessageNode as Message, messageView, rowLook, type RowModel, type RowView, unreadTooltipLine } from '../ui/rowView';
import { type FilterModel, matchesFilter, visibleStatuses } from './filterModel';
import { STATUS_LABELS } from './statuses';
import { TASK_LIST_FIELDS, taskListing, type TaskListing, type TaskSource } from './taskListing';
import type { StateStore } from '../util/stateStore';
import { isNamedStatus, OTHER_GROUP, otherCount, otherGroupView, otherStatusSource } from './otherStatuses';
import { groupView, offersOutputs, taskTooltip, taskView } from './taskRows';
import { TaskRecords, type TaskRecordSource } from './taskRecords';
import { costOf, costWords, emptyCost, mergeCosts, mergeInto, readCost, type CostReadOptions, type CostTotal } from './cost';
import { actionTokens } from './actions';
import { commandTitles, COMMANDS } from '../keys/commands';
import { readState, STATE, writeState } from '../keys/state';

/** A status group: one of the six filter values, or the tasks none of them names. */
export type GroupStatus = TaskStatus | typeof OTHER_GROUP;

export interface TaskCountSource extends TaskSource {
  count(query: TaskListQuery, signal?: AbortSignal): Promise<number>;
}

export class GroupNode {
  readonly kind = 'group';
  readonly parent = undefined;
  readonly id: string;
  count: number | undefined;
  countError: string | undefined;
  /** The cost of the group's tasks once read (Cost of These Tasks), for the count it was read at. */
  cost: { total: CostTotal; count: number | undefined } | undefined;
  readonly list: TaskListing;
  readonly taskNodes = new Map<string, TaskNode>();
  readonly more: LoadMoreNode;

  constructor(
    readonly status: GroupStatus,
    list: TaskListing,
  ) {
    this.id = `group:${status}`;
    this.list = list;
    this.more = new ListingEnd<ContainerNode>(this);
  }
}

export class TaskNode {
  readonly kind = 'task';
  readonly id: string;
  /** The record as listed (a row's fields); `task` adds what a whole record read since tells. */
  private listed: Task;
  /** What the task opens into (errors, jobs, logs, files), read when it is first opened. */
  info: { children?: InfoNode[]; loading?: Promise<void>; key: string } | undefined;
  /** A batch parent's children, created when it is first opened. */
  list: TaskListing | undefined;
  readonly taskNodes = new Map<string, TaskNode>();
  readonly more: LoadMoreNode;

  constructor(
    task: Task,
    readonly parent: GroupNode | TaskNode,
    private readonly records?: TaskRecords,
  ) {
    this.listed = task;
    this.id = `${parent.id}/${task.id}`;
    this.more = new ListingEnd<ContainerNode>(this);
  }

  /** The task as far as it is known: its listed fields, and those of its whole record when one was read and is current. */
  get task(): Task {
    return this.records ? this.records.known(this.listed) : this.listed;
  }
  set task(task: Task) {
    this.listed = task;
  }
}

export type ContainerNode = GroupNode | TaskNode;

/** A row under a task: a section (Errors, Jobs…), a job, a log, a file, a message. */
export class InfoNode {
  readonly kind = 'info';
  readonly id: string;
  readonly children: InfoNode[];
  constructor(
    readonly item: InfoItem,
    readonly parent: TaskNode | InfoNode,
  ) {
    this.id = `${parent.id}/${item.key}`;
    this.children = (item.children ?? []).map((c) => new InfoNode(c, this));
  }
  /** The file or folder this row stands for (an input or an output), read by the commands that act on files. */
  get file(): TaskFileRef | undefined {
    return this.item.file;
  }
  /** The task this row belongs to. */
  get task(): Task {
    let node: TaskNode | InfoNode = this.parent;
    while (node.kind === 'info') node = node.parent;
    return node.task;
  }
}

/** What opening a task reads: its whole record and its jobs. */
export interface TaskInfoSource {
  get(id: string, signal?: AbortSignal): Promise<Task>;
  executionDetails(id: string, signal?: AbortSignal): Promise<ExecutionDetails>;
}

export type LoadMoreNode = ListingEnd<ContainerNode>;
export type MessageNode = Message<ContainerNode>;

export type TaskTreeNode = GroupNode | TaskNode | LoadMoreNode | MessageNode | InfoNode;

export interface TaskTreeOptions {
  source: TaskCountSource;
  filter: FilterModel;
  /** Where the expanded groups and batch parents are remembered (workspace state). */
  store: StateStore;
  signedIn: () => boolean;
  /** The clock's time (api/clock.ts's by default). */
  now?: () => number;
  /** The timers (api/clock.ts's by default). */
  clock?: Pick<Clock, 'setTimeout'>;
  /** Lets a task open into its errors, jobs and logs; without it only batch parents open. */
  info?: TaskInfoSource;
  /** Whether a task is watched (its row offers Stop Watching instead of Watch). */
  watched?: (taskId: string) => boolean;
  /**
   * Where whole task records are read (a tooltip, a batch parent's counts, a command over rows); `source` when it can
   * (SbClient's `tasks` can). Without one, rows and tooltips show what the listing holds.
   */
  records?: TaskRecordSource;
  /** How long the batch parents of pages arriving together are gathered before their counts are read (ms). */
  countsDelayMs?: number;
  /** Pages kept on their way ahead of "Load more" once a listing's first "Load more" was asked for (READ_AHEAD_PAGES). */
  readAheadPages?: number;
  /** The API budget (SbClient's `budget`): no page is read ahead while it is low. */
  budget?: Pick<ApiBudget, 'low'>;
}

/**
 * After a listing's first "Load more", the next pages are asked for ahead (never past its total), so that the next
 * "Load more" shows a page already there or on its way: paging 4,192 tasks to the end over an 80 ms round trip takes
 * 1.6–1.7 s instead of 3.8 s one page after another (3 pages a round trip), and costs no request more. A refresh, a
 * new filter or a reset drops them; a listing nobody asked more of reads nothing ahead.
 */
export const READ_AHEAD_PAGES = 3;

/** The batch parents of the pages listed within this time are read in one request. */
export const COUNTS_DELAY_MS = 100;

export class TaskTreeModel implements RowModel<TaskTreeNode> {
  private readonly groups: Map<GroupStatus, GroupNode>;
  private countsPromise: Promise<void> | undefined;
  private countsLoaded = false;
  private rootError: unknown;
  private countsController = new AbortController();
  private readonly expanded: Set<string>;
  private readonly changed = new Emitter<TaskTreeNode | undefined>();
  /** Fires with the node whose children changed, or undefined for the whole tree. */
  readonly onDidChange = this.changed.event;
  private readonly redrawn = new Emitter<void>();
  readonly onDidRedraw = this.redrawn.event;
  private readonly loadedEmitter = new Emitter<void>();
  /** Fires when counts or a listing arrive from the platform (not on redraws). */
  readonly onDidLoad = this.loadedEmitter.event;
  readonly now: () => number;
  /** Whole records read on demand, kept while current; undefined when there is nowhere to read them. */
  readonly records: TaskRecords | undefined;
  /** Reads of batch parents' counts under way (`settled` waits for them). */
  private readonly countReads = new Set<Promise<void>>();
  private disposed = false;
  /** Batch parents listed whose counts are to be read, and the read about to gather them. */
  private readonly countsWanted = new Map<string, Task>();
  private countsFlush: Promise<void> | undefined;

  constructor(private readonly options: TaskTreeOptions) {
    this.now = options.now ?? systemClock.now;
    const recordSource = options.records ?? (isRecordSource(options.source) ? options.source : undefined);
    this.records = recordSource ? new TaskRecords(recordSource) : undefined;
    this.expanded = new Set(readState(options.store, STATE.expandedTaskRows));
    this.groups = new Map();
    for (const status of Object.keys(STATUS_LABELS) as TaskStatus[]) {
      this.groups.set(status, new GroupNode(status, this.listFor({ status })));
    }
    const otherList = taskListing(
      otherStatusSource(this.options.source, () => this.groups.get(OTHER_GROUP)?.count),
      () => ({ ...this.filter.query(undefined, this.now()), fields: TASK_LIST_FIELDS }),
      (tasks) => this.readBatchCounts(tasks),
    );
    this.groups.set(OTHER_GROUP, new GroupNode(OTHER_GROUP, otherList));
  }

  get filter(): FilterModel {
    return this.options.filter;
  }

  group(status: GroupStatus): GroupNode {
    return this.groups.get(status)!;
  }

  /** The groups the filter lets through, in the view's order; "Other statuses" last, when it holds any task. */
  visibleGroups(): GroupNode[] {
    const groups = visibleStatuses(this.filter.filter).map((s) => this.group(s));
    const other = this.group(OTHER_GROUP);
    if (this.countsOther() && (other.count !== 0 || other.countError) && other.count !== undefined) groups.push(other);
    return groups;
  }

  /** The six groups' counts tell the "Other" count only when none is filtered out. */
  private countsOther(): boolean {
    return !this.filter.filter.statuses?.length;
  }

  /** The number of running tasks, as last counted (for the view's badge), or undefined before the first count. */
  runningCount(): number | undefined {
    return this.group('RUNNING').count;
  }

  isExpanded(node: ContainerNode): boolean {
    return this.expanded.has(node.id);
  }

  setExpanded(node: ContainerNode, open: boolean): void {
    const had = this.expanded.has(node.id);
    if (had === open) return;
    if (open) this.expanded.add(node.id);
    else this.expanded.delete(node.id);
    void writeState(this.options.store, STATE.expandedTaskRows, [...this.expanded]);
  }

  async getChildren(node?: TaskTreeNode): Promise<TaskTreeNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind === 'group') return this.containerChildren(node);
    if (node.kind === 'task' && node.task.batch) return this.containerChildren(node);
    if (node.kind === 'task' && this.options.info) return this.infoChildren(node);
    if (node.kind === 'info') return node.children;
    return [];
  }

  /** Whether a task row opens: a batch parent into its children, any other task into what explains it. */
  canOpen(task: Task): boolean {
    return task.batch === true || this.options.info !== undefined;
  }

  /**
   * Shows a task as an action (or its end) left it, at once, before any refresh: its record wherever it is listed,
   * and when its status moves it to another group, in that group (its count, and its listing when loaded) and out of
   * the one before, until the refresh that follows reads the platform again. `was`: its status before the action
   * (else the status it is listed with).
   */
  applyTask(task: Task, was?: string): void {
    const before = was ?? this.listedRecord(task.id)?.status;
    const lists = [...this.groups.values()].map((g) => g.list);
    for (const node of this.findTaskNodes(task.id)) {
      if (node.list) lists.push(node.list);
      if (node.parent.kind === 'task' && node.parent.list) lists.push(node.parent.list);
      if (node.info && node.info.key !== infoKey({ ...node.task, ...task })) node.info = undefined;
      node.task = { ...node.task, ...task };
    }
    for (const list of lists) {
      list.update(task.id, (old) => ({ ...old, ...task }));
      list.forgetAhead();
    }
    if (before !== undefined) this.move(task, groupOf(before), groupOf(task.status));
    this.changed.fire(undefined);
  }

  /** Shows a task an action has just made (a re-run's copy) in its group at once, until the refresh that follows. */
  addTask(task: Task): void {
    const rootBefore = this.rootState();
    const group = this.group(groupOf(task.status));
    group.list.forgetAhead();
    this.move(task, undefined, groupOf(task.status));
    // Its group alone is drawn again (its count, its rows), unless the groups shown changed: a whole tree drawn again
    // holds up a reveal of the new row until every group is drawn anew.
    this.changed.fire(this.rootState() === rootBefore ? group : undefined);
  }

  /** The task in the group its status now names, out of the one before: counts and loaded listings alike. */
  private move(task: Task, from: GroupStatus | undefined, to: GroupStatus): void {
    if (from === to || !matchesFilter(task, this.filter.filter, this.now())) return;
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
  private listedRecord(id: string): Task | undefined {
    for (const group of this.groups.values()) {
      const found = group.list.items.find((t) => t.id === id);
      if (found) return found;
    }
    return undefined;
  }

  /** Draws again, from what is loaded, the rows that look otherwise now (a row's menu depends on whether it is watched). */
  redraw(): void {
    this.redrawn.fire();
  }

  /** How a row looks. */
  rowView(node: TaskTreeNode): RowView {
    switch (node.kind) {
      case 'group': {
        const cost = this.knownCost(node);
        const view = node.status === OTHER_GROUP ? otherGroupView(node.count, node.countError) : groupView(node.status, node.count, node.countError, cost);
        return { ...view, expanded: this.isExpanded(node) };
      }
      case 'task': {
        const task = node.task;
        // Outputs are read with the whole record (a listing does not ask for them); without a place to read it, the listing's are all.
        const outputsRead = this.records ? this.records.current(task) !== undefined || task.outputs !== undefined : true;
        // The tooltip needs the whole record: read when the row is hovered (resolveTooltip), unless it is at hand.
        const onHover = this.records !== undefined && !this.records.current(task);
        const parentName = node.parent.kind === 'task' ? node.parent.task.name : undefined;
        const view = taskView(task, { now: this.now(), hideProject: !!this.filter.filter.project, hasOutputs: offersOutputs(task, outputsRead), tooltip: !onHover, parentName });
        const tokens = actionTokens(task, this.options.watched?.(task.id) ?? false);
        return {
          ...view,
          contextValue: [view.contextValue, tokens].filter(Boolean).join(' '),
          expandable: view.expandable || this.canOpen(task),
          expanded: this.isExpanded(node),
        };
      }
      case 'loadMore':
        return loadMoreView(this.listOf(node.parent), { command: COMMANDS.loadMoreTasks, title: commandTitles().loadMoreTasks, args: [node] });
      case 'info':
        return infoView(node.item);
      case 'message':
        return messageView(node);
    }
  }

  /**
   * A task row's tooltip, from its whole record: one GET the first time it is hovered, none while the record read is
   * current (the same status, start and end; a refresh forgets those of active tasks). Other rows' tooltips are drawn.
   */
  async resolveTooltip(node: TaskTreeNode, signal?: AbortSignal): Promise<string | undefined> {
    if (node.kind !== 'task') return undefined;
    const listed = node.task;
    if (!this.records) return taskTooltip(listed, this.now());
    try {
      const whole = await this.records.one(listed, signal);
      return taskTooltip({ ...whole, ...listed }, this.now());
    } catch (error) {
      // What the listing holds, and why the rest is missing.
      return `${taskTooltip(listed, this.now())}\n\n${unreadTooltipLine(error)}`;
    }
  }

  /**
   * The children's counts of the batch parents on a page (their description, their menus): their whole records, 100 a
   * request, read as the page arrives; their rows are drawn again when the answer is in. Parents whose record is at
   * hand cost nothing.
   */
  private readBatchCounts(tasks: Task[]): void {
    const records = this.records;
    if (!records) return;
    for (const t of tasks) if (t.batch === true && t.execution_status === undefined && !records.current(t)) this.countsWanted.set(t.id, t);
    if (!this.countsWanted.size || this.countsFlush) return;
    // Pages that arrive close together (a refresh's, Load More clicked again) are read together: one request, not one
    // per page; one read at a time.
    this.countsFlush = (async () => {
      await new Promise<void>((resolve) => (this.options.clock ?? systemClock).setTimeout(resolve, this.options.countsDelayMs ?? COUNTS_DELAY_MS));
      await Promise.all([...this.countReads]);
      this.countsFlush = undefined;
      const parents = [...this.countsWanted.values()].filter((t) => !records.current(t));
      this.countsWanted.clear();
      // Gone meanwhile (the view closed, the window reloading): nothing to draw, nothing to ask.
      if (!parents.length || this.disposed) return;
      const rows = parents.flatMap((t) => this.findTaskNodes(t.id));
      const drawn = new Map(rows.map((node) => [node, rowLook(this.rowView(node))]));
      const read: Promise<void> = records.many(parents).then(
        // Only the rows whose counts changed are drawn again (a refresh reads the parents of every page shown).
        () => {
          for (const [node, look] of drawn) if (!this.disposed && rowLook(this.rowView(node)) !== look) this.changed.fire(node);
        },
        // The rows stay as listed; the next refresh reads them again.
        () => undefined,
      );
      const tracked = read.finally(() => this.countReads.delete(tracked));
      this.countReads.add(tracked);
    })();
  }

  /** Waits for the batch parents' counts being read (the tests and the bench: what a person sees a moment later). */
  async settled(): Promise<void> {
    while (this.countsFlush || this.countReads.size) await Promise.all([this.countsFlush, ...this.countReads]);
  }

  /** The whole records of the given tasks (a command over several rows): the kept ones, the others 100 a request. */
  async wholeRecords(tasks: readonly Task[], signal?: AbortSignal): Promise<Map<string, Task>> {
    return this.records ? this.records.many(tasks, signal) : new Map(tasks.map((t) => [t.id, t]));
  }

  private async infoChildren(node: TaskNode): Promise<TaskTreeNode[]> {
    const source = this.options.info!;
    const key = infoKey(node.task);
    if (!node.info || node.info.key !== key) {
      const state: NonNullable<TaskNode['info']> = { key };
      state.loading = (async () => {
        let record: Task;
        try {
          record = await source.get(node.task.id);
          this.records?.put(record);
        } catch (error) {
          state.children = [
            new InfoNode({ key: 'error', label: couldNotReadTask(), description: describeError(error), tooltip: describeError(error), icon: { id: 'error' }, contextValue: 'message' }, node),
          ];
          return;
        }
        let details: ExecutionDetails | undefined;
        let detailsError: string | undefined;
        if (hasStarted(record)) {
          try {
            details = await source.executionDetails(node.task.id);
          } catch (error) {
            detailsError = describeError(error);
          }
        }
        state.children = buildTaskInfo(record, details, this.now(), detailsError).map((item) => new InfoNode(item, node));
      })();
      node.info = state;
    }
    const state = node.info;
    await state.loading;
    // A failure to read the task is shown once; opening the task again tries again.
    if (state.children?.[0]?.item.key === 'error' && state.children.length === 1) node.info = undefined;
    return state.children ?? [];
  }

  getParent(node: TaskTreeNode): TaskTreeNode | undefined {
    return node.parent;
  }

  /** The next page of a listing; a second call while it loads waits for the first. */
  async loadMore(node: LoadMoreNode | ContainerNode): Promise<void> {
    const owner = node.kind === 'loadMore' ? node.parent : node;
    const list = this.listOf(owner);
    const loading = list.loadMore();
    this.changed.fire(owner);
    await loading;
    this.changed.fire(owner);
  }

  /**
   * A group's cost in words when known without a request: read by Cost of These Tasks for its current count, or its
   * whole listing loaded (the listing's records carry their price).
   */
  private knownCost(node: GroupNode): string | undefined {
    if (node.cost && node.cost.count === node.count) return costWords(node.cost.total);
    const list = node.list;
    if (list.loaded && !list.hasMore && list.error === undefined && list.total === node.count && node.count !== undefined) {
      // Listings do not ask for prices: known when every task's whole record was read (and is current).
      const records = this.records;
      const items = records ? list.items.map((t) => ({ ...records.current(t), ...t })) : list.items;
      if (items.every((t) => t.price !== undefined)) return costWords(costOf(items));
    }
    return undefined;
  }

  /**
   * What the tasks of a status group, a batch parent's children, or (with none) every task under the filter cost, read
   * page by page with the price field only. A group's total shows in its tooltip until its count changes.
   */
  async cost(scope: GroupNode | TaskNode | undefined, options: CostReadOptions = {}): Promise<CostTotal> {
    const source = this.options.source;
    if (scope?.kind === 'task') return readCost(source, { parent: scope.task.id }, options);
    if (scope) {
      if (scope.status === OTHER_GROUP) throw new ApiError({ kind: 'invalid', message: l10n.t('The platform cannot list the tasks in other statuses by status.') });
      const counted = scope.count;
      const total = await readCost(source, this.filter.query(scope.status, this.now()), options);
      scope.cost = { total, count: counted ?? total.tasks };
      this.changed.fire(undefined);
      return total;
    }
    const statuses = this.filter.filter.statuses;
    if (!statuses?.length) return readCost(source, this.filter.query(undefined, this.now()), options);
    // A query names one status at most: one read per status shown, added up.
    const total = emptyCost();
    for (const status of statuses) {
      const part = await readCost(source, this.filter.query(status, this.now()), { ...options, onPage: (sofar, matching) => options.onPage?.(mergeCosts(total, sofar), matching) });
      mergeInto(total, part);
    }
    return total;
  }

  /** Forgets every count and listing (a new filter, a new sign-in) and redraws. */
  reset(): void {
    this.countsController.abort();
    this.countsController = new AbortController();
    this.countsPromise = undefined;
    this.countsLoaded = false;
    this.rootError = undefined;
    for (const group of this.groups.values()) {
      group.count = undefined;
      group.countError = undefined;
      group.cost = undefined;
      group.list.reset();
      group.taskNodes.clear();
    }
    this.changed.fire(undefined);
  }

  /**
   * Counts again and reloads every open listing, every page a person loaded (801 rows shown stay 801), and forgets the
   * listings that are not open (each one's next opening is current). Only what changed is drawn again: a group whose
   * count or rows changed, a batch parent whose children did, the whole tree only when the groups shown did; a row
   * that did not change keeps its place, its selection and its focus (VS Code draws a redrawn row's children anew, and
   * a menu opened on one of them meanwhile loses its row). Resolves to whether anything visible changed.
   */
  async refresh(): Promise<boolean> {
    if (!this.options.signedIn()) {
      this.reset();
      return false;
    }
    // Records of active tasks change under the same status (progress, counts, price): read again, drawn until then.
    this.records?.forgetActive();
    const open = this.openContainers();
    const shown = [...this.visibleGroups(), ...open.filter((node) => node.kind === 'task')];
    const before = new Map(shown.map((node) => [node, this.drawnState(node, open.includes(node))]));
    const rootBefore = this.rootState();
    this.dropClosedListings(open);
    const lists = open.map((node) => this.listOf(node));
    await Promise.all([this.loadCounts(true), ...lists.map((list) => list.reload())]);
    // An open group's count is what its listing, read in the same refresh, holds: the two never disagree.
    for (const group of this.groups.values()) if (open.includes(group)) this.countFromListing(group);
    if (this.rootState() !== rootBefore) {
      this.changed.fire(undefined);
      return true;
    }
    const changed = [...before].filter(([node, state]) => this.drawnState(node, open.includes(node)) !== state).map(([node]) => node);
    for (const node of changed) this.changed.fire(node);
    return changed.length > 0;
  }

  /**
   * Forgets the listings loaded but not open (a closed group, a closed batch parent): each is read again when it is
   * next opened. Those VS Code may still hold the rows of (a closed group, a closed batch parent in an open listing) are
   * drawn again at once, so that opening one shows what is read then, never its old rows first.
   */
  private dropClosedListings(open: readonly ContainerNode[]): void {
    const visit = (node: ContainerNode, shown: boolean) => {
      const list = node.list;
      if (list && !open.includes(node) && !list.loading && (list.loaded || list.items.length)) {
        list.reset();
        if (shown) this.changed.fire(node);
      }
      for (const child of node.taskNodes.values()) visit(child, open.includes(node));
    };
    for (const group of this.groups.values()) visit(group, true);
  }

  /** What the root of the tree shows: the groups, the message in their place. */
  private rootState(): string {
    const groups = this.visibleGroups();
    const error = this.rootError === undefined ? '' : describeError(this.rootError);
    return `${error}|${groups.map((g) => g.status).join(',')}|${groups.every((g) => g.count === 0)}`;
  }

  /** What a group's row or a batch parent's open listing shows, compared before and after a refresh. */
  private drawnState(node: ContainerNode, open: boolean): string {
    const own = node.kind === 'group' ? `${node.count ?? '?'}|${node.countError ?? ''}|${this.knownCost(node) ?? ''}` : '';
    const list = node.list;
    if (!open || !list) return own;
    const error = list.error === undefined ? '' : describeError(list.error);
    return `${own}\n${list.total}|${list.hasMore}|${error}|${JSON.stringify(list.items)}`;
  }

  /** Whether anything shown is queued or running (worth refreshing on its own). */
  hasActiveTasks(): boolean {
    // A refused token or request will be refused again: wait for the user rather than poll.
    if (this.rootError !== undefined && !(this.rootError instanceof ApiError && this.rootError.isTransient)) return false;
    for (const group of this.visibleGroups()) {
      if ((group.status === 'RUNNING' || group.status === 'QUEUED' || group.status === OTHER_GROUP) && (group.count ?? 0) > 0) return true;
    }
    return this.openLists().some((list) => list.items.some((t) => isActive(t.status)));
  }

  /**
   * The row of a task just made (to reveal it): its group's first page is read if the group was never opened (a task
   * added to a group not loaded is in its count, not yet a row). Undefined when the filter leaves it out.
   */
  async taskNode(task: Task): Promise<TaskNode | undefined> {
    const shown = this.findTaskNodes(task.id)[0];
    if (shown) return shown;
    await this.getChildren(this.group(groupOf(task.status)));
    return this.findTaskNodes(task.id)[0];
  }

  /** Every task node currently built, for tests and for finding a node by task id. */
  findTaskNodes(taskId: string): TaskNode[] {
    const found: TaskNode[] = [];
    const visit = (nodes: Map<string, TaskNode>) => {
      for (const node of nodes.values()) {
        if (node.task.id === taskId) found.push(node);
        visit(node.taskNodes);
      }
    };
    for (const group of this.groups.values()) visit(group.taskNodes);
    return found;
  }

  dispose(): void {
    this.disposed = true;
    this.countsController.abort();
    for (const group of this.groups.values()) group.list.reset();
    this.changed.dispose();
    this.redrawn.dispose();
    this.loadedEmitter.dispose();
  }

  private async rootChildren(): Promise<TaskTreeNode[]> {
    if (!this.options.signedIn()) return [];
    await this.loadCounts(false);
    if (this.rootError !== undefined) {
      return errorRows<ContainerNode>('root', undefined, this.rootError, { title: retryTitle(), command: COMMANDS.refreshTasks });
    }
    const groups = this.visibleGroups();
    const nodes: TaskTreeNode[] = [];
    if (groups.every((g) => g.count === 0)) {
      if (this.filter.active) {
        nodes.push(new Message<ContainerNode>('root/empty', undefined, l10n.t('No tasks match the filters.'), 'info', this.filter.description, {
          title: commandTitles().clearTaskFilter,
          command: COMMANDS.clearTaskFilter,
        }));
      } else {
        nodes.push(new Message<ContainerNode>('root/empty', undefined, l10n.t('No tasks yet.'), 'info', l10n.t('Tasks you run on the platform appear here.')));
      }
    }
    nodes.push(...groups);
    return nodes;
  }

  private async containerChildren(node: ContainerNode): Promise<TaskTreeNode[]> {
    const list = this.listOf(node);
    if (!list.loaded) {
      await list.ensureLoaded();
      this.loadedEmitter.fire();
    }
    const items = list.items;
    if (list.error !== undefined && !items.length) {
      // "Load More" on a listing that failed before its first page loads it again.
      return errorRows(node.id, node, list.error, { title: retryTitle(), command: COMMANDS.loadMoreTasks, args: [node] });
    }
    if (!items.length) {
      return [new Message<ContainerNode>(`${node.id}/empty`, node, emptyText(node, this.filter.active), 'info')];
    }
    // A group opened after its count was read: its row shows what the listing holds, redrawn when that differs.
    if (node.kind === 'group' && this.countFromListing(node)) queueMicrotask(() => this.changed.fire(node));
    const seen = new Set<string>();
    const children: TaskTreeNode[] = items.map((task) => {
      seen.add(task.id);
      let child = node.taskNodes.get(task.id);
      if (child) {
        // A task that moved on (running → failed) has new jobs, errors and outputs: read them again when shown.
        if (child.info && child.info.key !== infoKey(task)) child.info = undefined;
        child.task = task;
      }
      else {
        child = new TaskNode(task, node, this.records);
        node.taskNodes.set(task.id, child);
      }
      return child;
    });
    for (const id of [...node.taskNodes.keys()]) if (!seen.has(id)) node.taskNodes.delete(id);
    if (list.hasMore || list.error !== undefined) children.push(node.more);
    return children;
  }

  /** The listing behind a group or a batch parent (created on first use for a batch parent). */
  listOf(node: ContainerNode): TaskListing {
    if (node.kind === 'group') return node.list;
    if (!node.list) node.list = this.listFor({ parent: node.task.id }, false);
    return node.list;
  }

  private listFor(scope: { status?: GroupStatus; parent?: string }, filtered = true): TaskListing {
    const query = (): TaskListQuery => {
      const base: TaskListQuery = filtered
        ? this.filter.query(scope.status === OTHER_GROUP ? undefined : scope.status, this.now())
        : { parent: scope.parent, order_by: 'created_time', order: 'desc' };
      return { ...base, fields: TASK_LIST_FIELDS };
    };
    return taskListing(this.options.source, query, (tasks) => this.readBatchCounts(tasks), () => this.readAheadPages());
  }

  /** How many pages an open listing keeps on their way ahead of "Load more": none while the API budget is low. */
  private readAheadPages(): number {
    return this.disposed || this.options.budget?.low ? 0 : (this.options.readAheadPages ?? READ_AHEAD_PAGES);
  }

  private loadCounts(force: boolean): Promise<void> {
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
          return this.options.source.count(this.filter.query(status, this.now()), controller.signal);
        }),
      );
      if (controller.signal.aborted) return;
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      // One failure for all (no token, platform unreachable, rate limit): say it once, in place of the groups.
      this.rootError = failures.length === results.length && results.length ? failures[0].reason : undefined;
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
      this.loadedEmitter.fire();
    })();
    this.countsPromise = promise;
    return promise;
  }

  /** Sets a group's count to its listing's total (when read without an error); true when that changed it. */
  private countFromListing(group: GroupNode): boolean {
    const { total, error } = group.list;
    if (total === undefined || error !== undefined || group.count === total) return false;
    group.count = total;
    return true;
  }

  /** The groups and batch parents shown open with their listing loaded, each after the one it is in. */
  private openContainers(): ContainerNode[] {
    const nodes: ContainerNode[] = [];
    const visit = (node: ContainerNode) => {
      const list = node.list;
      if (!list || !list.loaded || !this.isExpanded(node)) return;
      nodes.push(node);
      for (const child of node.taskNodes.values()) if (child.task.batch) visit(child);
    };
    for (const group of this.visibleGroups()) visit(group);
    return nodes;
  }

  private openLists(): TaskListing[] {
    return this.openContainers().map((node) => this.listOf(node));
  }
}

function isRecordSource(source: object): source is TaskRecordSource {
  const s = source as Partial<TaskRecordSource>;
  return typeof s.get === 'function' && typeof s.bulkGet === 'function';
}

/** The group a status puts a task in: its own, or "Other statuses" for one no filter value names. */
function groupOf(status: string | undefined): GroupStatus {
  return isNamedStatus(status) ? (status as TaskStatus) : OTHER_GROUP;
}

/** What decides whether a task's opened rows are still current: its status and its end. */
function infoKey(task: Task): string {
  return `${task.status ?? ''}|${task.end_time ?? ''}`;
}

/** What an opened group or batch with no tasks says: "No running tasks match the filters.", "No child tasks." */
function emptyText(node: ContainerNode, filtered: boolean): string {
  if (node.kind !== 'group') return l10n.t('No child tasks.');
  if (node.status === OTHER_GROUP) return filtered ? l10n.t('No tasks in other statuses match the filters.') : l10n.t('No tasks in other statuses.');
  const status = STATUS_LABELS[node.status].toLocaleLowerCase();
  return filtered
    ? l10n.t({ message: 'No {0} tasks match the filters.', args: [status], comment: ['{0}: a status in lower case, "running"'] })
    : l10n.t({ message: 'No {0} tasks.', args: [status], comment: ['{0}: a status in lower case, "running"'] });
}
