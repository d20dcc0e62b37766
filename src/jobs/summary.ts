// Words for the data jobs: copies, moves, deletes (status bar, lists, notifications). Pure: no `vscode`. Codicons (`$(check)`) stay outside
// the messages: the status bar item reads them (jobs/ui.ts).
import * as l10n from '@vscode/l10n';
import type { CopyItem } from '../api/types';
import { formatDuration } from '../util/time';
import { count, fileCount, formatSize, itemCount } from '../util/words';
import { waitsForPerson, type WriteRecord } from '../write/outbox';
import { isCopyCall } from './copyRequests';
import { isFinished } from './trackedJobs';
import type { TrackedJob } from './tracker';
import { itemDoneWord, jobTypeOf } from './jobKinds';
import type { LiveTransfer, TransferFigures } from './transfers';

const allCopies = (jobs: readonly TrackedJob[]): boolean => jobs.every((job) => jobTypeOf(job) === 'COPY');

export interface StatusSummary {
  visible: boolean;
  /** The status-bar item's text: a codicon, then `words`. */
  text: string;
  /** What the item says, without its codicon (what a screen reader says). */
  words: string;
  /** Show in the warning colour. */
  warning: boolean;
  /** Every job not seen yet is done and none failed: the outcome fades from the status bar after a while. */
  allDone: boolean;
  tooltip: string[];
}

const n = count;

/** A job's state as the platform names it, in words ("running"); a state this version does not know, as it is. */
export function jobStateWord(state: string): string {
  switch (state) {
    case 'SUBMITTED':
      return l10n.t('submitted');
    case 'RESOLVING':
      return l10n.t('resolving');
    case 'RUNNING':
      return l10n.t('running');
    case 'FINISHED':
      return l10n.t('finished');
    case 'UNKNOWN':
      return l10n.t('unknown');
    default:
      return String(state).toLowerCase();
  }
}

/** A tooltip line: a job's destination and how it is doing. */
const destinationLine = (label: string, text: string): string => l10n.t({ message: '{0}: {1}', args: [label, text], comment: ['{0}: where a copy goes; {1}: how its job is doing'] });

function pendingTooltip(failed: number, checking: number, sending: number): string[] {
  const lines: string[] = [];
  if (failed) lines.push(failed === 1 ? l10n.t('1 copy request not submitted: click to submit again or discard') : l10n.t('{0} copy requests not submitted: click to submit again or discard', n(failed)));
  if (checking) lines.push(checking === 1 ? l10n.t('1 copy request may have been submitted: being checked on the platform') : l10n.t('{0} copy requests may have been submitted: being checked on the platform', n(checking)));
  if (sending) lines.push(sending === 1 ? l10n.t('1 copy request being sent') : l10n.t('{0} copy requests being sent', n(sending)));
  return lines;
}

function copyingText(jobs: number, done: number, total: number): string {
  if (total > 0) return jobs === 1 ? l10n.t('Copying 1 job · {0}/{1} files', n(done), n(total)) : l10n.t('Copying {0} jobs · {1}/{2} files', n(jobs), n(done), n(total));
  return jobs === 1 ? l10n.t('Copying 1 job…') : l10n.t('Copying {0} jobs…', n(jobs));
}

/** Jobs of several kinds (a delete among copies): "Data jobs: 2 running · 340/1,000 files". */
function runningText(jobs: number, done: number, total: number): string {
  if (total > 0) return l10n.t('Data jobs: {0} running · {1}/{2} files', n(jobs), n(done), n(total));
  return jobs === 1 ? l10n.t('Data jobs: 1 running…') : l10n.t('Data jobs: {0} running…', n(jobs));
}

function doneText(copies: number, files: number): string {
  // The count is of the jobs not seen yet: say so when there are several, so 3 files after a 1-file copy reads right.
  if (copies === 1) return files === 1 ? l10n.t('Copy done · 1 file') : l10n.t('Copy done · {0} files', n(files));
  return files === 1 ? l10n.t('{0} copies done · 1 file', n(copies)) : l10n.t('{0} copies done · {1} files', n(copies), n(files));
}

/** The item's text, a codicon then the words, and the words alone. */
const line = (icon: string, words: string): Pick<StatusSummary, 'text' | 'words'> => ({ text: `$(${icon}) ${words}`, words });

/**
 * The status-bar item: while any job runs, `$(sync~spin) Copying 2 jobs · 340/1000 files`; then the outcome
 * of the jobs not yet seen (all done, or N failed in the warning colour); hidden when there is nothing to show.
 */
