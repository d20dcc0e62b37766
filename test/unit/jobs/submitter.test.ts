import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import type { AsyncJob, CopyItem, Page } from '../../../src/api/types';
import { planCopy } from '../../../src/copy/request';
import { MemoryStore } from '../../../src/jobs/store';
import { CopySource, CopySubmitter, fits, PendingCopy } from '../../../src/jobs/submitter';
import { JobTracker } from '../../../src/jobs/tracker';
import { Emulator, startEmulator } from '../../emulator';

const dest = (project: string, parent?: string) => ({ label: parent ? `${project} › x` : project, project, parent });

describe('CopySubmitter against the emulator', () => {
  let emu: Emulator;
  let client: SbClient;
  let store: MemoryStore;
  let tracker: JobTracker;
  let submitter: CopySubmitter;

  const sourceFiles = (n: number) => emu.data.files.filter((f) => f.type === 'file' && f.project === emu.data.projects[0].id).slice(0, n);
  const target = () => emu.data.projects[1];
  /** The platform answers the next POST with a 429 (the GETs before it go through). */
  const rateLimitedPost = (): CopySource => ({
    submit: (items, signal) => {
      emu.burst429(1, 1);
      return client.copyJobs.submit(items, signal);
    },
    get: (id) => client.copyJobs.get(id),
    list: (page) => client.copyJobs.list(page),
  });

  beforeEach(async () => {
    emu = await startEmulator({ copyStepMs: 50, files: 1500 });
    client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), maxRetries: 1, backoffMs: 10 });
    store = new MemoryStore();
    // Polling far away: these tests drive the submitter, not the schedule.
    tracker = new JobTracker(client.copyJobs, store, undefined, { firstDelayMs: 3_600_000 });
    submitter = new CopySubmitter(client.copyJobs, tracker, store);
  });
  afterEach(async () => {
    tracker.dispose();
    await emu.close();
  });

  it('sends a split copy as one call per batch, each followed as its own job', async () => {
    const files = sourceFiles(120);
    assert.ok(files.length >= 101, 'enough seeded files');
    const plan = planCopy({ sources: files.map((f) => f.id), destination: { kind: 'projectRoot', project: target().id }, maxItemsPerRequest: 50 });
    assert.ok(plan.ok);
    const report = await submitter.submitAll(plan.batches, { destination: dest(target().id) });
    assert.strictEqual(report.failed, undefined);
    assert.strictEqual(report.submitted.length, plan.batches.length);
    assert.deepStrictEqual(emu.copyRequests.map((r) => (r.items as unknown[]).length), plan.batches.map((b) => b.length));
    assert.deepStrictEqual(emu.copyRequests[0].items, plan.batches[0]);
    assert.deepStrictEqual(submitter.list(), []);
    assert.strictEqual(tracker.all().length, plan.batches.length);
    assert.deepStrictEqual(store.get('sevenbridges.copyPending'), []);
  });

  it('keeps a call refused by a rate limit, and sends it once more only when asked', async () => {
    const files = sourceFiles(3);
    const items = files.map((f) => ({ file: f.id, project: target().id }));
    const limited = new CopySubmitter(rateLimitedPost(), tracker, store);
    const report = await limited.submitAll([items], { destination: dest(target().id) });
    assert.ok(report.failed);
    assert.strictEqual(report.failed.maybeDelivered, false);
    assert.ok(report.failed.error instanceof ApiError && report.failed.error.isRateLimited);
    assert.strictEqual(emu.copyRequests.length, 0);
    assert.strictEqual(limited.list().length, 1);
    assert.deepStrictEqual(limited.list()[0].items, items);

    await new Promise((r) => setTimeout(r, 300));
    assert.strictEqual(emu.copyRequests.length, 0, 'nothing is sent again by itself');

    const again = await new CopySubmitter(client.copyJobs, tracker, store).resubmit(report.group);
    assert.strictEqual(again.submitted.length, 1);
    assert.strictEqual(emu.copyRequests.length, 1);
    assert.deepStrictEqual(emu.copyRequests[0].items, items, 'exactly the same request');
    assert.deepStrictEqual(store.get('sevenbridges.copyPending'), []);
  });

  it('after a lost answer, finds the job on the platform and adopts it instead of sending again', async () => {
    const files = sourceFiles(4);
    const items = files.map((f) => ({ file: f.id, project: target().id }));
    emu.loseNextCopyResponse();
    const report = await submitter.submitAll([items], { destination: dest(target().id) });
    assert.ok(report.failed);
    assert.strictEqual(report.failed.maybeDelivered, true);
    assert.strictEqual(emu.copyRequests.length, 1);
    const created = emu.copyRequests[0].jobId!;
    const pending = submitter.list()[0];
    assert.strictEqual(pending.maybeDelivered, true);

    const check = await submitter.findDelivered(pending);
    assert.strictEqual(check.kind, 'found');
    assert.strictEqual(check.kind === 'found' && check.job.id, created);

    // "Submit Again" on such a call checks first: the job is adopted, nothing is posted.
    const again = await submitter.resubmit(report.group);
    assert.strictEqual(again.submitted.length, 1);
    assert.strictEqual(again.submitted[0].id, created);
    assert.strictEqual(again.submitted[0].adopted, true);
    assert.strictEqual(emu.copyRequests.length, 1, 'never submitted twice');
    assert.deepStrictEqual(submitter.list(), []);
  });

  it('after a lost answer and a finished job, matches it by its results', async () => {
    const files = sourceFiles(2);
    const items = files.map((f) => ({ file: f.id, project: target().id }));
    emu.loseNextCopyResponse();
    const report = await submitter.submitAll([items], { destination: dest(target().id) });
    assert.ok(report.failed?.maybeDelivered);
    await new Promise((r) => setTimeout(r, 400));
    await client.copyJobs.list({ limit: 1 }); // lets the emulator move jobs on
    const check = await submitter.findDelivered(submitter.list()[0]);
    assert.strictEqual(check.kind, 'found');
    assert.strictEqual(check.kind === 'found' && check.job.state, 'FINISHED');
  });

  it('keeps unsubmitted calls across a reload; one sent when the window closed counts as maybe delivered', async () => {
    const items = sourceFiles(1).map((f) => ({ file: f.id, project: target().id }));
    await new CopySubmitter(rateLimitedPost(), tracker, store).submitAll([items], { destination: dest(target().id) });
    const saved = store.get<PendingCopy[]>('sevenbridges.copyPending')!;
    assert.strictEqual(saved.length, 1);
    saved[0].inFlight = true;
    // Marked in flight longer ago than a call can take: its window closed (a recent mark may be another window's live call).
    saved[0].lastAttemptAt = Date.now() - 10 * 60_000;
    await store.update('sevenbridges.copyPending', saved);
    const reloaded = new CopySubmitter(client.copyJobs, tracker, store);
    assert.strictEqual(reloaded.list().length, 1);
    assert.strictEqual(reloaded.list()[0].maybeDelivered, true);
  });

  it('stops at the first failed call and keeps the rest unsent', async () => {
    const files = sourceFiles(6);
    const batches = [files.slice(0, 2), files.slice(2, 4), files.slice(4, 6)].map((b) => b.map((f) => ({ file: f.id, project: target().id })));
    let posts = 0;
    const api: CopySource = {
      submit: async (items: CopyItem[]) => {
        posts++;
        if (posts === 2) throw new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance' });
        return client.copyJobs.submit(items);
      },
      get: (id) => client.copyJobs.get(id),
      list: (page) => client.copyJobs.list(page),
    };
    const local = new CopySubmitter(api, tracker, store);
    const report = await local.submitAll(batches, { destination: dest(target().id) });
    assert.strictEqual(report.submitted.length, 1);
    assert.strictEqual(report.notSent.length, 1);
    assert.strictEqual(local.list().length, 2);
    assert.strictEqual(posts, 2);
    const again = await local.resubmit(report.group);
    assert.strictEqual(again.submitted.length, 2);
    assert.strictEqual(posts, 4);
    assert.deepStrictEqual(local.list(), []);
  });
});

