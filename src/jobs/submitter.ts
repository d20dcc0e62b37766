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
  /**
   * Sent, answer not yet read. Another window's entry in flight is left alone; once older than the longest a
   * call can take (the window closed before the answer came) it means the same as `maybeDelivered`.
   */
  inFlight?: boolean;
  /**
   * The newest async job on the platform just before the attempt (the list is newest first), so that
   * jobs created since can be told apart. `null`: there were none; absent: unknown.
   */
  newestJobBefore?: string | null;
  /**
   * The platform (API endpoint) the call is for. Absent only in records of older versions, which are taken to
   * belong to the endpoint in use when they are first read.
   */
  endpoint?: string;
  /** The window (submitter) that marked it in flight. */
  owner?: string;
  /** Bumped by each change, so that a stale read of global state is told from another window's change. */
  rev?: number;
}

/** A call removed (sent, found or discarded), kept a while in global state so that no window brings it back. */
interface Removed {
  key: string;
  removed: true;
  at: number;
}

type Stored = PendingCopy | Removed;
const isRemoved = (e: Stored): e is Removed => (e as Removed).removed === true;

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

export interface SubmitterOptions {
  /**
   * How long another window's call counts as on its way: past this (well over the request timeout) its window
   * is taken to have closed before the answer came, and the call as maybe delivered.
   */
  inFlightLeaseMs?: number;
}

const STORE_KEY = 'sevenbridges.copyPending';
/** Calls removed lately (their keys), so that no window brings one back from an older read. */
const REMOVED_KEY = 'sevenbridges.copyPendingRemoved';
const CHECK_PAGES = 3;
const CLOCK_SKEW_MS = 10 * 60_000;
const IN_FLIGHT_LEASE_MS = 2 * 60_000;
/** How long a removal is remembered in global state. */
const REMOVED_KEEP_MS = 7 * 24 * 3600_000;
/**
 * How long this window trusts its own last write of a call over what global state says. VS Code's global
 * state echoes each write back from the main process, and an echo of an older write can briefly stand in
 * for a newer one: within this time a call missing or older in global state is this window's version.
 */
const OWN_WRITE_HOLD_MS = 30_000;

/**
 * Sends copy calls so that none is lost and none is sent twice without the user asking. Every call is
 * stored before it is sent and removed only once its job is known. A call that may have reached the
 * platform is never resent blindly: first the caller's job list is searched for a job created since
 * the attempt that fits the request, and if one is found it is followed instead.
 *
 * Global state is shared by every window, and it is the record: each read goes to it (this window's own
 * writes of the last seconds stand in where it looks older), each change is read, changed and written back by
 * key, and removals are remembered, so that a call another window sent, adopted or discarded is never brought
 * back, and a call another window has in flight is not sent here.
 */
export class CopySubmitter {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private counter = 0;
  private readonly busy = new Set<string>();
  /** This window, as the owner of the calls it has in flight. */
  private readonly id = Math.random().toString(36).slice(2, 10);
  private readonly leaseMs: number;
  /** This window's last write of each call it changed lately (see OWN_WRITE_HOLD_MS), with when. */
  private readonly own = new Map<string, { entry: Stored; at: number }>();

  constructor(
    private readonly api: CopySource,
    private readonly tracker: JobTracker,
    private readonly store: StateStore,
    private readonly timers: Timers = systemTimers,
    options: SubmitterOptions = {},
  ) {
    this.leaseMs = options.inFlightLeaseMs ?? IN_FLIGHT_LEASE_MS;
    // Records of older versions have no platform: they are the one in use now, written so once.
    const raw = store.get<PendingCopy[]>(STORE_KEY) ?? [];
    if (raw.some((p) => p && typeof p.key === 'string' && typeof p.endpoint !== 'string')) void this.write((entries) => entries);
  }

  /** The platform in use: only its calls are listed and sent. */
  private get endpoint(): string {
    return this.tracker.endpoint();
  }

  /** Calls of the platform in use not submitted, oldest first. */
  list(): PendingCopy[] {
    const endpoint = this.endpoint;
    return this.read()
      .filter((p) => p.endpoint === endpoint)
      .map((p) => this.view(p));
  }

