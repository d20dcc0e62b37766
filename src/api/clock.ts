import { ApiError } from './errors';

/**
 * Time and timers as the extension sees them: the client's waits, the pollers' timers, the outbox's deadlines.
 * Tests hand in one fake (test/support/fakeClock.ts) so that waits take no real time.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Resolves after `ms`; rejects as cancelled when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  sleep: (ms, signal) => sleepWith(setTimeout, clearTimeout, ms, signal),
};

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
