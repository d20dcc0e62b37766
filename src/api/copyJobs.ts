import { ApiError } from './errors';
import { isJobId } from './ids';
import type { PageRequest } from './tasks';
import type { Transport } from './transport';
import type { AsyncJob, CopyItem, Page } from './types';

/** Bulk asynchronous copy (contract §4) and the list of the caller's async jobs. */
export class CopyJobsApi {
  constructor(private readonly transport: Transport) {}

  /**
   * Submits one copy call. Never repeated by the client: if it fails after it may have reached the
   * server, the error says `maybeDelivered` and the caller must check the job list before sending it again.
   */
  async submit(items: CopyItem[], signal?: AbortSignal): Promise<AsyncJob> {
    const response = await this.transport.post<AsyncJob>('async/files/copy', { items }, { signal });
    return checkJob(response.body);
  }

  async get(id: string, signal?: AbortSignal): Promise<AsyncJob> {
    if (!isJobId(id)) throw new ApiError({ kind: 'invalid', message: `"${id}" is not an async job ID (digits).` });
    return checkJob((await this.transport.get<AsyncJob>(`async/files/copy/${id}`, { signal })).body);
  }

  /** The caller's async jobs of every type (COPY, MOVE, DELETE), newest first. */
  list(page: PageRequest = {}): Promise<Page<AsyncJob>> {
    return this.transport.page<AsyncJob>('async/files', { query: { offset: page.offset, limit: page.limit }, signal: page.signal });
  }
}

function checkJob(body: unknown): AsyncJob {
  const job = body as AsyncJob | undefined;
  if (!job || typeof job !== 'object' || typeof job.id !== 'string' || typeof job.state !== 'string') {
    throw new ApiError({ kind: 'malformed', message: 'the copy job in the answer has no id or state' });
  }
  return job;
}
