// Copying 1,000 items, in real time: from the command to every call submitted, and to every job FINISHED.
// Extension: planCopy (split into calls of ≤100) → outbox.send (the copy write) → JobTracker, with its default
// timings (first look after 1 s, then every 1 s + 10 % of the newest job's age). Naive: naiveJobs.ts.
import type { SbClient } from '../../src/api/client';
import { planCopy } from '../../src/copy/request';
import { benchWriter } from './writer';
import type { Emulator } from '../../test/emulator';
import { DESTINATION, pickFiles, platformFinish } from './copySources';
import { clientFor, freshEmulator, sent, tally } from './env';
import type { Figure } from './figures';
import { gcIfExposed } from './heap';
import { naivePoll, naiveSubmit, NAIVE_INTERVAL_MS } from './naiveJobs';
import { fewestLooksWithin, lagLimitMs } from './lagScenario';

export const COPY_ITEMS = 1_000;
/** Per job state step: a 100-file job takes (2 + 4) steps = 3 s, so the run is short; the tracker still polls as on the platform. */
export const COPY_STEP_MS = 500;
const FINISH_TIMEOUT_MS = 120_000;

export interface CopyResult {
  posts: number;
  submitRequests: number;
  submitMs: number;
  finishRequests: number;
  finishMs: number;
  /** When the platform itself finished the last job, from the command (ms). */
  platformMs: number;
  jobs: number;
}

function lastPlatformFinish(emulator: Emulator, startWall: number): number {
  let last = startWall;
  for (const request of emulator.copyRequests) {
    const job = emulator.data.jobs.find((j) => j.id === request.jobId);
    if (job) last = Math.max(last, platformFinish(request.at, job.total_files, COPY_STEP_MS));
  }
  return last - startWall;
}

async function waitFor(condition: () => boolean, timeoutMs: number, pollMs = 10): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return true;
}

export async function extensionCopy(): Promise<CopyResult> {
  const emulator = await freshEmulator({ copyStepMs: COPY_STEP_MS });
  const client = clientFor(emulator);
  const { tracker, outbox, send } = benchWriter(client, emulator);
  try {
    const sources = pickFiles(emulator, COPY_ITEMS);
    const finished = new Map<string, number>();
    tracker.onDidFinish((job) => finished.set(job.id, performance.now()));
    const sent = await warmUp(client);
    gcIfExposed();
    const startWall = Date.now();
    const t0 = performance.now();
    const plan = planCopy({ sources, destination: { kind: 'projectRoot', project: DESTINATION } });
    if (!plan.ok) throw new Error(`planCopy refused the copy: ${plan.problems.join(' ')}`);
    const report = await send(plan.batches, { label: DESTINATION, project: DESTINATION });
    const submitMs = performance.now() - t0;
    const submitRequests = sent();
    if (report.left.length) throw new Error(`a copy call did not go through: ${report.left.map((r) => r.note).join('; ')}`);
    const jobs = report.jobs.length;
    if (!(await waitFor(() => finished.size >= jobs, FINISH_TIMEOUT_MS))) throw new Error(`only ${finished.size} of ${jobs} jobs finished within ${FINISH_TIMEOUT_MS / 1000} s`);
    const finishMs = Math.max(...finished.values()) - t0;
    const result: CopyResult = {
      posts: emulator.copyRequests.length,
      submitRequests,
      submitMs,
      finishRequests: sent(),
      finishMs,
      platformMs: lastPlatformFinish(emulator, startWall),
      jobs,
    };
    tally('copy 1,000 items', 'extension', emulator, client);
    return result;
  } finally {
    outbox.dispose();
    tracker.dispose();
    await emulator.close();
  }
}

export async function naiveCopy(): Promise<CopyResult> {
  const emulator = await freshEmulator({ copyStepMs: COPY_STEP_MS });
  const client = clientFor(emulator);
  try {
    const sources = pickFiles(emulator, COPY_ITEMS);
    const sent = await warmUp(client);
    gcIfExposed();
    const startWall = Date.now();
    const t0 = performance.now();
    const ids = await naiveSubmit(client, sources.map((file) => ({ file, project: DESTINATION })));
    const submitMs = performance.now() - t0;
    const submitRequests = sent();
    const unfinished = new Set(ids);
    let last = t0;
    for (let i = 0; i < FINISH_TIMEOUT_MS / NAIVE_INTERVAL_MS && unfinished.size; i++) {
      await new Promise((r) => setTimeout(r, NAIVE_INTERVAL_MS));
      const poll = await naivePoll(client, unfinished);
      if (poll.finished.length) last = performance.now();
    }
    if (unfinished.size) throw new Error(`naive: ${unfinished.size} jobs unfinished after ${FINISH_TIMEOUT_MS / 1000} s`);
    const result: CopyResult = {
      posts: emulator.copyRequests.length,
      submitRequests,
      submitMs,
      finishRequests: sent(),
      finishMs: last - t0,
      platformMs: lastPlatformFinish(emulator, startWall),
      jobs: ids.length,
    };
    tally('copy 1,000 items', 'naive', emulator, client);
    return result;
  } finally {
    await emulator.close();
  }
}

export function copyFigures(e: CopyResult, n: CopyResult): Figure[] {
  const section = 'Copy 1,000 items';
  const idealPosts = Math.ceil(COPY_ITEMS / 100);
  // Following: one list call per look, as few looks as keep the goal while the platform works, plus the last one.
  const followAllowance = fewestLooksWithin(e.platformMs) + 1;
  return [
    { section, name: 'copy POSTs', unit: 'req', value: e.posts, ideal: idealPosts, limit: idealPosts, margin: 'ideal + 0', naive: n.posts },
    { section, name: 'requests from command to submitted', unit: 'req', value: e.submitRequests, ideal: idealPosts, limit: idealPosts + 1, margin: 'ideal + 1 (newest-job look, for lost answers)', naive: n.submitRequests },
    { section, name: 'time from command to submitted', unit: 'ms', value: e.submitMs, ideal: n.submitMs, limit: n.submitMs * 3 + 500, margin: '3 × ideal + 500 ms; ideal: 10 bare POSTs', naive: n.submitMs },
    { section, name: `requests from command to every job FINISHED (${e.jobs} jobs)`, unit: 'req', value: e.finishRequests, ideal: idealPosts + 1, limit: idealPosts + 2 + followAllowance, margin: `ideal + 1 + ${followAllowance} looks (the fewest that keep 1 s + 10 % while copying, + 1)`, naive: n.finishRequests },
    {
      section,
      name: `time from command to every job FINISHED (seen ${Math.round(e.finishMs - e.platformMs).toLocaleString('en-US')} ms after the platform; before #15: 4,080)`,
      unit: 'ms',
      value: e.finishMs,
      ideal: e.platformMs,
      limit: e.platformMs + lagLimitMs(e.platformMs),
      margin: 'ideal + 1 s + 10 % of ideal',
      naive: n.finishMs,
      note: 'ideal: when the platform finished the last job',
    },
  ];
}

/** A warm-up request, untimed and free of quota; returns a count of the requests sent after it. */
async function warmUp(client: SbClient): Promise<() => number> {
  await client.rateLimit();
  return sent(client).mark();
}
