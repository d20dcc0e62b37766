// The API budget: the platform's rate limit (1,000 requests per 5 minutes per user, platform-api.md §12) as the
// answers tell it. The transport hands it every answer's headers (`X-RateLimit-*`, and `Date`: the reset is a
// moment on the server's clock) and the body of `GET /v2/rate_limit`, which costs nothing. Background work asks it
// how long to wait (slower while the budget is low); bulk work asks whether to hold back (so that it never spends
// the share kept for the user). No `vscode` import.
import { ServerClock, systemClock, type Clock } from './clock';

/** The rate limit as the platform states it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds, on the server's clock. */
  reset: number;
}

/** What is left of the budget now. */
export interface BudgetLeft {
  limit: number;
  remaining: number;
  /** Until the reset, measured on the server's clock (ms). */
  untilResetMs: number;
}

/** Bulk work held back to stay inside the budget: until when (this machine's clock, epoch ms), and what was left. */
export interface BudgetHold {
  until: number;
  remaining: number;
  limit: number;
}

/** Under this share of the limit left, the budget is low: background work slows down. */
const LOW_SHARE = 0.1;
/** The share of the limit bulk work leaves for the user and background work. */
const RESERVE_SHARE = 0.1;
/** Added to a wait for the reset: the reset is given in whole seconds, and clocks differ by some. */
const SLACK_MS = 1_000;

/** The transport's view of an answer's headers. */
interface Headers {
  get(name: string): string | null;
}

const integer = (value: string | null): number | undefined => (value !== null && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined);

/** An event in vscode.Event's shape. (Not util/emitter's: util/ imports api/, so api/ cannot import util/.) */
export type BudgetEvent<T> = (listener: (value: T) => void) => { dispose(): void };

class Listeners<T> {
  private readonly listeners = new Set<(value: T) => void>();
  readonly event: BudgetEvent<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
}

export class ApiBudget {
  private current: { endpoint: string; state: RateLimitState } | undefined;
  /** The platform's clock, from the last `Date` header: rate-limit resets and its timestamps are on it. */
  readonly serverClock: ServerClock;
  private answers = 0;
  private readonly changed = new Listeners<void>();
  private readonly held = new Listeners<BudgetHold>();
  /** The state changed (an answer came). */
  readonly onDidChange = this.changed.event;
  /** Bulk work is held back until the reset (for its progress to say so). */
  readonly onDidHold = this.held.event;

  constructor(private readonly clock: Clock = systemClock) {
    this.serverClock = new ServerClock(clock);
  }

  /** Reads an answer from `endpoint`: its `Date` and, when all three are integers, its `X-RateLimit-*` headers. */
  observe(endpoint: string, headers: Headers): void {
    this.answers++;
    this.serverClock.observe(headers.get('date'));
    // Number(null) and Number('') are 0, which would read as "nothing left": all three must be integers.
    const [limit, remaining, reset] = [integer(headers.get('x-ratelimit-limit')), integer(headers.get('x-ratelimit-remaining')), integer(headers.get('x-ratelimit-reset'))];
    if (limit !== undefined && remaining !== undefined && reset !== undefined) this.set(endpoint, { limit, remaining, reset });
  }

  /** The state as `GET /v2/rate_limit` gives it. */
  set(endpoint: string, state: RateLimitState): void {
    this.current = { endpoint, state: { ...state } };
    this.changed.fire();
  }

  /** The last state stated by `endpoint` (or by the endpoint last heard from), whether or not its reset has passed. */
  state(endpoint?: string): RateLimitState | undefined {
    return this.current && (endpoint === undefined || this.current.endpoint === endpoint) ? this.current.state : undefined;
  }

  /** Answers read so far, from any endpoint: what a piece of work cost is the difference before and after it. */
  get answered(): number {
    return this.answers;
  }

  /** Milliseconds from now until a moment given in the server's Unix seconds. */
  untilServerTime(unixSeconds: number): number {
    return unixSeconds * 1000 - this.serverClock.now();
  }

  /** What is left before the reset; undefined when unknown, or when the reset has passed (a fresh window). */
  left(endpoint?: string): BudgetLeft | undefined {
    const state = this.state(endpoint);
    if (!state || state.limit <= 0) return undefined;
    const untilResetMs = this.untilServerTime(state.reset);
    return untilResetMs > 0 ? { limit: state.limit, remaining: Math.max(0, state.remaining), untilResetMs } : undefined;
  }

  /** Under the low share (10 %) of the limit left before the reset. */
  get low(): boolean {
    const left = this.left();
    return left !== undefined && left.remaining < LOW_SHARE * left.limit;
  }

  /**
   * The wait before a background round (a refresh, a poll) that costs `roundCost` requests: `waitMs` as asked while
   * the budget is not low; while it is, long enough that background rounds spend at most half of what is left
   * before the reset, and never past the reset plus the slack (a fresh window then).
   */
  backgroundWait(waitMs: number, roundCost = 1): number {
    const left = this.left();
    if (!left || left.remaining >= LOW_SHARE * left.limit) return waitMs;
    const toReset = left.untilResetMs + SLACK_MS;
    const spread = left.remaining > 0 ? (2 * Math.max(1, roundCost) * left.untilResetMs) / left.remaining : toReset;
    return Math.max(waitMs, Math.min(spread, toReset));
  }

  /**
   * How long bulk work waits before spending `cost` more requests: 0 while that leaves the reserve (10 % of the
   * limit) for the user and background work, else until the reset (plus the slack), said on `onDidHold`.
   */
  holdBulk(cost = 1): number {
    const left = this.left();
    if (!left || left.remaining - cost >= Math.ceil(RESERVE_SHARE * left.limit)) return 0;
    const wait = left.untilResetMs + SLACK_MS;
    this.held.fire({ until: this.clock.now() + wait, remaining: left.remaining, limit: left.limit });
    return wait;
  }
}
