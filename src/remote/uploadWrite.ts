// "Upload complete" as a write of the outbox (ARCHITECTURE.md, "Writes"): `POST upload/multipart/{id}/complete` makes
// the file once. Idempotent: the upload ID completes once, so it is found by state (uploadLookup.ts): the upload
// still there means not done, sent again; gone with a file of its name, size and time in its destination means done;
// gone without one, it cannot be done (aborted or expired): the person decides. A 404 to `complete` may answer a
// completion made by another call (another window's): it is checked the same way, never believed. An upload resumed is
// never begun again before its pending completion, and the file, are asked (`completedThroughOutbox`).
// No `vscode` import.
import * as l10n from '@vscode/l10n';
import { isFileRecord, type FilesApi } from '../api/files';
import type { FileRecord } from '../api/types';
import type { UploadsApi } from '../api/uploads';
import { WRITE_KINDS, type WriteKindName } from '../keys/writes';
import type { WriteKind } from '../write/kinds';
import { waitsForPerson, type Account, type Outbox, type Settled, type WriteRecord } from '../write/outbox';
import type { CompleteContext, CompletionTarget } from '../transfer/fileUploads';
import type { UploaderDeps } from '../transfer/upload';
import { ApiError } from '../api/errors';
import type { NewFolderPayload } from './newFolderWrite';
import { lookUpCompletion } from '../transfer/uploadLookup';

export interface UploadWriteApi {
  uploads: Pick<UploadsApi, 'complete' | 'info'>;
  files: Pick<FilesApi, 'list'>;
}

/** Whether a payload read back names an upload to complete. */
export const isCompletionTarget = (p: unknown): p is CompletionTarget => {
  const c = p as Partial<CompletionTarget> | null;
  const place = c?.destination as { project?: unknown; parent?: unknown } | undefined;
  return typeof c?.uploadId === 'string' && typeof c.name === 'string' && typeof c.size === 'number' && (typeof place?.project === 'string' || typeof place?.parent === 'string');
};

const isContext = (p: unknown): p is CompleteContext => isCompletionTarget(p) && typeof (p as Partial<CompleteContext>).localPath === 'string';

/** What tells one kind of completion from another: its name, its payload, its words. */
export interface CompletionKind<P extends CompletionTarget> {
  name: WriteKindName;
  isPayload: (p: unknown) => p is P;
  describe: (p: P) => string;
}

/**
 * A write that completes an upload, found by state: the upload still there, not done; gone, with a file of its name
 * and size made since it began in its destination, done (that file); gone without one, the person decides.
 */
export function completionWrite<P extends CompletionTarget>(api: UploadWriteApi, kind: CompletionKind<P>): WriteKind<P, undefined, FileRecord> {
  return {
    name: kind.name,
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
    isPayload: kind.isPayload,
    isOutcome: isFileRecord,
    send: (record, credentials) => api.uploads.complete(record.payload.uploadId, { credentials }),
    keep: (file) => ({ href: file.href, id: file.id, name: file.name, type: file.type, size: file.size, project: file.project, parent: file.parent, created_on: file.created_on, modified_on: file.modified_on }),
    finish: () => undefined,
    describe: kind.describe,
  };
}

export function uploadCompleteWrite(api: UploadWriteApi): WriteKind<CompleteContext, undefined, FileRecord> {
  return completionWrite(api, { name: WRITE_KINDS.uploadComplete, isPayload: isContext, describe: (context) => l10n.t('Upload "{0}"', context.name) });
}

/** How long the upload waits for the lookup of a lost answer before it reports the file as "being checked". */
export const LOOKUP_WAIT_MS = 30_000;

const notAnswered = (): string => l10n.t('The platform has not answered the completion yet.');

/** The completion of an upload still in the outbox (any window's, of this account), if there is one. */
function pendingCompletion(outbox: Outbox, account: Account, uploadId: string): WriteRecord | undefined {
  return outbox.forAccount(account.key).find((r) => r.kind === WRITE_KINDS.uploadComplete && !r.problem && (r.payload as CompleteContext).uploadId === uploadId);
}

/**
 * The outcome of a write the engine awaits (waited for through every wait, at most `waitMs`); rejects as a refusal
 * when the platform refused it or the lookup showed it was not made, and `maybeDelivered` (with `pending`'s words)
 * while it is still being looked up.
 */
export function outcomeOf<T>({ finished, left }: Settled<T>, pending: () => string): T {
  if (finished[0]) return finished[0].outcome;
  throw stillOpen(left[0], pending);
}

/** The error for a write that did not come out here: refused (or gone) unless it is still being looked up. */
function stillOpen(left: WriteRecord | undefined, pending: () => string): ApiError {
  const refused = !left || waitsForPerson(left);
  return new ApiError({ kind: refused ? 'http' : 'network', message: left?.note ?? pending(), maybeDelivered: !refused });
}

/**
 * The engine's `complete` through the outbox, the file made once: a completion of the same upload already in the
 * outbox (an earlier run's, another window's) is followed rather than made again.
 */
export function completeThroughOutbox(outbox: Outbox, account: Account, waitMs = LOOKUP_WAIT_MS): (uploadId: string, context: CompleteContext) => Promise<FileRecord> {
  const patience = { until: 'end' as const, atMostMs: waitMs };
  return async (_uploadId, context) => {
    const earlier = pendingCompletion(outbox, account, context.uploadId);
    if (earlier && !waitsForPerson(earlier)) {
      const awaited = await outbox.follow<FileRecord>(async () => [earlier], patience);
      if (awaited.finished[0]) return awaited.finished[0].outcome;
      if (awaited.left[0]) throw stillOpen(awaited.left[0], notAnswered);
      // It left the outbox in another window (finished there): a completion now is answered 404, and checked.
    }
    return outcomeOf(await outbox.send<FileRecord>(WRITE_KINDS.uploadComplete, [context], account, patience), notAnswered);
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
  waitMs = LOOKUP_WAIT_MS,
): NonNullable<UploaderDeps['completed']> {
  return async (context, signal) => {
    const earlier = pendingCompletion(outbox, account, context.uploadId);
    if (earlier && !waitsForPerson(earlier)) {
      const awaited = await outbox.follow<FileRecord>(async () => [earlier], { until: 'end', atMostMs: waitMs });
      if (awaited.finished[0]) return awaited.finished[0].outcome;
      const left = awaited.left[0];
      if (left && !waitsForPerson(left)) throw stillOpen(left, notAnswered);
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
export function folderThroughOutbox(outbox: Outbox, files: Pick<FilesApi, 'list'>, account: Account, waitMs = LOOKUP_WAIT_MS): UploaderDeps['ensureFolder'] {
  const notYet = () => l10n.t('The platform has not answered yet whether the folder was made.');
  return async (parent, name, signal, within) => {
    const there = async () => (await files.list(parent, { name, limit: 100, signal, credentials: account.credentials })).items.find((f) => f.name === name && f.type === 'folder')?.id;
    const found = await there();
    if (found) return found;
    try {
      const payload: NewFolderPayload = { name, where: parent, label: within ?? name };
      return outcomeOf(await outbox.send<FileRecord>(WRITE_KINDS.newFolder, [payload], account, { until: 'end', atMostMs: waitMs }), notYet).id;
    } catch (error) {
      const made = error instanceof ApiError && !error.maybeDelivered ? await there() : undefined;
      if (made) return made;
      throw error;
    }
  };
}
