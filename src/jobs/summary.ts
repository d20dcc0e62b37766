// Words for the copy jobs (status bar, lists, notifications). Pure: no `vscode`.
import type { CopyItem, CopyItemResult } from '../api/types';
import { relativeTime } from '../util/time';
import { plural } from '../util/words';
import type { WriteRecord } from '../write/outbox';
import { isFinished, TrackedJob } from './tracker';

export interface StatusSummary {
  visible: boolean;
  text: string;
  /** Show in the warning colour. */
  warning: boolean;
  tooltip: string[];
}

const n = (value: number) => value.toLocaleString('en-US');

/**
 * The status-bar item: while any job runs, `$(sync~spin) Copying 2 jobs · 340/1000 files`; then the outcome
 * of the jobs not yet seen (all done, or N failed in the warning colour); hidden when there is nothing to show.
 */
export function statusSummary(jobs: readonly TrackedJob[], pending: readonly WriteRecord[]): StatusSummary {
  const active = jobs.filter((job) => !isFinished(job));
  const unseen = jobs.filter((job) => isFinished(job) && !job.acknowledged);
  const tooltip: string[] = [];
  const failed = pending.filter((p) => p.state === 'failed');
  const checking = pending.filter((p) => p.state === 'unsure');
  const sending = pending.length - failed.length - checking.length;
  /** A copy is a user's request; it may have been split in several calls. */
  const copies = new Set(failed.map((p) => p.group)).size;
  if (failed.length) tooltip.push(`${plural(failed.length, 'copy request')} not submitted: click to submit again or discard`);
  if (checking.length) tooltip.push(`${plural(checking.length, 'copy request')} may have been submitted: being checked on the platform`);
  if (sending) tooltip.push(`${plural(sending, 'copy request')} being sent`);

  if (active.length) {
    const total = active.reduce((sum, job) => sum + (job.total ?? 0), 0);
    const done = active.reduce((sum, job) => sum + (job.completed ?? 0) + (job.failed ?? 0), 0);
    const counts = total > 0 ? ` · ${n(done)}/${n(total)} files` : '…';
    for (const job of active) tooltip.push(`${job.destination.label}: ${jobProgress(job)}`);
    return { visible: true, text: `$(sync~spin) Copying ${plural(active.length, 'job')}${counts}`, warning: failed.length > 0, tooltip };
  }
  if (failed.length) {
    return { visible: true, text: `$(warning) ${plural(copies, 'copy', 'copies')} not submitted`, warning: true, tooltip };
  }
  if (checking.length) return { visible: true, text: `$(search) Checking ${plural(checking.length, 'copy request')}`, warning: false, tooltip };
  if (sending) return { visible: true, text: `$(sync~spin) Submitting ${plural(sending, 'copy request')}`, warning: false, tooltip };
  if (unseen.length) {
    const failed = unseen.reduce((sum, job) => sum + failedCount(job), 0);
    const copied = unseen.reduce((sum, job) => sum + (job.completed ?? 0), 0);
    const unknown = unseen.filter((job) => job.state === 'UNKNOWN').length;
    for (const job of unseen) tooltip.push(`${job.destination.label}: ${jobOutcome(job)}`);
    tooltip.push('Click to see the copy jobs');
    if (failed > 0) return { visible: true, text: `$(warning) Copy: ${n(failed)} failed`, warning: true, tooltip };
    if (unknown > 0) return { visible: true, text: `$(question) Copy: ${unknown === 1 ? 'outcome' : `${n(unknown)} outcomes`} unknown`, warning: true, tooltip };
    // The count is of the jobs not seen yet: say so when there are several, so 3 files after a 1-file copy reads right.
    const what = unseen.length === 1 ? 'Copy done' : `${n(unseen.length)} copies done`;
    return { visible: true, text: `$(check) ${what} · ${plural(copied, 'file')}`, warning: false, tooltip };
  }
  return { visible: false, text: '', warning: false, tooltip };
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
  if (job.state === 'SUBMITTED') return 'submitted, waiting to start';
  if (job.state === 'RESOLVING') return 'resolving folders…';
  if (job.total) return `${String(job.state).toLowerCase()}, ${n((job.completed ?? 0) + (job.failed ?? 0))}/${n(job.total)} files${job.failed ? ` (${n(job.failed)} failed)` : ''}`;
  return String(job.state).toLowerCase();
}

