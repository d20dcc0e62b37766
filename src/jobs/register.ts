import * as vscode from 'vscode';
import type { Services } from '../services';
import { SCHEMES } from '../keys/schemes';
import { VIEWS } from '../keys/views';
import type { OnFirstUse } from '../ui/commands';
import { showRows, type RowTree } from '../ui/rowTree';
import type { jobsCommands } from './commands';
import type { CopyActions } from './copyRequests';
import { DataJobsModel } from './jobsModel';
import type { JobsNode } from './jobNodes';
import { JobTracker, type TrackerOptions } from './tracker';
import type { Transfers } from './transfers';
import { CopyResultsProvider } from './results';
import { FinishNotifier, JobsStatusBar } from './ui';

/** Ages in the rows ("2 minutes ago") move on this often while the view is visible. */
const REDRAW_MS = 30_000;

/** The running Data Jobs feature, for the integration tests. */
export interface JobsFeature {
  readonly tracker: JobTracker;
  readonly transfers: Transfers;
  readonly statusBar: JobsStatusBar;
  /** The Data Jobs view's rows and the view (its ID is still `sevenbridges.copyJobs`). */
  readonly model: DataJobsModel;
  readonly rows: RowTree<JobsNode>;
  readonly view: vscode.TreeView<JobsNode>;
}

/**
 * The data jobs (copies, moves, deletes) of the account in use, followed while signed in and the window has the focus (a model: the copy
 * feature hands it the jobs it submits, registerJobs shows them).
 */
export function followCopyJobs(services: Pick<Services, 'context' | 'client' | 'session' | 'clock'>, readers?: TrackerOptions['readers']): JobTracker {
  const { context, client, session } = services;
  // Jobs belong to the account they were made as: only the one in use is followed and shown.
  const tracker = new JobTracker(client.copyJobs, context.globalState, services.clock, { account: () => session.accountKey, budget: client.budget, readers });
  // The tracker pauses by itself on a rejected or missing token; a sign-in (or out) restarts or stops it.
  const followSession = () => (session.state === 'signedIn' ? tracker.resume() : tracker.pause());
  context.subscriptions.push(
    { dispose: () => tracker.dispose() },
    session.onDidChange(followSession),
    // The account is known once its username is: its jobs are the ones to follow.
    session.onDidChangeUsername(followSession),
    vscode.window.onDidChangeWindowState((state) => tracker.setFocused(state.focused)),
  );
  return tracker;
}

/** The status-bar item, the notifications when jobs finish, and the Data Jobs view with its commands. */
/** What Data Jobs loads on first use (dist/features.js): its commands. */
export interface JobsOnFirstUse {
  jobsCommands: typeof jobsCommands;
}

export function registerJobs(services: Services, tracker: JobTracker, copies: CopyActions, later: OnFirstUse<JobsOnFirstUse>): JobsFeature {
  const { context, session, outbox, clock, transfers } = services;
  const statusBar = new JobsStatusBar(tracker, outbox, clock, transfers);
  // Another platform or account may be in use now: its jobs and calls are the ones to show.
  const showAccount = () => statusBar.update();
  const model = new DataJobsModel(tracker, outbox, clock.now, transfers);
  const { view, rows, disposables } = showRows(VIEWS.copyJobs, model, { clock, redrawEveryMs: REDRAW_MS });
  const results = new CopyResultsProvider(tracker);
  view.message = services.budgetNotice.current;
  // Shown: the outcomes are seen (the status bar lets go of them), and the jobs are looked at now.
  const shown = () => {
    if (!view.visible) return;
    tracker.acknowledge();
    void tracker.refreshNow().catch(() => undefined);
  };
  context.subscriptions.push(
    statusBar,
    new FinishNotifier(tracker, copies, clock),
    session.onDidChange(showAccount),
    session.onDidChangeUsername(showAccount),
    ...disposables,
    { dispose: () => model.dispose() },
    results,
    vscode.workspace.registerTextDocumentContentProvider(SCHEMES.copyResults, results),
    services.selections.watch(view),
    view.onDidChangeVisibility(shown),
    // While the API budget is low, the view says so above its rows: copies wait for the reset.
    services.budgetNotice.onDidChange((words) => (view.message = words)),
  );
  later.commands((f) => f.jobsCommands({ model, copies, writes: outbox, account: () => services.account(), view }));
  shown();
  return { tracker, transfers, statusBar, model, rows, view };
}
