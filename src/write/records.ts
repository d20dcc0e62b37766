// A write as global state keeps it (one key per write), and how a record read back is checked: it may have been
// written by another version of the extension, or damaged. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';
import type { Credentials } from '../api/transport';

/** The account writes are sent as now, with its credentials. */
export interface Account {
  key: string;
  credentials: Credentials;
}

/** A write of this window that reached the platform (answered, or found after a lost answer), its kind having taken it. */
export interface FinishedWrite<R = unknown> {
  record: WriteRecord;
  outcome: R;
  /** Found on the platform after a lost answer (not answered). */
  found: boolean;
}

/**
 * - `queued`: recorded, to be sent (now, or after `notBefore`);
 * - `sending`: marked as on its way, then sent; the answer is awaited;
 * - `unsure`: the answer was lost or ambiguous: it may have been processed, and is looked up on the platform;
 * - `notFound`: looked up for the whole late window without being found: the person decides (Submit Again, Discard);
 * - `failed`: refused (a 4xx), or it could not be recorded: the person decides;
 * - `changed`: the lookup saw neither what was asked nor what was there before the send: someone else changed it (or
 *   what it acts on is gone), which is not the write's to undo: the person decides;
 * - `sent`: it reached the platform (answered, or found); its kind has not taken the outcome yet;
 * - `done`: its kind took the outcome. Kept a while, hidden, so that what it made stays claimed (see outbox.ts).
 */
export type WriteState = 'queued' | 'sending' | 'unsure' | 'notFound' | 'failed' | 'changed' | 'sent' | 'done';

const STATES: readonly string[] = ['queued', 'sending', 'unsure', 'notFound', 'failed', 'changed', 'sent', 'done'] satisfies WriteState[];

/** States in which the person decides what happens next (Submit Again, Discard). */
export const USER_DECIDES: readonly WriteState[] = ['failed', 'notFound', 'changed'];

/** Whether the person decides what happens next to the write (it is sent again only on their word). */
export const waitsForPerson = (record: Pick<WriteRecord, 'state'>): boolean => USER_DECIDES.includes(record.state);

/**
 * The record's shape. 1: the first (no `v`; the snapshot was called `lookup`). 2: `v`, `snapshot`, `claim`,
 * `ambiguous`, `lookedForMs`, the `notFound` and `done` states (and later the `changed` state: a version that does not
 * know it leaves such a record alone, as from a newer version). A record of a higher version is left alone.
 */
export const WRITE_SCHEMA = 2;

/** What a write made on the platform (a job, a task), claimed by it so that no other write's lookup adopts it. */
export interface Claim {
  id: string;
  /** `answered`: the platform's answer named it. `found`: a lookup adopted it (the lowest write ID wins a tie). */
  how: 'answered' | 'found';
}

export interface WriteRecord<P = unknown, S = unknown, R = unknown> {
  v: number;
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
  /** A person's words for it, from its kind when it was made ("Re-run "BWA-MEM run""), for the lists that show it. */
  label?: string;
  /** This machine's clock: to show ("3 minutes ago") and to order, never to judge. */
  createdAt: number;
  /** POSTs sent so far. */
  attempts: number;
  /** Resends without asking, after a lookup showed an idempotent write not done. */
  resends: number;
  /** An attempt's answer was ambiguous (it may have been processed): a later refusal is checked, not believed. */
  ambiguous?: boolean;
  /** When the last attempt left, on this machine's clock: shown only. */
  lastAttemptAt?: number;
  /** Not sent or looked up before this (a rate-limit reset, a back-off): shown; the wait runs on the monotonic clock. */
  notBefore?: number;
  /** The last back-off (ms), doubled by the next. */
  waitMs?: number;
  /** What the kind noted before the last send, to find the write after a lost answer. */
  snapshot?: S;
  /** How long it has been looked for since the ambiguous answer (ms on the windows' monotonic clocks, added up). */
  lookedForMs?: number;
  /** What it made, once known (answered or found). */
  claim?: Claim;
  /** The platform's answer (`sent`), as its kind keeps it, until the kind has taken it. */
  outcome?: R;
  /** What happened last, in words. Never a credential. */
  note?: string;
  /**
   * Set on a record read back that this version must not act on: `newer` (a state, kind or version it does not
   * know: left alone, never sent), `corrupt` (damaged: shown as failed, with Discard).
   */
  problem?: 'newer' | 'corrupt';
}

