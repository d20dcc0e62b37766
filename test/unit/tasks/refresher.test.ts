import * as assert from 'assert';
import { FilterModel } from '../../../src/tasks/filterModel';
import { intervalMs, Refresher } from '../../../src/tasks/refresher';
import { TaskTreeModel } from '../../../src/tasks/taskTree';
import { FakeTasks, task } from '../../support/fakeTasks';
import { FakeClock } from '../../support/fakeClock';
import { memoryState } from '../../support/sharedState';

interface Setup {
  clock: FakeClock;
  refresher: Refresher;
  calls: number[];
  state: { interval: unknown; active: boolean; changed: boolean; delayMs: number };
  inFlight: () => number;
}

function setup(initial: Partial<Setup['state']> = {}): Setup {
  const clock = new FakeClock(0);
  const state = { interval: 30, active: true, changed: false, delayMs: 0, ...initial };
  const calls: number[] = [];
  let running = 0;
  let maxRunning = 0;
  const refresher = new Refresher({
    refresh: async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      calls.push(clock.now());
      if (state.delayMs) await new Promise<void>((r) => clock.setTimeout(r, state.delayMs));
      running--;
      return state.changed;
    },
    intervalSeconds: () => state.interval,
    hasActiveWork: () => state.active,
    clock,
    jitterMs: 1000,
    random: () => 0.5,
  });
  return { clock, refresher, calls, state, inFlight: () => maxRunning };
}

describe('task refresher', () => {
  it('reads the setting: 0 is off, below 10 s counts as 10 s', () => {
    assert.strictEqual(intervalMs(30), 30_000);
    assert.strictEqual(intervalMs(3), 10_000);
    assert.strictEqual(intervalMs(0), 0);
    assert.strictEqual(intervalMs(-5), 0);
    assert.strictEqual(intervalMs('30'), 0);
  });

  it('refreshes every interval while visible, focused and something is active', async () => {
    const { clock, refresher, calls, state } = setup({ changed: true });
    refresher.setVisible(true);
    await clock.tickAsync(29_999);
    assert.deepStrictEqual(calls, []);
    await clock.tickAsync(1);
    await clock.tickAsync(30_000);
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(calls, [30_000, 60_000, 90_000]);
    state.active = false;
    await clock.tickAsync(120_000);
    assert.strictEqual(calls.length, 3, 'the armed timer finds nothing active and schedules no more');
    assert.strictEqual(refresher.nextDelay, undefined);
  });

  it('backs off ×2 while nothing changes, up to a cap, and returns to the interval on a change', async () => {
    const { clock, refresher, calls, state } = setup({ interval: 10 });
    refresher.setVisible(true);
    await clock.tickAsync(10_000 + 20_000 + 40_000 + 80_000 + 80_000 + 80_000);
    const gaps = calls.map((t, i) => t - (i ? calls[i - 1] : 0));
    assert.deepStrictEqual(gaps, [10_000, 20_000, 40_000, 80_000, 80_000, 80_000], 'capped at 8× the interval');
    state.changed = true;
    await clock.tickAsync(80_000);
    await clock.tickAsync(10_000);
    assert.strictEqual(calls[calls.length - 1] - calls[calls.length - 2], 10_000);
  });

  it('caps the back-off at five minutes for long intervals', async () => {
    const { clock, refresher, calls } = setup({ interval: 60 });
    refresher.setVisible(true);
    await clock.tickAsync(60_000 + 120_000 + 240_000 + 300_000 + 300_000);
    const gaps = calls.map((t, i) => t - (i ? calls[i - 1] : 0));
    assert.deepStrictEqual(gaps, [60_000, 120_000, 240_000, 300_000, 300_000]);
  });

  it('does nothing when the setting is 0, and starts when it is set', async () => {
    const { clock, refresher, calls, state } = setup({ interval: 0 });
    refresher.setVisible(true);
    await clock.tickAsync(600_000);
    assert.deepStrictEqual(calls, []);
    state.interval = 15;
    refresher.reschedule();
    await clock.tickAsync(15_000);
    assert.deepStrictEqual(calls, [615_000]);
  });

  it('pauses while the view is hidden or the window unfocused, and catches up soon after coming back', async () => {
    const { clock, refresher, calls } = setup({ changed: true });
    refresher.setVisible(true);
    await clock.tickAsync(30_000);
    assert.strictEqual(calls.length, 1);
    refresher.setFocused(false);
    await clock.tickAsync(300_000);
    assert.strictEqual(calls.length, 1, 'nothing while unfocused');
    refresher.setFocused(true);
    await clock.tickAsync(499);
    assert.strictEqual(calls.length, 1);
    await clock.tickAsync(1);
    assert.strictEqual(calls.length, 2, 'refreshed after the jitter, since the data is stale');
    refresher.setVisible(false);
    await clock.tickAsync(300_000);
    assert.strictEqual(calls.length, 2, 'nothing while hidden');
    refresher.setVisible(true);
    await clock.tickAsync(500);
    assert.strictEqual(calls.length, 3);
  });

  it('keeps the pace when the view comes back before the interval is over', async () => {
    const { clock, refresher, calls } = setup({ changed: true });
    refresher.setVisible(true);
    await clock.tickAsync(30_000);
    refresher.setVisible(false);
    await clock.tickAsync(10_000);
    refresher.setVisible(true);
    await clock.tickAsync(19_999);
    assert.strictEqual(calls.length, 1);
    await clock.tickAsync(1);
    assert.strictEqual(calls.length, 2);
  });

  it('never runs two refreshes at once: a manual refresh during one runs once after it', async () => {
    const { clock, refresher, calls, state, inFlight } = setup({ delayMs: 5_000, changed: true });
    refresher.setVisible(true);
    await clock.tickAsync(30_000);
    assert.strictEqual(calls.length, 1);
    assert.ok(refresher.running);
    const a = refresher.refreshNow();
    const b = refresher.refreshNow();
    let done = 0;
    void a.then(() => done++);
    void b.then(() => done++);
    await clock.tickAsync(5_000);
    assert.strictEqual(calls.length, 2, 'the queued refresh started when the first ended');
    assert.strictEqual(done, 0, 'callers wait for the refresh that started after them');
    await clock.tickAsync(5_000);
    assert.strictEqual(done, 2);
    assert.strictEqual(inFlight(), 1);
    state.delayMs = 0;
    await clock.tickAsync(30_000);
    assert.strictEqual(calls.length, 3, 'the schedule goes on');
  });

  it('stops on dispose', async () => {
    const { clock, refresher, calls } = setup();
    refresher.setVisible(true);
    refresher.dispose();
    await clock.tickAsync(600_000);
    assert.deepStrictEqual(calls, []);
  });
});

