// "New folder" as a write of the outbox (ARCHITECTURE.md, "Writes"): `POST /v2/files` with `type: folder`. Not
// idempotent (a second makes another folder, or is refused 409), so found by difference: a folder of that name there
// that was not in the snapshot. Made from New Folder… (files/) and for each folder an upload brings (the upload
// engine's `ensureFolder`, uploadWrite.ts). No `vscode` import.
import * as l10n from '@vscode/l10n';
import { isFileRecord, keptFile, type FileLocation, type FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { FileRecord } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import { appearedSince, type Lookup, type WriteKind } from '../write/kinds';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): value is string => typeof value === 'string';

export interface NewFolderPayload {
  name: string;
  where: FileLocation;
  /** where, in words ("me/p", "reads") */
  label: string;
}

export function newFolderWrite(files: Pick<FilesApi, 'list' | 'createFolder'>): WriteKind<NewFolderPayload, string[], FileRecord> {
  const named = (p: NewFolderPayload, credentials: Credentials) => files.list(p.where, { name: p.name, limit: 100, credentials });
  return {
    name: WRITE_KINDS.newFolder,
    idempotent: false,
    identity: {
      by: 'difference',
      snapshot: async (record, credentials) => (await named(record.payload, credentials)).items.map((f) => f.id),
      isSnapshot: (s): s is string[] => Array.isArray(s) && s.every(text),
      async find(record, credentials, taken): Promise<Lookup<FileRecord>> {
        const listed = (await named(record.payload, credentials)).items.filter((f) => f.type === 'folder' && f.name === record.payload.name);
        const made = appearedSince(listed, new Set(record.snapshot), taken, (f) => f.id);
        return made.length ? { found: made[0] } : { absent: l10n.t('No new folder "{0}" shows there.', record.payload.name) };
      },
      madeId: (folder) => folder.id,
    },
    isPayload: (p): p is NewFolderPayload => isObject(p) && text(p.name) && text(p.label) && isObject(p.where) && (text(p.where.project) || text(p.where.parent)),
    send: (record, credentials) => files.createFolder(record.payload.name, record.payload.where, { credentials }),
    keep: keptFile,
    isOutcome: isFileRecord,
    finish: () => undefined,
    describe: (p) => l10n.t('New folder "{0}" in {1}', p.name, p.label),
  };
}
