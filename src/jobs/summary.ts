// Words for the copy jobs (status bar, lists, notifications). Pure: no `vscode`.
import type { CopyItemResult } from '../api/types';
import { relativeTime } from '../util/time';
import type { PendingCopy } from './submitter';
import { isFinished, TrackedJob } from './tracker';

export interface StatusSummary {
  visible: boolean;
  text: string;
  /** Show in the warning colour. */
  warning: boolean;
  tooltip: string[];
}

const n = (value: number) => value.toLocaleString('en-US');
const s = (count: number, word: string, words = `${word}s`) => `${n(count)} ${count === 1 ? word : words}`;

/**
 * The status-bar item: while any job runs, `$(sync~spin) Copying 2 jobs · 340/1000 files`; then the outcome
 * of the jobs not yet seen (all done, or N failed in the warning colour); hidden when there is nothing to show.
 */
export function statusSummary(jobs: readonly TrackedJob[], pending: readonly PendingCopy[]): StatusSummary {
  const active = jobs.filter((job) => !isFinished(job));
  const unseen = jobs.filter((job) => isFinished(job) && !job.acknowledged);
  const tooltip: string[] = [];
  if (pending.length) tooltip.push(`${s(pending.length, 'copy request')} not submitted: click to submit again or discard`);

  if (active.length) {
    const total = active.reduce((sum, job) => sum + (job.total ?? 0), 0);
    const done = active.reduce((sum, job) => sum + (job.completed ?? 0) + (job.failed ?? 0), 0);
    const counts = total > 0 ? ` · ${n(done)}/${n(total)} files` : '…';
    for (const job of active) tooltip.push(`${job.destination.label}: ${jobProgress(job)}`);
    return { visible: true, text: `$(sync~spin) Copying ${s(active.length, 'job')}${counts}`, warning: pending.length > 0, tooltip };
  }
  if (pending.length) {
    return { visible: true, text: `$(warning) ${s(pending.length, 'copy', 'copies')} not submitted`, warning: true, tooltip };
  }
  if (unseen.length) {
    const failed = unseen.reduce((sum, job) => sum + failedCount(job), 0);
    const copied = unseen.reduce((sum, job) => sum + (job.completed ?? 0), 0);
    for (const job of unseen) tooltip.push(`${job.destination.label}: ${jobOutcome(job)}`);
    tooltip.push('Click to see the copy jobs');
    if (failed > 0) return { visible: true, text: `$(warning) Copy: ${n(failed)} failed`, warning: true, tooltip };
    return { visible: true, text: `$(check) Copy done · ${s(copied, 'file')}`, warning: false, tooltip };
  }
  return { visible: false, text: '', warning: false, tooltip };
}

/** Failed files of a finished job; a job the platform forgot counts as one failure (its outcome is unknown). */
export function failedCount(job: TrackedJob): number {
  if (job.state === 'UNKNOWN') return Math.max(1, job.failed ?? 0);
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
  if (failed) return `${s(copied, 'file')} copied, ${n(failed)} failed`;
  return `done, ${s(copied, 'file')} copied`;
}

export function jobIcon(job: TrackedJob): string {
  if (!isFinished(job)) return '$(sync~spin)';
  if (job.state === 'UNKNOWN') return '$(question)';
  return failedCount(job) ? '$(warning)' : '$(pass)';
}

/** One line per job for the jobs list: state, counts, destination, age. */
export function jobLine(job: TrackedJob, now: number): { label: string; description: string; detail: string } {
  const items = s(job.items.length, 'item');
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

/** "Copied 12 files to rfranklin/dest › results." / "Copy to …: 10 copied, 2 failed." */
export function finishMessage(jobs: readonly TrackedJob[]): { text: string; failed: number } {
  const failed = jobs.reduce((sum, job) => sum + failedCount(job), 0);
  const copied = jobs.reduce((sum, job) => sum + (job.completed ?? 0), 0);
  const labels = [...new Set(jobs.map((j) => j.destination.label))];
  const where = labels.length === 1 ? labels[0] : `${labels.length} destinations`;
  const what = jobs.length > 1 ? `${jobs.length} copy jobs to ${where} finished` : `Copy to ${where} finished`;
  if (failed) return { text: `${what}: ${s(copied, 'file')} copied, ${n(failed)} failed.`, failed };
  return { text: `${what}: ${s(copied, 'file')} copied.`, failed };
}
