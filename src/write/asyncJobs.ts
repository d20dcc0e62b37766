// The identity rule of every write that starts an asynchronous file job (copy, move, delete): the job of a lost
// answer is one that appeared in `GET /v2/async/files` since a snapshot taken before the send, of the write's type,
// taken by no other write, whose results match what was asked; every such job is looked at. The job list's order is
// not documented: it is never relied on, not even to stay the same from one page to the next. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';
import type { CopyJobsApi } from '../api/copyJobs';
import type { Credentials } from '../api/transport';
import type { AsyncJob } from '../api/types';
import type { Clock } from '../api/clock';
import { appearedSince, type Identity, type Lookup } from './kinds';
import type { WriteRecord } from './records';

/** The job IDs the account had just before the call was sent: any job that answers for it is not among them. */
export interface JobSnapshot {
  before: string[];
  /** The whole list was read (else jobs past its end could be old ones). */
  complete: boolean;
  /** The platform's time when the list was read (ms), to tell old jobs past its end from new ones. */
  serverAt?: number;
}

export type JobVerdict = 'yes' | 'no' | 'maybe';

export interface AsyncJobRule<P> {
  /** The job type the write starts (`COPY`, `MOVE`, `DELETE`). */
  type: string;
  jobs: Pick<CopyJobsApi, 'list' | 'get'>;
  clock: Pick<Clock, 'monotonic'>;
  /** The platform's time now (the transport's estimate from its `Date` header). */
  serverNow: () => number;
  /** Whether the job is known as another write's (the job tracker's jobs, with the write that made each). */
  madeByAnother: (jobId: string, record: WriteRecord<P, JobSnapshot, AsyncJob>) => boolean;
  /** The items asked for: a FINISHED job with fewer results is read again for all of them. */
  itemCount: (payload: P) => number;
  /** Whether a job answers for the write, by its results: `maybe` while they are missing. */
  matches: (record: WriteRecord<P, JobSnapshot, AsyncJob>, job: AsyncJob, credentials: Credentials) => Promise<JobVerdict>;
}

const PAGE = 100;
/** Pages read (requests) for the snapshot before a send, and for a lookup. */
const SNAPSHOT_PAGES = 10;
const LOOKUP_PAGES = 20;
/** A snapshot this recent serves the next call (of a copy split in several): what calls made since is claimed. */
const SNAPSHOT_REUSE_MS = 10_000;
/** Past the end of an incomplete snapshot, a job started this long before it may still be new (the estimate's error). */
const SERVER_TIME_MARGIN_MS = 60_000;

/** A lookup's words when no job made since the snapshot answers for the write. */
export const noMatchingJob = (): string => l10n.t('No job on the platform matches it.');

const tooLong = (): string => l10n.t('It may have been submitted: your job list is too long to check to its end.');

export function asyncJobIdentity<P>(rule: AsyncJobRule<P>): Identity<P, JobSnapshot, AsyncJob> & { by: 'difference' } {
  let recent: { account: string; at: number; snapshot: JobSnapshot } | undefined;

  /**
   * The account's async jobs, in whatever order the platform gives them, reading up to `pages` pages. The list is
   * whole once as many distinct jobs were read as the platform counts (without its count: once a page ended it); a
   * list whose order changed between pages is read again from its start until then.
   */
  async function listAll(credentials: Credentials, pages: number): Promise<{ jobs: AsyncJob[]; complete: boolean }> {
    const seen = new Map<string, AsyncJob>();
    let offset = 0;
    for (let n = 0; n < pages; n++) {
      const page = await rule.jobs.list({ offset, limit: PAGE, credentials });
      for (const job of page.items) seen.set(job.id, job);
      const ended = !page.next || page.items.length < PAGE || (page.total !== undefined && offset + PAGE >= page.total);
      if (page.total !== undefined ? seen.size >= page.total : ended) return { jobs: [...seen.values()], complete: true };
      offset = ended ? 0 : offset + PAGE;
    }
    return { jobs: [...seen.values()], complete: false };
  }

  return {
    by: 'difference',
    async snapshot(record, credentials) {
      const now = rule.clock.monotonic();
      if (recent && recent.account === record.account && now - recent.at < SNAPSHOT_REUSE_MS) return recent.snapshot;
      const { jobs, complete } = await listAll(credentials, SNAPSHOT_PAGES);
      const snapshot: JobSnapshot = { before: jobs.map((job) => job.id), complete, serverAt: rule.serverNow() };
      recent = { account: record.account, at: now, snapshot };
      return snapshot;
    },
    isSnapshot: isJobSnapshot,
    async find(record, credentials, taken): Promise<Lookup<AsyncJob>> {
      const snapshot = record.snapshot;
      const { jobs, complete } = await listAll(credentials, LOOKUP_PAGES);
      // With the whole list seen before the send, being new is proof enough; with part of it, jobs past that part
      // may be old ones, so those must also have started around the send, on the platform's clock.
      if (!snapshot.complete && snapshot.serverAt === undefined) {
        return { unknown: tooLong() };
      }
      const since = snapshot.complete ? -Infinity : snapshot.serverAt! - SERVER_TIME_MARGIN_MS;
      const fresh = appearedSince(jobs, new Set(snapshot.before), (id) => taken(id) || rule.madeByAnother(id, record), (job) => job.id);
      const candidates = fresh.filter((job) => {
        if (job.type !== undefined && job.type !== rule.type) return false;
        const started = job.started_on ? Date.parse(job.started_on) : NaN;
        return Number.isNaN(started) || started >= since;
      });
      // Every job that may answer for it is looked at, however many: one left out may be its own.
      const matches: AsyncJob[] = [];
      let undecided = 0;
      for (const candidate of candidates) {
        let job = candidate;
        if ((job.result?.length ?? 0) < rule.itemCount(record.payload) && job.state === 'FINISHED') job = await rule.jobs.get(job.id, { credentials });
        const verdict = await rule.matches(record, job, credentials);
        if (verdict === 'yes') matches.push(job);
        else if (verdict === 'maybe') undecided++;
      }
      // Several (the same call made twice, both answers lost): each write takes the first that no other claims.
      if (matches.length) return { found: matches.sort((a, b) => a.id.length - b.id.length || a.id.localeCompare(b.id))[0] };
      if (undecided) {
        return { unknown: l10n.t('It may have been submitted: a job started since cannot be told apart yet (no results). Checking again when it has them.') };
      }
      if (!complete) return { unknown: tooLong() };
      return { absent: noMatchingJob() };
    },
    madeId: (job) => job.id,
  };
}

/** A snapshot read back: the job IDs seen, whether the list was whole, when on the platform's clock. */
export function isJobSnapshot(value: unknown): value is JobSnapshot {
  const s = value as Partial<JobSnapshot> | null;
  return (
    !!s &&
    typeof s === 'object' &&
    Array.isArray(s.before) &&
    s.before.every((id) => typeof id === 'string') &&
    typeof s.complete === 'boolean' &&
    (s.serverAt === undefined || (typeof s.serverAt === 'number' && Number.isFinite(s.serverAt)))
  );
}

/** A job as stored from an answer (the outcome of a write that started it): an object with its ID. */
export function isJob(value: unknown): value is AsyncJob {
  const job = value as Partial<AsyncJob> | null;
  return !!job && typeof job === 'object' && typeof job.id === 'string' && (job.result === undefined || Array.isArray(job.result));
}
