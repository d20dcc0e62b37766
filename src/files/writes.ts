// The writes of managing files, each a kind of the one write path (write/outbox.ts) with the identity rule
// ARCHITECTURE.md ("Writes", "The rule of every kind") declares for it: a new folder (found by difference), a rename,
// a change of tags or metadata, a single move and a single delete (found by state: each compares what shows with the
// value asked and the value from before the send, kept in its payload; anything else is someone else's change, which
// the person decides on), and the asynchronous delete and move of many items or of folders (found by difference among
// the jobs, as the copy). What the commands plan before sending (the confirmation's counts, the split at the per-call
// limit, tag edits across a selection) is here too. No `vscode` import.

import * as l10n from '@vscode/l10n';
import { contentsWords, type FolderContents } from './folderContents';
import type { Clock } from '../api/clock';
import { ApiError } from '../api/errors';
import type { BulkFilesApi } from '../api/bulkFiles';
import { MAX_BULK_FILES } from '../api/bulkFiles';
import type { FileJobsApi } from '../api/fileJobs';
import { MAX_FILE_JOB_ITEMS } from '../api/fileJobs';
import { isFileRecord, keptFile, type FilesApi } from '../api/files';
import type { Credentials } from '../api/transport';
import type { AsyncJob, BulkFileItem, FileRecord, MoveItem } from '../api/types';
import { matchCopy } from '../copy/copyWrite';
import type { JobDestination } from '../keys/state';
import { metadataProblem } from '../api/fileRules';
import { count, fileCount, formatSize, itemCount } from '../util/words';
import { asyncJobIdentity, isJob, type JobSnapshot, type JobVerdict } from '../write/asyncJobs';
import { byState, type Lookup, type WriteKind } from '../write/kinds';
import type { Outbox, WriteRecord } from '../write/outbox';
import type { JobTracker } from '../jobs/tracker';
import { NEW_FOLDER_WRITE, newFolderWrite } from '../remote/newFolderWrite';

export const FILE_WRITES = {
  newFolder: NEW_FOLDER_WRITE,
  rename: 'file.rename',
  tags: 'file.tags',
  metadata: 'file.metadata',
  delete: 'file.delete',
  asyncDelete: 'file.asyncDelete',
  move: 'file.move',
  asyncMove: 'file.asyncMove',
  bulkTags: 'file.bulkTags',
} as const;

/** What the kinds call. */
export type FilesWriteApi = Pick<FilesApi, 'get' | 'list' | 'createFolder' | 'update' | 'setTags' | 'delete' | 'move'>;

/** Why a change cannot be sent while signed out. */
export const signInToChange = (): string => l10n.t('Sign in to change files on the platform.');

/** A write the platform refused without saying why. */
export const notTaken = (): string => l10n.t('The platform did not take the change.');

/** "me/p is read only: nothing in it can be changed." */
export const readOnlyWords = (project: string): string => l10n.t('{0} is read only: nothing in it can be changed.', project);
/** '"a.bam" is no longer there.' */
export const noLongerThere = (name: string): string => l10n.t('"{0}" is no longer there.', name);
const moveOne = (name: string, where: string): string => l10n.t('Move "{0}" to {1}', name, where);
const deleteOne = (name: string): string => l10n.t('Delete "{0}"', name);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): value is string => typeof value === 'string';

