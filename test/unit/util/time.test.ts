import * as assert from 'assert';
import { formatDuration } from '../../../src/util/time';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

describe('durations in words', () => {
  it('says a duration in its two largest units, leaving out a unit that is zero', () => {
    const cases: [number, string][] = [
      [0, '0 s'],
      [45 * S, '45 s'],
      [60 * S, '1 min'],
      [3 * MIN + 20 * S, '3 min 20 s'],
      [50 * MIN, '50 min'],
      [2 * H + 10 * MIN, '2 h 10 min'],
      [2 * H + 10 * MIN + 59 * S, '2 h 10 min'],
      [2 * H, '2 h'],
      [271 * H + 8 * MIN, '11 days 7 h'],
      [DAY + 3 * H, '1 day 3 h'],
      [DAY + 40 * MIN, '1 day'],
      [11 * DAY, '11 days'],
    ];
    assert.deepStrictEqual(
      cases.map(([ms]) => [ms, formatDuration(ms)]),
      cases,
    );
  });

  it('rounds to the second and never says a negative duration', () => {
    assert.strictEqual(formatDuration(1_499), '1 s');
    assert.strictEqual(formatDuration(-5 * S), '0 s');
  });
});
