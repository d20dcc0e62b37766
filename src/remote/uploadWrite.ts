// "Upload complete" as a write of the outbox (ARCHITECTURE.md, "Writes"): `POST upload/multipart/{id}/complete` makes
// the file once. Idempotent: the upload ID completes once, so it is found by state (uploadLookup.ts): the upload
// still there means not done, sent again; gone with a file of its name, size and time in its destination means done.
// No `vscode` import.
import * as l10n from '@vscode/l10n';
import type { Clock } from '../api/clock';
import { ApiError } from '../api/errors';
import type { FilesApi } from '../api/files';
import type { FileRecord } from '../api/types';
import type { UploadsApi } from '../api/uploads';
import type { WriteKind } from '../write/kinds';
import { followWrites, type Account, type Outbox } from '../write/outbox';
import type { CompleteContext } from '../transfer/upload';
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
        return { absent: l10n.t('The upload is gone (aborted or expired) and no file of its name is in its folder: upload the file again.') };
      },
    },
    isPayload: isContext,
    send: (record, credentials) => api.uploads.complete(record.payload.uploadId, { credentials }),
    keep: (file) => ({ href: file.href, id: file.id, name: file.name, type: file.type, size: file.size, project: file.project, parent: file.parent }),
    finish: () => undefined,
    describe: (context) => l10n.t('Upload "{0}"', context.name),
  };
}

/** How long the upload waits for the lookup of a lost answer before it reports the file as "being checked". */
export const LOOKUP_WAIT_MS = 30_000;

/**
 * The engine's `complete` through the outbox: resolves with the file made (answered, or found after a lost answer,
 * waited for up to `LOOKUP_WAIT_MS`); rejects `maybeDelivered` while it is still being looked up, and as a refusal
 * when the platform refused it or the lookup showed it cannot be done.
 */
export function completeThroughOutbox(
  outbox: Outbox,
  account: Account,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  waitMs = LOOKUP_WAIT_MS,
): (uploadId: string, context: CompleteContext) => Promise<FileRecord> {
  return async (_uploadId, context) => {
    // Listening from the start: a lookup may finish the write between the send and the wait below.
    const made = new Map<string, FileRecord>();
    const listening = outbox.onDidFinish(({ record, outcome }) => made.set(record.id, outcome as FileRecord));
    try {
      const { records, finished, left } = await followWrites(outbox, () => outbox.submit(UPLOAD_COMPLETE_WRITE, [context], account));
      if (finished[0]) return finished[0].outcome as FileRecord;
      const id = records[0]?.id;
      const current = () => outbox.all().find((r) => r.id === id) ?? left[0];
      const over = () => made.has(id!) || !current() || current()!.state === 'failed' || current()!.state === 'notFound';
      if (id && !over()) {
        await new Promise<void>((resolve) => {
          const done = () => (changes.dispose(), clock.clearTimeout(timer), resolve());
          const changes = outbox.onDidChange(() => over() && done());
          const timer = clock.setTimeout(done, waitMs);
        });
      }
      const file = id ? made.get(id) : undefined;
      if (file) return file;
      const record = current();
      const refused = !record || record.state === 'failed' || record.state === 'notFound';
      throw new ApiError({ kind: refused ? 'http' : 'network', message: record?.note ?? l10n.t('The platform has not answered the completion yet.'), maybeDelivered: !refused });
    } finally {
      listening.dispose();
    }
  };
}
