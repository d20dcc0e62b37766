import { randomUUID } from 'crypto';
import * as l10n from '@vscode/l10n';
import { systemClock, type Clock } from '../api/clock';
import { Emitter } from '../util/emitter';
import { Poller } from '../util/poller';
import type { SharedState } from '../util/stateStore';
import { WriteKinds, type LoadKinds, type WriteKind } from './kinds';
import { Lifecycle } from './lifecycle';
import { Ownership } from './ownership';
import { USER_DECIDES, WRITE_SCHEMA, type Account, type FinishedWrite, type WriteRecord, type WriteState } from './records';
import { settle, type Patience, type Settled } from './settle';
import { RecordStore } from './store';
import { WindowWrites } from './windowWrites';

export type { LoadKinds, Lookup, WriteKind } from './kinds';
export type { Account, FinishedWrite, WriteRecord, WriteState } from './records';
export { USER_DECIDES, waitsForPerson } from './records';
export type { Patience, Settled, Until } from './settle';

/*
 * The one way this extension writes to the platform: every kind of write (the table src/writeKinds.ts builds it
 * from) declares how it is sent and how a lost one is found (write/kinds.ts; ARCHITECTURE.md, "Writes"). Callers
 * submit writes and wait for them with `send` (write/settle.ts). This file is the front door and the loop; the parts
 * are one file each: a write's lifecycle (write/lifecycle.ts), window ownership and takeover (write/ownership.ts,
 * write/liveness.ts), the records in global state (write/store.ts, write/records.ts), and what this window holds of
 * each of its writes (write/windowWrites.ts).
 *
 * A write is recorded in global state before it is sent, under its own key, and goes through these states:
 *
 *   queued ──send──▶ sending ──answer──▶ sent ──kind takes it──▶ done (kept a while as the claim of what it made)
 *     ▲                │
 *     │ 429, 503/0,    ├─ 4xx refusal ─────────────────▶ failed   (the person: Submit Again, or Discard)
 *     │ refused conn.  │   (after an ambiguous try, or one the kind checks: looked up, not believed)
 *     └────────────────┤
 *                      └─ timeout, dropped, 5xx, unreadable ──▶ unsure ──lookup──▶ found: sent
 *                                                                 │  ▲     idempotent and not done: queued (a destructive
 *                                                                 │  │       kind only once the late window is over)
 *                                                                 │  │     changed by someone else, or gone: changed
 *                                                                 │  │       (the person: Submit Again, or Discard)
 *                                                                 └──┘     not found or unknown: look again, until
 *                                                                          the late window is over ──▶ notFound
 *                                                                          (the person: Submit Again, or Discard)
 *
 * What it guarantees, and how:
 * - One owner. The window that records a write owns it: only it sends, looks it up, or claims what it made.
 *   Every window with writes in view beats a heartbeat in global state; another window's is judged by how long
 *   this one has watched it not change, on the monotonic clock (write/liveness.ts). A write whose owner is gone is
 *   taken over by the lowest window ID alive for its account, which claims it, waits longer than global state
 *   takes to reach every window, and keeps it unless a lower window alive claims it too: it cannot livelock.
 *   After a sleep a window beats again before it takes anything over. A write taken over while `sending` is
 *   `unsure`: it is looked up before anything else.
 * - Never sent without its record. Before any step the stored record is read again: missing, finished, or
 *   another window's, the step is dropped. `sending` (and the attempt count) is written, and that write awaited,
 *   before the POST leaves; if global state refuses it, nothing is sent.
 * - Resent without asking only after an answer that proves the platform did not process the call (429, 503 with
 *   code 0, a connection refused before a byte was sent), once the wait is over; or, for an idempotent kind, after
 *   a lookup that shows it not done. An ambiguous answer is not a "no": a write that is not idempotent is looked
 *   for during the late window (LATE_WINDOW_MS), then the person decides, with what the lookup saw.
 * - Identity by difference: a lost write is found as what appeared on the platform after a snapshot taken before
 *   the send, taken by no other write. A write claims what it made (answered or found) in its record, kept after
 *   it finished; a lookup's adoption is confirmed after the settle time, the lowest write ID winning a tie.
 * - Records are checked when read back (write/records.ts): a version, state or kind this code does not know is
 *   left alone; a damaged record (payload, or the outcome of a write that reached the platform) is shown as failed,
 *   with Discard; a damaged snapshot is dropped, and a write found by difference without one is never found (the
 *   person decides after the late window); the rest carries on.
 * - Bound to its account (endpoint and username): sent, looked up and finished only with that account's
 *   credentials; writes of another account wait, untouched, until that account is back.
 * - Nothing stored carries the token: notes and answers are redacted after decoding, answers trimmed to what the
 *   kind keeps. All waits run on the monotonic clock; this machine's wall clock is only shown.
 * - The kinds' code may be loaded (`LoadKinds`: the extension's is in dist/features.js, main.ts): no record is read or
 *   made before it is. It is loaded by the first `submit`, or by the loop once global state holds a record (at start,
 *   what a reload left or a finished write's claim, kept a while; later, another window's). Until then `all()` lists
 *   nothing: the extension loads the kinds with its features, before any command runs, so no caller that looks for a
 *   write on its way misses one.
 */

