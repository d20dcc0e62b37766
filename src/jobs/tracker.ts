import { ApiError, describeError } from '../api/errors';
import type { CopyJobsApi } from '../api/copyJobs';
import type { AsyncJob, CopyItem } from '../api/types';
import { systemClock, type Clock } from '../api/clock';
import { Emitter } from '../util/emitter';
import { Poller, type PollBudget } from '../util/poller';
import type { StateStore } from '../util/stateStore';
import type { JobChoices, JobDestination, TrackedJob } from '../keys/state';
import { jobKindOf, type JobType } from './jobKinds';
import { isFinished, TrackedJobs } from './trackedJobs';

export type { JobChoices, JobDestination, TrackedJob } from '../keys/state';

export interface NewJobInfo {
  /** The job's type (`COPY`, `MOVE`, `DELETE`); else the platform's answer's, else a copy. */
  type?: JobType;
  items: CopyItem[];
  destination: JobDestination;
  /** An import's or export's choices, for Retry Failed Items. */
  choices?: JobChoices;
  sourceNames?: Record<string, string>;
  group?: string;
  adopted?: boolean;
  submittedAt?: number;
  /** The account it was submitted as; the one in use by default. */
  account?: string;
  /** The outbox write that made it. */
  write?: string;
}

export interface TrackerOptions {
  /** First look at a new job. */
  firstDelayMs?: number;
  /** The fixed part of the interval between looks. */
  intervalMs?: number;
  /**
   * The part that grows: this fraction of the time since the newest unfinished job was submitted. A job is so
   * seen FINISHED within `intervalMs` + this fraction of its running time, and a long job is asked about less
   * and less often.
   */
  elapsedFraction?: number;
  /** Longest interval (and the interval while the window is unfocused). */
  maxIntervalMs?: number;
  /** From this many unfinished jobs on, the list refreshes them all (one call per 100 jobs). */
  listThreshold?: number;
  /** Finished jobs kept at most (the newest), and for at most this long. */
  maxJobs?: number;
  retentionMs?: number;
  /**
   * The account in use (`endpoint#username`; undefined while signed out or not yet known). Only its jobs are
   * listed, shown and followed; the others are kept, untouched, for when that account is back.
   */
  account?: () => string | undefined;
  /** The API budget: looks slow down while it is low. */
  budget?: PollBudget;
  /**
   * Jobs not asked under `/v2/async/files` (imports, exports), by the path segment of their type (`import`): read many at
   * a time, each as an async job, or undefined when the platform no longer knows it.
   */
  readers?: Partial<Record<string, JobReader>>;
}

export type JobReader = (ids: readonly string[], signal?: AbortSignal) => Promise<(AsyncJob | undefined)[]>;

export type JobsSource = Pick<CopyJobsApi, 'get' | 'list'>;

const LIST_LIMIT = 100;
const NOT_FOUND = 10211;

/**
 * Remembers every submitted asynchronous file job (copy, move, delete: any type, each asked about under its own
 * path) and follows unfinished ones until FINISHED: a short first wait, then
 * an interval of 1 s + 10 % of the newest job's age (60 s at most), doubled after a failed look, and longer while
 * the API budget is low. With several unfinished jobs `GET /v2/async/files` refreshes them all (a page per 100); a
 * job that finishes without its per-item results in the list is fetched once with `GET /v2/async/files/{kind}/{id}`.
 * Its records, and how global state keeps them: trackedJobs.ts. No UI: views listen to the events.
 */
export class JobTracker {
  /** The jobs as global state keeps them (trackedJobs.ts). */
  private readonly book: TrackedJobs;
  private readonly changed = new Emitter<void>();
  private readonly finished = new Emitter<TrackedJob>();
  readonly onDidChange = this.changed.event;
  /** A job followed in this session reached FINISHED (its results fetched when possible). */
  readonly onDidFinish = this.finished.event;

  private readonly poller: Poller;
  private readonly opts: Required<Omit<TrackerOptions, 'account' | 'budget' | 'readers'>>;
  private readonly readers: Partial<Record<string, JobReader>>;
  /** The account in use. */
  readonly account: () => string | undefined;

