// What the commands of the Copy Jobs view do; jobs/register.ts binds them to their IDs.
import * as vscode from 'vscode';
import { isCopyCall, type CopyActions } from './copyRequests';
import { USER_DECIDES, type Outbox } from '../write/outbox';
import { count } from '../util/words';
import { childNodes, itemOutcome, resultsTable, type ItemNode, type JobsNode, type RequestNode } from './jobsModel';
import { JOBS_VIEW, type CopyJobsProvider } from './jobsView';
import { isFinished, type JobTracker, type TrackedJob } from './tracker';

export interface JobsViewParts {
  readonly tracker: JobTracker;
  readonly copies: CopyActions;
  /** The other writes shown in the view (task actions waiting for the person) are sent again through the outbox. */
  readonly writes: Pick<Outbox, 'resubmit'>;
  readonly provider: CopyJobsProvider;
  readonly view: vscode.TreeView<JobsNode>;
}

type Confirm = { confirm?: boolean };

/** From the palette with nothing selected in the view: which one, picked among the rows that fit. */
async function pick(parts: JobsViewParts, title: string, fits: (node: JobsNode) => boolean): Promise<JobsNode | undefined> {
  const nodes = parts.provider.roots().flatMap((r) => (r.kind === 'submission' ? [r, ...childNodes(r)] : [r])).filter(fits);
  if (!nodes.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t({ message: '{0}: no copy job or request fits.', args: [title], comment: ['{0}: the question asked, e.g. "Dismiss which copy job?"'] }));
    return undefined;
  }
  const items = nodes.map((node) => {
    const item = parts.provider.getTreeItem(node);
    return { label: String(item.label), description: String(item.description ?? ''), node };
  });
  return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true }))?.node;
}

/** The row given, else the one selected, when it fits; else one picked. */
async function chosen(parts: JobsViewParts, node: JobsNode | undefined, title: string, fits: (node: JobsNode) => boolean): Promise<JobsNode | undefined> {
  const candidate = node ?? parts.view.selection[0];
  if (candidate && fits(candidate)) return candidate;
  return pick(parts, title, fits);
}

/** The rows given, else the selection, when they hold a job; else one picked. */
async function selected(parts: JobsViewParts, node: JobsNode | undefined, nodes: readonly JobsNode[] | undefined, title: string): Promise<JobsNode[]> {
  const list = nodes?.length ? [...nodes] : node ? [node] : [...parts.view.selection];
  if (list.some((n) => n.kind === 'job' || n.kind === 'submission')) return list;
  const picked = await pick(parts, title, hasContext(parts, /\b(copyJob|copySubmission)\b/));
  return picked ? [picked] : [];
}

function hasContext(parts: JobsViewParts, pattern: RegExp): (node: JobsNode) => boolean {
  return (node) => node.kind !== 'message' && node.kind !== 'item' && pattern.test(parts.provider.getTreeItem(node).contextValue ?? '');
}

function jobsOf(parts: JobsViewParts, node: JobsNode | undefined): TrackedJob[] {
  if (node?.kind === 'job') return [parts.tracker.get(node.job.id) ?? node.job];
  if (node?.kind === 'submission') return node.jobs.map((j) => parts.tracker.get(j.id) ?? j);
  return [];
}

function requestOf(node: JobsNode | undefined): RequestNode | undefined {
  if (node?.kind === 'request') return node;
  if (node?.kind === 'submission' && node.pending.length) return { kind: 'request', id: `request:${node.group}`, group: node.group, records: node.pending };
  return undefined;
}

/** Show Copy Jobs: focuses the view, revealing the job given by ID. */
export async function showJobs(parts: JobsViewParts, id?: string): Promise<void> {
  await vscode.commands.executeCommand(`${JOBS_VIEW}.focus`);
  const node = typeof id === 'string' ? parts.provider.jobNode(id) : undefined;
  if (node) await parts.view.reveal(node, { select: true, focus: true, expand: true });
}

export async function retryFailed(parts: JobsViewParts, node?: JobsNode, options?: Confirm): Promise<TrackedJob[]> {
  const jobs = jobsOf(parts, await chosen(parts, node, vscode.l10n.t('Retry the failed items of which copy job?'), hasContext(parts, /\bhasFailed\b/))).filter(isFinished);
  const made: TrackedJob[] = [];
  for (const job of jobs) made.push(...(await parts.copies.retryFailed(job, options)));
  return made;
}

