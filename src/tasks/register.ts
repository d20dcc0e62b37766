import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerTaskCommands } from './commands';
import { TASK_DETAILS_SCHEME, TaskDetailsProvider } from './details';
import { FilterModel } from './filterModel';
import { Refresher } from './refresher';
import { TaskTreeModel, type TaskTreeNode } from './taskTree';
import { TASKS_VIEW_ID, TaskTreeProvider } from './treeProvider';

export const REFRESH_SETTING = 'sevenbridges.tasks.refreshInterval';
/** How often the view redraws from what it has, so "started 5 min ago" stays true between refreshes. */
const RELATIVE_TIME_TICK_MS = 60_000;

/** What the task explorer exposes to the integration tests. */
export interface TaskExplorer {
  readonly filters: FilterModel;
  readonly tree: TaskTreeModel;
  readonly refresher: Refresher;
  readonly view: vscode.TreeView<TaskTreeNode>;
  readonly provider: TaskTreeProvider;
}

/** The task explorer: its tree, filters and commands. */
export function registerTasks(services: Services): TaskExplorer {
  const { context, client, session, log } = services;
  const filters = new FilterModel(context.workspaceState);
  const tree = new TaskTreeModel({
    source: client.tasks,
    filter: filters,
    store: context.workspaceState,
    signedIn: () => session.state === 'signedIn',
  });
  const provider = new TaskTreeProvider(tree);
  const view = vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  const refresher = new Refresher({
    refresh: async () => {
      const changed = await tree.refresh();
      log.debug(`Tasks refreshed: ${tree.lastRefreshRequests} requests, ${changed ? 'changes' : 'no change'}`);
      return changed;
    },
    intervalSeconds: () => vscode.workspace.getConfiguration().get<number>(REFRESH_SETTING),
    hasActiveWork: () => session.state === 'signedIn' && tree.hasActiveTasks(),
    onError: (error) => log.warn(`Task refresh failed: ${String(error)}`),
  });
  const details = new TaskDetailsProvider(client, session.onDidChange);

  const showFilter = () => {
    view.description = filters.description;
    void vscode.commands.executeCommand('setContext', 'sevenbridges.tasks.filtered', filters.active);
  };
  showFilter();

  context.subscriptions.push(
    view,
    provider,
    details,
    { dispose: () => refresher.dispose() },
    { dispose: () => tree.dispose() },
    { dispose: () => filters.dispose() },
    vscode.workspace.registerTextDocumentContentProvider(TASK_DETAILS_SCHEME, details),
    filters.onDidChange(() => {
      showFilter();
      tree.reset();
    }),
    // Fires only when the endpoint or the token changed: what is shown belongs to someone else now.
    session.onDidChange(() => tree.reset()),
    tree.onDidLoad(() => refresher.markFresh()),
    view.onDidExpandElement((e) => {
      if (e.element.kind === 'group' || e.element.kind === 'task') tree.setExpanded(e.element, true);
    }),
    view.onDidCollapseElement((e) => {
      if (e.element.kind === 'group' || e.element.kind === 'task') tree.setExpanded(e.element, false);
    }),
    view.onDidChangeVisibility((e) => refresher.setVisible(e.visible)),
    vscode.window.onDidChangeWindowState((e) => refresher.setFocused(e.focused)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(REFRESH_SETTING)) refresher.reschedule();
    }),
    ...registerTaskCommands({ services, filters, tree, refresher, details, selection: () => view.selection }),
  );
  const clock = setInterval(() => {
    if (view.visible && vscode.window.state.focused && !refresher.running) provider.redraw();
  }, RELATIVE_TIME_TICK_MS);
  context.subscriptions.push({ dispose: () => clearInterval(clock) });
  refresher.setFocused(vscode.window.state.focused);
  refresher.setVisible(view.visible);
  return { filters, tree, refresher, view, provider };
}
