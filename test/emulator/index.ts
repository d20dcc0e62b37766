/**
 * The platform emulator: a loopback stand-in for the Seven Bridges public API v2 (see docs/platform-api.md).
 *
 * Its picks where the documentation is silent ([infer] in platform-api.md; clients must not depend on them):
 * - task list without `order_by`: newest `created_time` first; `order_by` alone sorts ascending;
 * - a repeated query parameter is refused with 400 (but the GET /v2/files filters below); an unknown but well-formed `project` filter gives an empty list;
 * - generic errors use 90000 (400), 90001 (401), 90002 (403), 90003 (404), 90004 (500);
 * - a copy job's `result` stays [] until FINISHED (with `progressiveResults`, it fills in request order while RUNNING),
 *   except for a share of small jobs (`immediateResults`, default every second job of at most 10 items) whose POST
 *   answer already carries every result, the copies made at once (platform-api.md: "the result if available");
 * - the async job list is newest first by default (`jobOrder` changes it at any time: the API documents no order); a per-item failure counts 1 in `total_files` and `failed_files`;
 *   refusing to copy a root folder is 400/90000, a destination without write permission 403/90002,
 *   a missing destination folder or project 400/10228; duplicates are counted among items whose source is valid;
 * - job timeline: SUBMITTED for one `copyStepMs`, RESOLVING for one, RUNNING for ceil(total_files / 25) steps;
 *   the copies, moves and deletes are made when the job turns FINISHED (jobs advance lazily on every request);
 * - the `status` filter is exact: an ABORTING task, a CREATING batch parent (and any status outside the six) is
 *   listed by no `status` value, only without the filter; the product must find them all the same;
 * - task execution, actions and logs: see execution.ts; log bytes are served by a second origin (storage.ts);
 * - `files` (option) counts files and folders together, besides each project's root folder (about 1 folder per 12);
 * - seeded files carry tags (a fifth of them: tumor, normal or qc-passed) and metadata (two fifths: sample_id and
 *   platform); task outputs carry `origin.task`;
 * - names are case-sensitive: a clash is the same name exactly; `type` is read case-insensitively (folder, FOLDER);
 * - folder and file names: a non-empty text of at most 255 characters without '/', not '.' or '..'; a folder's may not
 *   start with '__'; any other character is accepted (platform-api.md's character set for folders is [infer]);
 * - POST /v2/files (a folder) answers 201; a missing parent folder is 404/5026, a parent that is not a folder 400/5022;
 *   a name already there 409: 10224 when a folder holds it, 10223 when a file does (PATCH renames and the single move
 *   too); GET /v2/files/{id}/list lists like GET /v2/files (items typed `file`/`folder`, default fields href, id, name);
 * - PATCH /v2/files/{id} changes name, tags and metadata (tags and metadata replace the sets) and refuses the fields a
 *   move or the platform sets (parent, project, size, …) with 400; a project's root folder cannot be renamed;
 * - tags are non-empty texts (kept once each, in order); metadata values must be texts (a number or boolean is
 *   refused, platform-api.md speaks of UTF-8 values), a null value is ignored, an empty key refused; every refusal is
 *   400/90000 naming the key and the limit; metadata PATCH merges, PUT replaces; both answer the whole set;
 * - the single move (POST /v2/files/{id}/actions/move) moves a file within its project (a folder, or another
 *   project, is 400: the asynchronous move does those); a name taken there is 409/10223 (it is not renamed); moving a
 *   file where it already is, under its name, changes nothing;
 * - DELETE /v2/files/{id} answers 204 and refuses a folder that is not empty with 400/90000 (the async delete takes
 *   whole folders); a project's root folder cannot be deleted, moved or renamed (400/90000);
 * - write calls need write permission in the project (403/90002; the async move says 403/10226 for the source);
 * - async move and delete jobs follow the copy's timeline and rules; a moved file keeps its ID (renamed `1_<name>`, …
 *   on a clash), a moved folder gets a new ID (its subfolders too) or is merged into a folder of the same name; an item
 *   moved where it already is stays as it is; a delete job's result is each item's record as it was; at most 100
 *   items per copy, move or delete call (THIN: 400/90000 beyond, saying to split); an item whose source or
 *   destination has gone by the time the job runs fails then (counted in `failed_files`);
 * - bulk file calls (get, delete, update, edit) take at most 100 items and refuse an empty list with 400; bulk
 *   update erases tags and metadata left out (a name left out is kept), bulk edit keeps them and merges metadata;
 *   bulk delete follows DELETE's rule on folders; each item's result is in request order;
 * - GET /v2/files filters: `name` exact, `tag`, `metadata.<field>` and `origin.<key>` each repeatable (OR), AND across
 *   them; other parameters given twice are still refused;
 * - the file search (POST /v2/files/search): see search.ts for the subset of the query language it takes, its
 *   partial-name operator (LIKE) and paging; `search: 'absent'` answers 404 as a platform without it, `'forbidden'` 403;
 * - task creation, draft changes, delete, platform-api.md's task codes: see taskWrites.ts; the checks of a task's inputs
 *   against its app's CWL and the `errors`/`warnings` items (`{type, input, message}`): taskRules.ts and cwl.ts; batch
 *   tasks (children made when the parent runs, the parent's end rule): batchTasks.ts; what a run goes through and the
 *   files a completed task makes: execution.ts and taskOutputs.ts; prices: data.ts (`priceOf`); a batch parent's price
 *   is the sum of its children's (the parent itself runs nothing); `batches` adds batches at scale (data.ts); an
 *   unknown task is 404/7002 on every call that names one;
 * - apps (list, get, raw CWL as JSON only, install as JSON or YAML, revisions, copy): apps.ts; the seeded apps, the
 *   public project `admin/sbg-public-data` (readable, not a member project, with a few reference files): appSeeds.ts;
 * - volumes and their objects: volumes.ts; imports and exports (job states, results, refusals; lists newest first):
 *   volumeJobs.ts; a file on a volume carries `storage: {type: VOLUME, volume, location}`, a file without `storage`
 *   is on the platform's storage (the record is left as it was: no field added to every file);
 * - the apps, the public project and the volumes are drawn from no shared PRNG: the rest of the data is the same with
 *   or without them; the seeded tasks' inputs follow their app's CWL (BWA-MEM's `reads` is a list);
 * - every write is one of the kinds `WRITES` names (faults.ts), by method and path, for the fault tests;
 * - the first project also holds `samples/`, small files of every kind (content.ts);
 * - file bytes: see content.ts (generated from ID and size, served by storage.ts); multipart upload: see uploads.ts.
 */