  constructor(
    private readonly api: JobsSource,
    store: StateStore,
    private readonly clock: Clock = systemClock,
    options: TrackerOptions = {},
  ) {
    this.opts = {
      firstDelayMs: options.firstDelayMs ?? 1_000,
      intervalMs: options.intervalMs ?? 1_000,
      elapsedFraction: options.elapsedFraction ?? 0.1,
      maxIntervalMs: options.maxIntervalMs ?? 60_000,
      listThreshold: options.listThreshold ?? 2,
      maxJobs: options.maxJobs ?? 200,
      retentionMs: options.retentionMs ?? 30 * 24 * 3600_000,
    };
    this.account = options.account ?? (() => '');
    this.book = new TrackedJobs(store, clock, this.opts);
    this.readers = options.readers ?? {};
    // A failed look doubles the wait (60 s at most); while the window is unfocused, looks are 60 s apart.
    this.poller = new Poller({
      poll: () => this.pollOnce(),
      hasWork: () => this.followed().length > 0,
      interval: () => this.nextInterval(),
      maxWaitMs: () => this.opts.maxIntervalMs,
      awayWaitMs: this.opts.maxIntervalMs,
      clock,
      budget: options.budget,
    });
    this.book.load(this.account());
    if (this.active().length) this.poller.schedule(this.opts.firstDelayMs);
  }

  /** Every job of the account in use, newest first. */
  all(): TrackedJob[] {
    return this.book.every().filter((job) => this.isCurrent(job));
  }