describe('CopySubmitter: telling a lost call from other jobs', () => {
  const job = (id: string, extra: Partial<AsyncJob> = {}): AsyncJob => ({ href: 'h', id, type: 'COPY', state: 'SUBMITTED', result: [], ...extra });
  const items = [
    { file: 'a'.repeat(24), parent: 'f'.repeat(24) },
    { file: 'b'.repeat(24), parent: 'f'.repeat(24) },
  ];
  const make = (listed: AsyncJob[], details: Record<string, AsyncJob> = {}) => {
    const calls: string[] = [];
    const api: CopySource = {
      submit: async () => {
        calls.push('submit');
        throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
      },
      get: async (id) => {
        calls.push(`get ${id}`);
        return details[id] ?? job(id);
      },
      list: async (): Promise<Page<AsyncJob>> => {
        calls.push('list');
        return { items: listed, total: listed.length, next: undefined };
      },
    };
    const store = new MemoryStore();
    const tracker = new JobTracker(api, store, undefined, { firstDelayMs: 3_600_000 });
    return { api, calls, submitter: new CopySubmitter(api, tracker, store), tracker };
  };
  const pending = (extra: Partial<PendingCopy> = {}): PendingCopy => ({
    key: 'k',
    group: 'g',
    items,
    destination: { label: 'x', project: 'rfranklin/dest', parent: 'f'.repeat(24) },
    createdAt: Date.now(),
    lastAttemptAt: Date.now(),
    attempts: 1,
    maybeDelivered: true,
    newestJobBefore: '100',
    ...extra,
  });

  it('ignores jobs older than the attempt and jobs of other types', async () => {
    const { submitter } = make([job('103', { type: 'DELETE' }), job('100'), job('99')]);
    const check = await submitter.findDelivered(pending());
    assert.deepStrictEqual(check, { kind: 'none', newestJob: '103' });
  });

  it('adopts a single new copy job even before it has results', async () => {
    const { submitter } = make([job('101'), job('100')]);
    const check = await submitter.findDelivered(pending());
    assert.strictEqual(check.kind === 'found' && check.job.id, '101');
  });

  it('refuses to guess between two unfinished new jobs', async () => {
    const { submitter } = make([job('102'), job('101'), job('100')]);
    const check = await submitter.findDelivered(pending());
    assert.deepStrictEqual(check, { kind: 'ambiguous', candidates: ['102', '101'] });
  });

  it('picks the new job whose results fit (item count and destination)', async () => {
    const copy = (parent: string) => ({ resource: { href: 'h', id: 'c'.repeat(24), name: 'n', project: 'rfranklin/dest', parent } });
    const good = job('101', { state: 'FINISHED', result: [copy('f'.repeat(24)), { error: { code: 10223, message: 'exists' } }] });
    const wrongCount = job('102', { state: 'FINISHED', result: [copy('f'.repeat(24))] });
    const wrongPlace = job('103', { state: 'FINISHED', result: [copy('e'.repeat(24)), copy('e'.repeat(24))] });
    const { submitter, calls } = make([wrongPlace, wrongCount, { ...good, result: undefined }, job('100')], { '101': good });
    const check = await submitter.findDelivered(pending());
    assert.strictEqual(check.kind === 'found' && check.job.id, '101');
    assert.ok(calls.includes('get 101'), 'details fetched for a finished job listed without results');
    assert.strictEqual(fits(pending(), wrongPlace), 'no');
    assert.strictEqual(fits(pending(), wrongCount), 'no');
  });

  it('without a snapshot, skips jobs started well before the attempt', async () => {
    const old = job('105', { started_on: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19) + 'Z' });
    const { submitter } = make([old]);
    const check = await submitter.findDelivered(pending({ newestJobBefore: undefined }));
    assert.strictEqual(check.kind, 'none');
  });

  it('does not send a call whose delivery cannot be ruled out', async () => {
    const { submitter, calls } = make([job('102'), job('101'), job('100')]);
    const store = new MemoryStore();
    await store.update('sevenbridges.copyPending', [pending()]);
    const reloaded = new CopySubmitter(
      { submit: async () => { calls.push('submit'); throw new Error('no'); }, get: async (id) => job(id), list: async () => ({ items: [job('102'), job('101'), job('100')], total: 3, next: undefined }) },
      new JobTracker({ get: async (id) => job(id), list: async () => ({ items: [], total: 0, next: undefined }) }, new MemoryStore(), undefined, { firstDelayMs: 3_600_000 }),
      store,
    );
    void submitter;
    const report = await reloaded.resubmit('g');
    assert.ok(report.failed);
    assert.ok(!calls.includes('submit'), 'ambiguous: nothing posted');
    assert.match(String((report.failed.error as Error).message), /2 copy jobs/);
  });
});

