// The commands of the Data Jobs view: one table, each entry what it acts on and what it does (see ui/commands.ts).
// What a row can take is read from its data (canRetryFailed, requestState), the same facts its menus show from.
import * as vscode from 'vscode';
import { onMany, onOne, plain, type Command, type CommandOptions, type TargetType } from '../ui/commands';
import { count } from '../util/words';
import { VIEWS } from '../keys/views';
import { commandTitles } from '../keys/commands';
import { isCopyCall, type CopyActions } from './copyRequests';
import { USER_DECIDES, type Account, type Outbox } from '../write/outbox';
import { CopyResultsProvider } from './results';
import { isJobsNode, type DataJobsModel } from './jobsModel';
import { requestOf, type InterruptedNode, type ItemNode, type JobNode, type JobsNode, type RequestNode, type SubmissionNode, type TransferNode } from './jobNodes';
import { canRetryFailed, itemOutcome, retryPlan } from './itemOutcomes';
import { interruptedWords } from './jobRows';
import { requestState } from './pendingWrites';
import { isFinished } from './trackedJobs';
import type { TrackedJob } from './tracker';
import { jobTypeOf, jobTypeWord } from './jobKinds';
import { jobWriteOf, trackedJobs } from './jobWrite';
import { noFailedItemsWords, notCopiedWords } from './summary';
import type { InterruptedRun, TransferActions } from './transfers';

export interface JobsViewParts {
  readonly model: DataJobsModel;
  readonly copies: CopyActions;
  /** The other writes shown in the view (task actions waiting for the person) are sent again through the outbox. */
  readonly writes: Outbox;
  readonly account: () => Promise<Account | undefined>;
  readonly view: vscode.TreeView<JobsNode>;
}

/** What the pick asks when no row is at hand. */
interface JobAsk {
  question: () => string;
}

type JobRow = JobNode | SubmissionNode;

/** Every command of the Data Jobs view. */
export function jobsCommands(parts: JobsViewParts): Command[] {
  const { model } = parts;
  const jobs = rowTarget<JobRow>(parts, (node) => (node.kind === 'job' || node.kind === 'submission' ? node : undefined));
  const requests = rowTarget<RequestNode>(parts, requestOf);
  const interrupted = rowTarget<InterruptedNode>(parts, interruptedOf);
  const owned = (request: RequestNode) => requestState(request.records, (r) => model.owns(r));
  return [
    plain('showJobs', (id) => showJobs(parts, id)),
    onOne('retryFailed', { type: jobs, fits: (row) => jobsOf(model, row).some(canRetryFailed), ask: { question: () => vscode.l10n.t('Retry the failed items of which data job?') } }, (row, options) =>
      retryFailed(parts, row, options),
    ),
    onMany('copyResults', { type: jobs, ask: { question: () => vscode.l10n.t('Copy the results of which data job?') } }, (rows) => copyResults(parts, rows)),
    onMany('dismissJob', { type: jobs, ask: { question: () => vscode.l10n.t('Dismiss which data job?') } }, (rows) => {
      for (const job of rows.flatMap((row) => jobsOf(model, row))) model.tracker.dismiss(job.id);
    }),
    plain('clearFinishedJobs', () => clearFinished(parts)),
    onOne('submitAgain', { type: requests, fits: (r) => owned(r).owned && owned(r).decides, ask: { question: () => vscode.l10n.t('Submit which request again?') } }, (r) =>
      submitAgain(parts, r),
    ),
    onOne('submitAnyway', { type: requests, fits: (r) => owned(r).owned && owned(r).unsure, ask: { question: () => vscode.l10n.t('Submit which request anyway?') } }, (r, options) =>
      submitAnyway(parts, r, options),
    ),
    onOne('discardRequest', { type: requests, fits: (r) => owned(r).owned || owned(r).problem === 'corrupt', ask: { question: () => vscode.l10n.t('Discard which request?') } }, (r) => parts.copies.discard(r.group)),
    onOne('openJobItem', { type: itemTarget, from: 'argument' }, (item) => openItem(parts, item)),
    onOne('cancelTransfer', { type: rowTarget<TransferNode>(parts, (n) => (n.kind === 'transfer' ? n : undefined)), fits: (t) => !t.transfer.cancelling, ask: { question: () => vscode.l10n.t('Cancel which transfer?') } }, (t) =>
      model.transfers.cancel(t.transfer.id),
    ),
    onOne('resumeTransfer', { type: interrupted, ask: { question: () => vscode.l10n.t('Resume which transfer?') } }, (node) => resumeTransfer(parts, node)),
    onOne('discardTransfer', { type: interrupted, ask: { question: () => vscode.l10n.t('Discard which interrupted transfer?') } }, (node, options) => discardTransfer(parts, node, options)),
  ];
}