  get(id: string): TrackedJob | undefined {
    const job = this.book.jobs.get(id);
    return job && this.isCurrent(job) ? job : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Every job recorded by any window, and those dismissed here, with the outbox write that made each when known (trackedJobs.ts). */
  recordedWrites(): Map<string, string | undefined> {
    return this.book.recordedWrites();
  }

  /** Jobs not yet FINISHED. */
  active(): TrackedJob[] {
    return this.all().filter((job) => !isFinished(job));
  }

  /** The time of the next poll, if one is scheduled (for tests and the tooltip). */
  get nextPollAt(): number | undefined {
    return this.poller.dueAt;
  }

  /** Starts following a job just submitted (or found after a lost answer). */
  add(job: AsyncJob, info: NewJobInfo): TrackedJob {
    return this.addAll([{ job, info }])[0];
  }

  /**
   * Starts following the jobs one call made (an import of 100 objects makes 100): stored once for all of them. A save
   * writes every job, so one a job made a bulk import of 10,000 objects cost time as the square of their number.
   */
  addAll(entries: readonly { job: AsyncJob; info: NewJobInfo }[]): TrackedJob[] {
    const added = entries.map(({ job, info }) => {
      const tracked = this.track(job, info);
      return { tracked, wasFinished: this.book.apply(tracked, job) };
    });
    if (!added.length) return [];
    this.book.prune();
    this.book.save();
    this.changed.fire();
    for (const { tracked, wasFinished } of added) {
      if (wasFinished && tracked.result?.length) {
        tracked.notified = true;
        this.finished.fire(tracked);
      }
    }
    if (added.some(({ tracked, wasFinished }) => !wasFinished || !tracked.result?.length)) this.poller.schedule(this.opts.firstDelayMs);
    return added.map(({ tracked }) => tracked);
  }

  private track(job: AsyncJob, info: NewJobInfo): TrackedJob {
    const existing = this.book.jobs.get(job.id);
    const type = info.type ?? job.type ?? existing?.type;
    const tracked: TrackedJob = {
      id: job.id,
      ...(type && type !== 'COPY' ? { type } : {}),
      submittedAt: info.submittedAt ?? existing?.submittedAt ?? this.clock.now(),
      items: info.items,
      destination: info.destination,
      ...(info.choices ?? existing?.choices ? { choices: info.choices ?? existing?.choices } : {}),
      sourceNames: info.sourceNames,
      group: info.group ?? existing?.group,
      account: info.account ?? this.account(),
      state: job.state,
      adopted: info.adopted || undefined,
      write: info.write ?? existing?.write,
    };
    this.book.jobs.set(job.id, tracked);
    return tracked;
  }

  /**
   * The jobs given once each is FINISHED (or unknown to the platform) with its per-item results when it has them:
   * what a command that made them waits for. A job not tracked (dismissed) is given as it was last seen.
   */
  settled(ids: readonly string[], signal?: AbortSignal): Promise<TrackedJob[]> {
    const last = new Map<string, TrackedJob>();
    const check = (): TrackedJob[] | undefined => {
      const jobs: TrackedJob[] = [];
      for (const id of ids) {
        const tracked = this.book.jobs.get(id);
        const job = tracked ?? last.get(id);
        if (!job) continue;
        last.set(id, job);
        // Dismissed meanwhile: as it was last seen.
        if (!tracked) {
          jobs.push(job);
          continue;
        }
        if (!isFinished(job) || (job.state === 'FINISHED' && !job.result?.length && needsResults(job) && this.book.jobs.has(id))) return undefined;
        jobs.push(job);
      }
      return jobs;
    };
    const now = check();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const done = (jobs: TrackedJob[]) => {
        subscription.dispose();
        signal?.removeEventListener('abort', aborted);
        resolve(jobs);
      };
      const aborted = () => {
        subscription.dispose();
        reject(signal?.reason);
      };
      const subscription = this.changed.event(() => {
        const jobs = check();
        if (jobs) done(jobs);
      });
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  /** Forgets a job (the user dismissed it). */
  dismiss(id: string): void {
    if (!this.get(id)) return;
    this.book.jobs.delete(id);
    this.book.removed.add(id);
    this.book.save();
    this.changed.fire();
  }

  /** Marks finished jobs as seen, so the status bar stops showing their outcome. */
  acknowledge(ids?: readonly string[]): void {
    let any = false;
    for (const job of this.all()) {
      if (isFinished(job) && !job.acknowledged && (!ids || ids.includes(job.id))) {
        job.acknowledged = true;
        any = true;
      }
    }
    if (!any) return;
    this.book.save();
    this.changed.fire();
  }

  /** Stops polling (signed out, or the token was rejected) until `resume`. */
  pause(): void {
    this.poller.pause();
  }

  /** Follows the jobs of the account in use again (signed in, or the account changed). */
  resume(): void {
    this.book.claimOlderRecords(this.account());
    this.poller.resume(this.opts.firstDelayMs);
  }

  /** While the window is unfocused polls are spaced at the longest interval; on return one comes soon. */
  setFocused(focused: boolean): void {
    this.poller.setFocused(focused);
  }

  /** Polls now (the user asked; after the poll under way, if any); resolves when it is done. */
  refreshNow(): Promise<void> {
    return this.poller.runNow();
  }

  /** The job's per-item results, fetched when the tracker does not have them yet. */
  async details(id: string, signal?: AbortSignal): Promise<TrackedJob | undefined> {
    const job = this.get(id);
    if (!job || (job.result?.length && isFinished(job)) || job.state === 'UNKNOWN') return job;
    await this.fetchOne(job, signal);
    this.book.save();
    this.changed.fire();
    return this.get(id);
  }

  dispose(): void {
    this.poller.dispose();
    this.changed.dispose();
    this.finished.dispose();
  }

  /** Jobs the tracker still asks about: unfinished ones, and finished ones whose results are missing. */
  private followed(): TrackedJob[] {
    return this.all().filter((job) => !isFinished(job) || (job.state === 'FINISHED' && !job.result?.length && needsResults(job)));
  }

  /** 1 s + 10 % of the newest unfinished job's age (by default); 60 s at most. */
  private nextInterval(): number {
    const unfinished = this.followed().filter((job) => !isFinished(job));
    const age = unfinished.length ? this.clock.now() - Math.max(...unfinished.map((job) => job.submittedAt)) : 0;
    const paced = this.opts.intervalMs + this.opts.elapsedFraction * Math.max(0, age);
    return Math.min(this.opts.maxIntervalMs, paced);
  }

  private async pollOnce(): Promise<void> {
    const followed = this.followed();
    if (!followed.length) return;
    const account = this.account();
    let changed = false;
    let failed = false;
    let failure: unknown;
    try {
      const pending = new Set(followed.map((job) => job.id));
      // Jobs of the types read many at a time are not in that list.
      const unfinished = followed.filter((job) => !isFinished(job) && !this.readers[jobKindOf(job)]);
      if (unfinished.length >= this.opts.listThreshold) {
        const unseen = new Set(unfinished.map((job) => job.id));
        for (let offset = 0; unseen.size; offset += LIST_LIMIT) {
          const page = await this.api.list({ offset, limit: LIST_LIMIT });
          // The account changed while the list was on its way: it is the other account's list.
          if (this.account() !== account) return;
          for (const listed of page.items) {
            const job = this.book.jobs.get(listed.id);
            if (!job || !unseen.delete(job.id)) continue;
            pending.delete(job.id);
            const before = snapshot(job);
            this.book.apply(job, listed);
            if (snapshot(job) !== before) changed = true;
            // Finished without results in the list: one GET for the per-item results.
            if (job.state === 'FINISHED' && !job.result?.length && needsResults(job)) pending.add(job.id);
          }
          // The list's order is not documented: another page is read only while that costs fewer requests than a
          // GET for each job not seen yet (its pages left are known from its total).
          const read = offset + page.items.length;
          const pagesLeft = page.next && page.total !== undefined && page.items.length === LIST_LIMIT ? Math.ceil((page.total - read) / LIST_LIMIT) : 0;
          if (pagesLeft <= 0 || unseen.size <= pagesLeft) break;
        }
      }
      // Jobs of a type read many at a time (imports, exports): one call for each hundred.
      for (const [kind, reader] of Object.entries(this.readers)) {
        const jobs = [...pending].map((id) => this.book.jobs.get(id)!).filter((job) => jobKindOf(job) === kind);
        if (!jobs.length) continue;
        jobs.forEach((job) => pending.delete(job.id));
        const read = await reader!(jobs.map((job) => job.id));
        // The account changed while the jobs were on their way: the answers are the other account's.
        if (this.account() !== account) return;
        jobs.forEach((job, i) => {
          const before = snapshot(job);
          this.book.take(job, read[i]);
          changed ||= snapshot(job) !== before;
        });
      }
      // The rest (fewer than the threshold, not found in the pages read, or missing results): one GET each.
      for (const id of pending) {
        const job = this.book.jobs.get(id);
        if (!job) continue;
        const before = snapshot(job);
        await this.fetchOne(job);
        if (snapshot(job) !== before) changed = true;
      }
    } catch (error) {
      failed = true;
      failure = error;
      if (error instanceof ApiError && error.isUnauthorized) this.pause();
      changed = false;
    }
    const newlyFinished = followed.filter((job) => isFinished(job) && !job.notified && this.book.jobs.has(job.id));
    for (const job of newlyFinished) job.notified = true;
    if (changed || newlyFinished.length) {
      this.book.save();
      this.changed.fire();
    }
    for (const job of newlyFinished) this.finished.fire(job);
    // The poller backs off after a failed look.
    if (failed) throw failure;
  }

  /** GET one job (or read it as its type is read); a job the platform no longer knows becomes UNKNOWN. Other errors propagate. */
  private async fetchOne(job: TrackedJob, signal?: AbortSignal): Promise<void> {
    const reader = this.readers[jobKindOf(job)];
    try {
      const fresh = reader ? (await reader([job.id], signal))[0] : await this.api.get(job.id, { signal, kind: jobKindOf(job) });
      // Asked as another account (the user switched meanwhile): the answer is not about this job.
      if (!this.isCurrent(job)) return;
      this.book.take(job, fresh);
    } catch (error) {
      if (!this.isCurrent(job)) return;
      if (error instanceof ApiError && (error.code === NOT_FOUND || (error.status === 404 && error.code === undefined))) return this.book.take(job, undefined);
      job.lastError = describeError(error);
      throw error;
    }
  }

  private isCurrent(job: TrackedJob): boolean {
    const account = this.account();
    return account !== undefined && job.account === account;
  }

}

/** Whether a FINISHED job should have per-item results worth one GET (it had items to report on). */
function needsResults(job: TrackedJob): boolean {
  return job.items.length > 0 && job.detailsTried !== true;
}

function snapshot(job: TrackedJob): string {
  return `${job.state}|${job.total}|${job.completed}|${job.failed}|${job.result?.length ?? 0}`;
}
