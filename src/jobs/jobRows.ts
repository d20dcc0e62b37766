// How each row of the Data Jobs view looks: a job, a split copy, a request still in the outbox, a transfer under way or
// left unfinished, an item of a job; label, description, tooltip, aria label, icon, and the context value its menus
// match, made from the record. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { isCopyCall } from './copyRequests';
import { waitsForPerson, type WriteRecord } from '../write/outbox';
import { writeStateWords } from '../write/stateWords';
import type { IconSpec, RowView } from '../ui/rowView';
import { relativeTime } from '../util/time';
import { count, failedCountWords, fileCount, formatSize, itemCount, requestCount } from '../util/words';
import { failedCount, jobIdWords, jobOutcome, jobProgress, jobStateWord, noResultWords, pendingWords, submittedWhen, transferProgress, transferProgressShort, transferWhere } from './summary';
import { isFinished } from './trackedJobs';
import type { TrackedJob } from './tracker';
import { itemDoneWord, jobTypeOf, jobTypeWord, type JobType } from './jobKinds';
import type { InterruptedRun, LiveTransfer } from './transfers';
import { canRetryFailed, itemOutcome } from './itemOutcomes';
import { requestState } from './pendingWrites';
import type { RequestNode, SubmissionNode } from './jobNodes';

const n = count;

/** "10 failed", one part of a row's description. */
const failedWords = (failed: number): string => (failed === 1 ? l10n.t('1 failed') : failedCountWords(failed));
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
export function requestRow(node: RequestNode, now: number, owns: (record: WriteRecord) => boolean): RowView {
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

/**
 * A transfer under way, its label short for a narrow side bar: "37% · 85 MB/s" (its icon says upload or download);
 * then where it goes, its files ("3/10 files") and since when; in full in its tooltip and aria label. Cancel.
 */
export function transferRow(t: LiveTransfer, now: number): RowView {
  const label = transferProgressShort(t);
  const progress = transferProgress(t);
  const age = relativeTime(new Date(t.startedAt), now);
  const where = transferWhere(t);
  const files = t.progress && !t.cancelling ? [filesDone(t.progress.filesDone, t.progress.filesTotal)] : [];
  return {
    label,
    description: [shortDestination(t.label), ...files, age].join(' · '),
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
export function interruptedWords(run: Pick<InterruptedRun, 'kind' | 'filesLeft' | 'filesTotal' | 'bytesLeft'>): string {
  if (run.kind === 'download') {
    return l10n.t({ message: 'Interrupted: {0}, {1} left', args: [fileCount(run.filesLeft), formatSize(run.bytesLeft)!], comment: ['{0}: "2 files", downloads begun and not finished; {1}: "40 MB", bytes not received yet'] });
  }
  return l10n.t({ message: 'Interrupted: {0} of {1}, {2} left', args: [count(run.filesLeft), fileCount(run.filesTotal), formatSize(run.bytesLeft)!], comment: ['{0}: files not uploaded yet; {1}: "7 files", the run\'s; {2}: "120 MB", bytes not sent yet'] });
}

/** A transfer left unfinished: what is left, where it goes, since when; Resume and Discard. */
export function interruptedRow(run: InterruptedRun, now: number): RowView {
  // Short for a narrow side bar: "Interrupted · 120 MB left"; its files after it, in the description.
  const label = l10n.t({ message: 'Interrupted · {0} left', args: [formatSize(run.bytesLeft)!], comment: ['{0}: "120 MB", bytes not moved yet'] });
  const age = relativeTime(new Date(run.startedAt), now);
  const upload = run.kind !== 'download';
  const where = transferWhere(run);
  const files = upload
    ? l10n.t({ message: '{0} of {1} left', args: [count(run.filesLeft), fileCount(run.filesTotal)], comment: ['"3 of 7 files left": files not uploaded yet of the run\'s'] })
    : fileCount(run.filesLeft);
  return {
    label,
    description: [files, shortDestination(run.label), age].join(' · '),
    tooltip: [
      where,
      upload
        ? l10n.t('{0} of {1} not uploaded yet ({2} not sent).', count(run.filesLeft), fileCount(run.filesTotal), formatSize(run.bytesLeft)!)
        : l10n.t('{0} begun and not finished ({1} not received).', fileCount(run.filesLeft), formatSize(run.bytesLeft)!),
      upload
        ? l10n.t('Resume sends the rest, from the parts already sent. Discard aborts the uploads begun on the platform, so nothing half made is left.')
        : l10n.t('Resume fetches the rest, from the bytes already in the .part files. Discard deletes the .part files.'),
    ].join('\n'),
    ariaLabel: l10n.t({ message: '{0}, {1}', args: [where, [interruptedWords(run), age].join(' · ')], comment: ['{0}: "Upload to p"; {1}: what is left and its age'] }),
    icon: { id: 'debug-pause', color: 'list.warningForeground' },
    contextValue: `interrupted interrupted-${run.kind}`,
    expandable: false,
  };
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