export interface OutboxOptions {
  heartbeatMs?: number;
  /** A beat watched this long without a change is a window gone: longer than any POST can take (its timeout) plus two beats. */
  staleMs?: number;
  /** Longer than global state takes to reach every window (twice the propagation delay). */
  settleMs?: number;
  /** Wait after an ambiguous answer before the first lookup. */
  lookupDelayMs?: number;
  /** Longest wait between lookups, and before a resend after maintenance. */
  maxWaitMs?: number;
  /** How long a write that may have been processed is looked for before the person decides (LATE_WINDOW_MS). */
  lateWindowMs?: number;
  /** How long a finished write's claim is kept, at least (and while any write of its account is unfinished). */
  claimKeepMs?: number;
}

/**
 * How long a write that may have been processed is looked for before the person is asked: at least the request's
 * own timeout plus a margin. The transport gives up on a request after 30 s; the platform's load balancer lets a
 * request run up to 60 s (a common gateway timeout), so a request given up on can still act until about 60 s after
 * it left; what it made must then show in the platform's lists, which takes a few seconds more. Two minutes covers
 * both with room to spare, and costs about seven lookups (waits of 1, 2, 4 … 60 s).
 */
export const LATE_WINDOW_MS = 2 * 60_000;

/** Records, sends, looks up and finishes the writes of this window (see the states above). */
export class Outbox {
  /** The kinds of write this outbox sends, by name: the table it was built from. */
  readonly kinds: WriteKinds;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly finished = new Emitter<FinishedWrite>();
  /** A write of this window reached the platform (answered, or found after a lost answer) and its kind took it. */
  readonly onDidFinish = this.finished.event;
  private readonly id = `w${randomUUID()}`;
  private readonly opts: Required<OutboxOptions>;
  private readonly store: RecordStore;
  private readonly writes: WindowWrites;
  private readonly owners: Ownership;
  private readonly lifecycle: Lifecycle;
  /** The loop: a run at once when woken, else when the next write is due or a heartbeat from now. */
  private readonly loop: Poller;
  /** The last run found no account to send as (signed out, or the username not known). */
  private blocked = false;
  /** After a resume, nothing is done until then (monotonic). */
  private quietUntil = -Infinity;
  private disposed = false;
  private counter = 0;

