import { randomUUID } from 'crypto';
import * as l10n from '@vscode/l10n';
import { ApiError, describeError } from '../api/errors';
import { systemClock, type Clock } from '../api/clock';
import type { Credentials } from '../api/transport';
import { Emitter } from '../util/emitter';
import { STATE_KEY_PREFIXES } from '../keys/state';
import { Poller } from '../util/poller';
import type { SharedState } from '../util/stateStore';

/*
 * The one way this extension writes to the platform (copies; task abort, run, re-run).
 *
 * A write is recorded in global state before it is sent, under its own key, and goes through these states:
 *
 *   queued ──send──▶ sending ──answer──▶ sent ──▶ (removed, its outcome handed to its kind)
 *     ▲                │
 *     │ 429, 503/0     ├─ 4xx refusal ─────────────▶ failed (the user submits it again or discards it)
 *     └────────────────┤
 *                      └─ timeout, dropped, 5xx, unreadable ──▶ unsure ──lookup──▶ found: sent
 *                                                                  │      absent: queued (up to MAX_RESENDS)
 *                                                                  └───── unknown: look again later, and say so
 *
 * What it guarantees, and how:
 * - One owner. The window that records a write owns it: only it sends or looks it up. It beats a heartbeat in
 *   global state; another window shows the write read-only and takes it over only when that heartbeat is older
 *   than the longest a POST can take (or gone: the window closed). A takeover is claimed, then confirmed after a
 *   settle time longer than global state takes to reach every window, so that two windows never both take it.
 *   A write taken over while `sending` is `unsure`: it is looked up before anything is sent.
 * - Marked before sent. `sending` (and the attempt count) is written, and that write awaited, before the POST
 *   leaves; nothing waits after the mark (the transport refuses a rate-limited POST at once instead).
 * - Resent without asking only after an answer that proves the platform did not process the call (429, 503 with
 *   code 0), once the wait is over; or after a lookup that proves it (the kind's `absent`), a few times at most.
 * - Looked up before any other resend; while another write of the account is on its way, the lookup waits (its
 *   outcome could be that write's). A kind adopts what it finds only when it matches what was asked.
 * - Bound to its account (endpoint and username): sent, looked up and finished only with that account's
 *   credentials; writes of another account wait, untouched, until that account is back.
 * - Notes in a record are words for a person, never a credential (errors are built without the token).
 */

export type WriteState = 'queued' | 'sending' | 'sent' | 'unsure' | 'failed';

export interface WriteRecord<P = unknown, L = unknown, R = unknown> {
  id: string;
  kind: string;
  /** The writes made by one command share a group, sent in order. */
  group: string;
  /** `endpoint#username`: the account it is sent as, and no other. */
  account: string;
  /** The window that sends it. */
  owner: string;
  state: WriteState;
  payload: P;
  createdAt: number;
  /** POSTs sent so far. */
  attempts: number;
  /** Resends after a lookup that proved the platform had not processed it. */
  resends: number;
  lastAttemptAt?: number;
  /** Not sent or looked up before this (a rate-limit reset, a maintenance back-off, the next lookup). */
  notBefore?: number;
  /** The last back-off (ms), doubled by the next. */
  waitMs?: number;
  /** What the kind noted before the last send, to find its outcome after a lost answer. */
  lookup?: L;
  /** The platform's answer (`sent`), until the kind has taken it. */
  outcome?: R;
  /** What happened last, in words. */
  note?: string;
}

export type Lookup<R> = { found: R } | { absent: string } | { unknown: string };

/** One kind of write: how it is sent, and how its outcome is found after a lost answer. */
export interface WriteKind<P, L, R> {
  readonly name: string;
  /** Notes what is needed to tell later whether the platform processed it (called before every send). */
  prepare(record: WriteRecord<P, L, R>, credentials: Credentials): Promise<L>;
  send(record: WriteRecord<P, L, R>, credentials: Credentials): Promise<R>;
  lookup(record: WriteRecord<P, L, R>, credentials: Credentials): Promise<Lookup<R>>;
  /** The write reached the platform (answered, or found): take its outcome. Must be idempotent. */
  finish(record: WriteRecord<P, L, R>, outcome: R, found: boolean): void | Promise<void>;
  /**
   * Bulk work paced to the API budget: how long to hold the write back before sending it (0: send now). Asked
   * before each send, before anything is marked; a write held back is queued until then, and says why.
   */
  hold?(record: WriteRecord<P, L, R>): number;
}