export function jobOutcome(job: TrackedJob): string {
  if (job.state === 'UNKNOWN') return 'outcome unknown: the platform no longer knows this job';
  if (!isFinished(job)) return jobProgress(job);
  const failed = failedCount(job);
  const copied = job.completed ?? job.result?.filter((r) => r.resource).length ?? 0;
  if (failed) return `${plural(copied, 'file')} copied, ${n(failed)} failed`;
  return `done, ${plural(copied, 'file')} copied`;
}

export function jobIcon(job: TrackedJob): string {
  if (!isFinished(job)) return '$(sync~spin)';
  if (job.state === 'UNKNOWN') return '$(question)';
  return failedCount(job) ? '$(warning)' : '$(pass)';
}

/** The items of a job whose result is an error (what "Retry Failed Items" sends again). */
export function failedItems(job: TrackedJob): CopyItem[] {
  const result = job.result ?? [];
  return job.items.filter((_, i) => result[i]?.error !== undefined);
}

/** One line per job for the jobs list: state, counts, destination, age. */
export function jobLine(job: TrackedJob, now: number): { label: string; description: string; detail: string } {
  const items = plural(job.items.length, 'item');
  return {
    label: `${jobIcon(job)} ${job.destination.label}`,
    description: `${job.state === 'UNKNOWN' ? 'UNKNOWN' : job.state} · ${isFinished(job) ? jobOutcome(job) : jobProgress(job)}`,
    detail: `Job ${job.id} · ${items} · submitted ${relativeTime(new Date(job.submittedAt), now)}${job.adopted ? ' · found after a lost answer' : ''}${job.lastError ? ` · ${job.lastError}` : ''}`,
  };
}

/** One line per item of a job's details: the source, then the new file or the error's code and message. */
export function itemLine(job: TrackedJob, index: number): { ok: boolean | undefined; source: string; outcome: string; newId?: string } {
  const item = job.items[index];
  const source = job.sourceNames?.[item.file] ? `${job.sourceNames[item.file]} (${item.file})` : item.file;
  const result: CopyItemResult | undefined = job.result?.[index];
  if (!result) return { ok: undefined, source, outcome: isFinished(job) ? 'no result reported' : 'pending' };
  if (result.resource) {
    const r = result.resource;
    return { ok: true, source, outcome: `→ ${r.name}${r.type === 'folder' ? '/' : ''} (${r.id})`, newId: r.id };
  }
  const e = result.error ?? {};
  return { ok: false, source, outcome: `${e.code !== undefined ? `error ${e.code}` : `HTTP ${e.status ?? '?'}`}: ${e.message ?? 'failed'}` };
}

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
    return labels.length === 1 ? labels[0] : `${labels.length} destinations`;
  };
  const lost = (count: number) => (count === 1 ? "the platform no longer has the job's details" : 'the platform no longer has their details');
  if (!known.length) {
    const text =
      unknown === 1
        ? `The outcome of the copy to ${where(jobs)} is unknown: ${lost(1)}.`
        : `The outcome of ${unknown} copy jobs to ${where(jobs)} is unknown: ${lost(unknown)}.`;
    return { text, failed, unknown };
  }
  const what = known.length > 1 ? `${known.length} copy jobs to ${where(known)} finished` : `Copy to ${where(known)} finished`;
  const counts = failed ? `${plural(copied, 'file')} copied, ${n(failed)} failed.` : `${plural(copied, 'file')} copied.`;
  const rest = unknown ? ` The outcome of ${plural(unknown, 'other job')} is unknown: ${lost(unknown)}.` : '';
  return { text: `${what}: ${counts}${rest}`, failed, unknown };
}
