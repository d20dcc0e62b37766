import * as l10n from '@vscode/l10n';
import { systemClock } from '../api/clock';
import type { ApiBudget } from '../api/budget';
import type { CopyJobsApi } from '../api/copyJobs';
import type { FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { AsyncJob } from '../api/types';
import type { JobTracker, TrackedJob } from '../jobs/tracker';
import { COPY_WRITE, type CopyPayload } from '../jobs/copyRequests';
import { followWrites, type Account, type Lookup, type Outbox, type WriteKind, type WriteRecord } from '../write/outbox';

/** The job IDs the account had just before the call was sent: any job that answers for it is not among them. */
export interface CopySnapshot {
  before: string[];
  /** The whole list was read (else jobs past its end could be old ones). */
  complete: boolean;
}

export type CopyRecord = WriteRecord<CopyPayload, CopySnapshot, AsyncJob>;

const PAGE = 100;
/** Pages read for the snapshot before a send, and for a lookup. */
const SNAPSHOT_PAGES = 10;
const LOOKUP_PAGES = 20;
/** Candidates whose results are fetched in one lookup. */
const MAX_CANDIDATES = 10;
/** A snapshot this recent (plus the jobs this window made since) serves the next call of the same copy. */
const SNAPSHOT_REUSE_MS = 10_000;
/** How far before the attempt a job's start may read, for clocks that disagree. */
const CLOCK_SKEW_MS = 10 * 60_000;

export type CopyJobsSource = Pick<CopyJobsApi, 'submit' | 'list' | 'get'>;

/**
 * The copy call as a write (see `write/outbox.ts`): sent with `POST /v2/async/files/copy`; after a lost
 * answer, looked for among the jobs that appeared since the send (never by the list's order, which is not
 * documented) and adopted only when its results match what was asked, item by item.
 */
export class CopyWrite implements WriteKind<CopyPayload, CopySnapshot, AsyncJob> {
  readonly name = COPY_WRITE;
  private recent: { account: string; at: number; ids: Set<string>; complete: boolean } | undefined;

  constructor(
    private readonly jobs: CopyJobsSource,
    private readonly files: Pick<FilesApi, 'get'>,
    private readonly tracker: JobTracker,
    /** Job IDs that answer for other writes not finished yet (any window's `sent` writes). */
    private readonly claimed: () => Set<string>,
    /** The API budget, which a copy of many calls is paced to (none: sent as fast as the platform answers). */
    private readonly budget?: Pick<ApiBudget, 'holdBulk'>,
    private readonly now: () => number = systemClock.now,
  ) {}

  /** A call waits for the budget's reset rather than spend the share kept for the user (one POST each). */
  hold(): number {
    return this.budget?.holdBulk(1) ?? 0;
  }

  async prepare(record: CopyRecord, credentials: Credentials): Promise<CopySnapshot> {
    const recent = this.recent;
    if (recent && recent.account === record.account && this.now() - recent.at < SNAPSHOT_REUSE_MS) {
      return { before: [...recent.ids], complete: recent.complete };
    }
    const { jobs, complete } = await this.listAll(credentials, SNAPSHOT_PAGES);
    const ids = new Set(jobs.map((job) => job.id));
    this.recent = { account: record.account, at: this.now(), ids, complete };
    return { before: [...ids], complete };
  }

  send(record: CopyRecord, credentials: Credentials): Promise<AsyncJob> {
    return this.jobs.submit(record.payload.items, { credentials });
  }

  async lookup(record: CopyRecord, credentials: Credentials): Promise<Lookup<AsyncJob>> {
    const before = new Set(record.lookup?.before ?? []);
    const { jobs, complete } = await this.listAll(credentials, LOOKUP_PAGES);
    const taken = new Set([...this.tracker.recordedIds(), ...this.claimed()]);
    // With the whole list seen before the send, being new is proof enough; with part of it, jobs past that part
    // may be old ones, so those must also have started around the attempt (which trusts this machine's clock).
    const since = record.lookup?.complete ? -Infinity : (record.lastAttemptAt ?? record.createdAt) - CLOCK_SKEW_MS;
    const candidates = jobs.filter((job) => {
      if (before.has(job.id) || taken.has(job.id) || (job.type !== undefined && job.type !== 'COPY')) return false;
      const started = job.started_on ? Date.parse(job.started_on) : NaN;
      return Number.isNaN(started) || started >= since;
    });
    const names = await this.sourceNames(record.payload, credentials);
    const matches: AsyncJob[] = [];
    let undecided = 0;
    for (const candidate of candidates.slice(0, MAX_CANDIDATES)) {
      let job = candidate;
      if ((job.result?.length ?? 0) < record.payload.items.length && job.state === 'FINISHED') job = await this.jobs.get(job.id, { credentials });
      const verdict = matchCopy(record.payload, names, job);
      if (verdict === 'yes') matches.push(job);
      else if (verdict === 'maybe') undecided++;
    }
    if (matches.length === 1) return { found: matches[0] };
    if (matches.length > 1) return { unknown: l10n.t('{0} copy jobs started since match it; it is checked again until only one does.', matches.length) };
    if (undecided || candidates.length > MAX_CANDIDATES) {
      return { unknown: l10n.t('It may have been submitted: a copy job started since cannot be told apart yet (no results). Checking again when it has them.') };
    }
    if (!complete) return { unknown: l10n.t('It may have been submitted: your job list is too long to check to its end.') };
    return { absent: l10n.t('No copy job on the platform matches it: it was not received.') };
  }

  finish(record: CopyRecord, job: AsyncJob, found: boolean): void {
    if (this.recent?.account === record.account) this.recent.ids.add(job.id);
    const { items, destination, sourceNames } = record.payload;
    if (this.tracker.recordedIds().has(job.id) && this.tracker.get(job.id)) return;
    this.tracker.add(job, { items, destination, sourceNames, group: record.group, adopted: found || undefined, account: record.account });
  }

  /** The account's async jobs, in whatever order the platform gives them, up to `pages` pages. */
  private async listAll(credentials: Credentials, pages: number): Promise<{ jobs: AsyncJob[]; complete: boolean }> {
    const jobs: AsyncJob[] = [];
    for (let n = 0; n < pages; n++) {
      const page = await this.jobs.list({ offset: n * PAGE, limit: PAGE, credentials });
      jobs.push(...page.items);
      const read = (n + 1) * PAGE;
      if (!page.next || page.items.length < PAGE || (page.total !== undefined && read >= page.total)) return { jobs, complete: true };
    }
    return { jobs, complete: false };
  }

  /** The sources' names: as recorded, else read from the platform (only after a lost answer: a rare path). */
  private async sourceNames(payload: CopyPayload, credentials: Credentials): Promise<Record<string, string>> {
    const names: Record<string, string> = { ...payload.sourceNames };
    for (const item of payload.items) {
      if (item.name || names[item.file] || names[item.file.toLowerCase()]) continue;
      try {
        names[item.file] = (await this.files.get(item.file, { credentials })).name;
      } catch {
        // A source that cannot be read has an error as its result: it neither confirms nor refutes.
      }
    }
    return names;
  }
}

export interface CopiesSettled {
  records: WriteRecord[];
  /** The jobs of the calls that reached the platform (answered, or found after a lost answer). */
  jobs: TrackedJob[];
  /** The calls still in the outbox: refused, maybe submitted (being looked up), or waiting to be sent. */
  left: WriteRecord[];
}

/** Runs `start` (copy writes) until they settle, with the tracker's jobs of those that reached the platform. */
export async function followCopies(
  outbox: Outbox,
  tracker: JobTracker,
  start: () => Promise<WriteRecord[]>,
  onProgress?: (done: number, total: number) => void,
): Promise<CopiesSettled> {
  const { records, finished, left } = await followWrites(outbox, start, onProgress);
  const jobs = finished.map((f) => tracker.get((f.outcome as AsyncJob).id)).filter((j): j is TrackedJob => j !== undefined);
  return { records, jobs, left };
}

/** Sends copy calls (one group, in order) as the account, through the outbox. */
export function sendCopies(outbox: Outbox, tracker: JobTracker, account: Account, payloads: CopyPayload[], onProgress?: (done: number, total: number) => void): Promise<CopiesSettled> {
  return followCopies(outbox, tracker, () => outbox.submit(COPY_WRITE, payloads, account), onProgress);
}

/**
 * Whether a job's results answer for a copy call, item by item in request order: `no` when any result is a copy
 * elsewhere or under another name, `yes` when every item has its result and at least one copy confirms the
 * call by name and place, `maybe` while results are missing (a job fills them as it goes, or only at the end).
 */
export function matchCopy(payload: CopyPayload, names: Record<string, string>, job: AsyncJob): 'yes' | 'no' | 'maybe' {
  const result = job.result ?? [];
  const { items, destination } = payload;
  if (result.length > items.length) return 'no';
  let confirmed = 0;
  for (let i = 0; i < result.length; i++) {
    const copy = result[i].resource;
    if (!copy) continue;
    if (copy.project !== undefined && copy.project !== destination.project) return 'no';
    if (destination.parent && copy.parent !== undefined && copy.parent !== destination.parent) return 'no';
    const wanted = items[i].name || names[items[i].file] || names[items[i].file.toLowerCase()];
    if (!wanted) continue;
    if (copy.name !== wanted && !new RegExp(`^\\d+_${escapeRegExp(wanted)}$`).test(copy.name)) return 'no';
    confirmed++;
  }
  return result.length === items.length && confirmed > 0 ? 'yes' : 'maybe';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
