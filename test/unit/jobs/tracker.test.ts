import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { AsyncJob, Page } from '../../../src/api/types';
import { memoryState, type WindowState } from '../../support/sharedState';
import { type JobsSource, JobTracker, type TrackedJob } from '../../../src/jobs/tracker';
import { FakeClock } from '../../support/fakeClock';
import { ApiBudget } from '../../../src/api/budget';

/** A platform in memory: jobs whose state the test moves on; counts the calls the tracker makes. */
class FakeJobs implements JobsSource {
  jobs = new Map<string, AsyncJob>();
  order: string[] = [];
  calls: string[] = [];
  listHasResults = false;
  failNext: ApiError | undefined;
  extraNewer = 0;
  /** Jobs of other types listed right after our newest job. */
  extraBetween = 0;

  create(id: string, items = 2): AsyncJob {
    const job: AsyncJob = { href: `x/${id}`, id, type: 'COPY', state: 'SUBMITTED', result: [], total_files: 0, completed_files: 0, failed_files: 0 };
    this.jobs.set(id, job);
    this.order.unshift(id);
    (job as AsyncJob & { items: number }).items = items;
    return { ...job };
  }
  progress(id: string, completed: number, total: number): void {
    Object.assign(this.jobs.get(id)!, { state: 'RUNNING', completed_files: completed, total_files: total });
  }
  finish(id: string, failed = 0): void {
    const job = this.jobs.get(id)!;
    const n = (job as AsyncJob & { items: number }).items;
    job.state = 'FINISHED';
    job.total_files = n;
    job.failed_files = failed;
    job.completed_files = n - failed;
    job.result = Array.from({ length: n }, (_, i) =>
      i < failed
        ? { error: { status: 409, code: 10223, message: 'File already exists.' } }
        : { resource: { href: 'h', id: `c${i}`.padEnd(24, '0'), name: `f${i}` } },
    );
  }
  async get(id: string, options: { kind?: string } = {}): Promise<AsyncJob> {
    this.calls.push(options.kind && options.kind !== 'copy' ? `get ${options.kind} ${id}` : `get ${id}`);
    const known = this.jobs.get(id);
    // A job is found only under its own kind's path (a delete job is not under copy).
    if (known && (known.type ?? 'COPY').toLowerCase() !== (options.kind ?? 'copy')) throw new ApiError({ kind: 'http', status: 404, code: 10211, message: 'Async job not found.' });
    this.throwIfFailing();
    const job = this.jobs.get(id);
    if (!job) throw new ApiError({ kind: 'http', status: 404, code: 10211, message: 'Async job not found.' });
    return structuredClone(job);
  }
  async list(page: { offset?: number; limit?: number } = {}): Promise<Page<AsyncJob>> {
    this.calls.push(`list ${page.offset ?? 0} ${page.limit ?? 25}`);
    this.throwIfFailing();
    const others = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ href: 'h', id: `${prefix}${i}`, type: 'DELETE', state: 'FINISHED' }) as AsyncJob);
    const ours = this.order.map((id) => this.jobs.get(id)!);
    const all = [...others(this.extraNewer, '9'), ...ours.slice(0, 1), ...others(this.extraBetween, '8'), ...ours.slice(1)];
    const [offset, limit] = [page.offset ?? 0, page.limit ?? 25];
    const items = all.slice(offset, offset + limit).map((job) => {
      const copy = structuredClone(job);
      if (!this.listHasResults) delete copy.result;
      return copy;
    });
    return { items, total: all.length, next: offset + limit < all.length ? `x/async/files?offset=${offset + limit}` : undefined };
  }
  private throwIfFailing(): void {
    const error = this.failNext;
    this.failNext = undefined;
    if (error) throw error;
  }
}

const info = (n = 2) => ({
  items: Array.from({ length: n }, (_, i) => ({ file: i.toString(16).padStart(24, 'a'), project: 'rfranklin/dest' })),
  destination: { label: 'rfranklin/dest', project: 'rfranklin/dest' },
});

