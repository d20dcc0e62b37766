// The work the product and the official client (sevenbridges-python) both do in the peer figures, one entry per
// piece of work. Each names what both sides are given (`args`, read from the emulator's data), how the product's
// code does it (`ours`, run in a worker process: peerWorker.ts), and the ideals and limits of the product's
// figures. The official client's side is `work_<id>` in peer.py, given the same args; both return a result that
// must agree (the same counts, the same number of items), or the figure fails.
//
// To add a piece of work: an entry here (added to WORKS), and `def work_<id>(api, args)` in peer.py.
import type { SbClient } from '../../../src/api/client';
import { planCopy } from '../../../src/copy/request';
import type { TaskListQuery } from '../../../src/api/tasks';
import type { Task, TaskStatus } from '../../../src/api/types';
import { FilterModel } from '../../../src/tasks/filterModel';
import { STATUS_LABELS } from '../../../src/tasks/statuses';
import { TASK_LIST_FIELDS } from '../../../src/tasks/taskListing';
import { TaskNode } from '../../../src/tasks/taskNodes';
import { TaskTreeModel } from '../../../src/tasks/taskTree';
import type { Emulator, EmulatorOptions } from '../../../test/emulator';
import { memoryState } from '../../../test/support/sharedState';
import { COPY_STEP_MS } from '../copyScenario';
import { DESTINATION, pickFiles, platformFinish } from '../copySources';
import type { HeapProbe } from '../heap';
import { fewestLooksWithin, lagLimitMs } from '../lagScenario';
import { benchWriter } from '../writer';
import { pushWork } from './pushWork';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What the product's side has to work with, in its worker process. */
export interface OursContext {
  client: SbClient;
  emulator: { baseUrl: string; token: string; username: string };
  /** Sample it after each step (a page), so no peak is missed between the probe's ticks. */
  heap: HeapProbe;
}

/** One side's run of a piece of work. */
export interface WorkRun {
  ms: number;
  /** Requests the emulator received during the work. */
  requests: number;
  /** Bytes of the answers' bodies it sent during the work. */
  bytes: number;
  /** Peak memory during the work (MB): the product's heap above its baseline; the official client's tracemalloc peak. */
  memoryMb: number;
  /** Peak resident set during the work above the process's at its start (MB), both sides (`getrusage`). */
  rssMb: number;
  /** Requests the storage origin received during the work, and the body bytes it sent (reads) and received (parts). */
  storageRequests: number;
  storageBytes: number;
  /** CPU seconds, user and system, the side's process spent on the work (its threads' included). */
  cpuS: number;
  result: Json;
  /** Wall-clock time (epoch ms) the work started, for ideals tied to the platform's own timeline. */
  startedAt: number;
}

export interface Bound {
  ideal?: number;
  limit: number;
  margin: string;
}

/** The product's run, what the emulator that served it can tell, and the same work timed bare on it. */
export interface IdealInput<A> {
  args: A;
  /** The emulator's round trip on top of its own time (its latency fault). */
  latencyMs: number;
  ours: WorkRun;
  emulator: Emulator;
  /** A client of the parent process on the emulator that served the product's run (warm), for timings apart. */
  client: SbClient;
}

export interface WorkIdeals {
  ms: Bound & { note?: string };
  requests: Bound;
  /** Bytes received (KB): an ideal when one is known; bounded by the official client's + 10 % unless `bound` says otherwise. */
  bytes: { ideal?: number; bound?: { limit: number; margin: string }; note?: string };
  memoryMb: Bound;
  /** Goals as a share of the official client's figure (issue 27 §2: over an 80 ms round trip). */
  goals?: { ms?: number; bytes?: number };
}

