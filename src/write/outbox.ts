import { randomUUID } from 'crypto';
import * as l10n from '@vscode/l10n';
import { ApiError, describeError, redact, redactValue } from '../api/errors';
import { systemClock, type Clock } from '../api/clock';
import type { Credentials } from '../api/transport';
import { Emitter } from '../util/emitter';
import { STATE_KEY_PREFIXES } from '../keys/state';
import { Poller } from '../util/poller';
import type { SharedState } from '../util/stateStore';
import { formatDuration } from '../util/time';
import type { Lookup, WriteKind } from './kinds';
import { Liveness } from './liveness';
import { damagedOutcome, readRecord, USER_DECIDES, waitsForPerson, WRITE_SCHEMA, type ReadRecord, type WriteRecord, type WriteState } from './records';

export type { Lookup, WriteKind } from './kinds';
export type { WriteRecord, WriteState } from './records';
export { USER_DECIDES, waitsForPerson } from './records';

/*
 * The one way this extension writes to the platform (copies; task abort, run, re-run; every write to come).
 * Each kind declares how it is sent and how a lost one is found (write/kinds.ts; the table in ARCHITECTURE.md).
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
 */

/** The account writes are sent as now, with its credentials; undefined while signed out or not yet known. */
export interface Account {
  key: string;
  credentials: Credentials;
}

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

const RECORD_PREFIX = STATE_KEY_PREFIXES.writeRecord;
const BID_PREFIX = STATE_KEY_PREFIXES.writeBid;
/** Resends of an idempotent write after lookups that showed it not done, before the person is asked. */
const MAX_RESENDS = 3;
/** A rate-limit wait is at most this long (the platform's window is 5 minutes). */
const MAX_RATE_WAIT_MS = 5 * 60_000;
/** A write missing from global state is looked at again this soon. */
const MISSING_RETRY_MS = 250;

/** Records, sends, looks up and finishes the writes of this window (see the states above). */
export class Outbox {
  private readonly kinds = new Map<string, WriteKind>();
  /** This window's own writes: the truth for them (global state may echo an older value back). */
  private readonly mine = new Map<string, WriteRecord>();
  /** Writes this window finished, discarded or dropped, which a late echo of global state must not bring back. */
  private readonly gone = new Set<string>();
  /** When each write of this window is due next, on the monotonic clock. */
  private readonly dueAt = new Map<string, number>();
  /** Since when (monotonic) each write of this window has been looked for here, added to its `lookedForMs`. */
  private readonly lookingSince = new Map<string, number>();
  /** Writes this run leaves for the next (their record is missing for now). */
  private readonly retrying = new Set<string>();
  /** The writes submitted in this window (not taken over): its memory is their truth. */
  private readonly createdHere = new Set<string>();
  /** Since when (monotonic) each write of this window has been missing from global state. */
  private readonly missingSince = new Map<string, number>();
  /** Since when (monotonic) this window has seen each finished write's claim. */
  private readonly doneSeen = new Map<string, number>();
  /** What this window runs that other windows must see alive (transfers under way), each with how many hold it. */
  private readonly work = new Map<string, number>();
  /** The last run found no account to send as (signed out, or the username not known). */
  private blocked = false;
  /** The account the last run (or submit) sent as: only its writes are this window's work now. */
  private accountKey: string | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly finished = new Emitter<FinishedWrite>();
  /** A write of this window reached the platform (answered, or found after a lost answer) and its kind took it. */
  readonly onDidFinish = this.finished.event;
  private readonly id = `w${randomUUID()}`;
  private readonly opts: Required<OutboxOptions>;
  private readonly liveness: Liveness;
  /** The loop: a run at once when woken, else when the next write is due or a heartbeat from now. */
  private readonly loop: Poller;
  private beatTimer: unknown;
  private beating = false;
  /** After a resume, nothing is done until then (monotonic). */
  private quietUntil = -Infinity;
  private disposed = false;
  private counter = 0;

  constructor(
    private readonly state: SharedState,
    private readonly account: () => Promise<Account | undefined>,
    private readonly clock: Clock = systemClock,
    options: OutboxOptions = {},
  ) {
    // A failed run is not backed off: the next is due when the next write is (run() notes waits in the records).
    this.loop = new Poller({ poll: () => this.run().catch(() => undefined), hasWork: () => true, interval: () => this.nextWake(), clock });
    this.opts = {
      heartbeatMs: options.heartbeatMs ?? 10_000,
      staleMs: options.staleMs ?? 60_000,
      settleMs: options.settleMs ?? 2_000,
      lookupDelayMs: options.lookupDelayMs ?? 3_000,
      maxWaitMs: options.maxWaitMs ?? 60_000,
      lateWindowMs: options.lateWindowMs ?? LATE_WINDOW_MS,
      claimKeepMs: options.claimKeepMs ?? 10 * 60_000,
    };
    this.liveness = new Liveness(this.id, state, clock, this.opts);
  }

