// Every key the extension keeps in VS Code's global or workspace state (Memento), with the shape of its value and
// the one reader that checks what is stored (it may come from an older version, another window, or a hand edit):
// the owners read and write through `readState` / `writeState`, never with a cast. `migrateState` brings what older
// versions stored to STATE_VERSION when the extension starts. test/unit/keys/state.test.ts keeps the keys apart.
// No `vscode` import.
import type { CopyItem, CopyItemResult, CopyJobState, TaskStatus } from '../api/types';
import type { StateStore } from '../util/stateStore';

export type StateScope = 'global' | 'workspace';

export interface StateKey<T> {
  readonly key: string;
  readonly scope: StateScope;
  /** What is stored, as this version reads it (entries it cannot read dropped); undefined when nothing of it reads. */
  read(stored: unknown): T | undefined;
}

// ---- The shapes ----------------------------------------------------------------------------------------------

export type TimePreset = 'hour' | 'day' | 'week' | 'month';
/** A time filter: a preset relative to now (re-evaluated at each request), or fixed bounds in one of the API's three forms. */
export type TimeRange = { preset: TimePreset } | { from?: string; to?: string };

/** The Tasks view's filter as stored; tasks/filterModel.ts checks what the values mean (IDs, ranges). */
export interface TaskFilter {
  /** Statuses to show; absent or empty shows every group. */
  statuses?: TaskStatus[];
  project?: string;
  /** A batch parent: its children only. The name is kept for the description. */
  parent?: { id: string; name?: string };
  created?: TimeRange;
  started?: TimeRange;
  ended?: TimeRange;
  /** A set of tasks made together (a sample sheet's): those only. The name is the sheet's, for the description. */
  set?: { name: string; ids: string[] };
}

/** A task watched to be told when it ends. */
export interface WatchedTask {
  id: string;
  name: string;
  endpoint: string;
  /** epoch ms */
  since: number;
  /** The status last seen. */
  status?: string;
}

/** A Re-run Failed whose new tasks are followed until all have ended, to say once how they ended (tasks/rerunFailed.ts). */
export interface StoredRerunWatch {
  /** The watch's own ID. */
  id: string;
  /** The account (`endpoint#username`) the new tasks belong to: only that account follows them. */
  account: string;
  /** The batch parent's name, when the re-run was of one batch's children. */
  of?: string;
  /** The sample sheet's name, when the tasks were made by Run for Each Row… (not re-runs). */
  sheet?: string;
  /** The new tasks not ended yet. */
  open: string[];
  /** How many of the others ended, and how. */
  ended: { completed: number; failed: number; aborted: number };
}

/** Where a copy job copies to, as shown to a person and as sent. */
export interface JobDestination {
  label: string;
  project: string;
  parent?: string;
}

/**
 * What the person chose when the job was sent, which Retry Failed Items sends again: an import's answer to a name
 * taken and whether a folder keeps its structure, an export's copy only.
 */
export interface JobChoices {
  onClash?: 'autorename' | 'overwrite' | 'fail';
  keepFolders?: boolean;
  copyOnly?: boolean;
}

/** An asynchronous file job (a copy, a move, a delete) as the extension remembers it. */
export interface TrackedJob {
  id: string;
  /** The job's type as the platform names it (`COPY`, `MOVE`, `DELETE`); absent in records of older versions: a copy. */
  type?: string;
  /**
   * The account (`endpoint#username`) the job runs in: only that account asks about it. Absent only in records
   * of older versions, which belong to the first account signed in on their `endpoint` (jobs/tracker.ts claims them).
   */
  account?: string;
  /** The platform (API endpoint) of a record of an older version. */
  endpoint?: string;
  submittedAt: number;
  items: CopyItem[];
  destination: JobDestination;
  /** An import's or export's choices (none in records of older versions: the platform's defaults were sent again). */
  choices?: JobChoices;
  /** Names of the sources by ID, when known (from the files view or a task's outputs). */
  sourceNames?: Record<string, string>;
  /** The outbox group of the request: the jobs of one copy split into several requests share it. */
  group?: string;
  /** `UNKNOWN` once the platform no longer knows the job (details expire about a month after it finishes). */
  state: CopyJobState | 'UNKNOWN';
  total?: number;
  completed?: number;
  failed?: number;
  result?: CopyItemResult[];
  startedOn?: string;
  finishedOn?: string;
  finishedAt?: number;
  /** The job was found on the platform after a submission whose answer was lost. */
  adopted?: boolean;
  /** The outbox write that made it: no other write's lookup may adopt it. */
  write?: string;
  /** The user has seen the outcome (opened the jobs list): the status bar no longer shows it. */
  acknowledged?: boolean;
  /** A GET was made after it finished (so its per-item results are as complete as the platform has them). */
  detailsTried?: boolean;
  /** The finish was announced (onDidFinish). */
  notified?: boolean;
  lastError?: string;
}

