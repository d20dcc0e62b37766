// 3. Nothing is lost across a window reload: the closing window's tracker and outbox are disposed and the new
// window's are built on the same global state; jobs are followed to FINISHED, a call on its way when the window
// closed is looked up (never sent blind), a call not yet sent is sent once.
import * as assert from 'assert';
import type { CopyItem } from '../../src/api/types';
import type { TrackedJob } from '../../src/jobs/tracker';
import { copySetup, untilFinished, type CopySetup, type CopyWindow } from './copyKit';
import { accountCopies, note, sent, waitFor } from './support';

describe('3. nothing lost across a window reload', function () {
  this.timeout(60_000);
  const windows: CopyWindow[] = [];
  afterEach(() => {
    for (const w of windows.splice(0)) w.dispose();
  });

  /** The window after a reload: a new client, tracker and outbox on what was persisted. */
  const reload = (s: CopySetup) => {
    const next = s.openWindow();
    windows.push(next);
    const finished: TrackedJob[] = [];
    next.tracker.onDidFinish((job) => finished.push(job));
    return { next, finished };
  };

  it('a reload while copies run (under 10% 500s and 5% drops) loses no job; the new tracker follows each to FINISHED', async () => {
    const s = await copySetup({ faults: { error500Rate: 0.1, dropRate: 0.05 }, copyStepMs: 150 });
    windows.push(s.window);
    const requested: CopyItem[] = [];
    // Three copies: one of 60 files (several RUNNING steps), two small ones.
    for (const [from, count] of [[0, 60], [60, 2], [62, 3]] as const) {
      const items = s.sources.slice(from, from + count).map((f) => ({ file: f.id, project: s.destination.project }));
      requested.push(...items);
      const sent = await s.window.send([items], s.destination, `copy of ${count}`);
      await s.window.drained(sent.group, `copy of ${count}`);
    }
    const before = s.tracker.all().map((j) => j.id).sort();
    assert.strictEqual(before.length, 3);
    await waitFor('the big job to start running', () => s.tracker.all().some((j) => j.state === 'RUNNING' || j.state === 'RESOLVING'), 15_000);
    const states = s.tracker.all().map((j) => j.state);
    assert.ok(states.some((st) => st !== 'FINISHED'), 'the reload comes while a job runs');

    const oldWindowRequests = sent(s.client).mark();
    s.window.dispose();
    const { next, finished } = reload(s);
    await next.account();
    assert.deepStrictEqual(next.tracker.all().map((j) => j.id).sort(), before, 'every job is still known after the reload');

    await waitFor('every job FINISHED after the reload', () => next.tracker.all().every((j) => j.state === 'FINISHED' && j.result?.length === j.items.length), 30_000);
    assert.strictEqual(oldWindowRequests(), 0, 'the old window asks nothing after it is disposed');
    for (const job of next.tracker.all()) {
      assert.ok(job.result!.every((r) => r.resource), `job ${job.id}: every item copied`);
      assert.strictEqual(job.completed, job.total, `job ${job.id}: completed = total`);
    }
    const figures = accountCopies(s.emu, requested);
    s.accountCalls();
    note(`reload with jobs in states ${states.join(', ')}: ${before.length} jobs kept, ${finished.length} announced FINISHED by the new tracker ` +
      `(${sent(next.client).count('GET', /^\/v2\/async\/files(\?|$)/)} list calls, ${sent(next.client).count('GET', /^\/v2\/async\/files\/copy\//)} GETs of one job)`);
    note(`requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.ok(finished.length >= 1);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('a window closed while its POST is on its way: the next window takes the call over, looks it up, adopts its job, sends nothing', async () => {
    const s = await copySetup({ copyStepMs: 40 });
    const items: CopyItem[] = s.sources.slice(100, 104).map((f) => ({ file: f.id, project: s.destination.project }));
    // The POST is slow (300 ms) and its answer never comes back; the window closes while it is on its way.
    s.postFaults.push('slowLose');
    const account = (await s.window.account())!;
    const [call] = await s.outbox.submit('copy', [{ items, destination: s.destination }], account);
    await waitFor('the call to be marked as on its way', () => s.global.get(`sevenbridges.write.${call.id}`) !== undefined && (s.global.get(`sevenbridges.write.${call.id}`) as { state: string }).state === 'sending');
    s.window.dispose();
    await waitFor('the platform to receive it', () => s.emu.copyRequests.length === 1);

    const { next } = reload(s);
    await waitFor('the call taken over and settled', () => next.finished.length === 1, 15_000);
    assert.strictEqual(next.finished[0].found, true, 'found on the platform and adopted');
    assert.strictEqual(s.emu.copyRequests.length + s.emu.unprocessedCopyRequests.length, 1, 'not sent again');
    assert.ok(next.tracker.get(s.emu.copyRequests[0].jobId!)?.adopted);
    await untilFinished(next.tracker, 'taken over');
    const figures = accountCopies(s.emu, items);
    s.accountCalls();
    note(`window closed during the POST: taken over, looked up, job ${s.emu.copyRequests[0].jobId} adopted; requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.deepStrictEqual([figures.lost, figures.doubled], [0, 0]);
  });

  it('a window closed before its calls were sent (maintenance): the next window sends each once', async () => {
    const s = await copySetup({ copyStepMs: 40 });
    const first = s.sources.slice(110, 112).map((f) => ({ file: f.id, project: s.destination.project }));
    const second = s.sources.slice(112, 114).map((f) => ({ file: f.id, project: s.destination.project }));
    s.emu.maintenance(60_000);
    const sent = await s.window.send([first, second], s.destination, 'maintenance, then reload');
    assert.deepStrictEqual(sent.left.map((r) => r.state), ['queued', 'queued'], 'both kept, waiting');
    assert.strictEqual(s.emu.copyRequests.length, 0);
    s.window.dispose();
    s.emu.maintenance(0);

    const { next } = reload(s);
    await next.drained(sent.group, 'after the reload');
    await waitFor('both jobs FINISHED', () => next.tracker.all().length === 2 && next.tracker.all().every((j) => j.state === 'FINISHED' && j.result?.length === j.items.length), 15_000);
    const figures = accountCopies(s.emu, [...first, ...second]);
    s.accountCalls();
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [4, 0, 0]);
  });
});
