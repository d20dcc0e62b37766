// A copy call as the outbox records it (copy/copyWrite.ts sends it): what the Data Jobs view and the status bar show
// until it is a job, and what their actions ask of the copy feature. Here so that jobs/ needs nothing from copy/.
import type { CopyItem } from '../api/types';
import type { WriteRecord } from '../write/outbox';
import type { JobDestination, TrackedJob } from './tracker';

/** The outbox's kind for copy calls. */
export const COPY_WRITE = 'copy';

/** One copy call: what is sent, where to, and the sources' names where known. */
export interface CopyPayload {
  items: CopyItem[];
  destination: JobDestination;
  sourceNames?: Record<string, string>;
}

export type CopyWriteRecord = WriteRecord<CopyPayload>;

/** Whether a request row is a copy call (else another write, or a record this version leaves alone). */
export function isCopyCall(record: WriteRecord): record is CopyWriteRecord {
  return record.kind === COPY_WRITE && !record.problem;
}

/** What the job notifications and the Data Jobs view ask of the copy feature (copy/flow.ts's CopyFlow does it). */
export interface CopyActions {
  /** Copies a finished job's failed items again, to the same destination. */
  retryFailed(job: TrackedJob, options?: { confirm?: boolean }): Promise<TrackedJob[]>;
  /** Sends a copy request of the outbox again (`anyway`: even though it may have been submitted). */
  resubmit(group: string, anyway?: boolean): Promise<TrackedJob[]>;
  discard(group: string): Promise<void>;
}
