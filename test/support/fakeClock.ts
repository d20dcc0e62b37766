// The one fake of the extension's Clock (src/api/clock.ts): time stands still until a test moves it. Timers are
// @sinonjs/fake-timers' (`tickAsync` fires them in order, letting promises settle in between). A sleep either
// jumps the time forward at once and is recorded (`sleeps: 'jump'`, the default: a client's waits take no time and
// a test reads them), or is a timer like any other (`sleeps: 'timers'`: the client waits with the pollers).
import * as FakeTimers from '@sinonjs/fake-timers';
import type { Clock } from '../../src/api/clock';
import { sleepWith } from '../../src/api/clock';
import { ApiError } from '../../src/api/errors';

export interface FakeClockOptions {
  /** Each sleep is noted here (`sleep 1000`), with what else the test records, to check the order. */
  events?: string[];
  sleeps?: 'jump' | 'timers';
}

export const FAKE_CLOCK_START = Date.UTC(2026, 10, 21, 5, 0, 0);

export class FakeClock implements Clock {
  private readonly timers: FakeTimers.Clock;
  /** The length of every sleep, in order. */
  readonly sleeps: number[] = [];
  /** While true, a sleep waits until its signal aborts. */
  hold = false;
  /** Called when a sleep starts (e.g. to abort the caller's signal from inside a wait). */
  onSleep: ((ms: number) => void) | undefined;

  constructor(
    start = FAKE_CLOCK_START,
    private readonly options: FakeClockOptions = {},
  ) {
    this.timers = FakeTimers.createClock(start);
  }

  now = (): number => this.timers.now;

  get nowSeconds(): number {
    return Math.floor(this.timers.now / 1000);
  }

  setTimeout = (callback: () => void, ms: number): unknown => this.timers.setTimeout(callback, ms);

  clearTimeout = (handle: unknown): void => this.timers.clearTimeout(handle as FakeTimers.TimerId);

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms);
    this.options.events?.push(`sleep ${Math.round(ms)}`);
    this.onSleep?.(ms);
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.hold) {
      return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(cancelled()), { once: true }));
    }
    if (this.options.sleeps === 'timers') return sleepWith(this.setTimeout, this.clearTimeout, ms, signal);
    this.timers.tick(Math.max(0, ms));
    return Promise.resolve();
  };

  /** Moves the time `ms` forward, firing the timers due on the way, each after the promises before it settled. */
  async tickAsync(ms: number): Promise<void> {
    await this.timers.tickAsync(ms);
  }

  /** Fires the next timer (moving the time to it); false when none is pending. */
  next(): boolean {
    if (!this.timers.countTimers()) return false;
    this.timers.next();
    return true;
  }

  /** Timers pending. */
  get pending(): number {
    return this.timers.countTimers();
  }
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'cancelled', message: 'Cancelled' });
}
