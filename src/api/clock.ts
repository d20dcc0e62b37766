import { ApiError } from './errors';

/** Time as the client sees it; tests hand in a fake one so waits take no real time. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
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
