// An accelerated clock: time stands still until the bench moves it to the next timer, so a minute of polling
// runs in well under a second of real time. It serves as the client's and the tracker's Clock and the
// emulator's `now`, so jobs progress, the rate-limit window turns and the tracker waits all in the same time.
import { ApiError } from '../../src/api/errors';
import type { Clock } from '../../src/api/clock';

interface Pending {
  id: number;
  at: number;
  callback: () => void;
}

const SETTLE_LIMIT_MS = 5_000;

export class VirtualClock implements Clock {
  private time: number;
  private readonly pending: Pending[] = [];
  private nextId = 1;

  constructor(start = Date.now()) {
    this.time = start;
  }

  now = (): number => this.time;

  setTimeout = (callback: () => void, ms: number): unknown => {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.pending.push(timer);
    return timer.id;
  };

  clearTimeout = (handle: unknown): void => {
    const i = this.pending.findIndex((p) => p.id === handle);
    if (i >= 0) this.pending.splice(i, 1);
  };

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new ApiError({ kind: 'cancelled', message: 'Cancelled' }));
      this.setTimeout(resolve, ms);
    });

  get timers(): number {
    return this.pending.length;
  }

  /** Moves time forward by `ms` without firing anything (the naive loop's own waits). */
  advance(ms: number): void {
    this.time += ms;
  }

  /**
   * Fires the timers due up to `end`, one at a time in order; after each, waits (in real time, at most
   * 5 s) until `settled()` says the work it started is over, then moves on. Ends with the time at `end`.
   */
  async runUntil(end: number, settled: () => boolean): Promise<number> {
    let fired = 0;
    for (let i = 0; i < 100_000; i++) {
      this.pending.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.pending[0];
      if (!next || next.at > end) break;
      this.pending.shift();
      this.time = next.at;
      next.callback();
      fired++;
      const started = Date.now();
      await tick();
      while (!settled() && Date.now() - started < SETTLE_LIMIT_MS) await new Promise((r) => setTimeout(r, 1));
    }
    this.time = Math.max(this.time, end);
    return fired;
  }
}

function tick(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
