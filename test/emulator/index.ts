/** The platform emulator: a loopback stand-in for the Seven Bridges public API v2. */
import { CopyEngine, ReceivedCopyRequest } from './copy';
import { EmulatorData, generateData } from './data';
import { FaultSettings, Faults } from './faults';
import { RateLimiter } from './rateLimit';
import { EmulatorServer } from './server';

export type { ReceivedCopyRequest } from './copy';
export type { EmulatorData, FileRec, JobRec, ProjectRec, TaskRec, TaskStatus, UserRec } from './data';
export type { FaultSettings } from './faults';

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
  /** default 1000 / 300000 */
  rateLimit?: { limit: number; windowMs: number };
  /** time per job state step; default 600 ms (a job of a few items finishes in ~1.8 s) */
  copyStepMs?: number;
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
  /** every POST /v2/async/files/copy that reached processing: a job created, or the request refused as a whole */
  readonly copyRequests: ReceivedCopyRequest[];
  /** copy POSTs stopped before processing (fault, bad token, rate limit), with `notProcessed` saying why */
  readonly unprocessedCopyRequests: ReceivedCopyRequest[];
  readonly stats: { requests: number; byStatus: Record<number, number>; faultsInjected: number };
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
  const copy = new CopyEngine(store, now, options.copyStepMs ?? 600);
  const server = new EmulatorServer({ store, token, faults, limiter, copy, now });
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
    copyRequests: copy.requests,
    unprocessedCopyRequests: copy.unprocessed,
    stats: server.stats,
    data: store,
    close: () => server.close(),
  };
}