/** A platform in memory for the copy calls: counts the POSTs, can refuse, lose or hold the next one. */
class FakeCopyPlatform implements CopySource {
  jobs: AsyncJob[] = [];
  posts: CopyItem[][] = [];
  private nextId = 100;
  /** 'refuse': a 429 before anything is done; 'lose': the job is made but the answer is lost. */
  nextFault: 'refuse' | 'lose' | undefined;
  /** While set, POSTs wait for it. */
  gate: Promise<void> | undefined;

  async submit(items: CopyItem[]): Promise<AsyncJob> {
    this.posts.push(items);
    const fault = this.nextFault;
    this.nextFault = undefined;
    if (this.gate) await this.gate;
    if (fault === 'refuse') throw new ApiError({ kind: 'http', status: 429, message: 'Too many requests', maybeDelivered: false });
    const job: AsyncJob = { href: 'h', id: String(this.nextId++), type: 'COPY', state: 'SUBMITTED', result: [] };
    this.jobs.unshift(job);
    if (fault === 'lose') throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
    return { ...job };
  }
  async get(id: string): Promise<AsyncJob> {
    const job = this.jobs.find((j) => j.id === id);
    if (!job) throw new ApiError({ kind: 'http', status: 404, code: 10211, message: 'Async job not found.' });
    return { ...job };
  }
  async list(page: { offset?: number; limit?: number } = {}): Promise<Page<AsyncJob>> {
    const offset = page.offset ?? 0;
    return { items: this.jobs.slice(offset, offset + (page.limit ?? 25)).map((j) => ({ ...j })), total: this.jobs.length, next: undefined };
  }
  postsOf(items: CopyItem[]): number {
    return this.posts.filter((p) => JSON.stringify(p) === JSON.stringify(items)).length;
  }
}

