// Automatic refresh of the task view, on the shared poller: it runs only while the view is visible, the window
// focused and something queued or running; it backs off ×2 while nothing changes, and never runs two at once.
// No `vscode` import.
import { Poller, type PollBudget, type Timers } from '../util/poller';

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
  clock: Timers;
  /** Up to this many ms are added to the first refresh after the window regains focus, so many windows do not fire at once. */
  jitterMs?: number;
  random?: () => number;
  onError?: (error: unknown) => void;
  /** The API budget: refreshes slow down while it is low. */
  budget?: PollBudget;
}

export class Refresher {
  private readonly poller: Poller;
  private factor = 1;

  constructor(private readonly options: RefresherOptions) {
    this.poller = new Poller({
      poll: (automatic) => this.refresh(automatic),
      hasWork: () => this.interval() > 0 && options.hasActiveWork(),
      interval: () => Math.min(this.interval() * this.factor, this.cap()),
      maxWaitMs: () => this.cap(),
      visible: false,
      clock: options.clock,
      jitterMs: options.jitterMs,
      random: options.random,
      onError: options.onError,
      budget: options.budget,
    });
  }

  /** The wait before the next automatic refresh, or undefined when none is scheduled. */
  get nextDelay(): number | undefined {
    return this.poller.nextDelay;
  }

  get running(): boolean {
    return this.poller.running;
  }

  setVisible(visible: boolean): void {
    if (visible) this.factor = 1;
    this.poller.setVisible(visible);
  }

  setFocused(focused: boolean): void {
    if (focused) this.factor = 1;
    this.poller.setFocused(focused);
  }

  /** Re-reads the setting and whether there is work: call after a refresh, a setting change or a filter change. */
  reschedule(): void {
    this.poller.reschedule();
  }

  /**
   * Fresh data arrived by other means (the view opened, a group expanded): the next automatic refresh is
   * due an interval from now, and is scheduled if there is now something active.
   */
  markFresh(): void {
    this.poller.markFresh();
  }

  /** Schedules a refresh if none is scheduled (something new is shown: it may be queued or running). */
  poke(): void {
    this.poller.schedule();
  }

  /**
   * Refreshes now (the "Refresh Tasks" command, a new filter). While one is in flight, one more follows it
   * (so what is shown reflects the latest request) and both callers wait for that one.
   */
  refreshNow(): Promise<void> {
    this.factor = 1;
    return this.poller.runNow();
  }

  dispose(): void {
    this.poller.dispose();
  }

  private interval(): number {
    return intervalMs(this.options.intervalSeconds());
  }

  /** The longest wait: the interval × 8, at most 5 minutes (but never less than the interval). */
  private cap(): number {
    const interval = this.interval();
    return Math.max(interval, Math.min(interval * MAX_BACKOFF_FACTOR, MAX_BACKOFF_MS));
  }

  private async refresh(automatic: boolean): Promise<void> {
    const changed = await this.options.refresh();
    if (!automatic) return;
    const interval = this.interval() || 1;
    const cap = Math.max(1, Math.min(MAX_BACKOFF_FACTOR, Math.floor(MAX_BACKOFF_MS / interval)));
    this.factor = changed ? 1 : Math.min(this.factor * 2, cap);
  }
}
