// The Data Jobs view as data (its ID is still `sevenbridges.copyJobs`): the asynchronous file jobs (copies, moves,
// deletes), the uploads and downloads under way, the upload runs left unfinished, and every write still pending;
// which rows there are, in which order, what can be done with each, and how each looks. No `vscode` import;
// ui/rowTree.ts draws it.
import * as l10n from '@vscode/l10n';
import { describeError } from '../api/errors';
import type { FileRecord } from '../api/types';
import { isCopyCall, pendingCopies, type CopyWriteRecord } from './copyRequests';
import { waitsForPerson, type WriteRecord } from '../write/outbox';
import { writeStateWords } from '../write/stateWords';
import type { Outbox } from '../write/outbox';
import { messageView, MessageNode, type IconSpec, type RowModel, type RowView } from '../ui/rowView';
import { Emitter } from '../util/emitter';
import { relativeTime } from '../util/time';
import { tsvTable } from '../util/tsv';
import { count, itemCount, requestCount } from '../util/words';
import { commandTitles, COMMANDS } from '../keys/commands';
import { failedCount, itemErrorWords, jobIdWords, jobOutcome, jobProgress, jobStateWord, noResultWords, pendingWords, submittedWhen, transferProgress, transferWhere } from './summary';
import { isFinished, type JobTracker, type TrackedJob } from './tracker';
import { itemDoneWord, jobTypeOf, jobTypeWord, type JobType } from './jobKinds';
import { Transfers, type InterruptedRun, type LiveTransfer } from './transfers';
import { fileCount, formatSize } from '../util/words';


/** Several jobs (and maybe requests not yet sent) made by one copy that was split. */
export interface SubmissionNode {
  kind: 'submission';
  id: string;
  group: string;
  jobs: TrackedJob[];
  pending: CopyWriteRecord[];
}
export interface JobNode {
  kind: 'job';
  id: string;
  job: TrackedJob;
}
/** A request still in the outbox (one group's records): waiting, being checked, or refused. */
export interface RequestNode {
  kind: 'request';
  id: string;
  group: string;
  records: CopyWriteRecord[];
}
export interface ItemNode {
  kind: 'item';
  id: string;
  job: TrackedJob;
  index: number;
  /** The new copy, once the platform reported it: what Reveal in Projects & Files shows. */
  file?: FileRecord;
}
/** An upload or download under way in this window. */
export interface TransferNode {
  kind: 'transfer';
  id: string;
  transfer: LiveTransfer;
}
/** An upload run a reload or a fault left unfinished: Resume, Discard. */
export interface InterruptedNode {
  kind: 'interrupted';
  id: string;
  run: InterruptedRun;
}
export type JobsNode = SubmissionNode | JobNode | RequestNode | ItemNode | TransferNode | InterruptedNode | MessageNode<JobsNode>;

export type { RowView } from '../ui/rowView';

const n = count;

/** "10 failed", one part of a row's description. */
const failedWords = (failed: number): string => (failed === 1 ? l10n.t('1 failed') : l10n.t('{0} failed', n(failed)));
/** "340/1,000 files", once the platform has counted a job's files. */
const filesDone = (done: number, total: number): string => l10n.t('{0}/{1} files', n(done), n(total));
/** The tooltip's first line and the start of the row's aria label. */
const copyTo = (label: string): string => l10n.t('Copy to {0}', label);
/** An aria label: where the copy goes, then how it is doing. */
const ariaCopyTo = (label: string, description: string): string => l10n.t({ message: 'Copy to {0}, {1}', args: [label, description], comment: ['{1}: its state, progress and age'] });

/** A job's tooltip's first line: "Copy to p › f", "Move to p › f", "Delete in p". */
export function jobTitle(type: JobType, label: string): string {
  switch (type) {
    case 'COPY':
      return copyTo(label);
    case 'MOVE':
      return l10n.t('Move to {0}', label);
    case 'DELETE':
      return l10n.t('Delete in {0}', label);
    default:
      return l10n.t({ message: '{0}: {1}', args: [jobTypeWord(type), label], comment: ['{0}: a job\'s kind as the platform names it; {1}: where'] });
  }
}