  register<P, S, R>(kind: WriteKind<P, S, R>): void {
    this.kinds.set(kind.name, kind as unknown as WriteKind);
  }

  /** Starts looking after writes: its own, and those of windows gone. */
  start(): void {
    this.beat();
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
    const byId = new Map<string, WriteRecord>();
    for (const read of this.stored()) {
      const record = 'record' in read ? read.record : read.problem;
      if (record.state !== 'done' && !this.gone.has(record.id) && !this.doneSeen.has(record.id)) byId.set(record.id, record);
    }
    for (const [id, record] of this.mine) if (record.state !== 'done') byId.set(id, record);
    return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** The writes of one account, oldest first. */
  forAccount(account: string): WriteRecord[] {
    return this.all().filter((r) => r.account === account);
  }

  /** Whether this window sends the write (else it is shown read-only). */
  owns(record: WriteRecord): boolean {
    return this.mine.has(record.id);
  }

  /**
   * This window runs `work` (a transfer under way) that other windows must see alive: its heartbeat names it, on the
   * write path's liveness (write/liveness.ts), until the handle is disposed. Other windows read it with `workElsewhere`.
   */
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

  /** A person's words for one write ("Re-run "BWA-MEM run""). */
  describe(record: WriteRecord): string {
    const kind = this.kinds.get(record.kind);
    return kind && !record.problem && kind.isPayload(record.payload) ? kind.describe(record.payload) : (record.label ?? record.kind);
  }

  /**
   * Records writes (one group, sent in order) for the account in use and starts sending them. Resolves once they
   * are recorded; `settled` resolves when each has reached a state that needs no more work from this window. A
   * write that global state refuses to record is `failed` and never sent.
   */
  async submit<P>(kind: string, payloads: P[], account: Account): Promise<WriteRecord<P>[]> {
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
    for (const record of records) {
      this.mine.set(record.id, record);
      this.createdHere.add(record.id);
    }
    this.accountKey = account.key;
    this.beat();
    const recorded: WriteRecord<P>[] = [];
    for (const record of records) {
      const ok = await this.write(record);
      recorded.push(ok ? record : { ...record, state: 'failed', note: notRecorded() });
      if (!ok) this.mine.set(record.id, recorded[recorded.length - 1]);
    }
    this.changed.fire();
    this.blocked = false;
    this.wake(0);
    return recorded;
  }

  /** Resolves when none of these writes needs this window now (sent, failed, not found, waiting, or gone). */
  async settled(ids: readonly string[]): Promise<WriteRecord[]> {
    for (;;) {
      const current = ids.map((id) => this.mine.get(id)).filter((r): r is WriteRecord => r !== undefined && r.state !== 'done');
      const due = current.filter((r) => r.account === this.accountKey && this.isDue(r));
      if (!due.length || this.disposed || this.blocked) return current;
      await new Promise<void>((resolve) => {
        const sub = this.onDidChange(() => {
          sub.dispose();
          resolve();
        });
      });
    }
  }

  /**
   * The person asks to send the group's writes in these states again: refused or not found ones (Submit Again),
   * or `unsure` ones on their word, without waiting for the lookup (Submit Anyway). Only this window's writes.
   */
  async resubmit(group: string, states: readonly WriteState[] = USER_DECIDES): Promise<void> {
    for (const record of [...this.mine.values()]) {
      if (record.group !== group || !states.includes(record.state)) continue;
      const fresh: WriteRecord = { ...record, state: 'queued', notBefore: undefined, waitMs: undefined, resends: 0, ambiguous: undefined, lookedForMs: undefined, snapshot: undefined, claim: undefined, note: undefined };
      this.dueAt.delete(record.id);
      this.lookingSince.delete(record.id);
      if (!(await this.save(fresh, true))) await this.save({ ...record, note: notRecorded() });
    }
    this.wake(0);
  }

  /**
   * A wait cancelled by the person: takes back the group's writes of this window that were never sent (queued, not
   * tried yet), so nothing more of the group leaves; what was sent stays, followed as before. Resolves to those taken back.
   */
  async withdraw(group: string): Promise<WriteRecord[]> {
    const taken: WriteRecord[] = [];
    for (const listed of [...this.mine.values()]) {
      const record = this.mine.get(listed.id);
      // Read again at each step: the loop may have started sending it meanwhile (then it is no longer queued).
      if (!record || record.group !== group || record.state !== 'queued' || record.attempts > 0) continue;
      taken.push(record);
      await this.remove(record.id);
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
      if (!record.problem && !this.mine.has(record.id) && !this.liveness.isGone(record.owner)) continue;
      if (record.state === 'sent' && record.claim) await this.tombstone(record);
      else await this.remove(record.id);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.loop.dispose();
    if (this.beatTimer !== undefined) this.clock.clearTimeout(this.beatTimer);
    // A clean close lets other windows take over at once, unless a POST is on its way: then the heartbeat is left
    // to go stale, so that nobody looks it up before the platform could have answered it.
    const left = [...this.mine.values()].filter((r) => r.state !== 'done');
    if (!left.some((r) => r.state === 'sending')) void this.liveness.stop(left.length > 0 || this.beating);
    this.changed.fire();
    this.changed.dispose();
    this.finished.dispose();
  }

  private isDue(record: WriteRecord): boolean {
    if (record.problem || waitsForPerson(record) || record.state === 'done') return false;
    if (record.state === 'sending') return true;
    return (this.dueAt.get(record.id) ?? -Infinity) <= this.clock.monotonic();
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
    for (const record of this.mine.values()) {
      if (record.account !== this.accountKey || !['queued', 'unsure', 'sent', 'sending'].includes(record.state)) continue;
      next = Math.min(next, Math.max(0, (this.dueAt.get(record.id) ?? mono) - mono));
    }
    return next;
  }

  private async run(): Promise<void> {
    const account = await this.account().catch(() => undefined);
    this.blocked = !account;
    this.accountKey = account?.key;
    if (!account) {
      this.changed.fire();
      return;
    }
    await this.forgetOldClaims();
    if (this.needsBeat() && this.liveness.resumed()) {
      // Back from a sleep (or not beating until now): beat first, then let it reach every window, and let their
      // claims on this window's writes (taken over while it slept) reach this one, before doing anything.
      this.beat();
      this.quietUntil = this.clock.monotonic() + this.opts.settleMs;
    }
    if (this.clock.monotonic() < this.quietUntil) {
      this.wake(this.quietUntil - this.clock.monotonic());
      return;
    }
    await this.takeOver(account);
    this.retrying.clear();
    for (;;) {
      const record = [...this.mine.values()]
        .filter((r) => r.account === account.key && this.isDue(r) && !this.retrying.has(r.id))
        .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))[0];
      if (!record || this.disposed) return;
      const current = await this.account().catch(() => undefined);
      if (current?.key !== account.key) return;
      await this.step(record, account);
    }
  }

