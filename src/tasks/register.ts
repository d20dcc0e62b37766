import { taskSetSource } from './taskSetSource';
import * as vscode from 'vscode';
import type { CopyFeature } from '../copy/register';
import type { Services } from '../services';
import type { OnFirstUse } from '../ui/commands';
import { requestLogger } from '../ui/requestLog';
import { showRows, type RowTree } from '../ui/rowTree';
import { onSettingChange, setting } from '../ui/settings';
import { setContextKey } from '../ui/whenContext';
import type { Poller } from '../util/poller';
import { CONTEXT_KEYS } from '../keys/context';
import { VIEWS } from '../keys/views';
import { TaskActionSender } from './actions';
import type { resumeRerunWatches } from './batchCommands';
import type { taskCommands } from './commands';
import { TASK_DETAILS_SCHEME, TaskDetailsProvider } from './details';
import type { announce } from './executionCommands';
import { FilterModel } from './filterModel';
import { LOG_SCHEME, LogDocumentProvider } from './logs';
import type { fetchLog } from './logContent';
import { intervalMs, Refresher } from './refresher';
import { TaskTreeModel } from './taskTree';
import type { TaskTreeNode } from './taskNodes';
import type { openTimeline } from './timelinePanel';
import { TimelinePanels } from './timelinePanels';
import { readState, STATE } from '../keys/state';
import { followWatched, TaskWatcher } from './watcher';
import type { taskDocumentCommands } from './taskDocumentCommands';
import type { TaskDocumentLanguage } from './taskDocumentLanguage';
import { isTaskDocumentName } from './taskDocumentName';

/** How often the view redraws from what it has, so "started 5 minutes ago" stays true between refreshes. */
const RELATIVE_TIME_TICK_MS = 60_000;

/** What the task explorer exposes to the integration tests. */
export interface TaskExplorer {
  readonly filters: FilterModel;
  readonly tree: TaskTreeModel;
  readonly refresher: Refresher;
  readonly view: vscode.TreeView<TaskTreeNode>;
  readonly rows: RowTree<TaskTreeNode>;
  readonly watcher: TaskWatcher;
  readonly watchPoller: Poller;
  readonly logs: LogDocumentProvider;
  readonly sender: TaskActionSender;
  readonly timelines: TimelinePanels;
}

/** What the task document loads on first use (dist/authoring.js): its language and its commands. */
export interface TaskDocumentsOnFirstUse {
  TaskDocumentLanguage: typeof TaskDocumentLanguage;
  taskDocumentCommands: typeof taskDocumentCommands;
}

/** What the task explorer loads on first use (dist/features.js): its commands, what says a watched task ended, the re-runs followed, the timeline. */
export interface TasksOnFirstUse {
  taskCommands: typeof taskCommands;
  announce: typeof announce;
  resumeRerunWatches: typeof resumeRerunWatches;
  openTimeline: typeof openTimeline;
  fetchLog: typeof fetchLog;
}

