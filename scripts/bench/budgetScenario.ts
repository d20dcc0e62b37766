// A copy of 100,000 items against the default budget (1,000 requests per 5 minutes), on the accelerated clock
// (test/support/fakeClock.ts: the emulator, the client, the outbox and the tracker share it; every request is a real
// HTTP request to the emulator and takes no time on that clock). The product's own parts: planCopy splits the items
// into 1,000 calls of 100, the outbox sends them through the copy write, which holds a call back while sending it would
// spend the budget's reserve (api/budget.ts), and the JobTracker follows the jobs, slower while the budget is low.
// Each call copies to a folder of its own: the emulator checks every copy's name against its siblings, which for
// 100,000 copies into one folder would cost it minutes; the product sends and follows them as one copy.
//
// The floor: the copy needs at least 1,000 POSTs and one page of the job list per 100 jobs to see every job end;
// past the limit, the rest waits for the reset, so the floor is one window per limit's worth of requests beyond
// the first: (ceil(R / limit) − 1) × 5 minutes (the jobs of the first window finish inside it).
import type { CopyPayload } from '../../src/jobs/copyRequests';
import { planCopy } from '../../src/copy/request';
import { copyWrite } from '../../src/copy/copyWrite';
import { WRITE_KINDS } from '../../src/keys/writes';
import { JobTracker, type TrackedJob } from '../../src/jobs/tracker';
import { Outbox } from '../../src/write/outbox';
import type { Emulator } from '../../test/emulator';
import { memoryState } from '../../test/support/sharedState';
import { DESTINATION } from './copySources';
import { acceleratedPlatform, tally } from './env';
import type { Figure } from './figures';

export const BUDGET_ITEMS = 100_000;
const PER_CALL = 100;
const LIMIT = 1_000;
const WINDOW_MS = 5 * 60_000;
/** Every job ends within this much of the accelerated clock, or the scenario fails. */
const GIVE_UP_MS = 60 * 60_000;
/** Real time a burst of sends may take before the accelerated clock moves on (the default 5 s is for small runs). */
const SETTLE_LIMIT_MS = 120_000;

export interface BudgetResult {
  calls: number;
  /** Requests the emulator received (the warm-up, free of quota, not counted). */
  requests: number;
  status429: number;
  /** Items whose result the finished jobs carry, and whose copy (or failure) they count. */
  accounted: { results: number; counted: number; completed: number };
  /** From the command to the last job seen FINISHED, on the accelerated clock. */
  totalMs: number;
  /** The fewest requests the copy needs, and the least time the budget allows for them. */
  floor: { requests: number; ms: number };
  /** How often bulk work was held back, and until when (ms from the command). */
  holds: number[];
  /** Writes still in the outbox at the end (none, or an item is not accounted for). */
  left: number;
}

