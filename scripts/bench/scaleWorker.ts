// Worker process for the scale scenario (scaleScenario.ts): the task tree of a large account, or a huge folder of
// the files view, against an emulator started by the parent. Each in a process of its own (--expose-gc), so the
// heap is this one's. Times: the extension's models, and beside them (timed apart, median of 3) the same requests
// bare, which is what the emulator itself costs at this size.
import { PagedLoader, recordKey } from '../../src/api/pagedLoader';
import type { FileRecord } from '../../src/api/types';
import { FilterModel } from '../../src/tasks/filterModel';
import { TASK_LIST_FIELDS } from '../../src/tasks/taskListing';
import { TaskTreeModel } from '../../src/tasks/taskTree';
import { clientFor } from './env';
import { startHeapProbe } from './heap';
import { memoryState } from '../../test/support/sharedState';
import { median3 } from './treeStrategies';

export type ScaleJob = { kind: 'tasks'; baseUrl: string; token: string; pages: number } | { kind: 'files'; baseUrl: string; token: string; folder: string };

export interface TasksScale {
  countMs: number;
  /** The bare count requests of every visible group, one after another: the emulator's own cost of the counts. */
  countRefMs: number;
  firstPageMs: number;
  pageRefMs: number;
  pagesShown: number;
  rowsShown: number;
  peakHeapMb: number;
}

export interface FilesScale {
  firstPageMs: number;
  pageRefMs: number;
  listed: number;
  pages: number;
  peakHeapMb: number;
}

export type ScaleMessage = { ok: true; tasks?: TasksScale; files?: FilesScale } | { ok: false; error: string };

async function tasks(job: Extract<ScaleJob, { kind: 'tasks' }>): Promise<TasksScale> {
  const client = clientFor(job);
  await client.rateLimit();
  const filter = new FilterModel(memoryState());
  const model = new TaskTreeModel({ source: client.tasks, filter, store: memoryState(), signedIn: () => true });
  const t0 = performance.now();
  await model.getChildren();
  const countMs = performance.now() - t0;
  const groups = model.visibleGroups();
  const largest = groups.reduce((a, b) => ((b.count ?? 0) > (a.count ?? 0) ? b : a));
  const now = Date.now();
  let countRefMs = 0;
  for (const g of groups) countRefMs += await median3(() => client.tasks.count(filter.query(g.status === 'OTHER' ? undefined : g.status, now)));
  const pageRefMs = await median3(() => client.tasks.list({ ...filter.query(largest.status === 'OTHER' ? undefined : largest.status, now), fields: TASK_LIST_FIELDS }, { offset: 0, limit: 100 }));

  const heap = startHeapProbe();
  const t1 = performance.now();
  model.setExpanded(largest, true);
  await model.getChildren(largest);
  const firstPageMs = performance.now() - t1;
  heap.sample();
  let pagesShown = 1;
  while (pagesShown < job.pages && largest.list.hasMore) {
    await model.loadMore(largest);
    await model.getChildren(largest);
    heap.sample();
    pagesShown++;
  }
  const rowsShown = (await model.getChildren(largest)).filter((n) => n.kind === 'task').length;
  const peakHeapMb = heap.stop();
  model.dispose();
  return { countMs, countRefMs, firstPageMs, pageRefMs, pagesShown, rowsShown, peakHeapMb };
}

async function files(job: Extract<ScaleJob, { kind: 'files' }>): Promise<FilesScale> {
  const client = clientFor(job);
  await client.rateLimit();
  const pageRefMs = await median3(() => client.files.list({ parent: job.folder }, { limit: 100 }));
  // What the files view's folder node does: a paged loader of 100 a page (src/files/filesModel.ts).
  const pager = new PagedLoader<FileRecord>(
    { page: (offset, limit, signal) => client.files.list({ parent: job.folder }, { offset, limit, signal }), next: (url, signal) => client.files.next(url, signal) },
    { key: recordKey },
  );
  const heap = startHeapProbe();
  const t0 = performance.now();
  await pager.ensureLoaded();
  const firstPageMs = performance.now() - t0;
  let pages = 1;
  while (pager.hasMore && pages < 1_000) {
    await pager.loadMore();
    heap.sample();
    pages++;
  }
  const peakHeapMb = heap.stop();
  if (pager.error) throw pager.error;
  return { firstPageMs, pageRefMs, listed: pager.items.length, pages, peakHeapMb };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as ScaleJob;
  const message: ScaleMessage = job.kind === 'tasks' ? { ok: true, tasks: await tasks(job) } : { ok: true, files: await files(job) };
  process.send?.(message);
}

main().catch((error: unknown) => {
  process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ScaleMessage);
  process.exitCode = 1;
});