/** A record read back from global state: one this version can act on, or one it shows and leaves alone. */
export type ReadRecord = { record: WriteRecord } | { problem: WriteRecord };

/** How a kind checks what is read back of its records: the payload, the snapshot (if found by difference), the outcome. */
export interface RecordChecks {
  isPayload(payload: unknown): boolean;
  isSnapshot?(snapshot: unknown): boolean;
  isOutcome?(outcome: unknown): boolean;
}

/**
 * Checks a value read back from global state under a write's key. `checks(kind)` gives the kind's checks when it is
 * known here (undefined: it is not). A damaged payload, or the damaged outcome of a write that reached the platform,
 * makes the record damaged; a damaged snapshot is dropped (the write can then not be found by difference: it is
 * never taken for another's).
 */
export function readRecord(value: unknown, idFromKey: string, checks: (kind: string) => RecordChecks | undefined): ReadRecord | undefined {
  if (value === undefined) return undefined;
  const r = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const id = typeof r.id === 'string' && r.id ? r.id : idFromKey;
  const text = (x: unknown): x is string => typeof x === 'string';
  const count = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  const version = r.v === undefined ? 1 : r.v;
  const shown = (problem: 'newer' | 'corrupt', note: string): ReadRecord => ({
    problem: {
      v: count(version) ? version : WRITE_SCHEMA,
      id,
      kind: text(r.kind) ? r.kind : '',
      group: text(r.group) ? r.group : id,
      account: text(r.account) ? r.account : '',
      owner: text(r.owner) ? r.owner : '',
      state: problem === 'corrupt' ? 'failed' : 'queued',
      payload: undefined,
      label: text(r.label) ? r.label : undefined,
      createdAt: count(r.createdAt) ? r.createdAt : 0,
      attempts: count(r.attempts) ? r.attempts : 0,
      resends: 0,
      note,
      problem,
    },
  });
  if (!count(version) || !Number.isInteger(version)) return shown('corrupt', damaged());
  if (version > WRITE_SCHEMA) return shown('newer', newer());
  if (!text(r.state) || !text(r.kind)) return shown('corrupt', damaged());
  if (!STATES.includes(r.state)) return shown('newer', newer());
  // The first version had one kind for the three task actions.
  const payloadAction = (r.payload as { action?: unknown } | null)?.action;
  const kind = version === 1 && r.kind === 'taskAction' && typeof payloadAction === 'string' ? `taskAction.${payloadAction}` : r.kind;
  const check = checks(kind);
  if (check === undefined) return shown('newer', newer());
  const known = check.isPayload(r.payload);
  if (!text(r.id) || !text(r.group) || !text(r.account) || !text(r.owner) || !count(r.createdAt) || !count(r.attempts)) return shown('corrupt', damaged());
  // A tombstone keeps no payload: only its claim matters.
  if (r.state !== 'done' && !known) return shown('corrupt', damaged());
  const record = { ...r, v: WRITE_SCHEMA, kind, resends: count(r.resends) ? r.resends : 0 } as unknown as WriteRecord & { lookup?: unknown };
  if (version === 1) {
    // The first version called the snapshot `lookup`.
    record.snapshot = record.lookup;
    delete record.lookup;
  }
  if (record.claim !== undefined && !(record.claim && typeof record.claim.id === 'string' && (record.claim.how === 'answered' || record.claim.how === 'found'))) return shown('corrupt', damaged());
  if (record.state === 'sent' && check.isOutcome && !check.isOutcome(record.outcome)) return shown('corrupt', damagedOutcome());
  if (record.snapshot !== undefined && check.isSnapshot && !check.isSnapshot(record.snapshot)) delete record.snapshot;
  return { record };
}

/** The note of a record from a newer version of the extension. */
function newer(): string {
  return l10n.t('From a newer version of the extension: left alone here and never sent; nothing to do.');
}

/** The note of a write that reached the platform whose answer was stored damaged (or came so). */
export function damagedOutcome(): string {
  return l10n.t('It reached the platform, but what the platform answered cannot be read back: nothing more is done for it here, and it is not sent again. Discard it; what it made is on the platform.');
}

/** The note of a damaged record. */
function damaged(): string {
  return l10n.t('This request was stored damaged and cannot be sent or checked. Nothing was sent for it: discard it, and make it again if it is still needed.');
}
