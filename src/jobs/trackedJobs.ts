// The tracked jobs' records: what the platform's answer about a job changes in its record (a job it no longer knows
// is UNKNOWN), and the records as global state keeps them, shared by every window: read when the tracker starts,
// written with the jobs another window stored meanwhile kept, claimed by the account in use when an older version
// named none, and pruned (the newest finished jobs kept, for a while). No `vscode`; tracker.ts follows the jobs.
import * as l10n from '@vscode/l10n';
import type { AsyncJob } from '../api/types';
import type { Clock } from '../api/clock';
import type { StateStore } from '../util/stateStore';
import { readState, STATE, writeState, type TrackedJob } from '../keys/state';

export const isFinished = (job: TrackedJob): boolean => job.state === 'FINISHED' || job.state === 'UNKNOWN';

export class TrackedJobs {
  /** Every job known here, by ID: this window's and those read from global state. */
  readonly jobs = new Map<string, TrackedJob>();
  /** Jobs dismissed or pruned here, so that merging with another window's writes does not bring them back. */
  readonly removed = new Set<string>();

  constructor(
    private readonly store: StateStore,
    private readonly clock: Clock,
    /** Finished jobs kept at most (the newest), and for at most this long. */
    private readonly limits: { maxJobs: number; retentionMs: number },
  ) {}

  /**
   * Every job recorded by any window (global state is shared) on any platform, and those dismissed here, with the
   * outbox write that made each when known: none of them is the job of another write whose answer was lost.
   */
  recordedWrites(): Map<string, string | undefined> {
    const made = new Map<string, string | undefined>([...this.removed].map((id) => [id, undefined]));
    for (const job of this.stored()) made.set(job.id, typeof job.write === 'string' ? job.write : undefined);
    for (const job of this.jobs.values()) made.set(job.id, job.write);
    return made;
  }

  /**
   * A job as read by itself (its results as complete as the platform has them once it is FINISHED), or, when the
   * platform no longer knows it, UNKNOWN.
   */
  take(job: TrackedJob, fresh: AsyncJob | undefined): void {
    if (!fresh || fresh.state === 'FINISHED') job.detailsTried = true;
    if (!fresh) {
      job.state = 'UNKNOWN';
      job.lastError = l10n.t('The platform no longer knows this job.');
      job.finishedAt ??= this.clock.now();
      return;
    }
    this.apply(job, fresh);
    job.lastError = undefined;
  }

  /** Copies what the platform says into the record; true when this made the job FINISHED. */
  apply(job: TrackedJob, fresh: AsyncJob): boolean {
    const wasFinished = isFinished(job) && job.state !== 'UNKNOWN';
    job.state = fresh.state;
    if (typeof fresh.total_files === 'number') job.total = fresh.total_files;
    if (typeof fresh.completed_files === 'number') job.completed = fresh.completed_files;
    if (typeof fresh.failed_files === 'number') job.failed = fresh.failed_files;
    if (Array.isArray(fresh.result) && fresh.result.length) job.result = fresh.result;
    if (fresh.started_on) job.startedOn = fresh.started_on;
    if (fresh.finished_on) job.finishedOn = fresh.finished_on;
    if (fresh.state === 'FINISHED' && !wasFinished) {
      job.finishedAt = this.clock.now();
      return true;
    }
    return false;
  }

  /** Reads the jobs global state holds; `account`: the one in use. */
  load(account: string | undefined): void {
    for (const job of this.stored()) this.jobs.set(job.id, job);
    this.claimOlderRecords(account);
    this.prune();
  }

  /** The jobs global state holds (any window's, any account's). */
  private stored(): TrackedJob[] {
    return readState(this.store, STATE.copyJobs)?.jobs ?? [];
  }

  /** Every job of every platform, newest first. */
  every(): TrackedJob[] {
    return [...this.jobs.values()].sort((a, b) => b.submittedAt - a.submittedAt || compareIds(b.id, a.id));
  }

  /**
   * Records of older versions name no account: the first account signed in on their platform is theirs from now on.
   * Run when the jobs are loaded and when an account is in use again, never when a job is read.
   */
  claimOlderRecords(account: string | undefined): void {
    if (account === undefined) return;
    const older = [...this.jobs.values()].filter((job) => job.account === undefined && (job.endpoint === undefined || account.startsWith(`${job.endpoint}#`)));
    for (const job of older) job.account = account;
    if (older.length) this.save();
  }

  /** Forgets the finished jobs past the newest `maxJobs`, and those finished longer ago than `retentionMs`. */
  prune(): void {
    const now = this.clock.now();
    const done = this.every().filter(isFinished);
    done.forEach((job, index) => {
      const old = job.finishedAt !== undefined && now - job.finishedAt > this.limits.retentionMs;
      if (old || index >= this.limits.maxJobs) {
        this.jobs.delete(job.id);
        this.removed.add(job.id);
      }
    });
  }

  /**
   * Writes the jobs, keeping those another window stored meanwhile (global state is shared by windows;
   * that window follows them, this one only keeps them).
   */
  save(): void {
    const ours = this.every();
    const known = new Set(ours.map((j) => j.id));
    const theirs = this.stored().filter((j) => !known.has(j.id) && !this.removed.has(j.id));
    const jobs = [...ours, ...theirs].sort((a, b) => b.submittedAt - a.submittedAt || compareIds(b.id, a.id));
    void Promise.resolve(writeState(this.store, STATE.copyJobs, { version: 1, jobs })).catch(() => undefined);
  }
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
