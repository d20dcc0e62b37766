import * as vscode from 'vscode';
import type { Services } from '../services';
import type { CopyActions } from './copyRequests';
import { COMMANDS } from '../keys/commands';
import * as commands from './jobsCommands';
import { CopyJobsProvider, followVisibility, JOBS_VIEW } from './jobsView';
import type { ItemNode, JobsNode } from './jobsModel';
import { JobTracker } from './tracker';
import { FinishNotifier, JobsStatusBar } from './ui';

/** The running copy-job feature, for the integration tests. */
export interface JobsFeature {
  readonly tracker: JobTracker;
  readonly statusBar: JobsStatusBar;
  /** The Copy Jobs view. */
  readonly provider: CopyJobsProvider;
  readonly view: vscode.TreeView<JobsNode>;
}

/**
 * The copy jobs of the account in use, followed while signed in and the window has the focus (a model: the copy
 * feature hands it the jobs it submits, registerJobs shows them).
 */
export function followCopyJobs(services: Services): JobTracker {
  const { context, client, session } = services;
  // Jobs belong to the account they were made as: only the one in use is followed and shown.
  const tracker = new JobTracker(client.copyJobs, context.globalState, undefined, { account: () => session.accountKey, budget: client.budget });
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

/** The status-bar item, the notifications when jobs finish, and the Copy Jobs view with its commands. */
export function registerJobs(services: Services, tracker: JobTracker, copies: CopyActions): JobsFeature {
  const { context, session, outbox } = services;
  const statusBar = new JobsStatusBar(tracker, outbox);
  // Another platform or account may be in use now: its jobs and calls are the ones to show.
  const showAccount = () => statusBar.update();
  const provider = new CopyJobsProvider(tracker, outbox);
  const view = vscode.window.createTreeView(JOBS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  const parts: commands.JobsViewParts = { tracker, copies, provider, view };
  type Confirm = { confirm?: boolean };
  context.subscriptions.push(
    statusBar,
    new FinishNotifier(tracker, copies),
    session.onDidChange(showAccount),
    session.onDidChangeUsername(showAccount),
    provider,
    view,
    followVisibility(view, provider, tracker),
    // "Show Copy Jobs" (and the status-bar item) focus the view.
    vscode.commands.registerCommand(COMMANDS.showJobs, (id?: string) => commands.showJobs(parts, id)),
    vscode.commands.registerCommand(COMMANDS.retryFailed, (node?: JobsNode, options?: Confirm) => commands.retryFailed(parts, node, options)),
    vscode.commands.registerCommand(COMMANDS.copyResults, (node?: JobsNode, nodes?: JobsNode[]) => commands.copyResults(parts, node, nodes)),
    vscode.commands.registerCommand(COMMANDS.dismissJob, (node?: JobsNode, nodes?: JobsNode[]) => commands.dismiss(parts, node, nodes)),
    vscode.commands.registerCommand(COMMANDS.clearFinishedJobs, () => commands.clearFinished(parts)),
    vscode.commands.registerCommand(COMMANDS.submitAgain, (node?: JobsNode) => commands.submitAgain(parts, node)),
    vscode.commands.registerCommand(COMMANDS.submitAnyway, (node?: JobsNode, options?: Confirm) => commands.submitAnyway(parts, node, options)),
    vscode.commands.registerCommand(COMMANDS.discardRequest, (node?: JobsNode) => commands.discard(parts, node)),
    vscode.commands.registerCommand(COMMANDS.openJobItem, (node?: ItemNode) => commands.openItem(parts, node)),
  );
  return { tracker, statusBar, provider, view };
}