  /** One move of one write, by its state. */
  private async step(record: WriteRecord, account: Account): Promise<void> {
    const kind = this.kinds.get(record.kind);
    // Never act on a write whose stored record is finished or another window's now, nor while it is missing.
    const standing = kind ? this.standing(record.id) : 'lost';
    if (!kind || standing === 'lost') return this.drop(record.id);
    if (standing === 'wait') return this.retrySoon(record.id);
    if (record.state === 'sent') return this.finish(kind, record, record.outcome, false);
    if (record.state === 'sending') {
      // Left on its way by a window that closed (or this one, reloaded): the call may have been processed.
      this.lookingSince.set(record.id, this.clock.monotonic());
      await this.save({ ...record, state: 'unsure', ambiguous: true, ...this.wait(record.id, this.opts.lookupDelayMs), note: l10n.t('The window that sent it closed before the answer came.') });
      return;
    }
    if (record.state === 'unsure') return this.look(kind, record, account);
    return this.send(kind, record, account);
  }

  private async send(kind: WriteKind, record: WriteRecord, account: Account): Promise<void> {
    const hold = kind.hold?.(record) ?? 0;
    if (hold > 0) {
      await this.save({ ...record, ...this.wait(record.id, hold), note: l10n.t('The API budget is nearly spent: it is sent when the budget resets.') });
      return;
    }
    let snapshot: unknown;
    try {
      snapshot = kind.identity.by === 'difference' ? await kind.identity.snapshot(record, account.credentials) : undefined;
    } catch (error) {
      // Without it a lost answer could not be told apart later: wait rather than send blind.
      if (this.mine.get(record.id) === record) await this.save({ ...record, ...this.later(record), note: l10n.t('Waiting to send: {0}', this.words(error, account)) });
      return;
    }
    // Discarded or changed by the person meanwhile, or taken by another window: not this step's to send.
    if (this.mine.get(record.id) !== record) return;
    const standing = this.standing(record.id);
    if (standing === 'lost') return this.drop(record.id);
    if (standing === 'wait') return this.retrySoon(record.id);
    const sending: WriteRecord = { ...record, state: 'sending', snapshot, attempts: record.attempts + 1, lastAttemptAt: this.clock.now(), notBefore: undefined, note: undefined };
    if (!(await this.save(sending, true))) {
      await this.save({ ...record, ...this.later(record), note: l10n.t('Waiting to send: VS Code could not record it.') });
      return;
    }
    if (!this.shows(sending)) {
      // Global state took the mark, then showed an older value: not sent until it shows the mark.
      await this.save(record);
      return this.retrySoon(record.id);
    }
    let answer: unknown;
    try {
      answer = await kind.send(sending, account.credentials);
    } catch (error) {
      // Taken over meanwhile (this window was thought gone): the window that took it looks it up.
      if (this.standing(sending.id) === 'lost') return this.drop(sending.id);
      await this.afterFailure(kind, sending, error, account);
      return;
    }
    // Accepted: nothing below may lead to sending it again. The answer is the truth, whoever owns the record now.
    const outcome = this.kept(kind, answer, account);
    const claim = kind.identity.by === 'difference' ? { id: kind.identity.madeId(outcome), how: 'answered' as const } : undefined;
    await this.save({ ...sending, state: 'sent', outcome, claim });
    await this.finish(kind, this.mine.get(sending.id) ?? sending, outcome, false);
  }

