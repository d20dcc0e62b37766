// What a kind of write declares to go through the outbox (outbox.ts): how it is sent, what is kept of its answer,
// and its identity rule, that is how a write whose answer was lost is told apart on the platform. ARCHITECTURE.md
// ("Writes") has the table of every kind's rule. Pure: no `vscode`.
import type { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import type { WriteRecord } from './records';

/** What a lookup saw: the write's outcome on the platform, or no sign of it yet (`absent`), or no way to tell yet. */
export type Lookup<R> = { found: R } | { absent: string } | { unknown: string };

/**
 * How a lost write is found. Either rule runs only after an ambiguous answer (timeout, dropped connection, 5xx,
 * unreadable): the call may have been processed, maybe late.
 */
export type Identity<P, S, R> =
  | {
      /**
       * Read what the write acts on: its state shows whether the write was done (abort: the task is ABORTING or
       * ended; delete: the file is gone). `absent` when it shows the write not done (yet).
       */
      by: 'state';
      read(record: WriteRecord<P, S, R>, credentials: Credentials): Promise<Lookup<R>>;
    }
  | {
      /**
       * Find what the write made, by difference: `snapshot` notes what the platform holds just before each send;
       * `find` looks at what appeared since and is taken (`taken(id)`) by no other write, and adopts one that
       * matches what was asked. Never by a clock window or a name alone.
       */
      by: 'difference';
      snapshot(record: WriteRecord<P, S, R>, credentials: Credentials): Promise<S>;
      find(record: WriteRecord<P, S, R>, credentials: Credentials, taken: (id: string) => boolean): Promise<Lookup<R>>;
      /** The platform ID of what the write made (the job, the new task): claimed, so no other write adopts it. */
      madeId(outcome: R): string;
    };

/** One kind of write. The coming kinds (upload complete, new folder, move, delete, tags…) are one of these each. */
export interface WriteKind<P = unknown, S = unknown, R = unknown> {
  readonly name: string;
  /**
   * Sending it twice does no harm (a PUT or PATCH to a value, a DELETE, an abort, running a draft): after an
   * ambiguous answer it is read (`identity`) and, when not done, simply sent again. Otherwise (a copy, a clone,
   * a new folder) it is never sent again without the person's word once it may have been processed.
   */
  readonly idempotent: boolean;
  readonly identity: Identity<P, S, R>;
  /** A payload of this kind (records read back are checked: another version may have written them). */
  isPayload(payload: unknown): payload is P;
  send(record: WriteRecord<P, S, R>, credentials: Credentials): Promise<R>;
  /** What is stored of the answer: only the fields the kind needs later (global state is not a cache of answers). */
  keep(outcome: R): R;
  /**
   * An error answer that proves the write done when an earlier try was ambiguous: a DELETE answered 404 after a
   * lost first try. Without it, such a refusal is checked with `identity` before it is believed.
   */
  doneBy?(error: ApiError, record: WriteRecord<P, S, R>): R | undefined;
  /** The write reached the platform (answered, or found): take its outcome. Idempotent: it may be handed over twice. */
  finish(record: WriteRecord<P, S, R>, outcome: R, found: boolean): void | Promise<void>;
  /** A person's words for one write ("Re-run "BWA-MEM run""), for the lists that show writes waiting for them. */
  describe(payload: P): string;
  /**
   * Bulk work paced to the API budget: how long to hold the write back before sending it (0: send now). Asked
   * before each send, before anything is marked; a write held back is queued until then, and says why.
   */
  hold?(record: WriteRecord<P, S, R>): number;
}

/**
 * The difference rule's first half: the items listed now that were not in the snapshot and that no other write has
 * taken. `idOf` reads an item's platform ID.
 */
export function appearedSince<T>(listed: readonly T[], before: ReadonlySet<string>, taken: (id: string) => boolean, idOf: (item: T) => string): T[] {
  return listed.filter((item) => !before.has(idOf(item)) && !taken(idOf(item)));
}