/**
 * The view's top rows, newest first: a job on its own, or the submission it belongs to when its copy was split
 * into several requests (its jobs and its requests still in the outbox together); requests in the outbox on
 * their own otherwise.
 */
export function rootNodes(jobs: readonly TrackedJob[], pending: readonly CopyWriteRecord[], transfers: readonly LiveTransfer[] = [], interrupted: readonly InterruptedRun[] = []): JobsNode[] {
  const byGroup = new Map<string, { jobs: TrackedJob[]; pending: CopyWriteRecord[] }>();
  const entry = (group: string) => {
    let e = byGroup.get(group);
    if (!e) byGroup.set(group, (e = { jobs: [], pending: [] }));
    return e;
  };
  const alone: TrackedJob[] = [];
  for (const job of jobs) (job.group ? entry(job.group).jobs : alone).push(job);
  for (const record of pending) entry(record.group).pending.push(record);

  const rows: { at: number; node: JobsNode }[] = alone.map((job) => ({ at: job.submittedAt, node: jobNode(job) }));
  for (const [group, e] of byGroup) {
    const at = Math.max(...e.jobs.map((j) => j.submittedAt), ...e.pending.map((p) => p.createdAt));
    if (e.jobs.length + (e.pending.length ? 1 : 0) > 1) {
      rows.push({ at, node: { kind: 'submission', id: `submission:${group}`, group, jobs: newestFirst(e.jobs), pending: e.pending } });
    } else if (e.jobs.length) {
      rows.push({ at, node: jobNode(e.jobs[0]) });
    } else {
      rows.push({ at, node: requestNode(group, e.pending) });
    }
  }
  rows.sort((a, b) => b.at - a.at);
  // What moves bytes now first, then what waits for the person to resume it, then the jobs and requests.
  const top: JobsNode[] = [
    ...transfers.map((transfer): JobsNode => ({ kind: 'transfer', id: `transfer:${transfer.id}`, transfer })),
    ...interrupted.map((run): JobsNode => ({ kind: 'interrupted', id: `interrupted:${run.runId}`, run })),
  ];
  if (!rows.length && !top.length) {
    return [new MessageNode<JobsNode>('message:empty', undefined, l10n.t('No data jobs yet'), 'info', undefined, undefined, l10n.t('Copy, move, delete, upload or download files in Projects & Files: each shows here until it is done.'))];
  }
  return [...top, ...rows.map((r) => r.node)];
}

/** The rows under a submission (its requests still in the outbox first, then its jobs, newest first) or a job (its items). */
export function childNodes(node: JobsNode): JobsNode[] {
  if (node.kind === 'submission') return [...(node.pending.length ? [requestNode(node.group, node.pending)] : []), ...node.jobs.map(jobNode)];
  if (node.kind === 'job') return itemOrder(node.job).map((index) => ({ kind: 'item', id: `item:${node.job.id}:${index}`, job: node.job, index, file: node.job.result?.[index]?.resource }));
  return [];
}

/** Item indexes in the order shown: failed first, then those without a result yet, then the copied ones; request order within each. */
export function itemOrder(job: TrackedJob): number[] {
  const rank = (i: number) => {
    const r = job.result?.[i];
    return r?.error ? 0 : r?.resource ? 2 : 1;
  };
  return job.items.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b);
}

function jobNode(job: TrackedJob): JobNode {
  return { kind: 'job', id: `job:${job.id}`, job };
}

function requestNode(group: string, records: CopyWriteRecord[]): RequestNode {
  return { kind: 'request', id: `request:${group}`, group, records };
}

function newestFirst(jobs: TrackedJob[]): TrackedJob[] {
  return [...jobs].sort((a, b) => b.submittedAt - a.submittedAt);
}

/** Whether a finished job has items whose result is an error: what Retry Failed Items sends again, as a job of its kind. */
export function canRetryFailed(job: TrackedJob): boolean {
  return isFinished(job) && job.state !== 'UNKNOWN' && failedCount(job) > 0 && !!job.result?.some((r) => r.error);
}

