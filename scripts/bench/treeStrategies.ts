// The two ways to show the task tree, run in a worker process so each has a heap of its own:
// - extension: the extension's TaskTreeModel (one count request per visible group, then the largest group
//   listed by its own paged loader, 100 a page);
// - naive: one unfiltered listing at the API's default page size (no `limit`: 25 a page), following `next`
//   links, filtered and grouped on the client. Written here on top of the client's transport.
import type { SbClient } from '../../src/api/client';
import { parseFilterTimestamp } from '../../src/api/timestamps';
import type { Task, TaskStatus } from '../../src/api/types';
import { buildQuery, FilterModel, visibleStatuses, type TaskFilter } from '../../src/tasks/filterModel';
import { TASK_LIST_FIELDS } from '../../src/tasks/taskListing';
import { TaskTreeModel } from '../../src/tasks/taskTree';
import type { GroupNode } from '../../src/tasks/taskNodes';
import { sent } from './env';
import { gcIfExposed, startHeapProbe } from './heap';
import { memoryState } from '../../test/support/sharedState';

export interface TreeResult {
  /** Requests until every visible group had its count. */
  countRequests: number;
  countMs: number;
  counts: Partial<Record<TaskStatus, number>>;
  largest: TaskStatus;
  /** Tasks in the largest group (N). */
  largestCount: number;
  /** The batch parents among them (a row of one draws its children's counts, read 100 a request). */
  largestParents: number;
  /** Requests, time and peak heap to hold every task of the largest group. */
  listRequests: number;
  listMs: number;
  listed: number;
  peakHeapMb: number;
  /** Reference latencies for the time ideals, measured apart (median of 3): one count request, one page of 100. */
  roundTripMs?: number;
  pageMs?: number;
  transport: { requests: number; retries: number; rateLimitWaits: number };
}

const MAX_PAGES = 2_000;

export async function extensionTree(client: SbClient, filterValue: TaskFilter): Promise<TreeResult> {
  const stats = sent(client);
  const filter = new FilterModel(memoryState());
  await filter.set(filterValue);
  const model = new TaskTreeModel({ source: client.tasks, filter, store: memoryState(), signedIn: () => true, budget: client.budget });

  gcIfExposed();
  const r0 = stats.requests;
  const t0 = performance.now();
  await model.getChildren();
  const countMs = performance.now() - t0;
  const countRequests = stats.requests - r0;
  const groups = model.visibleGroups().filter((g) => g.status !== 'OTHER') as (GroupNode & { status: TaskStatus })[];
  const counts: TreeResult['counts'] = {};
  for (const g of groups) counts[g.status] = g.count;
  const largest = groups.reduce((a, b) => ((b.count ?? 0) > (a.count ?? 0) ? b : a));

  // Reference latencies, taken between the measured parts (not counted in them): the ideals of the times.
  const query = filter.query(largest.status, Date.now());
  const roundTripMs = await median3(() => client.tasks.count(query));
  const pageMs = await median3(() => client.tasks.list({ ...query, fields: TASK_LIST_FIELDS }, { offset: 0, limit: 100 }));

  const heap = startHeapProbe();
  const r1 = stats.requests;
  const t1 = performance.now();
  model.setExpanded(largest, true);
  await model.getChildren(largest);
  heap.sample();
  for (let i = 0; i < MAX_PAGES && largest.list.hasMore && largest.list.error === undefined; i++) {
    await model.loadMore(largest);
    heap.sample();
  }
  const listMs = performance.now() - t1;
  // The batch parents' counts, read as their pages are listed, are part of what listing costs: counted once in.
  await model.settled();
  const listRequests = stats.requests - r1;
  const largestParents = largest.list.items.filter((t) => t.batch === true).length;
  const listed = (await model.getChildren(largest)).filter((n) => n.kind === 'task').length;
  const peakHeapMb = heap.stop();
  model.dispose();
  return {
    countRequests,
    countMs,
    counts,
    largest: largest.status,
    largestCount: largest.count ?? 0,
    largestParents,
    listRequests,
    listMs,
    listed,
    peakHeapMb,
    roundTripMs,
    pageMs,
    transport: stats.totals(),
  };
}

/** The median of three timed runs (ms). */
export async function median3(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[1];
}

/** Whether a task passes the filter, judged on the client (the naive way): project and time windows. */
function matches(task: Task, filter: TaskFilter, now: number): boolean {
  const query = buildQuery(filter, undefined, now);
  if (query.project && task.project !== query.project) return false;
  const bound = (value: string | undefined) => {
    if (!value) return undefined;
    const parsed = parseFilterTimestamp(value);
    return parsed.ok ? parsed.date.getTime() : undefined;
  };
  const within = (value: string | undefined, from?: string, to?: string) => {
    if (!from && !to) return true;
    if (!value) return false;
    const t = Date.parse(value);
    const [f, e] = [bound(from), bound(to)];
    return (f === undefined || t >= f) && (e === undefined || t <= e);
  };
  return (
    within(task.created_time, query.created_from, query.created_to) &&
    within(task.start_time, query.started_from, query.started_to) &&
    within(task.end_time, query.ended_from, query.ended_to)
  );
}

export async function naiveTree(client: SbClient, filter: TaskFilter): Promise<TreeResult> {
  const stats = sent(client);
  const now = Date.now();
  const statuses = visibleStatuses(filter);
  const groups = new Map<string, Task[]>(statuses.map((s) => [s, []]));
  const heap = startHeapProbe();
  const r0 = stats.requests;
  const t0 = performance.now();
  // Default page size: no `limit`. The fields the tree shows, so both hold the same records.
  let page = await client.transport.page<Task>('tasks', { query: { fields: TASK_LIST_FIELDS } });
  const seen = new Set<string>();
  for (let i = 0; i < MAX_PAGES; i++) {
    for (const task of page.items) {
      const group = task.status ? groups.get(task.status) : undefined;
      if (group && matches(task, filter, now)) group.push(task);
    }
    heap.sample();
    if (!page.next || seen.has(page.next)) break;
    seen.add(page.next);
    page = await client.transport.page<Task>(page.next);
  }
  const ms = performance.now() - t0;
  const requests = stats.requests - r0;
  const peakHeapMb = heap.stop();
  const counts: TreeResult['counts'] = {};
  let largest = statuses[0];
  for (const s of statuses) {
    counts[s] = groups.get(s)!.length;
    if (counts[s]! > counts[largest]!) largest = s;
  }
  // Counts and the largest group are known only once the whole listing is in.
  return {
    countRequests: requests,
    countMs: ms,
    counts,
    largest,
    largestCount: counts[largest]!,
    largestParents: groups.get(largest)!.filter((t) => t.batch === true).length,
    listRequests: requests,
    listMs: ms,
    listed: counts[largest]!,
    peakHeapMb,
    transport: stats.totals(),
  };
}
