// 3. Jobs survive a window reload: the tracker and the submitter are disposed and new ones built on the same
// persisted store (global state); no job is lost, and the new tracker follows each one to FINISHED.
import * as assert from 'assert';
import type { CopyItem } from '../../src/api/types';
import { CopySubmitter, type SubmitterOptions } from '../../src/jobs/submitter';
import { JobTracker, type TrackedJob } from '../../src/jobs/tracker';
import { copySetup, settle, type CopySetup } from './copyKit';
import { accountCopies, makeClient, note, shown, waitFor } from './support';

describe('3. jobs survive a window reload', function () {
  this.timeout(60_000);
  const disposables: { dispose(): void }[] = [];
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
  });

  /** The window after a reload: a new client, tracker and submitter on what was persisted. */
  const reload = (s: CopySetup, store = s.store, options: SubmitterOptions = {}) => {
    const client = makeClient(s.emu.baseUrl);
    const tracker = new JobTracker(client.copyJobs, store, undefined, s.trackerOptions);
    const submitter = new CopySubmitter(client.copyJobs, tracker, store, undefined, options);
    disposables.push(tracker, submitter);
    const finished: TrackedJob[] = [];
    tracker.onDidFinish((job) => finished.push(job));
    return { client, tracker, submitter, finished };
  };

  it('a reload while copies run (under 10% 500s and 5% drops) loses no job; the new tracker follows each to FINISHED', async () => {
    const s = await copySetup({ faults: { error500Rate: 0.1, dropRate: 0.05 }, copyStepMs: 150 });
    disposables.push(s.tracker, s.submitter);
    const requested: CopyItem[] = [];
    // Three copies: one of 60 files (several RUNNING steps), two small ones.
    for (const [from, count] of [[0, 60], [60, 2], [62, 3]] as const) {
      const items = s.sources.slice(from, from + count).map((f) => ({ file: f.id, project: s.destination.project }));
      requested.push(...items);
      const report = await s.submitter.submitAll([items], { destination: s.destination });
      await settle(s, report, `copy of ${count}`);
    }
    const before = s.tracker.all().map((j) => j.id).sort();
    assert.strictEqual(before.length, 3);
    await waitFor('the big job to start running', () => s.tracker.all().some((j) => j.state === 'RUNNING' || j.state === 'RESOLVING'), 15_000);
    const states = s.tracker.all().map((j) => j.state);
    assert.ok(states.some((st) => st !== 'FINISHED'), 'the reload comes while a job runs');

    // The reload: the old window's models are disposed; the new ones read the same store.
    const oldRequests = s.client.transport.stats.requests;
    s.tracker.dispose();
    s.submitter.dispose();
    const next = reload(s);
    assert.deepStrictEqual(next.tracker.all().map((j) => j.id).sort(), before, 'every job is still known after the reload');
    assert.ok(next.tracker.active().length > 0 && next.tracker.nextPollAt !== undefined, 'the new tracker follows the unfinished jobs at once');

    await waitFor('every job FINISHED after the reload', () => next.tracker.all().every((j) => j.state === 'FINISHED' && j.result?.length === j.items.length), 30_000);
    assert.strictEqual(s.client.transport.stats.requests, oldRequests, 'the old window asks nothing after it is disposed');
    for (const job of next.tracker.all()) {
      assert.ok(job.result!.every((r) => r.resource), `job ${job.id}: every item copied`);
      assert.strictEqual(job.completed, job.total, `job ${job.id}: completed = total`);
    }
    const figures = accountCopies(s.emu, requested);
    note(`reload with jobs in states ${states.join(', ')}: ${before.length} jobs kept, ${next.finished.length} announced FINISHED by the new tracker ` +
      `(${next.tracker.stats.polls} polls, ${next.tracker.stats.listCalls} list calls, ${next.tracker.stats.getCalls} GETs)`);
    note(`requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.ok(next.finished.length >= 1);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('a reload while the POST is in flight: the new window reports "may have been submitted", finds the job and adopts it', async () => {
    const s = await copySetup({ copyStepMs: 40 });
    disposables.push(s.tracker, s.submitter);
    const items: CopyItem[] = s.sources.slice(100, 104).map((f) => ({ file: f.id, project: s.destination.project }));
    // The POST is slow (300 ms) and its answer never comes back; the window closes while it is on its way.
    s.postFaults.push('slowLose');
    const sending = s.submitter.submitAll([items], { destination: s.destination });
    await waitFor('the call to be stored as in flight', () => (s.store.get<{ inFlight?: boolean }[]>('sevenbridges.copyPending') ?? []).some((p) => p.inFlight));
    const persisted = s.store.snapshot();
    s.tracker.dispose();
    s.submitter.dispose();
    await sending; // the old window's process ends; what it writes after the snapshot is lost with it
    assert.strictEqual(s.emu.copyRequests.length, 1, 'the platform received the call');

    // A call marked in flight may be another window's, still on its way: it is left alone until it is older than
    // a call can take (the lease, 2 minutes in the extension, shortened here), then taken as left by a closed window.
    const next = reload(s, persisted, { inFlightLeaseMs: 2_000 });
    const early = next.submitter.list();
    assert.deepStrictEqual(early.map((p) => p.inFlight), [true], 'at first it may be another window\'s call on its way');
    const untouched = await next.submitter.resubmit(early[0].group);
    assert.deepStrictEqual([untouched.submitted.length, untouched.failed, s.emu.copyRequests.length], [0, undefined, 1], 'so it is not sent');
    await waitFor('the call to count as left by a closed window', () => next.submitter.list()[0]?.maybeDelivered === true, 10_000);
    const pending = next.submitter.list();
    assert.strictEqual(pending.length, 1, 'the call is still known after the reload');
    assert.strictEqual(pending[0].maybeDelivered, true, '"may have been submitted"');
    shown('reload during POST', `The copy to ${pending[0].destination.label} (${pending[0].items.length} items) may have been submitted: ${pending[0].lastError}`, ['Check and Submit Again']);
    assert.match(pending[0].lastError!, /window closed before the platform answered/);

    const report = await next.submitter.resubmit(pending[0].group);
    assert.strictEqual(report.failed, undefined);
    assert.strictEqual(report.submitted[0].adopted, true, 'found on the platform and adopted');
    assert.strictEqual(s.emu.copyRequests.length, 1, 'not sent again');
    await waitFor('the adopted job FINISHED', () => next.tracker.all().every((j) => j.state === 'FINISHED' && j.result?.length === j.items.length), 15_000);
    const figures = accountCopies(s.emu, items);
    note(`reload during the POST: adopted job ${report.submitted[0].id}; requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('a reload before a call was sent keeps it pending, and "Submit Again" sends it once', async () => {
    const s = await copySetup({ copyStepMs: 40 });
    disposables.push(s.tracker, s.submitter);
    const first = s.sources.slice(110, 112).map((f) => ({ file: f.id, project: s.destination.project }));
    const second = s.sources.slice(112, 114).map((f) => ({ file: f.id, project: s.destination.project }));
    // The first call is refused (maintenance), so the second is never sent; then the window reloads.
    s.postFaults.push('maintenance');
    const report = await s.submitter.submitAll([first, second], { destination: s.destination });
    assert.strictEqual(report.failed?.maybeDelivered, false);
    assert.strictEqual(report.notSent.length, 1);
    s.tracker.dispose();
    s.submitter.dispose();

    const next = reload(s);
    const pending = next.submitter.list();
    assert.deepStrictEqual(pending.map((p) => p.items.length), [2, 2], 'both calls kept');
    const again = await next.submitter.resubmit(pending[0].group);
    assert.strictEqual(again.failed, undefined);
    assert.strictEqual(again.submitted.length, 2);
    await waitFor('both jobs FINISHED', () => next.tracker.all().length === 2 && next.tracker.all().every((j) => j.state === 'FINISHED' && j.result?.length === j.items.length), 15_000);
    const figures = accountCopies(s.emu, [...first, ...second]);
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [4, 0, 0]);
  });
});