/** The task explorer: its tree, filters, watched tasks and commands. */
export function registerTasks(services: Services, copy: CopyFeature, later: OnFirstUse<TasksOnFirstUse>, documentsLater: OnFirstUse<TaskDocumentsOnFirstUse>): TaskExplorer {
  const { context, client, session, log, clock } = services;
  const filters = new FilterModel(context.workspaceState);
  const watcher = new TaskWatcher(client.tasks, context.globalState, () => session.endpoint, clock.now);
  const tree = new TaskTreeModel({
    // A sample sheet's set of tasks is read by ID; any other filter, listed by the platform.
    source: taskSetSource(client.tasks, () => filters.filter, clock.now),
    records: client.tasks,
    filter: filters,
    store: context.workspaceState,
    signedIn: () => session.state === 'signedIn',
    info: client.tasks,
    now: clock.now,
    clock,
    watched: (id) => watcher.isWatched(id),
    budget: client.budget,
  });
  const sender = new TaskActionSender(services.outbox, services.account);
  const { view, rows, disposables } = showRows(VIEWS.tasks, tree, { clock, canSelectMany: true, redrawEveryMs: RELATIVE_TIME_TICK_MS });
  // Watched tasks are followed even while the view is hidden: one bulk request per round for all of them.
  const watchPoller = followWatched(watcher, {
    intervalMs: () => intervalMs(setting('refreshInterval')),
    enabled: () => session.state === 'signedIn' && setting('notifyWhenWatchedTasksEnd') !== 'off',
    onError: (error) => log.warn(`Watched tasks: poll failed: ${String(error)}`),
    clock,
    budget: client.budget,
  });
  const logs = new LogDocumentProvider(client.files, requestLogger(log), async (...args) => (await later.load()).fetchLog(...args), session.onDidChange);
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
    intervalSeconds: () => setting('refreshInterval'),
    hasActiveWork: () => session.state === 'signedIn' && tree.hasActiveTasks(),
    onError: (error) => log.warn(`Task refresh failed: ${String(error)}`),
    clock,
    budget: client.budget,
  });
  const details = new TaskDetailsProvider(client, session.onDidChange);

  const showFilter = () => {
    view.description = filters.description;
    void setContextKey(CONTEXT_KEYS.tasksFiltered, filters.active);
  };
  showFilter();
  const execution = { services, tree, refresher, watcher, sender };
  const timelines = new TimelinePanels(services, later.load);
  // The re-runs of failed tasks followed before a reload, for the account signed in. Nothing stored and nothing loaded
  // yet (so nothing followed): dist/features.js is not loaded for it.
  const resumeReruns = () => {
    if (!later.load.asked && !readState(context.globalState, STATE.rerunWatches)?.length) return;
    void later
      .load()
      .then((f) => f.resumeRerunWatches(services))
      .catch((error) => log.warn(`Re-run Failed: could not resume: ${String(error)}`));
  };

  context.subscriptions.push(
    ...disposables,
    services.selections.watch(view),
    details,
    { dispose: () => refresher.dispose() },
    { dispose: () => tree.dispose() },
    { dispose: () => filters.dispose() },
    vscode.workspace.registerTextDocumentContentProvider(TASK_DETAILS_SCHEME, details),
    vscode.workspace.registerTextDocumentContentProvider(LOG_SCHEME, logs),
    logs,
    timelines,
    { dispose: () => watchPoller.dispose() },
    { dispose: () => watcher.dispose() },
    watcher.onDidChange(() => {
      watchPoller.schedule();
      tree.redraw();
    }),
    watcher.onDidEnd((ended) => void later.load().then((f) => f.announce(execution, ended))),
    tree.onDidLoad(showBadge),
    tree.onDidChange(showBadge),
    filters.onDidChange(() => {
      showFilter();
      tree.reset();
    }),
    // Fires only when the endpoint or the token changed: what is shown belongs to someone else now.
    session.onDidChange(() => tree.reset()),
    session.onDidChangeSignIn(resumeReruns),
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
    onSettingChange(['refreshInterval'], () => refresher.reschedule()),
    onSettingChange(['refreshInterval', 'notifyWhenWatchedTasksEnd'], () => watchPoller.reschedule()),
  );
  later.commands((f) => f.taskCommands({ ...execution, filters, details, copy, timelines, viewId: VIEWS.tasks }));
  // The task document's features (dist/authoring.js, and the yaml package: dist/yaml.js) load when one is first open,
  // or with its commands; they register its completion, hovers, links and problems, and check every open task document.
  let language: TaskDocumentLanguage | undefined;
  const documents = (f: TaskDocumentsOnFirstUse) => (language ??= new f.TaskDocumentLanguage(services)); // disposed with the extension
  const opened = (d: vscode.TextDocument) =>
    isTaskDocumentName(d.uri.path) &&
    void documentsLater
      .load()
      .then((f) => documents(f).checkSoon(d, 0))
      .catch((error: unknown) => log.warn(`Task document: could not load its features: ${String(error)}`));
  vscode.workspace.textDocuments.forEach(opened);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(opened));
  documentsLater.commands((f) => f.taskDocumentCommands({ ...execution, language: documents(f), view, filters }));
  refresher.setFocused(vscode.window.state.focused);
  refresher.setVisible(view.visible);
  watchPoller.setFocused(vscode.window.state.focused);
  watchPoller.markFresh();
  resumeReruns();
  return { filters, tree, refresher, view, rows, watcher, watchPoller, logs, sender, timelines };
}