import { AsyncJobEngine, type CopySettings, type ReceivedCopyRequest, type ReceivedJobRequest } from './asyncJobs';
import type { CopyItem } from './data';
import { type EmulatorData, generateData } from './data';
import { type FaultSettings, Faults, WRITES, type RequestHold, type RequestMatch, type WriteMatch } from './faults';
import { RateLimiter } from './rateLimit';
import { EmulatorServer, type ReceivedRequest, type ReceivedWrite } from './server';
import { ExecutionEngine, type LogFile, type ReceivedAction } from './execution';
import type { SearchMode, SearchSettings } from './search';
import { StorageServer, type StorageFaults, type StorageFaultSettings, type StorageRequest } from './storage';
import { addSamples, FileContents, type Blob } from './content';
import { UploadEngine } from './uploads';
import { addApps } from './appSeeds';
import { addVolumes } from './volumes';
import { VolumeJobEngine } from './volumeJobs';

export type { ReceivedCopyRequest, ReceivedJobRequest } from './asyncJobs';
export type { AppRec, AppRevision, EmulatorData, ExportRec, FileRec, ImportRec, JobRec, ProjectRec, TaskRec, TaskStatus, UserRec, VolumeObject, VolumeRec } from './data';
export { WRITES, matchesWrite, requestsOf } from './faults';
export { PUBLIC_PROJECT } from './appSeeds';
export type { FaultSettings, RequestMatch, WriteMatch } from './faults';
export type { ReceivedRequest } from './server';
export type { LogFile, ReceivedAction, JobRecord } from './execution';
export type { ReceivedWrite } from './server';
export type { SearchMode } from './search';
export type { StorageFaults, StorageFaultSettings, StorageRequest } from './storage';
export type { Blob } from './content';
export type { ReceivedUploadCall, UploadRec, UploadSettings } from './uploads';

