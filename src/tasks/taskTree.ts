// The task tree's data: status groups with counts (taskGroups.ts), their paged tasks, batch children (their counts:
// batchCounts.ts), what a task opens into (taskInfoRows.ts), the rows remembered open, what a refresh or an action
// changes; its rows are taskNodes.ts's, and how each looks is taskTreeLook.ts's. No `vscode` import; ui/rowTree.ts
// draws it.

import type { ApiBudget } from '../api/budget';
import { systemClock, type Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import type { TaskListQuery } from '../api/tasks';
import { isActive, type Task } from '../api/types';
import { retryTitle } from '../ui/errorActions';
import { Emitter } from '../util/emitter';
import { errorRows, MessageNode as Message, rowLook, type RowModel, type RowView } from '../ui/rowView';
import type { FilterModel } from './filterModel';
import { TASK_LIST_FIELDS, taskListing, type TaskListing } from './taskListing';
import type { StateStore } from '../util/stateStore';
import { OTHER_GROUP } from './otherStatuses';
import { isRecordSource, TaskRecords, type TaskRecordSource } from './taskRecords';
import { readCost, type CostReadOptions, type CostTotal } from './cost';
import { COMMANDS } from '../keys/commands';
import { readState, STATE, writeState } from '../keys/state';
import { BatchCounts, COUNTS_DELAY_MS } from './batchCounts';
import { TaskGroups, type TaskCountSource } from './taskGroups';
import { type ContainerNode, type GroupNode, type GroupStatus, groupOf, type LoadMoreNode, TaskNode, type TaskTreeNode } from './taskNodes';
import { infoChildren, infoKey, type TaskInfoSource } from './taskInfoRows';
import { emptyText, noTasksRow, taskRowTooltip, taskTreeRowView, type TaskTreeFacts } from './taskTreeLook';

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

export class TaskTreeModel implements RowModel<TaskTreeNode> {
  private readonly groups: TaskGroups;
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
  /** The batch parents' counts read as their pages arrive; undefined when there is nowhere to read them. */
  private readonly batchCounts: BatchCounts | undefined;
  private disposed = false;
  /** What a row's look reads from the tree (taskTreeLook.ts). */
  private readonly facts: TaskTreeFacts;

  constructor(private readonly options: TaskTreeOptions) {
    this.now = options.now ?? systemClock.now;
    const recordSource = options.records ?? (isRecordSource(options.source) ? options.source : undefined);
    this.records = recordSource ? new TaskRecords(recordSource) : undefined;
    this.batchCounts = this.records
      ? new BatchCounts(
          this.records,
          {
            rows: (taskId) => this.findTaskNodes(taskId),
            look: (node) => rowLook(this.rowView(node)),
            redraw: (node) => this.changed.fire(node),
            gone: () => this.disposed,
          },
          options.clock ?? systemClock,
          options.countsDelayMs ?? COUNTS_DELAY_MS,
        )
      : undefined;
    this.expanded = new Set(readState(options.store, STATE.expandedTaskRows));
    this.facts = {
      now: this.now,
      filter: options.filter,
      records: this.records,
      watched: (taskId) => this.options.watched?.(taskId) ?? false,
      knownCost: (group) => this.groups.knownCost(group),
      isExpanded: (node) => this.isExpanded(node),
      canOpen: (task) => this.canOpen(task),
      listOf: (node) => this.listOf(node),
    };
    this.groups = new TaskGroups({
      source: options.source,
      filter: options.filter,
      now: this.now,
      listing: (status) => this.listFor({ status }),
      onPage: (tasks) => this.batchCounts?.read(tasks),
      onLoad: () => this.loadedEmitter.fire(),
      records: this.records,
    });
  }

  get filter(): FilterModel {
    return this.options.filter;
  }

  group(status: GroupStatus): GroupNode {
    return this.groups.group(status);
  }

  /** The groups the filter lets through, in the view's order; "Other statuses" last, when it holds any task. */
  visibleGroups(): GroupNode[] {
    return this.groups.visible();
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
    if (node.kind === 'task' && this.options.info) return infoChildren(node, this.options.info, this.records, this.now);
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
    const before = was ?? this.groups.listedRecord(task.id)?.status;
    const lists = this.groups.all().map((g) => g.list);
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
    if (before !== undefined) this.groups.move(task, groupOf(before), groupOf(task.status));
    this.changed.fire(undefined);
  }

  /** Shows a task an action has just made (a re-run's copy) in its group at once, until the refresh that follows. */
  addTask(task: Task): void {
    const rootBefore = this.groups.rootState();
    const group = this.group(groupOf(task.status));
    group.list.forgetAhead();
    this.groups.move(task, undefined, groupOf(task.status));
    // Its group alone is drawn again (its count, its rows), unless the groups shown changed: a whole tree drawn again
    // holds up a reveal of the new row until every group is drawn anew.
    this.changed.fire(this.groups.rootState() === rootBefore ? group : undefined);
  }

  /** Draws again, from what is loaded, the rows that look otherwise now (a row's menu depends on whether it is watched). */
  redraw(): void {
    this.redrawn.fire();
  }

  /** How a row looks (taskTreeLook.ts). */
  rowView(node: TaskTreeNode): RowView {
    return taskTreeRowView(node, this.facts);
  }

  /** A task row's tooltip, from its whole record (taskTreeLook.ts); other rows' tooltips are drawn. */
  resolveTooltip(node: TaskTreeNode, signal?: AbortSignal): Promise<string | undefined> {
    return taskRowTooltip(node, this.records, this.now, signal);
  }

  /** Waits for the batch parents' counts being read (the tests and the bench: what a person sees a moment later). */
  settled(): Promise<void> {
    return this.batchCounts?.settled() ?? Promise.resolve();
  }

  /** The whole records of the given tasks (a command over several rows): the kept ones, the others 100 a request. */
  async wholeRecords(tasks: readonly Task[], signal?: AbortSignal): Promise<Map<string, Task>> {
    return this.records ? this.records.many(tasks, signal) : new Map(tasks.map((t) => [t.id, t]));
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
   * What the tasks of a status group, a batch parent's children, or (with none) every task under the filter cost, read
   * page by page with the price field only. A group's total shows in its tooltip until its count changes.
   */
  async cost(scope: GroupNode | TaskNode | undefined, options: CostReadOptions = {}): Promise<CostTotal> {
    if (scope?.kind === 'task') return readCost(this.options.source, { parent: scope.task.id }, options);
    const total = await this.groups.cost(scope, options);
    // A group's total is drawn on its row.
    if (scope) this.changed.fire(undefined);
    return total;
  }

  /** Forgets every count and listing (a new filter, a new sign-in) and redraws. */
  reset(): void {
    this.groups.reset();
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
    const rootBefore = this.groups.rootState();
    this.dropClosedListings(open);
    const lists = open.map((node) => this.listOf(node));
    await Promise.all([this.groups.load(true), ...lists.map((list) => list.reload())]);
    // An open group's count is what its listing, read in the same refresh, holds: the two never disagree.
    for (const group of this.groups.all()) if (open.includes(group)) this.groups.countFromListing(group);
    if (this.groups.rootState() !== rootBefore) {
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
    for (const group of this.groups.all()) visit(group, true);
  }

  /** What a group's row or a batch parent's open listing shows, compared before and after a refresh. */
  private drawnState(node: ContainerNode, open: boolean): string {
    const own = node.kind === 'group' ? `${node.count ?? '?'}|${node.countError ?? ''}|${this.groups.knownCost(node) ?? ''}` : '';
    const list = node.list;
    if (!open || !list) return own;
    const error = list.error === undefined ? '' : describeError(list.error);
    return `${own}\n${list.total}|${list.hasMore}|${error}|${JSON.stringify(list.items)}`;
  }

  /** Whether anything shown is queued or running (worth refreshing on its own). */
  hasActiveTasks(): boolean {
    // A refused token or request will be refused again: wait for the user rather than poll.
    const error = this.groups.error;
    if (error !== undefined && !(error instanceof ApiError && error.isTransient)) return false;
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
    for (const group of this.groups.all()) visit(group.taskNodes);
    return found;
  }

  dispose(): void {
    this.disposed = true;
    this.groups.dispose();
    this.changed.dispose();
    this.redrawn.dispose();
    this.loadedEmitter.dispose();
  }

  private async rootChildren(): Promise<TaskTreeNode[]> {
    if (!this.options.signedIn()) return [];
    await this.groups.load(false);
    if (this.groups.error !== undefined) {
      return errorRows<ContainerNode>('root', undefined, this.groups.error, { title: retryTitle(), command: COMMANDS.refreshTasks });
    }
    const groups = this.visibleGroups();
    const nodes: TaskTreeNode[] = [];
    if (groups.every((g) => g.count === 0)) nodes.push(noTasksRow(this.filter));
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
    if (node.kind === 'group' && this.groups.countFromListing(node)) queueMicrotask(() => this.changed.fire(node));
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
    return taskListing(this.options.source, query, (tasks) => this.batchCounts?.read(tasks), () => this.readAheadPages());
  }

  /** How many pages an open listing keeps on their way ahead of "Load more": none while the API budget is low. */
  private readAheadPages(): number {
    return this.disposed || this.options.budget?.low ? 0 : (this.options.readAheadPages ?? READ_AHEAD_PAGES);
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