export interface StoredCopyJobs {
  version: 1;
  jobs: TrackedJob[];
}

// ---- The readers -----------------------------------------------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const optional = (value: unknown, is: (v: unknown) => boolean): boolean => value === undefined || is(value);

/** The entries of a list that read; undefined when it is not a list. */
function listOf<T>(value: unknown, read: (entry: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map(read).filter((entry): entry is T => entry !== undefined);
}

const PRESETS: readonly string[] = ['hour', 'day', 'week', 'month'];
const STATUSES: readonly string[] = ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'];

function readRange(value: unknown): TimeRange | undefined {
  if (!isObject(value)) return undefined;
  if (isString(value.preset) && PRESETS.includes(value.preset)) return { preset: value.preset as TimePreset };
  const from = isString(value.from) ? value.from : undefined;
  const to = isString(value.to) ? value.to : undefined;
  return from !== undefined || to !== undefined ? { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) } : undefined;
}

function readTaskFilter(value: unknown): TaskFilter | undefined {
  if (!isObject(value)) return undefined;
  const filter: TaskFilter = {};
  const statuses = listOf(value.statuses, (s) => (isString(s) && STATUSES.includes(s) ? (s as TaskStatus) : undefined));
  if (statuses?.length) filter.statuses = statuses;
  if (isString(value.project)) filter.project = value.project;
  const parent = value.parent;
  if (isObject(parent) && isString(parent.id)) filter.parent = { id: parent.id, ...(isString(parent.name) ? { name: parent.name } : {}) };
  for (const field of ['created', 'started', 'ended'] as const) {
    const range = readRange(value[field]);
    if (range) filter[field] = range;
  }
  const set = value.set;
  const ids = isObject(set) && isString(set.name) ? listOf(set.ids, (s) => (isString(s) ? s : undefined)) : undefined;
  if (isObject(set) && isString(set.name) && ids?.length) filter.set = { name: set.name, ids };
  return filter;
}

function readWatched(value: unknown): WatchedTask | undefined {
  if (!isObject(value) || !isString(value.id) || !isString(value.endpoint)) return undefined;
  return {
    id: value.id,
    name: isString(value.name) && value.name ? value.name : value.id,
    endpoint: value.endpoint,
    since: typeof value.since === 'number' ? value.since : 0,
    ...(isString(value.status) ? { status: value.status } : {}),
  };
}

function readCopyItem(value: unknown): CopyItem | undefined {
  if (!isObject(value) || !isString(value.file)) return undefined;
  return { file: value.file, ...(isString(value.parent) ? { parent: value.parent } : {}), ...(isString(value.project) ? { project: value.project } : {}), ...(isString(value.name) ? { name: value.name } : {}) };
}

function readRerunWatch(value: unknown): StoredRerunWatch | undefined {
  if (!isObject(value) || !isString(value.id) || !isString(value.account) || !optional(value.of, isString) || !optional(value.sheet, isString)) return undefined;
  const open = listOf(value.open, (s) => (isString(s) ? s : undefined));
  const ended = isObject(value.ended) ? value.ended : {};
  const n = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
  if (!open) return undefined;
  return { id: value.id, account: value.account, ...(isString(value.of) ? { of: value.of } : {}), ...(isString(value.sheet) ? { sheet: value.sheet } : {}), open, ended: { completed: n(ended.completed), failed: n(ended.failed), aborted: n(ended.aborted) } };
}

