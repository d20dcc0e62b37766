// One write's way through its states (drawn in write/outbox.ts): sent once its record shows it on its way, its answer
// judged, looked up by its kind's identity rule after an ambiguous one, what a lookup found claimed and confirmed,
// and its outcome handed to its kind. Each step is one move of one write of this window, by its state. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError, describeError, redact, redactValue } from '../api/errors';
import type { Clock } from '../api/clock';
import type { Emitter } from '../util/emitter';
import { formatDuration } from '../util/time';
import type { Lookup, WriteKind, WriteKinds } from './kinds';
import { MAX_RATE_WAIT_MS, type Ownership } from './ownership';
import { damagedOutcome, type Account, type FinishedWrite, type WriteRecord } from './records';
import type { RecordStore } from './store';
import type { WindowWrites } from './windowWrites';

/** Resends of an idempotent write after lookups that showed it not done, before the person is asked. */
const MAX_RESENDS = 3;
/** A write missing from global state is looked at again this soon. */
const MISSING_RETRY_MS = 250;

export interface LifecycleOptions {
  settleMs: number;
  /** Wait after an ambiguous answer before the first lookup. */
  lookupDelayMs: number;
  /** How long a write that may have been processed is looked for before the person decides. */
  lateWindowMs: number;
}

export interface LifecycleParts {
  kinds: WriteKinds;
  writes: WindowWrites;
  store: RecordStore;
  owners: Ownership;
  clock: Clock;
  opts: LifecycleOptions;
  /** The account in use now (it may change while a step awaits). */
  account(): Promise<Account | undefined>;
  /** Runs the loop again in `ms`. */
  wake(ms: number): void;
  finished: Emitter<FinishedWrite>;
  changed: Emitter<void>;
}

export class Lifecycle {
  constructor(private readonly parts: LifecycleParts) {}

  /** One move of one write, by its state. */
  async step(record: WriteRecord, account: Account): Promise<void> {
    const { kinds, owners, writes } = this.parts;
    const kind = kinds.get(record.kind);
    // Never act on a write whose stored record is finished or another window's now, nor while it is missing.
    const standing = kind ? owners.standing(record.id) : 'lost';
    if (!kind || standing === 'lost') return writes.drop(record.id);
    if (standing === 'wait') return this.retrySoon(record.id);
    if (record.state === 'sent') return this.finish(kind, record, record.outcome, false);
    if (record.state === 'sending') {
      // Left on its way by a window that closed (or this one, reloaded): the call may have been processed.
      writes.lookingFromNow(record.id);
      await writes.save({ ...record, state: 'unsure', ambiguous: true, ...writes.wait(record.id, this.parts.opts.lookupDelayMs), note: l10n.t('The window that sent it closed before the answer came.') });
      return;
    }
    if (record.state === 'unsure') return this.look(kind, record, account);
    return this.send(kind, record, account);
  }

  private async send(kind: WriteKind, record: WriteRecord, account: Account): Promise<void> {
    const { owners, writes, clock } = this.parts;
    const hold = kind.hold?.(record) ?? 0;
    if (hold > 0) {
      await writes.save({ ...record, ...writes.wait(record.id, hold), note: l10n.t('The API budget is nearly spent: it is sent when the budget resets.') });
      return;
    }
    let snapshot: unknown;
    try {
      snapshot = kind.identity.by === 'difference' ? await kind.identity.snapshot(record, account.credentials) : undefined;
    } catch (error) {
      // Without it a lost answer could not be told apart later: wait rather than send blind.
      if (writes.record(record.id) === record) await writes.save({ ...record, ...writes.later(record), note: l10n.t('Waiting to send: {0}', words(error, account)) });
      return;
    }
    // Discarded or changed by the person meanwhile, or taken by another window: not this step's to send.
    if (writes.record(record.id) !== record) return;
    const standing = owners.standing(record.id);
    if (standing === 'lost') return writes.drop(record.id);
    if (standing === 'wait') return this.retrySoon(record.id);
    const sending: WriteRecord = { ...record, state: 'sending', snapshot, attempts: record.attempts + 1, lastAttemptAt: clock.now(), notBefore: undefined, note: undefined };
    if (!(await writes.save(sending, true))) {
      await writes.save({ ...record, ...writes.later(record), note: l10n.t('Waiting to send: VS Code could not record it.') });
      return;
    }
    if (!owners.shows(sending)) {
      // Global state took the mark, then showed an older value: not sent until it shows the mark.
      await writes.save(record);
      return this.retrySoon(record.id);
    }
    let answer: unknown;
    try {
      answer = await kind.send(sending, account.credentials);
    } catch (error) {
      // Taken over meanwhile (this window was thought gone): the window that took it looks it up.
      if (owners.standing(sending.id) === 'lost') return writes.drop(sending.id);
      await this.afterFailure(kind, sending, error, account);
      return;
    }
    // Accepted: nothing below may lead to sending it again. The answer is the truth, whoever owns the record now.
    const outcome = kept(kind, answer, account);
    const claim = kind.identity.by === 'difference' ? { id: kind.identity.madeId(outcome), how: 'answered' as const } : undefined;
    const sent: WriteRecord = { ...sending, state: 'sent', outcome, claim };
    // Handed over at once, the caller told, without waiting for global state to read `sent` first: until `finish`
    // writes what became of it (finished; or `sent`, or damaged, when its kind cannot take it) it reads `sending`, and
    // meanwhile no other write's lookup runs (`othersSending`) and a window gone with it is looked up before anything.
    writes.hold(sent);
    await this.finish(kind, sent, outcome, false);
  }

