// Move as writes: of one file within its project (`POST /v2/files/{id}/actions/move`: idempotent once read; found by
// state, its folder the destination) and of many items, of folders, or to another project (the async move, an async
// file job: jobs/jobWrite.ts). Planned by files/movePlan.ts. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { isFileRecord, keptFile } from '../api/files';
import type { AsyncJob, FileRecord, MoveItem } from '../api/types';
import { matchCopy } from '../copy/copyWrite';
import { asyncJobWrite, type AsyncJobKind, type AsyncJobParts } from '../jobs/jobWrite';
import type { JobDestination } from '../keys/state';
import { WRITE_KINDS } from '../keys/writes';
import { count } from '../util/words';
import type { JobVerdict } from '../write/asyncJobs';
import { byState, type WriteKind } from '../write/kinds';
import { noLongerThere } from './managedItems';
import { isObject, recordOrGone, text, type FilesWriteApi } from './writeParts';

const moveOne = (name: string, where: string): string => l10n.t('Move "{0}" to {1}', name, where);

export interface MovePayload {
  id: string;
  name: string;
  /** the folder it is in, and the one it goes to */
  from?: string;
  to: string;
  /** the name it takes there, when it changes: moved and renamed by the one call, never half done */
  newName?: string;
  /** the destination, in words */
  label: string;
}

/** Where a file is, by its folder and (when the move renames it) its name: what a move sets. */
interface Place {
  parent?: string;
  name: string;
}

export function moveWrite(files: FilesWriteApi): WriteKind<MovePayload, undefined, FileRecord> {
  return {
    name: WRITE_KINDS.move,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const { payload } = record;
        const now = await recordOrGone(files, payload.id, credentials);
        // The name counts only when the move renames: a move of an older version's record set only the folder.
        const same = (a: Place, b: Place) => a.parent === b.parent && (payload.newName === undefined || a.name === b.name);
        const before = payload.from === undefined ? undefined : { parent: payload.from, name: payload.name };
        return byState<Place, FileRecord>(now && { value: { parent: now.parent, name: now.name }, outcome: now }, { parent: payload.to, name: payload.newName ?? payload.name }, before, same, {
          notYet: () => l10n.t('"{0}" is still in its folder.', payload.name),
          changed: (place) =>
            place.parent === payload.to
              ? l10n.t('"{0}" is in the folder it was moved to, named "{1}": someone else renamed it since.', payload.name, place.name)
              : l10n.t('"{0}" is now in another folder than the one it was moved to: someone else moved it since.', payload.name),
          gone: noLongerThere(payload.name),
        });
      },
    },
    isPayload: (p): p is MovePayload => isObject(p) && text(p.id) && text(p.name) && text(p.to) && text(p.label) && (p.from === undefined || text(p.from)) && (p.newName === undefined || text(p.newName)),
    isOutcome: isFileRecord,
    send: (record, credentials) => files.move(record.payload.id, { parent: record.payload.to, ...(record.payload.newName === undefined ? {} : { name: record.payload.newName }) }, { credentials }),
    keep: keptFile,
    finish: () => undefined,
    describe: (p) => moveOne(p.name, p.label),
  };
}

/** The copy's shape (items, where to, the sources' names): a MOVE job reads as a COPY job does. */
export interface AsyncMovePayload {
  items: MoveItem[];
  destination: JobDestination;
  sourceNames?: Record<string, string>;
}

/**
 * Whether a MOVE job answers for the call, item by item in request order, as a copy's (the moved record in the
 * destination, under its name or `N_<name>`); a moved file keeps its ID, which confirms it as well.
 */
export function matchMove(payload: AsyncMovePayload, job: AsyncJob): JobVerdict {
  const results = job.result ?? [];
  if (results.some((r, i) => r.resource && i < payload.items.length && r.resource.id.toLowerCase() !== payload.items[i].file.toLowerCase() && r.resource.type !== 'folder')) return 'no';
  return matchCopy(payload, payload.sourceNames ?? {}, job);
}

/** The async move of many items, of folders, or to another project (`POST /v2/async/files/move`): its job found among the jobs. */
export function asyncMoveWrite(parts: AsyncJobParts): AsyncJobKind<AsyncMovePayload> {
  return asyncJobWrite<AsyncMovePayload>(
    {
      name: WRITE_KINDS.asyncMove,
      call: 'move',
      matches: (record, job) => matchMove(record.payload, job),
      isPayload: (p): p is AsyncMovePayload =>
        isObject(p) && Array.isArray(p.items) && p.items.every((i) => isObject(i) && text(i.file)) && isObject(p.destination) && text(p.destination.label) && text(p.destination.project),
      shown: (p) => ({ destination: p.destination, sourceNames: p.sourceNames }),
      describe: (p) =>
        p.items.length === 1
          ? moveOne(p.sourceNames?.[p.items[0].file] ?? p.items[0].file, p.destination.label)
          : l10n.t('Move {0} items to {1}', count(p.items.length), p.destination.label),
      retry: (items, names, job) => ({ items, destination: job.destination, sourceNames: names }),
    },
    parts,
  );
}
