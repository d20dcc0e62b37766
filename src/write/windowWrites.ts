// This window's writes: one object per write, its record with what the window holds of it besides (when it is due,
// since when it is looked for, since when its record is missing from global state), kept in memory and written
// through to global state (write/store.ts). For a write submitted here, memory is the truth: VS Code keeps an
// extension's global state as one value, which an echo of an older write (this window's or another's) may replace
// for a moment or for good. Pure: no `vscode`.
import type { Clock } from '../api/clock';
import { nextBackoff } from '../util/backoff';
import { waitsForPerson, type WriteRecord } from './records';
import type { RecordStore } from './store';

/** What this window holds of one of its writes. */
export interface HeldWrite {
  record: WriteRecord;
  /** Submitted in this window (not taken over): its memory is the truth for it. */
  createdHere: boolean;
  /** When it is due next, on the monotonic clock (undefined: now). */
  dueAt?: number;
  /** Since when (monotonic) it has been looked for here, added to its `lookedForMs`. */
  lookingSince?: number;
  /** Since when (monotonic) its record has been missing from global state. */
  missingSince?: number;
  /** Left for the loop's next run: its record is missing for now. */
  retrying?: boolean;
}

export interface WindowWritesOptions {
  /** The longest wait between lookups, and before a resend after maintenance. */
  maxWaitMs: number;
}

export class WindowWrites {
  private readonly held = new Map<string, HeldWrite>();

  constructor(
    private readonly store: RecordStore,
    private readonly clock: Clock,
    private readonly opts: WindowWritesOptions,
    /** This window's writes changed (told to the outbox's listeners). */
    private readonly changed: () => void,
    private readonly disposed: () => boolean,
  ) {}

  get(id: string): HeldWrite | undefined {
    return this.held.get(id);
  }

  /** The write's record as this window holds it. */
  record(id: string): WriteRecord | undefined {
    return this.held.get(id)?.record;
  }

  has(id: string): boolean {
    return this.held.has(id);
  }

  all(): HeldWrite[] {
    return [...this.held.values()];
  }

  records(): WriteRecord[] {
    return this.all().map((h) => h.record);
  }

  get size(): number {
    return this.held.size;
  }

  /** Holds a write (a new one, or a new state of one held): what else is held of it stays. */
  hold(record: WriteRecord, createdHere = false): HeldWrite {
    const held = this.held.get(record.id);
    if (held) {
      held.record = record;
      return held;
    }
    const fresh: HeldWrite = { record, createdHere };
    this.held.set(record.id, fresh);
    return fresh;
  }

  /** Lets go of a write here only (it finished: its record is written by whoever finished it). */
  release(id: string): boolean {
    return this.held.delete(id);
  }

  /**
   * Every write not finished, of every window and account, oldest first: global state's records (those this version
   * leaves alone too, as `problem`), this window's own from memory, never one this window let go.
   */
  unfinished(): WriteRecord[] {
    const byId = new Map<string, WriteRecord>();
    for (const read of this.store.stored()) {
      const record = 'record' in read ? read.record : read.problem;
      if (record.state !== 'done' && !this.store.gone.has(record.id) && !this.store.isClaimKept(record.id)) byId.set(record.id, record);
    }
    for (const { record } of this.held.values()) if (record.state !== 'done') byId.set(record.id, record);
    return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** Keeps a new state of a write of this window, in memory and global state; with `must`, false when global state refused it. */
  async save(record: WriteRecord, must = false): Promise<boolean> {
    if (this.disposed()) return false;
    this.hold(record);
    const ok = await this.store.write(record);
    this.changed();
    return ok || !must;
  }

  /** Forgets a write, here and in global state (finished having made nothing to claim, or discarded). */
  async remove(id: string): Promise<void> {
    this.held.delete(id);
    this.store.gone.add(id);
    await this.store.write(undefined, id);
    this.changed();
  }

  /** Lets go of a write this window may no longer act on (finished, or taken, in another window). */
  drop(id: string): void {
    if (!this.held.delete(id)) return;
    this.store.gone.add(id);
    this.changed();
  }

  /** Whether the write needs this window now: on its way, or its wait is over. */
  isDue(record: WriteRecord): boolean {
    if (record.problem || waitsForPerson(record) || record.state === 'done') return false;
    if (record.state === 'sending') return true;
    return (this.held.get(record.id)?.dueAt ?? -Infinity) <= this.clock.monotonic();
  }

  /** The write is due again in `ms` (monotonic); `notBefore` says when on this machine's clock, to be shown. */
  wait(id: string, ms: number): { notBefore: number } {
    const held = this.held.get(id);
    if (held) held.dueAt = this.clock.monotonic() + ms;
    return { notBefore: this.clock.now() + ms };
  }

  /** The next wait between lookups or sends, backing off: 1 s, doubled each time, up to `maxWaitMs`. */
  later(record: WriteRecord): { notBefore: number; waitMs: number } {
    const waitMs = nextBackoff({ firstMs: 1_000, factor: 2, capMs: this.opts.maxWaitMs }, record.waitMs);
    return { ...this.wait(record.id, waitMs), waitMs };
  }

  /** How long the write has been looked for, here and in the windows before. */
  lookedFor(record: WriteRecord): number {
    const mono = this.clock.monotonic();
    return (record.lookedForMs ?? 0) + (mono - (this.held.get(record.id)?.lookingSince ?? mono));
  }

  /** The write is looked for from now on, here. */
  lookingFromNow(id: string): void {
    const held = this.held.get(id);
    if (held) held.lookingSince = this.clock.monotonic();
  }
}
