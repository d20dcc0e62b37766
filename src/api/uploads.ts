import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import type { FileLocation } from './files';
import { isFileId, isProjectId, notFolderId, notProjectId } from './ids';
import type { Call, Transport } from './transport';
import type { FileRecord, Page } from './types';

/**
 * The multipart upload API (platform-api.md §8). A file goes as numbered parts: `init` says where, what name and size,
 * and answers the upload's ID and the part size to use (the server's, which may differ from the one asked for);
 * each part is PUT to a signed URL on the storage (see storage.ts) and its ETag reported; `complete` makes the file.
 * `info` with its parts tells which parts arrived, so an upload can resume; `abort` drops it, leaving nothing.
 */

/** An upload as the platform tells it (init, info, list). */
export interface Upload {
  upload_id: string;
  project?: string;
  parent?: string;
  name?: string;
  size?: number | null;
  part_size: number;
  initiated?: string;
  uploaded_parts_count?: number;
  /** With `info(…, { listParts: true })`: the parts reported, with their ETags. */
  parts?: { part_number: number; response?: { headers?: { ETag?: string } } }[];
}

/** Where and how to PUT one part. */
export interface PartTarget {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** Statuses that mean the part arrived (default 200). */
  successCodes: number[];
  /** Response headers to report back (the ETag). */
  reportHeaders: string[];
}

export interface UploadInit {
  destination: FileLocation;
  name: string;
  size: number;
  /** The part size asked for; the answer's `part_size` is the one to use. */
  partSize: number;
  /** Replace a file of the same name (`?overwrite=true`); otherwise a taken name is refused (409). */
  overwrite?: boolean;
}

export class UploadsApi {
  constructor(private readonly transport: Transport) {}

  async init(init: UploadInit, call: Call = {}): Promise<Upload> {
    const where = init.destination;
    if ('project' in where && !isProjectId(where.project)) throw invalid(notProjectId(where.project));
    if ('parent' in where && !isFileId(where.parent)) throw invalid(notFolderId(where.parent));
    const body = { ...where, name: init.name, size: init.size, part_size: init.partSize };
    const response = await this.transport.request<unknown>('POST', 'upload/multipart', { ...call, body, query: { overwrite: init.overwrite ? 'true' : undefined } });
    return readUpload(response.body);
  }

  async partTarget(uploadId: string, partNumber: number, call: Call = {}): Promise<PartTarget> {
    const body = (await this.transport.get<Record<string, unknown>>(`${uploadPath(uploadId)}/part/${partNumber}`, call)).body;
    if (!body || typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url)) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('the upload address of part {0} has no URL', partNumber) });
    }
    const report = (body.report ?? {}) as Record<string, unknown>;
    // The documentation puts `success_codes` at the top; the Java client reads it inside `report`: accept both.
    const codes = [body.success_codes, report.success_codes].find((c) => Array.isArray(c) && c.every((n) => Number.isInteger(n))) as number[] | undefined;
    const headers = body.headers && typeof body.headers === 'object' ? (body.headers as Record<string, unknown>) : {};
    return {
      url: body.url,
      method: typeof body.method === 'string' ? body.method.toUpperCase() : 'PUT',
      headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string')),
      successCodes: codes?.length ? codes : [200],
      reportHeaders: Array.isArray(report.headers) ? report.headers.filter((h): h is string => typeof h === 'string') : ['ETag'],
    };
  }

  /** Reports a part's ETag. Reporting the same part again replaces the report, so it is repeated after a fault. */
  async reportPart(uploadId: string, partNumber: number, etag: string, call: Call = {}): Promise<void> {
    const body = { part_number: partNumber, response: { headers: { ETag: etag } } };
    await this.transport.request('POST', `${uploadPath(uploadId)}/part`, { ...call, body, idempotent: true });
  }

  /** Makes the file from the reported parts. Not repeated by itself: a lost answer must be looked up (see transfer/). */
  async complete(uploadId: string, call: Call = {}): Promise<FileRecord> {
    const body = (await this.transport.request<FileRecord>('POST', `${uploadPath(uploadId)}/complete`, call)).body;
    if (!body || typeof body.id !== 'string') throw new ApiError({ kind: 'malformed', message: l10n.t('the completed upload has no file ID') });
    return body;
  }

  /** Drops the upload and its parts. An upload already gone (404) counts as dropped. */
  async abort(uploadId: string, call: Call = {}): Promise<void> {
    try {
      await this.transport.request('DELETE', uploadPath(uploadId), { ...call, idempotent: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return;
      throw error;
    }
  }

  async info(uploadId: string, options: Call & { listParts?: boolean } = {}): Promise<Upload> {
    const { listParts, ...call } = options;
    return readUpload((await this.transport.get<unknown>(uploadPath(uploadId), { ...call, query: { list_parts: listParts ? 'true' : undefined } })).body);
  }

  /** The caller's uploads not completed nor aborted, a page at a time. */
  list(page: { offset?: number; limit?: number; signal?: AbortSignal } = {}): Promise<Page<Upload>> {
    return this.transport.page<Upload>('upload/multipart', { query: { offset: page.offset, limit: page.limit ?? 100 }, signal: page.signal });
  }
}

function uploadPath(uploadId: string): string {
  if (!uploadId || /[/?#]/.test(uploadId)) throw invalid(l10n.t('"{0}" is not an upload ID.', uploadId));
  return `upload/multipart/${encodeURIComponent(uploadId)}`;
}

function readUpload(body: unknown): Upload {
  const upload = body as Partial<Upload> | undefined;
  if (!upload || typeof upload.upload_id !== 'string' || !upload.upload_id) {
    throw new ApiError({ kind: 'malformed', message: l10n.t('the upload has no ID') });
  }
  if (!Number.isInteger(upload.part_size) || upload.part_size! <= 0) {
    throw new ApiError({ kind: 'malformed', message: l10n.t('the upload has no part size') });
  }
  return upload as Upload;
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}
