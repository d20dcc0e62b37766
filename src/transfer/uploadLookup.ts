// After a lost answer to `complete` (a dropped connection, a 5xx): did the platform make the file? The write path
// asks this before it sends anything again, since sending `complete` again after it was processed only gets a 404
// (the upload is gone once completed), and re-uploading would make the file twice. No `vscode`.
import { ApiError } from '../api/errors';
import type { FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { FileRecord } from '../api/types';
import type { UploadsApi } from '../api/uploads';
import type { CompletionTarget } from './fileUploads';

export type CompletionLookup =
  /** The file is there: adopt it, send nothing. */
  | { state: 'completed'; file: FileRecord }
  /** The upload still exists with its parts: `complete` was not processed, it may be sent again. */
  | { state: 'notCompleted' }
  /** Neither the upload nor the file: it was aborted (or expired); the file must be uploaded again. */
  | { state: 'gone' };

/** A file made by the completion is at most this much older than the upload (clock differences, seconds in records). */
const SLACK_MS = 60_000;

/**
 * Looks a completion up: `GET upload/multipart/{id}` first (200: not completed); on 404, the destination's file of
 * that name: completed if its size is the upload's and it was created after the upload began.
 */
export async function lookUpCompletion(
  api: { uploads: Pick<UploadsApi, 'info'>; files: Pick<FilesApi, 'list'> },
  context: CompletionTarget,
  signal?: AbortSignal,
  credentials?: Credentials,
): Promise<CompletionLookup> {
  try {
    await api.uploads.info(context.uploadId, { signal, credentials });
    return { state: 'notCompleted' };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  const page = await api.files.list(context.destination, { name: context.name, limit: 100, signal, credentials });
  const begun = context.initiated ? Date.parse(context.initiated) : NaN;
  const file = page.items.find(
    (f) =>
      f.name === context.name &&
      f.type !== 'folder' &&
      f.size === context.size &&
      (Number.isNaN(begun) || !f.created_on || Date.parse(f.created_on) >= begun - SLACK_MS),
  );
  return file ? { state: 'completed', file } : { state: 'gone' };
}
