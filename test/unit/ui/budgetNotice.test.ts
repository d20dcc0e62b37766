import * as assert from 'assert';
import { ApiBudget } from '../../../src/api/budget';
import { BudgetNotice } from '../../../src/ui/budgetNotice';
import { FakeClock } from '../../support/fakeClock';

const ENDPOINT = 'https://api.sbgenomics.com/v2';

describe('API budget notice', () => {
  let clock: FakeClock;
  let budget: ApiBudget;
  let notice: BudgetNotice;
  let said: (string | undefined)[];
  const answer = (remaining: number, resetInSeconds: number) => budget.set(ENDPOINT, { limit: 1000, remaining, reset: clock.nowSeconds + resetInSeconds });

  beforeEach(() => {
    clock = new FakeClock();
    budget = new ApiBudget(clock);
    notice = new BudgetNotice(budget, clock);
    said = [];
    notice.onDidChange((words) => said.push(words));
  });
  afterEach(() => notice.dispose());

  it('says nothing while the budget is unknown or not low (10 % left or more)', () => {
    assert.strictEqual(notice.current, undefined);
    answer(100, 120);
    assert.strictEqual(notice.current, undefined);
    assert.deepStrictEqual(said, []);
  });

  it('while low, says what is left and when it resets, in whole minutes past the first, then seconds', () => {
    answer(85, 90);
    assert.strictEqual(notice.current, 'API budget: 85 of 1,000 left, resets in 2 min');
    answer(84, 40);
    assert.strictEqual(notice.current, 'API budget: 84 of 1,000 left, resets in 40 s');
    assert.deepStrictEqual(said, ['API budget: 85 of 1,000 left, resets in 2 min', 'API budget: 84 of 1,000 left, resets in 40 s']);
  });

  it('keeps "resets in" true with no answer coming, and says nothing once the reset has passed', async () => {
    answer(5, 150);
    assert.strictEqual(notice.current, 'API budget: 5 of 1,000 left, resets in 3 min');
    await clock.tickAsync(31_000);
    assert.strictEqual(notice.current, 'API budget: 5 of 1,000 left, resets in 2 min');
    await clock.tickAsync(120_000);
    assert.strictEqual(notice.current, undefined, 'a fresh window after the reset');
    assert.strictEqual(said[said.length - 1], undefined);
  });
});
