// What the files' kinds of write share (files/renameWrite.ts, tagsWrites.ts, metadataWrite.ts, deleteWrites.ts,
// moveWrites.ts; each a kind of the one write path with the rule ARCHITECTURE.md, "Writes", declares for it): the calls
// they make, a file's record or its absence, the checks of what is read back. No `vscode` import.
import { ApiError } from '../api/errors';
import type { FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { FileRecord } from '../api/types';

/** What the kinds call. */
export type FilesWriteApi = Pick<FilesApi, 'get' | 'list' | 'createFolder' | 'update' | 'setTags' | 'delete' | 'move'>;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
export const text = (value: unknown): value is string => typeof value === 'string';

/** A file's record, or undefined when the platform says it is gone (404). */
export async function recordOrGone(files: Pick<FilesApi, 'get'>, id: string, credentials: Credentials): Promise<FileRecord | undefined> {
  try {
    return await files.get(id, { credentials });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
