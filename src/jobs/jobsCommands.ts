import * as vscode from 'vscode';
import type { CopyActions } from './copyRequests';
import type { Outbox } from '../write/outbox';
import { plural } from '../util/words';
import { childNodes, itemOutcome, resultsTable, type ItemNode, type JobsNode, type RequestNode } from './jobsModel';
import { CopyJobsProvider, followVisibility, JOBS_VIEW } from './jobsView';
import { isFinished, type JobTracker, type TrackedJob } from './tracker';
import { COMMANDS } from '../keys/commands';

export interface CopyJobsView {
  readonly provider: CopyJobsProvider;
  readonly view: vscode.TreeView<JobsNode>;
}

/** The Copy Jobs view and its actions; "Show Copy Jobs" (and the status-bar item) focus it. */
export function registerJobsView(context: vscode.ExtensionContext, tracker: JobTracker, outbox: Outbox, copies: CopyActions): CopyJobsView {
  const provider = new CopyJobsProvider(tracker, outbox);
  const view = vscode.window.createTreeView(JOBS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  /** From the palette with nothing selected in the view: which one, picked among the rows that fit. */
  const pick = async (title: string, fits: (node: JobsNode) => boolean): Promise<JobsNode | undefined> => {
    const nodes = provider.roots().flatMap((r) => (r.kind === 'submission' ? [r, ...childNodes(r)] : [r])).filter(fits);
    if (!nodes.length) {
      void vscode.window.showInformationMessage(`${title}: no copy job or request fits.`);
      return undefined;
    }
    const items = nodes.map((node) => {
      const item = provider.getTreeItem(node);
      return { label: String(item.label), description: String(item.description ?? ''), node };
    });
    return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true }))?.node;
  };
  const chosen = async (node: JobsNode | undefined, title: string, fits: (node: JobsNode) => boolean): Promise<JobsNode | undefined> => {
    const candidate = node ?? view.selection[0];
    if (candidate && fits(candidate)) return candidate;
    return pick(title, fits);
  };
  const hasContext = (pattern: RegExp) => (node: JobsNode) => node.kind !== 'message' && node.kind !== 'item' && pattern.test(provider.getTreeItem(node).contextValue ?? '');
  const jobsOf = (node: JobsNode | undefined): TrackedJob[] => {
    if (node?.kind === 'job') return [tracker.get(node.job.id) ?? node.job];
    if (node?.kind === 'submission') return node.jobs.map((j) => tracker.get(j.id) ?? j);
    return [];
  };
  const selected = async (node: JobsNode | undefined, nodes: readonly JobsNode[] | undefined, title: string): Promise<JobsNode[]> => {
    const list = nodes?.length ? [...nodes] : node ? [node] : [...view.selection];
    if (list.some((n) => n.kind === 'job' || n.kind === 'submission')) return list;
    const picked = await pick(title, hasContext(/\b(copyJob|copySubmission)\b/));
    return picked ? [picked] : [];
  };
  const requestOf = (node: JobsNode | undefined): RequestNode | undefined => {
    if (node?.kind === 'request') return node;
    if (node?.kind === 'submission' && node.pending.length) return { kind: 'request', id: `request:${node.group}`, group: node.group, records: node.pending };
    return undefined;
  };

  context.subscriptions.push(
    provider,
    view,
    followVisibility(view, provider, tracker),
    vscode.commands.registerCommand(COMMANDS.showJobs, async (id?: string) => {
      await vscode.commands.executeCommand(`${JOBS_VIEW}.focus`);
      const node = typeof id === 'string' ? provider.jobNode(id) : undefined;
      if (node) await view.reveal(node, { select: true, focus: true, expand: true });
    }),
    vscode.commands.registerCommand(COMMANDS.retryFailed, async (node?: JobsNode, options?: { confirm?: boolean }) => {
      const jobs = jobsOf(await chosen(node, 'Retry the failed items of which copy job?', hasContext(/\bhasFailed\b/))).filter(isFinished);
      const made: TrackedJob[] = [];
      for (const job of jobs) made.push(...(await copies.retryFailed(job, options)));
      return made;
    }),
    vscode.commands.registerCommand(COMMANDS.copyResults, async (node?: JobsNode, nodes?: JobsNode[]) => {
      const jobs = (await selected(node, nodes, 'Copy the results of which copy job?')).flatMap(jobsOf);
      if (!jobs.length) return undefined;
      const missing = jobs.filter((j) => isFinished(j) && j.state !== 'UNKNOWN' && !j.result?.length && j.items.length);
      for (const job of missing) await tracker.details(job.id).catch(() => undefined);
      const document = await vscode.workspace.openTextDocument({ content: resultsTable(jobs.map((j) => tracker.get(j.id) ?? j)), language: 'plaintext' });
      await vscode.window.showTextDocument(document, { preview: false });
      return document;
    }),
    vscode.commands.registerCommand(COMMANDS.dismissJob, async (node?: JobsNode, nodes?: JobsNode[]) => {
      for (const n of await selected(node, nodes, 'Dismiss which copy job?')) {
        for (const job of jobsOf(n)) tracker.dismiss(job.id);
      }
    }),
    vscode.commands.registerCommand(COMMANDS.clearFinishedJobs, () => {
      const finished = tracker.all().filter(isFinished);
      for (const job of finished) tracker.dismiss(job.id);
      if (finished.length) vscode.window.setStatusBarMessage(`Cleared ${plural(finished.length, 'finished copy job')}`, 3_000);
      return finished.length;
    }),
    vscode.commands.registerCommand(COMMANDS.submitAgain, async (node?: JobsNode) => {
      const request = requestOf(await chosen(node, 'Submit which copy request again?', hasContext(/\brefused\b/)));
      return request ? copies.resubmit(request.group) : [];
    }),
    vscode.commands.registerCommand(COMMANDS.submitAnyway, async (node?: JobsNode, options?: { confirm?: boolean }) => {
      const request = requestOf(await chosen(node, 'Submit which copy request anyway?', hasContext(/\bunsure\b/)));
      if (!request) return [];
      if (options?.confirm !== false) {
        const answer = await vscode.window.showWarningMessage(
          `Submit the copy to ${request.records[0].payload.destination.label} again?`,
          { modal: true, detail: 'It may have been submitted already: sending it again may copy everything twice. Without this, it is looked up on the platform and followed if found.' },
          'Submit Anyway',
        );
        if (answer !== 'Submit Anyway') return [];
      }
      return copies.resubmit(request.group, true);
    }),
    vscode.commands.registerCommand(COMMANDS.discardRequest, async (node?: JobsNode) => {
      const request = requestOf(await chosen(node, 'Discard which copy request?', (n) => n.kind === 'request' || (n.kind === 'submission' && n.pending.length > 0)));
      return request ? copies.discard(request.group) : undefined;
    }),
    vscode.commands.registerCommand(COMMANDS.openJobItem, async (node?: ItemNode) => {
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