export interface EmulatorOptions {
  /** 0 (default) = a free port */
  port?: number;
  /** default 'emulator-token' */
  token?: string;
  /** default 1 */
  seed?: number;
  /** default 400 */
  tasks?: number;
  /** default 3000 */
  files?: number;
  /** more accounts, each with its own token, username and async jobs (they see the same projects and tasks) */
  accounts?: { token: string; username: string }[];
  /** default 'newest' */
  jobOrder?: CopySettings['jobOrder'];
  /** default false */
  progressiveResults?: boolean;
  /** share of small jobs (≤ 10 items) answered with their results at once; default 0.5 */
  immediateResults?: number;
  /** default 1000 / 300000 */
  rateLimit?: { limit: number; windowMs: number };
  /** time per job state step; default 600 ms (a job of a few items finishes in ~1.8 s) */
  copyStepMs?: number;
  /** time per task lifecycle step (queued → running, aborting → aborted); default 2000 ms */
  taskStepMs?: number;
  /** steps a task that was run here spends RUNNING before it ends; default 3 */
  runSteps?: number;
  /** batches at scale, added after the `tasks` drawn: one entry per batch, its number of children; default [40] */
  batches?: number[];
  /** the share of a batch at scale's children that failed; default 0.1 */
  batchFailures?: number;
  /** whether POST /v2/files/search is there: default 'available'; 'absent' (404) or 'forbidden' (403) */
  search?: SearchMode;
  faults?: Partial<FaultSettings>;
  /** faults of the storage origin (file bytes, part uploads); settable later through `storageFaults` */
  storageFaults?: Partial<StorageFaultSettings>;
  /** how long a signed URL lives; default 15 min */
  signedUrlTtlMs?: number;
  /** clock (ms); default Date.now */
  now?: () => number;
}