/**
 * What Retry Failed Items sends again: the items whose result is an error, as the job recorded them (their place
 * and name for a copy or a move), with the names known for them. Nothing when none failed.
 */
export function retryPlan(job: TrackedJob): { items: TrackedJob['items']; names: Record<string, string> } {
  const items = job.items.filter((_, i) => job.result?.[i]?.error !== undefined);
  const names: Record<string, string> = {};
  for (const item of items) {
    const name = job.sourceNames?.[item.file] ?? job.sourceNames?.[item.file.toLowerCase()];
    if (name !== undefined) names[item.file] = name;
  }
  return { items, names };
}

/**
 * A request's records: whether this window owns them (only it acts on them), any was refused, not found, changed by
 * someone else since (any of the three: the person decides), any may have been submitted.
 */
export function requestState(
  records: readonly CopyWriteRecord[],
  owns: (record: CopyWriteRecord) => boolean,
): { problem: WriteRecord['problem']; owned: boolean; refused: boolean; notFound: boolean; changed: boolean; decides: boolean; unsure: boolean } {
  const problem = records.find((p) => p.problem)?.problem;
  return {
    problem,
    owned: !problem && records.every(owns),
    refused: records.some((p) => p.state === 'failed' && !p.problem),
    notFound: records.some((p) => p.state === 'notFound'),
    changed: records.some((p) => p.state === 'changed'),
    decides: records.some((p) => waitsForPerson(p) && !p.problem),
    unsure: records.some((p) => p.state === 'unsure'),
  };
}

/** The request a row holds: a request row, or the requests of a submission still in the outbox. */
export function requestOf(node: JobsNode | undefined): RequestNode | undefined {
  if (node?.kind === 'request') return node;
  if (node?.kind === 'submission' && node.pending.length) return requestNode(node.group, node.pending);
  return undefined;
}

/** Where a copy goes, in the words that tell it apart in a narrow row: the folder's name, else the project's. */
export function shortDestination(label: string): string {
  const [project, folder] = label.split(' › ');
  const last = (text: string) => text.split('/').filter(Boolean).pop() ?? text;
  return last(folder ?? project);
}

/** "340/1,000 files" once the platform has counted them; the item count before. */
export function progressText(job: TrackedJob): string {
  if (job.total) return filesDone((job.completed ?? 0) + (job.failed ?? 0), job.total);
  const done = job.result?.length ?? 0;
  if (!done) return itemCount(job.items.length);
  return job.items.length === 1 ? l10n.t('{0}/1 item', n(done)) : l10n.t('{0}/{1} items', n(done), n(job.items.length));
}

function jobIconSpec(job: TrackedJob): IconSpec {
  if (!isFinished(job)) return { id: 'sync~spin', color: 'charts.blue' };
  if (job.state === 'UNKNOWN') return { id: 'question' };
  return failedCount(job) ? { id: 'warning', color: 'list.warningForeground' } : { id: 'pass', color: 'testing.iconPassed' };
}

/** A job's row: its state and progress first ("finished · 1/1 files"), then where (the folder's name) and its age. */
export function jobRow(job: TrackedJob, now: number): RowView {
  const state = jobStateWord(job.state);
  const age = relativeTime(new Date(job.submittedAt), now);
  const failed = failedCount(job);
  const type = jobTypeOf(job);
  // A copy's row starts with its state (its tooltip and aria label say "Copy to"); another kind's with its kind.
  const label = [...(type === 'COPY' ? [] : [jobTypeWord(type)]), state, progressText(job), ...(failed ? [failedWords(failed)] : [])].join(' · ');
  const description = [shortDestination(job.destination.label), age].join(' · ');
  const tokens = ['copyJob', `type-${type.toLowerCase()}`, isFinished(job) ? 'finished' : 'running'];
  if (canRetryFailed(job)) tokens.push('hasFailed');
  if (job.result?.length || job.items.length) tokens.push('hasItems');
  const tooltip = [
    jobTitle(type, job.destination.label),
    l10n.t({ message: '{0}: {1}', args: [jobIdWords(job.id), isFinished(job) ? jobOutcome(job) : jobProgress(job)], comment: ['{0}: "Job 7071…"; {1}: how it is doing'] }),
    [itemCount(job.items.length), submittedWhen(age)].join(' · '),
    ...(job.adopted ? [l10n.t('Found on the platform after its answer was lost')] : []),
    ...(job.lastError ? [job.lastError] : []),
  ].join('\n');
  return {
    label,
    description,
    tooltip,
    ariaLabel: type === 'COPY' ? ariaCopyTo(job.destination.label, [label, age].join(' · ')) : l10n.t({ message: '{0}, {1}', args: [jobTitle(type, job.destination.label), [label, age].join(' · ')], comment: ['{0}: a job ("Delete in p"); {1}: its state, progress and age'] }),
    icon: jobIconSpec(job),
    contextValue: tokens.join(' '),
    expandable: job.items.length > 0,
  };
}

