// A copy call as the outbox records it (copy/copyWrite.ts declares it): what the Data Jobs view and the status bar show
// until it is a job, and what their actions ask of the copy feature. Here so that jobs/ needs nothing from copy/.
import type { CopyItem } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import type { Outbox, WriteRecord } from '../write/outbox';
import type { JobDestination, TrackedJob } from './tracker';

/** One copy call: what is sent, where to, and the sources' names where known. */
export interface CopyPayload {
  items: CopyItem[];
  destination: JobDestination;
  sourceNames?: Record<string, string>;
}

export type CopyWriteRecord = WriteRecord<CopyPayload>;

/**
 * The requests of the account in use still in the outbox (any window's), oldest first: every write of any kind
 * while it is pending (copies, task actions, new folders, renames, tags, deletes…: being sent, waiting, being
 * checked, not found, refused); and the records this version leaves alone (from a newer version, or damaged), of
 * any account, so that they show somewhere.
 */
export function pendingCopies(outbox: Outbox, account: string | undefined): CopyWriteRecord[] {
  if (account === undefined) return [];
  return outbox.all().filter((r) => r.problem || r.account === account) as CopyWriteRecord[];
}

/** Whether a request row is a copy call (else another write, or a record this version leaves alone). */
export function isCopyCall(record: WriteRecord): record is CopyWriteRecord {
  return record.kind === WRITE_KINDS.copy && !record.problem;
}

/** What the job notifications and the Data Jobs view ask of the copy feature (copy/flow.ts's CopyFlow does it). */
export interface CopyActions {
  /** Copies a finished job's failed items again, to the same destination. */
  retryFailed(job: TrackedJob, options?: { confirm?: boolean }): Promise<TrackedJob[]>;
  /** Sends a copy request of the outbox again (`anyway`: even though it may have been submitted). */
  resubmit(group: string, anyway?: boolean): Promise<TrackedJob[]>;
  discard(group: string): Promise<void>;
}
