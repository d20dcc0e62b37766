// How soon a finished copy job is seen FINISHED after the platform finished it, for jobs of several running
// times, and what following one long job costs minute by minute: the JobTracker with its default timings against
// the emulator, on the accelerated clock (test/support/fakeClock.ts), one job of 100 files each (6 state steps: the step is
// a sixth of the running time).
import { planCopy } from '../../src/copy/request';
import { benchWriter } from './writer';
import type { JobTracker } from '../../src/jobs/tracker';
import { DESTINATION, pickFiles, platformFinish } from './copySources';
import { acceleratedClient, freshEmulator, sent, tally } from './env';
import type { Figure } from './figures';
import { FakeClock } from '../../test/support/fakeClock';

const ITEMS = 100;
const STEPS = 6;
const MINUTE = 60_000;
/** The goal: seen within 1 s + 10 % of the job's running time (submission to the platform's finish). */
export const lagLimitMs = (runningMs: number): number => 1_000 + 0.1 * runningMs;

/**
 * The fewest looks in the first `ms` after a submission that keep the goal whenever the job finishes: a look at
 * 1 s (a job that finishes at once), then each as late as the goal allows, 1 s + 10 % of the time at the one before.
 */
export function fewestLooksWithin(ms: number): number {
  let looks = 0;
  for (let at = lagLimitMs(0); at <= ms; at += lagLimitMs(at)) looks++;
  return looks;
}
export const LAG_RUNNING_TIMES_MS = [3_000, 30_000, 5 * MINUTE, 60 * MINUTE];
/** The long job whose minutes are counted. */
const LONG_JOB_MS = 60 * MINUTE;
/** From this minute on a job counts as running long. */
const LONG_FROM_MINUTE = 10;
/**
 * Measured with the schedule before issue #15 (first look 2 s, then 5 s, ×2 while nothing changes, 60 s at most)
 * on these same scenarios: the most requests in any minute from minute 10 of a 1-hour job on.
 */
export const LONG_RUN_BEFORE = 7;
/** The same schedule's requests over the whole 1-hour job. */
const LONG_RUN_TOTAL_BEFORE = 265;

export interface LagResult {
  runningMs: number;
  /** From the platform's finish to the tracker's FINISHED. */
  lagMs: number;
  requests: number;
}

export interface LongRunResult {
  /** Requests in each minute after submission, while the job runs. */
  perMinute: number[];
}

async function followOne(
  stepMs: number,
  watch: (ctx: { clock: FakeClock; tracker: JobTracker; requests: () => number; platformEnd: number; quiet: () => boolean }) => Promise<void>,
): Promise<void> {
  const clock = new FakeClock(Date.now(), { sleeps: 'timers' });
  const emulator = await freshEmulator({ tasks: 100, files: 1_000, copyStepMs: stepMs, now: clock.now });
  const { client, quiet } = acceleratedClient(emulator, clock);
  const { tracker, outbox, send } = benchWriter(client, emulator, clock);
  try {
    const plan = planCopy({ sources: pickFiles(emulator, ITEMS), destination: { kind: 'projectRoot', project: DESTINATION } });
    if (!plan.ok) throw new Error(plan.problems.join(' '));
    const report = await send(plan.batches, { label: DESTINATION, project: DESTINATION });
    if (report.jobs.length !== 1) throw new Error('the copy was not submitted as one job');
    const request = emulator.copyRequests[0];
    const job = emulator.data.jobs.find((j) => j.id === request.jobId);
    if (!job) throw new Error('the emulator has no job for the copy');
    await watch({ clock, tracker, requests: sent(client).mark(), platformEnd: platformFinish(request.at, ITEMS, stepMs), quiet });
    tally(`follow one job (${stepMs * STEPS} ms)`, 'extension', emulator, client);
  } finally {
    outbox.dispose();
    tracker.dispose();
    await emulator.close();
  }
}

export async function extensionLag(runningMs: number): Promise<LagResult> {
  let result: LagResult | undefined;
  await followOne(runningMs / STEPS, async ({ clock, tracker, requests, platformEnd, quiet }) => {
    let seenAt: number | undefined;
    tracker.onDidFinish(() => (seenAt ??= clock.now()));
    const settled = () => (quiet() && clock.pending > 0) || seenAt !== undefined;
    for (let end = clock.now() + MINUTE; seenAt === undefined && end < platformEnd + 2 * runningMs + 10 * MINUTE; end += MINUTE) {
      await clock.runUntil(end, settled);
    }
    if (seenAt === undefined) throw new Error(`a job of ${runningMs} ms was not seen FINISHED`);
    result = { runningMs, lagMs: seenAt - platformEnd, requests: requests() };
  });
  return result!;
}

export async function extensionLongRun(): Promise<LongRunResult> {
  const perMinute: number[] = [];
  await followOne(LONG_JOB_MS / STEPS, async ({ clock, tracker, requests, quiet }) => {
    const start = clock.now();
    let counted = 0;
    for (let minute = 1; minute < LONG_JOB_MS / MINUTE; minute++) {
      await clock.runUntil(start + minute * MINUTE, () => (quiet() && clock.pending > 0) || tracker.active().length === 0);
      perMinute.push(requests() - counted);
      counted = requests();
    }
  });
  return { perMinute };
}

const duration = (ms: number): string => (ms < MINUTE ? `${ms / 1000} s` : ms < 60 * MINUTE ? `${ms / MINUTE} min` : `${ms / (60 * MINUTE)} h`);

export function lagFigures(lags: LagResult[], longRun: LongRunResult): Figure[] {
  const section = 'Follow copy jobs';
  const longMinutes = longRun.perMinute.slice(LONG_FROM_MINUTE - 1);
  const mostLong = longMinutes.length ? Math.max(...longMinutes) : undefined;
  const total = longRun.perMinute.reduce((a, b) => a + b, 0);
  return [
    ...lags.map(
      (l): Figure => ({
        section,
        name: `seen FINISHED after the platform finished, job running ${duration(l.runningMs)} (accelerated clock; ${l.requests} requests)`,
        unit: 'ms',
        value: l.lagMs,
        ideal: 0,
        limit: lagLimitMs(l.runningMs),
        margin: '1 s + 10 % of the running time',
      }),
    ),
    {
      section,
      name: `most requests in any minute from minute ${LONG_FROM_MINUTE} of a 1-hour job on (accelerated clock; minutes 1–5: ${longRun.perMinute.slice(0, 5).join(', ')}; whole hour: ${total}, before #15: ${LONG_RUN_TOTAL_BEFORE})`,
      unit: 'req/min',
      value: mostLong,
      limit: LONG_RUN_BEFORE,
      margin: `bound: the schedule before #15 on this job`,
    },
  ];
}
