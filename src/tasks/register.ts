import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerTaskCommands } from './commands';
import { TASK_DETAILS_SCHEME, TaskDetailsProvider } from './details';
import { FilterModel } from './filterModel';
import { Refresher } from './refresher';
import { TaskTreeModel, type TaskTreeNode } from './taskTree';
import { TASKS_VIEW_ID, TaskTreeProvider } from './treeProvider';
import { actionTokens, TaskActionSender, TaskActionWrite } from './actions';
import { registerExecutionCommands } from './executionCommands';
import { LOG_SCHEME, LogDocumentProvider } from './logs';
import { requestLogger } from '../ui/requestLog';
import { NOTIFY_SETTING, notifyMode, TaskWatcher } from './watcher';
import { CONTEXT_KEYS } from '../keys/context';
import { setContextKey } from '../ui/whenContext';

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
  readonly watcher: TaskWatcher;
  readonly watchPoller: Refresher;
  readonly logs: LogDocumentProvider;
  readonly sender: TaskActionSender;
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
    info: client.tasks,
  });
  const watcher = new TaskWatcher(client.tasks, context.globalState, () => session.endpoint);
  services.outbox.register(new TaskActionWrite(client.tasks));
  const sender = new TaskActionSender(services.outbox, services.account);
  const provider = new TaskTreeProvider(tree, (task) => actionTokens(task, watcher.isWatched(task.id)));
  const view = vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  // Watched tasks are followed even while the view is hidden: one bulk request per round for all of them.
  const watchPoller = new Refresher({
    refresh: () => watcher.poll(),
    intervalSeconds: () => vscode.workspace.getConfiguration().get<number>(REFRESH_SETTING),
    hasActiveWork: () =>
      session.state === 'signedIn' && watcher.list().length > 0 && notifyMode(vscode.workspace.getConfiguration().get(NOTIFY_SETTING)) !== 'off',
    onError: (error) => log.warn(`Watched tasks: poll failed: ${String(error)}`),
    budget: client.budget,
  });
  watchPoller.setVisible(true);
  const logs = new LogDocumentProvider(client.files, requestLogger(log), session.onDidChange);
  /** The number of running tasks on the view's icon, from the counts the tree already has (no request of its own). */
  const showBadge = () => {
    const running = tree.runningCount();
    view.badge = running
      ? { value: running, tooltip: running === 1 ? vscode.l10n.t('1 running task') : vscode.l10n.t('{0} running tasks', running.toLocaleString('en-US')) }
      : undefined;
  };
  const refresher = new Refresher({
    refresh: async () => {
      const changed = await tree.refresh();
      log.debug(`Tasks refreshed: ${changed ? 'changes' : 'no change'}`);
      return changed;
    },
    intervalSeconds: () => vscode.workspace.getConfiguration().get<number>(REFRESH_SETTING),
    hasActiveWork: () => session.state === 'signedIn' && tree.hasActiveTasks(),
    onError: (error) => log.warn(`Task refresh failed: ${String(error)}`),
    budget: client.budget,
  });
  const details = new TaskDetailsProvider(client, session.onDidChange);

  const showFilter = () => {
    view.description = filters.description;
    void setContextKey(CONTEXT_KEYS.tasksFiltered, filters.active);
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
    vscode.workspace.registerTextDocumentContentProvider(LOG_SCHEME, logs),
    logs,
    { dispose: () => watchPoller.dispose() },
    { dispose: () => watcher.dispose() },
    watcher.onDidChange(() => {
      watchPoller.poke();
      tree.redraw();
    }),
    tree.onDidLoad(showBadge),
    tree.onDidChange(showBadge),
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
    vscode.window.onDidChangeWindowState((e) => {
      refresher.setFocused(e.focused);
      watchPoller.setFocused(e.focused);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(REFRESH_SETTING)) refresher.reschedule();
      if (e.affectsConfiguration(REFRESH_SETTING) || e.affectsConfiguration(NOTIFY_SETTING)) watchPoller.reschedule();
    }),
    ...registerTaskCommands({ services, filters, tree, refresher, details, selection: () => view.selection }),
    ...registerExecutionCommands({ services, tree, refresher, watcher, sender, view }),
  );
  const clock = setInterval(() => {
    if (view.visible && vscode.window.state.focused && !refresher.running) provider.redraw();
  }, RELATIVE_TIME_TICK_MS);
  context.subscriptions.push({ dispose: () => clearInterval(clock) });
  refresher.setFocused(vscode.window.state.focused);
  refresher.setVisible(view.visible);
  watchPoller.setFocused(vscode.window.state.focused);
  watchPoller.markFresh();
  return { filters, tree, refresher, view, provider, watcher, watchPoller, logs, sender };
}
