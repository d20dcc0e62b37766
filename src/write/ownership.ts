// Which window owns a write: the one that records it, until it is gone. Each window with writes in view beats a
// heartbeat in global state (write/liveness.ts judges another's by how long this one has watched it not change); the
// writes of a window gone are taken over by the lowest window ID alive for their account, through bids that settle
// longer than global state takes to reach every window, so one window wins and none livelocks. Before any step the
// stored record is read again: a write finished, or another window's now, is this window's no more. Pure: no `vscode`.
import type { Clock } from '../api/clock';
import { STATE_KEY_PREFIXES } from '../keys/state';
import type { SharedState } from '../util/stateStore';
import { Liveness } from './liveness';
import type { Account, WriteRecord } from './records';
import type { RecordStore } from './store';
import type { WindowWrites } from './windowWrites';

const BID_PREFIX = STATE_KEY_PREFIXES.writeBid;
/** A rate-limit wait is at most this long (the platform's window is 5 minutes). */
export const MAX_RATE_WAIT_MS = 5 * 60_000;

export interface OwnershipOptions {
  heartbeatMs: number;
  /** A beat watched this long without a change is a window gone. */
  staleMs: number;
  /** Longer than global state takes to reach every window (twice the propagation delay). */
  settleMs: number;
}

export class Ownership {
  private readonly liveness: Liveness;
  /** What this window runs that other windows must see alive (transfers under way), each with how many hold it. */
  private readonly work = new Map<string, number>();
  private beatTimer: unknown;
  private beating = false;
  /** The account the last run (or submit) sent as: its writes are this window's work now, its beat says so. */
  sendingAs: string | undefined;

  constructor(
    readonly id: string,
    private readonly state: SharedState,
    private readonly clock: Clock,
    private readonly opts: OwnershipOptions,
    private readonly store: RecordStore,
    private readonly writes: WindowWrites,
    private readonly changed: () => void,
    private readonly disposed: () => boolean,
  ) {
    this.liveness = new Liveness(id, state, clock, opts);
  }

  /** Whether the window is gone (write/liveness.ts). */
  isGone(window: string): boolean {
    return this.liveness.isGone(window);
  }

  /** Back from a sleep, or not beating until now: the window must beat again before it does anything. */
  resumed(): boolean {
    return this.liveness.resumed();
  }

  /** This window runs `work` that other windows must see alive: its heartbeat names it until the handle is disposed. */
  keepAlive(work: string): { dispose(): void } {
    this.work.set(work, (this.work.get(work) ?? 0) + 1);
    this.beat();
    let held = true;
    return {
      dispose: () => {
        if (!held) return;
        held = false;
        const left = (this.work.get(work) ?? 1) - 1;
        if (left > 0) this.work.set(work, left);
        else this.work.delete(work);
        this.beat();
      },
    };
  }

  /** The work the other windows alive name in their heartbeats: what one of them runs now. */
  workElsewhere(): Set<string> {
    return this.liveness.workElsewhere();
  }

  /** Keeps this window's heartbeat while any write is in view (its own, or one it may have to take over). */
  beat(): void {
    if (this.disposed()) return;
    if (this.beatTimer !== undefined) this.clock.clearTimeout(this.beatTimer);
    const needed = this.needsBeat();
    // Watching starts with the first beat: a window gone is seen as soon as possible.
    this.liveness.observe();
    if (needed) void this.liveness.beat(this.sendingAs, [...this.work.keys()]);
    else if (this.beating) void this.liveness.stop(false);
    this.beating = needed;
    this.beatTimer = this.clock.setTimeout(() => this.beat(), this.opts.heartbeatMs);
  }

  /** Whether any write is in view: this window's, or one it may have to take over; or work others must see alive. */
  needsBeat(): boolean {
    return this.writes.size > 0 || this.work.size > 0 || this.store.records().some((r) => r.state !== 'done');
  }

  /**
   * Where this window stands with one of its writes, by the record in global state: `mine`; `lost` (finished, or
   * another window alive owns it now); or `wait` while the record is missing. A missing record never grants
   * permission. A write made here is then recorded again from this window's memory, its truth, and acted on once
   * global state shows it; a write taken over from another window and missing for longer than the settle time was
   * finished or discarded there, and is let go.
   */
  standing(id: string): 'mine' | 'lost' | 'wait' {
    const read = this.store.read(id);
    const held = this.writes.get(id);
    if (read && 'record' in read) {
      if (held) held.missingSince = undefined;
      const stored = read.record;
      if (stored.state === 'done' || (stored.owner !== this.id && !this.liveness.isGone(stored.owner))) return 'lost';
      return 'mine';
    }
    // Not held (discarded meanwhile): nothing grants permission, nothing takes it away (a write found is still followed).
    if (!held) return 'wait';
    if (held.createdHere) {
      void this.store.write(held.record);
      return 'wait';
    }
    const mono = this.clock.monotonic();
    held.missingSince ??= mono;
    return mono - held.missingSince > this.opts.settleMs ? 'lost' : 'wait';
  }

