import type { FileJobsApi } from './fileJobs';
import type { PageRequest } from './tasks';
import type { Call } from './transport';
import type { AsyncJob, CopyItem, FileJobKind, Page } from './types';

/** The copy jobs (platform-api.md §4): the file jobs of kind copy, as the copy flow and the job tracker call them. */
export class CopyJobsApi {
  constructor(private readonly jobs: FileJobsApi) {}

  /** One copy call, sent once (see `FileJobsApi.submit`). */
  submit(items: readonly CopyItem[], options: Call = {}): Promise<AsyncJob> {
    return this.jobs.submit('copy', items, options);
  }

  /** A job by its ID: a copy job, or of the kind given (a move or delete job is not found under copy). */
  get(id: string, options: Call & { kind?: FileJobKind } = {}): Promise<AsyncJob> {
    const { kind, ...call } = options;
    return this.jobs.get(kind ?? 'copy', id, call);
  }

  /** The caller's async jobs of every type (COPY, MOVE, DELETE), in an order the platform does not document. */
  list(page: PageRequest = {}): Promise<Page<AsyncJob>> {
    return this.jobs.list(page);
  }
}
