// What a kind of write declares to go through the outbox (outbox.ts): how it is sent, what is kept of its answer,
// and its identity rule, that is how a write whose answer was lost is told apart on the platform. ARCHITECTURE.md
// ("Writes") has the table of every kind's rule. Pure: no `vscode`.
import type { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import type { WriteRecord } from './records';

/**
 * What a lookup saw: the write's outcome on the platform (`found`); no sign of it yet (`absent`); no way to tell yet
 * (`unknown`); or something else than both what was asked and what was there before the send (`changed`: someone
 * else changed it, or what it acts on is gone), which is not the write's to undo: the person decides. `rest`: the part
 * of a write of many items still to send (a bulk call the platform applied to some of them): only that is sent again.
 */
export type Lookup<R, P = unknown> = { found: R } | { absent: string; rest?: P } | { unknown: string } | { changed: string; rest?: P };

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
      read(record: WriteRecord<P, S, R>, credentials: Credentials): Promise<Lookup<R, P>>;
    }
  | {
      /**
       * Find what the write made, by difference: `snapshot` notes what the platform holds just before each send;
       * `find` looks at what appeared since and is taken (`taken(id)`) by no other write, and adopts one that
       * matches what was asked. Never by a clock window or a name alone.
       */
      by: 'difference';
      snapshot(record: WriteRecord<P, S, R>, credentials: Credentials): Promise<S>;
      /**
       * Reads ahead what the snapshot of a write like `payload` needs, when a person is about to send one (a task
       * document with no problem): a send soon after takes its snapshot from it instead of waiting a round trip first.
       */
      prepare?(write: Pick<WriteRecord<P, S, R>, 'payload' | 'account'>, credentials: Credentials): Promise<void>;
      /**
       * A snapshot read back (global state may hold a damaged one): one that fails is dropped, and a write without
       * one is never found (the outbox does not call `find`: nothing can be proven to be its own).
       */
      isSnapshot(snapshot: unknown): snapshot is S;
      /** Called with the record's snapshot, always there. */
      find(record: WriteRecord<P, S, R> & { snapshot: S }, credentials: Credentials, taken: (id: string) => boolean): Promise<Lookup<R>>;
      /** The platform ID of what the write made (the job, the new task): claimed, so no other write adopts it. */
      madeId(outcome: R): string;
    };

/** One kind of write: each in ARCHITECTURE.md's table of kinds is one of these. */
export interface WriteKind<P = unknown, S = unknown, R = unknown> {
  readonly name: string;
  /**
   * Sending it twice does no harm (a PUT or PATCH to a value, a DELETE, an abort, running a draft): after an
   * ambiguous answer it is read (`identity`) and, when not done, simply sent again. Otherwise (a copy, a clone,
   * a new folder) it is never sent again without the person's word once it may have been processed.
   */
  readonly idempotent: boolean;
  /**
   * A destructive call (a DELETE): though a second one harms no data, it is never sent twice. After an ambiguous
   * answer it is looked up through the whole late window before it is sent again (a late call may still act).
   */
  readonly destructive?: boolean;
  readonly identity: Identity<P, S, R>;
  /** A payload of this kind (records read back are checked: another version may have written them). */
  isPayload(payload: unknown): payload is P;
  /**
   * An outcome read back (a write `sent` in another window, a stored answer): one that fails makes the record damaged
   * (shown with Discard, never finished with it). Without it, any outcome is taken.
   */
  isOutcome?(outcome: unknown): outcome is R;
  send(record: WriteRecord<P, S, R>, credentials: Credentials): Promise<R>;
  /** What is stored of the answer: only the fields the kind needs later (global state is not a cache of answers). */
  keep(outcome: R): R;
  /**
   * An error answer that proves the write done when an earlier try was ambiguous: a DELETE answered 404 after a
   * lost first try. Without it, such a refusal is checked with `identity` before it is believed.
   */
  doneBy?(error: ApiError, record: WriteRecord<P, S, R>): R | undefined;
  /**
   * A refusal on a first try that may be the answer to this very write made by another call (an upload completed by
   * another window answers 404): checked with `identity`, never believed.
   */
  verifyRefusal?(error: ApiError, record: WriteRecord<P, S, R>): boolean;
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

/** The kinds' code, loaded when a record first needs it (the extension's is in dist/features.js: main.ts). */
export type LoadKinds = () => Promise<readonly WriteKind[]>;

/**
 * The kinds the outbox knows, by name: the table it is built from (the extension's is src/writeKinds.ts), given or
 * loaded (`LoadKinds`). Each kind once: a record is sent, looked up and checked by its kind's name. Until loaded no
 * kind is known: the outbox loads them before it reads a record or records one (write/outbox.ts).
 */
export class WriteKinds {
  private readonly byName = new Map<string, WriteKind>();
  private readonly load: LoadKinds | undefined;
  private loading: Promise<void> | undefined;
  private here = false;

  constructor(kinds: readonly WriteKind[] | LoadKinds) {
    if (typeof kinds === 'function') this.load = kinds;
    else this.add(kinds);
  }

  /** Whether the kinds are here (given, or loaded). */
  get loaded(): boolean {
    return this.here;
  }

  /** Resolves once the kinds are here: loads them once; a load that failed is tried again on the next call. */
  ready(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.loading ??= this.load!()
      .then((kinds) => this.add(kinds))
      .catch((error: unknown) => {
        this.loading = undefined;
        throw error;
      });
    return this.loading;
  }

  get(name: string): WriteKind | undefined {
    return this.byName.get(name);
  }

  all(): WriteKind[] {
    return [...this.byName.values()];
  }

  private add(kinds: readonly WriteKind[]): void {
    const names = kinds.map((kind) => kind.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw new Error(`Two kinds of write are named "${twice}".`);
    for (const kind of kinds) this.byName.set(kind.name, kind);
    this.here = true;
  }
}

/**
 * The difference rule's first half: the items listed now that were not in the snapshot and that no other write has
 * taken. `idOf` reads an item's platform ID.
 */
export function appearedSince<T>(listed: readonly T[], before: ReadonlySet<string>, taken: (id: string) => boolean, idOf: (item: T) => string): T[] {
  return listed.filter((item) => !before.has(idOf(item)) && !taken(idOf(item)));
}

/** What a kind found by state says of the cases of `byState`, in a person's words, given the value that shows now. */
export interface StateWords<V> {
  /** The value from before the send still shows: not done yet. */
  notYet(now: V): string;
  /** Another value shows: someone else changed it since ("…: it is now named "c.bam""). */
  changed(now: V): string;
  /** What the write acts on is gone (404). */
  gone: string;
}

/**
 * The rule of every kind found by state: the value asked for shows → done (`found`, with `now.outcome`); the value
 * from before the send (kept in the record when it was made) still shows → not done (`absent`: an idempotent kind is
 * sent again); anything else, or nothing there any more → someone else changed it (or it is gone), which is not the
 * write's to undo: `changed`, the person decides. Without `before` (a record of an older version), only the value
 * asked proves anything.
 */
export function byState<V, R>(now: { value: V; outcome: R } | undefined, asked: V, before: V | undefined, same: (a: V, b: V) => boolean, words: StateWords<V>): Lookup<R, never> {
  if (!now) return { changed: words.gone };
  if (same(now.value, asked)) return { found: now.outcome };
  if (before !== undefined && same(now.value, before)) return { absent: words.notYet(now.value) };
  return { changed: words.changed(now.value) };
}
