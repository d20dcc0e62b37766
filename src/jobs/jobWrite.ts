// An asynchronous file job as a write, declared once for the copy, the move and the delete, each a spec of it: sent
// with `POST /v2/async/files/{call}`; not idempotent (a second call acts twice), so after a lost answer its job is
// found by difference among the jobs (write/asyncJobs.ts), matched by its results; once made, the tracker follows it
// to its end, a row of Data Jobs, and Retry Failed Items makes a new write of the same kind of its failed items.
// No `vscode` import.
import type { ApiBudget } from '../api/budget';
import type { Clock } from '../api/clock';
import type { PageRequest } from '../api/tasks';
import type { Call, Credentials } from '../api/transport';
import type { AsyncJob, CopyItem, CopyItemResult, FileJobKind, FileRecord, Page } from '../api/types';
import type { WriteKindName } from '../keys/writes';
import { asyncJobIdentity, isJob, type JobSnapshot, type JobVerdict } from '../write/asyncJobs';
import type { WriteKind, WriteKinds } from '../write/kinds';
import type { FinishedWrite, WriteRecord } from '../write/records';
import { jobTypeOf, type JobType } from './jobKinds';
import type { JobDestination, JobTracker, TrackedJob } from './tracker';

/** The calls of the async file jobs (api/fileJobs.ts). */
export interface FileJobCalls {
  submit(kind: FileJobKind, items: readonly CopyItem[], options?: Call): Promise<AsyncJob>;
  get(kind: FileJobKind, id: string, options?: Call): Promise<AsyncJob>;
  list(page?: PageRequest): Promise<Page<AsyncJob>>;
}

/** What the writes need of the job tracker: their jobs are followed there, and a job it follows is its write's. */
export type JobWriteTracker = Pick<JobTracker, 'add' | 'addAll' | 'get' | 'recordedWrites'>;

/** What one kind of async file job says of itself; the rest of its write is the same for every kind. */
export interface AsyncJobSpec<P extends { items: CopyItem[] }> {
  name: WriteKindName;
  /** The job's path (`POST /v2/async/files/{call}`); its type is the same in capitals (`COPY`). */
  call: FileJobKind;
  isPayload(payload: unknown): payload is P;
  /** Whether a job of the type answers for the write, by its results: `maybe` while they are missing. */
  matches(record: WriteRecord<P, JobSnapshot, AsyncJob>, job: AsyncJob, credentials: Credentials): JobVerdict | Promise<JobVerdict>;
  /** What its row of Data Jobs shows: where the items go (or are), and their names. */
  shown(payload: P): { destination: JobDestination; sourceNames?: Record<string, string> };
  describe(payload: P): string;
  /**
   * Retry Failed Items: a new write of the items of one of its jobs that failed (with their names). Without it the
   * feature sends them again itself (the copy, through the copy flow).
   */
  retry?(items: CopyItem[], names: Record<string, string>, job: Pick<TrackedJob, 'destination' | 'choices'>): P;
  /** Bulk work: each call held back while the API budget is nearly spent. */
  paced?: boolean;
}

/** What every async job write is built from. */
export interface AsyncJobParts {
  jobs: FileJobCalls;
  tracker: JobWriteTracker;
  clock: Pick<Clock, 'monotonic'>;
  /** The platform's time now (the transport's estimate from its `Date` header). */
  serverNow: () => number;
  /** The API budget a paced kind is held back by (none: sent as fast as the platform answers). */
  budget?: Pick<ApiBudget, 'holdBulk'>;
}

/** A kind of write that starts an async file job: which type, and how its failed items are sent again. */
export type AsyncJobKind<P = unknown> = WriteKind<P, JobSnapshot, AsyncJob> & {
  readonly jobType: JobType;
  /** May load what it needs first (an import's, on first use). */
  retry?(items: CopyItem[], names: Record<string, string>, job: Pick<TrackedJob, 'destination' | 'choices'>): P | Promise<P>;
};

export function asyncJobWrite<P extends { items: CopyItem[] }>(spec: AsyncJobSpec<P>, parts: AsyncJobParts): AsyncJobKind<P> {
  const type = jobTypeOf({ type: spec.call });
  const { jobs, tracker, budget } = parts;
  return {
    name: spec.name,
    jobType: type,
    idempotent: false,
    identity: asyncJobIdentity<P>({
      type,
      jobs: { list: (page) => jobs.list(page), get: (id, options) => jobs.get(spec.call, id, options) },
      clock: parts.clock,
      serverNow: parts.serverNow,
      // A job the tracker follows for another write is that write's.
      madeByAnother: (id, record) => {
        const made = tracker.recordedWrites();
        return made.has(id) && made.get(id) !== record.id;
      },
      itemCount: (payload) => payload.items.length,
      matches: async (record, job, credentials) => spec.matches(record, job, credentials),
    }),
    hold: spec.paced && budget ? () => budget.holdBulk(1) : undefined,
    isPayload: spec.isPayload,
    isOutcome: isJob,
    send: (record, credentials) => jobs.submit(spec.call, record.payload.items, { credentials }),
    keep: keepJob,
    finish: (record, job, found) => {
      if (tracker.get(job.id)) return;
      const { destination, sourceNames } = spec.shown(record.payload);
      tracker.add(job, { type, items: record.payload.items, destination, sourceNames, group: record.group, adopted: found || undefined, account: record.account, write: record.id });
    },
    describe: spec.describe,
    retry: spec.retry,
  };
}

/** The kind of write that starts jobs of this type, among the outbox's (Retry Failed Items sends failed items with it). */
export function jobWriteOf(kinds: WriteKinds, type: JobType): AsyncJobKind | undefined {
  return kinds.all().find((kind): kind is AsyncJobKind => (kind as Partial<AsyncJobKind>).jobType === type);
}

/** The tracker's jobs of the writes that reached the platform. */
export function trackedJobs(tracker: Pick<JobTracker, 'get'>, finished: readonly FinishedWrite[]): TrackedJob[] {
  // An outcome is an async file job, or the jobs of a call that makes one per item (`{jobs}`: an import's).
  const ids = finished.flatMap((f) => (f.outcome as { jobs?: { id?: string }[] }).jobs?.map((j) => j.id) ?? [(f.outcome as AsyncJob).id]);
  return ids.map((id) => (id === undefined ? undefined : tracker.get(id))).filter((job): job is TrackedJob => job !== undefined);
}

/** What the tracker and a lookup need of a job: its state, counts, dates and per-item results, no more. */
function keepJob(job: AsyncJob): AsyncJob {
  const result = job.result?.map((r): CopyItemResult => {
    if (r.resource) {
      const { id, name, type, project, parent } = r.resource;
      // The views read these; `href`, tags and metadata are not kept.
      return { resource: { id, name, type, project, parent } as FileRecord };
    }
    const { status, code, message, more_info } = r.error ?? {};
    return { error: { status, code, message, more_info } };
  });
  const { id, type, state, total_files, completed_files, failed_files, started_on, finished_on } = job;
  return { id, type, state, result, total_files, completed_files, failed_files, started_on, finished_on };
}