describe('task refresher, fed by the view', () => {
  it('starts the pace when data arrives, and not before', async () => {
    const { clock, refresher, calls, state } = setup({ active: false, changed: true });
    refresher.setVisible(true);
    await clock.tickAsync(120_000);
    assert.deepStrictEqual(calls, [], 'nothing loaded, nothing active');
    state.active = true;
    refresher.markFresh();
    assert.strictEqual(refresher.nextDelay, 30_000);
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(calls, [150_000]);
  });

  it('a view shown again soon after its data loaded waits for the rest of the interval', async () => {
    const { clock, refresher, calls } = setup({ changed: true });
    refresher.setVisible(true);
    refresher.markFresh();
    refresher.setVisible(false);
    await clock.tickAsync(20_000);
    refresher.setVisible(true);
    assert.strictEqual(refresher.nextDelay, 10_000);
    await clock.tickAsync(10_000);
    assert.strictEqual(calls.length, 1);
  });
});

describe('task refresher on the task tree', () => {
  it('refreshes while a task is queued or running, stops once none is, and asks nothing more', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const source = new FakeTasks([task(1, 'RUNNING'), task(2, 'QUEUED'), task(3, 'COMPLETED')]);
    const tree = new TaskTreeModel({ source, filter: new FilterModel(memoryState()), store: memoryState(), signedIn: () => true, now: clock.now });
    const refresher = new Refresher({ refresh: () => tree.refresh(), intervalSeconds: () => 30, hasActiveWork: () => tree.hasActiveTasks(), clock });
    const counts = ['count status=RUNNING', 'count status=QUEUED', 'count status=DRAFT', 'count status=COMPLETED', 'count status=FAILED', 'count status=ABORTED', 'count all'];
    try {
      refresher.setVisible(true);
      await tree.getChildren();
      refresher.markFresh();
      assert.strictEqual(tree.hasActiveTasks(), true);
      source.calls.length = 0;
      await clock.tickAsync(30_000);
      assert.deepStrictEqual(source.calls, counts, 'a refresh counts every group again');

      for (const t of source.tasks) t.status = 'COMPLETED';
      source.calls.length = 0;
      // Nothing changed at the last refresh: the next comes after twice the interval, and finds nothing active.
      await clock.tickAsync(60_000);
      assert.deepStrictEqual(source.calls, counts);
      assert.strictEqual(tree.hasActiveTasks(), false);
      assert.strictEqual(refresher.nextDelay, undefined, 'no refresh is scheduled');
      source.calls.length = 0;
      await clock.tickAsync(30 * 60_000);
      assert.deepStrictEqual(source.calls, [], 'not one request in the half hour after');
    } finally {
      refresher.dispose();
      tree.dispose();
    }
  });
});
