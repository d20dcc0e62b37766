import * as assert from 'assert';
import type { BulkTaskItem, Task } from '../../../src/api/types';
import { planRerun, rerunCancelledWords, rerunConfirmation, rerunEndedWords, rerunFailedWrite, rerunPayloads, rerunProgressWords, rerunSummary, RerunWatch, storedRerunWatches, type RerunEnded, type WritesProgress } from '../../../src/tasks/rerunFailed';
import { Outbox, type WriteKind } from '../../../src/write/outbox';
import { readState, STATE } from '../../../src/keys/state';
import { memoryState, SharedGlobalState } from '../../support/sharedState';
import { FakeClock } from '../../support/fakeClock';
import { task } from '../../support/fakeTasks';

const priced = (amount: number, currency = 'USD') => ({ price: { currency, amount } });

describe('Re-run Failed', () => {
  it('plans one new task per failed or aborted task, each once, leaving out the rest and batch parents', () => {
    const plan = planRerun([
      task(1, 'FAILED', { app: 'me/p/salmon/4', ...priced(1.1) }),
      task(2, 'ABORTED', priced(0.5)),
      task(3, 'COMPLETED', priced(9)),
      task(4, 'FAILED', { batch: true, ...priced(40) }),
      task(1, 'FAILED', priced(1.1)),
      task(5, 'RUNNING'),
      task(6, 'FAILED'),
    ]);
    assert.deepStrictEqual(plan.tasks.map((t) => t.name), ['task 1', 'task 2', 'task 6']);
    assert.deepStrictEqual([plan.failed, plan.aborted], [2, 1]);
    assert.deepStrictEqual(plan.cost, { tasks: 3, unpriced: 1, sums: { USD: 1.6 } });
    assert.deepStrictEqual(rerunPayloads(plan)[0], { action: 'rerun', task: { id: task(1, '').id, name: 'task 1', app: 'me/p/salmon/4', project: 'me/alpha', status: 'FAILED' } });
  });

  it('confirms with the counts and what the originals cost', () => {
    const failed = planRerun(Array.from({ length: 37 }, (_, i) => task(i + 1, 'FAILED', priced(i < 36 ? 1.1 : 1.6))));
    assert.strictEqual(rerunConfirmation(failed, 'RNA batch 12').message, 'Re-run 37 failed tasks of "RNA batch 12"? They cost $41.20 before failing.');
    assert.match(rerunConfirmation(failed, 'RNA batch 12').detail, /• task 1\n• task 2[\s\S]*… and 27 more$/);
    const mixed = planRerun([task(1, 'FAILED', priced(2)), task(2, 'ABORTED', priced(3, 'EUR'))]);
    assert.strictEqual(rerunConfirmation(mixed, undefined).message, 'Re-run 2 tasks (1 failed, 1 aborted)? They cost $2.00 + €3.00 before they ended.');
    assert.strictEqual(rerunConfirmation(planRerun([task(1, 'FAILED')]), undefined).message, 'Re-run 1 failed task?');
  });

  it('is the re-run write kind under its own name, held back while the API budget is nearly spent', () => {
    let left = 5;
    const kind = rerunFailedWrite({ action: async () => task(1, 'QUEUED'), get: async () => task(1, 'QUEUED'), list: async () => ({ items: [], total: 0, next: undefined }) }, { holdBulk: () => (left-- > 0 ? 0 : 30_000) });
    assert.strictEqual(kind.name, 'taskAction.rerunFailed');
    assert.strictEqual(kind.idempotent, false);
    assert.strictEqual(kind.identity.by, 'difference');
    const record = { payload: { action: 'rerun', task: { id: 'x' } } } as never;
    assert.deepStrictEqual(Array.from({ length: 6 }, () => kind.hold!(record)), [0, 0, 0, 0, 0, 30_000]);
  });

  it('follows the new tasks 100 a request and says once, at the end, how they ended', async () => {
    const clock = new FakeClock();
    const statuses = new Map(Array.from({ length: 150 }, (_, i) => [task(i, '').id, 'QUEUED']));
    const asked: number[] = [];
    const said: RerunEnded[] = [];
    const watch = new RerunWatch([...statuses.keys()], {
      bulkGet: async (ids): Promise<BulkTaskItem[]> => {
        asked.push(ids.length);
        return ids.map((id) => ({ resource: { href: '', id, name: '', status: statuses.get(id) } as Task }));
      },
      clock,
      intervalMs: () => 10_000,
      onEnded: (ended) => said.push(ended),
    });
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(asked, [100, 50]);
    assert.deepStrictEqual(said, []);
    [...statuses.keys()].forEach((id, i) => statuses.set(id, i < 145 ? 'COMPLETED' : i < 148 ? 'FAILED' : 'RUNNING'));
    await clock.tickAsync(10_000);
    assert.strictEqual(watch.left, 2);
    assert.deepStrictEqual(asked.slice(2), [100, 50]);
    [...statuses.keys()].slice(148).forEach((id) => statuses.set(id, 'ABORTED'));
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(asked.slice(4), [2], 'only the tasks still open are read');
    assert.deepStrictEqual(said, [{ completed: 145, failed: 3, aborted: 2 }]);
    await clock.tickAsync(60_000);
    assert.strictEqual(asked.length, 5, 'nothing is read once all have ended');
    assert.strictEqual(rerunEndedWords(said[0]), '145 completed, 3 failed again, 2 aborted');
    assert.strictEqual(rerunEndedWords({ completed: 35, failed: 2, aborted: 0 }), '35 completed, 2 failed again');
    watch.dispose();
  });

  it('a task made after the watch began (on its way at a Cancel) joins it: the end is said once, counting it; none joins once said', async () => {
    const clock = new FakeClock();
    const statuses = new Map([['a', 'RUNNING'], ['b', 'QUEUED']]);
    const said: RerunEnded[] = [];
    const watch = new RerunWatch(['a'], {
      bulkGet: async (ids): Promise<BulkTaskItem[]> => ids.map((id) => ({ resource: { href: '', id, name: '', status: statuses.get(id) } as Task })),
      clock,
      intervalMs: () => 10_000,
      onEnded: (ended) => said.push(ended),
    });
    assert.strictEqual(watch.add('b'), true);
    statuses.set('a', 'COMPLETED');
    await clock.tickAsync(10_000);
    assert.deepStrictEqual([said, watch.left], [[], 1], 'not over while the one that joined runs');
    statuses.set('b', 'FAILED');
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(said, [{ completed: 1, failed: 1, aborted: 0 }]);
    assert.strictEqual(watch.add('c'), false, 'said already: another watch follows it');
    watch.dispose();
  });

  it('keeps the watch in stored state per account: a reload resumes it with its counts and still says, once, how the re-run ended', async () => {
    const clock = new FakeClock();
    const store = memoryState();
    const ids = [task(1, '').id, task(2, '').id, task(3, '').id];
    const statuses = new Map(ids.map((id) => [id, 'RUNNING']));
    const bulkGet = async (asked: readonly string[]): Promise<BulkTaskItem[]> => asked.map((id) => ({ resource: { href: '', id, name: '', status: statuses.get(id) } as Task }));
    const said: RerunEnded[] = [];
    const account = 'https://api.sbgenomics.com/v2#rfranklin';
    const options = { bulkGet, clock, intervalMs: () => 10_000, onEnded: (e: RerunEnded) => said.push(e) };
    const first = new RerunWatch(ids, { ...options, keep: { store, id: 'w1', account, of: 'RNA batch 12' } });
    await first.saved;
    assert.deepStrictEqual(readState(store, STATE.rerunWatches), [{ id: 'w1', account, of: 'RNA batch 12', open: ids, ended: { completed: 0, failed: 0, aborted: 0 } }]);
    statuses.set(ids[0], 'COMPLETED');
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(storedRerunWatches(store, account)[0].open, ids.slice(1));
    assert.deepStrictEqual(storedRerunWatches(store, account)[0].ended, { completed: 1, failed: 0, aborted: 0 });
    assert.deepStrictEqual(storedRerunWatches(store, 'https://eu-api.sbgenomics.com/v2#rfranklin'), [], "another account's are not resumed");

    // The window reloads: the watch in memory is gone; two windows of the account resume what was stored.
    first.dispose();
    statuses.set(ids[1], 'FAILED');
    statuses.set(ids[2], 'COMPLETED');
    const resumed = storedRerunWatches(store, account).map((w) => new RerunWatch(w.open, { ...options, keep: { store, id: w.id, account: w.account, of: w.of }, ended: w.ended }));
    const other = storedRerunWatches(store, account).map((w) => new RerunWatch(w.open, { ...options, keep: { store, id: w.id, account: w.account, of: w.of }, ended: w.ended }));
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(said, [{ completed: 2, failed: 1, aborted: 0 }], 'said once, with what ended before the reload');
    assert.strictEqual(rerunEndedWords(said[0]), '2 completed, 1 failed again');
    assert.strictEqual(readState(store, STATE.rerunWatches), undefined, 'forgotten once said');
    await clock.tickAsync(60_000);
    assert.strictEqual(said.length, 1);
    [...resumed, ...other].forEach((w) => w.dispose());
  });

  it('keeps a sample sheet\'s tasks as one set (Run for Each Row…): stored with the sheet\'s name, said as failed, not failed again', async () => {
    const clock = new FakeClock();
    const store = memoryState();
    const account = 'https://api.sbgenomics.com/v2#rfranklin';
    const ids = [task(1, '').id];
    const bulkGet = async (asked: readonly string[]): Promise<BulkTaskItem[]> => asked.map((id) => ({ resource: { href: '', id, name: '', status: 'RUNNING' } as Task }));
    const watch = new RerunWatch(ids, { bulkGet, clock, intervalMs: () => 10_000, onEnded: () => undefined, keep: { store, id: 'w2', account, sheet: 'samples.csv' } });
    await watch.saved;
    assert.deepStrictEqual(storedRerunWatches(store, account), [{ id: 'w2', account, sheet: 'samples.csv', open: ids, ended: { completed: 0, failed: 0, aborted: 0 } }]);
    assert.strictEqual(rerunEndedWords({ completed: 10, failed: 2, aborted: 0 }, false), '10 completed, 2 failed');
    watch.dispose();
  });

  it('lets go of a new task the platform no longer has (deleted): it counts as neither, and the end is still said', async () => {
    const clock = new FakeClock();
    const ids = [task(1, '').id, task(2, '').id];
    const said: RerunEnded[] = [];
    const watch = new RerunWatch(ids, {
      bulkGet: async (asked): Promise<BulkTaskItem[]> =>
        asked.map((id) => (id === ids[0] ? { error: { status: 404, code: 90003, message: 'gone' } } : { resource: { href: '', id, name: '', status: 'COMPLETED' } as Task })),
      clock,
      intervalMs: () => 10_000,
      onEnded: (e) => said.push(e),
    });
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(said, [{ completed: 1, failed: 0, aborted: 0 }]);
    watch.dispose();
  });

  it('reads what is stored with care: a damaged entry is dropped, missing counts are 0', () => {
    const store = memoryState();
    void store.update(STATE.rerunWatches.key, [{ id: 'a', account: 'x#y', open: ['t1'] }, { id: 'b' }, 'junk', { id: 'c', account: 'x#y', open: 'no' }]);
    assert.deepStrictEqual(readState(store, STATE.rerunWatches), [{ id: 'a', account: 'x#y', open: ['t1'], ended: { completed: 0, failed: 0, aborted: 0 } }]);
  });

  it('counts a new task as made once the platform answered, before it is handed over; an answer lost is said as such, not as "not made" (#44)', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const account = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };
    let handOverFails = true;
    const kind: WriteKind<string, number, string> = {
      name: 'fake.rerun',
      idempotent: false,
      identity: { by: 'difference', snapshot: async () => 1, isSnapshot: (s): s is number => typeof s === 'number', find: async () => ({ unknown: 'cannot tell yet' }), madeId: (outcome) => outcome },
      isPayload: (p): p is string => typeof p === 'string',
      send: async (record) => `new-${record.payload}`,
      keep: (outcome) => outcome,
      // The new task is made; drawing it fails once (the record stays "sent": never sent again, handed over later).
      finish: () => {
        if (handOverFails) throw new Error('the view is busy');
      },
      describe: (p) => p,
    };
    const outbox = new Outbox(new SharedGlobalState().window(), async () => account, [kind as WriteKind], clock, { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000, lateWindowMs: 20_000 });
    outbox.start();
    try {
      const heard: WritesProgress[] = [];
      const following = outbox.send('fake.rerun', ['a', 'b'], account, { until: 'end', onProgress: (made, total, checking) => heard.push({ made, total, checking }) });
      await clock.tickAsync(50);
      assert.deepStrictEqual(heard[heard.length - 1], { made: 2, total: 2, checking: 0 }, 'both on the platform: said made at once');
      handOverFails = false;
      await clock.tickAsync(60_000);
      const { finished, left } = await following;
      assert.deepStrictEqual([finished.length, left.length], [2, 0]);
      assert.strictEqual(rerunProgressWords({ made: 49, total: 50, checking: 1 }), '49 of 50 made · 1 being looked for on the platform (its answer was lost)');
      assert.strictEqual(rerunProgressWords({ made: 50, total: 50, checking: 0 }), '50 of 50 made');
    } finally {
      outbox.dispose();
    }
  });

  it('Cancel while a hundred or more are re-run: those never sent are taken back, those sent stay made, and the words say both (#44)', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const account = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };
    const sent: string[] = [];
    // Each re-run after the third is held back a minute (the API budget nearly spent).
    const kind: WriteKind<string, number, string> = {
      name: 'fake.rerun',
      idempotent: false,
      identity: { by: 'difference', snapshot: async () => 1, isSnapshot: (s): s is number => typeof s === 'number', find: async () => ({ unknown: 'cannot tell yet' }), madeId: (outcome) => outcome },
      isPayload: (p): p is string => typeof p === 'string',
      hold: () => (sent.length >= 3 ? 60_000 : 0),
      send: async (record) => (sent.push(record.payload as string), `new-${record.payload}`),
      keep: (outcome) => outcome,
      finish: () => undefined,
      describe: (p) => p,
    };
    const outbox = new Outbox(new SharedGlobalState().window(), async () => account, [kind as WriteKind], clock, { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000, lateWindowMs: 20_000 });
    outbox.start();
    try {
      const controller = new AbortController();
      const payloads = Array.from({ length: 120 }, (_, i) => `t${i}`);
      const following = outbox.send('fake.rerun', payloads, account, { until: 'end', signal: controller.signal });
      await clock.tickAsync(50);
      controller.abort();
      const { finished, left, withdrawn } = await following;
      assert.deepStrictEqual([finished.length, left.length, withdrawn.length], [3, 0, 117]);
      await clock.tickAsync(3 * 60_000);
      assert.deepStrictEqual(sent, ['t0', 't1', 't2'], 'nothing more sent after Cancel');
      assert.strictEqual(rerunCancelledWords(3, 0, 297, 300), 'Re-run Failed cancelled: 3 of 300 new tasks made, 297 not sent.');
      assert.strictEqual(rerunCancelledWords(3, 2, 295, 300), 'Re-run Failed cancelled: 3 of 300 new tasks made, 295 not sent, 2 sent and not answered yet (followed in the Data Jobs view).');
    } finally {
      outbox.dispose();
    }
  });

  it('what a person is told after a Cancel: what was made and what not, also when nothing was left to take back (#44)', () => {
    const sending = { state: 'sending' as const, label: 'Re-run "a"' };
    const refused = { state: 'failed' as const, label: 'Re-run "b"', note: 'Not allowed (HTTP 403).' };
    // The one on its way when Cancel came, the rest taken back.
    assert.deepStrictEqual(rerunSummary({ cancelled: true, made: 0, total: 3, left: [sending], withdrawn: 2 }), {
      warning: 'Re-run Failed cancelled: 0 of 3 new tasks made, 2 not sent, 1 sent and not answered yet (followed in the Data Jobs view).',
    });
    // Cancel after the last was sent: nothing to take back, and still the person hears that the wait stopped and why.
    assert.deepStrictEqual(rerunSummary({ cancelled: true, made: 2, total: 3, left: [sending], withdrawn: 0 }), {
      warning: 'Re-run Failed cancelled: 2 of 3 new tasks made, 1 sent and not answered yet (followed in the Data Jobs view).',
    });
    // A refusal is named as it would be without a Cancel.
    assert.deepStrictEqual(rerunSummary({ cancelled: true, made: 1, total: 3, left: [refused], withdrawn: 1 }), {
      warning: 'Re-run Failed cancelled: 1 of 3 new tasks made, 1 not sent. Re-run Failed: 1 of 3 new tasks made. Not made, or not known yet: Re-run "b": Not allowed (HTTP 403).',
    });
    // A Cancel that came once all were made changed nothing: the usual word.
    assert.deepStrictEqual(rerunSummary({ cancelled: true, made: 3, total: 3, left: [], withdrawn: 0 }), { done: 'Re-run Failed: 3 new tasks made; you will be told when they have all ended' });
    assert.deepStrictEqual(rerunSummary({ cancelled: false, made: 2, total: 3, left: [refused], withdrawn: 0 }), {
      warning: 'Re-run Failed: 2 of 3 new tasks made. Not made, or not known yet: Re-run "b": Not allowed (HTTP 403).',
    });
  });
});
