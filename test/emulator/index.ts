/**
 * The platform emulator: a loopback stand-in for the Seven Bridges public API v2 (see /work/shared/API_CONTRACT.md).
 *
 * Its picks where the documentation is silent ([infer] in the contract; clients must not depend on them):
 * - task list without `order_by`: newest `created_time` first; `order_by` alone sorts ascending;
 * - a repeated query parameter is refused with 400; an unknown but well-formed `project` filter gives an empty list;
 * - generic errors use 90000 (400), 90001 (401), 90002 (403), 90003 (404), 90004 (500);
 * - a copy job's `result` stays [] until FINISHED (with `progressiveResults`, it fills in request order while RUNNING),
 *   except for a share of small jobs (`immediateResults`, default every second job of at most 10 items) whose POST
 *   answer already carries every result, the copies made at once (the contract: "the result if available");
 * - the async job list is newest first by default (`jobOrder` changes it at any time: the API documents no order); a per-item failure counts 1 in `total_files` and `failed_files`;
 *   refusing to copy a root folder is 400/90000, a destination without write permission 403/90002,
 *   a missing destination folder or project 400/10228; duplicates are counted among items whose source is valid;
 * - job timeline: SUBMITTED for one `copyStepMs`, RESOLVING for one, RUNNING for ceil(total_files / 25) steps;
 *   the copies are created when the job turns FINISHED (jobs advance lazily on every request);
 * - the `status` filter is exact: an ABORTING task, a CREATING batch parent (and any status outside the six) is
 *   listed by no `status` value, only without the filter; the product must find them all the same;
 * - task execution, actions and logs: see execution.ts; log bytes are served by a second origin (storage.ts);
 * - `files` (option) counts files and folders together, besides each project's root folder (about 1 folder per 12).
 */
import { CopyEngine, CopySettings, ReceivedCopyRequest } from './copy';
import type { CopyItem } from './data';
import { EmulatorData, generateData } from './data';
import { FaultSettings, Faults, type RequestHold, type RequestMatch } from './faults';
import { RateLimiter } from './rateLimit';
import { EmulatorServer, type ReceivedRequest } from './server';
import { ExecutionEngine, type LogFile, type ReceivedAction } from './execution';
import { StorageServer, type StorageRequest } from './storage';

export type { ReceivedCopyRequest } from './copy';
export type { EmulatorData, FileRec, JobRec, ProjectRec, TaskRec, TaskStatus, UserRec } from './data';
export type { FaultSettings, RequestMatch } from './faults';
export type { ReceivedRequest } from './server';
export type { LogFile, ReceivedAction, JobRecord } from './execution';
export type { StorageRequest } from './storage';

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
  faults?: Partial<FaultSettings>;
  /** clock (ms); default Date.now */
  now?: () => number;
}

export interface Emulator {
  readonly baseUrl: string;
  readonly port: number;
  readonly token: string;
  readonly username: string;
  readonly faults: FaultSettings;
  burst429(count: number, resetInSeconds?: number): void;
  maintenance(durationMs: number): void;
  loseNextCopyResponse(): void;
  /** Holds the requests that arrive from now on (or those `match` picks) until released (see Faults.hold). */
  hold(match?: RequestMatch): RequestHold;
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
  /** every POST /v2/async/files/copy that reached processing: a job created, or the request refused as a whole */
  readonly copyRequests: ReceivedCopyRequest[];
  /** copy POSTs stopped before processing (fault, bad token, rate limit), with `notProcessed` saying why */
  readonly unprocessedCopyRequests: ReceivedCopyRequest[];
  readonly stats: { requests: number; byStatus: Record<number, number>; faultsInjected: number };
  /** Every request of the API origin as it arrived (time, method, path), in order. */
  readonly received: readonly ReceivedRequest[];
  readonly data: EmulatorData;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const now = options.now ?? Date.now;
  const seed = options.seed ?? 1;
  const token = options.token ?? 'emulator-token';
  const store = generateData({ seed, tasks: options.tasks ?? 400, files: options.files ?? 3000, now: now() });
  const faults = new Faults(seed, options.faults, now);
  const limiter = new RateLimiter(options.rateLimit ?? { limit: 1000, windowMs: 300_000 }, now);
  const copy = new CopyEngine(store, now, {
    stepMs: options.copyStepMs ?? 600,
    jobOrder: options.jobOrder ?? 'newest',
    progressiveResults: options.progressiveResults ?? false,
    immediateResults: options.immediateResults ?? 0.5,
  });
  const accounts = new Map([[token, store.user.username], ...(options.accounts ?? []).map((a): [string, string] => [a.token, a.username])]);
  const execution = new ExecutionEngine(store, now, options.taskStepMs ?? 2000, options.runSteps ?? 3);
  const storage = new StorageServer((id) => execution.logs.get(id), now);
  const storageOrigin = await storage.listen();
  const server = new EmulatorServer({ store, token, accounts, faults, limiter, copy, execution, storage, now });
  const port = await server.listen(options.port ?? 0);
  return {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    port,
    token,
    username: store.user.username,
    faults: faults.settings,
    burst429: (count, resetInSeconds) => faults.burst429(count, resetInSeconds),
    maintenance: (ms) => faults.maintenance(ms),
    loseNextCopyResponse: () => faults.loseNextCopyResponse(),
    hold: (match) => faults.hold(match),
    copySettings: copy.settings,
    foreignCopyRequests: copy.foreign,
    foreignCopy: (items, username) => copy.submitForeign(items, username),
    loseNextActionResponse: () => execution.loseNextActionResponse(),
    advance: () => execution.advance(),
    setRunOutcome: (id, outcome) => execution.setRunOutcome(id, outcome),
    endTask: (id, status) => execution.end(id, status),
    actionRequests: execution.actions,
    logs: execution.logs,
    storageOrigin,
    storageRequests: storage.requests,
    copyRequests: copy.requests,
    unprocessedCopyRequests: copy.unprocessed,
    stats: server.stats,
    received: server.received,
    data: store,
    close: async () => {
      await Promise.all([server.close(), storage.close()]);
    },
  };
}