export interface PeerWork<A extends { [key: string]: Json } = { [key: string]: Json }> {
  /** peer.py's `work_<id>`. */
  id: string;
  /** What is done, for the table ("the six status counts"). */
  title: string;
  emulator?: EmulatorOptions;
  /** Runs in each process (3 by default; the figures are their medians): 1 for work that changes the platform. */
  runs?: number;
  /**
   * Rounds of the pair (1 by default): each side's process runs again, on a fresh emulator, the sides taking turns;
   * the figures are each side's medians. For work that can run once a process, whose time swings from run to run.
   */
  rounds?: number;
  /** How long one side may take (5 min by default). */
  timeoutMs?: number;
  /** Data the work needs added to each fresh emulator, before `args`. */
  prepare?(emulator: Emulator): void;
  args(emulator: Emulator): A;
  ours(ctx: OursContext, args: A): Promise<Json>;
  /** The ideals of pairFigures (the transfers have figures of their own: transfers.ts). */
  ideals?(input: IdealInput<A>): Promise<WorkIdeals>;
  /** Checks what a side left (files on disk, files on the platform) after its run; part of its result. */
  verify?(emulator: Emulator, args: A): Promise<Json>;
  /** The kernel's page cache emptied before each run, where the bench may (peerScenario.ts's `emptyPageCache`). */
  emptyPageCache?: boolean;
  /** 'rss': the official client's memory is its resident set in the timed run (no second run under tracemalloc). */
  peerMemory?: 'tracemalloc' | 'rss';
  /** The product's heap probe counts Node's buffers (`arrayBuffers`) too: bytes in flight. */
  heapWithBuffers?: boolean;
  /**
   * MB of records the product's worker holds before its runs, so that its garbage collector works at the size of a
   * heap it shares in VS Code (see HOST_HEAP_MB); outside every figure. The heap figure comes from a run of its own
   * without them (peerScenario.ts).
   */
  hostHeapMb?: number;
}

const SIX = Object.keys(STATUS_LABELS) as TaskStatus[];

function newTree(client: SbClient): TaskTreeModel {
  // As the product makes it (tasks/register.ts): pages read ahead after the first Load more, while the budget allows.
  return new TaskTreeModel({ source: client.tasks, filter: new FilterModel(memoryState()), store: memoryState(), signedIn: () => true, budget: client.budget });
}

/** The median of three timed runs (ms). */
async function median3(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[1];
}

const heapBound = (n: number, what: string): Bound => ({ limit: 8 + (4 * n) / 1024, margin: `bound: 8 MB + 4 KB × ${what}` });

/** What a row shows, and no more: the ideal of a listing's bytes (the same as the round-trip scenario's). */
export const ROW_FIELDS = 'id,name,status,project,created_time,start_time,end_time,batch';

const ROW_FIELDS_NOTE = `ideal: the same listing with only a row's fields (${ROW_FIELDS})`;

/** The bytes (KB) of the same listing asked with only a row's fields, to its end, as the emulator counts them. */
async function rowFieldBytes(client: SbClient, emulator: Emulator, query: TaskListQuery): Promise<number> {
  const before = emulator.stats.bodyBytes;
  for await (const page of client.transport.all('tasks', { query: { ...query, fields: ROW_FIELDS } })) void page;
  return (emulator.stats.bodyBytes - before) / 1024;
}

/** The six status counts, as the task tree asks for them (together, and a 7th for the statuses none names). */
export const countsWork: PeerWork<{ statuses: TaskStatus[] }> = {
  id: 'counts',
  title: 'the six status counts',
  args: () => ({ statuses: SIX }),
  async ours({ client }) {
    const model = newTree(client);
    await model.getChildren();
    const counts = Object.fromEntries(SIX.map((s) => [s, model.group(s).count ?? -1]));
    model.dispose();
    return counts;
  },
  async ideals({ client, latencyMs }) {
    // The same 7 count requests, bare and together: the emulator answers one at a time, as it does the product's.
    const bare = await median3(() => Promise.all([...SIX.map((status) => client.tasks.count({ status })), client.tasks.count({})]));
    return {
      ms: { ideal: bare, limit: 2 * bare + 100, margin: '2 × ideal + 100 ms', note: 'ideal: the same 7 count requests sent bare, together, timed apart' },
      requests: { ideal: 7, limit: 7, margin: 'ideal + 0 (6 statuses and the 7th, Other statuses)' },
      bytes: {},
      memoryMb: heapBound(0, '0'),
      goals: latencyMs ? { ms: 0.5 } : undefined,
    };
  },
};

