// How each row of the task tree looks: a status group (its count, its cost when known), a task (its menus: what may
// be done to it, whether it is watched, whether it opens), "Load more", what a task opens into, a message; a task
// row's tooltip, read from its whole record when hovered; and what the tree says in place of rows when there are no
// tasks. No `vscode` import; taskTree.ts hands its rows here.

import * as l10n from '@vscode/l10n';
import type { Task } from '../api/types';
import { infoView } from './taskInfo';
import { loadMoreView, MessageNode as Message, messageView, type RowView, unreadTooltipLine } from '../ui/rowView';
import type { FilterModel } from './filterModel';
import { STATUS_LABELS } from './statuses';
import type { TaskListing } from './taskListing';
import { OTHER_GROUP, otherGroupView } from './otherStatuses';
import { groupView, offersOutputs, taskTooltip, taskView } from './taskRows';
import type { TaskRecords } from './taskRecords';
import { actionTokens } from './actions';
import { commandTitles, COMMANDS } from '../keys/commands';
import type { ContainerNode, GroupNode, TaskTreeNode } from './taskNodes';

/** What a row's look reads from the tree. */
export interface TaskTreeFacts {
  now(): number;
  filter: FilterModel;
  /** Whole records read on demand, kept while current; undefined when there is nowhere to read them. */
  records: TaskRecords | undefined;
  /** Whether a task is watched (its row offers Stop Watching instead of Watch). */
  watched(taskId: string): boolean;
  /** A group's cost in words when known without a request. */
  knownCost(group: GroupNode): string | undefined;
  isExpanded(node: ContainerNode): boolean;
  /** Whether a task row opens. */
  canOpen(task: Task): boolean;
  listOf(node: ContainerNode): TaskListing;
}

/** How a row looks. */
export function taskTreeRowView(node: TaskTreeNode, tree: TaskTreeFacts): RowView {
  switch (node.kind) {
    case 'group': {
      const cost = tree.knownCost(node);
      const view = node.status === OTHER_GROUP ? otherGroupView(node.count, node.countError) : groupView(node.status, node.count, node.countError, cost);
      return { ...view, expanded: tree.isExpanded(node) };
    }
    case 'task': {
      const task = node.task;
      // Outputs are read with the whole record (a listing does not ask for them); without a place to read it, the listing's are all.
      const outputsRead = tree.records ? tree.records.current(task) !== undefined || task.outputs !== undefined : true;
      // The tooltip needs the whole record: read when the row is hovered (resolveTooltip), unless it is at hand.
      const onHover = tree.records !== undefined && !tree.records.current(task);
      const parentName = node.parent.kind === 'task' ? node.parent.task.name : undefined;
      const view = taskView(task, { now: tree.now(), hideProject: !!tree.filter.filter.project, hasOutputs: offersOutputs(task, outputsRead), tooltip: !onHover, parentName });
      const tokens = actionTokens(task, tree.watched(task.id));
      return {
        ...view,
        contextValue: [view.contextValue, tokens].filter(Boolean).join(' '),
        expandable: view.expandable || tree.canOpen(task),
        expanded: tree.isExpanded(node),
      };
    }
    case 'loadMore':
      return loadMoreView(tree.listOf(node.parent), { command: COMMANDS.loadMoreTasks, title: commandTitles().loadMoreTasks, args: [node] });
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
export async function taskRowTooltip(node: TaskTreeNode, records: TaskRecords | undefined, now: () => number, signal?: AbortSignal): Promise<string | undefined> {
  if (node.kind !== 'task') return undefined;
  const listed = node.task;
  if (!records) return taskTooltip(listed, now());
  try {
    const whole = await records.one(listed, signal);
    return taskTooltip({ ...whole, ...listed }, now());
  } catch (error) {
    // What the listing holds, and why the rest is missing.
    return `${taskTooltip(listed, now())}\n\n${unreadTooltipLine(error)}`;
  }
}

/** What the root says when no group holds a task: none matches the filters (with Clear Filters), or none yet. */
export function noTasksRow(filter: FilterModel): Message<ContainerNode> {
  if (filter.active) {
    return new Message<ContainerNode>('root/empty', undefined, l10n.t('No tasks match the filters.'), 'info', filter.description, {
      title: commandTitles().clearTaskFilter,
      command: COMMANDS.clearTaskFilter,
    });
  }
  return new Message<ContainerNode>('root/empty', undefined, l10n.t('No tasks yet.'), 'info', l10n.t('Tasks you run on the platform appear here.'));
}

/** What an opened group or batch with no tasks says: "No running tasks match the filters.", "No child tasks." */
export function emptyText(node: ContainerNode, filtered: boolean): string {
  if (node.kind !== 'group') return l10n.t('No child tasks.');
  if (node.status === OTHER_GROUP) return filtered ? l10n.t('No tasks in other statuses match the filters.') : l10n.t('No tasks in other statuses.');
  const status = STATUS_LABELS[node.status].toLocaleLowerCase();
  return filtered
    ? l10n.t({ message: 'No {0} tasks match the filters.', args: [status], comment: ['{0}: a status in lower case, "running"'] })
    : l10n.t({ message: 'No {0} tasks.', args: [status], comment: ['{0}: a status in lower case, "running"'] });
}