/** A job record whose fields the views and the tracker use have their types; its other fields are kept as stored. */
function readJob(value: unknown): TrackedJob | undefined {
  if (!isObject(value) || !isString(value.id) || !isString(value.state) || typeof value.submittedAt !== 'number') return undefined;
  const destination = value.destination;
  if (!isObject(destination) || !isString(destination.label) || !isString(destination.project)) return undefined;
  const items = listOf(value.items, readCopyItem);
  if (!items || items.length !== (value.items as unknown[]).length) return undefined;
  if (!optional(value.account, isString) || !optional(value.type, isString) || !optional(value.result, Array.isArray)) return undefined;
  for (const field of ['total', 'completed', 'failed', 'finishedAt'] as const) if (!optional(value[field], (v) => typeof v === 'number')) return undefined;
  const { choices, ...rest } = value as unknown as TrackedJob;
  const kept = readJobChoices(choices);
  return { ...rest, items, destination: { label: destination.label, project: destination.project, ...(isString(destination.parent) ? { parent: destination.parent } : {}) }, ...(kept ? { choices: kept } : {}) };
}

/** A job's choices, each kept only when it reads (a hand edit or another version's value is dropped, not sent). */
function readJobChoices(value: unknown): JobChoices | undefined {
  if (!isObject(value)) return undefined;
  const onClash = value.onClash === 'autorename' || value.onClash === 'overwrite' || value.onClash === 'fail' ? value.onClash : undefined;
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  const choices: JobChoices = { ...(onClash ? { onClash } : {}), ...(flag(value.keepFolders) !== undefined ? { keepFolders: flag(value.keepFolders) } : {}), ...(flag(value.copyOnly) !== undefined ? { copyOnly: flag(value.copyOnly) } : {}) };
  return Object.keys(choices).length ? choices : undefined;
}

/** Where a CWL file of the workspace goes when pushed: an app (`owner/project/app`), and the revision it was last pulled from or pushed as. */
export interface AppFile {
  app: string;
  revision: number;
}

function readAppFiles(value: unknown): Record<string, AppFile> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, AppFile> = {};
  for (const [file, entry] of Object.entries(value)) {
    if (isObject(entry) && isString(entry.app) && entry.app.split('/').length === 3 && typeof entry.revision === 'number' && Number.isInteger(entry.revision) && entry.revision >= 0) out[file] = { app: entry.app, revision: entry.revision };
  }
  return out;
}

// ---- The table -------------------------------------------------------------------------------------------------

const key = <T>(name: string, scope: StateScope, read: (stored: unknown) => T | undefined): StateKey<T> => ({ key: name, scope, read });
const strings = (value: unknown): string[] | undefined => listOf(value, (s) => (isString(s) ? s : undefined));

export const STATE = {
  /** The Tasks view's filter (tasks/filterModel.ts). */
  taskFilter: key<TaskFilter>('sevenbridges.tasks.filter', 'workspace', readTaskFilter),
  /** Which status groups and batch parents are open in the Tasks view (tasks/taskTree.ts). */
  expandedTaskRows: key<string[]>('sevenbridges.tasks.expanded', 'workspace', strings),
  /** Tasks watched to be told when they end, every window's (tasks/watcher.ts). */
  watchedTasks: key<WatchedTask[]>('sevenbridges.tasks.watched', 'global', (value) => listOf(value, readWatched)),
  /** Re-runs of failed tasks followed to their end, every window's and account's (tasks/rerunFailed.ts). */
  rerunWatches: key<StoredRerunWatch[]>('sevenbridges.tasks.rerunWatches', 'global', (value) => listOf(value, readRerunWatch)),
  /** The data jobs followed (copies, moves, deletes), every window's (jobs/tracker.ts). The key keeps its first name. */
  copyJobs: key<StoredCopyJobs>('sevenbridges.copyJobs', 'global', (value) => {
    const jobs = isObject(value) ? listOf(value.jobs, readJob) : undefined;
    return jobs ? { version: 1, jobs } : undefined;
  }),
  /** The local folder Download… offered last, per workspace (remote/download.ts). */
  downloadFolder: key<string>('sevenbridges.files.downloadFolder', 'workspace', (value) => (isString(value) && value.length > 0 ? value : undefined)),
  /** The app each CWL file of the workspace was last pulled into or pushed to, by its path in the workspace, and that revision (apps/commands.ts). */
  appFiles: key<Record<string, AppFile>>('sevenbridges.apps.files', 'workspace', readAppFiles),
  /** The custom endpoints that have a token in secret storage, never the tokens (auth/provider.ts). */
  endpointsWithTokens: key<string[]>('sevenbridges.auth.endpointsWithTokens', 'global', strings),
} as const;