  private async afterFailure(kind: WriteKind, record: WriteRecord, error: unknown, account: Account): Promise<void> {
    const { writes } = this.parts;
    const note = words(error, account);
    if (error instanceof ApiError && (error.isRateLimited || error.isMaintenance) && !error.maybeDelivered) {
      // Proof the platform did not process it: sent again, as it was, once the wait is over.
      const why = error.isRateLimited ? l10n.t("The platform's rate limit is used up.") : l10n.t('The platform is under maintenance.');
      // The reset as the transport measured it on the server's clock: how long, never a moment on this machine's clock.
      const wait = error.isRateLimited && error.untilResetMs !== undefined ? writes.wait(record.id, Math.min(error.untilResetMs + 1_000, MAX_RATE_WAIT_MS)) : writes.later(record);
      await writes.save({ ...record, state: 'queued', ...wait, note: why });
      return;
    }
    if (error instanceof ApiError && error.kind === 'network' && !error.maybeDelivered) {
      // The connection was refused before a byte was sent: not processed.
      await writes.save({ ...record, state: 'queued', ...writes.later(record), note });
      return;
    }
    if (error instanceof ApiError && !error.maybeDelivered && error.kind !== 'cancelled') {
      const done = record.ambiguous ? kind.doneBy?.(error, record) : undefined;
      if (done !== undefined) {
        await writes.save({ ...record, state: 'sent', outcome: kept(kind, done, account) });
        await this.finish(kind, writes.record(record.id) ?? record, done, true);
        return;
      }
      // A refusal. After an ambiguous try it may refuse what the first try did (a second abort), and a kind may know
      // a refusal that answers what another call did (an upload completed by another window): checked, not believed.
      if (!record.ambiguous && !kind.verifyRefusal?.(error, record)) {
        await writes.save({ ...record, state: 'failed', note });
        return;
      }
    }
    // Timeout, dropped connection, 5xx, unreadable answer, or anything not an ApiError: it may have been processed.
    if (!record.ambiguous || writes.get(record.id)?.lookingSince === undefined) writes.lookingFromNow(record.id);
    await writes.save({ ...record, state: 'unsure', ambiguous: true, lookedForMs: record.ambiguous ? record.lookedForMs : 0, ...writes.wait(record.id, this.parts.opts.lookupDelayMs), note });
  }

  private async look(kind: WriteKind, record: WriteRecord, account: Account): Promise<void> {
    const { owners, writes, store, opts } = this.parts;
    // Another write of the account on its way may have made what the lookup would find.
    if (owners.othersSending(record)) {
      await writes.save({ ...record, ...writes.wait(record.id, 1_000) });
      return;
    }
    let result: Lookup<unknown>;
    try {
      const identity = kind.identity;
      const { snapshot } = record;
      if (identity.by === 'state') result = await identity.read(record, account.credentials);
      // Nothing noted before the send (or it was stored damaged): nothing found can be proven to be this write's.
      else if (snapshot === undefined) result = { unknown: noSnapshot() };
      else {
        // The others' claims read once, when the listing is in (not once per item listed: a sheet's 1,000 writes).
        let claimed: Set<string> | undefined;
        result = await identity.find({ ...record, snapshot }, account.credentials, (id) => (claimed ??= store.claimedByOthers(record)).has(id));
      }
    } catch (error) {
      if (writes.record(record.id) === record) await writes.save({ ...record, ...writes.later(record), lookedForMs: writes.lookedFor(record), note: l10n.t('May have been submitted; could not check yet. {0} Checking again soon.', words(error, account)) });
      return;
    }
    if ((await this.parts.account().catch(() => undefined))?.key !== record.account) return;
    // Discarded or sent anyway by the person meanwhile: their word stands (a write found is still followed).
    if (writes.record(record.id) !== record && !('found' in result)) return;
    if ('found' in result) return this.adopt(kind, record, result.found, account);
    const lookedForMs = writes.lookedFor(record);
    const payload = 'rest' in result && result.rest !== undefined ? result.rest : record.payload;
    if ('changed' in result) {
      // Someone else's change, or gone: not this write's to undo.
      await writes.save({ ...record, state: 'changed', payload, lookedForMs, note: words(result.changed, account) });
      return;
    }
    const note = words('absent' in result ? result.absent : result.unknown, account);
    // A destructive call (a DELETE) is not sent again while a late one may still act.
    const resendable = kind.idempotent && (!kind.destructive || lookedForMs >= opts.lateWindowMs);
    if ('absent' in result && resendable && record.resends < MAX_RESENDS) {
      // Not done (of many items, only those proven not done are sent again), and sending it again does no harm.
      await writes.save({ ...record, state: 'queued', payload, resends: record.resends + 1, lookedForMs, note });
      const held = writes.get(record.id);
      if (held) held.dueAt = undefined;
      return;
    }
    if (lookedForMs >= opts.lateWindowMs || ('absent' in result && resendable)) {
      const notFound = l10n.t({ message: 'Not found on the platform after {0}. {1} Submit again?', args: [formatDuration(lookedForMs), note], comment: ['{0}: how long it was looked for; {1}: what the last lookup saw'] });
      await writes.save({ ...record, state: 'notFound', lookedForMs, note: notFound });
      return;
    }
    writes.lookingFromNow(record.id);
    await writes.save({ ...record, ...writes.later(record), lookedForMs, note });
  }

