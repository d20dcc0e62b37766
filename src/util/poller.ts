// The one timer loop of the extension: the task view's auto-refresh, the copy-job tracker, the watched tasks and
// the outbox each hand it their own timing rule. It runs one round at a time, waits as the rule says (doubled
// after a failed round), stops while there is nothing to follow, pauses (or slows) while the window is in
// the background or the view hidden, and slows while the API budget is low. No `vscode` import.
import { nextBackoff } from './backoff';

/** The time and timers the poller runs on: the extension's one Clock (src/api/clock.ts), or a test's fake. */
export interface Timers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The API budget as a background poller sees it (api/budget.ts: `ApiBudget`). */
export interface PollBudget {
  /** Answers read so far: a round's cost is the difference before and after it. */
  readonly answered: number;
  /** The wait before a round that costs `roundCost` requests: `waitMs`, or longer while the budget is low. */
  backgroundWait(waitMs: number, roundCost: number): number;
}

export interface PollerOptions {
  /** One round. `automatic` is false for a round asked for with `runNow`. A rejection is a failed round. */
  poll: (automatic: boolean) => Promise<unknown>;
  /** Whether anything is left to follow; while not, no round is scheduled. */
  hasWork: () => boolean;
  /** The caller's timing rule: the wait before the next round, read each time one is scheduled. */
  interval: () => number;
  /** The longest wait the back-off after failed rounds reaches; none by default (it doubles without end). */
  maxWaitMs?: () => number;
  /** While away (window unfocused, view hidden): undefined stops polling; a number keeps polling at that wait. */
  awayWaitMs?: number;
  /** Whether the view is shown at first (default true); `setVisible` changes it. */
  visible?: boolean;
  /** Up to this many ms are added to the first round after coming back, so that many windows do not fire at once. */
  jitterMs?: number;
  random?: () => number;
  clock: Timers;
  onError?: (error: unknown) => void;
  /** Background work: its automatic rounds slow down while the budget is low, by what the last round cost. */
  budget?: PollBudget;
}

export class Poller {
  private readonly clock: Timers;
  private timer: unknown;
  private due: number | undefined;
  private inFlight: Promise<void> | undefined;
  /** A round asked for (runNow) while one was under way: it runs after it. */
  private followUp: Promise<void> | undefined;
  /** The soonest wait asked for while a round was under way, applied once it ends. */
  private pendingDelay: number | undefined;
  private backoff = 0;
  private lastRound = 0;
  /** Requests the last round cost (as the budget counted them), 1 until a round has run. */
  private roundCost = 1;
  private visible: boolean;
  private focused = true;
  private paused = false;
  private disposed = false;

  constructor(private readonly options: PollerOptions) {
    this.clock = options.clock;
    this.visible = options.visible ?? true;
  }

  /** When the next round is due (epoch ms), or undefined when none is scheduled. */
  get dueAt(): number | undefined {
    return this.due;
  }

  /** The wait before the next round, or undefined when none is scheduled. */
  get nextDelay(): number | undefined {
    return this.due === undefined ? undefined : Math.max(0, this.due - this.clock.now());
  }

  get running(): boolean {
    return this.inFlight !== undefined;
  }

  /** The back-off after failed rounds in a row (ms); 0 once a round succeeds. */
  get backoffMs(): number {
    return this.backoff;
  }

  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    this.presenceChanged();
  }

  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    this.presenceChanged();
  }

  /** No rounds until `resume` (signed out, the token rejected). */
  pause(): void {
    this.paused = true;
    this.cancelTimer();
  }

  /** Rounds again, the back-off forgotten; the next after `delay` (default: the rule's wait). */
  resume(delay?: number): void {
    this.paused = false;
    this.backoff = 0;
    this.schedule(delay);
  }

  /**
   * Schedules a round after `delay` (default: the rule's wait), unless one is due sooner or there is nothing to
   * follow. While a round is under way, the next is scheduled when it ends, at the soonest wait asked for.
   */
  schedule(delay?: number): void {
    if (!this.canRun()) return;
    delay ??= this.wait();
    if (this.inFlight) {
      this.pendingDelay = Math.min(this.pendingDelay ?? Infinity, delay);
      return;
    }
    if (this.due !== undefined && this.due <= this.clock.now() + delay) return;
    this.arm(delay);
  }

  /** Drops the round scheduled and schedules again by the rule (the rule or what there is to follow changed). */
  reschedule(): void {
    this.cancelTimer();
    this.schedule();
  }

  /** Fresh data arrived by other means: the next round is due a wait from now. */
  markFresh(): void {
    this.lastRound = this.clock.now();
    this.schedule();
  }

  /** A round now. While one is under way, one more follows it and every caller waits for that one. */
  runNow(): Promise<void> {
    if (this.inFlight) {
      this.followUp ??= this.inFlight.then(() => {
        this.followUp = undefined;
        return this.disposed ? undefined : this.run(false);
      });
      return this.followUp;
    }
    return this.run(false);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private get present(): boolean {
    return this.visible && this.focused;
  }

  private canRun(): boolean {
    return !this.disposed && !this.paused && (this.present || this.options.awayWaitMs !== undefined) && this.options.hasWork();
  }

  /** The rule's wait, or the wait while away. */
  private baseWait(): number {
    return this.present ? this.options.interval() : (this.options.awayWaitMs ?? this.options.interval());
  }

  /** The base wait stretched by the back-off after failures, and by the budget while it is low. */
  private wait(): number {
    const wait = Math.min(this.options.maxWaitMs?.() ?? Infinity, Math.max(this.baseWait(), this.backoff));
    return this.options.budget ? this.options.budget.backgroundWait(wait, this.roundCost) : wait;
  }

  private presenceChanged(): void {
    if (!this.present) {
      if (this.options.awayWaitMs === undefined) this.cancelTimer();
      return;
    }
    // Back after a while away: a round soon (what is shown may be stale), else the normal pace.
    const wait = this.wait();
    const since = this.clock.now() - this.lastRound;
    const jitter = Math.floor((this.options.random ?? Math.random)() * (this.options.jitterMs ?? 1000));
    this.schedule(since >= wait ? jitter : wait - since);
  }

  private arm(delay: number): void {
    this.cancelTimer();
    this.due = this.clock.now() + delay;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.due = undefined;
      if (!this.inFlight && this.canRun()) void this.run(true);
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.due = undefined;
  }

  private run(automatic: boolean): Promise<void> {
    this.cancelTimer();
    this.lastRound = this.clock.now();
    const answered = this.options.budget?.answered;
    const round = (async () => {
      try {
        await this.options.poll(automatic);
        this.backoff = 0;
      } catch (error) {
        // The first failure doubles the rule's wait, each next one the wait before.
        this.backoff = nextBackoff({ firstMs: 2 * this.baseWait(), factor: 2, capMs: this.options.maxWaitMs?.() ?? Infinity }, this.backoff);
        this.options.onError?.(error);
      }
      // Other work's answers in the meantime count too: an overestimate only slows the next round more.
      if (answered !== undefined) this.roundCost = Math.max(1, this.options.budget!.answered - answered);
    })();
    this.inFlight = round.finally(() => {
      this.inFlight = undefined;
      const pending = this.pendingDelay;
      this.pendingDelay = undefined;
      if (!this.followUp && this.canRun()) this.schedule(Math.min(pending ?? Infinity, this.wait()));
    });
    return this.inFlight;
  }
}
