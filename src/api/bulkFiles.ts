import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { noReadableResult, readableItem } from './fileJobs';
import { metadataProblem, nameProblem } from './fileRules';
import { isFileId, notFileId } from './ids';
import type { Call, Transport } from './transport';
import type { BulkFileChange, BulkFileItem, FileRecord } from './types';

/** Items per bulk file call (platform-api.md §9.3). */
export const MAX_BULK_FILES = 100;

/**
 * The synchronous bulk file calls (platform-api.md §9.3), up to 100 files each, one entry per item in request order:
 * get (read: repeated after a transient fault like a GET), delete, update (replaces: tags and metadata left out are
 * erased) and edit (merges: what is left out is kept). The writes are sent once and never repeated here. A value
 * refused before sending arrives as a rejected promise, like every other failure.
 */
export class BulkFilesApi {
  constructor(private readonly transport: Transport) {}

  async get(ids: readonly string[], options: Call = {}): Promise<BulkFileItem[]> {
    return this.send('get', { file_ids: checkIds(ids) }, ids.length, options, true);
  }

  /** The records of any number of files, 100 a call, in the order asked; a file the platform refused throws. */
  async records(ids: readonly string[], options: Call = {}): Promise<FileRecord[]> {
    const records: FileRecord[] = [];
    for (let i = 0; i < ids.length; i += MAX_BULK_FILES) {
      for (const item of await this.get(ids.slice(i, i + MAX_BULK_FILES), options)) {
        if (item.error) throw new ApiError({ kind: 'http', status: item.error.status, code: item.error.code, message: item.error.message ?? noReadableResult() });
        records.push(item.resource);
      }
    }
    return records;
  }

  async delete(ids: readonly string[], options: Call = {}): Promise<BulkFileItem[]> {
    return this.send('delete', { file_ids: checkIds(ids) }, ids.length, options);
  }

  async update(items: readonly BulkFileChange[], options: Call = {}): Promise<BulkFileItem[]> {
    return this.send('update', { items: checkChanges(items) }, items.length, options);
  }

  async edit(items: readonly BulkFileChange[], options: Call = {}): Promise<BulkFileItem[]> {
    return this.send('edit', { items: checkChanges(items) }, items.length, options);
  }

  private async send(call: 'get' | 'delete' | 'update' | 'edit', body: unknown, count: number, options: Call, reads = false): Promise<BulkFileItem[]> {
    if (count === 0) return [];
    const answer = (await this.transport.request<{ items?: unknown }>('POST', `bulk/files/${call}`, { ...options, body, idempotent: reads })).body;
    if (!answer || !Array.isArray(answer.items) || answer.items.length !== count) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('the bulk file answer does not have one entry per file'), maybeDelivered: !reads });
    }
    return (answer.items as unknown[]).map(readableItem);
  }
}

function checkIds(ids: readonly string[]): readonly string[] {
  if (ids.length > MAX_BULK_FILES) throw invalid(l10n.t('At most {0} files per bulk request ({1} given).', MAX_BULK_FILES, ids.length));
  const bad = ids.find((id) => !isFileId(id));
  if (bad !== undefined) throw invalid(notFileId(bad));
  return ids;
}

function checkChanges(items: readonly BulkFileChange[]): readonly BulkFileChange[] {
  checkIds(items.map((i) => i.id));
  for (const item of items) {
    const problem = (item.name !== undefined ? nameProblem(item.name, 'file') : undefined) ?? (item.metadata ? metadataProblem(item.metadata) : undefined);
    if (problem) throw invalid(problem);
  }
  return items;
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}