/** A file's record, or undefined when the platform says it is gone (404). */
async function recordOrGone(files: Pick<FilesApi, 'get'>, id: string, credentials: Credentials): Promise<FileRecord | undefined> {
  try {
    return await files.get(id, { credentials });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}


// --- Rename and tags: they set a value (idempotent); found by the record's state. -------------------------------

export interface RenamePayload {
  id: string;
  name: string;
  /** its name before: still so after a lost answer, it was not renamed; a third name is someone else's */
  oldName: string;
}

export function renameWrite(files: FilesWriteApi): WriteKind<RenamePayload, undefined, FileRecord> {
  return {
    name: FILE_WRITES.rename,
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

export interface TagsPayload {
  id: string;
  name: string;
  /** the whole tag list after the change */
  tags: string[];
  /** the list before it (absent in records of older versions): still so after a lost answer, it was not changed */
  before?: string[];
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((t, i) => t === [...b].sort()[i]);
const isTags = (value: unknown): value is string[] => Array.isArray(value) && value.every(text);
const isTagsPayload = (p: unknown): p is TagsPayload => isObject(p) && text(p.id) && text(p.name) && isTags(p.tags) && (p.before === undefined || isTags(p.before));
const tagsChanged = (tags: readonly string[]): string =>
  tags.length ? l10n.t('Its tags are {0} now: someone else changed them since.', tags.map((t) => `"${t}"`).join(', ')) : l10n.t('It has no tags now: someone else removed them since.');

export function tagsWrite(files: FilesWriteApi): WriteKind<TagsPayload, undefined, string[]> {
  return {
    name: FILE_WRITES.tags,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const now = await recordOrGone(files, record.payload.id, credentials);
        return byState(now && { value: now.tags ?? [], outcome: now.tags ?? [] }, record.payload.tags, record.payload.before, sameTags, {
          notYet: () => l10n.t('Its tags are not changed yet.'),
          changed: tagsChanged,
          gone: noLongerThere(record.payload.name),
        });
      },
    },
    isPayload: isTagsPayload,
    isOutcome: isTags,
    send: (record, credentials) => files.setTags(record.payload.id, record.payload.tags, { credentials }),
    keep: (tags) => tags,
    finish: () => undefined,
    describe: (p) => l10n.t('Tags of "{0}"', p.name),
  };
}

// --- Metadata: the whole set replaced (PUT), idempotent; found by reading the set back. ------------------------------

export interface MetadataPayload {
  id: string;
  name: string;
  /** the whole set after the change (fields left out are removed) */
  metadata: Record<string, string>;
  /** the set before it, as read (absent in records of older versions): still so after a lost answer, it was not replaced */
  before?: Record<string, unknown>;
}

/** Two sets of metadata hold the same fields with the same values (a field empty or null is no field). */
const sameMetadata = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) => {
  const filled = (m: Readonly<Record<string, unknown>>) => Object.entries(m).filter(([, v]) => v !== null && v !== undefined && v !== '');
  const other = new Map(filled(b));
  const set = filled(a);
  return set.length === other.size && set.every(([k, v]) => other.has(k) && JSON.stringify(other.get(k)) === JSON.stringify(v));
};

export function metadataWrite(files: FilesWriteApi & Pick<FilesApi, 'metadata' | 'replaceMetadata'>): WriteKind<MetadataPayload, undefined, Record<string, unknown>> {
  return {
    name: FILE_WRITES.metadata,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        let now: Record<string, unknown> | undefined;
        try {
          now = await files.metadata(record.payload.id, { credentials });
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
        return byState(now && { value: now, outcome: now }, record.payload.metadata, record.payload.before, sameMetadata, {
          notYet: () => l10n.t('Its metadata is not changed yet.'),
          changed: () => l10n.t('Its metadata is neither what it was nor what was saved: someone else changed it since.'),
          gone: noLongerThere(record.payload.name),
        });
      },
    },
    isPayload: (p): p is MetadataPayload => isObject(p) && text(p.id) && text(p.name) && isObject(p.metadata) && Object.values(p.metadata).every(text) && (p.before === undefined || isObject(p.before)),
    isOutcome: isObject,
    send: (record, credentials) => files.replaceMetadata(record.payload.id, record.payload.metadata, { credentials }),
    keep: (metadata) => metadata,
    finish: () => undefined,
    describe: (p) => l10n.t('Metadata of "{0}"', p.name),
  };
}

/**
 * The metadata a person saved as JSON: an object of text values (a field left out, or null, is removed), checked
 * against the platform's rules; or why it would not do, in words.
 */
export function parseMetadata(json: string): { metadata: Record<string, string> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { problem: l10n.t('The metadata is not JSON: {0}', (error as Error).message) };
  }
  if (!isObject(value) || Array.isArray(value)) return { problem: l10n.t('The metadata is a JSON object of fields and their values, as {"sample_id": "S1"}.') };
  const metadata: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null) continue;
    if (typeof v !== 'string') return { problem: l10n.t('The value of "{0}" is not text: put it in quotes ("{1}").', key, JSON.stringify(v)) };
    metadata[key] = v;
  }
  const problem = metadataProblem(metadata);
  return problem ? { problem } : { metadata };
}

// --- Delete of one file: idempotent; found by state (gone); a 404 after an ambiguous try is done. ----------------

export interface DeletePayload {
  id: string;
  name: string;
}