/**
 * Families of global-state keys, one per record (write/outbox.ts finds its records by listing the keys with the
 * prefix, and checks each record itself: their shapes are the outbox's).
 */
export const STATE_KEY_PREFIXES = {
  /** A write recorded before it is sent: `<prefix><write id>`. */
  writeRecord: 'sevenbridges.write.',
  /** A window's heartbeat while writes are in view: `<prefix><window id>`. */
  writerBeat: 'sevenbridges.writer.',
  /** A window's bid to take over a write whose window is gone: `<prefix><write id>#<window id>`. */
  writeBid: 'sevenbridges.writeBid.',
  /** A download under way: what its `.part` file holds, to resume from it (transfer/resumeState.ts). */
  download: 'sevenbridges.transfer.download.',
  /** A multipart upload under way: its ID, local file and part size, to resume it (transfer/resumeState.ts). */
  upload: 'sevenbridges.transfer.upload.',
  /** An upload run under way (the files it has left, its destination): shown in Data Jobs after a reload, resumed from there. */
  uploadRun: 'sevenbridges.transfer.uploadRun.',
} as const;

/** The value stored under `key`, as this version reads it. */
export function readState<T>(store: Pick<StateStore, 'get'>, key: StateKey<T>): T | undefined {
  return key.read(store.get(key.key));
}

/** Stores `value` under `key` (undefined removes it). */
export function writeState<T>(store: StateStore, key: StateKey<T>, value: T | undefined): PromiseLike<void> {
  return store.update(key.key, value);
}

// ---- Versions and migrations -----------------------------------------------------------------------------------

/** The version of what this extension stores; each store (global, workspace) records the version it holds. */
export const STATE_VERSION = 1;
export const STATE_VERSION_KEY = 'sevenbridges.stateVersion';

interface Migration {
  /** The version a store has once this migration ran. */
  readonly to: number;
  readonly run: (store: StateStore, scope: StateScope) => void;
}

const MIGRATIONS: readonly Migration[] = [
  {
    // Versions before the table stored no version and checked each value where it was read: every value is
    // rewritten as it reads now (entries no reader accepts dropped, a value that does not read at all removed).
    to: 1,
    run: (store, scope) => {
      for (const entry of Object.values(STATE) as StateKey<unknown>[]) {
        if (entry.scope !== scope) continue;
        const stored = store.get(entry.key);
        if (stored === undefined) continue;
        const read = entry.read(stored);
        if (JSON.stringify(read) !== JSON.stringify(stored)) void store.update(entry.key, read);
      }
    },
  },
];

/**
 * Brings a store to STATE_VERSION (the global state when the extension starts, and the workspace's). Writes are
 * not awaited: a Memento reads its new value at once. A store of a newer version is left as it is.
 */
export function migrateState(store: StateStore, scope: StateScope): number {
  const stored = store.get(STATE_VERSION_KEY);
  const version = typeof stored === 'number' ? stored : 0;
  if (version >= STATE_VERSION) return version;
  for (const migration of MIGRATIONS) if (migration.to > version) migration.run(store, scope);
  void store.update(STATE_VERSION_KEY, STATE_VERSION);
  return STATE_VERSION;
}
