// Bulk reads and downloads kept inside the API budget: before each request, wait while the budget asks bulk work to
// hold back (it keeps a share for the user and the views). No `vscode` import.
import type { ApiBudget } from '../api/budget';
import type { Clock } from '../api/clock';

/** A wait to run before each request of a bulk piece of work: none while the budget allows, else until its reset. */
export function bulkPace(budget: Pick<ApiBudget, 'holdBulk'>, clock: Pick<Clock, 'sleep'>, signal?: AbortSignal): () => Promise<void> {
  return async () => {
    const wait = budget.holdBulk(1);
    if (wait > 0) await clock.sleep(wait, signal);
  };
}
