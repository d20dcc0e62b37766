// Rename as a kind of write: `PATCH /v2/files/{id}` sets a name (idempotent), found by state: the name asked shows,
// done; the name from before (kept in the payload), not done; a third name, someone else's change. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { isFileRecord, keptFile } from '../api/files';
import type { FileRecord } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import { byState, type WriteKind } from '../write/kinds';
import { noLongerThere } from './managedItems';
import { isObject, recordOrGone, text, type FilesWriteApi } from './writeParts';

export interface RenamePayload {
  id: string;
  name: string;
  /** its name before: still so after a lost answer, it was not renamed; a third name is someone else's */
  oldName: string;
}

export function renameWrite(files: FilesWriteApi): WriteKind<RenamePayload, undefined, FileRecord> {
  return {
    name: WRITE_KINDS.rename,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const now = await recordOrGone(files, record.payload.id, credentials);
        return byState(now && { value: now.name, outcome: now }, record.payload.name, record.payload.oldName, (a, b) => a === b, {
          notYet: (name) => l10n.t('It is still named "{0}".', name),
          changed: (name) => l10n.t('It is named "{0}" now: someone else renamed it since.', name),
          gone: noLongerThere(record.payload.oldName),
        });
      },
    },
    isPayload: (p): p is RenamePayload => isObject(p) && text(p.id) && text(p.name) && text(p.oldName),
    isOutcome: isFileRecord,
    send: (record, credentials) => files.update(record.payload.id, { name: record.payload.name }, { credentials }),
    keep: keptFile,
    finish: () => undefined,
    describe: (p) => l10n.t('Rename "{0}" to "{1}"', p.oldName, p.name),
  };
}
