// The records of every window's writes in global state, one key each (`sevenbridges.write.<id>`), read back checked by
// their kind (write/records.ts: a record of another version, or damaged, is shown and left alone), and the claims of
// finished writes, kept a while so that no other write's lookup adopts what they made. What this window holds of its
// own writes, and how its memory wins over an echo of global state, is write/windowWrites.ts. Pure: no `vscode`.
import type { Clock } from '../api/clock';
import { STATE_KEY_PREFIXES } from '../keys/state';
import type { SharedState } from '../util/stateStore';
import type { WriteKinds } from './kinds';
import { readRecord, type ReadRecord, type WriteRecord } from './records';

const RECORD_PREFIX = STATE_KEY_PREFIXES.writeRecord;

export class RecordStore {
  /** Writes this window finished, discarded or let go, which a late echo of global state must not bring back. */
  readonly gone = new Set<string>();
  /** Since when (monotonic) this window has seen each finished write's claim. */
  private readonly claimSeen = new Map<string, number>();

  constructor(
    private readonly state: SharedState,
    private readonly kinds: WriteKinds,
    private readonly clock: Pick<Clock, 'monotonic'>,
  ) {}

  /** Every record in global state, checked. */
  stored(): ReadRecord[] {
    const reads: ReadRecord[] = [];
    for (const key of this.state.keys()) {
      if (!key.startsWith(RECORD_PREFIX)) continue;
      const read = this.check(this.state.get(key), key.slice(RECORD_PREFIX.length));
      if (read) reads.push(read);
    }
    return reads;
  }

  /** Whether global state holds any write's record (finished ones' claims too), read without checking them. */
  anyStored(): boolean {
    return this.state.keys().some((key) => key.startsWith(RECORD_PREFIX));
  }

  /** Every record in global state this version can act on. */
  records(): WriteRecord[] {
    return this.stored().flatMap((read) => ('record' in read ? [read.record] : []));
  }

  /** One write's record, checked (undefined: none under its key). */
  read(id: string): ReadRecord | undefined {
    return this.check(this.state.get(RECORD_PREFIX + id), id);
  }

  /** One write's record when this version can act on it. */
  actionable(id: string): WriteRecord | undefined {
    const read = this.read(id);
    return read && 'record' in read ? read.record : undefined;
  }

  /** Writes (or, with `undefined`, removes) a write's record; false when global state refused it. */
  async write(record: WriteRecord | undefined, id = record?.id): Promise<boolean> {
    try {
      await this.state.update(RECORD_PREFIX + id, record);
      return true;
    } catch {
      return false;
    }
  }

  /** Whether another write claims what the platform calls `id`; `confirming`: only a claim that beats this write's. */
  claimedElsewhere(id: string, record: WriteRecord, confirming = false): boolean {
    for (const other of this.othersClaiming(record)) {
      if (other.claim.id !== id) continue;
      if (!confirming || other.claim.how === 'answered' || other.id < record.id) return true;
    }
    return false;
  }

  /** What the other writes of the account claim (the platform's IDs), read once: a lookup asks of every item it lists. */
  claimedByOthers(record: WriteRecord): Set<string> {
    return new Set([...this.othersClaiming(record)].map((other) => other.claim.id));
  }

  private *othersClaiming(record: WriteRecord): Generator<WriteRecord & { claim: NonNullable<WriteRecord['claim']> }> {
    for (const other of this.records()) if (other.id !== record.id && other.account === record.account && other.claim) yield other as WriteRecord & { claim: NonNullable<WriteRecord['claim']> };
  }

  /** A finished write's claim is seen from now (kept `claimKeepMs` from then). */
  claimKeptFrom(id: string): void {
    this.claimSeen.set(id, this.clock.monotonic());
  }

  /** Whether this window has seen the write finished, its claim kept (its record may still read unfinished a moment). */
  isClaimKept(id: string): boolean {
    return this.claimSeen.has(id);
  }

  /** The finished writes whose claim was kept long enough, no write of their account being unfinished: to remove. */
  oldClaims(claimKeepMs: number): string[] {
    const records = this.records();
    const busy = new Set(records.filter((r) => r.state !== 'done').map((r) => r.account));
    const mono = this.clock.monotonic();
    const old: string[] = [];
    for (const record of records) {
      if (record.state !== 'done') continue;
      if (!this.claimSeen.has(record.id)) this.claimSeen.set(record.id, mono);
      if (busy.has(record.account) || mono - this.claimSeen.get(record.id)! < claimKeepMs) continue;
      this.claimSeen.delete(record.id);
      old.push(record.id);
    }
    return old;
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
}
