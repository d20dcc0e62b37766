import { ApiError, describeError } from '../api/errors';
import type { CopyJobsApi } from '../api/copyJobs';
import type { AsyncJob, CopyItem } from '../api/types';
import { Emitter } from '../util/emitter';
import { StateStore, systemTimers, Timers } from './store';
import type { JobDestination, JobTracker, TrackedJob } from './tracker';

/** A copy call not (known to be) accepted: kept in global state until it is submitted, found or discarded. */
export interface PendingCopy {
  key: string;
  /** The calls made from one command share a group; "Submit Again" resends the group's pending calls. */
  group: string;
  items: CopyItem[];
  destination: JobDestination;
  sourceNames?: Record<string, string>;
  createdAt: number;
  attempts: number;
  lastAttemptAt?: number;
  lastError?: string;
  /** The last attempt may have reached the platform: look for its job before sending it again. */
  maybeDelivered: boolean;
  /** Sent, answer not yet read. Found set after a reload, it means the same as `maybeDelivered`. */
  inFlight?: boolean;
  /**
   * The newest async job on the platform just before the attempt (the list is newest first), so that
   * jobs created since can be told apart. `null`: there were none; absent: unknown.
   */
  newestJobBefore?: string | null;
}

export type SubmitResult = { ok: true; job: TrackedJob; adopted: boolean } | { ok: false; error: unknown; maybeDelivered: boolean };

export interface SubmissionReport {
  group: string;
  submitted: TrackedJob[];
  /** The call that failed, if one did; the calls after it were not sent and stay pending. */
  failed?: { pending: PendingCopy; error: unknown; maybeDelivered: boolean };
  notSent: PendingCopy[];
}

export type DeliveryCheck =
  | { kind: 'found'; job: AsyncJob }
  | { kind: 'none'; newestJob: string | null | undefined }
  | { kind: 'ambiguous'; candidates: string[] };

export type CopySource = Pick<CopyJobsApi, 'submit' | 'get' | 'list'>;

const STORE_KEY = 'sevenbridges.copyPending';
const CHECK_PAGES = 3;
const CLOCK_SKEW_MS = 10 * 60_000;

/**
 * Sends copy calls so that none is lost and none is sent twice without the user asking. Every call is
 * stored before it is sent and removed only once its job is known. A call that may have reached the
 * platform is never resent blindly: first the caller's job list is searched for a job created since
 * the attempt that fits the request, and if one is found it is followed instead.
 */
export class CopySubmitter {
  private pending: PendingCopy[];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private counter = 0;
  private readonly busy = new Set<string>();
  /** Keys this window has held: once gone from `pending` they were sent, found or discarded here. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly api: CopySource,
    private readonly tracker: JobTracker,
    private readonly store: StateStore,
    private readonly timers: Timers = systemTimers,
  ) {
    const saved = store.get<PendingCopy[]>(STORE_KEY) ?? [];
    this.pending = saved.filter((p) => p && typeof p.key === 'string' && Array.isArray(p.items));
    for (const p of this.pending) this.seen.add(p.key);
    // Sent when the window closed, answer never read: it may have been accepted.
    for (const p of this.pending) {
      if (p.inFlight) {
        p.inFlight = false;
        p.maybeDelivered = true;
        p.lastError ??= 'The window closed before the platform answered.';
      }
    }
  }

  /** Calls not submitted, oldest first. */
  list(): PendingCopy[] {
    return [...this.pending];
  }

  group(group: string): PendingCopy[] {
    return this.pending.filter((p) => p.group === group);
  }

  /** Sends the calls of one copy in order; stops at the first failure, keeping it and the rest pending. */
  async submitAll(
    batches: CopyItem[][],
    info: { destination: JobDestination; sourceNames?: Record<string, string> },
    onProgress?: (done: number, total: number) => void,
  ): Promise<SubmissionReport> {
    const group = this.newKey();
    const now = this.timers.now();
    const entries: PendingCopy[] = batches.map((items) => ({
      key: this.newKey(),
      group,
      items,
      destination: info.destination,
      sourceNames: pick(info.sourceNames, items),
      createdAt: now,
      attempts: 0,
      maybeDelivered: false,
    }));
    this.pending.push(...entries);
    await this.save();
    return this.sendGroup(entries, onProgress);
  }

