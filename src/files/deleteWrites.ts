// Delete as writes: of one file (`DELETE /v2/files/{id}`: idempotent but destructive, never sent twice; found by
// state, gone) and of many items or of folders (the async delete, an async file job: jobs/jobWrite.ts); and their
// planning: the question with counts and size, the split at the per-call limit. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { MAX_FILE_JOB_ITEMS } from '../api/fileJobs';
import type { AsyncJob } from '../api/types';
import { asyncJobWrite, type AsyncJobKind, type AsyncJobParts } from '../jobs/jobWrite';
import { WRITE_KINDS } from '../keys/writes';
import { count } from '../util/words';
import type { JobVerdict } from '../write/asyncJobs';
import type { WriteKind } from '../write/kinds';
import type { ManagedItem } from './managedItems';
import { isObject, recordOrGone, text, type FilesWriteApi } from './writeParts';

const deleteOne = (name: string): string => l10n.t('Delete "{0}"', name);

export interface DeletePayload {
  id: string;
  name: string;
}

export function deleteWrite(files: FilesWriteApi): WriteKind<DeletePayload, undefined, { id: string }> {
  return {
    name: WRITE_KINDS.delete,
    idempotent: true,
    // Never sent twice: a DELETE given up on may still act late; it is looked up through the late window first.
    destructive: true,
    identity: {
      by: 'state',
      read: async (record, credentials) => ((await recordOrGone(files, record.payload.id, credentials)) ? { absent: l10n.t('"{0}" is still there.', record.payload.name) } : { found: { id: record.payload.id } }),
    },
    isPayload: (p): p is DeletePayload => isObject(p) && text(p.id) && text(p.name),
    isOutcome: (done): done is { id: string } => isObject(done) && text(done.id),
    send: async (record, credentials) => (await files.delete(record.payload.id, { credentials }), { id: record.payload.id }),
    keep: (done) => ({ id: done.id }),
    doneBy: (error, record) => (error.status === 404 ? { id: record.payload.id } : undefined),
    finish: () => undefined,
    describe: (p) => deleteOne(p.name),
  };
}

export interface AsyncDeletePayload {
  items: { file: string }[];
  /** the items' names, by ID, for the words */
  names: Record<string, string>;
  /** where the items are (their project), for the Data Jobs view's row; absent in records of older versions */
  where?: { label: string; project: string };
}

/** Whether a DELETE job answers for the call, by its results: each deleted record one of the items, as many results as items. */
export function matchDelete(payload: AsyncDeletePayload, job: AsyncJob): JobVerdict {
  const asked = new Set(payload.items.map((i) => i.file.toLowerCase()));
  const results = job.result ?? [];
  if (results.some((r) => r.resource && !asked.has(r.resource.id.toLowerCase()))) return 'no';
  if (results.length < payload.items.length) return job.state === 'FINISHED' && results.length ? 'no' : 'maybe';
  if (results.length > payload.items.length) return 'no';
  return results.some((r) => r.resource) ? 'yes' : 'maybe';
}

/** The async delete of many items, or of folders (`POST /v2/async/files/delete`): its job found among the jobs. */
export function asyncDeleteWrite(parts: AsyncJobParts): AsyncJobKind<AsyncDeletePayload> {
  return asyncJobWrite<AsyncDeletePayload>(
    {
      name: WRITE_KINDS.asyncDelete,
      call: 'delete',
      matches: (record, job) => matchDelete(record.payload, job),
      isPayload: (p): p is AsyncDeletePayload => isObject(p) && Array.isArray(p.items) && p.items.every((i) => isObject(i) && text(i.file)) && isObject(p.names),
      shown: (p) => ({ destination: p.where ?? { label: l10n.t('(unknown project)'), project: '' }, sourceNames: p.names }),
      describe: (p) => (p.items.length === 1 ? deleteOne(Object.values(p.names)[0] ?? p.items[0].file) : l10n.t('Delete {0} items', count(p.items.length))),
      retry: (items, names, job) => ({ items: items.map((i) => ({ file: i.file })), names, ...(job.destination.project ? { where: { label: job.destination.label, project: job.destination.project } } : {}) }),
    },
    parts,
  );
}

/**
 * How a delete goes: one file by the single call; several items, or a folder, by the async delete, split at the
 * platform's per-call limit (250 items: 3 calls).
 */
export function planDelete(items: readonly ManagedItem[], max = MAX_FILE_JOB_ITEMS): { single: ManagedItem } | { jobs: AsyncDeletePayload[] } {
  if (items.length === 1 && !items[0].folder) return { single: items[0] };
  const jobs: AsyncDeletePayload[] = [];
  for (let i = 0; i < items.length; i += max) {
    const part = items.slice(i, i + max);
    const project = part.find((item) => item.project)?.project;
    jobs.push({ items: part.map((item) => ({ file: item.id })), names: Object.fromEntries(part.map((item) => [item.id, item.name])), ...(project ? { where: { label: project, project } } : {}) });
  }
  return { jobs };
}