export function deleteWrite(files: FilesWriteApi): WriteKind<DeletePayload, undefined, { id: string }> {
  return {
    name: FILE_WRITES.delete,
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

// --- The async delete of many items or of folders: not idempotent; its job found by difference. -----------------

export interface AsyncDeletePayload {
  items: { file: string }[];
  /** the items' names, by ID, for the words */
  names: Record<string, string>;
  /** where the items are (their project), for the Data Jobs view's row; absent in records of older versions */
  where?: { label: string; project: string };
}

/** What the async delete and move need of the job tracker (jobs/tracker.ts): their jobs are followed there, in Data Jobs. */
export type DeleteJobTracker = Pick<JobTracker, 'add' | 'get' | 'recordedWrites'>;

/** Whether a DELETE job answers for the call, by its results: each deleted record one of the items, as many results as items. */
export function matchDelete(payload: AsyncDeletePayload, job: AsyncJob): JobVerdict {
  const asked = new Set(payload.items.map((i) => i.file.toLowerCase()));
  const results = job.result ?? [];
  if (results.some((r) => r.resource && !asked.has(r.resource.id.toLowerCase()))) return 'no';
  if (results.length < payload.items.length) return job.state === 'FINISHED' && results.length ? 'no' : 'maybe';
  if (results.length > payload.items.length) return 'no';
  return results.some((r) => r.resource) ? 'yes' : 'maybe';
}

export function asyncDeleteWrite(
  jobs: Pick<FileJobsApi, 'submit' | 'get' | 'list'>,
  serverNow: () => number,
  clock: Pick<Clock, 'monotonic'>,
  tracker?: DeleteJobTracker,
): WriteKind<AsyncDeletePayload, JobSnapshot, AsyncJob> {
  return asyncFileJobWrite<AsyncDeletePayload>(
    {
      name: FILE_WRITES.asyncDelete,
      type: 'DELETE',
      call: 'delete',
      matches: matchDelete,
      submit: (jobs, p, credentials) => jobs.submit('delete', p.items, { credentials }),
      isPayload: (p): p is AsyncDeletePayload => isObject(p) && Array.isArray(p.items) && p.items.every((i) => isObject(i) && text(i.file)) && isObject(p.names),
      shown: (p) => ({ destination: p.where ?? { label: l10n.t('(unknown project)'), project: '' }, sourceNames: p.names }),
      describe: (p) => (p.items.length === 1 ? deleteOne(Object.values(p.names)[0] ?? p.items[0].file) : l10n.t('Delete {0} items', count(p.items.length))),
    },
    jobs,
    serverNow,
    clock,
    tracker,
  );
}

// --- Move of one file within its project: idempotent once read; found by state (its folder is the destination). ---

export interface MovePayload {
  id: string;
  name: string;
  /** the folder it is in, and the one it goes to */
  from?: string;
  to: string;
  /** the destination, in words */
  label: string;
}

export function moveWrite(files: FilesWriteApi): WriteKind<MovePayload, undefined, FileRecord> {
  return {
    name: FILE_WRITES.move,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const now = await recordOrGone(files, record.payload.id, credentials);
        return byState(now && { value: now.parent, outcome: now }, record.payload.to, record.payload.from, (a, b) => a === b, {
          notYet: () => l10n.t('"{0}" is still in its folder.', record.payload.name),
          changed: () => l10n.t('"{0}" is now in another folder than the one it was moved to: someone else moved it since.', record.payload.name),
          gone: noLongerThere(record.payload.name),
        });
      },
    },
    isPayload: (p): p is MovePayload => isObject(p) && text(p.id) && text(p.name) && text(p.to) && text(p.label) && (p.from === undefined || text(p.from)),
    isOutcome: isFileRecord,
    send: (record, credentials) => files.move(record.payload.id, { parent: record.payload.to }, { credentials }),
    keep: keptFile,
    finish: () => undefined,
    describe: (p) => moveOne(p.name, p.label),
  };
}

// --- The async move of many items, of folders, or to another project: not idempotent; found among the jobs. ------

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

export function asyncMoveWrite(
  jobs: Pick<FileJobsApi, 'submit' | 'get' | 'list'>,
  serverNow: () => number,
  clock: Pick<Clock, 'monotonic'>,
  tracker?: DeleteJobTracker,
): WriteKind<AsyncMovePayload, JobSnapshot, AsyncJob> {
  return asyncFileJobWrite<AsyncMovePayload>(
    {
      name: FILE_WRITES.asyncMove,
      type: 'MOVE',
      call: 'move',
      matches: matchMove,
      submit: (jobs, p, credentials) => jobs.submit('move', p.items, { credentials }),
      isPayload: (p): p is AsyncMovePayload =>
        isObject(p) && Array.isArray(p.items) && p.items.every((i) => isObject(i) && text(i.file)) && isObject(p.destination) && text(p.destination.label) && text(p.destination.project),
      shown: (p) => ({ destination: p.destination, sourceNames: p.sourceNames }),
      describe: (p) =>
        p.items.length === 1
          ? moveOne(p.sourceNames?.[p.items[0].file] ?? p.items[0].file, p.destination.label)
          : l10n.t('Move {0} items to {1}', count(p.items.length), p.destination.label),
    },
    jobs,
    serverNow,
    clock,
    tracker,
  );
}