  /**
   * Sends a group's pending calls again, as they were. A call that may have been delivered is first looked
   * for; if its job is found it is adopted, if the search cannot tell, nothing is sent and the report says why.
   */
  async resubmit(group: string, onProgress?: (done: number, total: number) => void): Promise<SubmissionReport> {
    return this.sendGroup(this.group(group), onProgress);
  }

  /** Forgets a pending call without sending it. */
  async discard(key: string): Promise<void> {
    this.pending = this.pending.filter((p) => p.key !== key);
    await this.save();
  }

  /** The user has looked and says the call did not go through: the next send will not search for it. */
  async markNotDelivered(key: string): Promise<void> {
    const entry = this.pending.find((p) => p.key === key);
    if (!entry) return;
    entry.maybeDelivered = false;
    entry.newestJobBefore = undefined;
    await this.save();
  }

  async discardGroup(group: string): Promise<void> {
    this.pending = this.pending.filter((p) => p.group !== group);
    await this.save();
  }

  /**
   * Looks for the job of a call that may have been delivered: a COPY job the tracker does not follow,
   * created after the attempt (above the newest job seen before it in the newest-first list, or started
   * since), whose per-item results fit the request (as many items, copies in the destination).
   */
  async findDelivered(pending: PendingCopy, signal?: AbortSignal): Promise<DeliveryCheck> {
    const listed: AsyncJob[] = [];
    let cutoffFound = false;
    let page = await this.api.list({ offset: 0, limit: 100, signal });
    const newestJob = page.items[0]?.id ?? null;
    for (let n = 1; ; n++) {
      for (const job of page.items) {
        if (pending.newestJobBefore && job.id === pending.newestJobBefore) {
          cutoffFound = true;
          break;
        }
        listed.push(job);
      }
      if (cutoffFound || !page.next || n >= CHECK_PAGES) break;
      page = await this.api.list({ offset: n * 100, limit: 100, signal });
    }
    const taken = new Set(this.tracker.all().map((j) => j.id));
    const attemptAt = pending.lastAttemptAt ?? pending.createdAt;
    const exact = pending.newestJobBefore !== undefined;
    const candidates = listed.filter((job) => {
      if (taken.has(job.id) || (job.type !== undefined && job.type !== 'COPY')) return false;
      if (exact) return true;
      const started = job.started_on ? Date.parse(job.started_on) : NaN;
      return Number.isNaN(started) || started >= attemptAt - CLOCK_SKEW_MS;
    });

    const strong: AsyncJob[] = [];
    const weak: AsyncJob[] = [];
    for (const candidate of candidates.slice(0, 10)) {
      let job = candidate;
      if (!job.result?.length && job.state === 'FINISHED') job = await this.api.get(job.id, signal);
      const fit = fits(pending, job);
      if (fit === 'yes') strong.push(job);
      else if (fit === 'maybe') weak.push(job);
    }
    // The list is newest first: the oldest fitting job is the one closest after the attempt.
    if (strong.length) return { kind: 'found', job: strong[strong.length - 1] };
    if (weak.length === 1 && exact) return { kind: 'found', job: weak[0] };
    if (weak.length) return { kind: 'ambiguous', candidates: weak.map((j) => j.id) };
    return { kind: 'none', newestJob };
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async sendGroup(entries: PendingCopy[], onProgress?: (done: number, total: number) => void): Promise<SubmissionReport> {
    const group = entries[0]?.group ?? '';
    const report: SubmissionReport = { group, submitted: [], notSent: [] };
    // One look at the newest job before sending, so a lost answer can later be told apart from older jobs.
    let newestBefore: string | null | undefined;
    const needsSnapshot = entries.some((p) => !p.maybeDelivered);
    if (needsSnapshot) {
      try {
        newestBefore = (await this.api.list({ offset: 0, limit: 1 })).items[0]?.id ?? null;
      } catch {
        newestBefore = undefined;
      }
    }
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (!this.pending.includes(entry) || this.busy.has(entry.key)) continue;
      onProgress?.(i, entries.length);
      const result = await this.sendOne(entry, newestBefore);
      if (result.ok) {
        report.submitted.push(result.job);
        // Our own new job is older than anything created after the next call.
        newestBefore = result.job.id;
        continue;
      }
      report.failed = { pending: entry, error: result.error, maybeDelivered: result.maybeDelivered };
      report.notSent = entries.slice(i + 1).filter((p) => this.pending.includes(p));
      break;
    }
    onProgress?.(entries.length, entries.length);
    return report;
  }

