// The task tree's rows: a status group, a task (a batch parent among them), what a task opens into (errors, jobs,
// logs, files), "Load more" and the messages shown in place of rows; and the group a status puts a task in. No `vscode`
// import: taskTree.ts builds them, ui/rowTree.ts draws them.

import type { Task, TaskStatus } from '../api/types';
import type { InfoItem, TaskFileRef } from './taskInfo';
import { LoadMoreNode as ListingEnd, type MessageNode as Message } from '../ui/rowView';
import type { TaskListing } from './taskListing';
import { isNamedStatus, OTHER_GROUP } from './otherStatuses';
import type { TaskRecords } from './taskRecords';
import type { CostTotal } from './cost';

/** A status group: one of the six filter values, or the tasks none of them names. */
export type GroupStatus = TaskStatus | typeof OTHER_GROUP;

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

export type LoadMoreNode = ListingEnd<ContainerNode>;
export type MessageNode = Message<ContainerNode>;

export type TaskTreeNode = GroupNode | TaskNode | LoadMoreNode | MessageNode | InfoNode;

/** The group a status puts a task in: its own, or "Other statuses" for one no filter value names. */
export function groupOf(status: string | undefined): GroupStatus {
  return isNamedStatus(status) ? (status as TaskStatus) : OTHER_GROUP;
}