  constructor(
    state: SharedState,
    private readonly account: () => Promise<Account | undefined>,
    kinds: readonly WriteKind[] | LoadKinds,
    private readonly clock: Clock = systemClock,
    options: OutboxOptions = {},
  ) {
    this.opts = {
      heartbeatMs: options.heartbeatMs ?? 10_000,
      staleMs: options.staleMs ?? 60_000,
      settleMs: options.settleMs ?? 2_000,
      lookupDelayMs: options.lookupDelayMs ?? 3_000,
      maxWaitMs: options.maxWaitMs ?? 60_000,
      lateWindowMs: options.lateWindowMs ?? LATE_WINDOW_MS,
      claimKeepMs: options.claimKeepMs ?? 10 * 60_000,
    };
    this.kinds = new WriteKinds(kinds);
    const changed = () => this.changed.fire();
    const disposed = () => this.disposed;
    this.store = new RecordStore(state, this.kinds, clock);
    this.writes = new WindowWrites(this.store, clock, this.opts, changed, disposed);
    this.owners = new Ownership(this.id, state, clock, this.opts, this.store, this.writes, changed, disposed);
    this.lifecycle = new Lifecycle({
      kinds: this.kinds,
      writes: this.writes,
      store: this.store,
      owners: this.owners,
      clock,
      opts: this.opts,
      account,
      wake: (ms) => this.wake(ms),
      finished: this.finished,
      changed: this.changed,
    });
    // A failed run is not backed off: the next is due when the next write is (run() notes waits in the records).
    this.loop = new Poller({ poll: () => this.run().catch(() => undefined), hasWork: () => true, interval: () => this.nextWake(), clock });
  }

  /** Starts looking after writes: its own, and those of windows gone. */
  start(): void {
    this.owners.beat();
    this.wake(0);
  }

  /** Looks again now (signed in, another account selected, the user asked). */
  poke(): void {
    this.wake(0);
  }

  /**
   * Every write not finished, of every window and account, oldest first; with the records this version leaves
   * alone (`problem`: from a newer version, or damaged).
   */
  all(): WriteRecord[] {
    if (this.kinds.loaded) return this.writes.unfinished();
    if (this.store.anyStored()) this.wake(0);
    return [];
  }

  /** Resolves once the kinds of write are loaded (the outbox does so when it needs them; see the top of this file). */
  ready(): Promise<void> {
    return this.kinds.ready();
  }

  /** The writes of one account, oldest first. */
  forAccount(account: string): WriteRecord[] {
    return this.all().filter((r) => r.account === account);
  }

  /** Whether this window sends the write (else it is shown read-only). */
  owns(record: WriteRecord): boolean {
    return this.writes.has(record.id);
  }

  /**
   * This window runs `work` (a transfer under way) that other windows must see alive: its heartbeat names it, on the
   * write path's liveness (write/liveness.ts), until the handle is disposed. Other windows read it with `workElsewhere`.
   */
  keepAlive(work: string): { dispose(): void } {
    return this.owners.keepAlive(work);
  }

  /** The work the other windows alive name in their heartbeats: what one of them runs now. */
  workElsewhere(): Set<string> {
    return this.owners.workElsewhere();
  }

  /** A person's words for one write ("Re-run "BWA-MEM run""). */
  describe(record: WriteRecord): string {
    const kind = this.kinds.get(record.kind);
    return kind && !record.problem && kind.isPayload(record.payload) ? kind.describe(record.payload) : (record.label ?? record.kind);
  }

  /**
   * The front door: records writes of `kind` (one group, sent in order) for `account`, sends them, and resolves once
   * they have come out as far as `patience` says to wait (by default: until each has its answer).
   */
  send<R = unknown, P = unknown>(kind: string, payloads: readonly P[], account: Account, patience?: Patience): Promise<Settled<R>> {
    return this.follow<R>(() => this.submit(kind, payloads, account), patience);
  }

  /**
   * A person is about to send a write of `kind` like `payload` (a task document with no problem): its identity reads ahead what the
   * send's snapshot needs, so that the send waits for its own round trip only. Records nothing and sends nothing; a
   * read ahead that fails costs nothing (the send reads its own).
   */
  async prepare<P>(kind: string, payload: P, account: Account): Promise<void> {
    await this.kinds.ready();
    const identity = this.kinds.get(kind)?.identity;
    if (identity?.by !== 'difference' || !identity.prepare) return;
    await identity.prepare({ payload, account: account.key }, account.credentials).catch(() => undefined);
  }