/** What tells the asynchronous delete and move apart; the rest of their kind is one (asyncFileJobWrite). */
interface AsyncFileJobSpec<P extends { items: { file: string }[] }> {
  name: string;
  type: 'DELETE' | 'MOVE';
  call: 'delete' | 'move';
  /** Whether a job of the type answers for the call, by its results. */
  matches(payload: P, job: AsyncJob): JobVerdict;
  isPayload(p: unknown): p is P;
  submit(jobs: Pick<FileJobsApi, 'submit'>, payload: P, credentials: Credentials): Promise<AsyncJob>;
  /** What its Data Jobs row shows: where the items go (or are), and their names. */
  shown(payload: P): { destination: JobDestination; sourceNames?: Record<string, string> };
  describe(payload: P): string;
}

/**
 * An asynchronous file job as a write: not idempotent (a second call acts twice), so its job is found by difference
 * among the jobs (write/asyncJobs.ts); once made, the tracker follows it to its end in Data Jobs.
 */
function asyncFileJobWrite<P extends { items: { file: string }[] }>(
  spec: AsyncFileJobSpec<P>,
  jobs: Pick<FileJobsApi, 'submit' | 'get' | 'list'>,
  serverNow: () => number,
  clock: Pick<Clock, 'monotonic'>,
  tracker: DeleteJobTracker | undefined,
): WriteKind<P, JobSnapshot, AsyncJob> {
  return {
    name: spec.name,
    idempotent: false,
    identity: asyncJobIdentity<P>({
      type: spec.type,
      jobs: { list: (page) => jobs.list(page), get: (id, options) => jobs.get(spec.call, id, options) },
      clock,
      serverNow,
      madeByAnother: madeByAnother(tracker),
      itemCount: (p) => p.items.length,
      matches: async (record: WriteRecord<P, JobSnapshot, AsyncJob>, job) => spec.matches(record.payload, job),
    }),
    isPayload: spec.isPayload,
    isOutcome: isJob,
    send: (record, credentials) => spec.submit(jobs, record.payload, credentials),
    keep: keepJob,
    finish: (record, job, found) => {
      if (!tracker || tracker.get(job.id)) return;
      const { destination, sourceNames } = spec.shown(record.payload);
      tracker.add(job, { type: spec.type, items: record.payload.items, destination, sourceNames, group: record.group, adopted: found || undefined, account: record.account, write: record.id });
    },
    describe: spec.describe,
  };
}

/** A job the tracker follows for another write is that write's. */
function madeByAnother(tracker: DeleteJobTracker | undefined): (id: string, record: WriteRecord) => boolean {
  return (id, record) => {
    const made = tracker?.recordedWrites();
    return !!made?.has(id) && made.get(id) !== record.id;
  };
}

function keepJob(job: AsyncJob): AsyncJob {
  const result = job.result?.map((r) => (r.resource ? { resource: keptFile(r.resource) } : { error: r.error! }));
  return { id: job.id, type: job.type, state: job.state, total_files: job.total_files, completed_files: job.completed_files, failed_files: job.failed_files, started_on: job.started_on, finished_on: job.finished_on, result };
}

// --- Tags of many files in one bulk edit (100 a call): idempotent (sets each list); found by reading them back. ---

export interface BulkTagsPayload {
  /** each file's whole tag list after the change */
  items: TagsPayload[];
}

