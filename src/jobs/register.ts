import * as vscode from 'vscode';
import type { Services } from '../services';
import type { CopyActions } from './copyRequests';
import { registerJobsView } from './jobsCommands';
import type { CopyJobsProvider } from './jobsView';
import type { JobsNode } from './jobsModel';
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
  const tracker = new JobTracker(client.copyJobs, context.globalState, undefined, { account: () => session.accountKey });
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
  context.subscriptions.push(statusBar, new FinishNotifier(tracker, copies), session.onDidChange(showAccount), session.onDidChangeUsername(showAccount));
  const { provider, view } = registerJobsView(context, tracker, outbox, copies);
  return { tracker, statusBar, provider, view };
}