/** The account writes are sent as now, with its credentials; undefined while signed out or not yet known. */
export interface Account {
  key: string;
  credentials: Credentials;
}

export interface OutboxOptions {
  heartbeatMs?: number;
  /** A heartbeat older than this is a window gone: longer than any POST can take (its timeout) plus two beats. */
  staleMs?: number;
  /** Longer than global state takes to reach every window. */
  settleMs?: number;
  /** Wait after a lost answer before the first lookup: the platform may still be processing the call. */
  lookupDelayMs?: number;
  /** Longest wait between lookups, and before a resend after a 429 or maintenance. */
  maxWaitMs?: number;
}

const RECORD_PREFIX = STATE_KEY_PREFIXES.writeRecord;
const BEAT_PREFIX = STATE_KEY_PREFIXES.writerBeat;
const MAX_RESENDS = 3;

/** Records, sends, looks up and finishes the writes of this window (see the states above). */
export class Outbox {
  private readonly kinds = new Map<string, WriteKind<unknown, unknown, unknown>>();
  /** This window's own writes: the truth for them (global state may echo an older value back). */
  private readonly mine = new Map<string, WriteRecord>();
  /** Writes this window finished or discarded, which a late echo of global state must not bring back. */
  private readonly gone = new Set<string>();
  /** The last run found no account to send as (signed out, or the username not known). */
  private blocked = false;
  /** The account the last run (or submit) sent as: only its writes are this window's work now. */
  private accountKey: string | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly finished = new Emitter<{ record: WriteRecord; outcome: unknown; found: boolean }>();
  /** A write of this window reached the platform (answered, or found after a lost answer) and its kind took it. */
  readonly onDidFinish = this.finished.event;
  private readonly id = `w${randomUUID()}`;
  private readonly opts: Required<OutboxOptions>;
  /** The loop: a run at once when woken, else when the next write is due or a heartbeat from now. */
  private readonly loop: Poller;
  private beatTimer: unknown;
  private disposed = false;
  private counter = 0;

  constructor(
    private readonly state: SharedState,
    private readonly account: () => Promise<Account | undefined>,
    private readonly timers: Clock = systemClock,
    options: OutboxOptions = {},
  ) {
    // A failed run is not backed off: the next is due when the next write is (run() notes waits in the records).
    this.loop = new Poller({ poll: () => this.run().catch(() => undefined), hasWork: () => true, interval: () => this.nextWake(), clock: timers });
    this.opts = {
      heartbeatMs: options.heartbeatMs ?? 10_000,
      staleMs: options.staleMs ?? 60_000,
      settleMs: options.settleMs ?? 2_000,
      lookupDelayMs: options.lookupDelayMs ?? 3_000,
      maxWaitMs: options.maxWaitMs ?? 60_000,
    };
  }

