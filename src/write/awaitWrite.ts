// One write through the outbox, awaited by code that needs its outcome to go on (the upload engine: a folder's ID
// before the files go in it, the file a completion made). No `vscode` import.
import type { Clock } from '../api/clock';
import { ApiError } from '../api/errors';
import { followWrites, waitsForPerson, type Account, type Outbox } from './outbox';

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
    const made = new Map<string, T>();
    const listening = outbox.onDidFinish(({ record, outcome }) => made.set(record.id, outcome as T));
    try {
      const { records, finished, left } = await followWrites(outbox, () => outbox.submit(kind, [payload], account));
      if (finished[0]) return finished[0].outcome as T;
      const id = records[0]?.id;
      const current = () => outbox.all().find((r) => r.id === id) ?? left[0];
      const over = () => made.has(id!) || !current() || waitsForPerson(current()!);
      if (id && !over()) {
        await new Promise<void>((resolve) => {
          const done = () => (changes.dispose(), clock.clearTimeout(timer), resolve());
          const changes = outbox.onDidChange(() => over() && done());
          const timer = clock.setTimeout(done, waitMs);
        });
      }
      if (id && made.has(id)) return made.get(id)!;
      const record = current();
      const refused = !record || waitsForPerson(record);
      throw new ApiError({ kind: refused ? 'http' : 'network', message: record?.note ?? pending(), maybeDelivered: !refused });
    } finally {
      listening.dispose();
    }
  };
}