  private async afterFailure(kind: WriteKind, record: WriteRecord, error: unknown, account: Account): Promise<void> {
    const note = this.words(error, account);
    if (error instanceof ApiError && (error.isRateLimited || error.isMaintenance) && !error.maybeDelivered) {
      // Proof the platform did not process it: sent again, as it was, once the wait is over.
      const why = error.isRateLimited ? l10n.t("The platform's rate limit is used up.") : l10n.t('The platform is under maintenance.');
      // The reset as the transport measured it on the server's clock: how long, never a moment on this machine's clock.
      const wait = error.isRateLimited && error.untilResetMs !== undefined ? this.wait(record.id, Math.min(error.untilResetMs + 1_000, MAX_RATE_WAIT_MS)) : this.later(record);
      await this.save({ ...record, state: 'queued', ...wait, note: why });
      return;
    }
    if (error instanceof ApiError && error.kind === 'network' && !error.maybeDelivered) {
      // The connection was refused before a byte was sent: not processed.
      await this.save({ ...record, state: 'queued', ...this.later(record), note });
      return;
    }
    if (error instanceof ApiError && !error.maybeDelivered && error.kind !== 'cancelled') {
      const done = record.ambiguous ? kind.doneBy?.(error, record) : undefined;
      if (done !== undefined) {
        await this.save({ ...record, state: 'sent', outcome: this.kept(kind, done, account) });
        await this.finish(kind, this.mine.get(record.id) ?? record, done, true);
        return;
      }
      // A refusal. After an ambiguous try it may refuse what the first try did (a second abort), and a kind may know
      // a refusal that answers what another call did (an upload completed by another window): checked, not believed.
      if (!record.ambiguous && !kind.verifyRefusal?.(error, record)) {
        await this.save({ ...record, state: 'failed', note });
        return;
      }
    }
    // Timeout, dropped connection, 5xx, unreadable answer, or anything not an ApiError: it may have been processed.
    if (!record.ambiguous || !this.lookingSince.has(record.id)) this.lookingSince.set(record.id, this.clock.monotonic());
    await this.save({ ...record, state: 'unsure', ambiguous: true, lookedForMs: record.ambiguous ? record.lookedForMs : 0, ...this.wait(record.id, this.opts.lookupDelayMs), note });
  }