  register<P, L, R>(kind: WriteKind<P, L, R>): void {
    this.kinds.set(kind.name, kind as WriteKind<unknown, unknown, unknown>);
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

  /** Every write not yet finished, of every window and account, oldest first. */
  all(): WriteRecord[] {
    const byId = new Map<string, WriteRecord>();
    for (const key of this.state.keys()) {
      if (!key.startsWith(RECORD_PREFIX)) continue;
      const record = this.state.get<WriteRecord>(key);
      if (isRecord(record) && !this.gone.has(record.id)) byId.set(record.id, record);
    }
    for (const [id, record] of this.mine) byId.set(id, record);
    return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** The writes of one account (the one in use, by default), oldest first. */
  forAccount(account: string): WriteRecord[] {
    return this.all().filter((r) => r.account === account);
  }

  /** Whether this window sends the write (else it is shown read-only). */
  owns(record: WriteRecord): boolean {
    return this.mine.has(record.id);
  }

  /**
   * Records writes (one group, sent in order) for the account in use and starts sending them. Resolves once they
   * are recorded; `settled` resolves when each has reached a state that needs no more work from this window.
   */
  async submit<P>(kind: string, payloads: P[], account: Account): Promise<WriteRecord<P>[]> {
    const now = this.timers.now();
    const group = this.newId();
    const records = payloads.map(
      (payload): WriteRecord<P> => ({
        id: this.newId(),
        kind,
        group,
        account: account.key,
        owner: this.id,
        state: 'queued',
        payload,
        createdAt: now,
        attempts: 0,
        resends: 0,
      }),
    );
    // The heartbeat goes out before the records, so no window sees them without an owner alive.
    for (const record of records) this.mine.set(record.id, record);
    this.accountKey = account.key;
    this.beat();
    for (const record of records) await this.save(record);
    this.blocked = false;
    this.wake(0);
    return records;
  }

  /** Resolves when none of these writes needs this window now (sent, failed, waiting, or gone). */
  async settled(ids: readonly string[]): Promise<WriteRecord[]> {
    for (;;) {
      const current = ids.map((id) => this.mine.get(id)).filter((r): r is WriteRecord => r !== undefined);
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
   * The user asks to send the group's writes in these states again: `failed` ones (Submit Again), or `unsure`
   * ones on their word, without a lookup (Submit Anyway). Only this window's writes.
   */
  async resubmit(group: string, states: readonly WriteState[] = ['failed']): Promise<void> {
    for (const record of [...this.mine.values()]) {
      if (record.group !== group || !states.includes(record.state)) continue;
      await this.save({ ...record, state: 'queued', notBefore: undefined, waitMs: undefined, resends: 0, note: undefined });
    }
    this.wake(0);
  }

  /** Forgets the group's writes that are not on their way (this window's, or any window's the user discards). */
  async discard(group: string): Promise<void> {
    for (const record of this.all()) {
      if (record.group !== group || record.state === 'sending' || record.state === 'sent') continue;
      if (!this.mine.has(record.id) && !this.isStale(record)) continue;
      await this.remove(record);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.loop.dispose();
    if (this.beatTimer !== undefined) this.timers.clearTimeout(this.beatTimer);
    // A clean close lets other windows take over at once, unless a POST is on its way: then the heartbeat is left
    // to go stale, so that nobody looks it up before the platform could have answered it.
    if (![...this.mine.values()].some((r) => r.state === 'sending')) {
      void Promise.resolve(this.state.update(BEAT_PREFIX + this.id, undefined)).catch(() => undefined);
    }
    this.changed.fire();
    this.changed.dispose();
    this.finished.dispose();
  }

  private isDue(record: WriteRecord): boolean {
    if (record.state === 'failed') return false;
    if (record.state === 'sending') return true;
    return record.notBefore === undefined || record.notBefore <= this.timers.now();
  }

  /** Runs the loop soon; a run under way runs once more after it. */
  private wake(delay: number): void {
    this.loop.schedule(delay);
  }

  /** When the loop next has work: the earliest wait of this window's writes, else a look for writes of windows gone. */
  private nextWake(): number {
    const now = this.timers.now();
    let next = this.opts.heartbeatMs;
    if (this.blocked) return next;
    for (const record of this.mine.values()) {
      if (record.state === 'failed' || record.account !== this.accountKey) continue;
      next = Math.min(next, Math.max(0, (record.notBefore ?? now) - now));
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
    await this.takeOver(account);
    for (;;) {
      const record = [...this.mine.values()]
        .filter((r) => r.account === account.key && this.isDue(r))
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
    if (!kind) {
      await this.save({ ...record, state: 'failed', note: l10n.t('This version of the extension cannot send this request.') });
      return;
    }
    if (record.state === 'sent') return this.finish(kind, record, record.outcome, false);
    if (record.state === 'sending') {
      // Left on its way by a window that closed (or this one, reloaded): the call may have been processed.
      await this.save({ ...record, state: 'unsure', notBefore: this.timers.now() + this.opts.lookupDelayMs, note: l10n.t('The window that sent it closed before the answer came.') });
      return;
    }
    if (record.state === 'unsure') return this.look(kind, record, account);
    return this.send(kind, record, account);
  }

  private async send(kind: WriteKind<unknown, unknown, unknown>, record: WriteRecord, account: Account): Promise<void> {
    const hold = kind.hold?.(record) ?? 0;
    if (hold > 0) {
      await this.save({ ...record, notBefore: this.timers.now() + hold, note: l10n.t('The API budget is nearly spent: it is sent when the budget resets.') });
      return;
    }
    let lookup: unknown;
    try {
      lookup = await kind.prepare(record, account.credentials);
    } catch (error) {
      // Without it a lost answer could not be told apart later: wait rather than send blind.
      if (this.mine.get(record.id) === record) await this.save({ ...record, ...this.later(record), note: l10n.t('Waiting to send: {0}', describeError(error)) });
      return;
    }
    // Discarded or changed by the user meanwhile, or claimed by another window: not this step's to send.
    const stored = this.state.get<WriteRecord>(RECORD_PREFIX + record.id);
    if (this.mine.get(record.id) !== record) return;
    if (isRecord(stored) && stored.owner !== this.id) {
      this.mine.delete(record.id);
      this.changed.fire();
      return;
    }
    const sending: WriteRecord = { ...record, state: 'sending', lookup, attempts: record.attempts + 1, lastAttemptAt: this.timers.now(), notBefore: undefined, note: undefined };
    if (!(await this.save(sending, true))) {
      await this.save({ ...record, ...this.later(record), note: l10n.t('Waiting to send: VS Code could not record it.') });
      return;
    }
    let outcome: unknown;
    try {
      outcome = await kind.send(sending, account.credentials);
    } catch (error) {
      await this.afterFailure(sending, error);
      return;
    }
    // Accepted: nothing below may lead to sending it again.
    await this.save({ ...sending, state: 'sent', outcome });
    await this.finish(kind, this.mine.get(sending.id) ?? sending, outcome, false);
  }

  private async afterFailure(record: WriteRecord, error: unknown): Promise<void> {
    const note = describeError(error);
    const now = this.timers.now();
    if (!(error instanceof ApiError) || error.maybeDelivered) {
      await this.save({ ...record, state: 'unsure', notBefore: now + this.opts.lookupDelayMs, note });
      return;
    }
    if (error.isRateLimited || error.isMaintenance) {
      // Proof the platform did not process it: sent again, as it was, once the wait is over.
      const why = error.isRateLimited ? l10n.t("The platform's rate limit is used up.") : l10n.t('The platform is under maintenance.');
      // The reset as the transport measured it on the server's clock; else from the reset time and this clock.
      const untilReset = error.untilResetMs ?? (error.resetAt ? Math.max(0, error.resetAt * 1000 - now) : undefined);
      const wait = error.isRateLimited && untilReset !== undefined ? { notBefore: now + Math.min(untilReset + 1_000, 5 * 60_000) } : this.later(record);
      await this.save({ ...record, state: 'queued', ...wait, note: why });
      return;
    }
    await this.save({ ...record, state: 'failed', note });
  }

  private async look(kind: WriteKind<unknown, unknown, unknown>, record: WriteRecord, account: Account): Promise<void> {
    const now = this.timers.now();
    // Another write of the account on its way may have made what the lookup would find.
    const busy = this.all().some((r) => r.id !== record.id && r.account === record.account && r.state === 'sending' && !this.isStale(r));
    if (busy) {
      await this.save({ ...record, notBefore: now + 1_000 });
      return;
    }
    let result: Lookup<unknown>;
    try {
      result = await kind.lookup(record, account.credentials);
    } catch (error) {
      if (this.mine.get(record.id) === record) await this.save({ ...record, ...this.later(record), note: l10n.t('May have been submitted; could not check yet. {0} Checking again soon.', describeError(error)) });
      return;
    }
    if ((await this.account().catch(() => undefined))?.key !== record.account) return;
    // Discarded or sent anyway by the user meanwhile: their word stands (a found job is still followed).
    if (this.mine.get(record.id) !== record && !('found' in result)) return;
    if ('found' in result) {
      await this.save({ ...record, state: 'sent', outcome: result.found });
      await this.finish(kind, this.mine.get(record.id) ?? record, result.found, true);
    } else if ('absent' in result) {
      if (record.resends >= MAX_RESENDS) await this.save({ ...record, state: 'failed', note: l10n.t({ message: '{0} It was sent {1} times without an answer.', args: [result.absent, record.attempts], comment: ['{0}: why the platform has no record of it'] }) });
      else await this.save({ ...record, state: 'queued', resends: record.resends + 1, note: result.absent });
    } else {
      await this.save({ ...record, ...this.later(record), note: result.unknown });
    }
  }

  private async finish(kind: WriteKind<unknown, unknown, unknown>, record: WriteRecord, outcome: unknown, found: boolean): Promise<void> {
    try {
      await kind.finish(record, outcome, found);
    } catch (error) {
      // The platform has it: kept as sent (never sent again), and handed over again later.
      await this.save({ ...record, state: 'sent', outcome, ...this.later(record), note: l10n.t('Submitted; not shown yet. {0}', describeError(error)) });
      return;
    }
    // Told at once: its record leaves this window now, while global state is still being written.
    const removing = this.remove(record);
    this.finished.fire({ record, outcome, found });
    await removing;
  }

  /** The next of doubling waits between lookups or sends, from 1 s up to `maxWaitMs`. */
  private later(record: WriteRecord): { notBefore: number; waitMs: number } {
    const waitMs = Math.min(this.opts.maxWaitMs, Math.max(1_000, (record.waitMs ?? 500) * 2));
    return { notBefore: this.timers.now() + waitMs, waitMs };
  }

  /** Takes over the account's writes whose window is gone: claimed, then confirmed after the settle time. */
  private async takeOver(account: Account): Promise<void> {
    const orphans = this.all().filter((r) => r.account === account.key && !this.mine.has(r.id) && this.isStale(r));
    if (!orphans.length) return;
    // Our heartbeat goes first, so that no third window takes our claim for an orphan's.
    await Promise.resolve(this.state.update(BEAT_PREFIX + this.id, this.timers.now())).catch(() => undefined);
    for (const record of orphans) await this.write({ ...record, owner: this.id });
    await new Promise<void>((resolve) => this.timers.setTimeout(resolve, this.opts.settleMs));
    for (const record of orphans) {
      const stored = this.state.get<WriteRecord>(RECORD_PREFIX + record.id);
      if (isRecord(stored) && stored.owner === this.id) this.mine.set(record.id, stored);
    }
    this.beat();
    this.changed.fire();
  }

  private isStale(record: WriteRecord): boolean {
    if (record.owner === this.id) return false;
    const beat = this.state.get<number>(BEAT_PREFIX + record.owner);
    return typeof beat !== 'number' || this.timers.now() - beat > this.opts.staleMs;
  }

  /** Keeps this window's heartbeat while it owns writes. */
  private beat(): void {
    if (this.disposed) return;
    if (this.beatTimer !== undefined) this.timers.clearTimeout(this.beatTimer);
    this.beatTimer = undefined;
    if (!this.mine.size) {
      void Promise.resolve(this.state.update(BEAT_PREFIX + this.id, undefined)).catch(() => undefined);
      return;
    }
    void Promise.resolve(this.state.update(BEAT_PREFIX + this.id, this.timers.now())).catch(() => undefined);
    this.beatTimer = this.timers.setTimeout(() => this.beat(), this.opts.heartbeatMs);
  }

  /** Keeps a write of this window, in memory and global state; with `must`, false when global state refused it. */
  private async save(record: WriteRecord, must = false): Promise<boolean> {
    if (this.disposed) return false;
    this.mine.set(record.id, record);
    const ok = await this.write(record);
    this.changed.fire();
    return ok || !must;
  }

  private async remove(record: WriteRecord): Promise<void> {
    this.mine.delete(record.id);
    this.gone.add(record.id);
    await this.write(undefined, record.id);
    if (!this.mine.size) this.beat();
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
    return `${this.timers.now().toString(36)}-${(this.counter++).toString(36).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
  }
}

function isRecord(value: unknown): value is WriteRecord {
  const r = value as WriteRecord | undefined;
  return !!r && typeof r === 'object' && typeof r.id === 'string' && typeof r.kind === 'string' && typeof r.account === 'string' && typeof r.state === 'string';
}

export interface FinishedWrite {
  record: WriteRecord;
  outcome: unknown;
  /** Found on the platform after a lost answer (not answered). */
  found: boolean;
}

/**
 * Runs `start` (which records writes in the outbox) and resolves once they need nothing more from this window:
 * those that reached the platform, and those left (refused, maybe submitted and being looked up, or waiting).
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
