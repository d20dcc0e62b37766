import * as vscode from 'vscode';
import type { Task } from '../api/types';
import { hasFileOutputs } from '../api/outputs';
import { loadMoreView, messageView } from '../ui/rowView';
import { collapsibleState, rowItem, themeIcon, withProgressBar } from '../ui/treeItems';
import { groupView, taskView } from './taskRows';
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
        const view = taskView(node.task, { now: model.now(), hideProject: !!model.filter.filter.project, hasOutputs: hasFileOutputs(node.task) });
        const item = rowItem(node.id, view, collapsibleState(view.expandable || model.canOpen(node.task), model.isExpanded(node)));
        item.contextValue = [view.contextValue, this.extraContext?.(node.task)].filter(Boolean).join(' ');
        return item;
      }
      case 'loadMore':
        return rowItem(node.id, loadMoreView(model.listOf(node.parent), { command: COMMANDS.loadMoreTasks, title: vscode.l10n.t('Load More Tasks'), args: [node] }), collapsibleState(false));
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
      case 'message':
        return rowItem(node.id, messageView(node), collapsibleState(false));
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

/** Shows the Tasks view's progress bar until the work settles (only when it does not settle at once). */
export function withViewProgress<T>(work: Promise<T>): Promise<T> {
  return withProgressBar(TASKS_VIEW_ID, work);
}
