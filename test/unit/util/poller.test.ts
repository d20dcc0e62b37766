import * as assert from 'assert';
import { Poller, type PollerOptions } from '../../../src/util/poller';
import { FakeClock } from '../../support/fakeClock';

function setup(options: Partial<PollerOptions> = {}, start = 0) {
  const clock = new FakeClock(start);
  const state = { work: true, fail: false, roundMs: 0 };
  const rounds: { at: number; automatic: boolean }[] = [];
  const errors: unknown[] = [];
  const poller = new Poller({
    poll: async (automatic) => {
      rounds.push({ at: clock.now(), automatic });
      if (state.roundMs) await clock.sleep(state.roundMs);
      if (state.fail) throw new Error('offline');
    },
    hasWork: () => state.work,
    interval: () => 1_000,
    clock,
    onError: (error) => errors.push(error),
    random: () => 0.5,
    jitterMs: 400,
    ...options,
  });
  const times = () => rounds.map((r) => r.at);
  return { clock, state, rounds, times, errors, poller };
}

describe('poller', () => {
  it('polls at the rule\'s interval and stops when there is nothing to follow', async () => {
    const { clock, state, times, poller } = setup();
    poller.schedule();
    await clock.tickAsync(3_000);
    assert.deepStrictEqual(times(), [1_000, 2_000, 3_000]);
    state.work = false;
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(times(), [1_000, 2_000, 3_000], 'the round already armed finds nothing to do, and none is scheduled after it');
    assert.strictEqual(poller.nextDelay, undefined);
    state.work = true;
    poller.schedule();
    await clock.tickAsync(1_000);
    assert.deepStrictEqual(times(), [1_000, 2_000, 3_000, 14_000], 'scheduled again once there is work');
  });

  it('doubles the wait after each failed round, up to the most, and forgets it after a success', async () => {
    const { clock, state, times, errors, poller } = setup({ maxWaitMs: () => 5_000 });
    state.fail = true;
    poller.schedule();
    await clock.tickAsync(1_000 + 2_000 + 4_000 + 5_000 + 5_000);
    assert.deepStrictEqual(times(), [1_000, 3_000, 7_000, 12_000, 17_000]);
    assert.strictEqual(errors.length, 5);
    assert.strictEqual(poller.backoffMs, 5_000);
    state.fail = false;
    await clock.tickAsync(5_000 + 1_000);
    assert.deepStrictEqual(times().slice(-2), [22_000, 23_000]);
    assert.strictEqual(poller.backoffMs, 0);
  });

  it('while away: stops without awayWaitMs; back, polls after the jitter when the last round is older than the wait', async () => {
    const { clock, times, poller } = setup();
    poller.schedule();
    await clock.tickAsync(1_000);
    poller.setFocused(false);
    await clock.tickAsync(60_000);
    assert.deepStrictEqual(times(), [1_000]);
    poller.setFocused(true);
    assert.strictEqual(poller.nextDelay, 200, 'half of the 400 ms jitter (random 0.5)');
    await clock.tickAsync(200);
    assert.deepStrictEqual(times(), [1_000, 61_200]);
    poller.setVisible(false);
    await clock.tickAsync(300);
    poller.setVisible(true);
    assert.strictEqual(poller.nextDelay, 700, 'back before the wait is over: the rest of it');
  });

  it('while away with awayWaitMs: keeps polling at that wait', async () => {
    const { clock, times, poller } = setup({ awayWaitMs: 10_000 });
    poller.setFocused(false);
    poller.schedule();
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(times(), [10_000, 20_000, 30_000]);
  });

  it('a round asked for sooner wins; a later one does not push the next round back', async () => {
    const { clock, times, poller } = setup({ interval: () => 10_000 });
    poller.schedule();
    poller.schedule(20_000);
    assert.strictEqual(poller.nextDelay, 10_000);
    poller.schedule(500);
    assert.strictEqual(poller.nextDelay, 500);
    await clock.tickAsync(500);
    assert.deepStrictEqual(times(), [500]);
  });

  it('runs one round at a time: rounds asked for during one share one after it; a wake asked for during one comes after it', async () => {
    const clock = new FakeClock(0, { sleeps: 'timers' });
    const rounds: number[] = [];
    const poller = new Poller({
      // Each round takes 3 s.
      poll: async () => {
        rounds.push(clock.now());
        await clock.sleep(3_000);
      },
      hasWork: () => true,
      interval: () => 10_000,
      clock,
    });
    const first = poller.runNow();
    const [a, b] = [poller.runNow(), poller.runNow()];
    assert.strictEqual(a, b, 'callers during a round share the one after it');
    assert.ok(poller.running);
    await clock.tickAsync(6_000);
    await Promise.all([first, a]);
    assert.deepStrictEqual(rounds, [0, 3_000], 'never two at once');
    poller.schedule();
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(rounds, [0, 3_000, 16_000]);
    poller.schedule(0);
    assert.strictEqual(poller.nextDelay, undefined, 'a round under way: the wake waits for it');
    await clock.tickAsync(3_001);
    // (fake-timers lets the round's promises settle after its clock moved on by the 1 ms.)
    assert.deepStrictEqual(rounds, [0, 3_000, 16_000, 19_001], 'the wake asked for during the round came right after it, not 10 s later');
    poller.dispose();
  });

  it('pause and resume: nothing while paused; resume forgets the back-off', async () => {
    const { clock, state, times, poller } = setup();
    state.fail = true;
    poller.schedule();
    await clock.tickAsync(3_000);
    assert.deepStrictEqual(times(), [1_000, 3_000]);
    poller.pause();
    state.fail = false;
    await clock.tickAsync(60_000);
    assert.strictEqual(times().length, 2);
    poller.resume(100);
    assert.strictEqual(poller.backoffMs, 0);
    await clock.tickAsync(100 + 1_000);
    assert.deepStrictEqual(times().slice(2), [63_100, 64_100]);
  });

  it('stops on dispose, a round under way included', async () => {
    const { clock, times, poller } = setup();
    poller.schedule();
    poller.dispose();
    await clock.tickAsync(60_000);
    assert.deepStrictEqual(times(), []);
  });
});

describe('poller: the API budget', () => {
  /** A budget that is low (stretching every wait to at least `stretch` per request a round cost) or not. */
  const fakeBudget = () => {
    const budget = { answered: 0, low: false, asked: [] as number[], backgroundWait: (wait: number, cost: number) => (budget.asked.push(cost), budget.low ? Math.max(wait, cost * 10_000) : wait) };
    return budget;
  };

  it('slows automatic rounds while the budget is low, by what the last round cost', async () => {
    const budget = fakeBudget();
    const { clock, poller } = setup({
      budget,
      poll: async () => {
        budget.answered += 3; // a round of three requests
        return undefined;
      },
    });
    poller.schedule();
    await clock.tickAsync(2_000);
    assert.strictEqual(budget.answered, 6, 'two rounds at the rule\'s 1 s while the budget is not low');
    budget.low = true;
    poller.reschedule();
    await clock.tickAsync(29_999);
    assert.strictEqual(budget.answered, 6, 'low: three requests a round wait 30 s');
    await clock.tickAsync(1);
    assert.strictEqual(budget.answered, 9);
    assert.deepStrictEqual(budget.asked.slice(0, 2), [1, 3], 'a round is counted at 1 until one has run');
  });

  it('without a budget, waits only by its rule', async () => {
    const { clock, times, poller } = setup();
    poller.schedule();
    await clock.tickAsync(3_000);
    assert.deepStrictEqual(times(), [1_000, 2_000, 3_000]);
  });
});
