// 7. Every write reaches the platform exactly once (issue 11): the ways it could break, each tried against the
// emulator — foreign jobs appearing during a lost answer, two windows on one global state (propagation 0, 30,
// 100 and 500 ms), a rate-limited POST, a second account, job lists in any order, results that come while a
// job runs, a window that dies mid-send, a failure after the platform accepted. Adoptions are checked against
// what the emulator processed: "adopted a job that was not ours" in the summary must stay 0.
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import type { CopyItem } from '../../src/api/types';
import type { WriteRecord } from '../../src/write/outbox';
import { copySetup, isWritePost, logSince, TEST_OUTBOX, untilFinished, type CopySetup, type CopyWindow } from './copyKit';
import { accountCopies, note, record, waitFor } from './support';

const DELAYS = [0, 30, 100, 500];

describe('7. every write reaches the platform exactly once', function () {
  this.timeout(90_000);
  const windows: CopyWindow[] = [];
  afterEach(() => {
    for (const w of windows.splice(0)) w.dispose();
  });
  const setup = async (options: Parameters<typeof copySetup>[0] = {}) => {
    const s = await copySetup(options);
    windows.push(s.window);
    return s;
  };
  const items = (s: CopySetup, from: number, count: number): CopyItem[] =>
    s.sources.slice(from, from + count).map((f) => ({ file: f.id, project: s.destination.project }));

  /** Every job a window adopted after a lost answer must be one the emulator made for that very call. */
  function checkAdoptions(s: CopySetup, ...ws: CopyWindow[]): number {
    let adopted = 0;
    for (const w of ws) {
      for (const f of w.finished.filter((x) => x.found)) {
        adopted++;
        const made = s.emu.copyRequests.find((r) => r.jobId === f.job.id);
        const ours = made !== undefined && JSON.stringify(made.items) === JSON.stringify((f.record as WriteRecord<{ items: CopyItem[] }>).payload.items);
        record.adoptions.adopted++;
        if (!ours) record.adoptions.notOurs++;
        assert.ok(ours, `job ${f.job.id} adopted for a call that did not make it`);
      }
    }
    return adopted;
  }

  function exactlyOnce(s: CopySetup, requested: CopyItem[], what: string): void {
    const figures = accountCopies(s.emu, requested);
    const calls = s.accountCalls();
    assert.deepStrictEqual([calls.doubled, calls.lost, calls.wronglyAdopted], [0, 0, 0], `${what}: calls doubled, lost, wrongly adopted`);
    note(`${what}: requested ${figures.requested}, received ${figures.received}, lost ${figures.lost}, doubled ${figures.doubled}`);
    assert.deepStrictEqual([figures.received, figures.lost, figures.doubled], [requested.length, 0, 0], what);
  }

  it('1. a foreign job that starts while an answer is lost is never taken for the user\'s copy', async () => {
    const s = await setup();
    const mine = items(s, 0, 2);
    // The POST never reaches processing (a dropped connection); meanwhile the web page starts a copy in the same account.
    s.onPost.push(() => s.emu.foreignCopy(items(s, 200, 2)));
    s.postFaults.push('drop');
    const sent = await s.window.send([mine], s.destination, 'foreign job');
    assert.deepStrictEqual(sent.left.map((r) => r.state), ['unsure']);
    assert.match(sent.tellings[0].text, /did not answer the copy/);
    await s.window.drained(sent.group, 'foreign job');
    assert.strictEqual(s.emu.foreignCopyRequests.length, 1);
    assert.strictEqual(checkAdoptions(s, s.window), 0, 'nothing adopted: the foreign job is not the call');
    assert.ok(!s.tracker.get(s.emu.foreignCopyRequests[0].jobId!), 'the foreign job is not followed as the user\'s');
    await untilFinished(s.tracker, 'foreign job');
    assert.match(s.tracker.all()[0].items[0].file, /^[0-9a-f]{24}$/);
    exactlyOnce(s, mine, 'foreign job during a lost answer');
  });

  for (const delay of DELAYS) {
    it(`2. two windows (propagation ${delay} ms): the second opens mid-send, presses Submit Again and Discard, sends nothing`, async () => {
      const s = await setup({ propagationMs: delay, faults: { latencyMs: 60 } });
      const asked = Array.from({ length: 6 }, (_, i) => items(s, 10 + i * 2, 2));
      const sending = s.window.send(asked, s.destination, `window 1, ${delay} ms`);
      await waitFor('the first call processed', () => s.emu.copyRequests.length >= 1);
      const second = s.openWindow();
      windows.push(second);
      await second.account();
      await new Promise((r) => setTimeout(r, delay + 50));
      const seen = second.outbox.all();
      assert.ok(seen.every((r) => !second.outbox.owns(r)), 'shown read-only');
      for (const group of new Set(seen.map((r) => r.group))) {
        await second.outbox.resubmit(group, ['queued', 'failed', 'unsure']);
        await second.outbox.discard(group);
      }
      // Discard from the second window removed none of them: each is still there, or reached the platform from the first.
      const untouched = () => seen.every((r) => s.outbox.all().some((x) => x.id === r.id) || s.window.finished.some((f) => f.record.id === r.id));
      assert.ok(untouched(), 'none discarded by the window that does not own it');
      const sent = await sending;
      await s.window.drained(sent.group, `window 1, ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay + 200));
      assert.strictEqual(second.finished.length, 0, 'the second window finished nothing: it sent nothing and adopted nothing');
      checkAdoptions(s, s.window, second);
      note(`propagation ${delay} ms: the second window saw ${seen.length} of 6 calls, read-only`);
      exactlyOnce(s, asked.flat(), `two windows, ${delay} ms`);
    });
  }

  it('3. a rate-limited POST is not held waiting: another window does not take it over; its owner sends it once after the reset', async () => {
    const s = await setup();
    const second = s.openWindow();
    windows.push(second);
    await second.account();
    const mine = items(s, 40, 3);
    s.postFaults.push('burst429');
    const sent = await s.window.send([mine], s.destination, 'rate-limited');
    assert.deepStrictEqual(sent.left.map((r) => [r.state, r.note]), [['queued', "The platform's rate limit is used up."]]);
    await new Promise((r) => setTimeout(r, TEST_OUTBOX.staleMs! + 300));
    assert.ok(second.outbox.all().every((r) => !second.outbox.owns(r)), 'the owner is alive: no takeover');
    await s.window.drained(sent.group, 'rate-limited');
    assert.strictEqual(second.finished.length, 0);
    exactlyOnce(s, mine, 'rate-limited POST with a second window');
  });

  it('4. a token for another account on the same platform: the first account\'s call is neither looked up nor sent with it', async () => {
    const other = `sbother${randomBytes(12).toString('hex')}`;
    const s = await setup({ accounts: [{ token: other, username: 'colleague' }] });
    let token = s.emu.token;
    const w = s.openWindow(() => token, { ...TEST_OUTBOX, lookupDelayMs: 400 });
    windows.push(w);
    await w.account();
    const mine = items(s, 60, 2);
    s.postFaults.push('lose');
    const sent = await w.send([mine], s.destination, 'account switch');
    assert.deepStrictEqual(sent.left.map((r) => r.state), ['unsure']);
    token = other; // the user sets the colleague's token before the lookup
    await w.account();
    const mark = record.logEntries.length;
    await new Promise((r) => setTimeout(r, 1_200));
    assert.deepStrictEqual(w.outbox.all().map((r) => r.state), ['unsure'], 'waits, untouched');
    assert.ok(!logSince(mark).some(isWritePost), 'nothing sent as the other account');
    assert.deepStrictEqual(w.tracker.all(), [], 'the first account\'s jobs are not shown or followed');
    token = s.emu.token;
    await w.account();
    w.outbox.poke();
    await w.drained(sent.group, 'account switched back');
    assert.strictEqual(w.finished.at(-1)!.found, true, 'found on the platform, as the first account');
    checkAdoptions(s, w);
    exactlyOnce(s, mine, 'lost answer across an account switch');
  });

  for (const order of ['oldest', 'shuffled'] as const) {
    it(`5. a job list ${order === 'oldest' ? 'oldest first' : 'in random order'}, longer than a page: a lost answer is found, not sent twice`, async () => {
      const s = await setup({ jobOrder: order });
      for (let i = 0; i < 120; i++) s.emu.foreignCopy(items(s, 300 + (i % 50), 1));
      const mine = items(s, 70, 3);
      s.postFaults.push('lose');
      const sent = await s.window.send([mine], s.destination, `job list ${order}`);
      await s.window.drained(sent.group, `job list ${order}`);
      assert.strictEqual(s.window.finished.at(-1)!.found, true);
      assert.strictEqual(checkAdoptions(s, s.window), 1);
      exactlyOnce(s, mine, `lost answer, job list ${order}`);
    });
  }

  it('6. a job whose results come while it runs is not judged "not received": it is adopted once they match', async () => {
    const s = await setup({ progressiveResults: true, copyStepMs: 120 });
    const mine = items(s, 80, 40);
    s.postFaults.push('lose');
    const sent = await s.window.send([mine], s.destination, 'results while running');
    await s.window.drained(sent.group, 'results while running');
    assert.strictEqual(s.window.finished.at(-1)!.found, true);
    assert.strictEqual(checkAdoptions(s, s.window), 1);
    exactlyOnce(s, mine, 'lost answer, results filled while running');
  });

  for (const delay of DELAYS) {
    it(`7. the owner dies mid-send (propagation ${delay} ms): another window takes over once its heartbeat is stale, looks up, adopts`, async () => {
      const s = await setup({ propagationMs: delay });
      const second = s.openWindow();
      windows.push(second);
      await second.account();
      const mine = items(s, 130, 2);
      s.postFaults.push('slowLose');
      const account = (await s.window.account())!;
      const [call] = await s.outbox.submit('copy', [{ items: mine, destination: s.destination }], account);
      await waitFor('the call marked as on its way', () => (s.global.get(`sevenbridges.write.${call.id}`) as { state?: string } | undefined)?.state === 'sending');
      s.window.kill();
      await waitFor('the second window to take it over and settle it', () => second.finished.length === 1, 20_000);
      assert.strictEqual(second.finished[0].found, true);
      checkAdoptions(s, second);
      exactlyOnce(s, mine, `owner died mid-send, ${delay} ms`);
    });
  }

  it('8. a failure after the platform accepted the call (not an ApiError) never sends it again; the job is shown once it can be', async () => {
    const s = await setup();
    const mine = items(s, 150, 2);
    const add = s.tracker.add.bind(s.tracker);
    let failures = 0;
    s.tracker.add = (...args) => {
      if (failures++ === 0) throw new TypeError('a bug in showing the job');
      return add(...args);
    };
    const sent = await s.window.send([mine], s.destination, 'failure after acceptance');
    await s.window.drained(sent.group, 'failure after acceptance');
    assert.ok(failures >= 2, 'handed over again');
    assert.strictEqual(s.tracker.all().length, 1, 'the job is followed');
    exactlyOnce(s, mine, 'failure after acceptance');
  });
});