export function bulkTagsWrite(bulk: Pick<BulkFilesApi, 'get' | 'edit'>): WriteKind<BulkTagsPayload, undefined, BulkFileItem[]> {
  return {
    name: FILE_WRITES.bulkTags,
    idempotent: true,
    identity: {
      by: 'state',
      /**
       * File by file, by the rule of the tags of one file: those done are left alone, those still with their tags from
       * before are sent again (only they: the platform may have applied a call to some of its files), and one changed
       * by someone else since is not overwritten: the person decides for those. A file gone has nothing to set.
       */
      async read(record, credentials): Promise<Lookup<BulkFileItem[], BulkTagsPayload>> {
        const now = await bulk.get(record.payload.items.map((i) => i.id), { credentials });
        const there = new Map(now.filter((r) => r.resource).map((r) => [r.resource!.id.toLowerCase(), r.resource!.tags ?? []]));
        if (!there.size) return { unknown: l10n.t('None of the {0} files can be read.', count(now.length)) };
        const notYet: TagsPayload[] = [];
        const changed: TagsPayload[] = [];
        for (const item of record.payload.items) {
          const current = there.get(item.id.toLowerCase());
          if (current === undefined || sameTags(current, item.tags)) continue;
          (item.before !== undefined && sameTags(current, item.before) ? notYet : changed).push(item);
        }
        if (changed.length) {
          const named = changed.length === 1 ? l10n.t('The tags of "{0}" were changed by someone else since.', changed[0].name) : l10n.t('The tags of {0} of the files were changed by someone else since.', count(changed.length));
          return { changed: named, rest: { items: [...notYet, ...changed] } };
        }
        if (notYet.length) return { absent: l10n.t('The tags of {0} of the files are not changed yet: only those are sent again.', count(notYet.length)), rest: { items: notYet } };
        return { found: now };
      },
    },
    isPayload: (p): p is BulkTagsPayload => isObject(p) && Array.isArray(p.items) && p.items.length > 0 && p.items.every(isTagsPayload),
    isOutcome: (items): items is BulkFileItem[] => Array.isArray(items),
    send: (record, credentials) => bulk.edit(record.payload.items.map((i) => ({ id: i.id, tags: i.tags })), { credentials }),
    keep: (items) => items.map((r) => (r.resource ? { resource: { id: r.resource.id, name: r.resource.name, tags: r.resource.tags } as FileRecord } : { error: r.error! })),
    finish: () => undefined,
    describe: (p) => l10n.t('Tags of {0} files', count(p.items.length)),
  };
}

/** Tags of many files: one bulk edit per 100 files (the platform's limit per call). */
export function planBulkTags(payloads: readonly TagsPayload[], max = MAX_BULK_FILES): BulkTagsPayload[] {
  const calls: BulkTagsPayload[] = [];
  for (let i = 0; i < payloads.length; i += max) calls.push({ items: payloads.slice(i, i + max) });
  return calls;
}

/**
 * The files a bulk edit did not leave with the tags asked for, though it answered for them (a platform that merges
 * the tags given into the list rather than replacing it: a tag removed stays): sent again one by one, with PUT.
 */
export function tagsNotTaken(payloads: readonly TagsPayload[], answered: readonly BulkFileItem[]): TagsPayload[] {
  const now = new Map(answered.filter((r) => r.resource).map((r) => [r.resource!.id.toLowerCase(), r.resource!.tags]));
  return payloads.filter((p) => {
    const tags = now.get(p.id.toLowerCase());
    return tags !== undefined && !sameTags(tags ?? [], p.tags);
  });
}

/** Registers every kind of this file with the outbox. */
export function registerFileWrites(
  outbox: Pick<Outbox, 'register'>,
  client: {
    files: FilesWriteApi & Pick<FilesApi, 'metadata' | 'replaceMetadata'>;
    fileJobs: Pick<FileJobsApi, 'submit' | 'get' | 'list'>;
    bulkFiles: Pick<BulkFilesApi, 'get' | 'edit'>;
    budget: { serverClock: { now(): number } };
  },
  clock: Pick<Clock, 'monotonic'>,
  tracker?: DeleteJobTracker,
): void {
  outbox.register(newFolderWrite(client.files));
  outbox.register(renameWrite(client.files));
  outbox.register(tagsWrite(client.files));
  outbox.register(metadataWrite(client.files));
  outbox.register(deleteWrite(client.files));
  outbox.register(asyncDeleteWrite(client.fileJobs, () => client.budget.serverClock.now(), clock, tracker));
  outbox.register(moveWrite(client.files));
  outbox.register(asyncMoveWrite(client.fileJobs, () => client.budget.serverClock.now(), clock, tracker));
  outbox.register(bulkTagsWrite(client.bulkFiles));
}

// --- Planning, before anything is sent. --------------------------------------------------------------------------

/** An item a command acts on, with what its row knew. */
export interface ManagedItem {
  id: string;
  name: string;
  folder: boolean;
  size?: number;
  /** its project's ID, and whether the caller may write to it (false: read only) */
  project?: string;
  writable?: boolean;
  /** the folder it is in, when known */
  parent?: string;
}

