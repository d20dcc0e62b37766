import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { isFileId, isProjectId, notFileId, notFolderId, notProjectId } from './ids';
import { PagedLoader, recordKey } from './pagedLoader';
import type { PageRequest } from './tasks';
import type { Call, Transport } from './transport';
import type { FileRecord, Page } from './types';

/** Where to list: a project's root, or a folder. */
export type FileLocation = { project: string } | { parent: string };

export const FILE_FIELDS = 'href,id,name,type,size,project,parent,created_on,modified_on';

export class FilesApi {
  constructor(private readonly transport: Transport) {}

  // async: a refused location arrives as a rejected promise, like every other failure.
  async list(location: FileLocation, page: PageRequest & { name?: string; fields?: string } = {}): Promise<Page<FileRecord>> {
    if ('project' in location && !isProjectId(location.project)) throw invalid(notProjectId(location.project));
    if ('parent' in location && !isFileId(location.parent)) throw invalid(notFolderId(location.parent));
    return this.transport.page<FileRecord>('files', {
      query: { ...location, name: page.name, fields: page.fields ?? FILE_FIELDS, offset: page.offset, limit: page.limit },
      signal: page.signal,
    });
  }

  async get(id: string, options: Call = {}): Promise<FileRecord> {
    if (!isFileId(id)) throw invalid(notFileId(id));
    return (await this.transport.get<FileRecord>(`files/${id}`, options)).body;
  }

  /** Where the file's bytes can be fetched: a signed URL on the storage provider (a credential while it lives). */
  async downloadInfo(id: string, signal?: AbortSignal): Promise<string> {
    if (!isFileId(id)) throw invalid(notFileId(id));
    const body = (await this.transport.get<{ url?: unknown }>(`files/${id}/download_info`, { signal })).body;
    if (!body || typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url)) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('the download information has no URL') });
    }
    return body.url;
  }

  next(url: string, signal?: AbortSignal): Promise<Page<FileRecord>> {
    return this.transport.page<FileRecord>(url, { signal });
  }
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}

/** The entries of a project's root or of a folder, a page at a time (the files tree's levels, the folder picker's). */
export function fileListing(files: Pick<FilesApi, 'list' | 'next'>, location: FileLocation): PagedLoader<FileRecord> {
  return new PagedLoader<FileRecord>(
    { page: (offset, limit, signal) => files.list(location, { offset, limit, signal }), next: (url, signal) => files.next(url, signal) },
    { key: recordKey },
  );
}
