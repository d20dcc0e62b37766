import { ApiError } from './errors';
import * as l10n from '@vscode/l10n';
import { isJobId } from './ids';
import type { PageRequest } from './tasks';
import type { Call, Transport } from './transport';
import type { AsyncJob, CopyItem, DeleteItem, FileItemResult, FileJobKind, FileRecord, MoveItem, Page } from './types';

/** Items per call: the platform documents no limit (THIN); 100 is the other bulk calls' limit, and the safe size. */
export const MAX_FILE_JOB_ITEMS = 100;

/**
 * The asynchronous file jobs (platform-api.md §4, §9.2): copy, move and delete many files and folders in one call each, a
 * job's state and per-item results, and the list of the caller's jobs of every kind.
 */
export class FileJobsApi {
  constructor(private readonly transport: Transport) {}

  /**
   * Submits one call of a kind. Never repeated by the client: if it fails after it may have reached the server, the
   * error says `maybeDelivered` and the caller must check the job list before sending it again. Send at most
   * MAX_FILE_JOB_ITEMS items per call.
   */
  submit(kind: 'copy', items: readonly CopyItem[], options?: Call): Promise<AsyncJob>;
  submit(kind: 'move', items: readonly MoveItem[], options?: Call): Promise<AsyncJob>;
  submit(kind: 'delete', items: readonly DeleteItem[], options?: Call): Promise<AsyncJob>;
  async submit(kind: FileJobKind, items: readonly (CopyItem | DeleteItem)[], options: Call = {}): Promise<AsyncJob> {
    const response = await this.transport.post<AsyncJob>(`async/files/${kind}`, { items }, options);
    // The platform accepted the call: an answer we cannot read may still stand for a job it created.
    return checkJob(response.body, kind, true);
  }

  /** A job by its kind and ID (a move job is not found under copy). */
  async get(kind: FileJobKind, id: string, options: Call = {}): Promise<AsyncJob> {
    if (!isJobId(id)) throw new ApiError({ kind: 'invalid', message: l10n.t('"{0}" is not an async job ID (digits).', id) });
    return checkJob((await this.transport.get<AsyncJob>(`async/files/${kind}/${id}`, options)).body, kind);
  }

  /** The caller's async jobs of every type (COPY, MOVE, DELETE), in an order the platform does not document. */
  async list(page: PageRequest = {}): Promise<Page<AsyncJob>> {
    const listed = await this.transport.page<AsyncJob>('async/files', {
      query: { offset: page.offset, limit: page.limit },
      signal: page.signal,
      credentials: page.credentials,
    });
    // Like a single job's answer: an entry without a text id and state is not a job we can follow (or show).
    return { ...listed, items: listed.items.filter((job) => typeof job.id === 'string' && typeof job.state === 'string').map(readableResults) };
  }
}

function checkJob(body: unknown, kind: FileJobKind, maybeDelivered = false): AsyncJob {
  const job = body as AsyncJob | undefined;
  if (!job || typeof job !== 'object' || typeof job.id !== 'string' || typeof job.state !== 'string') {
    const message = {
      copy: () => l10n.t('the copy job in the answer has no id or state'),
      move: () => l10n.t('the move job in the answer has no id or state'),
      delete: () => l10n.t('the delete job in the answer has no id or state'),
    }[kind]();
    throw new ApiError({ kind: 'malformed', message, maybeDelivered });
  }
  return readableResults(job);
}

/** The per-item results as the views read them, still one per item in request order (see `readableItem`). */
function readableResults(job: AsyncJob): AsyncJob {
  if (job.result === undefined) return job;
  if (!Array.isArray(job.result)) {
    const rest = { ...job };
    delete rest.result;
    return rest;
  }
  return { ...job, result: (job.result as unknown[]).map(readableItem) };
}

/** Why an item's result could not be read. */
export const noReadableResult = (): string => l10n.t('The platform gave no readable result for this item.');

/**
 * One item's result (of a job, or of a bulk call) as the views read it: a record with a text id (named by its id when
 * the name is missing), or an error whose fields have their types; anything else (null, a number, an empty entry) is
 * an error saying the result could not be read.
 */
export function readableItem(entry: unknown): FileItemResult {
  const { resource, error } = (entry && typeof entry === 'object' ? entry : {}) as { resource?: unknown; error?: unknown };
  if (resource && typeof resource === 'object' && typeof (resource as FileRecord).id === 'string') {
    const r = resource as FileRecord;
    return { resource: typeof r.name === 'string' ? r : { ...r, name: r.id } };
  }
  const e = (error && typeof error === 'object' ? error : {}) as Record<string, unknown>;
  const message = typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : noReadableResult();
  return {
    error: {
      message,
      ...(typeof e.status === 'number' ? { status: e.status } : {}),
      ...(typeof e.code === 'number' ? { code: e.code } : {}),
      ...(typeof e.more_info === 'string' ? { more_info: e.more_info } : {}),
    },
  };
}