/** A split copy's row: its destination and how far its jobs are together. */
export function submissionRow(node: SubmissionNode, now: number): RowView {
  const label = node.jobs[0]?.destination.label ?? node.pending.find(isCopyCall)?.payload.destination.label ?? l10n.t({ message: 'copy', comment: ['A row\'s label when its destination is not known'] });
  const total = node.jobs.reduce((sum, j) => sum + (j.total ?? 0), 0);
  const done = node.jobs.reduce((sum, j) => sum + (j.completed ?? 0) + (j.failed ?? 0), 0);
  const failed = node.jobs.reduce((sum, j) => sum + failedCount(j), 0);
  const items = node.jobs.reduce((sum, j) => sum + j.items.length, 0) + node.pending.filter(isCopyCall).reduce((sum, p) => sum + p.payload.items.length, 0);
  const allDone = !node.pending.length && node.jobs.every(isFinished);
  const requests = node.jobs.length + node.pending.length;
  const at = Math.min(...node.jobs.map((j) => j.submittedAt), ...node.pending.map((p) => p.createdAt));
  const parts = [
    jobStateWord(allDone ? 'FINISHED' : 'RUNNING'),
    total ? filesDone(done, total) : itemCount(items),
    ...(failed ? [failedWords(failed)] : []),
    ...(node.pending.length ? [node.pending.length === 1 ? l10n.t('1 request not submitted yet') : l10n.t('{0} requests not submitted yet', n(node.pending.length))] : []),
  ];
  const age = relativeTime(new Date(at), now);
  const description = [shortDestination(label), requestCount(requests), age].join(' · ');
  const refused = node.pending.some(waitsForPerson);
  return {
    label: parts.join(' · '),
    description,
    tooltip:
      items === 1
        ? l10n.t('Copy of 1 item to {0}, split into {1}', label, requestCount(requests))
        : l10n.t({ message: 'Copy of {0} items to {1}, split into {2}', args: [n(items), label, requestCount(requests)], comment: ['{2}: "3 requests"'] }),
    ariaLabel: ariaCopyTo(label, [...parts, requestCount(requests), age].join(' · ')),
    icon: refused ? { id: 'warning', color: 'list.warningForeground' } : allDone ? (failed ? { id: 'warning', color: 'list.warningForeground' } : { id: 'pass', color: 'testing.iconPassed' }) : { id: 'sync~spin', color: 'charts.blue' },
    contextValue: ['copySubmission', allDone ? 'finished' : 'running'].join(' '),
    expandable: true,
  };
}

/**
 * A request still in the outbox: what it waits for; its context says which actions fit (Submit Again / Anyway,
 * Discard). A copy call, another write waiting for the person (a task action), or a record left alone.
 */
