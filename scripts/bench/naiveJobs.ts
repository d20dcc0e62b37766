// The naive baseline for copy jobs, written here on top of the client's transport: the items sent in calls
// of 100 with nothing else, then one GET per unfinished job per poll at a fixed 1 s interval.
import type { SbClient } from '../../src/api/client';
import type { AsyncJob, CopyItem } from '../../src/api/types';

export const NAIVE_INTERVAL_MS = 1_000;

export async function naiveSubmit(client: SbClient, items: CopyItem[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < items.length; i += 100) {
    const job = (await client.transport.post<AsyncJob>('async/files/copy', { items: items.slice(i, i + 100) })).body;
    ids.push(job.id);
  }
  return ids;
}

export interface NaivePoll {
  /** Jobs seen FINISHED in this poll. */
  finished: string[];
  requests: number;
  errors: number;
}

/** One poll: a GET for every job not yet seen FINISHED. */
export async function naivePoll(client: SbClient, unfinished: Set<string>): Promise<NaivePoll> {
  const out: NaivePoll = { finished: [], requests: 0, errors: 0 };
  for (const id of [...unfinished]) {
    out.requests++;
    try {
      const job = (await client.transport.get<AsyncJob>(`async/files/copy/${id}`)).body;
      if (job.state === 'FINISHED') {
        unfinished.delete(id);
        out.finished.push(id);
      }
    } catch {
      out.errors++;
    }
  }
  return out;
}