  private async sendOne(entry: PendingCopy, newestBefore: string | null | undefined): Promise<SubmitResult> {
    this.busy.add(entry.key);
    try {
      if (entry.maybeDelivered) {
        let check: DeliveryCheck;
        try {
          check = await this.findDelivered(entry);
        } catch (error) {
          entry.lastError = `Could not check whether it was submitted: ${describeError(error)}`;
          await this.save();
          return { ok: false, error, maybeDelivered: true };
        }
        if (check.kind === 'found') return { ok: true, job: await this.adopt(entry, check.job), adopted: true };
        if (check.kind === 'ambiguous') {
          const error = new ApiError({
            kind: 'invalid',
            message: `${check.candidates.length} copy jobs started since the attempt (${check.candidates.join(', ')}) and any may be this one; check them in Show Copy Jobs before submitting again.`,
          });
          entry.lastError = error.message;
          await this.save();
          return { ok: false, error, maybeDelivered: true };
        }
        newestBefore = check.newestJob;
      }
      entry.newestJobBefore = newestBefore;
      entry.inFlight = true;
      entry.attempts++;
      entry.lastAttemptAt = this.timers.now();
      await this.save();
      try {
        const job = await this.api.submit(entry.items);
        entry.inFlight = false;
        const tracked = this.tracker.add(job, {
          items: entry.items,
          destination: entry.destination,
          sourceNames: entry.sourceNames,
          submittedAt: entry.lastAttemptAt,
        });
        this.pending = this.pending.filter((p) => p !== entry);
        await this.save();
        return { ok: true, job: tracked, adopted: false };
      } catch (error) {
        entry.inFlight = false;
        const maybe = error instanceof ApiError ? error.maybeDelivered : true;
        entry.maybeDelivered = maybe;
        entry.lastError = describeError(error);
        await this.save();
        return { ok: false, error, maybeDelivered: maybe };
      }
    } finally {
      this.busy.delete(entry.key);
    }
  }

  /** Follows a job found on the platform in place of a call whose answer was lost. */
  async adopt(entry: PendingCopy, job: AsyncJob): Promise<TrackedJob> {
    const tracked = this.tracker.add(job, {
      items: entry.items,
      destination: entry.destination,
      sourceNames: entry.sourceNames,
      adopted: true,
      submittedAt: entry.lastAttemptAt ?? entry.createdAt,
    });
    this.pending = this.pending.filter((p) => p.key !== entry.key);
    await this.save();
    return tracked;
  }

  private newKey(): string {
    return `${this.timers.now().toString(36)}-${(this.counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  }

  private async save(): Promise<void> {
    this.changed.fire();
    // Keeps calls another window stored meanwhile (global state is shared); drops the ones done here.
    const ours = new Set(this.pending.map((p) => p.key));
    for (const p of this.pending) this.seen.add(p.key);
    const theirs = (this.store.get<PendingCopy[]>(STORE_KEY) ?? []).filter((p) => p && typeof p.key === 'string' && !ours.has(p.key) && !this.seen.has(p.key));
    try {
      await this.store.update(STORE_KEY, [...this.pending, ...theirs]);
    } catch {
      // Global state failing to write is not worth failing the copy for.
    }
  }
}

/** Whether a job's results fit a request: `yes` (they match), `no`, or `maybe` (no results to compare yet). */
export function fits(pending: PendingCopy, job: AsyncJob): 'yes' | 'no' | 'maybe' {
  const result = job.result ?? [];
  // Without results (not finished yet) there is nothing to compare: folders expand, so counts do not tell.
  if (!result.length) return 'maybe';
  if (result.length !== pending.items.length) return 'no';
  for (let i = 0; i < result.length; i++) {
    const resource = result[i].resource;
    if (!resource) continue;
    if (resource.project && resource.project !== pending.destination.project) return 'no';
    if (pending.destination.parent && resource.parent && resource.parent !== pending.destination.parent) return 'no';
    const wanted = pending.items[i].name;
    if (wanted && resource.name && resource.name !== wanted && !/^\d+_/.test(resource.name)) return 'no';
  }
  return 'yes';
}

function pick(names: Record<string, string> | undefined, items: CopyItem[]): Record<string, string> | undefined {
  if (!names) return undefined;
  const out: Record<string, string> = {};
  for (const item of items) if (names[item.file]) out[item.file] = names[item.file];
  return Object.keys(out).length ? out : undefined;
}
