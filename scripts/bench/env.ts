// One scenario's platform: a fresh emulator (own data, own rate-limit window at the default 1000 requests per
// 5 minutes) and the extension's own client pointed at it. Every scenario gets its own, so no scenario spends
// another's quota; the 429s of each are added up at the end.
import { SbClient } from '../../src/api/client';
import type { Clock } from '../../src/api/clock';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../test/emulator';

export const TASKS = 10_000;
export const FILES = 10_000;

export interface RateTally {
  scenario: string;
  strategy: 'extension' | 'naive';
  requests: number;
  status429: number;
  retries: number;
  rateLimitWaits: number;
}

export const tallies: RateTally[] = [];

export async function freshEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ tasks: TASKS, files: FILES, ...options });
}

export interface ClientOptions {
  clock?: Clock;
  /** The naive baseline gives up at once on a 429 instead of waiting for the reset. */
  noRateLimitWait?: boolean;
}

export function clientFor(emulator: { baseUrl: string; token: string }, options: ClientOptions = {}): SbClient {
  const credentials = { endpoint: emulator.baseUrl, token: emulator.token };
  return new SbClient({
    credentials: () => Promise.resolve(credentials),
    clock: options.clock,
    userAgent: 'sevenbridges-bench',
    ...(options.noRateLimitWait ? { maxRateLimitWaitMs: 0, maxRetries: 0 } : {}),
  });
}

/** Records what one strategy cost its emulator, for the rate-limit rows. */
export function tally(scenario: string, strategy: RateTally['strategy'], emulator: Emulator, client?: SbClient): RateTally {
  const t: RateTally = {
    scenario,
    strategy,
    requests: emulator.stats.requests,
    status429: emulator.stats.byStatus[429] ?? 0,
    retries: client?.transport.stats.retries ?? 0,
    rateLimitWaits: client?.transport.stats.rateLimitWaits ?? 0,
  };
  tallies.push(t);
  return t;
}