  private async look(kind: WriteKind, record: WriteRecord, account: Account): Promise<void> {
    // Another write of the account on its way may have made what the lookup would find.
    if (this.othersSending(record)) {
      await this.save({ ...record, ...this.wait(record.id, 1_000) });
      return;
    }
    let result: Lookup<unknown>;
    try {
      const identity = kind.identity;
      const { snapshot } = record;
      if (identity.by === 'state') result = await identity.read(record, account.credentials);
      // Nothing noted before the send (or it was stored damaged): nothing found can be proven to be this write's.
      else if (snapshot === undefined) result = { unknown: noSnapshot() };
      else result = await identity.find({ ...record, snapshot }, account.credentials, (id) => this.takenElsewhere(id, record));
    } catch (error) {
      if (this.mine.get(record.id) === record) await this.save({ ...record, ...this.later(record), lookedForMs: this.lookedFor(record), note: l10n.t('May have been submitted; could not check yet. {0} Checking again soon.', this.words(error, account)) });
      return;
    }
    if ((await this.account().catch(() => undefined))?.key !== record.account) return;
    // Discarded or sent anyway by the person meanwhile: their word stands (a write found is still followed).
    if (this.mine.get(record.id) !== record && !('found' in result)) return;
    if ('found' in result) return this.adopt(kind, record, result.found, account);
    const lookedForMs = this.lookedFor(record);
    const payload = 'rest' in result && result.rest !== undefined ? result.rest : record.payload;
    if ('changed' in result) {
      // Someone else's change, or gone: not this write's to undo.
      await this.save({ ...record, state: 'changed', payload, lookedForMs, note: this.words(result.changed, account) });
      return;
    }
    const note = this.words('absent' in result ? result.absent : result.unknown, account);
    // A destructive call (a DELETE) is not sent again while a late one may still act.
    const resendable = kind.idempotent && (!kind.destructive || lookedForMs >= this.opts.lateWindowMs);
    if ('absent' in result && resendable && record.resends < MAX_RESENDS) {
      // Not done (of many items, only those proven not done are sent again), and sending it again does no harm.
      await this.save({ ...record, state: 'queued', payload, resends: record.resends + 1, lookedForMs, note });
      this.dueAt.delete(record.id);
      return;
    }
    if (lookedForMs >= this.opts.lateWindowMs || ('absent' in result && resendable)) {
      const notFound = l10n.t({ message: 'Not found on the platform after {0}. {1} Submit again?', args: [formatDuration(lookedForMs), note], comment: ['{0}: how long it was looked for; {1}: what the last lookup saw'] });
      await this.save({ ...record, state: 'notFound', lookedForMs, note: notFound });
      return;
    }
    this.lookingSince.set(record.id, this.clock.monotonic());
    await this.save({ ...record, ...this.later(record), lookedForMs, note });
  }

  /** A lookup found the write: what it made is claimed, confirmed after the settle time, then taken. */
  private async adopt(kind: WriteKind, record: WriteRecord, found: unknown, account: Account): Promise<void> {
    const outcome = this.kept(kind, found, account);
    let claim = record.claim;
    if (kind.identity.by === 'difference') {
      claim = { id: kind.identity.madeId(outcome), how: 'found' };
      const claiming: WriteRecord = { ...record, claim, lookedForMs: this.lookedFor(record) };
      if (!(await this.save(claiming, true))) {
        await this.save({ ...record, ...this.later(record) });
        return;
      }
      await this.pause(this.opts.settleMs);
      if (this.standing(record.id) === 'lost') return this.drop(record.id);
      // Another write claims it (answered, or found with a lower ID), or another is on its way: not ours to take.
      if (this.takenElsewhere(claim.id, record, true) || this.othersSending(record)) {
        if (this.mine.get(record.id) === claiming) await this.save({ ...claiming, claim: undefined, ...this.later(record), note: l10n.t('What the lookup found is claimed by another request: looking further.') });
        return;
      }
    }
    await this.save({ ...(this.mine.get(record.id) ?? record), state: 'sent', outcome, claim });
    await this.finish(kind, this.mine.get(record.id) ?? record, outcome, true);
  }

