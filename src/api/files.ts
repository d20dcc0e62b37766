import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { metadataProblem, nameProblem } from './fileRules';
import { isFileId, isProjectId, notFileId, notFolderId, notProjectId } from './ids';
import { PagedLoader, recordKey } from './pagedLoader';
import type { PageRequest } from './tasks';
import type { Call, QueryValue, Transport } from './transport';
import type { FileChanges, FileFilters, FileRecord, Page } from './types';

/** Where to list: a project's root, or a folder. */
export type FileLocation = { project: string } | { parent: string };

export const FILE_FIELDS = 'href,id,name,type,size,project,parent,created_on,modified_on,origin,tags,metadata';

/**
 * What a row of Projects & Files draws and its commands read (name, type, size, where it is, when it changed): the
 * tooltip's tags, metadata and origin are read with the whole record when the row is hovered.
 */
/** What is kept of an answered record (a write's outcome): what a row shows. */
export function keptFile(file: FileRecord): FileRecord {
  const { href, id, name, type, size, project, parent, tags } = file;
  return { href, id, name, type, size, project, parent, tags };
}

/** A file's record as stored from an answer (read back: it may be damaged): an object with its ID and name. */
export function isFileRecord(value: unknown): value is FileRecord {
  const file = value as Partial<FileRecord> | null;
  return !!file && typeof file === 'object' && typeof file.id === 'string' && typeof file.name === 'string';
}

export const FILE_ROW_FIELDS = 'href,id,name,type,size,project,parent,created_on,modified_on';

/**
 * Files and folders (platform-api.md §5, §9.1, §10.1): listing with filters, one record, its download URL, and the single
 * writes (a folder, a change of name, tags or metadata, a move within a project, a delete). A write is sent once and
 * never repeated here: an error says `maybeDelivered` when it may have reached the platform (see the write path).
 */
export class FilesApi {
  constructor(private readonly transport: Transport) {}

  /** One page of a project's root or a folder, narrowed by the filters (`name` exact; lists OR, filters AND). */
  // async: a refused location arrives as a rejected promise, like every other failure.
  async list(location: FileLocation, page: PageRequest & FileFilters & { fields?: string } = {}): Promise<Page<FileRecord>> {
    checkLocation(location);
    return this.transport.page<FileRecord>('files', {
      query: { ...location, ...filterQuery(page), fields: page.fields ?? FILE_FIELDS, offset: page.offset, limit: page.limit },
      signal: page.signal,
      credentials: page.credentials,
    });
  }

  async get(id: string, options: Call = {}): Promise<FileRecord> {
    checkId(id);
    return (await this.transport.get<FileRecord>(`files/${id}`, options)).body;
  }

