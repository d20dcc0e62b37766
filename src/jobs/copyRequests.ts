// A copy call as the outbox records it (copy/copyWrite.ts declares it): what the Data Jobs view and the status bar show
// until it is a job, and what their actions ask of the copy feature. Here so that jobs/ needs nothing from copy/.
import type { CopyItem } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import type { WriteRecord } from '../write/outbox';
import type { JobDestination, TrackedJob } from './tracker';

/** One copy call: what is sent, where to, and the sources' names where known. */
export interface CopyPayload {
  items: CopyItem[];
  destination: JobDestination;
  sourceNames?: Record<string, string>;
}

export type CopyWriteRecord = WriteRecord<CopyPayload>;

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
