import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { Task } from '../api/types';
import { groupView, loadMoreLabel, taskView } from './nodes';
import { rowItem, themeIcon } from '../ui/treeItems';
import type { TaskTreeModel, TaskTreeNode } from './taskTree';
import { OTHER_GROUP, otherGroupView } from './otherStatuses';
import { COMMANDS } from '../keys/commands';

export const TASKS_VIEW_ID = 'sevenbridges.tasks';

/** Renders the task tree model; shows a progress bar in the view while anything loads. */
export class TaskTreeProvider implements vscode.TreeDataProvider<TaskTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TaskTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };

  /** `extraContext`: more context-value tokens for a task row (the actions it can take, whether it is watched). */
  constructor(
    private readonly model: TaskTreeModel,
    private readonly extraContext?: (task: Task) => string,
  ) {
    this.subscription = model.onDidChange((node) => this.changed.fire(node));
  }

  /** Renders again from what is loaded, without a request (relative times such as "5 min ago" move on). */
  redraw(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: TaskTreeNode): vscode.TreeItem {
    const model = this.model;
    switch (node.kind) {
      case 'group': {
        const view = node.status === OTHER_GROUP ? otherGroupView(node.count, node.countError) : groupView(node.status, node.count, node.countError);
        return rowItem(node.id, view, collapsibleState(view.expandable, model.isExpanded(node)));
      }
      case 'task': {
        const view = taskView(node.task, { now: model.now(), hideProject: !!model.filter.filter.project });
        const item = rowItem(node.id, view, collapsibleState(view.expandable || model.canOpen(node.task), model.isExpanded(node)));
        const tooltip = new vscode.MarkdownString(view.tooltip, true);
        tooltip.isTrusted = false;
        item.tooltip = tooltip;
        item.contextValue = [view.contextValue, this.extraContext?.(node.task)].filter(Boolean).join(' ');
        return item;
      }
      case 'loadMore': {
        const list = model.listOf(node.parent);
        const failed = list.error !== undefined && !list.loading;
        const item = new vscode.TreeItem(failed ? 'Could not load more: click to retry' : loadMoreLabel(list.left, list.loading));
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(list.loading ? 'loading~spin' : failed ? 'warning' : 'ellipsis');
        if (failed) item.tooltip = describeError(list.error);
        item.contextValue = 'loadMore';
        item.command = { command: COMMANDS.loadMoreTasks, title: 'Load More Tasks', arguments: [node] };
        return item;
      }
      case 'info': {
        const info = node.item;
        const open = info.children?.length ? (info.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None;
        const item = new vscode.TreeItem(info.label, open);
        item.id = node.id;
        item.description = info.description;
        item.tooltip = info.tooltip;
        item.iconPath = themeIcon(info.icon);
        item.contextValue = info.contextValue;
        if (info.command) item.command = { command: info.command.command, title: info.command.title, arguments: info.command.args };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.id = node.id;
        item.tooltip = node.detail;
        if (node.action) {
          item.command = { command: node.action.command, title: node.action.title, arguments: node.action.args ?? [] };
          item.iconPath = new vscode.ThemeIcon(actionIcon(node.action.command));
        } else {
          item.iconPath = new vscode.ThemeIcon(node.severity === 'error' ? 'error' : node.severity === 'warning' ? 'warning' : 'info');
        }
        item.contextValue = 'message';
        return item;
      }
    }
  }

  getChildren(node?: TaskTreeNode): Thenable<TaskTreeNode[]> {
    const work = this.model.getChildren(node);
    return withViewProgress(work);
  }

  getParent(node: TaskTreeNode): TaskTreeNode | undefined {
    return this.model.getParent(node);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function actionIcon(command: string): string {
  if (command === COMMANDS.setToken) return 'key';
  if (command === COMMANDS.clearTaskFilter) return 'clear-all';
  if (command === COMMANDS.showLog) return 'output';
  return 'refresh';
}

const PROGRESS_DELAY_MS = 100;

/** Shows the view's progress bar until the work settles (only when it does not settle at once). */
export function withViewProgress<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  // Answers from memory settle within a few ticks; only real waits get the bar, so it does not flicker.
  setTimeout(() => {
    if (settled) return;
    void vscode.window.withProgress({ location: { viewId: TASKS_VIEW_ID } }, () => work.catch(() => undefined));
  }, PROGRESS_DELAY_MS);
  return work;
}

function collapsibleState(expandable: boolean, expanded: boolean): vscode.TreeItemCollapsibleState {
  if (!expandable) return vscode.TreeItemCollapsibleState.None;
  return expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
}
