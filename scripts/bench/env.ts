// One scenario's platform: a fresh emulator (own data, own rate-limit window at the default 1000 requests per
// 5 minutes) and the extension's own client pointed at it. Every scenario gets its own, so no scenario spends
// another's quota; the 429s of each are added up at the end.
import { SbClient } from '../../src/api/client';
import type { Clock } from '../../src/api/clock';
import type { FetchLike } from '../../src/api/transport';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../test/emulator';
import { FakeClock } from '../../test/support/fakeClock';
import { RequestCounter } from '../../test/support/requestCounter';
import nodeFetch from 'node-fetch';

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
  /** A fetch of the scenario's own (e.g. one that adds a round-trip latency). */
  fetch?: FetchLike;
  /** The naive baseline gives up at once on a 429 instead of waiting for the reset. */
  noRateLimitWait?: boolean;
}

export function clientFor(emulator: { baseUrl: string; token: string }, options: ClientOptions = {}): SbClient {
  const credentials = { endpoint: emulator.baseUrl, token: emulator.token };
  const counter = new RequestCounter();
  const client = new SbClient({
    credentials: () => Promise.resolve(credentials),
    clock: options.clock,
    fetch: options.fetch,
    onRequest: counter.hook(),
    userAgent: 'sevenbridges-bench',
    ...(options.noRateLimitWait ? { maxRateLimitWaitMs: 0, maxRetries: 0 } : {}),
  });
  counters.set(client, counter);
  return client;
}

/**
 * The extension's client on the accelerated clock, and whether its work is quiet: no request in flight and none
 * started since the last look. The clock's pending timers cannot tell: a request's own timeout is one, and firing
 * it early fails the request.
 */
export function acceleratedClient(emulator: { baseUrl: string; token: string }, clock: Clock): { client: SbClient; quiet: () => boolean } {
  let inFlight = 0;
  let started = 0;
  const fetch: FetchLike = async (url, init) => {
    inFlight++;
    started++;
    try {
      const response = await (nodeFetch as unknown as FetchLike)(url, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, text: async () => text };
    } finally {
      inFlight--;
    }
  };
  let seen = -1;
  const quiet = () => {
    const still = inFlight === 0 && started === seen;
    seen = started;
    return still;
  };
  return { client: clientFor(emulator, { clock, fetch }), quiet };
}

/**
 * A scenario against the platform's budget on the accelerated clock: a fresh emulator (100 tasks, 1,000 files unless
 * `options` says otherwise) and the product's client on one FakeClock, and the account the writes go out for.
 */
export async function acceleratedPlatform(options: EmulatorOptions & Required<Pick<EmulatorOptions, 'rateLimit'>>) {
  const clock = new FakeClock(Date.now(), { sleeps: 'timers' });
  const emulator = await startEmulator({ tasks: 100, files: 1_000, now: clock.now, ...options });
  const { client, quiet } = acceleratedClient(emulator, clock);
  const key = `${emulator.baseUrl}#${emulator.username}`;
  return { clock, emulator, client, quiet, key, account: { key, credentials: { endpoint: emulator.baseUrl, token: emulator.token } } };
}

const counters = new WeakMap<SbClient, RequestCounter>();

/** What a client of `clientFor` sent, counted through its onRequest hook. */
export function sent(client: SbClient): RequestCounter {
  const counter = counters.get(client);
  if (!counter) throw new Error('not a client of clientFor');
  return counter;
}

/** Records what one strategy cost its emulator, for the rate-limit rows. */
export function tally(scenario: string, strategy: RateTally['strategy'], emulator: Emulator, client?: SbClient): RateTally {
  const t: RateTally = {
    scenario,
    strategy,
    requests: emulator.stats.requests,
    status429: emulator.stats.byStatus[429] ?? 0,
    retries: client ? sent(client).retries : 0,
    rateLimitWaits: client ? sent(client).rateLimitWaits : 0,
  };
  tallies.push(t);
  return t;
}