  /** Whether global state shows this very attempt on its way (not an older value echoed back): only then is it sent. */
  shows(sending: WriteRecord): boolean {
    const stored = this.store.actionable(sending.id);
    return !!stored && stored.state === 'sending' && stored.attempts === sending.attempts && stored.owner === this.id;
  }

  /** Whether another write of the account is on its way (its answer could be what a lookup finds). */
  othersSending(record: WriteRecord): boolean {
    return this.writes.unfinished().some((r) => r.id !== record.id && r.account === record.account && r.state === 'sending' && (this.writes.has(r.id) || !this.liveness.isGone(r.owner)));
  }

  /**
   * Takes over the account's writes whose window is gone. Only the lowest window ID alive for the account bids; a
   * bid is a key of its own (so that no window's write hides another's), and after the settle time the lowest bid
   * of a window alive wins, unless a window already took the write (the record names a window alive). Only the
   * winner writes the record. With the settle time longer than two trips of global state, one window wins.
   */
  async takeOver(account: Account): Promise<void> {
    const orphans = () =>
      this.store.records().filter((r) => r.account === account.key && r.state !== 'done' && !this.writes.has(r.id) && !this.store.gone.has(r.id) && this.liveness.isGone(r.owner));
    const lowest = () => this.liveness.aliveFor(account.key).every((id) => id >= this.id);
    await this.forgetBids();
    if (!this.liveness.beatingFor(this.opts.settleMs) || !orphans().length || !lowest()) return this.forgetClosedWindows();
    const bids = orphans().map((r) => ({ record: r, key: `${BID_PREFIX}${r.id}#${this.id}` }));
    for (const bid of bids) await Promise.resolve(this.state.update(bid.key, { at: this.clock.now() })).catch(() => undefined);
    await this.pause(this.opts.settleMs);
    for (const { record, key } of bids) {
      if (this.disposed()) return;
      const stored = this.store.actionable(record.id);
      const won = stored && stored.state !== 'done' && this.liveness.isGone(stored.owner) && this.lowestBid(record.id) === this.id;
      if (won) {
        const taken: WriteRecord = { ...stored, owner: this.id };
        if (await this.store.write(taken)) {
          const held = this.writes.hold(taken);
          const mono = this.clock.monotonic();
          held.dueAt = mono + Math.min(Math.max(0, (taken.notBefore ?? 0) - this.clock.now()), MAX_RATE_WAIT_MS);
          if (taken.state === 'unsure' || taken.state === 'sending') held.lookingSince = mono;
        }
      }
      await Promise.resolve(this.state.update(key, undefined)).catch(() => undefined);
    }
    this.beat();
    this.changed();
  }

  /**
   * A clean close lets other windows take over at once, unless a POST is on its way: then the heartbeat is left to go
   * stale, so that nobody looks it up before the platform could have answered it.
   */
  close(): void {
    if (this.beatTimer !== undefined) this.clock.clearTimeout(this.beatTimer);
    const left = this.writes.records().filter((r) => r.state !== 'done');
    if (!left.some((r) => r.state === 'sending')) void this.liveness.stop(left.length > 0 || this.beating);
  }

  /** Waits `ms` on this window's timers (the settle time). */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }

  /** The window whose bid for the write wins: the lowest ID among the bids of windows alive. */
  private lowestBid(recordId: string): string | undefined {
    const prefix = `${BID_PREFIX}${recordId}#`;
    const bidders = this.state
      .keys()
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length))
      .filter((id) => !this.liveness.isGone(id));
    return bidders.sort()[0];
  }

  /** Bids left by windows gone, or for writes gone, are removed by whoever sees them. */
  private async forgetBids(): Promise<void> {
    for (const key of this.state.keys()) {
      if (!key.startsWith(BID_PREFIX)) continue;
      const [recordId, window] = key.slice(BID_PREFIX.length).split('#');
      if (window === this.id) continue;
      if (this.liveness.isGone(window) || !this.store.read(recordId)) await Promise.resolve(this.state.update(key, undefined)).catch(() => undefined);
    }
  }

  /** A window that closed cleanly leaves a mark; it goes once none of its writes is left. */
  private async forgetClosedWindows(): Promise<void> {
    const owners = new Set(this.store.records().filter((r) => r.state !== 'done').map((r) => r.owner));
    for (const id of this.liveness.closedWindows()) if (!owners.has(id)) await this.liveness.forget(id);
  }
}
