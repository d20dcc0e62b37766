// The timer that ends a stalled request to the storage: no byte moving, either way, for too long. No `vscode`.
import type { Clock } from './clock';

/**
 * Aborts a request when nothing moved for `ms`, or when the caller's signal aborts. A byte moving only notes the
 * time (a chunk arrives every few microseconds on a fast link): the one timer, when it fires, looks at how long it
 * has been and waits again for the rest if something moved meanwhile.
 */
export class IdleTimer {
  private readonly controller = new AbortController();
  private handle: unknown;
  private stopped = false;
  private lastMoved: number;
  timedOut = false;
  readonly signal: AbortSignal;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    readonly caller: AbortSignal | undefined,
  ) {
    this.signal = caller ? AbortSignal.any([caller, this.controller.signal]) : this.controller.signal;
    this.lastMoved = clock.monotonic();
    this.arm(ms);
  }

  touch(): void {
    this.lastMoved = this.clock.monotonic();
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
  }

  private arm(ms: number): void {
    this.handle = this.clock.setTimeout(() => {
      if (this.stopped) return;
      const still = this.clock.monotonic() - this.lastMoved;
      if (still < this.ms) return this.arm(this.ms - still);
      this.timedOut = true;
      this.controller.abort();
    }, ms);
  }
}
