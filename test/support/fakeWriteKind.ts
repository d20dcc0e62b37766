// A kind of write whose answers a test scripts (test/unit/write/): each send takes the next answer, each lookup the
// next lookup answer.
import type { ApiError } from '../../src/api/errors';
import type { Identity } from '../../src/write/kinds';
import type { Lookup, WriteKind, WriteRecord } from '../../src/write/outbox';

/**
 * A kind whose answers the test scripts: each send takes the next answer (a result, or an error to throw); each
 * lookup the next lookup answer. Found by difference (a copy's rule) unless `idempotent`.
 */
export class FakeKind implements WriteKind<string, number, string> {
  readonly name = 'fake';
  destructive?: boolean;
  verifyRefusal?: (error: ApiError) => boolean;
  isOutcome?: (outcome: unknown) => outcome is string;
  sends: string[] = [];
  lookups: string[] = [];
  finished: string[] = [];
  answers: (string | Error)[] = [];
  lookupAnswers: Lookup<string, string>[] = [];
  readonly identity: Identity<string, number, string>;
  constructor(readonly idempotent = false) {
    this.identity = idempotent
      ? { by: 'state', read: async (record) => this.look(record) }
      : {
          by: 'difference',
          snapshot: async () => ++this.prepared && 1,
          prepare: async (write) => {
            if (this.readAheadFails) throw new Error('the read ahead failed');
            this.readAheads.push({ payload: write.payload, account: write.account });
          },
          isSnapshot: (s): s is number => typeof s === 'number',
          find: async (record) => this.look(record),
          madeId: (outcome) => outcome,
        };
  }
  isPayload(payload: unknown): payload is string {
    return typeof payload === 'string';
  }
  keep(outcome: string): string {
    return outcome;
  }
  describe(payload: string): string {
    return `fake ${payload}`;
  }
  /** The wait each send is held back by (bulk work pacing itself to the API budget); none once used up. */
  holds: number[] = [];
  /** Snapshots taken (before each send of a write found by difference). */
  prepared = 0;
  /** What the outbox's `prepare` handed to the identity's read ahead; `readAheadFails` makes it throw. */
  readAheads: { payload: string; account: string }[] = [];
  readAheadFails = false;
  hold(): number {
    return this.holds.shift() ?? 0;
  }
  send = async (record: WriteRecord<string>): Promise<string> => {
    this.sends.push(record.payload);
    const answer = this.answers.shift() ?? `job-${record.payload}`;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  finish(_record: WriteRecord<string>, outcome: string): void {
    this.finished.push(outcome);
  }
  private async look(record: WriteRecord<string>): Promise<Lookup<string, string>> {
    this.lookups.push(record.payload);
    return this.lookupAnswers.shift() ?? { unknown: 'cannot tell yet' };
  }
}