  private async finish(kind: WriteKind, record: WriteRecord, outcome: unknown, found: boolean): Promise<void> {
    if (kind.isOutcome && !kind.isOutcome(outcome)) {
      // The platform has it, but what it answered cannot be read: never sent again, and not handed over for ever.
      await this.save({ ...record, state: 'failed', problem: 'corrupt', outcome: undefined, note: damagedOutcome() });
      return;
    }
    try {
      await kind.finish(record, outcome, found);
    } catch (error) {
      // The platform has it: kept as sent (never sent again), and handed over again later.
      await this.save({ ...record, state: 'sent', outcome, ...this.later(record), note: l10n.t('Submitted; not shown yet. {0}', describeError(error)) });
      return;
    }
    // Told at once: its record leaves this window's list now, while global state is still being written.
    const keepClaim = record.claim !== undefined;
    const done: WriteRecord = { ...record, state: 'done', payload: null, outcome: undefined, snapshot: undefined, note: undefined };
    this.mine.delete(record.id);
    this.createdHere.delete(record.id);
    this.dueAt.delete(record.id);
    this.lookingSince.delete(record.id);
    // Marked finished before anyone is told, so that `all()` no longer lists it while global state is being written
    // (the status bar said "Submitting 1 copy request" until the next change).
    if (keepClaim) this.doneSeen.set(record.id, this.clock.monotonic());
    else this.gone.add(record.id);
    this.finished.fire({ record, outcome, found });
    this.changed.fire();
    // What it made stays claimed a while (another write's lookup must not adopt it); a write that made nothing goes.
    if (keepClaim) await this.write(done);
    else await this.remove(record.id);
  }

  /** A write that reached the platform, forgotten: what it made stays claimed a while, as a finished write's. */
  private async tombstone(record: WriteRecord): Promise<void> {
    await this.remove(record.id);
    this.doneSeen.set(record.id, this.clock.monotonic());
    await this.write({ ...record, state: 'done', payload: null, outcome: undefined, snapshot: undefined, note: undefined, problem: undefined });
  }

  /** Whether another write claims what the platform calls `id`; `confirming`: only a claim that beats this write's. */
  private takenElsewhere(id: string, record: WriteRecord, confirming = false): boolean {
    for (const read of this.stored()) {
      if (!('record' in read)) continue;
      const other = read.record;
      if (other.id === record.id || other.account !== record.account || other.claim?.id !== id) continue;
      if (!confirming || other.claim.how === 'answered' || other.id < record.id) return true;
    }
    return false;
  }

  /** Whether another write of the account is on its way (its answer could be what a lookup finds). */
  private othersSending(record: WriteRecord): boolean {
    return this.all().some((r) => r.id !== record.id && r.account === record.account && r.state === 'sending' && (this.mine.has(r.id) || !this.liveness.isGone(r.owner)));
  }

  /**
   * Where this window stands with one of its writes, by the record in global state: `mine`; `lost` (finished, or
   * another window alive owns it now); or `wait` while the record is missing. A missing record never grants
   * permission. VS Code keeps an extension's global state as one value, which an echo of an older write (this
   * window's or another's) may replace for a moment, or for good: a write made here is then recorded again from
   * this window's memory, its truth, and acted on once global state shows it. A write taken over from another
   * window and missing for longer than the settle time was finished or discarded there, and is let go.
   */
  private standing(id: string): 'mine' | 'lost' | 'wait' {
    const read = this.read(id);
    if (read && 'record' in read) {
      this.missingSince.delete(id);
      const stored = read.record;
      if (stored.state === 'done' || (stored.owner !== this.id && !this.liveness.isGone(stored.owner))) return 'lost';
      return 'mine';
    }
    const own = this.mine.get(id);
    if (own && this.createdHere.has(id)) {
      void this.write(own);
      return 'wait';
    }
    const mono = this.clock.monotonic();
    if (!this.missingSince.has(id)) this.missingSince.set(id, mono);
    return mono - this.missingSince.get(id)! > this.opts.settleMs ? 'lost' : 'wait';
  }

  /** Whether global state shows this very attempt on its way (not an older value echoed back): only then is it sent. */
  private shows(sending: WriteRecord): boolean {
    const read = this.read(sending.id);
    return !!read && 'record' in read && read.record.state === 'sending' && read.record.attempts === sending.attempts && read.record.owner === this.id;
  }

  /** Looks at a write again soon (its record is missing for now); it stays due meanwhile. */
  private retrySoon(id: string): void {
    this.retrying.add(id);
    this.wake(MISSING_RETRY_MS);
  }

  /** Lets go of a write this window may no longer act on. */
  private drop(id: string): void {
    this.missingSince.delete(id);
    this.createdHere.delete(id);
    if (!this.mine.delete(id)) return;
    this.gone.add(id);
    this.dueAt.delete(id);
    this.lookingSince.delete(id);
    this.changed.fire();
  }

