import { ApiError } from './errors';

/**
 * Time and timers as the extension sees them: the client's waits, the pollers' timers, the outbox's deadlines.
 * Tests hand in one fake (test/support/fakeClock.ts) so that waits take no real time.
 */
export interface Clock {
  /** This machine's wall clock (epoch ms): for what a person reads, never to judge how long something took. */
  now(): number;
  /**
   * A clock that only moves forward, at its own pace, from an arbitrary start (`performance.now()`): for how long
   * something has lasted in this process. It does not jump when the wall clock is set; it may stand still while
   * the machine sleeps. Not comparable across processes.
   */
  monotonic(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Resolves after `ms`; rejects as cancelled when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  sleep: (ms, signal) => sleepWith(setTimeout, clearTimeout, ms, signal),
};

/**
 * The platform's clock as this machine estimates it, from the `Date` header of its last answer: what the
 * platform's own timestamps (a job's `started_on`, a rate-limit reset) are compared with. Never this machine's
 * clock, which may be set hours off.
 */
export class ServerClock {
  /** The server's clock minus ours (ms); undefined until an answer carried a `Date` header. */
  private offsetMs: number | undefined;

  constructor(private readonly clock: Clock = systemClock) {}

  /** Notes the `Date` header of an answer just received. */
  observe(dateHeader: string | null | undefined): void {
    const date = Date.parse(dateHeader ?? '');
    if (!Number.isNaN(date)) this.offsetMs = date - this.clock.now();
  }

  /** The platform's time now (epoch ms); this machine's until an answer told it. */
  now(): number {
    return this.clock.now() + (this.offsetMs ?? 0);
  }

  /** The platform's time now (epoch ms), or undefined until an answer told it (never this machine's clock instead). */
  estimate(): number | undefined {
    return this.offsetMs === undefined ? undefined : this.clock.now() + this.offsetMs;
  }
}

export function sleepWith(
  set: (fn: () => void, ms: number) => unknown,
  clear: (handle: never) => void,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const handle = set(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clear(handle as never);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'cancelled', message: 'Cancelled' });
}
