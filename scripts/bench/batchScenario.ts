// Batches at scale: re-running the 1,000 failed children of a batch (one clone each, through the outbox, held back by
// the API budget) and collecting the failure logs of 1,000 failed tasks (details, then each log's download_info and
// its bytes from the storage origin, four tasks at once, paced). Real emulator, real client; the default budget of
// 1,000 requests a window, the window shortened to 20 s so the bench ends in minutes (the pacing is the same).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SbClient } from '../../src/api/client';
import { systemClock } from '../../src/api/clock';
import { collectFailureLogs, failedTasks } from '../../src/tasks/failureLogs';
import { bulkPace } from '../../src/tasks/paced';
import { WRITE_KINDS } from '../../src/keys/writes';
import { planRerun, rerunFailedWrite, rerunnableChildren, rerunPayloads } from '../../src/tasks/rerunFailed';
import { Outbox } from '../../src/write/outbox';
import { startEmulator, type Emulator } from '../../test/emulator';
import { memoryState } from '../../test/support/sharedState';
import type { Figure } from './figures';
import { startHeapProbe } from './heap';

const CHILDREN = 1000;
const WINDOW_MS = 20_000;

interface Run {
  requests: number;
  ideal: number;
  rateLimited: number;
  ms: number;
  heapMb: number;
  done: number;
}

async function withBatch<T>(work: (emu: Emulator, client: SbClient) => Promise<T>): Promise<T> {
  const emu = await startEmulator({ tasks: 40, files: 200, batches: [CHILDREN], batchFailures: 1, taskStepMs: 3_600_000, rateLimit: { limit: 1000, windowMs: WINDOW_MS } });
  try {
    return await work(emu, new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) }));
  } finally {
    await emu.close();
  }
}

const parentOf = (emu: Emulator) => emu.data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;

export async function rerunThousand(): Promise<Run> {
  return withBatch(async (emu, client) => {
    const before = emu.stats.requests;
    const heap = startHeapProbe();
    const start = performance.now();
    const pace = bulkPace(client.budget, systemClock);
    const plan = planRerun(await rerunnableChildren(client.tasks, parentOf(emu).id, { pace }));
    const account = { key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: emu.token } };
    const outbox = new Outbox(memoryState(), async () => account, [rerunFailedWrite(client.tasks, client.budget)]);
    outbox.start();
    try {
      const { finished } = await outbox.send(WRITE_KINDS.rerunFailed, rerunPayloads(plan), account, { until: 'end', onProgress: () => heap.sample() });
      const ms = performance.now() - start;
      // The two listings (failed, aborted) 100 a page, then one clone per child; each snapshot of the project is extra.
      const ideal = Math.ceil(plan.failed / 100) + Math.max(1, Math.ceil(plan.aborted / 100)) + plan.tasks.length;
      return { requests: emu.stats.requests - before, ideal, rateLimited: emu.stats.byStatus[429] ?? 0, ms, heapMb: heap.stop(), done: finished.length };
    } finally {
      outbox.dispose();
    }
  });
}

export async function collectThousand(): Promise<Run> {
  return withBatch(async (emu, client) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-logs-'));
    try {
      const before = emu.stats.requests;
      const heap = startHeapProbe();
      const start = performance.now();
      const pace = bulkPace(client.budget, systemClock);
      const tasks = await failedTasks(client.tasks, { parent: parentOf(emu).id }, { pace });
      const result = await collectFailureLogs(tasks, { executionDetails: (id, s) => client.tasks.executionDetails(id, s), downloadInfo: (id, s) => client.files.downloadInfo(id, s) }, { folder, pace, onProgress: () => heap.sample() });
      const ms = performance.now() - start;
      // The listing 100 a page, one details request per task, one download_info per log (the bytes come from the storage origin).
      const ideal = Math.ceil(tasks.length / 100) + tasks.length + result.logs;
      return { requests: emu.stats.requests - before, ideal, rateLimited: emu.stats.byStatus[429] ?? 0, ms, heapMb: heap.stop(), done: new Set(result.rows.map((r) => r.task.id)).size };
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
}

export function batchFigures(rerun: Run, collect: Run): Figure[] {
  const windows = (run: Run) => Math.ceil(run.ideal / 900);
  const section = 'Batches at scale';
  const of = (run: Run, what: string, time: Pick<Figure, 'limit' | 'margin' | 'note'>): Figure[] => [
    { section, name: `${what}: API requests`, unit: 'req', value: run.requests, ideal: run.ideal, limit: Math.ceil(run.ideal * 1.02) + 5, margin: 'ideal + 2 % + 5', note: `${run.done.toLocaleString('en-US')} of ${CHILDREN.toLocaleString('en-US')} done` },
    { section, name: `${what}: 429 answers (budget of 1,000 a window)`, unit: 'count', value: run.rateLimited, ideal: 0, limit: 0, margin: 'ideal + 0' },
    { section, name: `${what}: time (a ${WINDOW_MS / 1000} s window)`, unit: 'ms', value: Math.round(run.ms), ...time },
    { section, name: `${what}: peak heap`, unit: 'MB', value: Math.round(run.heapMb * 10) / 10, limit: 100, margin: '≤ 100 MB' },
  ];
  return [
    // The outbox sends one write at a time, each recorded (and read back) before it leaves: its pace, not the budget's, sets this time.
    ...of(rerun, `re-run ${CHILDREN.toLocaleString('en-US')} failed children`, {
      limit: CHILDREN * 200,
      margin: '≤ 200 ms a write',
      note: 'the outbox sends one write at a time, each recorded before it is sent',
    }),
    ...of(collect, `collect the failure logs of ${CHILDREN.toLocaleString('en-US')} failed tasks`, {
      limit: windows(collect) * WINDOW_MS + 60_000,
      margin: '≤ the budget windows needed + 60 s',
      note: `${windows(collect)} window(s) of 900 requests (the budget less the 10 % kept for the user)`,
    }),
  ];
}