/** Copy Results: a TSV of the jobs' items in a new editor (finished jobs' results read first when missing). */
export async function copyResults(parts: JobsViewParts, node?: JobsNode, nodes?: JobsNode[]): Promise<vscode.TextDocument | undefined> {
  const { tracker } = parts;
  const jobs = (await selected(parts, node, nodes, vscode.l10n.t('Copy the results of which copy job?'))).flatMap((n) => jobsOf(parts, n));
  if (!jobs.length) return undefined;
  const missing = jobs.filter((j) => isFinished(j) && j.state !== 'UNKNOWN' && !j.result?.length && j.items.length);
  for (const job of missing) await tracker.details(job.id).catch(() => undefined);
  const document = await vscode.workspace.openTextDocument({ content: resultsTable(jobs.map((j) => tracker.get(j.id) ?? j)), language: 'plaintext' });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

export async function dismiss(parts: JobsViewParts, node?: JobsNode, nodes?: JobsNode[]): Promise<void> {
  for (const n of await selected(parts, node, nodes, vscode.l10n.t('Dismiss which copy job?'))) {
    for (const job of jobsOf(parts, n)) parts.tracker.dismiss(job.id);
  }
}

export function clearFinished(parts: JobsViewParts): number {
  const finished = parts.tracker.all().filter(isFinished);
  for (const job of finished) parts.tracker.dismiss(job.id);
  if (finished.length) vscode.window.setStatusBarMessage(finished.length === 1 ? vscode.l10n.t('Cleared 1 finished copy job') : vscode.l10n.t('Cleared {0} finished copy jobs', count(finished.length)), 3_000);
  return finished.length;
}

export async function submitAgain(parts: JobsViewParts, node?: JobsNode): Promise<TrackedJob[]> {
  const request = requestOf(await chosen(parts, node, vscode.l10n.t('Submit which copy request again?'), hasContext(parts, /\brefused\b/)));
  if (!request) return [];
  if (!request.records.every(isCopyCall)) {
    await parts.writes.resubmit(request.group, USER_DECIDES);
    return [];
  }
  return parts.copies.resubmit(request.group);
}

/** Submit Anyway: a request that may have been submitted, sent again once the person has been warned. */
export async function submitAnyway(parts: JobsViewParts, node?: JobsNode, options?: Confirm): Promise<TrackedJob[]> {
  const request = requestOf(await chosen(parts, node, vscode.l10n.t('Submit which copy request anyway?'), hasContext(parts, /\bunsure\b/)));
  if (!request) return [];
  const copies = request.records.every(isCopyCall);
  if (options?.confirm !== false) {
    const submitAnyway = vscode.l10n.t('Submit Anyway');
    const answer = await vscode.window.showWarningMessage(
      copies ? vscode.l10n.t('Submit the copy to {0} again?', request.records[0].payload.destination.label) : vscode.l10n.t('Submit "{0}" again?', request.records[0].label ?? request.records[0].kind),
      { modal: true, detail: vscode.l10n.t('It may have been submitted already: sending it again may copy everything twice. Without this, it is looked up on the platform and followed if found.') },
      submitAnyway,
    );
    if (answer !== submitAnyway) return [];
  }
  if (!copies) {
    await parts.writes.resubmit(request.group, ['unsure']);
    return [];
  }
  return parts.copies.resubmit(request.group, true);
}

export async function discard(parts: JobsViewParts, node?: JobsNode): Promise<void> {
  const request = requestOf(await chosen(parts, node, vscode.l10n.t('Discard which copy request?'), (n) => n.kind === 'request' || (n.kind === 'submission' && n.pending.length > 0)));
  return request ? parts.copies.discard(request.group) : undefined;
}

/** An item of a job: its new copy's ID to the clipboard, or why it was not copied. */
export async function openItem(parts: JobsViewParts, node?: ItemNode): Promise<void> {
  if (node?.kind !== 'item') return;
  const o = itemOutcome(parts.tracker.get(node.job.id) ?? node.job, node.index);
  if (o.ok && o.newId) {
    // Revealing it in Projects & Files would mean loading every folder on its way; its ID is what a person uses next.
    await vscode.env.clipboard.writeText(o.newId);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the ID of {0} ({1})', o.newName ?? '', o.newId), 3_000);
  } else if (o.ok === false) {
    const name = o.sourceName ?? o.sourceId;
    void vscode.window.showWarningMessage(
      o.advice ? vscode.l10n.t('{0} was not copied: {1}. {2}', name, o.error ?? '', o.advice) : vscode.l10n.t('{0} was not copied: {1}', name, o.error ?? ''),
    );
  }
}
