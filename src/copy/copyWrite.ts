import * as l10n from '@vscode/l10n';
import { systemClock, type Clock } from '../api/clock';
import type { ApiBudget } from '../api/budget';
import type { CopyJobsApi } from '../api/copyJobs';
import type { FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { AsyncJob, CopyItemResult, FileRecord } from '../api/types';
import type { JobTracker, TrackedJob } from '../jobs/tracker';
import { COPY_WRITE, type CopyPayload } from '../jobs/copyRequests';
import { itemCount } from '../util/words';
import { asyncJobIdentity, type JobSnapshot } from '../write/asyncJobs';
import type { WriteKind } from '../write/kinds';
import { followWrites, type Outbox, type WriteRecord } from '../write/outbox';

export type CopyRecord = WriteRecord<CopyPayload, JobSnapshot, AsyncJob>;

export type CopyJobsSource = Pick<CopyJobsApi, 'submit' | 'list' | 'get'>;

/**
 * The copy call as a write (see `write/outbox.ts`): sent with `POST /v2/async/files/copy`; not idempotent (sent
 * twice, it copies twice). After a lost answer its job is looked for among the jobs that appeared since the send
 * (`write/asyncJobs.ts`), and adopted only when its results match what was asked, item by item.
 */
export class CopyWrite implements WriteKind<CopyPayload, JobSnapshot, AsyncJob> {
  readonly name = COPY_WRITE;
  readonly idempotent = false;
  readonly identity;

  constructor(
    private readonly jobs: CopyJobsSource,
    private readonly files: Pick<FilesApi, 'get'>,
    private readonly tracker: JobTracker,
    /** The platform's time now (the client transport's estimate). */
    serverNow: () => number,
    /** The API budget, which a copy of many calls is paced to (none: sent as fast as the platform answers). */
    private readonly budget?: Pick<ApiBudget, 'holdBulk'>,
    clock: Pick<Clock, 'monotonic'> = systemClock,
  ) {
    this.identity = asyncJobIdentity<CopyPayload>({
      type: 'COPY',
      jobs,
      clock,
      serverNow,
      madeByAnother: (id, record) => {
        const made = this.tracker.recordedWrites();
        return made.has(id) && made.get(id) !== record.id;
      },
      itemCount: (payload) => payload.items.length,
      matches: async (record, job, credentials) => matchCopy(record.payload, await this.sourceNames(record.payload, credentials), job),
    });
  }

  /** A call waits for the budget's reset rather than spend the share kept for the user (one POST each). */
  hold(): number {
    return this.budget?.holdBulk(1) ?? 0;
  }

  isPayload(payload: unknown): payload is CopyPayload {
    const p = payload as CopyPayload | undefined;
    return (
      !!p &&
      typeof p === 'object' &&
      Array.isArray(p.items) &&
      p.items.every((item) => !!item && typeof item === 'object' && typeof item.file === 'string') &&
      !!p.destination &&
      typeof p.destination.label === 'string' &&
      typeof p.destination.project === 'string'
    );
  }

  describe(payload: CopyPayload): string {
    return l10n.t({ message: 'Copy {0} to {1}', args: [itemCount(payload.items.length), payload.destination.label], comment: ['{0}: "3 items"; {1}: the destination'] });
  }

  send(record: CopyRecord, credentials: Credentials): Promise<AsyncJob> {
    return this.jobs.submit(record.payload.items, { credentials });
  }

  /** What the tracker and a lookup need of the job: its state, counts, dates and per-item results, no more. */
  keep(job: AsyncJob): AsyncJob {
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

  finish(record: CopyRecord, job: AsyncJob, found: boolean): void {
    const { items, destination, sourceNames } = record.payload;
    if (this.tracker.recordedWrites().has(job.id) && this.tracker.get(job.id)) return;
    this.tracker.add(job, { items, destination, sourceNames, group: record.group, adopted: found || undefined, account: record.account, write: record.id });
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
  /** The calls still in the outbox: refused, not found, maybe submitted (being looked up), or waiting to be sent. */
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