const interruptedOf = (n: JobsNode): InterruptedNode | undefined => (n.kind === 'interrupted' ? n : undefined);

/** What Resume and Discard do to a transfer of this kind; said when this window cannot. */
function actionsFor(parts: JobsViewParts, node: InterruptedNode): TransferActions {
  const actions = parts.model.transfers.actions[node.run.kind];
  if (!actions) throw new Error(vscode.l10n.t('This transfer cannot be resumed or discarded in this window.'));
  return actions;
}

/** Resume: the transfer goes on from where it was, its row a transfer under way again. */
async function resumeTransfer(parts: JobsViewParts, node: InterruptedNode): Promise<unknown> {
  const actions = actionsFor(parts, node);
  return parts.model.transfers.working(node.run.runId, () => actions.resume(node.run));
}

/** Discard: an upload's multipart uploads aborted on the platform (nothing half made is left), a download's `.part` files deleted. */
async function discardTransfer(parts: JobsViewParts, node: InterruptedNode, options: CommandOptions): Promise<number> {
  const actions = actionsFor(parts, node);
  if (options.confirm !== false && !(await confirmDiscard(node.run))) return 0;
  return parts.model.transfers.working(node.run.runId, () => actions.discard(node.run));
}

/** The question before a Discard (from its row, or a cancelled download's summary): what is deleted, and where. */
export async function confirmDiscard(run: Pick<InterruptedRun, 'kind' | 'label' | 'filesLeft' | 'filesTotal' | 'bytesLeft'>): Promise<boolean> {
  const discard = commandTitles().discardTransfer;
  const upload = run.kind === 'upload';
  const answer = await vscode.window.showWarningMessage(
    upload ? vscode.l10n.t('Discard the upload to {0}?', run.label) : vscode.l10n.t('Discard the download to {0}?', run.label),
    {
      modal: true,
      detail: upload
        ? vscode.l10n.t('{0}. The parts already sent are deleted from the platform; the files stay on this computer.', interruptedWords(run))
        : vscode.l10n.t('{0}. The .part files are deleted from this computer; the files stay on the platform.', interruptedWords(run)),
    },
    discard,
  );
  return answer === discard;
}

/** A kind of row of the view (read from a row), else one picked among those that fit. */
function rowTarget<T extends JobsNode>(parts: JobsViewParts, read: (node: JobsNode) => T | undefined): TargetType<T, JobAsk> {
  return {
    read: (value) => (isJobsNode(value) ? read(value) : undefined),
    key: (row) => row.id,
    pick: async ({ fits, ask, title }) => {
      const rows = parts.model.rows().map(read).filter((r): r is T => r !== undefined && fits(r));
      const question = ask?.question() ?? title;
      if (!rows.length) {
        void vscode.window.showInformationMessage(vscode.l10n.t({ message: '{0}: no data job or request fits.', args: [question], comment: ['{0}: the question asked, e.g. "Dismiss which data job?"'] }));
        return [];
      }
      const items = rows.map((row) => {
        const view = parts.model.rowView(row);
        return { label: view.label, description: view.description, row };
      });
      const chosen = await vscode.window.showQuickPick(items, { title: question, matchOnDescription: true });
      return chosen ? [chosen.row] : [];
    },
  };
}

const itemTarget: TargetType<ItemNode> = {
  read: (value) => (isJobsNode(value) && value.kind === 'item' ? value : undefined),
  key: (item) => item.id,
};

/** A row's jobs as the tracker has them now: a job's own, or every job of a split copy. */
function jobsOf(model: DataJobsModel, row: JobRow): TrackedJob[] {
  return row.kind === 'job' ? [model.current(row.job)] : row.jobs.map((j) => model.current(j));
}

/** Show Data Jobs: focuses the view, revealing the job given by ID. */
async function showJobs(parts: JobsViewParts, id: unknown): Promise<void> {
  await vscode.commands.executeCommand(`${VIEWS.copyJobs}.focus`);
  const node = typeof id === 'string' ? parts.model.jobNode(id) : undefined;
  if (node) await parts.view.reveal(node, { select: true, focus: true, expand: true });
}

async function retryFailed(parts: JobsViewParts, row: JobRow, options: CommandOptions): Promise<TrackedJob[]> {
  const made: TrackedJob[] = [];
  for (const job of jobsOf(parts.model, row).filter(isFinished)) {
    made.push(...(jobTypeOf(job) === 'COPY' ? await parts.copies.retryFailed(job, { confirm: options.confirm !== false }) : await retryOther(parts, job, options)));
  }
  return made;
}

