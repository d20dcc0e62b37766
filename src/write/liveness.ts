// Which windows are alive, as this window sees them: each beats a heartbeat in global state, and another is judged
// by how long *this* window has watched its beat not change, on the monotonic clock, never by comparing wall-clock
// stamps (a window's clock may be set off, and a laptop that slept for an hour has stamps an hour old). A window
// that has not looked for more than two beats (it slept, or was frozen) starts every watch again. A beat names the
// work its window runs that others must see alive (a transfer under way). Pure.
import type { Clock } from '../api/clock';
import { STATE_KEY_PREFIXES } from '../keys/state';
import type { SharedState } from '../util/stateStore';

const BEAT_PREFIX = STATE_KEY_PREFIXES.writerBeat;

/** A window's heartbeat. `seq` changes with every beat; `at` is its wall clock, for a person reading the state only. */
export interface Beat {
  seq: number;
  /** The account the window sends as now: only the windows of an account take its writes over. */
  account?: string;
  at: number;
  /** The window closed cleanly with nothing on its way: its writes may be taken over at once. */
  closed?: true;
  /** What the window runs that other windows must see alive: transfers under way (`upload:<run>`, `download:<folder>`). */
  work?: string[];
}

export interface LivenessOptions {
  heartbeatMs: number;
  /** Watched this long without a change, a beat is a window gone. */
  staleMs: number;
}

export class Liveness {
  /** Each window's beat as last read, and since when (monotonic) it has read that same beat. */
  private readonly watched = new Map<string, { beat: string; since: number }>();
  private seq = 0;
  /** When this window last beat, on both clocks: a long gap on either is a resume from sleep. */
  private last: { mono: number; wall: number } | undefined;
  /** Since when this window has beaten, as the same account, without a gap (monotonic). */
  private beatingSince: number | undefined;
  private beatingAs: string | undefined;
  /** When this window last read the others' beats, on both clocks: a long gap on either is a sleep. */
  private lastLook: { mono: number; wall: number } | undefined;

  constructor(
    readonly id: string,
    private readonly state: SharedState,
    private readonly clock: Clock,
    private readonly opts: LivenessOptions,
  ) {}

  /**
   * Writes this window's beat, with the account it sends as and the work it runs. A gap since the last one restarts
   * every watch.
   */
  async beat(account: string | undefined, work: readonly string[] = []): Promise<void> {
    const gap = this.resumed();
    if (gap) this.restartWatches();
    const mono = this.clock.monotonic();
    if (gap || this.beatingSince === undefined || account !== this.beatingAs) this.beatingSince = mono;
    this.beatingAs = account;
    this.last = { mono, wall: this.clock.now() };
    const beat: Beat = { seq: ++this.seq, account, at: this.clock.now(), ...(work.length ? { work: [...work] } : {}) };
    await Promise.resolve(this.state.update(BEAT_PREFIX + this.id, beat)).catch(() => undefined);
  }

  /** Stops beating: `closed` tells the others they may take over at once; otherwise the beat is removed. */
  async stop(closed: boolean): Promise<void> {
    this.last = undefined;
    this.beatingSince = undefined;
    const value: Beat | undefined = closed ? { seq: ++this.seq, at: this.clock.now(), closed: true } : undefined;
    await Promise.resolve(this.state.update(BEAT_PREFIX + this.id, value)).catch(() => undefined);
  }

  /**
   * Whether this window has not beaten for more than two beats, on either clock: it slept (or was frozen), and
   * what it watched meanwhile tells nothing. It must beat again before it takes anything over.
   */
  resumed(): boolean {
    if (!this.last) return true;
    const gap = Math.max(this.clock.monotonic() - this.last.mono, this.clock.now() - this.last.wall);
    return gap > 2 * this.opts.heartbeatMs;
  }