  /** Where the file's bytes can be fetched: a signed URL on the storage provider (a credential while it lives). */
  async downloadInfo(id: string, signal?: AbortSignal): Promise<string> {
    checkId(id);
    const body = (await this.transport.get<{ url?: unknown }>(`files/${id}/download_info`, { signal })).body;
    if (!body || typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url)) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('the download information has no URL') });
    }
    return body.url;
  }

  next(url: string, signal?: AbortSignal): Promise<Page<FileRecord>> {
    return this.transport.page<FileRecord>(url, { signal });
  }

  /** A new folder in a project's root or in a folder (`POST /v2/files`); a name taken there is refused (409). */
  async createFolder(name: string, where: FileLocation, options: Call = {}): Promise<FileRecord> {
    checkLocation(where);
    const problem = nameProblem(name, 'folder');
    if (problem) throw invalid(problem);
    return fileRecord((await this.transport.post<FileRecord>('files', { name, type: 'folder', ...where }, options)).body, l10n.t('the answer has no record of the new folder'));
  }

  /** Renames, and replaces the whole tag list or metadata set (`PATCH /v2/files/{id}`): what is left out stays. */
  async update(id: string, changes: FileChanges, options: Call = {}): Promise<FileRecord> {
    checkId(id);
    checkChanges(changes);
    return fileRecord((await this.transport.request<FileRecord>('PATCH', `files/${id}`, { ...options, body: changes })).body, l10n.t('the answer has no record of the changed file'));
  }

  /** Replaces the file's tags (`PUT /v2/files/{id}/tags`); the answer is the tags as the platform keeps them. */
  async setTags(id: string, tags: readonly string[], options: Call = {}): Promise<string[]> {
    checkId(id);
    const body = (await this.transport.request<unknown>('PUT', `files/${id}/tags`, { ...options, body: tags })).body;
    if (!Array.isArray(body)) throw malformed(l10n.t('the answer to a change of tags is not a list of tags'));
    return body.filter((t): t is string => typeof t === 'string');
  }

  async metadata(id: string, options: Call = {}): Promise<Record<string, unknown>> {
    checkId(id);
    return metadataObject((await this.transport.get<unknown>(`files/${id}/metadata`, options)).body);
  }

  /** Sets the given fields, keeping the others (`PATCH …/metadata`); answers the whole set. */
  patchMetadata(id: string, changes: Readonly<Record<string, string | null>>, options: Call = {}): Promise<Record<string, unknown>> {
    return this.writeMetadata('PATCH', id, changes, options);
  }

  /** Replaces the whole set: fields left out are gone (`PUT …/metadata`); answers the whole set. */
  replaceMetadata(id: string, metadata: Readonly<Record<string, string>>, options: Call = {}): Promise<Record<string, unknown>> {
    return this.writeMetadata('PUT', id, metadata, options);
  }

  /** Moves a file (not a folder) to another folder of its project, optionally renamed; its ID stays. */
  async move(id: string, to: { parent: string; name?: string }, options: Call = {}): Promise<FileRecord> {
    checkId(id);
    if (!isFileId(to.parent)) throw invalid(notFolderId(to.parent));
    if (to.name !== undefined) {
      const problem = nameProblem(to.name, 'file');
      if (problem) throw invalid(problem);
    }
    return fileRecord((await this.transport.post<FileRecord>(`files/${id}/actions/move`, to, options)).body, l10n.t('the answer has no record of the moved file'));
  }

  /** Deletes a file or an empty folder (`DELETE /v2/files/{id}`, 204); a folder with content goes by the async delete. */
  async delete(id: string, options: Call = {}): Promise<void> {
    checkId(id);
    await this.transport.request<unknown>('DELETE', `files/${id}`, options);
  }

  private async writeMetadata(method: 'PATCH' | 'PUT', id: string, metadata: Readonly<Record<string, string | null>>, options: Call): Promise<Record<string, unknown>> {
    checkId(id);
    const problem = metadataProblem(metadata);
    if (problem) throw invalid(problem);
    return metadataObject((await this.transport.request<unknown>(method, `files/${id}/metadata`, { ...options, body: metadata })).body, true);
  }
}

/** The query of the filters: lists repeat their parameter; an empty list is no filter. */
function filterQuery(filters: FileFilters): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  const list = (v: string | readonly string[] | undefined) => (v === undefined ? undefined : typeof v === 'string' ? [v] : v.length ? v : undefined);
  query.name = list(filters.name);
  query.tag = list(filters.tag);
  for (const [field, values] of Object.entries(filters.metadata ?? {})) query[`metadata.${field}`] = list(values);
  query['origin.task'] = filters.originTask;
  return query;
}

function checkLocation(location: FileLocation): void {
  if ('project' in location && !isProjectId(location.project)) throw invalid(notProjectId(location.project));
  if ('parent' in location && !isFileId(location.parent)) throw invalid(notFolderId(location.parent));
}

function checkId(id: string): void {
  if (!isFileId(id)) throw invalid(notFileId(id));
}

function checkChanges(changes: FileChanges): void {
  if (changes.name !== undefined) {
    // The record's type is not known here: the folder-only rule is the platform's to apply.
    const problem = nameProblem(changes.name, 'file');
    if (problem) throw invalid(problem);
  }
  if (changes.metadata !== undefined) {
    const problem = metadataProblem(changes.metadata);
    if (problem) throw invalid(problem);
  }
}

/** A write's answer: a file record with a text id, or an unreadable answer the write may still stand for. */
function fileRecord(body: unknown, missing: string): FileRecord {
  const record = body as FileRecord | undefined;
  if (!record || typeof record !== 'object' || typeof record.id !== 'string') throw malformed(missing);
  return record;
}

function metadataObject(body: unknown, maybeDelivered = false): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw malformed(l10n.t('the metadata in the answer is not an object'), maybeDelivered);
  return body as Record<string, unknown>;
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}

function malformed(message: string, maybeDelivered = true): ApiError {
  return new ApiError({ kind: 'malformed', message, maybeDelivered });
}

/** The entries of a project's root or of a folder, a page at a time (the files tree's levels, the folder picker's, a filtered listing). */
export function fileListing(files: Pick<FilesApi, 'list' | 'next'>, location: FileLocation, filters: FileFilters = {}, fields?: string): PagedLoader<FileRecord> {
  return new PagedLoader<FileRecord>(
    { page: (offset, limit, signal) => files.list(location, { ...filters, offset, limit, signal, ...(fields ? { fields } : {}) }), next: (url, signal) => files.next(url, signal) },
    { key: recordKey },
  );
}
