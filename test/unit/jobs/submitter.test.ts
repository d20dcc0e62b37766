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
