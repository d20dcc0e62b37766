/** Fault injection: latency, 500s, dropped connections, malformed bodies, 429 bursts, maintenance, lost answers to writes. */
import { Prng } from './prng';

export interface FaultSettings {
  latencyMs: number;
  error500Rate: number;
  dropRate: number;
  malformedRate: number;
}

export interface RequestHold {
  /** Resolves when the first held request has arrived. */
  readonly arrived: Promise<void>;
  /** Lets the held requests (and those after them) be processed. */
  release(): void;
}

/** Which requests a hold applies to: by method and path (`/v2/tasks`). */
export type RequestMatch = (method: string, path: string) => boolean;

/** Which write a "lose the answer" order is for: by method and by path below /v2 (e.g. /^\/async\/files\/move$/). */
export interface WriteMatch {
  method?: string;
  path?: RegExp;
}

/**
 * The writes a fault test names by kind (`emu.loseNextWriteResponse(WRITES.createTask)`; `emu.writes` filtered with
 * `matchesWrite`): one entry per kind of write the platform takes, by method and path below /v2.
 */
export const WRITES = {
  copy: { method: 'POST', path: /^\/async\/files\/copy$/ },
  createTask: { method: 'POST', path: /^\/tasks$/ },
  changeDraft: { method: 'PATCH', path: /^\/tasks\/[^/]+(\/inputs)?$/ },
  deleteTask: { method: 'DELETE', path: /^\/tasks\/[^/]+$/ },
  taskAction: { method: 'POST', path: /^\/tasks\/[^/]+\/actions\/[^/]+$/ },
  appInstall: { method: 'POST', path: /^\/apps\/[^/]+\/[^/]+\/[^/]+\/raw$/ },
  appRevision: { method: 'POST', path: /^\/apps\/[^/]+\/[^/]+\/[^/]+\/\d+\/raw$/ },
  appCopy: { method: 'POST', path: /^\/apps\/.+\/actions\/copy$/ },
  import: { method: 'POST', path: /^\/storage\/imports$/ },
  bulkImport: { method: 'POST', path: /^\/bulk\/storage\/imports\/create$/ },
  export: { method: 'POST', path: /^\/storage\/exports$/ },
  bulkExport: { method: 'POST', path: /^\/bulk\/storage\/exports\/create$/ },
} satisfies Record<string, WriteMatch>;

/** Whether a write (its method and its path below /v2, the query allowed) is of the kind `match` names. */
export function matchesWrite(match: WriteMatch, method: string, path: string): boolean {
  return (match.method === undefined || match.method === method) && (match.path === undefined || match.path.test(path.split('?')[0]));
}

/** The requests (their path from /v2 on) of the writes `match` names: a fault aimed at one kind of write. */
export function requestsOf(match: WriteMatch): RequestMatch {
  return (method, path) => path.startsWith('/v2/') && matchesWrite(match, method, path.slice(3));
}

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'maintenance' }
  | { kind: 'burst429'; reset: number }
  | { kind: 'drop' }
  | { kind: 'error500' };

export class Faults {
  readonly settings: FaultSettings;
  private burstLeft = 0;
  private burstReset = 0;
  private burstMatch: RequestMatch = () => true;
  private maintenanceUntil = 0;
  private readonly loseOrders: WriteMatch[] = [];
  private readonly rng: Prng;
  private held: { arrive: () => void; released: Promise<void>; match: RequestMatch } | undefined;

  constructor(
    seed: number,
    initial: Partial<FaultSettings> | undefined,
    private readonly now: () => number,
  ) {
    this.rng = new Prng(seed * 7919 + 17);
    this.settings = { latencyMs: 0, error500Rate: 0, dropRate: 0, malformedRate: 0, ...initial };
  }

  /** The next `count` requests (of those `match` picks) are answered 429, the limit reset in `resetInSeconds`. */
  burst429(count: number, resetInSeconds = 3, match: RequestMatch = () => true): void {
    this.burstLeft = Math.max(0, Math.floor(count));
    this.burstReset = Math.ceil(this.now() / 1000) + resetInSeconds;
    this.burstMatch = match;
  }

  maintenance(durationMs: number): void {
    this.maintenanceUntil = this.now() + durationMs;
  }

  /** The next write that matches (any write by default) is processed, then its connection dropped before any answer. */
  loseNextWriteResponse(match: WriteMatch = {}): void {
    this.loseOrders.push(match);
  }

  /** Consumes the first pending order this write matches: true when its answer is to be lost. */
  takeLose(method: string, path: string): boolean {
    const i = this.loseOrders.findIndex((o) => matchesWrite(o, method, path));
    if (i < 0) return false;
    this.loseOrders.splice(i, 1);
    return true;
  }

  /**
   * Decide what happens to a request before it is processed. Random draws are made for every request
   * in arrival order, so a run is reproducible from the seed.
   */
  before(method: string, path: string): FaultDecision {
    const dropDraw = this.rng.next();
    const errDraw = this.rng.next();
    if (this.now() < this.maintenanceUntil) {
      return { kind: 'maintenance' };
    }
    if (this.burstLeft > 0 && this.burstMatch(method, path)) {
      this.burstLeft--;
      return { kind: 'burst429', reset: this.burstReset };
    }
    if (dropDraw < this.settings.dropRate) {
      return { kind: 'drop' };
    }
    if (errDraw < this.settings.error500Rate) {
      return { kind: 'error500' };
    }
    return { kind: 'none' };
  }

  /**
   * Holds every request that arrives from now on (or those `match` picks), before it is processed, until `release`:
   * a platform that is slow to answer, for as long as a test needs (its client's timeouts run on a fake clock).
   * `arrived` resolves when the first held request is in.
   */
  hold(match: RequestMatch = () => true): RequestHold {
    let arrive = () => undefined as void;
    let release = () => undefined as void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const released = new Promise<void>((r) => (release = r));
    this.held = { arrive, released, match };
    return {
      arrived,
      release: () => {
        this.held = undefined;
        release();
      },
    };
  }

  /** Waits while requests like this one are held (see `hold`). */
  async waitIfHeld(method: string, path: string): Promise<void> {
    const held = this.held;
    if (!held || !held.match(method, path)) return;
    held.arrive();
    await held.released;
  }

  /** Whether to garble this JSON response body. */
  malformed(): boolean {
    return this.rng.next() < this.settings.malformedRate;
  }
}