  group(group: string): PendingCopy[] {
    return this.list().filter((p) => p.group === group);
  }

  /** Sends the calls of one copy in order; stops at the first failure, keeping it and the rest pending. */
  async submitAll(
    batches: CopyItem[][],
    info: { destination: JobDestination; sourceNames?: Record<string, string> },
    onProgress?: (done: number, total: number) => void,
  ): Promise<SubmissionReport> {
    const group = this.newKey();
    const now = this.timers.now();
    const endpoint = this.endpoint;
    const entries: PendingCopy[] = batches.map((items) => ({
      key: this.newKey(),
      group,
      items,
      destination: info.destination,
      sourceNames: pick(info.sourceNames, items),
      endpoint,
      createdAt: now,
      attempts: 0,
      maybeDelivered: false,
    }));
    await this.write((stored) => [...stored, ...entries]);
    return this.sendGroup(group, entries.map((p) => p.key), onProgress);
  }

  /**
   * Sends a group's pending calls again, as they were. A call that may have been delivered is first looked
   * for; if its job is found it is adopted, if the search cannot tell, nothing is sent and the report says why.
   */
  async resubmit(group: string, onProgress?: (done: number, total: number) => void): Promise<SubmissionReport> {
    return this.sendGroup(group, this.group(group).map((p) => p.key), onProgress);
  }

  /** The user has looked and says the call did not go through: the next send will not search for it. */
  async markNotDelivered(key: string): Promise<void> {
    const entry = this.current(key);
    if (!entry || entry.inFlight) return;
    await this.put({ ...entry, maybeDelivered: false, newestJobBefore: undefined });
  }

  async discardGroup(group: string): Promise<void> {
    await this.write((stored) => stored.filter((p) => p.group !== group));
  }

