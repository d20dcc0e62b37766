// Requests spent following copy jobs for one minute, with 1 and with 20 jobs in flight, on the accelerated
// clock (test/support/fakeClock.ts): the emulator, the client and the tracker share it, so a virtual minute of polling
// takes well under a second. Jobs stay in flight the whole minute: 100 files each at 30 s per state step
// (3 minutes per job). Extension: JobTracker with its default timings; naive: one GET per job per second.
// (The first minute is the dearest: looks come every 1 s + 10 % of the job's age, see lagScenario.ts.)
import { benchWriter } from './writer';
import { planCopy } from '../../src/copy/request';
import { DESTINATION, pickFiles } from './copySources';
import { acceleratedClient, clientFor, freshEmulator, sent, tally } from './env';
import type { Figure } from './figures';
import { naivePoll, naiveSubmit, NAIVE_INTERVAL_MS } from './naiveJobs';
import { FakeClock } from '../../test/support/fakeClock';
import { fewestLooksWithin } from './lagScenario';

const STEP_MS = 30_000;
const ITEMS_PER_JOB = 100;
const MINUTE = 60_000;
/** Measured with the schedule before #15 (first look 2 s, then 5 s, ×2 while nothing changes), on this scenario. */
const FIRST_MINUTE_BEFORE = 6;

export interface FollowResult {
  jobs: number;
  /** Requests in the first minute after the last job was submitted (no POSTs). */
  perMinute: number;
  /** Of those, how many reached the platform (the naive client refuses GETs once the quota is spent). */
  sent: number;
  /** Jobs still in flight at the end of the minute (all of them, or the figure means less). */
  inFlightAtEnd: number;
  status429: number;
}

export async function extensionFollow(jobs: number): Promise<FollowResult> {
  const clock = new FakeClock(Date.now(), { sleeps: 'timers' });
  const emulator = await freshEmulator({ copyStepMs: STEP_MS, now: clock.now });
  const { client, quiet } = acceleratedClient(emulator, clock);
  const { tracker, outbox, send } = benchWriter(client, emulator, clock);
  try {
    const sources = pickFiles(emulator, jobs * ITEMS_PER_JOB);
    const plan = planCopy({ sources, destination: { kind: 'projectRoot', project: DESTINATION } });
    if (!plan.ok || plan.batches.length !== jobs) throw new Error('the copy plan is not one call per job');
    const report = await send(plan.batches, { label: DESTINATION, project: DESTINATION });
    if (report.jobs.length !== jobs) throw new Error(`submitted ${report.jobs.length} of ${jobs} jobs`);
    const since = sent(client).mark();
    await clock.runUntil(clock.now() + MINUTE, () => (quiet() && clock.pending > 0) || tracker.active().length === 0);
    const result: FollowResult = {
      jobs,
      perMinute: since(),
      sent: since(),
      inFlightAtEnd: tracker.active().length,
      status429: emulator.stats.byStatus[429] ?? 0,
    };
    tally(`follow ${jobs} job${jobs > 1 ? 's' : ''} for a minute`, 'extension', emulator, client);
    return result;
  } finally {
    outbox.dispose();
    tracker.dispose();
    await emulator.close();
  }
}

export async function naiveFollow(jobs: number): Promise<FollowResult> {
  const clock = new FakeClock(Date.now(), { sleeps: 'timers' });
  const emulator = await freshEmulator({ copyStepMs: STEP_MS, now: clock.now });
  // Gives up on a 429 at once (no 5-minute wait): the naive loop just carries on, as a naive loop does.
  const client = clientFor(emulator, { clock, noRateLimitWait: true });
  try {
    const sources = pickFiles(emulator, jobs * ITEMS_PER_JOB);
    const ids = await naiveSubmit(client, sources.map((file) => ({ file, project: DESTINATION })));
    const unfinished = new Set(ids);
    // Counted as attempted: once the quota is spent the transport refuses GETs before sending them.
    let attempted = 0;
    const before = emulator.stats.requests;
    for (let t = NAIVE_INTERVAL_MS; t <= MINUTE; t += NAIVE_INTERVAL_MS) {
      clock.advance(NAIVE_INTERVAL_MS);
      attempted += (await naivePoll(client, unfinished)).requests;
    }
    const result: FollowResult = {
      jobs,
      perMinute: attempted,
      sent: emulator.stats.requests - before,
      inFlightAtEnd: unfinished.size,
      status429: emulator.stats.byStatus[429] ?? 0,
    };
    tally(`follow ${jobs} job${jobs > 1 ? 's' : ''} for a minute`, 'naive', emulator, client);
    return result;
  } finally {
    await emulator.close();
  }
}

/**
 * Ideal: one request per look whatever the number of jobs. For 1 job, the fewest looks that keep the goal (seen
 * within 1 s + 10 % of the running time) in a minute; for 20 jobs, no more than for 1 job (one list call
 * refreshes them all).
 */
export function followFigures(e: FollowResult, n: FollowResult, oneJob?: FollowResult): Figure[] {
  const ideal = oneJob ? oneJob.perMinute : fewestLooksWithin(MINUTE);
  const refused = n.perMinute - n.sent;
  const notes = [n.status429 ? `${n.status429} × 429` : '', refused > 0 ? `${refused} refused: quota spent` : ''].filter(Boolean);
  return [
    {
      section: 'Follow copy jobs',
      name: `requests in the first minute, ${e.jobs} job${e.jobs > 1 ? 's' : ''} in flight (accelerated clock; before #15: ${FIRST_MINUTE_BEFORE})`,
      unit: 'req/min',
      value: e.inFlightAtEnd === e.jobs ? e.perMinute : NaN,
      ideal,
      limit: ideal + 1,
      margin: oneJob ? 'ideal + 1; ideal: the 1-job figure' : 'ideal + 1; ideal: the fewest looks that keep 1 s + 10 %',
      naive: n.perMinute,
      naiveNote: notes.length ? notes.join(', ') : undefined,
    },
  ];
}