/** Every task of the largest status (COMPLETED, 4,156 of 10,000), as the tree lists an opened group. */
export const listingWork: PeerWork<{ status: TaskStatus; expected: number }> = {
  id: 'listing',
  title: 'listing the tasks of one status',
  args: (emulator) => ({ status: 'COMPLETED', expected: emulator.data.tasks.filter((t) => t.status === 'COMPLETED').length }),
  async ours({ client, heap }, { status }) {
    const model = newTree(client);
    const group = model.group(status);
    model.setExpanded(group, true);
    await model.getChildren(group);
    heap.sample();
    while (group.list.hasMore && group.list.error === undefined) {
      await model.loadMore(group);
      heap.sample();
    }
    // The batch parents' counts, read as their pages arrive (a row's description): the work ends when they are in.
    await model.settled();
    const listed = group.list.items.length;
    model.dispose();
    return listed;
  },
  async ideals({ client, emulator, args, latencyMs }) {
    const pages = Math.ceil(args.expected / 100);
    const page = await median3(() => client.tasks.list({ status: args.status, fields: TASK_LIST_FIELDS }, { offset: 0, limit: 100 }));
    // A row of a batch parent draws its children's counts, which a listing of a row's fields does not carry: read 100
    // a request (POST /v2/bulk/tasks/get) as the pages arrive, the pages of 100 ms read together.
    const parents = emulator.data.tasks.filter((t) => t.status === args.status && t.batch).length;
    const countReads = Math.ceil(parents / 100);
    return {
      ms: { ideal: pages * page, limit: 2 * pages * page + 500, margin: '2 × ideal + 500 ms', note: 'ideal: ceil(N/100) × one page of 100, timed apart' },
      requests: {
        ideal: pages + countReads,
        limit: pages + Math.min(pages, parents) + 1,
        margin: `ideal + 1 + a read of batch parents' counts per page at most (${parents} parents; ideal: ${countReads} such reads)`,
      },
      bytes: { ideal: await rowFieldBytes(client, emulator, { status: args.status }), note: ROW_FIELDS_NOTE },
      memoryMb: heapBound(args.expected, 'N'),
      goals: latencyMs ? { ms: 0.5, bytes: 0.3 } : undefined,
    };
  },
};

/** The children of the batch parent with the most of them. */
export const childrenWork: PeerWork<{ parent: string; status: TaskStatus; expected: number }> = {
  id: 'children',
  title: "a batch parent's children",
  args: (emulator) => {
    const tasks = emulator.data.tasks;
    const counts = new Map<string, number>();
    for (const t of tasks) if (t.parent) counts.set(t.parent, (counts.get(t.parent) ?? 0) + 1);
    const [parent, expected] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
    return { parent, status: tasks.find((t) => t.id === parent)!.status as TaskStatus, expected };
  },
  async ours({ client, heap }, { parent, status }) {
    const model = newTree(client);
    const node = new TaskNode({ id: parent, status, batch: true } as Task, model.group(status));
    const list = model.listOf(node);
    await model.getChildren(node);
    heap.sample();
    while (list.hasMore && list.error === undefined) {
      await model.loadMore(node);
      heap.sample();
    }
    await model.settled();
    const listed = list.items.length;
    model.dispose();
    return listed;
  },
  async ideals({ client, emulator, args }) {
    const pages = Math.max(1, Math.ceil(args.expected / 100));
    const query = { parent: args.parent, order_by: 'created_time', order: 'desc' } as const;
    const page = await median3(() => client.tasks.list({ ...query, fields: TASK_LIST_FIELDS }, { offset: 0, limit: 100 }));
    return {
      ms: { ideal: pages * page, limit: 2 * pages * page + 100, margin: '2 × ideal + 100 ms', note: 'ideal: the pages of children, timed apart' },
      requests: { ideal: pages, limit: pages, margin: 'ideal + 0' },
      bytes: { ideal: await rowFieldBytes(client, emulator, query), note: ROW_FIELDS_NOTE },
      memoryMb: heapBound(args.expected, 'N'),
    };
  },
};