  /**
   * Looks for the job of a call that may have been delivered: a COPY job no window records (global state),
   * created after the attempt (above the newest job seen before it in the newest-first list, or started
   * since), whose per-item results fit the request (as many items, copies in the destination).
   */
  async findDelivered(pending: PendingCopy, signal?: AbortSignal): Promise<DeliveryCheck> {
    if (pending.endpoint !== undefined && pending.endpoint !== this.endpoint) {
      throw new ApiError({ kind: 'invalid', message: `This copy was made on ${pending.endpoint}: select that platform to check it.` });
    }
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
    // Read after the list: a job any window recorded by then is not this call's.
    const taken = this.tracker.recordedIds();
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
    // Another call on its way (this window's or another's) may have made the one new job: without results, it cannot be told apart.
    const othersInFlight = this.read().some((p) => p.key !== pending.key && p.endpoint === this.endpoint && this.view(p).inFlight);
    // The list is newest first: the oldest fitting job is the one closest after the attempt.
    if (strong.length) return { kind: 'found', job: strong[strong.length - 1] };
    if (weak.length === 1 && exact && !othersInFlight) return { kind: 'found', job: weak[0] };
    if (weak.length) return { kind: 'ambiguous', candidates: weak.map((j) => j.id) };
    return { kind: 'none', newestJob };
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async sendGroup(group: string, keys: string[], onProgress?: (done: number, total: number) => void): Promise<SubmissionReport> {
    const report: SubmissionReport = { group, submitted: [], notSent: [] };
    // One look at the newest job before sending, so a lost answer can later be told apart from older jobs.
    let newestBefore: string | null | undefined;
    const needsSnapshot = keys.some((key) => this.current(key)?.maybeDelivered === false);
    if (needsSnapshot) {
      try {
        newestBefore = (await this.api.list({ offset: 0, limit: 1 })).items[0]?.id ?? null;
      } catch {
        newestBefore = undefined;
      }
    }
    for (let i = 0; i < keys.length; i++) {
      // Read again before each call: another window may have sent, adopted or discarded it, or be sending it.
      const entry = this.sendable(keys[i]);
      if (!entry) continue;
      onProgress?.(i, keys.length);
      const result = await this.sendOne(entry, newestBefore);
      if (!result) continue;
      if (result.ok) {
        report.submitted.push(result.job);
        // Our own new job is older than anything created after the next call.
        newestBefore = result.job.id;
        continue;
      }
      report.failed = { pending: this.current(entry.key) ?? entry, error: result.error, maybeDelivered: result.maybeDelivered };
      report.notSent = keys
        .slice(i + 1)
        .map((key) => this.current(key))
        .filter((p): p is PendingCopy => p !== undefined);
      break;
    }
    onProgress?.(keys.length, keys.length);
    return report;
  }

  /** The entry as stored now, if this window may send it: still there, of the platform in use, not on its way. */
  private sendable(key: string, ownTurn = false): PendingCopy | undefined {
    const entry = this.current(key);
    if (!entry || (!ownTurn && this.busy.has(key)) || entry.inFlight || entry.endpoint !== this.endpoint) return undefined;
    return entry;
  }

  /** Sends one call; undefined when it turned out not to be this window's to send (see `sendable`). */
  private async sendOne(entry: PendingCopy, newestBefore: string | null | undefined): Promise<SubmitResult | undefined> {
    this.busy.add(entry.key);
    try {
      if (entry.maybeDelivered) {
        let check: DeliveryCheck;
        try {
          check = await this.findDelivered(entry);
        } catch (error) {
          await this.note(entry.key, `Could not check whether it was submitted: ${describeError(error)}`);
          return { ok: false, error, maybeDelivered: true };
        }
        if (check.kind === 'found') {
          const job = await this.adopt(entry, check.job);
          return job ? { ok: true, job, adopted: true } : undefined;
        }
        if (check.kind === 'ambiguous') {
          const error = new ApiError({
            kind: 'invalid',
            message: `${check.candidates.length} copy jobs started since the attempt (${check.candidates.join(', ')}) and any may be this one; check them in Show Copy Jobs before submitting again.`,
          });
          await this.note(entry.key, error.message);
          return { ok: false, error, maybeDelivered: true };
        }
        newestBefore = check.newestJob;
      }
      // The last look before the POST: the searches above took time.
      const fresh = this.sendable(entry.key, true);
      if (!fresh) return undefined;
      const attemptAt = this.timers.now();
      const sent: PendingCopy = {
        ...fresh,
        newestJobBefore: newestBefore,
        inFlight: true,
        owner: this.id,
        attempts: fresh.attempts + 1,
        lastAttemptAt: attemptAt,
      };
      await this.put(sent);
      try {
        const job = await this.api.submit(sent.items);
        const tracked = this.tracker.add(job, {
          items: sent.items,
          destination: sent.destination,
          sourceNames: sent.sourceNames,
          submittedAt: attemptAt,
          endpoint: sent.endpoint,
        });
        await this.write((stored) => stored.filter((p) => p.key !== sent.key));
        return { ok: true, job: tracked, adopted: false };
      } catch (error) {
        const maybe = error instanceof ApiError ? error.maybeDelivered : true;
        await this.put({ ...sent, inFlight: false, owner: undefined, maybeDelivered: maybe, lastError: describeError(error) });
        return { ok: false, error, maybeDelivered: maybe };
      }
    } finally {
      this.busy.delete(entry.key);
    }
  }

  /**
   * Follows a job found on the platform in place of a call whose answer was lost. Undefined when the call is
   * no longer pending (another window sent, adopted or discarded it meanwhile): the job is then not its.
   */
  async adopt(entry: PendingCopy, job: AsyncJob): Promise<TrackedJob | undefined> {
    const stored = this.current(entry.key);
    if (!stored || (stored.inFlight && !this.busy.has(entry.key))) return undefined;
    const tracked = this.tracker.add(job, {
      items: stored.items,
      destination: stored.destination,
      sourceNames: stored.sourceNames,
      adopted: true,
      submittedAt: stored.lastAttemptAt ?? stored.createdAt,
      endpoint: stored.endpoint,
    });
    await this.write((entries) => entries.filter((p) => p.key !== entry.key));
    return tracked;
  }

  private newKey(): string {
    return `${this.timers.now().toString(36)}-${(this.counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  }

  /** The calls in global state, each with its platform (the one in use for records of older versions). */
  private read(): PendingCopy[] {
    return this.merged().filter((e): e is PendingCopy => !isRemoved(e));
  }

  /**
   * Global state, with this window's recent writes where it looks older (a removal on either side wins), and
   * the platform in use given to records of older versions.
   */
  private merged(): Stored[] {
    const endpoint = this.endpoint;
    const now = this.timers.now();
    const removed = (this.store.get<Removed[]>(REMOVED_KEY) ?? []).filter((e) => e && typeof e.key === 'string' && e.removed === true);
    const gone = new Set(removed.map((e) => e.key));
    const stored: Stored[] = [
      ...(this.store.get<PendingCopy[]>(STORE_KEY) ?? [])
        .filter((p) => p && typeof p.key === 'string' && Array.isArray(p.items) && !gone.has(p.key))
        .map((p) => (typeof p.endpoint === 'string' ? p : { ...p, endpoint })),
      ...removed,
    ];
    const byKey = new Map(stored.map((e) => [e.key, e]));
    for (const [key, mine] of this.own) {
      if (now - mine.at > OWN_WRITE_HOLD_MS) {
        this.own.delete(key);
        continue;
      }
      const theirs = byKey.get(key);
      if (theirs && isRemoved(theirs)) continue;
      if (!theirs || isRemoved(mine.entry) || (theirs.rev ?? 0) < ((mine.entry as PendingCopy).rev ?? 0)) byKey.set(key, mine.entry);
    }
    return [...byKey.values()];
  }

  /** One call as stored now (as this window sees it), if it is still pending. */
  private current(key: string): PendingCopy | undefined {
    const entry = this.read().find((p) => p.key === key);
    return entry && this.view(entry);
  }

  /**
   * A call as this window should treat it: one another window marked in flight longer ago than a call can take
   * was left so by a window that closed before the answer came: it may have been delivered.
   */
  private view(p: PendingCopy): PendingCopy {
    if (!p.inFlight || p.owner === this.id) return p;
    if (this.timers.now() - (p.lastAttemptAt ?? p.createdAt) < this.leaseMs) return p;
    return { ...p, inFlight: false, owner: undefined, maybeDelivered: true, lastError: p.lastError ?? 'The window closed before the platform answered.' };
  }

  /** Replaces a call by key, if it is still stored (a removal by another window wins). */
  private put(entry: PendingCopy): Promise<void> {
    return this.write((stored) => stored.map((p) => (p.key === entry.key ? entry : p)));
  }

  private async note(key: string, lastError: string): Promise<void> {
    await this.write((stored) => stored.map((p) => (p.key === key ? { ...this.view(p), lastError } : p)));
  }

  /**
   * Reads global state, changes it and writes it back at once, so that other windows' changes are kept: each
   * changed call gets the next revision, each removed one is remembered as removed.
   */
  private async write(change: (stored: PendingCopy[]) => PendingCopy[]): Promise<void> {
    const now = this.timers.now();
    const all = this.merged();
    const before = all.filter((e): e is PendingCopy => !isRemoved(e));
    const previous = new Map(before.map((p) => [p.key, p]));
    const next = change(before).map((p) => {
      const prev = previous.get(p.key);
      if (prev === p) return p;
      const entry: PendingCopy = { ...p, rev: Math.max(prev?.rev ?? 0, p.rev ?? 0) + 1 };
      this.own.set(p.key, { entry, at: now });
      return entry;
    });
    const kept = new Set(next.map((p) => p.key));
    const removed: Removed[] = all.filter((e): e is Removed => isRemoved(e) && now - e.at < REMOVED_KEEP_MS && !kept.has(e.key));
    for (const p of before) {
      if (kept.has(p.key)) continue;
      const gone: Removed = { key: p.key, removed: true, at: now };
      removed.push(gone);
      this.own.set(p.key, { entry: gone, at: now });
    }
    try {
      await Promise.all([this.store.update(STORE_KEY, next), this.store.update(REMOVED_KEY, removed)]);
    } catch {
      // Global state failing to write is not worth failing the copy for.
    }
    this.changed.fire();
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
