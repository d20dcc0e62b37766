// The one way to submit writes and wait for how they came out (`Outbox.send`), or to follow writes already in the
// outbox (`Outbox.follow`): every command, the upload engine and the tests wait this way, each saying how long.
// Pure: no `vscode`.
import type { Clock } from '../api/clock';
import { waitsForPerson, type FinishedWrite, type WriteRecord } from './records';

/**
 * How long to wait for the writes:
 * - `answer` (the default): until none needs this window now: each reached the platform, was refused, waits for a
 *   retry time (a rate limit, maintenance, the API budget), or is looked up later after a lost answer;
 * - `lookup`: also while one is being looked up after a lost answer (a person waits a little for it rather than
 *   hear "maybe" at once), and while this window sends it again;
 * - `end`: until each reached the platform, waits for the person, or left the outbox, through every wait.
 */
export type Until = 'answer' | 'lookup' | 'end';

export interface Patience {
  until?: Until;
  /** The longest wait past the answers (`lookup`, `end`); none by default. */
  atMostMs?: number;
  /**
   * How many of the writes reached the platform so far (a write the platform answered counts once handed over, or
   * as soon as it reads `sent` when its kind could not take it yet), of how many, and how many are being looked up
   * after a lost answer: told at the start and at each change.
   */
  onProgress?(done: number, total: number, checking: number): void;
  /**
   * A Cancel: the writes never sent are taken back (nothing more of them leaves) and the wait ends at once: those
   * on their way, or answered, stay sent, followed by the outbox (in `left` until their answers come, not waited for).
   */
  signal?: AbortSignal;
}

/** How writes came out, once waited for. */
export interface Settled<R = unknown> {
  /** The writes as recorded (one that global state refused to record is `failed`, never sent). */
  records: WriteRecord[];
  /** Those that reached the platform in this window (answered, or found after a lost answer), with their outcomes. */
  finished: FinishedWrite<R>[];
  /** Those still in the outbox: refused, not found, changed by someone else, being looked up, waiting, or (after a Cancel) on their way. */
  left: WriteRecord[];
  /** Those taken back by a Cancel before they were sent. */
  withdrawn: WriteRecord[];
  /**
   * Hands each of `left` that finishes from now on (on its way at a Cancel, found after a lost answer) to `found`,
   * those that finished since the settle first: what they make joins what the caller shows.
   */
  later(found: (finished: FinishedWrite<R>) => void): { dispose(): void };
}

/** What settling asks of the outbox. */
export interface SettleHost {
  onDidFinish(listener: (finished: FinishedWrite) => void): { dispose(): void };
  onDidChange(listener: () => void): { dispose(): void };
  /** Every write not finished, of every window. */
  all(): WriteRecord[];
  /** Resolves when none of these writes is due in this window (the `answer` wait). */
  settled(ids: readonly string[]): Promise<unknown>;
  /** Whether this window acts on the write now (on its way, or its wait over). */
  dueHere(record: WriteRecord): boolean;
  /** Takes back the group's writes of this window never sent; resolves to them. */
  withdraw(group: string): Promise<WriteRecord[]>;
}

/** Which writes keep a caller waiting past the answers. */
const OPEN: Record<Until, ((record: WriteRecord, host: SettleHost) => boolean) | undefined> = {
  answer: undefined,
  lookup: (record, host) => record.state === 'unsure' || host.dueHere(record),
  end: (record) => !waitsForPerson(record),
};

/** Runs `start` (which records writes, or names writes already recorded) and waits for them as `patience` says. */
export async function settle<R>(host: SettleHost, clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>, start: () => Promise<readonly WriteRecord[]>, patience: Patience = {}): Promise<Settled<R>> {
  const finished: FinishedWrite<R>[] = [];
  // Listening from the start: a write may finish before `start` resolves.
  const listening = host.onDidFinish((f) => finished.push(f as FinishedWrite<R>));
  try {
    const records = [...(await start())];
    const ids = new Set(records.map((r) => r.id));
    const done = () => finished.filter((f) => ids.has(f.record.id));
    const left = () => {
      const made = new Set(done().map((f) => f.record.id));
      return host.all().filter((r) => ids.has(r.id) && !made.has(r.id));
    };
    const progress = patience.onProgress;
    const report = () => {
      const listed = left();
      progress?.(done().length + listed.filter((r) => r.state === 'sent').length, ids.size, listed.filter((r) => r.state === 'unsure').length);
    };
    const watching = progress ? host.onDidChange(report) : undefined;
    const { signal } = patience;
    let withdrawn: WriteRecord[] = [];
    const withdrawing = new Promise<void>((resolve) => {
      const cancel = () => void Promise.all([...new Set(records.map((r) => r.group))].map((g) => host.withdraw(g))).then((taken) => ((withdrawn = taken.flat()), resolve()), () => resolve());
      if (signal?.aborted) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
    });
    try {
      report();
      const open = OPEN[patience.until ?? 'answer'];
      const waiting = (async () => {
        await host.settled([...ids]);
        if (open && !signal?.aborted) await changesUntil(host, clock, () => !!signal?.aborted || !left().some((r) => open(r, host)), patience.atMostMs ?? Infinity);
      })();
      await Promise.race([waiting, withdrawing]);
      // Cancelled: the writes never sent are taken back; those on their way are not waited for (their answers may
      // take as long as the platform likes): they are left, followed by the outbox as any write is.
      if (signal?.aborted) {
        waiting.catch(() => undefined);
        await withdrawing;
      }
    } finally {
      watching?.dispose();
    }
    const taken = new Set(withdrawn.map((r) => r.id));
    const leftNow = left().filter((r) => !taken.has(r.id));
    return { records, finished: done(), left: leftNow, withdrawn, later: followLater(host, leftNow) };
  } finally {
    listening.dispose();
  }
}

/**
 * `Settled.later`: listens from the settle's end (nothing missed) until each write left has finished; one refused
 * finishes if the person sends it again. (Only finishes are heard: a write's every change would cost a read of all.)
 */
function followLater<R>(host: Pick<SettleHost, 'onDidFinish'>, left: readonly WriteRecord[]): Settled<R>['later'] {
  const waiting = new Set(left.map((r) => r.id));
  const early: FinishedWrite<R>[] = [];
  let found: ((finished: FinishedWrite<R>) => void) | undefined;
  const listening = host.onDidFinish((f) => {
    if (!waiting.delete(f.record.id)) return;
    if (found) found(f as FinishedWrite<R>);
    else early.push(f as FinishedWrite<R>);
    if (!waiting.size) listening.dispose();
  });
  if (!waiting.size) listening.dispose();
  return (listener) => {
    found = listener;
    early.splice(0).forEach(listener);
    return listening;
  };
}

/** Resolves once `over()` holds, asked at each change of the outbox, or after `ms`. */
function changesUntil(host: SettleHost, clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>, over: () => boolean, ms: number): Promise<void> {
  if (over()) return Promise.resolve();
  return new Promise((resolve) => {
    let timer: unknown;
    const changes = host.onDidChange(() => over() && done());
    const done = () => {
      changes.dispose();
      if (timer !== undefined) clock.clearTimeout(timer);
      resolve();
    };
    if (Number.isFinite(ms)) timer = clock.setTimeout(done, ms);
  });
}
