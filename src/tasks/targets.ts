// What the task commands act on (see ui/commands.ts): a task, a status group, a listing to load more of, a job's log.
// Each is read from a row of the Tasks view, a record or an ID, and picked when none is at hand.
import type { SbClient } from '../api/client';
import { isTaskId } from '../api/ids';
import type { TaskListQuery } from '../api/tasks';
import { TASK_STATUSES, type Task, type TaskStatus } from '../api/types';
import type { Services } from '../services';
import type { TargetType } from '../ui/commands';
import { pickOneStatus, pickTask, whichTaskPlaceholder, type TaskListKind } from './filterPicks';
import type { LogRef } from './taskInfo';
import { OTHER_GROUP } from './otherStatuses';
import type { ContainerNode, GroupNode, LoadMoreNode, TaskNode } from './taskNodes';
import type { TaskTreeModel } from './taskTree';

/** A task as far as it is known: a row's record has the list's fields, an ID typed in has only its ID. */
export type TaskRef = Pick<Task, 'id'> & Partial<Task>;

/** What a task command asks of the task pick. */
export interface TaskAsk {
  /** The newest tasks of this query are offered (default: every task). */
  query?: () => TaskListQuery;
  /** Which tasks are offered, for the list's heading and notes. */
  list?: TaskListKind;
  placeholder?: () => string;
}

/** The task an argument stands for: a row (`{ task }`), a task record, or a task ID. */
export function readTask(value: unknown): TaskRef | undefined {
  if (typeof value === 'string') return isTaskId(value) ? { id: value } : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const row = value as { task?: unknown; id?: unknown };
  if (row.task && typeof row.task === 'object' && typeof (row.task as Task).id === 'string') return row.task as Task;
  if (typeof row.id === 'string' && isTaskId(row.id)) return value as Task;
  return undefined;
}

/** One of the newest tasks, picked (or a task ID pasted and checked). */
export function taskTarget(services: Services): TargetType<TaskRef, TaskAsk> {
  return {
    read: readTask,
    key: (task) => task.id,
    pick: async ({ title, fits, ask }) => {
      const picked = await pickTask(services, {
        title,
        placeholder: ask?.placeholder?.() ?? whichTaskPlaceholder(),
        query: ask?.query?.() ?? {},
        accept: fits,
        list: ask?.list ?? 'tasks',
      });
      return picked && picked !== 'none' ? [picked] : [];
    },
  };
}

/** The task's whole record when a row or an ID gave fewer fields than the commands read (one GET). */
export async function fullTask(client: SbClient, task: TaskRef): Promise<Task> {
  return task.name !== undefined && task.status !== undefined && task.project !== undefined ? (task as Task) : client.tasks.get(task.id);
}

/** A status group of the Tasks view (its row, or a status), else one picked. */
export function statusTarget(tree: TaskTreeModel): TargetType<TaskStatus> {
  const read = (value: unknown): TaskStatus | undefined => {
    const status = typeof value === 'string' ? value : (value as { kind?: unknown; status?: unknown } | undefined)?.status;
    return typeof status === 'string' && (TASK_STATUSES as readonly string[]).includes(status) ? (status as TaskStatus) : undefined;
  };
  return {
    read: (value) => (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind !== 'group' ? undefined : read(value)),
    key: (status) => status,
    pick: async () => {
      const status = await pickOneStatus(tree);
      return status ? [status] : [];
    },
  };
}

/** A listing of the Tasks view to load more of: its "Load more" row, a status group or a batch parent. */
export const listingTarget: TargetType<LoadMoreNode | ContainerNode> = {
  read: (value) => {
    const kind = (value as { kind?: unknown } | undefined)?.kind;
    return kind === 'loadMore' || kind === 'group' || kind === 'task' ? (value as LoadMoreNode | ContainerNode) : undefined;
  },
  key: (node) => node.id,
};

/** A job's log: the reference its row's click passes, or the row itself. */
export const logTarget: TargetType<LogRef> = {
  read: (value) => {
    const row = value as { kind?: unknown; item?: { log?: LogRef } } | undefined;
    const log = (row?.kind === 'info' ? row.item?.log : value) as LogRef | undefined;
    return log && typeof log.fileId === 'string' && typeof log.name === 'string' && typeof log.taskId === 'string' ? log : undefined;
  },
  key: (log) => `${log.taskId}/${log.fileId}`,
};

/** What Cost of These Tasks adds up: a status group (under the filter) or a batch parent's children. */
export type CostScope = GroupNode | TaskNode;

/** A status group's row (not "Other statuses": the platform cannot list it by status) or a batch parent's row. */
export const costTarget: TargetType<CostScope> = {
  read: (value) => {
    const node = value as { kind?: unknown; status?: unknown; task?: Task } | undefined;
    if (node?.kind === 'group' && node.status !== OTHER_GROUP) return value as GroupNode;
    if (node?.kind === 'task' && node.task?.batch === true) return value as TaskNode;
    return undefined;
  },
  key: (node) => node.id,
};

/** What Collect Failure Logs acts on: the Failed group under the filter, or a task (a failed one, a batch parent). */
export type FailureScope = { kind: 'failedGroup' } | { kind: 'task'; task: TaskRef };

/** The Failed group's row, or a task's row, record or ID; picked among the failed tasks. */
export function failureTarget(services: Services): TargetType<FailureScope, TaskAsk> {
  const tasks = taskTarget(services);
  return {
    read: (value) => {
      const node = value as { kind?: unknown; status?: unknown } | undefined;
      if (node?.kind === 'group') return node.status === 'FAILED' ? { kind: 'failedGroup' } : undefined;
      const task = readTask(value);
      return task ? { kind: 'task', task } : undefined;
    },
    key: (scope) => (scope.kind === 'task' ? scope.task.id : scope.kind),
    pick: async (request) => {
      const picked = await tasks.pick!({ ...request, fits: (t) => request.fits({ kind: 'task', task: t }) });
      return picked.map((task) => ({ kind: 'task', task }));
    },
  };
}
