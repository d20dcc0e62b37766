// The one fake of the extension's Clock (src/api/clock.ts): time stands still until a test (or the benchmark)
// moves it. Timers are @sinonjs/fake-timers': `tickAsync` fires them in order, letting promises settle in between;
// `runUntil` fires them one at a time and waits, in real time, for the work each started (real HTTP to the
// emulator). A sleep either jumps the time forward at once and is recorded (`sleeps: 'jump'`, the default: a
// client's waits take no time and a test reads them), or is a timer like any other (`sleeps: 'timers'`).
// `monotonic()` moves with the timers; the wall clock (`now()`) moves with them too, and can also be set off
// (`setWall`) or jump over a sleep of the machine (`suspend`), as a laptop's does.
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
/** The longest `runUntil` waits by default, in real time, for the work one timer started. */
const SETTLE_LIMIT_MS = 5_000;

export class FakeClock implements Clock {
  private readonly timers: FakeTimers.Clock;
  /** When each pending timer is due, to know the next one without firing it. */
  private readonly dueAt = new Map<unknown, number>();
  /** The length of every sleep, in order. */
  readonly sleeps: number[] = [];
  /** While true, a sleep waits until its signal aborts. */
  hold = false;
  /** Called when a sleep starts (e.g. to abort the caller's signal from inside a wait). */
  onSleep: ((ms: number) => void) | undefined;

  constructor(
    private readonly start = FAKE_CLOCK_START,
    private readonly options: FakeClockOptions = {},
  ) {
    this.timers = FakeTimers.createClock(start);
  }

  /** The wall clock minus the timers' time: set by `setWall` and `suspend`. */
  private wallOffset = 0;
  /** Time slept (`suspend`) that the timers did not count. */
  private slept = 0;

  now = (): number => this.timers.now + this.wallOffset;

  /** The timers' time: it never jumps with the wall clock. */
  monotonic = (): number => this.timers.now - this.start;

  /** The time as the rest of the world has it (a platform's clock): `now()` without `setWall`'s error. */
  trueNow = (): number => this.timers.now + this.slept;

  /** Sets this machine's wall clock `ms` ahead (negative: behind) of where it is; timers and `monotonic` do not move. */
  setWall(ms: number): void {
    this.wallOffset += ms;
  }

  /**
   * The machine sleeps for `ms` and wakes: the wall clock jumps; timers due meanwhile fire at once on waking. As
   * on Linux and macOS, `monotonic` does not count the sleep by default; `{ monotonic: true }` counts it (as on
   * Windows), the timers jumping with it.
   */
  async suspend(ms: number, options: { monotonic?: boolean } = {}): Promise<void> {
    if (options.monotonic) {
      this.timers.jump(ms);
    } else {
      this.wallOffset += ms;
      this.slept += ms;
    }
    await this.tickAsync(0);
  }

  get nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  setTimeout = (callback: () => void, ms: number): unknown => {
    const handle: unknown = this.timers.setTimeout(() => {
      this.dueAt.delete(handle);
      callback();
    }, ms);
    this.dueAt.set(handle, this.timers.now + Math.max(0, ms));
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.dueAt.delete(handle);
    this.timers.clearTimeout(handle as FakeTimers.TimerId);
  };

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms);
    this.options.events?.push(`sleep ${Math.round(ms)}`);
    this.onSleep?.(ms);
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.hold) {
      return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(cancelled()), { once: true }));
    }
    if (this.options.sleeps === 'timers') return sleepWith(this.setTimeout, this.clearTimeout, ms, signal);
    this.advance(ms);
    return Promise.resolve();
  };

  /** Timers pending. */
  get pending(): number {
    return this.dueAt.size;
  }

  /** Moves the time `ms` forward at once, firing the timers due on the way. */
  advance(ms: number): void {
    this.timers.tick(Math.max(0, ms));
  }

  /** Moves the time `ms` forward, firing the timers due on the way, each after the promises before it settled. */
  async tickAsync(ms: number): Promise<void> {
    await this.timers.tickAsync(ms);
  }

  /**
   * Fires the timers due up to `end`, one at a time in order; after each, waits (in real time, at most
   * `settleLimitMs`, 5 s by default) until `settled()` says the work it started is over, then moves on. Ends with
   * the time at `end`; returns the count fired.
   */
  async runUntil(wallEnd: number, settled: () => boolean, settleLimitMs = SETTLE_LIMIT_MS): Promise<number> {
    const end = wallEnd - this.wallOffset;
    let fired = 0;
    for (let next = this.nextDue(); next !== undefined && next <= end; next = this.nextDue()) {
      this.timers.next();
      fired++;
      const started = Date.now();
      await new Promise((r) => setImmediate(r));
      while (!settled() && Date.now() - started < settleLimitMs) await new Promise((r) => setTimeout(r, 1));
    }
    if (this.timers.now < end) this.advance(end - this.timers.now);
    return fired;
  }

  private nextDue(): number | undefined {
    return this.dueAt.size ? Math.min(...this.dueAt.values()) : undefined;
  }
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'cancelled', message: 'Cancelled' });
}