describe('JobTracker', () => {
  let clock: FakeClock;
  let api: FakeJobs;
  let store: WindowState;
  const trackers: JobTracker[] = [];
  const make = (options = {}) => {
    // A fixed 5 s interval unless a test says otherwise: the pacing by age has tests of its own.
    const tracker = new JobTracker(api, store, clock, { firstDelayMs: 2_000, intervalMs: 5_000, elapsedFraction: 0, maxIntervalMs: 60_000, ...options });
    trackers.push(tracker);
    return tracker;
  };

  beforeEach(() => {
    clock = new FakeClock(Date.UTC(2026, 0, 1));
    api = new FakeJobs();
    store = memoryState();
  });
  afterEach(() => {
    trackers.splice(0).forEach((t) => t.dispose());
  });

  it('keeps the results a POST answer already carried while the job is SUBMITTED, and lists without results do not erase them', async () => {
    const tracker = make();
    const answered = api.create('1');
    answered.result = [{ resource: { href: 'h', id: 'c0'.padEnd(24, '0'), name: 'f0' } }, { error: { status: 404, code: 10225, message: 'Source does not exist.' } }];
    const job = tracker.add(answered, info());
    assert.strictEqual(job.state, 'SUBMITTED');
    assert.strictEqual(job.result!.length, 2, 'read from the POST answer, not assumed empty');
    await clock.tickAsync(2_000);
    assert.strictEqual(tracker.get('1')!.result!.length, 2, 'a GET answering result: [] keeps what is known');
    api.finish('1', 1);
    await clock.tickAsync(5_000);
    assert.strictEqual(tracker.get('1')!.state, 'FINISHED');
    assert.strictEqual(tracker.get('1')!.result!.length, 2);
  });

  it('follows a job of any type under its own path (a delete, a move), keeps its type, and gives it to whoever waits on its end', async () => {
    const tracker = make();
    const del = { ...api.create('7'), type: 'DELETE' };
    api.jobs.get('7')!.type = 'DELETE';
    const mv = { ...api.create('8'), type: 'MOVE' };
    api.jobs.get('8')!.type = 'MOVE';
    tracker.add(del, info());
    tracker.add(mv, info());
    const settled = tracker.settled(['7', '8']);
    let given: TrackedJob[] | undefined;
    void settled.then((jobs) => (given = jobs));
    await clock.tickAsync(2_000);
    // Two unfinished: the list refreshes both (one call), then nothing is missing.
    api.finish('7', 1);
    api.finish('8');
    await clock.tickAsync(5_000);
    assert.ok(api.calls.includes('get delete 7'), `the delete job's results asked for under delete: ${api.calls.join(', ')}`);
    assert.ok(api.calls.includes('get move 8'), `the move job's under move: ${api.calls.join(', ')}`);
    assert.ok(!api.calls.includes('get 7') && !api.calls.includes('get 8'), 'never under copy');
    await clock.tickAsync(0);
    assert.deepStrictEqual(given?.map((j) => [j.id, j.type, j.state, j.result?.length]), [
      ['7', 'DELETE', 'FINISHED', 2],
      ['8', 'MOVE', 'FINISHED', 2],
    ]);
    // Its type survives a reload (another tracker on the same stored state).
    const again = make();
    assert.deepStrictEqual(again.all().map((j) => j.type).sort(), ['DELETE', 'MOVE']);
  });

  it('keeps the choices a job was sent with (an import\'s), through a reload: Retry Failed Items sends them again', () => {
    const tracker = make();
    tracker.add({ ...api.create('9'), type: 'IMPORT' }, { ...info(1), type: 'IMPORT', choices: { onClash: 'overwrite', keepFolders: false } });
    tracker.add(api.create('10'), info(1));
    const again = make();
    assert.deepStrictEqual(again.get('9')?.choices, { onClash: 'overwrite', keepFolders: false });
    assert.ok(!('choices' in again.get('10')!), 'a copy has none');
  });

  it('settled: a job dismissed while waited on is given as it was last seen; one already finished at once', async () => {
    const tracker = make();
    tracker.add(api.create('1'), info());
    const waiting = tracker.settled(['1']);
    tracker.dismiss('1');
    // The dismiss fires a change: the waiter is let go with the job as it was.
    const dismissed = await Promise.race([waiting, clock.sleep(1).then(() => 'still waiting')]);
    assert.notStrictEqual(dismissed, 'still waiting');
    api.finish('1');
    tracker.add(api.jobs.get('1')!, info());
    assert.deepStrictEqual((await tracker.settled(['1'])).map((j) => j.state), ['FINISHED']);
  });

  it('waits briefly before the first look, then follows the job to FINISHED and fetches nothing more', async () => {
    const tracker = make();
    tracker.add(api.create('1'), info());
    await clock.tickAsync(1_999);
    assert.deepStrictEqual(api.calls, []);
    await clock.tickAsync(1);
    assert.deepStrictEqual(api.calls, ['get 1']);
    api.finish('1');
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(api.calls, ['get 1', 'get 1']);
    assert.strictEqual(tracker.get('1')!.state, 'FINISHED');
    assert.strictEqual(tracker.get('1')!.result!.length, 2);
    await clock.tickAsync(10 * 60_000);
    assert.strictEqual(api.calls.length, 2, 'no polling once nothing is unfinished');
    assert.strictEqual(tracker.nextPollAt, undefined);
  });

  it('by default looks after 1 s, then every 1 s + 10 % of the job\'s age, up to 60 s, whether or not anything changes', async () => {
    const tracker = new JobTracker(api, store, clock);
    trackers.push(tracker);
    tracker.add(api.create('1'), info());
    const times: number[] = [];
    const start = clock.now();
    const origGet = api.get.bind(api);
    api.get = async (id: string) => {
      times.push(clock.now() - start);
      return origGet(id);
    };
    await clock.tickAsync(15 * 60_000);
    // Each look comes at most 1 s + 10 % of the time before it: a job finishing just after a look is seen
    // within 1 s + 10 % of its running time.
    assert.deepStrictEqual(times.slice(0, 4), [1_000, 2_100, 3_310, 4_641]);
    for (let i = 1; i < times.length; i++) {
      assert.ok(times[i] - times[i - 1] <= Math.min(60_000, 1_000 + 0.1 * times[i - 1]) + 1, `look ${i} came ${times[i] - times[i - 1]} ms after the one before`);
    }
    assert.strictEqual(times[times.length - 1] - times[times.length - 2], 60_000, 'at most 60 s apart');
    const firstMinute = times.filter((t) => t <= 60_000).length;
    assert.strictEqual(firstMinute, 20);
    api.progress('1', 1, 2);
    const count = times.length;
    await clock.tickAsync(60_000);
    assert.strictEqual(times.length, count + 1, 'progress does not bring the looks closer again');
  });

  it('is seen FINISHED within 1 s + 10 % of its running time, for jobs short and long', async () => {
    for (const runningMs of [300, 3_000, 45_000, 20 * 60_000]) {
      const tracker = new JobTracker(api, store, clock);
      trackers.push(tracker);
      const id = `r${runningMs}`;
      tracker.add(api.create(id), info());
      let seenAt: number | undefined;
      tracker.onDidFinish(() => (seenAt = clock.now()));
      const start = clock.now();
      await clock.tickAsync(runningMs);
      api.finish(id);
      await clock.tickAsync(1_000 + 0.1 * runningMs);
      assert.ok(seenAt !== undefined, `a job of ${runningMs} ms was not seen within ${1_000 + 0.1 * runningMs} ms`);
      assert.ok(seenAt - start - runningMs <= 1_000 + 0.1 * runningMs);
      tracker.dispose();
    }
  });

  it('paces one list call for many jobs by the newest of them', async () => {
    const tracker = new JobTracker(api, store, clock);
    trackers.push(tracker);
    tracker.add(api.create('old'), info());
    await clock.tickAsync(10 * 60_000);
    tracker.add(api.create('new'), info());
    api.calls = [];
    await clock.tickAsync(1_000);
    assert.deepStrictEqual(api.calls, ['list 0 100'], 'a new job: a look after 1 s, one list for both');
    await clock.tickAsync(1_100);
    assert.deepStrictEqual(api.calls, ['list 0 100', 'list 0 100'], 'paced by the new job, not the 10-minute-old one');
  });

  it('refreshes several unfinished jobs with one list call, then fetches results once for each finished job', async () => {
    const tracker = make();
    for (const id of ['1', '2', '3']) tracker.add(api.create(id), info());
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['list 0 100']);
    api.progress('1', 1, 2);
    api.finish('2');
    api.calls = [];
    await clock.tickAsync(5_000);
    // One list refreshes all three; job 2 finished without results in the list → one GET for them.
    assert.deepStrictEqual(api.calls, ['list 0 100', 'get 2']);
    assert.strictEqual(tracker.get('2')!.result!.length, 2);
    assert.strictEqual(tracker.get('1')!.completed, 1);
    api.finish('1');
    api.finish('3', 1);
    api.calls = [];
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(api.calls.sort(), ['get 1', 'get 3', 'list 0 100']);
    assert.strictEqual(tracker.active().length, 0);
    assert.strictEqual(tracker.get('3')!.failed, 1);
  });

  it('a job FINISHED with empty results is fetched once more for them, then no longer followed', async () => {
    const tracker = make();
    for (const id of ['1', '2']) tracker.add(api.create(id), info());
    api.finish('1');
    // The platform has no per-item results for it, not even in its own record.
    api.jobs.get('1')!.result = [];
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['list 0 100', 'get 1'], 'seen FINISHED in the list without results: one GET for them');
    api.finish('2');
    api.calls = [];
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(api.calls, ['get 2'], 'job 1 is not asked about again');
    api.calls = [];
    await clock.tickAsync(30 * 60_000);
    assert.deepStrictEqual(api.calls, [], 'nothing followed any more');
    assert.deepStrictEqual([tracker.get('1')!.state, tracker.get('1')!.result ?? []], ['FINISHED', []]);
  });

  it('uses the list results directly when the list carries them', async () => {
    api.listHasResults = true;
    const tracker = make();
    for (const id of ['1', '2']) tracker.add(api.create(id), info());
    api.finish('1');
    api.finish('2');
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['list 0 100']);
    assert.strictEqual(tracker.active().length, 0);
  });

  it('reads the next page of the list for jobs beyond the first, when that costs fewer requests than a GET each', async () => {
    const tracker = make();
    tracker.add(api.create('1'), info());
    tracker.add(api.create('2'), info());
    api.extraNewer = 100; // 100 newer jobs of other types push ours off the first page
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['list 0 100', 'list 100 100']);
  });

  it('asks for a job not seen with a GET when that costs fewer requests than the pages left', async () => {
    const tracker = make();
    tracker.add(api.create('1'), info());
    tracker.add(api.create('2'), info());
    api.extraBetween = 300; // job 2 on the first page, job 1 three pages further
    api.progress('1', 1, 2);
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['list 0 100', 'get 1']);
    assert.strictEqual(tracker.get('1')!.completed, 1);
  });

  it('follows hundreds of jobs with a page of the list per 100 of them, and no GET', async () => {
    const tracker = make();
    for (let i = 1; i <= 250; i++) tracker.add(api.create(String(i)), info());
    for (let i = 1; i <= 250; i++) api.progress(String(i), 1, 2);
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['list 0 100', 'list 100 100', 'list 200 100']);
    assert.ok(tracker.active().every((job) => job.completed === 1));
  });

  it('looks less often while the API budget is low', async () => {
    const budget = new ApiBudget(clock);
    const tracker = make({ budget });
    tracker.add(api.create('1'), info());
    await clock.tickAsync(2_000);
    assert.strictEqual(tracker.nextPollAt, clock.now() + 5_000, 'the rule\'s 5 s while nothing is known of the budget');
    // 50 of 1,000 left, the reset 200 s away: after the next look (5 s later), a look of 1 request may come every
    // 2 × 195 s / 50 = 7.8 s, so that looks spend at most half of what is left.
    budget.set('e', { limit: 1000, remaining: 50, reset: clock.nowSeconds + 200 });
    await clock.tickAsync(5_000);
    assert.strictEqual(tracker.nextPollAt, clock.now() + 7_800, 'the next look waits by the budget (what is left, until its reset)');
  });

  it('announces each finish once, with its results', async () => {
    const tracker = make();
    const finished: TrackedJob[] = [];
    tracker.onDidFinish((job) => finished.push(job));
    tracker.add(api.create('1'), info());
    api.finish('1', 1);
    await clock.tickAsync(2_000);
    await clock.tickAsync(60_000);
    assert.strictEqual(finished.length, 1);
    assert.strictEqual(finished[0].failed, 1);
    assert.strictEqual(finished[0].result!.length, 2);
  });

  it('keeps jobs in global state and resumes following them after a reload', async () => {
    const first = make();
    first.add(api.create('1'), info());
    first.add(api.create('2'), info());
    api.finish('2');
    await clock.tickAsync(2_000);
    first.dispose();
    assert.strictEqual(store.get<{ jobs: TrackedJob[] }>('sevenbridges.copyJobs')!.jobs.length, 2);

    api.calls = [];
    const second = make();
    assert.deepStrictEqual(second.all().map((j) => [j.id, j.state]), [['2', 'FINISHED'], ['1', 'SUBMITTED']]);
    assert.deepStrictEqual(second.get('1')!.items, info().items);
    api.finish('1');
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['get 1']);
    assert.strictEqual(second.get('1')!.state, 'FINISHED');
  });

  it('keeps the jobs another window stored (shared global state), and not the ones dismissed here', async () => {
    const a = make();
    const b = make();
    a.add(api.create('1'), info());
    b.add(api.create('2'), info());
    const stored = () => store.get<{ jobs: TrackedJob[] }>('sevenbridges.copyJobs')!.jobs.map((j) => j.id).sort();
    assert.deepStrictEqual(stored(), ['1', '2']);
    b.dismiss('2');
    a.acknowledge();
    assert.deepStrictEqual(stored(), ['1']);
    assert.deepStrictEqual(b.all().map((j) => j.id), [], 'the other window only keeps them, it does not follow them');
  });

  it('follows, lists and shows only the jobs of the account in use (endpoint and user); switching back resumes them', async () => {
    const mine = 'https://api.sbgenomics.com/v2#rfranklin';
    let account: string | undefined = mine;
    const tracker = make({ account: () => account });
    tracker.add(api.create('1'), info());
    assert.strictEqual(tracker.get('1')!.account, mine, 'the account is recorded');
    // Another token for the same platform: the job is not asked with it (it would be unknown there).
    for (const other of ['https://api.sbgenomics.com/v2#colleague', 'https://cgc-api.sbgenomics.com/v2#rfranklin', undefined]) {
      account = other;
      tracker.resume();
      await clock.tickAsync(60_000);
      assert.deepStrictEqual(api.calls, [], `nothing asked as ${other}`);
      assert.deepStrictEqual([tracker.all(), tracker.active(), tracker.get('1'), tracker.has('1')], [[], [], undefined, false]);
    }
    account = 'https://api.sbgenomics.com/v2#colleague';
    tracker.dismiss('1');
    tracker.add(api.create('2'), info());
    assert.deepStrictEqual(tracker.all().map((j) => j.id), ['2']);
    assert.deepStrictEqual(store.get<{ jobs: TrackedJob[] }>('sevenbridges.copyJobs')!.jobs.map((j) => [j.id, j.account]).sort(), [
      ['1', mine],
      ['2', 'https://api.sbgenomics.com/v2#colleague'],
    ], "the other account's job is kept, untouched, not dismissed from here");
    api.finish('1');
    account = mine;
    api.calls = [];
    tracker.resume();
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['get 1']);
    assert.strictEqual(tracker.get('1')!.state, 'FINISHED');
  });

  it('does not mark a job UNKNOWN from an answer given to the account the user switched to while asking', async () => {
    let account = 'e#a';
    const tracker = make({ account: () => account });
    tracker.add({ href: 'h', id: '78', state: 'RUNNING' }, info());
    const get = api.get.bind(api);
    api.get = async (id: string) => {
      account = 'e#b'; // switched while the GET was on its way: the other account answers 404
      return get(id);
    };
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(api.calls, ['get 78'], 'the job was asked about, and the answer (404) came to the other account');
    account = 'e#a';
    assert.strictEqual(tracker.get('78')!.state, 'RUNNING');
    assert.deepStrictEqual(tracker.active().map((j) => j.id), ['78'], 'still followed');
    assert.strictEqual(tracker.get('78')!.lastError, undefined, "the other account's answer left no mark on it");
  });

  it('gives a job recorded by an older version (a platform, no user) to the first account signed in on that platform', async () => {
    await store.update('sevenbridges.copyJobs', { version: 1, jobs: [{ id: '5', submittedAt: 0, state: 'FINISHED', result: [], endpoint: 'https://cavatica-api.sbgenomics.com/v2', ...info() }] });
    let account: string | undefined = 'https://api.sb.biodatacatalyst.nhlbi.nih.gov/v2#rfranklin';
    const tracker = make({ account: () => account });
    assert.deepStrictEqual(tracker.all(), [], 'not to an account on another platform');
    account = 'https://cavatica-api.sbgenomics.com/v2#rfranklin';
    const writes = store.writes;
    assert.strictEqual(tracker.get('5'), undefined, 'reading claims nothing');
    assert.deepStrictEqual([store.writes, store.get<{ jobs: TrackedJob[] }>('sevenbridges.copyJobs')!.jobs[0].account], [writes, undefined], 'and writes nothing');
    tracker.resume(); // the session's account changed
    assert.strictEqual(tracker.get('5')!.account, 'https://cavatica-api.sbgenomics.com/v2#rfranklin');
    assert.strictEqual(store.get<{ jobs: TrackedJob[] }>('sevenbridges.copyJobs')!.jobs[0].account, 'https://cavatica-api.sbgenomics.com/v2#rfranklin', 'written so');
    account = 'https://cavatica-api.sbgenomics.com/v2#colleague';
    assert.deepStrictEqual(make({ account: () => account }).all(), [], 'a later account on the same platform does not take it');
  });

  it('marks a job the platform no longer knows as UNKNOWN and stops asking', async () => {
    const tracker = make();
    tracker.add({ href: 'h', id: '77', state: 'RUNNING' }, info());
    await clock.tickAsync(2_000);
    assert.strictEqual(tracker.get('77')!.state, 'UNKNOWN');
    await clock.tickAsync(120_000);
    assert.deepStrictEqual(api.calls, ['get 77']);
  });

  it('backs off on a transient error and pauses on a rejected token until resumed', async () => {
    const tracker = make();
    tracker.add(api.create('1'), info());
    api.failNext = new ApiError({ kind: 'network', message: 'ECONNRESET' });
    await clock.tickAsync(2_000);
    assert.strictEqual(api.calls.length, 1);
    await clock.tickAsync(9_999);
    assert.strictEqual(api.calls.length, 1, 'interval doubled after the error');
    await clock.tickAsync(1);
    assert.strictEqual(api.calls.length, 2);
    api.failNext = new ApiError({ kind: 'http', status: 401, message: 'Unauthorized' });
    await clock.tickAsync(20_000);
    assert.strictEqual(api.calls.length, 3);
    await clock.tickAsync(10 * 60_000);
    assert.strictEqual(api.calls.length, 3, 'paused after a 401');
    tracker.resume();
    await clock.tickAsync(2_000);
    assert.strictEqual(api.calls.length, 4);
  });

  it('spaces polls at the maximum while the window is unfocused', async () => {
    const tracker = make();
    tracker.add(api.create('1'), info());
    tracker.setFocused(false);
    await clock.tickAsync(2_000);
    assert.strictEqual(api.calls.length, 1);
    await clock.tickAsync(59_999);
    assert.strictEqual(api.calls.length, 1);
    await clock.tickAsync(1);
    assert.strictEqual(api.calls.length, 2);
  });

  it('dismisses and acknowledges jobs, and prunes old finished ones', async () => {
    const tracker = make({ maxJobs: 2 });
    for (const id of ['1', '2', '3']) {
      api.create(id);
      api.finish(id);
      tracker.add((await api.get(id)), info());
      await clock.tickAsync(1_000);
    }
    assert.deepStrictEqual(tracker.all().map((j) => j.id), ['3', '2']);
    tracker.acknowledge();
    assert.ok(tracker.all().every((j) => j.acknowledged));
    tracker.dismiss('3');
    assert.deepStrictEqual(tracker.all().map((j) => j.id), ['2']);
  });

  it('follows 10 jobs for a minute with few requests (batch refresh)', async () => {
    const tracker = new JobTracker(api, store, clock);
    trackers.push(tracker);
    for (let i = 0; i < 10; i++) tracker.add(api.create(String(i + 1)), info());
    api.calls = [];
    for (let s = 0; s < 60; s += 5) {
      for (let i = 0; i < 10; i++) api.progress(String(i + 1), Math.min(2, 1 + (s % 2)), 2);
      await clock.tickAsync(5_000);
    }
    const lists = api.calls.filter((c) => c.startsWith('list')).length;
    const gets = api.calls.filter((c) => c.startsWith('get')).length;
    console.log(`      following 10 jobs for 60 s: ${lists} list calls, ${gets} get calls`);
    // One list a look: as many as one job needs in its first minute (20), not one per job.
    assert.ok(lists + gets <= 20, `spent ${lists + gets} requests`);
    assert.strictEqual(gets, 0);
    assert.strictEqual(tracker.active().length, 10);
  });
});