export function statusSummary(jobs: readonly TrackedJob[], pending: readonly WriteRecord[], transfers: readonly LiveTransfer[] = []): StatusSummary {
  const ofJobs = jobsSummary(jobs, pending);
  if (!transfers.length) return ofJobs;
  // Uploads and downloads under way are said first, unless a copy was not submitted (that warning stays in view);
  // the tooltip has both.
  const moving = transferLines(transfers);
  const jobLines = ofJobs.tooltip.filter((l) => l !== seeTheJobs());
  if (ofJobs.warning) return { ...ofJobs, tooltip: [...moving, ...jobLines, seeTheJobs()] };
  return { visible: true, ...transferLine(transfers), warning: false, allDone: false, tooltip: [...moving, ...jobLines, seeTheJobs()] };
}

function jobsSummary(jobs: readonly TrackedJob[], pending: readonly WriteRecord[]): StatusSummary {
  const active = jobs.filter((job) => !isFinished(job));
  const unseen = jobs.filter((job) => isFinished(job) && !job.acknowledged);
  const tooltip: string[] = [];
  // Copy calls only (the view shows the other requests); one not found after the late window waits for the person.
  const shown = pending.filter(isCopyCall);
  const failed = shown.filter(waitsForPerson);
  const checking = shown.filter((p) => p.state === 'unsure');
  const sending = shown.length - failed.length - checking.length;
  /** A copy is a user's request; it may have been split in several calls. */
  const copies = new Set(failed.map((p) => p.group)).size;
  tooltip.push(...pendingTooltip(failed.length, checking.length, sending));

  if (active.length) {
    const total = active.reduce((sum, job) => sum + (job.total ?? 0), 0);
    const done = active.reduce((sum, job) => sum + (job.completed ?? 0) + (job.failed ?? 0), 0);
    for (const job of active) tooltip.push(destinationLine(job.destination.label, jobProgress(job)));
    const text = allCopies(active) ? copyingText(active.length, done, total) : runningText(active.length, done, total);
    return { visible: true, ...line('sync~spin', text), warning: failed.length > 0, allDone: false, tooltip };
  }
  if (failed.length) {
    return { visible: true, ...line('warning', copies === 1 ? l10n.t('1 copy not submitted') : l10n.t('{0} copies not submitted', n(copies))), warning: true, allDone: false, tooltip };
  }
  if (checking.length) {
    return { visible: true, ...line('search', checking.length === 1 ? l10n.t('Checking 1 copy request') : l10n.t('Checking {0} copy requests', n(checking.length))), warning: false, allDone: false, tooltip };
  }
  if (sending) return { visible: true, ...line('sync~spin', sending === 1 ? l10n.t('Submitting 1 copy request') : l10n.t('Submitting {0} copy requests', n(sending))), warning: false, allDone: false, tooltip };
  if (unseen.length) {
    const failed = unseen.reduce((sum, job) => sum + failedCount(job), 0);
    const copied = unseen.reduce((sum, job) => sum + (job.completed ?? 0), 0);
    const unknown = unseen.filter((job) => job.state === 'UNKNOWN').length;
    for (const job of unseen) tooltip.push(destinationLine(job.destination.label, jobOutcome(job)));
    tooltip.push(seeTheJobs());
    const copies = allCopies(unseen);
    if (failed > 0) {
      const words = copies ? (failed === 1 ? l10n.t('Copy: 1 failed') : l10n.t('Copy: {0} failed', n(failed))) : failed === 1 ? l10n.t('Data jobs: 1 failed') : l10n.t('Data jobs: {0} failed', n(failed));
      return { visible: true, ...line('warning', words), warning: true, allDone: false, tooltip };
    }
    if (unknown > 0) return { visible: true, ...line('question', unknown === 1 ? l10n.t('Copy: outcome unknown') : l10n.t('Copy: {0} outcomes unknown', n(unknown))), warning: true, allDone: false, tooltip };
    const done = copies ? doneText(unseen.length, copied) : unseen.length === 1 ? l10n.t('Data job done') : l10n.t('{0} data jobs done', n(unseen.length));
    return { visible: true, ...line('check', done), warning: false, allDone: true, tooltip };
  }
  return { visible: false, text: '', words: '', warning: false, allDone: false, tooltip };
}

/**
 * Failed files of a job, as far as they are known. A job the platform forgot (UNKNOWN) is not counted as a
 * failure: its outcome is unknown; only failures seen before it was forgotten count.
 */
export function failedCount(job: TrackedJob): number {
  const fromResults = job.result?.filter((r) => r.error).length ?? 0;
  return Math.max(job.failed ?? 0, fromResults);
}

