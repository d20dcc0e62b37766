// The task tree over a realistic round trip: the emulator answers every request 80 ms late (its `latencyMs`
// fault, as `npm run emulator -- --latency 80`), 10,000 tasks. The extension's TaskTreeModel asks for the counts
// (together) and opens the largest group (its first page of 100); the bytes of that page are compared with the
// same page asked with only the fields a row shows. Median of 3 runs, each with a fresh model.
import nodeFetch from 'node-fetch';
import type { FetchLike } from '../../src/api/transport';
import { FilterModel } from '../../src/tasks/filterModel';
import { TaskTreeModel } from '../../src/tasks/taskTree';
import { clientFor, freshEmulator, sent, tally } from './env';
import { timeLimit, type Figure } from './figures';
import { memoryState } from '../../test/support/sharedState';

export const LATENCY_MS = 80;
/** What a row of the tree shows, and no more (the list). */
export const ROW_FIELDS = 'id,name,status,project,created_time,start_time,end_time,batch';
const RUNS = 3;

export interface LatencyResult {
  countMs: number;
  firstPageMs: number;
  /** One request on its own, timed apart (median of 3): the ideal of both times. */
  roundTripMs: number;
  pageBytes: number;
  rowFieldsPageBytes: number;
  /** The same page with `fields=_all`: every field of every task. */
  allFieldsPageBytes: number;
  countRequests: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function extensionOverLatency(): Promise<LatencyResult> {
  const emulator = await freshEmulator({ faults: { latencyMs: LATENCY_MS } });
  let lastBytes = 0;
  const fetch: FetchLike = async (url, init) => {
    const response = await (nodeFetch as unknown as FetchLike)(url, init);
    return {
      status: response.status,
      headers: response.headers,
      text: async () => {
        const text = await response.text();
        lastBytes = Buffer.byteLength(text);
        return text;
      },
    };
  };
  const client = clientFor(emulator, { fetch });
  try {
    const counts: number[] = [];
    const pages: number[] = [];
    const trips: number[] = [];
    const pageBytes: number[] = [];
    const rowBytes: number[] = [];
    const allBytes: number[] = [];
    let countRequests = 0;
    for (let run = 0; run < RUNS; run++) {
      const filter = new FilterModel(memoryState());
      const model = new TaskTreeModel({ source: client.tasks, filter, store: memoryState(), signedIn: () => true });
      const since = sent(client).mark();
      const t0 = performance.now();
      const groups = (await model.getChildren()).filter((n) => n.kind === 'group');
      counts.push(performance.now() - t0);
      countRequests = since();
      const largest = model.visibleGroups().reduce((a, b) => ((b.count ?? 0) > (a.count ?? 0) ? b : a));
      if (!groups.length) throw new Error('no groups');
      const t1 = performance.now();
      model.setExpanded(largest, true);
      await model.getChildren(largest);
      pages.push(performance.now() - t1);
      pageBytes.push(lastBytes);
      const query = filter.query(largest.status === 'OTHER' ? undefined : largest.status, Date.now());
      const t2 = performance.now();
      await client.tasks.count(query);
      trips.push(performance.now() - t2);
      await client.tasks.list({ ...query, fields: ROW_FIELDS }, { offset: 0, limit: 100 });
      rowBytes.push(lastBytes);
      await client.tasks.list({ ...query, fields: '_all' }, { offset: 0, limit: 100 });
      allBytes.push(lastBytes);
      model.dispose();
    }
    tally('round trip 80 ms', 'extension', emulator, client);
    return { countMs: median(counts), firstPageMs: median(pages), roundTripMs: median(trips), pageBytes: median(pageBytes), rowFieldsPageBytes: median(rowBytes), allFieldsPageBytes: median(allBytes), countRequests };
  } finally {
    await emulator.close();
  }
}

export function latencyFigures(r: LatencyResult): Figure[] {
  const section = `Round trip ${LATENCY_MS} ms`;
  return [
    { section, name: `task tree: time until every group has its count (${r.countRequests} requests together)`, unit: 'ms', value: r.countMs, ideal: r.roundTripMs, ...timeLimit(r.roundTripMs, 2, 100), note: 'ideal: one count request, timed apart' },
    { section, name: 'task tree: time to the first page of the largest group', unit: 'ms', value: r.firstPageMs, ideal: r.roundTripMs, ...timeLimit(r.roundTripMs, 2, 100), note: 'ideal: one count request, timed apart' },
    {
      section,
      name: `task tree: bytes of that page of 100 (the fields rows, tooltips, batch summaries and menus use; ideal: only a row's ${ROW_FIELDS.split(',').length} fields)`,
      unit: 'KB',
      value: r.pageBytes / 1024,
      ideal: r.rowFieldsPageBytes / 1024,
      limit: r.allFieldsPageBytes / 1024,
      margin: 'bound: the same page with fields=_all',
    },
  ];
}