export interface Emulator {
  readonly baseUrl: string;
  readonly port: number;
  readonly token: string;
  readonly username: string;
  readonly faults: FaultSettings;
  /** The next `count` requests (those `match` picks, by method and path: `/v2/tasks`) are answered 429. */
  burst429(count: number, resetInSeconds?: number, match?: RequestMatch): void;
  maintenance(durationMs: number): void;
  loseNextCopyResponse(): void;
  /** Holds the requests that arrive from now on (or those `match` picks) until released (see Faults.hold). */
  hold(match?: RequestMatch): RequestHold;
  /** The next write matching (any write by default: POST, PATCH, PUT, DELETE but the bulk get and search) is processed, then its connection dropped. */
  loseNextWriteResponse(match?: WriteMatch): void;
  /** copy behaviour that tests may change at any time: step time, job list order, results while running */
  readonly copySettings: CopySettings;
  /** copy jobs submitted elsewhere (`foreignCopy`) */
  readonly foreignCopyRequests: ReceivedCopyRequest[];
  /** A copy job submitted elsewhere in an account (the web page, a script): not one of `copyRequests`. */
  foreignCopy(items: CopyItem[], username?: string): string;
  /** The next task action is processed, then its connection dropped before any answer. */
  loseNextActionResponse(): void;
  /** Applies the task steps that are due (an abort finishing, a run moving on), as any request does first. */
  advance(): void;
  /** How many task steps are still to come (runs, aborts and batches under way): none once every task started has ended. */
  pendingTaskSteps(): number;
  /** Ends a task now, as its own run would (a task watched elsewhere ending). */
  endTask(taskId: string, status: 'COMPLETED' | 'FAILED' | 'ABORTED'): void;
  /** How a task run (or re-run) here ends; default COMPLETED. A clone inherits its original's. */
  setRunOutcome(taskId: string, outcome: 'COMPLETED' | 'FAILED'): void;
  /** every task action that reached processing (accepted or refused) */
  readonly actionRequests: ReceivedAction[];
  /** log files drawn so far, by file ID */
  readonly logs: ReadonlyMap<string, LogFile>;
  /** the storage origin (signed URLs) and every request it saw */
  readonly storageOrigin: string;
  readonly storageRequests: StorageRequest[];
  /** faults of the storage origin: drops mid-body, 5xx, a slow link (settable at any time) */
  readonly storageFaults: StorageFaults;
  /** Every signed URL handed out so far is expired from now on. */
  expireSignedUrls(): void;
  /** The bytes a file serves (generated, uploaded or a log), or undefined when it has none. */
  contentOf(fileId: string): Blob | undefined;
  /** multipart uploads: those not completed nor aborted, every init/complete/abort processed, settings */
  readonly uploads: Pick<UploadEngine, 'pending' | 'calls' | 'settings' | 'loseNextCompleteResponse' | 'bytesOnDisk'>;
  /** every POST /v2/async/files/copy that reached processing: a job created, or the request refused as a whole */
  readonly copyRequests: ReceivedCopyRequest[];
  /** copy POSTs stopped before processing (fault, bad token, rate limit), with `notProcessed` saying why */
  readonly unprocessedCopyRequests: ReceivedCopyRequest[];
  /** every POST /v2/async/files/move and /delete that reached processing */
  readonly moveRequests: ReceivedJobRequest[];
  readonly deleteRequests: ReceivedJobRequest[];
  /** every write (POST, PATCH, PUT, DELETE but the bulk get and search) that reached processing, in order */
  readonly writes: ReceivedWrite[];
  /** writes stopped before processing (fault, bad token, rate limit) */
  readonly unprocessedWrites: ReceivedWrite[];
  /** whether the file search is there; tests may change it at any time */
  readonly searchSettings: SearchSettings;
  readonly stats: { requests: number; byStatus: Record<number, number>; faultsInjected: number; bodyBytes: number };
  /** Every request of the API origin as it arrived (time, method, path), in order. */
  readonly received: readonly ReceivedRequest[];
  /** The last 2,000 requests, `METHOD /v2/path?query`, oldest first. */
  readonly requestLines: readonly string[];
  readonly data: EmulatorData;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const now = options.now ?? Date.now;
  const seed = options.seed ?? 1;
  const token = options.token ?? 'emulator-token';
  const store = generateData({
    seed, tasks: options.tasks ?? 400, files: options.files ?? 3000, now: now(), batches: options.batches ?? [40], batchFailures: options.batchFailures,
  });
  addSamples(store, seed);
  addApps(store, seed);
  addVolumes(store, seed);
  const faults = new Faults(seed, options.faults, now);
  const limiter = new RateLimiter(options.rateLimit ?? { limit: 1000, windowMs: 300_000 }, now);
  const jobs = new AsyncJobEngine(store, now, {
    stepMs: options.copyStepMs ?? 600,
    jobOrder: options.jobOrder ?? 'newest',
    progressiveResults: options.progressiveResults ?? false,
    immediateResults: options.immediateResults ?? 0.5,
  });
  const volumeJobs = new VolumeJobEngine(store, now, () => jobs.settings.stepMs, seed);
  const accounts = new Map([[token, store.user.username], ...(options.accounts ?? []).map((a): [string, string] => [a.token, a.username])]);
  const execution = new ExecutionEngine(store, now, options.taskStepMs ?? 2000, options.runSteps ?? 3);
  const uploads: UploadEngine = new UploadEngine(store, now, (id, part) => storage.partUrl(id, part));
  const contents: FileContents = new FileContents(store, execution.logs, (id) => uploads.blob(id), (where) => storage.signedUrl(where));
  const storage: StorageServer = new StorageServer((id) => contents.blob(id), (id, part) => uploads.partWriter(id, part), now, seed, options.storageFaults, options.signedUrlTtlMs);
  const storageOrigin = await storage.listen();
  const searchSettings: SearchSettings = { mode: options.search ?? 'available' };
  const server = new EmulatorServer({ store, token, accounts, faults, limiter, jobs, volumeJobs, execution, contents, uploads, search: searchSettings, now });
  const port = await server.listen(options.port ?? 0);
  return {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    port,
    token,
    username: store.user.username,
    faults: faults.settings,
    burst429: (count, resetInSeconds, match) => faults.burst429(count, resetInSeconds, match),
    maintenance: (ms) => faults.maintenance(ms),
    loseNextCopyResponse: () => faults.loseNextWriteResponse(WRITES.copy),
    loseNextWriteResponse: (match) => faults.loseNextWriteResponse(match),
    copySettings: jobs.settings,
    foreignCopyRequests: jobs.foreign,
    foreignCopy: (items, username) => jobs.submitForeign(items, username),
    loseNextActionResponse: () => faults.loseNextWriteResponse(WRITES.taskAction),
    hold: (match) => faults.hold(match),
    advance: () => execution.advance(),
    pendingTaskSteps: () => execution.pendingSteps,
    setRunOutcome: (id, outcome) => execution.setRunOutcome(id, outcome),
    endTask: (id, status) => execution.end(id, status),
    actionRequests: execution.actions,
    logs: execution.logs,
    storageOrigin,
    storageRequests: storage.requests,
    copyRequests: jobs.requests.copy,
    unprocessedCopyRequests: jobs.unprocessed,
    moveRequests: jobs.requests.move,
    deleteRequests: jobs.requests.delete,
    writes: server.writes,
    unprocessedWrites: server.unprocessedWrites,
    searchSettings,
    storageFaults: storage.faults,
    expireSignedUrls: () => storage.expireIssuedUrls(),
    contentOf: (id) => contents.blob(id),
    uploads,
    stats: server.stats,
    received: server.received,
    requestLines: server.requestLines,
    data: store,
    close: async () => {
      await Promise.all([server.close(), storage.close()]);
      uploads.close();
    },
  };
}