export function jobProgress(job: TrackedJob): string {
  if (job.state === 'SUBMITTED') return l10n.t('submitted, waiting to start');
  if (job.state === 'RESOLVING') return l10n.t('resolving folders…');
  const state = jobStateWord(job.state);
  if (!job.total) return state;
  const done = n((job.completed ?? 0) + (job.failed ?? 0));
  return job.failed
    ? l10n.t({ message: '{0}, {1}/{2} files ({3} failed)', args: [state, done, n(job.total), n(job.failed)], comment: ['{0}: the job\'s state ("running")'] })
    : l10n.t({ message: '{0}, {1}/{2} files', args: [state, done, n(job.total)], comment: ['{0}: the job\'s state ("running")'] });
}

export function jobOutcome(job: TrackedJob): string {
  if (job.state === 'UNKNOWN') return l10n.t('outcome unknown: the platform no longer knows this job');
  if (!isFinished(job)) return jobProgress(job);
  const failed = failedCount(job);
  const copied = job.completed ?? job.result?.filter((r) => r.resource).length ?? 0;
  const type = jobTypeOf(job);
  if (type !== 'COPY') {
    // The platform's count is of files; without one, the results count items (an import's prefix is one item).
    const worked = l10n.t({ message: '{0} {1}', args: [job.completed !== undefined ? fileCount(copied) : itemCount(copied), itemDoneWord(type)], comment: ['{0}: "3 files" or "1 item"; {1}: "deleted", "moved"'] });
    return failed ? l10n.t({ message: '{0}, {1} failed', args: [worked, n(failed)], comment: ['{0}: "3 files deleted"'] }) : l10n.t({ message: 'done, {0}', args: [worked], comment: ['{0}: "3 files deleted"'] });
  }
  if (failed) return copied === 1 ? l10n.t('1 file copied, {0} failed', n(failed)) : l10n.t('{0} files copied, {1} failed', n(copied), n(failed));
  return copied === 1 ? l10n.t('done, 1 file copied') : l10n.t('done, {0} files copied', n(copied));
}

/** The items of a job whose result is an error (what "Retry Failed Items" sends again). */
export function failedItems(job: TrackedJob): CopyItem[] {
  const result = job.result ?? [];
  return job.items.filter((_, i) => result[i]?.error !== undefined);
}

/** What Retry Failed Items says of a job none of whose items failed. */
export const noFailedItemsWords = (): string => l10n.t('No item of this job failed.');

/** "Job 70711174378885120". */
export const jobIdWords = (id: string): string => l10n.t('Job {0}', id);
/** "submitted 5 minutes ago". */
export const submittedWhen = (ago: string): string => l10n.t({ message: 'submitted {0}', args: [ago], comment: ['{0}: when, e.g. "5 minutes ago"'] });

/** "error 10223: File already exists.", "HTTP 500: failed": an item's error as the platform gave it. */
/** "<name> was not copied: <why>": an item of a copy the platform refused. */
export const notCopiedWords = (name: string, why: string): string => l10n.t('{0} was not copied: {1}', name, why);

export function itemErrorWords(e: { code?: number; status?: number; message?: string }): string {
  const message = e.message ?? l10n.t('failed');
  return e.code !== undefined ? l10n.t('error {0}: {1}', e.code, message) : l10n.t('HTTP {0}: {1}', e.status ?? '?', message);
}

export const noResultWords = (): string => l10n.t('no result reported');
export const pendingWords = (): string => l10n.t({ message: 'pending', comment: ['A copied item whose result is not known yet'] });

/**
 * "Copy to rfranklin/dest › results finished: 10 files copied, 2 failed." A job the platform no longer knows
 * (UNKNOWN) is not counted as copied or failed: the message says its outcome is unknown.
 */
export function finishMessage(jobs: readonly TrackedJob[]): { text: string; failed: number; unknown: number } {
  const known = jobs.filter((job) => job.state !== 'UNKNOWN');
  const unknown = jobs.length - known.length;
  const failed = known.reduce((sum, job) => sum + failedCount(job), 0);
  const copied = known.reduce((sum, job) => sum + (job.completed ?? 0), 0);
  const where = (list: readonly TrackedJob[]) => {
    const labels = [...new Set(list.map((j) => j.destination.label))];
    return labels.length === 1 ? labels[0] : l10n.t('{0} destinations', labels.length);
  };
  if (!known.length) {
    const text =
      unknown === 1
        ? l10n.t("The outcome of the copy to {0} is unknown: the platform no longer has the job's details.", where(jobs))
        : l10n.t('The outcome of {0} copy jobs to {1} is unknown: the platform no longer has their details.', unknown, where(jobs));
    return { text, failed, unknown };
  }
  const what = known.length > 1 ? l10n.t('{0} copy jobs to {1} finished', known.length, where(known)) : l10n.t('Copy to {0} finished', where(known));
  const counts =
    copied === 1
      ? failed ? l10n.t('1 file copied, {0} failed.', n(failed)) : l10n.t('1 file copied.')
      : failed ? l10n.t('{0} files copied, {1} failed.', n(copied), n(failed)) : l10n.t('{0} files copied.', n(copied));
  const sentence = l10n.t({ message: '{0}: {1}', args: [what, counts], comment: ['{0}: which copy finished; {1}: what it copied'] });
  if (!unknown) return { text: sentence, failed, unknown };
  const rest =
    unknown === 1
      ? l10n.t("The outcome of 1 other job is unknown: the platform no longer has the job's details.")
      : l10n.t('The outcome of {0} other jobs is unknown: the platform no longer has their details.', n(unknown));
  return { text: `${sentence} ${rest}`, failed, unknown };
}