export function requestRow(node: RequestNode, now: number, owns: (record: CopyWriteRecord) => boolean): RowView {
  const records = node.records;
  const copies = records.every(isCopyCall);
  const first: WriteRecord = records[0];
  const label = copies ? records[0].payload.destination.label : (first.label ?? first.kind);
  const count = copies ? records.reduce((sum, p) => sum + p.payload.items.length, 0) : undefined;
  const { problem, owned, refused, notFound, changed, decides, unsure } = requestState(records, owns);
  const states = [...new Set(records.map((p) => writeStateWords(p, now, owns(p))))].join(', ');
  const note = records.find((p) => p.note)?.note;
  const age = relativeTime(new Date(records[0].createdAt), now);
  const description = [copies ? shortDestination(label) : label, age].join(' · ');
  const tokens = ['copyRequest'];
  if (owned && decides) tokens.push('refused');
  if (owned && unsure) tokens.push('unsure');
  if (owned || problem === 'corrupt') tokens.push('discardable');
  const advice =
    problem === 'newer'
      ? l10n.t('Made by a newer version of the extension: that version sends it. Nothing to do here.')
      : problem === 'corrupt'
        ? l10n.t('Nothing can be sent for it: Discard it.')
        : !owned
          ? l10n.t('Handled by another window: act on it there. This window takes it over if that window closes.')
          : refused
            ? l10n.t('Nothing was sent for it: Submit Again once the reason is fixed, or Discard.')
            : notFound
              ? l10n.t('It may have been submitted, but the platform does not show it: Submit Again if it is still needed, or Discard.')
              : changed
                ? l10n.t('It may have been done, but the platform shows something else now (someone changed it since, or it is gone): it is not sent again on its own. Submit Again to send it anyway, or Discard.')
                : unsure
                ? l10n.t('It may have been submitted: it is looked up on the platform before anything is sent again. Submit Anyway may make it twice.')
                : l10n.t('It is sent by itself: nothing to do.');
  const what = count === undefined ? l10n.t({ message: '{0}: {1}', args: [label, states], comment: ['{0}: a request ("Re-run "BWA-MEM run""); {1}: its state'] }) : count === 1 ? l10n.t('Copy of 1 item to {0}: {1}', label, states) : l10n.t('Copy of {0} items to {1}: {2}', n(count), label, states);
  // What it waits for first: a narrow side bar cuts the row at its end.
  const shown = [states, ...(count === undefined ? [] : [itemCount(count)])].join(' · ');
  return {
    label: shown,
    description,
    tooltip: [what, ...(note ? [note] : []), advice].join('\n'),
    ariaLabel: copies
      ? l10n.t({ message: 'Copy request to {0}, {1}', args: [label, [shown, age].join(' · ')], comment: ['{1}: its state, size and age'] })
      : l10n.t({ message: '{0}, {1}', args: [label, [shown, age].join(' · ')], comment: ['{0}: a request ("Re-run "BWA-MEM run""); {1}: its state and age'] }),
    icon: refused || problem === 'corrupt' ? { id: 'error', color: 'testing.iconFailed' } : notFound || changed ? { id: 'warning', color: 'list.warningForeground' } : unsure ? { id: 'search' } : { id: 'clock' },
    contextValue: tokens.join(' '),
    expandable: false,
  };
}

/** A transfer under way: "Uploading · 3 of 7 files · 40 MB of 120 MB · …", where it goes and since when; Cancel. */
export function transferRow(t: LiveTransfer, now: number): RowView {
  const doing = t.kind === 'upload' ? l10n.t({ message: 'Uploading', comment: ['A transfer\'s row in Data Jobs'] }) : l10n.t({ message: 'Downloading', comment: ['A transfer\'s row in Data Jobs'] });
  const progress = transferProgress(t);
  const label = [doing, progress].join(' · ');
  const age = relativeTime(new Date(t.startedAt), now);
  const where = transferWhere(t);
  return {
    label,
    description: [shortDestination(t.label), age].join(' · '),
    tooltip: [where, progress, t.cancelling ? l10n.t('Stopping: what was begun is being aborted.') : l10n.t('Cancel stops it; nothing half made is left.')].join('\n'),
    ariaLabel: l10n.t({ message: '{0}, {1}', args: [where, [progress, age].join(' · ')], comment: ['{0}: "Upload to p"; {1}: its progress and age'] }),
    icon: { id: t.cancelling ? 'loading~spin' : t.kind === 'upload' ? 'cloud-upload' : 'cloud-download', color: 'charts.blue' },
    contextValue: ['transfer', `transfer-${t.kind}`, ...(t.cancelling ? [] : ['cancellable'])].join(' '),
    expandable: false,
  };
}