/** Why a delete (or a rename, a move) cannot be sent: a project's root folder, or a read-only project. */
export function refusal(items: readonly ManagedItem[], rootFolders: ReadonlySet<string>): string | undefined {
  const root = items.find((i) => rootFolders.has(i.id.toLowerCase()));
  if (root) return l10n.t('"{0}" is a project\'s root folder: it cannot be deleted, renamed or moved.', root.name);
  const readOnly = items.find((i) => i.writable === false);
  if (readOnly) return readOnlyWords(readOnly.project ?? readOnly.name);
  return undefined;
}

/** An item's name in quotes, as the questions and the outcomes say it. */
const quotedName = (name: string): string => l10n.t('"{0}"', name);

/** What a move or a delete was done to, in words: the one item's name, else "2 files" (files only) or "3 items". */
export function doneWhat(n: number, items: readonly ManagedItem[]): string {
  if (n === 1 && items.length === 1) return quotedName(items[0].name);
  return items.every((i) => !i.folder) ? fileCount(n) : itemCount(n);
}

/** "Delete 3 folders and 214 files, 38.2 GB? This cannot be undone." (folders' contents not counted: not loaded). */
export function deleteQuestion(items: readonly ManagedItem[], contents?: FolderContents): string {
  // One folder, counted: what goes with it is said.
  if (items.length === 1 && items[0].folder && contents) {
    return contents.complete && !contents.files && !contents.folders
      ? l10n.t('Delete {0}? It is empty. This cannot be undone.', quotedName(items[0].name))
      : l10n.t('Delete {0} and everything in it ({1})? This cannot be undone.', quotedName(items[0].name), contentsWords(contents));
  }
  const folders = items.filter((i) => i.folder).length;
  const files = items.length - folders;
  const bytes = items.reduce((sum, i) => sum + (!i.folder && typeof i.size === 'number' ? i.size : 0), 0);
  const what =
    items.length === 1
      ? quotedName(items[0].name)
      : [folders === 1 ? l10n.t('1 folder') : folders ? l10n.t('{0} folders', count(folders)) : undefined, files ? fileCount(files) : undefined]
          .filter(Boolean)
          .join(l10n.t(' and '));
  const size = bytes > 0 ? formatSize(bytes) : undefined;
  const inside = folders === 1 ? l10n.t(' Everything in the folder goes too.') : folders ? l10n.t(' Everything in the folders goes too.') : '';
  return size
    ? l10n.t('Delete {0}, {1}?{2} This cannot be undone.', what, size, inside)
    : l10n.t('Delete {0}?{1} This cannot be undone.', what, inside);
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

/** Why a typed tag would not do, or undefined: empty, or a comma in it (taken for two tags by people and tools alike). */
export function tagProblem(tag: string): string | undefined {
  if (tag.trim() === '') return l10n.t('A tag cannot be empty.');
  if (tag.includes(',')) return l10n.t('A tag cannot contain a comma ("{0}"): add each tag on its own.', tag);
  return undefined;
}

/**
 * Tags across a selection: each file's new list is its own with the tags to add and without those to remove; files
 * whose list does not change are left out (nothing sent for them).
 */
export function planTags(files: readonly { id: string; name: string; tags: readonly string[] }[], add: readonly string[], remove: readonly string[]): TagsPayload[] {
  const removing = new Set(remove);
  return files.flatMap((file) => {
    const next = [...new Set([...file.tags.filter((t) => !removing.has(t)), ...add.filter((t) => !removing.has(t))])];
    return sameTags(next, file.tags) ? [] : [{ id: file.id, name: file.name, tags: next, before: [...file.tags] }];
  });
}

/**
 * The tags checked in Edit Tags… once the typed text changed: those checked before that are still offered, and the
 * new tag typed (checked as it appears: typing a tag and pressing Enter adds it; unchecked, it is left out).
 */
export function checkedTags(offered: readonly string[], before: readonly string[], typed: string | undefined): string[] {
  return offered.filter((tag) => before.includes(tag) || (tag === typed && !tagProblem(tag)));
}

/** The tags in use across files, most used first, each with how many of the files have it. */
export function tagsInUse(files: readonly { tags: readonly string[] }[]): { tag: string; files: number }[] {
  const counts = new Map<string, number>();
  for (const file of files) for (const tag of new Set(file.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].map(([tag, files]) => ({ tag, files })).sort((a, b) => b.files - a.files || a.tag.localeCompare(b.tag));
}
