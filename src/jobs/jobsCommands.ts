import * as vscode from 'vscode';
import type { CopyFlow } from '../copy/flow';
import type { Outbox } from '../write/outbox';
import { plural } from '../util/words';
import { itemOutcome, resultsTable, type ItemNode, type JobsNode, type RequestNode } from './jobsModel';
import { CopyJobsProvider, followVisibility, JOBS_VIEW } from './jobsView';
import { isFinished, type JobTracker, type TrackedJob } from './tracker';
import { SHOW_JOBS } from './ui';

export const JOB_COMMANDS = {
  retryFailed: 'sevenbridges.jobs.retryFailed',
  copyResults: 'sevenbridges.jobs.copyResults',
  dismiss: 'sevenbridges.jobs.dismiss',
  clearFinished: 'sevenbridges.jobs.clearFinished',
  submitAgain: 'sevenbridges.jobs.submitAgain',
  submitAnyway: 'sevenbridges.jobs.submitAnyway',
  discard: 'sevenbridges.jobs.discard',
  openItem: 'sevenbridges.jobs.openItem',
} as const;

export interface CopyJobsView {
  readonly provider: CopyJobsProvider;
  readonly view: vscode.TreeView<JobsNode>;
}

/** The Copy Jobs view and its actions; "Show Copy Jobs" (and the status-bar item) focus it. */
export function registerJobsView(context: vscode.ExtensionContext, tracker: JobTracker, outbox: Outbox, flow: CopyFlow): CopyJobsView {
  const provider = new CopyJobsProvider(tracker, outbox);
  const view = vscode.window.createTreeView(JOBS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  const jobsOf = (node: JobsNode | undefined): TrackedJob[] => {
    if (node?.kind === 'job') return [tracker.get(node.job.id) ?? node.job];
    if (node?.kind === 'submission') return node.jobs.map((j) => tracker.get(j.id) ?? j);
    return [];
  };
  const selected = (node: JobsNode | undefined, nodes: readonly JobsNode[] | undefined): JobsNode[] => (nodes?.length ? [...nodes] : node ? [node] : [...view.selection]);
  const requestOf = (node: JobsNode | undefined): RequestNode | undefined => {
    if (node?.kind === 'request') return node;
    if (node?.kind === 'submission' && node.pending.length) return { kind: 'request', id: `request:${node.group}`, group: node.group, records: node.pending };
    return undefined;
  };

  context.subscriptions.push(
    provider,
    view,
    followVisibility(view, provider, tracker),
    vscode.commands.registerCommand(SHOW_JOBS, async (id?: string) => {
      await vscode.commands.executeCommand(`${JOBS_VIEW}.focus`);
      const node = typeof id === 'string' ? provider.jobNode(id) : undefined;
      if (node) await view.reveal(node, { select: true, focus: true, expand: true });
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.retryFailed, async (node?: JobsNode, options?: { confirm?: boolean }) => {
      const jobs = jobsOf(node ?? view.selection[0]).filter(isFinished);
      const made: TrackedJob[] = [];
      for (const job of jobs) made.push(...(await flow.retryFailed(job, options)));
      return made;
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.copyResults, async (node?: JobsNode, nodes?: JobsNode[]) => {
      const jobs = selected(node, nodes).flatMap(jobsOf);
      if (!jobs.length) {
        void vscode.window.showInformationMessage('Choose a copy job in the Copy Jobs view to copy its results.');
        return undefined;
      }
      const missing = jobs.filter((j) => isFinished(j) && j.state !== 'UNKNOWN' && !j.result?.length && j.items.length);
      for (const job of missing) await tracker.details(job.id).catch(() => undefined);
      const document = await vscode.workspace.openTextDocument({ content: resultsTable(jobs.map((j) => tracker.get(j.id) ?? j)), language: 'plaintext' });
      await vscode.window.showTextDocument(document, { preview: false });
      return document;
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.dismiss, (node?: JobsNode, nodes?: JobsNode[]) => {
      for (const n of selected(node, nodes)) {
        for (const job of jobsOf(n)) tracker.dismiss(job.id);
      }
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.clearFinished, () => {
      const finished = tracker.all().filter(isFinished);
      for (const job of finished) tracker.dismiss(job.id);
      if (finished.length) vscode.window.setStatusBarMessage(`Cleared ${plural(finished.length, 'finished copy job')}`, 3_000);
      return finished.length;
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.submitAgain, (node?: JobsNode) => {
      const request = requestOf(node ?? view.selection[0]);
      return request ? flow.resubmit(request.group) : [];
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.submitAnyway, async (node?: JobsNode, options?: { confirm?: boolean }) => {
      const request = requestOf(node ?? view.selection[0]);
      if (!request) return [];
      if (options?.confirm !== false) {
        const answer = await vscode.window.showWarningMessage(
          `Submit the copy to ${request.records[0].payload.destination.label} again?`,
          { modal: true, detail: 'It may have been submitted already: sending it again may copy everything twice. Without this, it is looked up on the platform and followed if found.' },
          'Submit Anyway',
        );
        if (answer !== 'Submit Anyway') return [];
      }
      return flow.resubmit(request.group);
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.discard, (node?: JobsNode) => {
      const request = requestOf(node ?? view.selection[0]);
      return request ? flow.discard(request.group) : undefined;
    }),
    vscode.commands.registerCommand(JOB_COMMANDS.openItem, async (node?: ItemNode) => {
      if (node?.kind !== 'item') return;
      const o = itemOutcome(tracker.get(node.job.id) ?? node.job, node.index);
      if (o.ok && o.newId) {
        // Revealing it in Projects & Files would mean loading every folder on its way; its ID is what a person uses next.
        await vscode.env.clipboard.writeText(o.newId);
        vscode.window.setStatusBarMessage(`Copied the ID of ${o.newName} (${o.newId})`, 3_000);
      } else if (o.ok === false) {
        void vscode.window.showWarningMessage(`${o.sourceName ?? o.sourceId} was not copied: ${o.error}${o.advice ? `. ${o.advice}` : ''}`);
      }
    }),
  );
  return { provider, view };
}