/**
 * Retry Failed Items of a move or a delete: a new write of the same kind, of the failed items only, through the one
 * write path; its job is followed in the view like the first.
 */
async function retryOther(parts: JobsViewParts, job: TrackedJob, options: CommandOptions): Promise<TrackedJob[]> {
  const type = jobTypeOf(job);
  const kind = jobWriteOf(parts.writes.kinds, type);
  if (!kind?.retry) throw new Error(vscode.l10n.t('{0} jobs cannot be sent again by this version of the extension.', jobTypeWord(type)));
  const account = await parts.account();
  if (!account) throw new Error(vscode.l10n.t('Sign in to send the failed items again.'));
  if (job.account && job.account !== account.key) throw new Error(vscode.l10n.t('Job {0} ran as {1}: sign in to that account to send its failed items again.', job.id, job.account.replace('#', ' · ')));
  const { items, names } = retryPlan(job);
  if (!items.length) {
    void vscode.window.showInformationMessage(noFailedItemsWords());
    return [];
  }
  if (options.confirm !== false) {
    const again = commandTitles().retryFailed;
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t({ message: '{0}: send the {1} failed items again?', args: [jobTypeWord(type), count(items.length)], comment: ['{0}: the job\'s kind ("Delete")'] }),
      { modal: true, detail: vscode.l10n.t('A new job is made of the failed items only.') },
      again,
    );
    if (answer !== again) return [];
  }
  const { finished, left } = await parts.writes.send(kind.name, [await kind.retry(items, names, job)], account);
  if (left.some((r) => r.state === 'failed')) throw new Error(left.find((r) => r.note)?.note ?? vscode.l10n.t('The platform did not take the request: see it in the Data Jobs view.'));
  return trackedJobs(parts.model.tracker, finished);
}

/** Copy Results: the jobs' items as a read-only TSV document (finished jobs' results read first when missing). */
async function copyResults(parts: JobsViewParts, rows: JobRow[]): Promise<vscode.TextDocument> {
  const { model } = parts;
  const jobs = rows.flatMap((row) => jobsOf(model, row));
  const missing = jobs.filter((j) => isFinished(j) && j.state !== 'UNKNOWN' && !j.result?.length && j.items.length);
  for (const job of missing) await model.tracker.details(job.id).catch(() => undefined);
  const document = await vscode.workspace.openTextDocument(CopyResultsProvider.uriFor(jobs));
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

function clearFinished(parts: JobsViewParts): number {
  const finished = parts.model.tracker.all().filter(isFinished);
  for (const job of finished) parts.model.tracker.dismiss(job.id);
  if (finished.length) vscode.window.setStatusBarMessage(finished.length === 1 ? vscode.l10n.t('Cleared 1 finished data job') : vscode.l10n.t('Cleared {0} finished data jobs', count(finished.length)), 3_000);
  return finished.length;
}

/** Submit Anyway: a request that may have been submitted, sent again once the person has been warned. */
async function submitAgain(parts: JobsViewParts, request: RequestNode): Promise<TrackedJob[]> {
  if (request.records.every(isCopyCall)) return parts.copies.resubmit(request.group);
  await parts.writes.resubmit(request.group, USER_DECIDES);
  return [];
}

async function submitAnyway(parts: JobsViewParts, request: RequestNode, options: CommandOptions): Promise<TrackedJob[]> {
  const first = request.records[0];
  const copies = request.records.every(isCopyCall);
  if (options.confirm !== false) {
    const submitAnyway = commandTitles().submitAnyway;
    const answer = await vscode.window.showWarningMessage(
      isCopyCall(first) ? vscode.l10n.t('Submit the copy to {0} again?', first.payload.destination.label) : vscode.l10n.t('Submit "{0}" again?', first.label ?? first.kind),
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

/** An item of a job: its new copy's ID to the clipboard, or why it was not copied. */
async function openItem(parts: JobsViewParts, node: ItemNode): Promise<void> {
  const o = itemOutcome(parts.model.current(node.job), node.index);
  if (o.ok && o.newId) {
    // Its ID is what a person uses next; Reveal in Projects & Files (its menu) shows where it is.
    await vscode.env.clipboard.writeText(o.newId);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the ID of {0} ({1})', o.newName ?? '', o.newId), 3_000);
  } else if (o.ok === false) {
    const name = o.sourceName ?? o.sourceId;
    void vscode.window.showWarningMessage(
      o.advice ? vscode.l10n.t('{0} was not copied: {1}. {2}', name, o.error ?? '', o.advice) : notCopiedWords(name, o.error ?? ''),
    );
  }
}
