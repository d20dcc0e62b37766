// Task tree and filtering: each strategy in its own worker process against its own fresh emulator.
import { fork } from 'child_process';
import * as path from 'path';
import type { TaskFilter } from '../../src/tasks/filterModel';
import { PAGE_SIZE } from '../../src/api/pagedLoader';
import { freshEmulator, tally } from './env';
import { timeLimit, type Figure } from './figures';
import type { TreeResult } from './treeStrategies';
import type { TreeJob, TreeMessage } from './treeWorker';

const WORKER_TIMEOUT_MS = 300_000;

export interface TreeRun {
  extension: TreeResult;
  naive: TreeResult;
}

async function runWorker(scenario: string, strategy: TreeJob['strategy'], filter: TaskFilter): Promise<TreeResult> {
  const emulator = await freshEmulator();
  try {
    const job: TreeJob = { strategy, baseUrl: emulator.baseUrl, token: emulator.token, filter };
    const child = fork(path.join(__dirname, 'treeWorker.js'), [JSON.stringify(job)], { execArgv: ['--expose-gc'], stdio: 'inherit' });
    const message = await new Promise<TreeMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`${scenario}/${strategy}: the worker did not finish within ${WORKER_TIMEOUT_MS / 1000} s`));
      }, WORKER_TIMEOUT_MS);
      child.once('message', (m) => {
        clearTimeout(timer);
        resolve(m as TreeMessage);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${scenario}/${strategy}: the worker exited (${code}) without an answer`));
      });
    });
    if (!message.ok) throw new Error(`${scenario}/${strategy}: ${message.error}`);
    const t = tally(scenario, strategy, emulator);
    t.retries = message.result.transport.retries;
    t.rateLimitWaits = message.result.transport.rateLimitWaits;
    return message.result;
  } finally {
    await emulator.close();
  }
}

export async function runTree(scenario: string, filter: TaskFilter): Promise<TreeRun> {
  const extension = await runWorker(scenario, 'extension', filter);
  const naive = await runWorker(scenario, 'naive', filter);
  return { extension, naive };
}

export function treeFigures(section: string, run: TreeRun, groupCount: number): Figure[] {
  const { extension: e, naive: n } = run;
  const idealList = Math.ceil(e.largestCount / PAGE_SIZE);
  // A row of a batch parent draws its children's counts, which a listing of a row's fields does not carry: read 100 a
  // request (POST /v2/bulk/tasks/get) as the pages are listed, as in the listing beside the official client (peer/works.ts).
  // The parents are counted in the naive listing, apart from the product's.
  const parents = n.largestParents;
  const countReads = Math.ceil(parents / PAGE_SIZE);
  // Time ideals from latencies measured apart in the same run: the counts go out together, so one count
  // round trip; the pages of a listing follow one another, so ceil(N/100) pages of 100.
  const roundTrip = e.roundTripMs ?? NaN;
  const page = e.pageMs ?? NaN;
  const countTime = timeLimit(roundTrip, 3, 500);
  const listTime = timeLimit(idealList * page, 2, 500);
  return [
    { section, name: `requests until every group has its count (${groupCount} groups)`, unit: 'req', value: e.countRequests, ideal: groupCount, limit: groupCount, margin: 'ideal + 0', naive: n.countRequests },
    { section, name: 'time until every group has its count', unit: 'ms', value: e.countMs, ideal: roundTrip, ...countTime, naive: n.countMs, note: 'ideal: one count request, timed apart' },
    { section, name: `requests to list the largest group (${e.largest}, N = ${e.largestCount})`, unit: 'req', value: e.listRequests, ideal: idealList + countReads, limit: idealList + Math.min(idealList, parents) + 1, margin: `ideal + 1 + a read of batch parents' counts per page at most (${parents} parents; ideal: ${countReads} such reads)`, naive: n.listRequests },
    { section, name: 'time to list the largest group', unit: 'ms', value: e.listMs, ideal: idealList * page, ...listTime, naive: n.listMs, note: 'ideal: ceil(N/100) × one page of 100, timed apart' },
    { section, name: 'peak heap while listing the largest group', unit: 'MB', value: e.peakHeapMb, limit: 8 + (4 * e.largestCount) / 1024, margin: 'bound: 8 MB + 4 KB × N', naive: n.peakHeapMb },
    { section, name: 'tasks listed = N (and the naive count agrees)', unit: 'count', value: e.listed === e.largestCount && n.largestCount === e.largestCount ? e.listed : NaN, ideal: e.largestCount, limit: e.largestCount, margin: 'exact', naive: n.largestCount },
  ];
}
