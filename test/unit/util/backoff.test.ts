import * as assert from 'assert';
import { backoffWait, nextBackoff } from '../../../src/util/backoff';

describe('backoff', () => {
  it('waits the first wait after one fault, then doubles it with each fault in a row, up to the cap', () => {
    const rule = { firstMs: 1_000, factor: 2, capMs: 30_000 };
    assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7].map((n) => backoffWait(rule, n)), [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('from the last wait: the first wait when there was none, else the next one, up to the cap', () => {
    const rule = { firstMs: 1_000, factor: 2, capMs: 60_000 };
    assert.deepStrictEqual([undefined, 0, 1_000, 2_000, 40_000, 60_000].map((last) => nextBackoff(rule, last)), [1_000, 1_000, 2_000, 4_000, 60_000, 60_000]);
    // A cap under the first wait wins.
    assert.strictEqual(nextBackoff({ firstMs: 1_000, factor: 2, capMs: 400 }, undefined), 400);
  });

  it('adds the spread at random on top of the wait, past the cap', () => {
    const rule = { firstMs: 400, factor: 2, capMs: 1_000, spreadMs: 100 };
    assert.deepStrictEqual([1, 2, 3].map((n) => backoffWait(rule, n, () => 0.5)), [450, 850, 1_050]);
    assert.strictEqual(backoffWait(rule, 1, () => 0), 400);
  });
});