  /** Waits for writes already in the outbox (`start` names them: this window's, or another's), as `send` does. */
  follow<R = unknown>(start: () => Promise<readonly WriteRecord[]>, patience?: Patience): Promise<Settled<R>> {
    return settle<R>(this, this.clock, start, patience);
  }

  /**
   * Records writes (one group, sent in order) for the account in use and starts sending them. Resolves once they
   * are recorded; `send` waits for them too. A write that global state refuses to record is `failed` and never sent.
   */
  async submit<P>(kind: string, payloads: readonly P[], account: Account): Promise<WriteRecord<P>[]> {
    await this.kinds.ready();
    const now = this.clock.now();
    const declared = this.kinds.get(kind);
    const group = this.newId();
    const records = payloads.map(
      (payload): WriteRecord<P> => ({
        v: WRITE_SCHEMA,
        id: this.newId(),
        kind,
        group,
        account: account.key,
        owner: this.id,
        state: 'queued',
        payload,
        label: declared?.describe(payload),
        createdAt: now,
        attempts: 0,
        resends: 0,
      }),
    );
    // The heartbeat goes out before the records, so no window sees them without an owner alive.
    for (const record of records) this.writes.hold(record, true);
    this.owners.sendingAs = account.key;
    this.owners.beat();
    const recorded: WriteRecord<P>[] = [];
    for (const record of records) {
      const ok = await this.store.write(record);
      recorded.push(ok ? record : { ...record, state: 'failed', note: notRecorded() });
      if (!ok) this.writes.hold(recorded[recorded.length - 1]);
    }
    this.changed.fire();
    this.blocked = false;
    this.wake(0);
    return recorded;
  }

  /** Resolves when none of these writes needs this window now (sent, failed, not found, waiting, or gone). */
  async settled(ids: readonly string[]): Promise<WriteRecord[]> {
    for (;;) {
      const current = ids.map((id) => this.writes.record(id)).filter((r): r is WriteRecord => r !== undefined && r.state !== 'done');
      const due = current.filter((r) => r.account === this.owners.sendingAs && this.writes.isDue(r));
      if (!due.length || this.disposed || this.blocked) return current;
      await new Promise<void>((resolve) => {
        const sub = this.onDidChange(() => {
          sub.dispose();
          resolve();
        });
      });
    }
  }

  /** Whether this window acts on the write now: its own, on its way or its wait over. */
  dueHere(record: WriteRecord): boolean {
    const held = this.writes.record(record.id);
    return !!held && this.writes.isDue(held);
  }

  /**
   * The person asks to send the group's writes in these states again: refused or not found ones (Submit Again),
   * or `unsure` ones on their word, without waiting for the lookup (Submit Anyway). Only this window's writes.
   */
  async resubmit(group: string, states: readonly WriteState[] = USER_DECIDES): Promise<void> {
    for (const record of this.writes.records()) {
      if (record.group !== group || !states.includes(record.state)) continue;
      const fresh: WriteRecord = { ...record, state: 'queued', notBefore: undefined, waitMs: undefined, resends: 0, ambiguous: undefined, lookedForMs: undefined, snapshot: undefined, claim: undefined, note: undefined };
      const held = this.writes.get(record.id)!;
      held.dueAt = undefined;
      held.lookingSince = undefined;
      if (!(await this.writes.save(fresh, true))) await this.writes.save({ ...record, note: notRecorded() });
    }
    this.wake(0);
  }

  /**
   * A wait cancelled by the person: takes back the group's writes of this window that were never sent (queued, not
   * tried yet), so nothing more of the group leaves; what was sent stays, followed as before. Resolves to those taken back.
   */
  async withdraw(group: string): Promise<WriteRecord[]> {
    const taken: WriteRecord[] = [];
    for (const { record: listed } of this.writes.all()) {
      // Read again at each step: the loop may have started sending it meanwhile (then it is no longer queued).
      const record = this.writes.record(listed.id);
      if (!record || record.group !== group || record.state !== 'queued' || record.attempts > 0) continue;
      taken.push(record);
      await this.writes.remove(record.id);
    }
    return taken;
  }

