import * as assert from 'assert';
import { ApiBudget, type BudgetHold } from '../../../src/api/budget';
import { Transport } from '../../../src/api/transport';
import { copyWrite } from '../../../src/copy/copyWrite';
import { FakeClock } from '../../support/fakeClock';
import { ENDPOINT, FakeFetch, rateHeaders, response, TOKEN } from './fakes';

/** An answer's headers: the rate limit, and the server's clock (`Date`) when given. */
function headers(remaining: number | string, reset: number | string, extra: Record<string, string> = {}) {
  const values: Record<string, string> = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset), ...extra };
  return { get: (name: string) => values[name.toLowerCase()] ?? null };
}

describe('API budget', () => {
  let clock: FakeClock;
  let budget: ApiBudget;
  beforeEach(() => {
    clock = new FakeClock();
    budget = new ApiBudget(clock);
  });

  it('reads every answer: the last state, on its endpoint, and how many answers came', () => {
    assert.strictEqual(budget.left(), undefined, 'unknown before any answer');
    budget.observe(ENDPOINT, headers(990, clock.nowSeconds + 300));
    budget.observe(ENDPOINT, headers(989, clock.nowSeconds + 300));
    assert.deepStrictEqual(budget.state(ENDPOINT), { limit: 1000, remaining: 989, reset: clock.nowSeconds + 300 });
    assert.strictEqual(budget.state('https://other.example.org/v2'), undefined);
    assert.deepStrictEqual(budget.left(), { limit: 1000, remaining: 989, untilResetMs: 300_000 });
    assert.strictEqual(budget.answered, 2);
  });

  it('keeps the last state when an answer has no, partial or unreadable rate-limit headers', () => {
    budget.observe(ENDPOINT, headers(50, clock.nowSeconds + 100));
    budget.observe(ENDPOINT, headers('', clock.nowSeconds + 100));
    budget.observe(ENDPOINT, headers('12abc', clock.nowSeconds + 100));
    budget.observe(ENDPOINT, { get: () => null });
    assert.strictEqual(budget.state()?.remaining, 50);
    assert.strictEqual(budget.answered, 4);
  });

  it("measures the reset on the server's clock (its Date header), not this machine's", () => {
    // The server is 60 s ahead: its reset, 300 s from its now, is 300 s from ours too.
    const serverNow = clock.now() + 60_000;
    budget.observe(ENDPOINT, headers(10, Math.floor(serverNow / 1000) + 300, { date: new Date(serverNow).toUTCString() }));
    assert.strictEqual(budget.left()?.untilResetMs, 300_000);
  });

  it('forgets what was left once the reset has passed: a fresh window', () => {
    budget.observe(ENDPOINT, headers(5, clock.nowSeconds + 10));
    assert.strictEqual(budget.low, true);
    clock.advance(10_000);
    assert.strictEqual(budget.left(), undefined);
    assert.strictEqual(budget.low, false);
  });

  it('is low under 10 % of the limit left', () => {
    budget.observe(ENDPOINT, headers(100, clock.nowSeconds + 100));
    assert.strictEqual(budget.low, false);
    budget.observe(ENDPOINT, headers(99, clock.nowSeconds + 100));
    assert.strictEqual(budget.low, true);
  });

  describe('background rounds', () => {
    it('wait as asked while the budget is not low', () => {
      budget.observe(ENDPOINT, headers(100, clock.nowSeconds + 200));
      assert.strictEqual(budget.backgroundWait(1_000, 10), 1_000);
      assert.strictEqual(new ApiBudget(clock).backgroundWait(1_000, 10), 1_000, 'nor while it is unknown');
    });

    it('while low, spend at most half of what is left before the reset, by what a round costs', () => {
      budget.observe(ENDPOINT, headers(80, clock.nowSeconds + 200));
      // 40 requests over 200 s: a round of 1 every 5 s, a round of 4 every 20 s.
      assert.strictEqual(budget.backgroundWait(1_000, 1), 5_000);
      assert.strictEqual(budget.backgroundWait(1_000, 4), 20_000);
      assert.strictEqual(budget.backgroundWait(60_000, 1), 60_000, 'never sooner than asked');
    });

    it('while low, a round that would spend more than half of what is left waits for the reset (plus 1 s)', () => {
      budget.observe(ENDPOINT, headers(19, clock.nowSeconds + 200));
      assert.strictEqual(budget.backgroundWait(1_000, 10), 201_000);
      budget.observe(ENDPOINT, headers(0, clock.nowSeconds + 200));
      assert.strictEqual(budget.backgroundWait(1_000, 1), 201_000);
    });
  });

  describe('bulk work', () => {
    it('goes on while a call leaves 10 % of the limit; then waits for the reset and says until when', () => {
      const holds: BudgetHold[] = [];
      budget.onDidHold((hold) => holds.push(hold));
      assert.strictEqual(budget.holdBulk(), 0, 'unknown: the first answer tells');
      budget.observe(ENDPOINT, headers(101, clock.nowSeconds + 120));
      assert.strictEqual(budget.holdBulk(), 0);
      assert.strictEqual(budget.holdBulk(2), 121_000, 'two more would leave 99');
      budget.observe(ENDPOINT, headers(100, clock.nowSeconds + 120));
      assert.strictEqual(budget.holdBulk(), 121_000);
      assert.deepStrictEqual(holds, [
        { until: clock.now() + 121_000, remaining: 101, limit: 1000 },
        { until: clock.now() + 121_000, remaining: 100, limit: 1000 },
      ]);
      clock.advance(120_000);
      assert.strictEqual(budget.holdBulk(), 0, 'after the reset');
    });
  });

  it('a copy call is bulk work: the copy write holds it back by the budget, one POST each', () => {
    const parts = { jobs: undefined as never, files: undefined as never, tracker: undefined as never, clock, serverNow: () => 0 };
    const copy = copyWrite({ ...parts, budget });
    const record = undefined as never;
    budget.observe(ENDPOINT, headers(101, clock.nowSeconds + 60));
    assert.strictEqual(copy.hold?.(record), 0);
    budget.observe(ENDPOINT, headers(100, clock.nowSeconds + 60));
    assert.strictEqual(copy.hold?.(record), 61_000);
    assert.strictEqual(copyWrite(parts).hold, undefined, 'without a budget: never held');
  });

  describe('in the transport', () => {
    it('reads every answer, and the free GET /v2/rate_limit', async () => {
      const reset = clock.nowSeconds + 300;
      const fake = new FakeFetch([
        response(200, {}, rateHeaders(500, reset)),
        response(200, { rate: { limit: 1000, remaining: 499, reset } }),
      ]);
      const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
      await transport.get('user');
      assert.strictEqual(transport.budget.state(ENDPOINT)?.remaining, 500);
      await transport.warm();
      assert.deepStrictEqual(fake.calls.map((c) => c.url), [`${ENDPOINT}/user`, `${ENDPOINT}/rate_limit`]);
      assert.strictEqual(transport.budget.state(ENDPOINT)?.remaining, 499);
      assert.strictEqual(transport.budget.answered, 2);
    });

    it('warm() sends nothing while signed out, and never throws', async () => {
      const fake = new FakeFetch([]);
      const signedOut = new Transport({ credentials: async () => undefined, fetch: fake.fetch, clock });
      await signedOut.warm();
      const failing = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: async () => Promise.reject(new Error('offline')), clock });
      await failing.warm();
      assert.deepStrictEqual(fake.calls, []);
    });
  });
});
