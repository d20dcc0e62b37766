// Saving a file of the `sevenbridges:` file system as writes of the outbox (ARCHITECTURE.md, "Writes"): a new version
// of a file (`file.save`: uploaded with `?overwrite=true`) or a new file (`file.new`), each made by its upload's
// completion and found, after a lost answer, as every completion is (uploadWrite.ts): the upload gone and the file of
// its name and size made since it began there → done, never a second version. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { WRITE_KINDS } from '../keys/writes';
import type { CompletionTarget } from '../transfer/fileUploads';
import type { WriteKind } from '../write/kinds';
import type { FileRecord } from '../api/types';
import { completionWrite, isCompletionTarget, type UploadWriteApi } from './uploadWrite';

export interface SavePayload extends CompletionTarget {
  /** The file's place, in words (`/me/p/notes/sheet.csv`). */
  path: string;
}

const isSavePayload = (p: unknown): p is SavePayload => isCompletionTarget(p) && typeof (p as Partial<SavePayload>).path === 'string';

export function fileSaveWrite(api: UploadWriteApi): WriteKind<SavePayload, undefined, FileRecord> {
  return completionWrite(api, { name: WRITE_KINDS.save, isPayload: isSavePayload, describe: (p) => l10n.t('Save "{0}"', p.path) });
}

export function newFileWrite(api: UploadWriteApi): WriteKind<SavePayload, undefined, FileRecord> {
  return completionWrite(api, { name: WRITE_KINDS.newFile, isPayload: isSavePayload, describe: (p) => l10n.t('New file "{0}"', p.path) });
}