/**
 * "Interrupted: 3 of 7 files, 120 MB left": an upload run's files not uploaded yet, and their bytes not sent; a
 * download's: "Interrupted: 2 files, 40 MB left" (its `.part` files; the files not begun are not known).
 */
export function interruptedWords(run: InterruptedRun): string {
  if (run.kind === 'download') {
    return l10n.t({ message: 'Interrupted: {0}, {1} left', args: [fileCount(run.filesLeft), formatSize(run.bytesLeft)!], comment: ['{0}: "2 files", downloads begun and not finished; {1}: "40 MB", bytes not received yet'] });
  }
  return l10n.t({ message: 'Interrupted: {0} of {1}, {2} left', args: [count(run.filesLeft), fileCount(run.filesTotal), formatSize(run.bytesLeft)!], comment: ['{0}: files not uploaded yet; {1}: "7 files", the run\'s; {2}: "120 MB", bytes not sent yet'] });
}

/** A transfer left unfinished: what is left, where it goes, since when; Resume and Discard. */
export function interruptedRow(run: InterruptedRun, now: number): RowView {
  const label = interruptedWords(run);
  const age = relativeTime(new Date(run.startedAt), now);
  const upload = run.kind !== 'download';
  const where = transferWhere(run);
  return {
    label,
    description: [shortDestination(run.label), age].join(' · '),
    tooltip: [
      where,
      upload
        ? l10n.t('{0} of {1} not uploaded yet ({2} not sent).', count(run.filesLeft), fileCount(run.filesTotal), formatSize(run.bytesLeft)!)
        : l10n.t('{0} begun and not finished ({1} not received).', fileCount(run.filesLeft), formatSize(run.bytesLeft)!),
      upload
        ? l10n.t('Resume sends the rest, from the parts already sent. Discard aborts the uploads begun on the platform, so nothing half made is left.')
        : l10n.t('Resume fetches the rest, from the bytes already in the .part files. Discard deletes the .part files.'),
    ].join('\n'),
    ariaLabel: l10n.t({ message: '{0}, {1}', args: [where, [label, age].join(' · ')], comment: ['{0}: "Upload to p"; {1}: what is left and its age'] }),
    icon: { id: 'debug-pause', color: 'list.warningForeground' },
    contextValue: `interrupted interrupted-${run.kind}`,
    expandable: false,
  };
}

/** What became of one item: where its copy is, or why it failed and what to do. */
export interface ItemOutcome {
  ok: boolean | undefined;
  sourceId: string;
  sourceName: string | undefined;
  outcome: 'copied' | 'moved' | 'deleted' | 'failed' | 'pending' | 'no result';
  newId?: string;
  newName?: string;
  /** For a failure: the error's code (or HTTP status) and message. */
  error?: string;
  advice?: string;
}

export function itemOutcome(job: TrackedJob, index: number): ItemOutcome {
  const item = job.items[index];
  const sourceName = job.sourceNames?.[item.file] ?? job.sourceNames?.[item.file.toLowerCase()];
  const base = { sourceId: item.file, sourceName };
  const result = job.result?.[index];
  if (!result) return { ...base, ok: undefined, outcome: isFinished(job) ? 'no result' : 'pending' };
  const type = jobTypeOf(job);
  if (result.resource && type === 'DELETE') return { ...base, sourceName: sourceName ?? result.resource.name, ok: true, outcome: 'deleted' };
  if (result.resource) return { ...base, ok: true, outcome: type === 'MOVE' ? 'moved' : 'copied', newId: result.resource.id, newName: result.resource.name + (result.resource.type === 'folder' ? '/' : '') };
  const e = result.error ?? {};
  return { ...base, ok: false, outcome: 'failed', error: itemErrorWords(e), advice: errorAdvice(e.code, e.status) };
}