  /**
   * Forgets the group's writes that are not on their way: this window's, those of a window gone, and damaged ones
   * (any window's). A write from a newer version is left alone. One that reached the platform (`sent`) is forgotten
   * too, what it made staying claimed a while (as a finished write's): no other write's lookup adopts it.
   */
  async discard(group: string): Promise<void> {
    for (const record of this.all()) {
      if (record.group !== group || record.problem === 'newer' || record.state === 'sending') continue;
      if (!record.problem && !this.writes.has(record.id) && !this.owners.isGone(record.owner)) continue;
      if (record.state === 'sent' && record.claim) await this.tombstone(record);
      else await this.writes.remove(record.id);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.loop.dispose();
    this.owners.close();
    this.changed.fire();
    this.changed.dispose();
    this.finished.dispose();
  }

  /** A write that reached the platform, forgotten: what it made stays claimed a while, as a finished write's. */
  private async tombstone(record: WriteRecord): Promise<void> {
    await this.writes.remove(record.id);
    this.store.claimKeptFrom(record.id);
    await this.store.write({ ...record, state: 'done', payload: null, outcome: undefined, snapshot: undefined, note: undefined, problem: undefined });
  }

  /** Runs the loop soon; a run under way runs once more after it. */
  private wake(delay: number): void {
    this.loop.schedule(delay);
  }

  /** When the loop next has work: the earliest wait of this window's writes, else a look for writes of windows gone. */
  private nextWake(): number {
    const mono = this.clock.monotonic();
    let next = this.opts.heartbeatMs;
    if (this.blocked) return next;
    for (const { record, dueAt } of this.writes.all()) {
      if (record.account !== this.owners.sendingAs || !['queued', 'unsure', 'sent', 'sending'].includes(record.state)) continue;
      next = Math.min(next, Math.max(0, (dueAt ?? mono) - mono));
    }
    return next;
  }

  private async run(): Promise<void> {
    if (!this.kinds.loaded) {
      if (!this.store.anyStored()) return;
      await this.kinds.ready();
      // What was read before is read again, with the kinds: the records, and whether this window must beat.
      this.owners.beat();
      this.changed.fire();
    }
    const account = await this.account().catch(() => undefined);
    this.blocked = !account;
    this.owners.sendingAs = account?.key;
    if (!account) {
      this.changed.fire();
      return;
    }
    for (const id of this.store.oldClaims(this.opts.claimKeepMs)) await this.writes.remove(id);
    if (this.owners.needsBeat() && this.owners.resumed()) {
      // Back from a sleep (or not beating until now): beat first, then let it reach every window, and let their
      // claims on this window's writes (taken over while it slept) reach this one, before doing anything.
      this.owners.beat();
      this.quietUntil = this.clock.monotonic() + this.opts.settleMs;
    }
    if (this.clock.monotonic() < this.quietUntil) {
      this.wake(this.quietUntil - this.clock.monotonic());
      return;
    }
    await this.owners.takeOver(account);
    for (const held of this.writes.all()) held.retrying = undefined;
    for (;;) {
      const record = this.writes
        .all()
        .filter((h) => h.record.account === account.key && this.writes.isDue(h.record) && !h.retrying)
        .map((h) => h.record)
        .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))[0];
      if (!record || this.disposed) return;
      const current = await this.account().catch(() => undefined);
      if (current?.key !== account.key) return;
      await this.lifecycle.step(record, account);
    }
  }

  private newId(): string {
    return `${this.clock.now().toString(36)}-${(this.counter++).toString(36).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
  }
}

const notRecorded = (): string => l10n.t('VS Code could not record it, so it was not sent.');