const seeTheJobs = (): string => l10n.t('Click to see the data jobs');

/** The status bar's words while uploads or downloads run in this window. */
function transferLine(transfers: readonly LiveTransfer[]): Pick<StatusSummary, 'text' | 'words'> {
  const uploads = transfers.filter((t) => t.kind === 'upload').length;
  const downloads = transfers.length - uploads;
  if (uploads && downloads) return line('sync~spin', l10n.t('Uploading and downloading ({0})', n(transfers.length)));
  if (uploads) return line('cloud-upload', uploads === 1 ? l10n.t({ message: 'Uploading', comment: ['The status bar item while an upload runs'] }) : l10n.t('Uploading ({0})', n(uploads)));
  return line('cloud-download', downloads === 1 ? l10n.t({ message: 'Downloading', comment: ['The status bar item while a download runs'] }) : l10n.t('Downloading ({0})', n(downloads)));
}

/** "Upload to p › f", "Download to /home/me/data": where a transfer goes. */
export const transferWhere = (t: Pick<LiveTransfer, 'kind' | 'label'>): string => (t.kind === 'upload' ? l10n.t('Upload to {0}', t.label) : l10n.t('Download to {0}', t.label));

/** How much of a transfer is done, from 0 to 1: by its bytes, else (files of no bytes) by its files. */
export function transferFraction(p: TransferFigures): number {
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  return p.filesTotal > 0 ? Math.min(1, p.filesDone / p.filesTotal) : 0;
}

/** "37%": what is done, rounded down (100% only once all is). */
const percentWords = (p: TransferFigures): string => l10n.t({ message: '{0}%', args: [Math.floor(transferFraction(p) * 100)], comment: ['How much of an upload or download is done'] });
/** "85 MB/s". */
const rateWords = (bytesPerSecond: number): string => l10n.t('{0}/s', formatSize(Math.round(bytesPerSecond))!);

/** "3 of 10 files · 1.2 MB of 4.0 GB · 85 MB/s · 1 min 6 s left": a transfer's progress in full, each part when known. */
export function transferFigureWords(p: TransferFigures): string {
  const parts = [
    l10n.t({ message: '{0} of {1}', args: [count(p.filesDone), fileCount(p.filesTotal)], comment: ['Files done of files in all: "3 of 10 files"'] }),
    l10n.t({ message: '{0} of {1}', args: [formatSize(p.bytesDone)!, formatSize(p.bytesTotal)!], comment: ['Bytes done of bytes in all: "1.2 MB of 4.0 GB"'] }),
  ];
  if (p.bytesPerSecond !== undefined) parts.push(rateWords(p.bytesPerSecond));
  if (p.secondsLeft !== undefined) parts.push(l10n.t('{0} left', formatDuration(Math.ceil(p.secondsLeft) * 1000)));
  return parts.join(' · ');
}

/** A transfer's progress in words, or that it is stopping, or starting (nothing counted yet). */
const progressOr = (t: Pick<LiveTransfer, 'cancelling' | 'progress'>, words: (p: TransferFigures) => string): string =>
  t.cancelling ? l10n.t('cancelling…') : t.progress ? words(t.progress) : l10n.t('starting…');

/** How far a transfer is, in full words ("33% · 3 of 7 files · 40 MB of 120 MB · …"), or that it is stopping or starting. */
export const transferProgress = (t: Pick<LiveTransfer, 'cancelling' | 'progress'>): string => progressOr(t, (p) => [percentWords(p), transferFigureWords(p)].join(' · '));

/** A transfer's row, short enough for a narrow side bar: "37% · 85 MB/s" (the rate once measured), or that it is stopping or starting. */
export const transferProgressShort = (t: Pick<LiveTransfer, 'cancelling' | 'progress'>): string =>
  progressOr(t, (p) => [percentWords(p), ...(p.bytesPerSecond !== undefined ? [rateWords(p.bytesPerSecond)] : [])].join(' · '));

/** Each transfer: where it goes and how far it is, as its row in Data Jobs says it. */
function transferLines(transfers: readonly LiveTransfer[]): string[] {
  return transfers.map((t) => `${transferWhere(t)}: ${transferProgress(t)}`);
}