/** What to do about an item's error, by its code (contract §2). */
export function errorAdvice(code: number | undefined, status: number | undefined): string | undefined {
  switch (code) {
    case 5002:
    case 10225:
      return l10n.t('The source no longer exists: nothing to retry.');
    case 10226:
    case 90002:
      return l10n.t('Ask for access (copy permission on the source, write permission on the destination), then Retry Failed Items.');
    case 10227:
    case 10228:
    case 5026:
      return l10n.t('The destination folder is gone or not a folder: copy again to another destination.');
    case 10229:
      return l10n.t('A folder cannot be copied into itself: choose another destination.');
    case 10223:
    case 10224:
      return l10n.t('A file or folder of that name exists: rename it, or copy with another name.');
    case 10231:
      return l10n.t('The source was listed twice: its other entry is the copy.');
  }
  if (status !== undefined && status >= 500) return l10n.t('The platform failed: Retry Failed Items.');
  return undefined;
}

export function itemRow(job: TrackedJob, index: number): RowView {
  const o = itemOutcome(job, index);
  const label = o.sourceName ?? o.sourceId;
  const deleted = o.outcome === 'deleted';
  const description = deleted ? itemDoneWord('DELETE') : o.ok ? `→ ${o.newName}` : o.ok === false ? o.error! : o.outcome === 'pending' ? pendingWords() : noResultWords();
  const tooltip = [
    o.sourceName ? l10n.t('Source: {0} ({1})', o.sourceName, o.sourceId) : l10n.t('Source: {0}', o.sourceId),
    deleted ? l10n.t('Deleted.') : o.outcome === 'moved' ? l10n.t('Moved as {0} ({1}). Click to copy its ID.', o.newName!, o.newId!) : o.ok ? l10n.t('Copied as {0} ({1}). Click to copy its ID.', o.newName!, o.newId!) : o.ok === false ? l10n.t('Failed: {0}', o.error!) : description,
    ...(o.advice ? [o.advice] : []),
  ].join('\n');
  const state = deleted ? description : o.outcome === 'moved' ? l10n.t('moved as {0}', o.newName!) : o.ok ? l10n.t('copied as {0}', o.newName!) : o.ok === false ? l10n.t('failed, {0}', o.error!) : description;
  return {
    label,
    description,
    tooltip,
    ariaLabel: l10n.t({ message: '{0}, {1}', args: [label, state], comment: ['{0}: an item\'s name; {1}: what became of it'] }),
    icon: o.ok ? { id: 'pass', color: 'testing.iconPassed' } : o.ok === false ? { id: 'error', color: 'testing.iconFailed' } : { id: 'circle-outline' },
    // A moved item is where it went, as a copy is (Open, Reveal, Download); a deleted one is gone.
    contextValue: deleted ? 'copyItem deleted' : o.ok ? 'copyItem copied' : o.ok === false ? 'copyItem failed' : 'copyItem',
    expandable: false,
  };
}

/** The job's results as a table (TSV, a header row first): source ID, source name, outcome, new ID or error. */
export function resultsTable(jobs: readonly TrackedJob[]): string {
  const rows: (string | undefined)[][] = [['source_id', 'source_name', 'outcome', 'new_id_or_error']];
  for (const job of jobs) {
    job.items.forEach((_, index) => {
      const o = itemOutcome(job, index);
      rows.push([o.sourceId, o.sourceName, o.outcome, o.ok ? o.newId : o.error]);
    });
  }
  return tsvTable(rows);
}

/**
 * The Copy Results document's name: `copy-results-<destination>-<job>.tsv`
 * ("copy-results-rfranklin-gamma-gamma_folder_0-7071….tsv"); `delete-results-…`, `move-results-…` for those kinds.
 */
