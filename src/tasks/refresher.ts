// Automatic refresh of the task view: a setTimeout chain that runs only while the view is visible, the window
// focused and something queued or running; it backs off ×2 while nothing changes, and never runs two at once.
// No `vscode` import; the timer functions are injected so tests fake them.

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export const MIN_INTERVAL_SECONDS = 10;
/** The longest wait between automatic refreshes, however long nothing has changed. */
export const MAX_BACKOFF_MS = 5 * 60_000;
export const MAX_BACKOFF_FACTOR = 8;

/** The setting's value in milliseconds: 0 (or anything not a positive number) is off, less than 10 s counts as 10 s. */
export function intervalMs(seconds: unknown): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.max(MIN_INTERVAL_SECONDS, seconds) * 1000;
}

export interface RefresherOptions {
  /** Refreshes; resolves to whether anything changed. */
  refresh: () => Promise<boolean>;
  /** The interval setting, in seconds, read each time a refresh is scheduled. */
  intervalSeconds: () => unknown;
  /** Whether anything is worth refreshing for (a task queued or running). */
  hasActiveWork: () => boolean;
  timers?: Timers;
  /** Up to this many ms are added to the first refresh after the window regains focus, so many windows do not fire at once. */
  jitterMs?: number;
  random?: () => number;
  onError?: (error: unknown) => void;
}

export class Refresher {
  private readonly timers: Timers;
  private timer: unknown;
  private dueAt: number | undefined;
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private factor = 1;
  private visible = false;
  private focused = true;
  private lastRun = 0;
  private disposed = false;
  /** Refreshes started, automatic and manual, for the tests and the log. */
  runs = 0;

  constructor(private readonly options: RefresherOptions) {
    this.timers = options.timers ?? systemTimers;
  }

  /** The wait before the next automatic refresh, or undefined when none is scheduled. */
  get nextDelay(): number | undefined {
    return this.dueAt === undefined ? undefined : Math.max(0, this.dueAt - this.timers.now());
  }

  get backoffFactor(): number {
    return this.factor;
  }

  get running(): boolean {
    return this.inFlight !== undefined;
  }

  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    if (visible) this.resume();
    else this.cancelTimer();
  }

  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    if (focused) this.resume();
    else this.cancelTimer();
  }

  /** Re-reads the setting and whether there is work: call after a refresh, a setting change or a filter change. */
  reschedule(): void {
    this.cancelTimer();
    this.schedule();
  }

  /**
   * Fresh data arrived by other means (the view opened, a group expanded): the next automatic refresh is
   * due an interval from now, and is scheduled if there is now something active.
   */
  markFresh(): void {
    this.lastRun = this.timers.now();
    this.poke();
  }

  /** Schedules a refresh if none is scheduled (something new is shown: it may be queued or running). */
  poke(): void {
    if (this.timer === undefined) this.schedule();
  }

  /**
   * Refreshes now (the "Refresh Tasks" command, a new filter). While one is in flight, one more follows it
   * (so what is shown reflects the latest request) and both callers wait for that one.
   */
  refreshNow(): Promise<void> {
    this.factor = 1;
    if (this.inFlight) {
      this.queued ??= this.inFlight.then(() => {
        this.queued = undefined;
        return this.disposed ? undefined : this.run();
      });
      return this.queued;
    }
    return this.run();
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private resume(): void {
    this.factor = 1;
    const interval = intervalMs(this.options.intervalSeconds());
    // With nothing loaded yet (or nothing active) there is nothing to catch up on; markFresh() starts the pace.
    if (!this.canRun() || !interval || !this.options.hasActiveWork()) return;
    this.cancelTimer();
    const since = this.timers.now() - this.lastRun;
    const jitter = Math.floor((this.options.random ?? Math.random)() * (this.options.jitterMs ?? 1000));
    // Back after a while away: refresh soon (what is shown may be stale); otherwise keep the normal pace.
    this.arm(since >= interval ? jitter : interval - since);
  }

  private canRun(): boolean {
    return !this.disposed && this.visible && this.focused;
  }

  private schedule(): void {
    const interval = intervalMs(this.options.intervalSeconds());
    if (!interval || !this.canRun() || this.inFlight || !this.options.hasActiveWork()) return;
    const cap = Math.max(interval, Math.min(interval * MAX_BACKOFF_FACTOR, MAX_BACKOFF_MS));
    this.arm(Math.min(interval * this.factor, cap));
  }

  private arm(delay: number): void {
    this.dueAt = this.timers.now() + delay;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.dueAt = undefined;
      if (this.inFlight || !this.canRun() || !this.options.hasActiveWork()) return;
      void this.run(true);
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = undefined;
  }

  private run(automatic = false): Promise<void> {
    this.cancelTimer();
    this.runs++;
    this.lastRun = this.timers.now();
    const promise = (async () => {
      try {
        const changed = await this.options.refresh();
        if (automatic) {
          const interval = intervalMs(this.options.intervalSeconds()) || 1;
          const cap = Math.max(1, Math.min(MAX_BACKOFF_FACTOR, Math.floor(MAX_BACKOFF_MS / interval)));
          this.factor = changed ? 1 : Math.min(this.factor * 2, cap);
        }
      } catch (error) {
        this.options.onError?.(error);
      }
    })();
    this.inFlight = promise.finally(() => {
      this.inFlight = undefined;
      if (!this.queued) this.schedule();
    });
    return this.inFlight;
  }
}
