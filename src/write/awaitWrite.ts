// One write through the outbox, awaited by code that needs its outcome to go on (the upload engine: a folder's ID
// before the files go in it, the file a completion made), and a write already in the outbox followed the same way.
// No `vscode` import.
import type { Clock } from '../api/clock';
import { ApiError } from '../api/errors';
import { followWrites, waitsForPerson, type Account, type Outbox, type WriteRecord } from './outbox';

/** How a write awaited came out: its outcome (finished in this window), or what is left of it (undefined: gone from the outbox). */
export type Awaited<T> = { outcome: T } | { left: WriteRecord | undefined };

/**
 * A write of `kind` as a function of its payload: resolves with its outcome (answered, or found by the lookup after a
 * lost answer, waited for up to `waitMs`); rejects as a refusal when the platform refused it or the lookup showed it
 * was not made, and `maybeDelivered` (with `pending`'s words) while it is still being looked up.
 */
export function writeThroughOutbox<P, T>(
  outbox: Outbox,
  kind: string,
  account: Account,
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  waitMs: number,
  pending: () => string,
): (payload: P) => Promise<T> {
  return async (payload) => {
    // Listening from the start: a lookup may finish the write between the send and the wait below.
    const made = finishedHere<T>(outbox);
    try {
      const { records, finished, left } = await followWrites(outbox, () => outbox.submit(kind, [payload], account));
      if (finished[0]) return finished[0].outcome as T;
      const id = records[0]?.id;
      const awaited = id ? await awaitMade(outbox, id, made, clock, waitMs) : { left: left[0] };
      if ('outcome' in awaited) return awaited.outcome;
      throw stillOpen(awaited.left, pending);
    } finally {
      made.dispose();
    }
  };
}

/**
 * Follows a write already in the outbox (this window's, or another's), at most `waitMs`, until it needs nothing more:
 * its outcome when it finishes in this window; else what is left of it (waiting for the person, still looked up, or
 * undefined when it left the outbox: finished or discarded in another window, whose outcome is not told here).
 */
export async function awaitWrite<T>(outbox: Outbox, id: string, clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>, waitMs: number): Promise<Awaited<T>> {
  const made = finishedHere<T>(outbox);
  try {
    return await awaitMade(outbox, id, made, clock, waitMs);
  } finally {
    made.dispose();
  }
}

/** The error for a write that did not come out here: refused (or gone) unless it is still being looked up. */
export function stillOpen(left: WriteRecord | undefined, pending: () => string): ApiError {
  const refused = !left || waitsForPerson(left);
  return new ApiError({ kind: refused ? 'http' : 'network', message: left?.note ?? pending(), maybeDelivered: !refused });
}

/** The outcomes of the writes that finish in this window from now on, by write ID. */
function finishedHere<T>(outbox: Outbox): { outcomes: Map<string, T>; dispose(): void } {
  const outcomes = new Map<string, T>();
  const listening = outbox.onDidFinish(({ record, outcome }) => outcomes.set(record.id, outcome as T));
  return { outcomes, dispose: () => listening.dispose() };
}

async function awaitMade<T>(
  outbox: Outbox,
  id: string,
  made: { outcomes: Map<string, T> },
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  waitMs: number,
): Promise<Awaited<T>> {
  const current = () => outbox.all().find((r) => r.id === id);
  const over = () => {
    const record = current();
    return made.outcomes.has(id) || !record || waitsForPerson(record);
  };
  if (!over()) {
    await new Promise<void>((resolve) => {
      const done = () => (changes.dispose(), clock.clearTimeout(timer), resolve());
      const changes = outbox.onDidChange(() => over() && done());
      const timer = clock.setTimeout(done, waitMs);
    });
  }
  if (made.outcomes.has(id)) return { outcome: made.outcomes.get(id)! };
  return { left: outbox.all().find((r) => r.id === id) };
}