  /** A lookup found the write: what it made is claimed, confirmed after the settle time, then taken. */
  private async adopt(kind: WriteKind, record: WriteRecord, found: unknown, account: Account): Promise<void> {
    const { owners, writes, store, opts } = this.parts;
    const outcome = kept(kind, found, account);
    let claim = record.claim;
    if (kind.identity.by === 'difference') {
      claim = { id: kind.identity.madeId(outcome), how: 'found' };
      const claiming: WriteRecord = { ...record, claim, lookedForMs: writes.lookedFor(record) };
      if (!(await writes.save(claiming, true))) {
        await writes.save({ ...record, ...writes.later(record) });
        return;
      }
      await owners.pause(opts.settleMs);
      if (owners.standing(record.id) === 'lost') return writes.drop(record.id);
      // Another write claims it (answered, or found with a lower ID), or another is on its way: not ours to take.
      if (store.claimedElsewhere(claim.id, record, true) || owners.othersSending(record)) {
        if (writes.record(record.id) === claiming) await writes.save({ ...claiming, claim: undefined, ...writes.later(record), note: l10n.t('What the lookup found is claimed by another request: looking further.') });
        return;
      }
    }
    await writes.save({ ...(writes.record(record.id) ?? record), state: 'sent', outcome, claim });
    await this.finish(kind, writes.record(record.id) ?? record, outcome, true);
  }

  private async finish(kind: WriteKind, record: WriteRecord, outcome: unknown, found: boolean): Promise<void> {
    const { writes, store } = this.parts;
    if (kind.isOutcome && !kind.isOutcome(outcome)) {
      // The platform has it, but what it answered cannot be read: never sent again, and not handed over for ever.
      await writes.save({ ...record, state: 'failed', problem: 'corrupt', outcome: undefined, note: damagedOutcome() });
      return;
    }
    try {
      await kind.finish(record, outcome, found);
    } catch (error) {
      // The platform has it: kept as sent (never sent again), and handed over again later.
      await writes.save({ ...record, state: 'sent', outcome, ...writes.later(record), note: l10n.t('Submitted; not shown yet. {0}', describeError(error)) });
      return;
    }
    // Told at once: its record leaves this window's list now, while global state is still being written.
    const keepClaim = record.claim !== undefined;
    const done: WriteRecord = { ...record, state: 'done', payload: null, outcome: undefined, snapshot: undefined, note: undefined };
    writes.release(record.id);
    // Marked finished before anyone is told, so that no list shows it while global state is being written (the status
    // bar said "Submitting 1 copy request" until the next change).
    if (keepClaim) store.claimKeptFrom(record.id);
    else store.gone.add(record.id);
    this.parts.finished.fire({ record, outcome, found });
    this.parts.changed.fire();
    // What it made stays claimed a while (another write's lookup must not adopt it); a write that made nothing goes.
    if (keepClaim) await store.write(done);
    else await writes.remove(record.id);
  }

  /** Looks at a write again soon (its record is missing for now); it stays due meanwhile. */
  private retrySoon(id: string): void {
    const held = this.parts.writes.get(id);
    if (held) held.retrying = true;
    this.parts.wake(MISSING_RETRY_MS);
  }
}

/** What the kind keeps of an answer, with the token redacted from every string (an answer may echo it). */
function kept(kind: WriteKind, answer: unknown, account: Account): unknown {
  return redactValue(kind.keep(answer), [account.credentials.token]);
}

/** Words for a person about an error or a lookup, never with the token. */
function words(what: unknown, account: Account): string {
  return redact(typeof what === 'string' ? what : describeError(what), [account.credentials.token]);
}

const noSnapshot = (): string => l10n.t('It may have been submitted: nothing noted before it was sent can tell what it made apart on the platform.');