  /** Whether this window's beat, with the account it sends as, has been going long enough to have reached every window. */
  beatingFor(ms: number): boolean {
    return this.beatingSince !== undefined && !this.resumed() && this.clock.monotonic() - this.beatingSince >= ms;
  }

  /** Reads every window's beat, noting those that changed since the last read. */
  observe(): void {
    if (this.lookedAway()) this.restartWatches();
    const now = this.clock.monotonic();
    const seen = new Set<string>();
    for (const key of this.state.keys()) {
      if (!key.startsWith(BEAT_PREFIX)) continue;
      const id = key.slice(BEAT_PREFIX.length);
      seen.add(id);
      this.note(id, JSON.stringify(this.state.get(key) ?? null), now);
    }
    // A window whose beat is gone (closed by an older version, or never seen) is watched as "absent".
    for (const [id, watch] of this.watched) if (!seen.has(id) && watch.beat !== 'absent') this.note(id, 'absent', now);
  }

  /** Whether the window is gone: closed cleanly, or its beat watched unchanged (or absent) for `staleMs`. */
  isGone(id: string): boolean {
    if (id === this.id) return false;
    this.note(id, this.beatText(id), this.clock.monotonic());
    if (this.closedBeat(id)) return true;
    return this.clock.monotonic() - this.watched.get(id)!.since > this.opts.staleMs;
  }

  /** The windows alive that send as `account` (this one included when it does), by ID. */
  aliveFor(account: string): string[] {
    this.observe();
    const ids: string[] = [];
    for (const id of this.watched.keys()) {
      if (this.isGone(id)) continue;
      const beat = this.state.get<Beat>(BEAT_PREFIX + id);
      if (beat && typeof beat === 'object' && beat.account === account) ids.push(id);
    }
    return ids;
  }

  /** The work the other windows alive name in their beats (a transfer one of them runs). */
  workElsewhere(): Set<string> {
    this.observe();
    const work = new Set<string>();
    for (const id of this.watched.keys()) {
      if (id === this.id || this.isGone(id)) continue;
      const beat = this.state.get<Beat>(BEAT_PREFIX + id);
      if (beat && typeof beat === 'object' && Array.isArray(beat.work)) for (const w of beat.work) if (typeof w === 'string') work.add(w);
    }
    return work;
  }

  /** Forgets a closed window's beat once nothing of it is left to take over. */
  async forget(id: string): Promise<void> {
    if (!this.closedBeat(id)) return;
    this.watched.delete(id);
    await Promise.resolve(this.state.update(BEAT_PREFIX + id, undefined)).catch(() => undefined);
  }

  /** Every window watched that closed cleanly. */
  closedWindows(): string[] {
    return [...this.watched.keys()].filter((id) => this.closedBeat(id));
  }

  private closedBeat(id: string): boolean {
    const beat = this.state.get<Beat>(BEAT_PREFIX + id);
    return !!beat && typeof beat === 'object' && beat.closed === true;
  }

  private beatText(id: string): string {
    const beat = this.state.get(BEAT_PREFIX + id);
    return beat === undefined ? 'absent' : JSON.stringify(beat);
  }

  private note(id: string, beat: string, now: number): void {
    const watch = this.watched.get(id);
    if (!watch || watch.beat !== beat) this.watched.set(id, { beat, since: now });
  }

  /**
   * Whether this window has not looked at the beats for more than two beats, on either clock (it slept, or was
   * frozen): what it would judge from the watches then tells nothing. The outbox looks every beat.
   */
  private lookedAway(): boolean {
    const now = { mono: this.clock.monotonic(), wall: this.clock.now() };
    const last = this.lastLook;
    this.lastLook = now;
    return !!last && Math.max(now.mono - last.mono, now.wall - last.wall) > 2 * this.opts.heartbeatMs;
  }

  /** After a sleep: nothing watched meanwhile counts. */
  private restartWatches(): void {
    const now = this.clock.monotonic();
    for (const watch of this.watched.values()) watch.since = now;
  }
}