export function resultsFileName(jobs: readonly TrackedJob[]): string {
  const types = [...new Set(jobs.map(jobTypeOf))];
  const prefix = types.length === 1 ? types[0].toLowerCase() : 'job';
  const labels = [...new Set(jobs.map((j) => j.destination.label))];
  const where = labels.length === 1 ? labels[0] : `${labels.length}-destinations`;
  const job = jobs.length === 1 ? jobs[0].id : `${jobs.length}-jobs`;
  const safe = (text: string) => text.replace(/[\s›\\/:*?"<>|#%]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe(prefix)}-results-${safe(where)}-${safe(job)}.tsv`;
}

/**
 * The Data Jobs view: the transfers under way and left unfinished, the jobs of the account in use and the writes
 * still in the outbox (see `rootNodes` for the order), a job's items when it is opened (its per-item results fetched
 * once when the list did not carry them).
 */
export class CopyJobsModel implements RowModel<JobsNode> {
  private readonly changed = new Emitter<JobsNode | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];
  /** Errors met loading a job's items, shown in place of them until the next try. */
  private readonly loadErrors = new Map<string, string>();

  constructor(
    readonly tracker: JobTracker,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    readonly transfers: Transfers = new Transfers(now),
  ) {
    this.subscriptions = [
      this.changed,
      tracker.onDidChange(() => this.changed.fire(undefined)),
      outbox.onDidChange(() => this.changed.fire(undefined)),
      transfers.onDidChange(() => this.changed.fire(undefined)),
    ];
  }

  /** The copy calls of the account in use still in the outbox. */
  pending(): CopyWriteRecord[] {
    return pendingCopies(this.outbox, this.tracker.account());
  }

  /** Whether this window sends (and so may act on) a call of the outbox. */
  owns(record: CopyWriteRecord): boolean {
    return this.outbox.owns(record);
  }

  roots(): JobsNode[] {
    const account = this.tracker.account();
    return rootNodes(this.tracker.all(), this.pending(), this.transfers.all(account), this.transfers.interrupted(account));
  }

  /** Every row but the items: the jobs, submissions and requests the commands pick from. */
  rows(): JobsNode[] {
    return this.roots().flatMap((r) => (r.kind === 'submission' ? [r, ...childNodes(r)] : [r]));
  }

  /** A row's job as the tracker has it now. */
  current(job: TrackedJob): TrackedJob {
    return this.tracker.get(job.id) ?? job;
  }

  async getChildren(node?: JobsNode): Promise<JobsNode[]> {
    if (!node) return this.roots();
    if (node.kind !== 'job') return childNodes(node);
    let job = this.current(node.job);
    // A finished job whose per-item results the list did not carry: one GET for them when it is opened.
    if (isFinished(job) && job.state !== 'UNKNOWN' && !job.result?.length && job.items.length) {
      try {
        job = (await this.tracker.details(job.id)) ?? job;
        this.loadErrors.delete(job.id);
      } catch (error) {
        this.loadErrors.set(job.id, describeError(error));
      }
    }
    const error = this.loadErrors.get(job.id);
    const items = childNodes({ ...node, job });
    return error ? [new MessageNode<JobsNode>(`message:${job.id}`, node, l10n.t('Could not load the results: {0}', error), 'error', error), ...items] : items;
  }

  getParent(node: JobsNode): JobsNode | undefined {
    if (node.kind === 'item') return this.rows().find((r) => r.kind === 'job' && r.job.id === node.job.id);
    if (node.kind === 'job' || node.kind === 'request') return this.roots().find((r) => r.kind === 'submission' && childNodes(r).some((c) => c.id === node.id));
    return undefined;
  }

  /** The row of a job, for `reveal` (inside its submission when it has one). */
  jobNode(id: string): JobsNode | undefined {
    return this.rows().find((r) => r.kind === 'job' && r.job.id === id);
  }

  rowView(node: JobsNode): RowView {
    const now = this.now();
    switch (node.kind) {
      case 'message':
        return messageView(node);
      case 'job':
        return jobRow(this.current(node.job), now);
      case 'submission':
        return { ...submissionRow(node, now), expanded: true };
      case 'request':
        return requestRow(node, now, (r) => this.owns(r));
      case 'item':
        return { ...itemRow(node.job, node.index), command: { command: COMMANDS.openJobItem, title: commandTitles().openJobItem, args: [node] } };
      case 'transfer':
        return transferRow(this.transfers.get(node.transfer.id) ?? node.transfer, now);
      case 'interrupted':
        return interruptedRow(node.run, now);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