export const COPY_PEER_ITEMS = 1_000;

/** Copying 1,000 files to a project's root and following the jobs until every one is FINISHED (real clock). */
export const copyWork: PeerWork<{ files: string[]; project: string; poll_s: number }> = {
  id: 'copy',
  title: 'copying 1,000 items, following the jobs to the end',
  emulator: { copyStepMs: COPY_STEP_MS },
  runs: 1,
  args: (emulator) => ({ files: pickFiles(emulator, COPY_PEER_ITEMS), project: DESTINATION, poll_s: 1 }),
  async ours({ client, emulator, heap }, { files, project }) {
    const { tracker, outbox, send } = benchWriter(client, emulator);
    try {
      const finished = new Set<string>();
      let resolveAll: () => void = () => undefined;
      const all = new Promise<void>((resolve) => (resolveAll = resolve));
      let expected = Infinity;
      tracker.onDidFinish((job) => {
        finished.add(job.id);
        heap.sample();
        if (finished.size >= expected) resolveAll();
      });
      const plan = planCopy({ sources: files, destination: { kind: 'projectRoot', project } });
      if (!plan.ok) throw new Error(`planCopy refused the copy: ${plan.problems.join(' ')}`);
      const report = await send(plan.batches, { label: project, project });
      if (report.left.length) throw new Error(`a copy call did not go through: ${report.left.map((r) => r.note).join('; ')}`);
      expected = report.jobs.length;
      if (finished.size >= expected) resolveAll();
      await all;
      const jobs = report.jobs.map((j) => tracker.get(j.id)!);
      return { jobs: jobs.length, completed: jobs.reduce((n, j) => n + (j.completed ?? 0), 0) };
    } finally {
      outbox.dispose();
      tracker.dispose();
    }
  },
  async ideals({ emulator, ours, latencyMs }) {
    // The platform's own timeline: when it finished the last job, from the start of the work.
    let last = ours.startedAt;
    for (const request of emulator.copyRequests) {
      const job = emulator.data.jobs.find((j) => j.id === request.jobId);
      if (job) last = Math.max(last, platformFinish(request.at, job.total_files, COPY_STEP_MS));
    }
    const platformMs = last - ours.startedAt;
    const posts = Math.ceil(COPY_PEER_ITEMS / 100);
    const looks = fewestLooksWithin(platformMs) + 1;
    // Every job's final record (its results) once: what must be read at the least.
    const jobs = new Set(emulator.copyRequests.map((r) => r.jobId));
    const finalBytes = emulator.data.jobs.filter((j) => jobs.has(j.id)).reduce((n, j) => n + Buffer.byteLength(JSON.stringify(j)), 0) / 1024;
    return {
      // The look that sees the last job finished comes back a round trip after it is sent.
      ms: { ideal: platformMs, limit: platformMs + lagLimitMs(platformMs) + latencyMs, margin: 'ideal + 1 s + 10 % of ideal + a round trip', note: 'ideal: when the platform finished the last job' },
      requests: { ideal: posts + 1, limit: posts + 2 + looks, margin: `ideal + 1 + ${looks} looks` },
      bytes: {
        ideal: finalBytes,
        bound: { limit: 2 * finalBytes, margin: '2 × ideal: a look at the job list reads the results of the jobs finished while others run' },
        note: "ideal: every job's final record (with its results) once",
      },
      memoryMb: heapBound(COPY_PEER_ITEMS, 'items'),
    };
  },
};

export const WORKS: PeerWork[] = [countsWork, listingWork, childrenWork, copyWork, pushWork] as unknown as PeerWork[];