/** Adds 100,000 source files (1,000 folders of 100, in another project) and 1,000 destination folders. */
function addCopyData(emulator: Emulator): { sources: string[][]; destinations: string[] } {
  const data = emulator.data;
  const stamp = new Date(data.startedAt).toISOString().slice(0, 19) + 'Z';
  const folder = (project: string, parent: string, name: string) =>
    data.addFile({ id: data.newFileId(), name, project, parent, type: 'folder', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
  const source = data.projects.find((p) => p.id !== DESTINATION)!;
  const target = data.projectById.get(DESTINATION)!;
  const sources: string[][] = [];
  const destinations: string[] = [];
  for (let call = 0; call < BUDGET_ITEMS / PER_CALL; call++) {
    const from = folder(source.id, source.root_folder, `batch_${String(call).padStart(4, '0')}`);
    const ids: string[] = [];
    for (let i = 0; i < PER_CALL; i++) {
      const name = `sample_${String(call * PER_CALL + i).padStart(6, '0')}.fastq.gz`;
      ids.push(data.addFile({ id: data.newFileId(), name, size: 1_000_000, project: source.id, parent: from.id, type: 'file', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} }).id);
    }
    sources.push(ids);
    destinations.push(folder(target.id, target.root_folder, `copy_${String(call).padStart(4, '0')}`).id);
  }
  return { sources, destinations };
}

export async function budgetCopy(): Promise<BudgetResult> {
  const { clock, emulator, client, quiet, key, account } = await acceleratedPlatform({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  const tracker = new JobTracker(client.copyJobs, memoryState(), clock, { account: () => key, budget: client.budget });
  const copy = copyWrite({ jobs: client.fileJobs, files: client.files, tracker, clock, serverNow: () => client.budget.serverClock.now(), budget: client.budget });
  const outbox = new Outbox(memoryState(), async () => account, [copy], clock);
  try {
    const { sources, destinations } = addCopyData(emulator);
    const payloads: CopyPayload[] = sources.map((ids, i) => {
      const plan = planCopy({ sources: ids, destination: { kind: 'otherProjectFolder', project: DESTINATION, folder: destinations[i], path: [`copy_${i}`] } });
      if (!plan.ok || plan.batches.length !== 1) throw new Error('the copy plan is not one call of 100');
      return { items: plan.batches[0], destination: { label: DESTINATION, project: DESTINATION, parent: destinations[i] } };
    });
    await client.rateLimit();
    const before = emulator.stats.requests;
    const t0 = clock.now();
    const holds: number[] = [];
    client.budget.onDidHold((hold) => {
      if (!holds.some((at) => Math.abs(at - (hold.until - t0)) < 2_000)) holds.push(hold.until - t0);
    });
    let leastLeft = LIMIT;
    client.budget.onDidChange(() => (leastLeft = Math.min(leastLeft, client.budget.state()?.remaining ?? LIMIT)));
    const finished: TrackedJob[] = [];
    let lastFinish = t0;
    tracker.onDidFinish((job) => {
      finished.push(job);
      lastFinish = clock.now();
    });
    outbox.start();
    const sending = outbox.send(WRITE_KINDS.copy, payloads, account);
    let done = false;
    void sending.finally(() => (done = true));
    while (!(done && finished.length >= payloads.length && outbox.all().length === 0)) {
      if (clock.now() - t0 > GIVE_UP_MS) throw new Error(`after ${GIVE_UP_MS / 60_000} minutes: ${finished.length} of ${payloads.length} jobs finished, ${outbox.all().length} calls in the outbox`);
      await clock.runUntil(clock.now() + 10_000, quiet, SETTLE_LIMIT_MS);
    }
    await sending;
    const results = finished.reduce((n, job) => n + (job.result?.length ?? 0), 0);
    const counted = finished.reduce((n, job) => n + (job.completed ?? 0) + (job.failed ?? 0), 0);
    const completed = finished.reduce((n, job) => n + (job.completed ?? 0), 0);
    const floorRequests = payloads.length + Math.ceil(payloads.length / 100);
    const result: BudgetResult = {
      calls: emulator.copyRequests.filter((r) => r.status === 200).length,
      requests: emulator.stats.requests - before,
      status429: emulator.stats.byStatus[429] ?? 0,
      accounted: { results, counted, completed },
      totalMs: lastFinish - t0,
      floor: { requests: floorRequests, ms: (Math.ceil(floorRequests / LIMIT) - 1) * WINDOW_MS },
      holds,
      left: outbox.all().length,
    };
    // The scenario spans two windows of the limit: its tally is what it spent in the dearer one.
    tally('copy 100,000 items within the budget', 'extension', emulator, client).requests = LIMIT - leastLeft;
    return result;
  } finally {
    outbox.dispose();
    tracker.dispose();
    await emulator.close();
  }
}

export function budgetFigures(r: BudgetResult): Figure[] {
  const section = 'API budget: copy 100,000 items (1,000 per 5 min, accelerated clock)';
  const all = r.accounted.results === BUDGET_ITEMS && r.accounted.counted === BUDGET_ITEMS && r.left === 0;
  const holds = r.holds.map((ms) => `${(ms / 1000).toFixed(0)} s`).join(', ') || 'none';
  return [
    { section, name: `429 answers (${r.calls.toLocaleString('en-US')} copy calls, ${r.requests.toLocaleString('en-US')} requests in all)`, unit: 'count', value: r.status429, ideal: 0, limit: 0, margin: 'ideal + 0' },
    {
      section,
      name: `items accounted for: each with its result in a FINISHED job (${r.accounted.completed.toLocaleString('en-US')} copied), no call left in the outbox`,
      unit: 'count',
      value: all ? r.accounted.results : NaN,
      ideal: BUDGET_ITEMS,
      limit: BUDGET_ITEMS,
      margin: 'exact',
    },
    {
      section,
      name: `time from the command to every job FINISHED (held back until the reset at ${holds}; floor: ${r.floor.requests.toLocaleString('en-US')} requests at ${LIMIT.toLocaleString('en-US')} per 5 min)`,
      unit: 'ms',
      value: r.totalMs,
      ideal: r.floor.ms,
      limit: 1.1 * r.floor.ms,
      margin: 'floor + 10 %',
      note: `floor: ${r.floor.requests} requests (${r.calls} POSTs and a page of the job list per 100 jobs) need ${Math.ceil(r.floor.requests / LIMIT)} windows of 5 min: (${Math.ceil(r.floor.requests / LIMIT)} − 1) × 5 min`,
    },
  ];
}
