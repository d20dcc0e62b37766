// "Upload complete" as a write of the outbox (ARCHITECTURE.md, "Writes"): `POST upload/multipart/{id}/complete` makes
// the file once. Idempotent: the upload ID completes once, so it is found by state (uploadLookup.ts): the upload
// still there means not done, sent again; gone with a file of its name, size and time in its destination means done;
// gone without one, it cannot be done (aborted or expired): the person decides. A 404 to `complete` may answer a
// completion made by another call (another window's): it is checked the same way, never believed. An upload resumed is
// never begun again before its pending completion, and the file, are asked (`completedThroughOutbox`).
// No `vscode` import.
import * as l10n from '@vscode/l10n';
import type { Clock } from '../api/clock';
import { isFileRecord, type FilesApi } from '../api/files';
import type { FileRecord } from '../api/types';
import type { UploadsApi } from '../api/uploads';
import type { WriteKind } from '../write/kinds';
import { waitsForPerson, type Account, type Outbox, type WriteRecord } from '../write/outbox';
import { awaitWrite, stillOpen, writeThroughOutbox } from '../write/awaitWrite';
import type { CompleteContext, UploaderDeps } from '../transfer/upload';
import { ApiError } from '../api/errors';
import { NEW_FOLDER_WRITE, type NewFolderPayload } from './newFolderWrite';
import { lookUpCompletion } from '../transfer/uploadLookup';

export const UPLOAD_COMPLETE_WRITE = 'upload.complete';

export interface UploadWriteApi {
  uploads: Pick<UploadsApi, 'complete' | 'info'>;
  files: Pick<FilesApi, 'list'>;
}

const isContext = (p: unknown): p is CompleteContext => {
  const c = p as Partial<CompleteContext> | null;
  const place = c?.destination as { project?: unknown; parent?: unknown } | undefined;
  return (
    typeof c?.uploadId === 'string' &&
    typeof c.name === 'string' &&
    typeof c.size === 'number' &&
    typeof c.localPath === 'string' &&
    (typeof place?.project === 'string' || typeof place?.parent === 'string')
  );
};

/** The kind, to register with the outbox. */
export function uploadCompleteWrite(api: UploadWriteApi): WriteKind<CompleteContext, undefined, FileRecord> {
  return {
    name: UPLOAD_COMPLETE_WRITE,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const seen = await lookUpCompletion(api, record.payload, undefined, credentials);
        if (seen.state === 'completed') return { found: seen.file };
        if (seen.state === 'notCompleted') return { absent: l10n.t('The upload is still there with its parts: it was not completed.') };
        return { changed: l10n.t('The upload is gone (aborted or expired) and no file of its name is in its folder: upload the file again.') };
      },
    },
    // Another window may have completed this very upload: the platform then no longer knows its ID.
    verifyRefusal: (error) => error.status === 404,
    isPayload: isContext,
    isOutcome: isFileRecord,
    send: (record, credentials) => api.uploads.complete(record.payload.uploadId, { credentials }),
    keep: (file) => ({ href: file.href, id: file.id, name: file.name, type: file.type, size: file.size, project: file.project, parent: file.parent }),
    finish: () => undefined,
    describe: (context) => l10n.t('Upload "{0}"', context.name),
  };
}

/** How long the upload waits for the lookup of a lost answer before it reports the file as "being checked". */
export const LOOKUP_WAIT_MS = 30_000;

const notAnswered = (): string => l10n.t('The platform has not answered the completion yet.');

/** The completion of an upload still in the outbox (any window's, of this account), if there is one. */
function pendingCompletion(outbox: Outbox, account: Account, uploadId: string): WriteRecord | undefined {
  return outbox.forAccount(account.key).find((r) => r.kind === UPLOAD_COMPLETE_WRITE && !r.problem && (r.payload as CompleteContext).uploadId === uploadId);
}

/**
 * The engine's `complete` through the outbox (see writeThroughOutbox), the file made once: a completion of the same
 * upload already in the outbox (an earlier run's, another window's) is followed rather than made again.
 */
export function completeThroughOutbox(
  outbox: Outbox,
  account: Account,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  waitMs = LOOKUP_WAIT_MS,
): (uploadId: string, context: CompleteContext) => Promise<FileRecord> {
  const complete = writeThroughOutbox<CompleteContext, FileRecord>(outbox, UPLOAD_COMPLETE_WRITE, account, clock, waitMs, notAnswered);
  return async (_uploadId, context) => {
    const earlier = pendingCompletion(outbox, account, context.uploadId);
    if (earlier && !waitsForPerson(earlier)) {
      const awaited = await awaitWrite<FileRecord>(outbox, earlier.id, clock, waitMs);
      if ('outcome' in awaited) return awaited.outcome;
      if (awaited.left) throw stillOpen(awaited.left, notAnswered);
      // It left the outbox in another window (finished there): a completion now is answered 404, and checked.
    }
    return complete(context);
  };
}

/**
 * The engine's `completed`: before an upload it resumes is begun again (the platform no longer knows its ID), the
 * file its completion made, if it was completed. Its completion still in the outbox (this window's or another's) is
 * followed first; then the file is looked for by the identity rule. Undefined: not completed (aborted or expired).
 * Rejects `maybeDelivered` while the completion is still being checked, so that nothing is begun meanwhile. A
 * completion left for the person is moot once the lookup told: it is discarded (where this window may).
 */
export function completedThroughOutbox(
  outbox: Outbox,
  api: Pick<UploadWriteApi, 'uploads'> & { files: Pick<FilesApi, 'list'> },
  account: Account,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  waitMs = LOOKUP_WAIT_MS,
): NonNullable<UploaderDeps['completed']> {
  return async (context, signal) => {
    const earlier = pendingCompletion(outbox, account, context.uploadId);
    if (earlier && !waitsForPerson(earlier)) {
      const awaited = await awaitWrite<FileRecord>(outbox, earlier.id, clock, waitMs);
      if ('outcome' in awaited) return awaited.outcome;
      if (awaited.left && !waitsForPerson(awaited.left)) throw stillOpen(awaited.left, notAnswered);
    }
    const seen = await lookUpCompletion(api, context, signal, account.credentials);
    const moot = pendingCompletion(outbox, account, context.uploadId);
    if (moot && waitsForPerson(moot)) await outbox.discard(moot.group);
    return seen.state === 'completed' ? seen.file : undefined;
  };
}

/**
 * The engine's `ensureFolder`: the folder `name` in `parent`, the one there, else made through the outbox's "new
 * folder" write (a lost answer is looked up, not sent again). Refused, it is looked for once more: a folder of that
 * name made meanwhile (409) is the one wanted.
 */
export function folderThroughOutbox(
  outbox: Outbox,
  files: Pick<FilesApi, 'list'>,
  account: Account,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  waitMs = LOOKUP_WAIT_MS,
): UploaderDeps['ensureFolder'] {
  const make = writeThroughOutbox<NewFolderPayload, FileRecord>(outbox, NEW_FOLDER_WRITE, account, clock, waitMs, () => l10n.t('The platform has not answered yet whether the folder was made.'));
  return async (parent, name, signal, within) => {
    const there = async () => (await files.list(parent, { name, limit: 100, signal, credentials: account.credentials })).items.find((f) => f.name === name && f.type === 'folder')?.id;
    const found = await there();
    if (found) return found;
    try {
      return (await make({ name, where: parent, label: within ?? name })).id;
    } catch (error) {
      const made = error instanceof ApiError && !error.maybeDelivered ? await there() : undefined;
      if (made) return made;
      throw error;
    }
  };
}