describe('CopySubmitter: windows sharing global state', () => {
  const items = (first: string) => [{ file: first.repeat(24), project: 'rfranklin/dest' }];
  const destination = dest('rfranklin/dest');
  let api: FakeCopyPlatform;
  let store: MemoryStore;
  let endpoint: string;
  const trackers: JobTracker[] = [];
  /** One VS Code window: its own tracker and submitter on the global state every window shares. */
  const window = (options: { inFlightLeaseMs?: number } = {}) => {
    const tracker = new JobTracker(api, store, undefined, { firstDelayMs: 3_600_000, endpoint: () => endpoint });
    trackers.push(tracker);
    return { tracker, submitter: new CopySubmitter(api, tracker, store, undefined, options) };
  };
  const stored = () => store.get<PendingCopy[]>('sevenbridges.copyPending') ?? [];

  beforeEach(() => {
    api = new FakeCopyPlatform();
    store = new MemoryStore();
    endpoint = 'https://api.sbgenomics.com/v2';
  });
  afterEach(() => trackers.splice(0).forEach((t) => t.dispose()));

  it('a call sent again in one window is not brought back by the other, and is sent exactly once', async () => {
    const a = window();
    api.nextFault = 'refuse';
    const report = await a.submitter.submitAll([items('a')], { destination });
    assert.strictEqual(report.failed?.maybeDelivered, false);
    const b = window();
    assert.strictEqual(b.submitter.list().length, 1, 'the other window knows the call');

    const again = await a.submitter.resubmit(report.group);
    assert.strictEqual(again.submitted.length, 1);
    assert.deepStrictEqual(stored(), []);

    // The other window writes (a copy of its own), then the user presses "Submit Again" there.
    await b.submitter.submitAll([items('b')], { destination });
    assert.deepStrictEqual(stored(), [], 'the call sent by the first window is not written back');
    assert.deepStrictEqual(b.submitter.list(), []);
    const fromB = await b.submitter.resubmit(report.group);
    assert.deepStrictEqual([fromB.submitted.length, fromB.failed], [0, undefined]);
    assert.deepStrictEqual(window().submitter.list(), [], 'nor is it there after a reload');
    assert.strictEqual(api.postsOf(items('a')), 2, 'one refused POST, then exactly one that made the job');
    assert.strictEqual(api.jobs.length, 2, 'one job per copy');
  });

  it('a lost answer adopted in one window is not looked for or sent again by the other', async () => {
    const a = window();
    api.nextFault = 'lose';
    const report = await a.submitter.submitAll([items('a')], { destination });
    assert.strictEqual(report.failed?.maybeDelivered, true);
    const b = window();
    const adopted = await a.submitter.resubmit(report.group);
    assert.strictEqual(adopted.submitted[0]?.adopted, true);
    const fromB = await b.submitter.resubmit(report.group);
    assert.deepStrictEqual([fromB.submitted.length, fromB.failed], [0, undefined]);
    assert.strictEqual(api.postsOf(items('a')), 1, 'sent once');
    assert.strictEqual(await b.submitter.adopt(report.failed!.pending, api.jobs[0]), undefined, 'nor adopted twice');
  });

  it('leaves a call another window has on its way alone; once older than a call can take, it may have been delivered', async () => {
    const a = window();
    let release!: () => void;
    api.gate = new Promise((resolve) => (release = resolve));
    const sending = a.submitter.submitAll([items('a')], { destination });
    while (!stored().some((p) => p.inFlight)) await new Promise((r) => setTimeout(r, 1));
    const b = window();
    const seen = b.submitter.list();
    assert.deepStrictEqual([seen.length, seen[0].inFlight, seen[0].maybeDelivered], [1, true, false], 'not taken for a closed window');
    const fromB = await b.submitter.resubmit(seen[0].group);
    assert.deepStrictEqual([fromB.submitted.length, fromB.failed], [0, undefined], 'nothing sent from the other window');
    await b.submitter.markNotDelivered(seen[0].key);
    release();
    api.gate = undefined;
    const report = await sending;
    assert.strictEqual(report.submitted.length, 1);
    assert.deepStrictEqual(stored(), []);
    assert.strictEqual(api.posts.length, 1);

    // A window that closed while its call was on its way: past the lease the call is "may have been submitted".
    api.nextFault = 'lose';
    const lost = await a.submitter.submitAll([items('c')], { destination });
    await store.update('sevenbridges.copyPending', stored().map((p) => ({ ...p, inFlight: true, owner: 'closed', lastError: undefined })));
    const c = window({ inFlightLeaseMs: 50 });
    assert.strictEqual(c.submitter.list()[0].inFlight, true);
    await new Promise((r) => setTimeout(r, 60));
    const late = c.submitter.list()[0];
    assert.deepStrictEqual([late.inFlight, late.maybeDelivered], [false, true]);
    assert.match(late.lastError!, /window closed before the platform answered/);
    const found = await c.submitter.resubmit(lost.group);
    assert.strictEqual(found.submitted[0]?.adopted, true, 'looked for and found, not sent again');
    assert.strictEqual(api.postsOf(items('c')), 1);
  });

  it('does not adopt a job another window recorded, even one its own tracker has not read', async () => {
    const b = window();
    await store.update('sevenbridges.copyPending', [
      { key: 'k', group: 'g', items: items('a'), destination, endpoint, createdAt: Date.now(), lastAttemptAt: Date.now(), attempts: 1, maybeDelivered: true, newestJobBefore: null },
    ]);
    const a = window();
    await a.submitter.submitAll([items('a')], { destination }); // the same files, sent from the first window
    assert.strictEqual(a.tracker.all().length, 1);
    assert.strictEqual(b.tracker.all().length, 0, 'the second window has not read it');
    const check = await b.submitter.findDelivered(b.submitter.list().find((p) => p.key === 'k')!);
    assert.deepStrictEqual(check, { kind: 'none', newestJob: a.tracker.all()[0].id });
  });

  it('trusts its own recent writes over a stale read of global state (VS Code echoes older writes back)', async () => {
    const a = window();
    api.nextFault = 'refuse';
    const report = await a.submitter.submitAll([items('a')], { destination });
    const withEntry = stored();
    // An echo of the state before the call was stored: it looks as if another window had removed it.
    await store.update('sevenbridges.copyPending', []);
    assert.strictEqual(a.submitter.list().length, 1, 'not taken for a removal');
    const sent = await a.submitter.resubmit(report.group);
    assert.strictEqual(sent.submitted.length, 1);
    // An echo of the state before it was sent: it does not bring the call back.
    await store.update('sevenbridges.copyPending', withEntry);
    assert.deepStrictEqual([a.submitter.list(), window().submitter.list()], [[], []]);
    assert.deepStrictEqual((await a.submitter.resubmit(report.group)).submitted, []);
    assert.strictEqual(api.postsOf(items('a')), 2, 'one refused POST, one that made the job');
  });

  it('records the platform of each call, and lists, checks and sends only those of the platform in use', async () => {
    const legacy = { key: 'old', group: 'g0', items: items('d'), destination, createdAt: Date.now(), attempts: 1, maybeDelivered: false };
    await store.update('sevenbridges.copyPending', [legacy]);
    const w = window();
    assert.strictEqual(stored()[0].endpoint, 'https://api.sbgenomics.com/v2', 'an older record is the platform in use when first read, and written so');
    api.nextFault = 'refuse';
    const report = await w.submitter.submitAll([items('a')], { destination });
    assert.strictEqual(w.submitter.group(report.group)[0].endpoint, 'https://api.sbgenomics.com/v2');

    endpoint = 'https://cgc-api.sbgenomics.com/v2';
    assert.deepStrictEqual(w.submitter.list(), [], 'another platform: not listed');
    assert.deepStrictEqual(window().submitter.list(), [], 'nor taken for the new platform by a window opened now');
    const wrong = await w.submitter.resubmit(report.group);
    assert.deepStrictEqual([wrong.submitted.length, api.posts.length], [0, 1], 'nothing sent to the wrong platform');
    await assert.rejects(w.submitter.findDelivered(stored().find((p) => p.group === report.group)!), /select that platform/);

    endpoint = 'https://api.sbgenomics.com/v2';
    const again = await w.submitter.resubmit(report.group);
    assert.strictEqual(again.submitted.length, 1);
    assert.strictEqual(again.submitted[0].endpoint, 'https://api.sbgenomics.com/v2', 'the job records its platform');
    assert.deepStrictEqual(w.submitter.list().map((p) => p.key), ['old']);
  });
});