  /**
   * Takes over the account's writes whose window is gone. Only the lowest window ID alive for the account bids; a
   * bid is a key of its own (so that no window's write hides another's), and after the settle time the lowest bid
   * of a window alive wins, unless a window already took the write (the record names a window alive). Only the
   * winner writes the record. With the settle time longer than two trips of global state, one window wins.
   */
  private async takeOver(account: Account): Promise<void> {
    const orphans = () =>
      this.stored()
        .flatMap((read) => ('record' in read ? [read.record] : []))
        .filter((r) => r.account === account.key && r.state !== 'done' && !this.mine.has(r.id) && !this.gone.has(r.id) && this.liveness.isGone(r.owner));
    const lowest = () => this.liveness.aliveFor(account.key).every((id) => id >= this.id);
    await this.forgetBids();
    if (!this.liveness.beatingFor(this.opts.settleMs) || !orphans().length || !lowest()) return this.forgetClosedWindows();
    const bids = orphans().map((r) => ({ record: r, key: `${BID_PREFIX}${r.id}#${this.id}` }));
    for (const bid of bids) await Promise.resolve(this.state.update(bid.key, { at: this.clock.now() })).catch(() => undefined);
    await this.pause(this.opts.settleMs);
    for (const { record, key } of bids) {
      if (this.disposed) return;
      const read = this.read(record.id);
      const stored = read && 'record' in read ? read.record : undefined;
      const won = stored && stored.state !== 'done' && this.liveness.isGone(stored.owner) && this.lowestBid(record.id) === this.id;
      if (won) {
        const taken: WriteRecord = { ...stored, owner: this.id };
        if (await this.write(taken)) {
          this.mine.set(taken.id, taken);
          const mono = this.clock.monotonic();
          this.dueAt.set(taken.id, mono + Math.min(Math.max(0, (taken.notBefore ?? 0) - this.clock.now()), MAX_RATE_WAIT_MS));
          if (taken.state === 'unsure' || taken.state === 'sending') this.lookingSince.set(taken.id, mono);
        }
      }
      await Promise.resolve(this.state.update(key, undefined)).catch(() => undefined);
    }
    this.beat();
    this.changed.fire();
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
      if (this.liveness.isGone(window) || !this.read(recordId)) await Promise.resolve(this.state.update(key, undefined)).catch(() => undefined);
    }
  }

  /** A window that closed cleanly leaves a mark; it goes once none of its writes is left. */
  private async forgetClosedWindows(): Promise<void> {
    const owners = new Set(this.stored().flatMap((read) => ('record' in read && read.record.state !== 'done' ? [read.record.owner] : [])));
    for (const id of this.liveness.closedWindows()) if (!owners.has(id)) await this.liveness.forget(id);
  }

  /** A finished write's claim goes once kept long enough and no write of its account is unfinished. */
  private async forgetOldClaims(): Promise<void> {
    const records = this.stored().flatMap((read) => ('record' in read ? [read.record] : []));
    const busy = new Set(records.filter((r) => r.state !== 'done').map((r) => r.account));
    const mono = this.clock.monotonic();
    for (const record of records) {
      if (record.state !== 'done') continue;
      if (!this.doneSeen.has(record.id)) this.doneSeen.set(record.id, mono);
      if (busy.has(record.account) || mono - this.doneSeen.get(record.id)! < this.opts.claimKeepMs) continue;
      this.doneSeen.delete(record.id);
      await this.remove(record.id);
    }
  }

  /** How long the write has been looked for, here and in the windows before. */
  private lookedFor(record: WriteRecord): number {
    const mono = this.clock.monotonic();
    return (record.lookedForMs ?? 0) + (mono - (this.lookingSince.get(record.id) ?? mono));
  }

  /** Waits `ms` on this window's timers (the settle time). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }

  /** The write is due again in `ms` (monotonic); `notBefore` says when on this machine's clock, to be shown. */
  private wait(id: string, ms: number): { notBefore: number } {
    this.dueAt.set(id, this.clock.monotonic() + ms);
    return { notBefore: this.clock.now() + ms };
  }

  /** The next of doubling waits between lookups or sends, from 1 s up to `maxWaitMs`. */
  private later(record: WriteRecord): { notBefore: number; waitMs: number } {
    const waitMs = Math.min(this.opts.maxWaitMs, Math.max(1_000, (record.waitMs ?? 500) * 2));
    return { ...this.wait(record.id, waitMs), waitMs };
  }

  /** What the kind keeps of an answer, with the token redacted from every string (an answer may echo it). */
  private kept(kind: WriteKind, answer: unknown, account: Account): unknown {
    return redactValue(kind.keep(answer), [account.credentials.token]);
  }

  /** Words for a person about an error or a lookup, never with the token. */
  private words(what: unknown, account: Account): string {
    return redact(typeof what === 'string' ? what : describeError(what), [account.credentials.token]);
  }

  /** Keeps this window's heartbeat while any write is in view (its own, or one it may have to take over). */
  private beat(): void {
    if (this.disposed) return;
    if (this.beatTimer !== undefined) this.clock.clearTimeout(this.beatTimer);
    const needed = this.needsBeat();
    // Watching starts with the first beat: a window gone is seen as soon as possible.
    this.liveness.observe();
    if (needed) void this.liveness.beat(this.accountKey, [...this.work.keys()]);
    else if (this.beating) void this.liveness.stop(false);
    this.beating = needed;
    this.beatTimer = this.clock.setTimeout(() => this.beat(), this.opts.heartbeatMs);
  }

  /** Whether any write is in view: this window's, or one it may have to take over. */
  private needsBeat(): boolean {
    return this.mine.size > 0 || this.work.size > 0 || this.stored().some((read) => 'record' in read && read.record.state !== 'done');
  }

  /** Every record in global state, checked. */
  private stored(): ReadRecord[] {
    const reads: ReadRecord[] = [];
    for (const key of this.state.keys()) {
      if (!key.startsWith(RECORD_PREFIX)) continue;
      const read = this.check(this.state.get(key), key.slice(RECORD_PREFIX.length));
      if (read) reads.push(read);
    }
    return reads;
  }

  private read(id: string): ReadRecord | undefined {
    return this.check(this.state.get(RECORD_PREFIX + id), id);
  }

  private check(value: unknown, id: string): ReadRecord | undefined {
    return readRecord(value, id, (name) => {
      const kind = this.kinds.get(name);
      if (!kind) return undefined;
      const { identity } = kind;
      return {
        isPayload: (payload) => kind.isPayload(payload),
        isSnapshot: identity.by === 'difference' ? (snapshot) => identity.isSnapshot(snapshot) : undefined,
        isOutcome: kind.isOutcome ? (outcome) => kind.isOutcome!(outcome) : undefined,
      };
    });
  }

  /** Keeps a write of this window, in memory and global state; with `must`, false when global state refused it. */
  private async save(record: WriteRecord, must = false): Promise<boolean> {
    if (this.disposed) return false;
    this.mine.set(record.id, record);
    const ok = await this.write(record);
    this.changed.fire();
    return ok || !must;
  }

  private async remove(id: string): Promise<void> {
    this.mine.delete(id);
    this.createdHere.delete(id);
    this.gone.add(id);
    this.dueAt.delete(id);
    this.lookingSince.delete(id);
    await this.write(undefined, id);
    this.changed.fire();
  }

  private async write(record: WriteRecord | undefined, id = record?.id): Promise<boolean> {
    try {
      await this.state.update(RECORD_PREFIX + id, record);
      return true;
    } catch {
      return false;
    }
  }

  private newId(): string {
    return `${this.clock.now().toString(36)}-${(this.counter++).toString(36).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
  }
}

const notRecorded = (): string => l10n.t('VS Code could not record it, so it was not sent.');
const noSnapshot = (): string => l10n.t('It may have been submitted: nothing noted before it was sent can tell what it made apart on the platform.');

export interface FinishedWrite {
  record: WriteRecord;
  outcome: unknown;
  /** Found on the platform after a lost answer (not answered). */
  found: boolean;
}

/**
 * Runs `start` (which records writes in the outbox) and resolves once they need nothing more from this window:
 * those that reached the platform, and those left (refused, not found, being looked up, or waiting).
 * `onProgress` hears how many have reached it.
 */
export async function followWrites(
  outbox: Outbox,
  start: () => Promise<WriteRecord[]>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ records: WriteRecord[]; finished: FinishedWrite[]; left: WriteRecord[] }> {
  const finished: FinishedWrite[] = [];
  const listening = outbox.onDidFinish((f) => finished.push(f));
  try {
    const records = await start();
    const ids = new Set(records.map((r) => r.id));
    const mine = () => finished.filter((f) => ids.has(f.record.id));
    const watching = outbox.onDidChange(() => onProgress?.(mine().length, ids.size));
    try {
      const left = await outbox.settled([...ids]);
      return { records, finished: mine(), left };
    } finally {
      watching.dispose();
    }
  } finally {
    listening.dispose();
  }
}
