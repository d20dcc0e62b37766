import * as assert from 'assert';
import { formatDuration, relativeTime, useDisplayLanguage } from '../../../src/util/time';

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

describe('relative times in words', () => {
  const NOW = Date.UTC(2026, 2, 7, 12, 0, 0);
  const at = (ms: number) => new Date(NOW - ms);
  afterEach(() => useDisplayLanguage('en'));

  it('says how long ago (or how soon) in the largest unit, and "now" within 10 s', () => {
    useDisplayLanguage('en');
    const cases: [number, string][] = [
      [0, 'now'],
      [9 * S, 'now'],
      [-9 * S, 'now'],
      [10 * S, '10 seconds ago'],
      [MIN, '1 minute ago'],
      [5 * MIN + 59 * S, '5 minutes ago'],
      [H, '1 hour ago'],
      [2 * DAY, '2 days ago'],
      [8 * DAY, '1 week ago'],
      [61 * DAY, '2 months ago'],
      [400 * DAY, '1 year ago'],
      [-3 * MIN, 'in 3 minutes'],
    ];
    assert.deepStrictEqual(
      cases.map(([ms]) => [ms, relativeTime(at(ms), NOW)]),
      cases,
    );
  });

  it('says it in the display language it is handed', () => {
    useDisplayLanguage('de');
    assert.deepStrictEqual([relativeTime(at(5 * MIN), NOW), relativeTime(at(2 * DAY), NOW), relativeTime(at(-3 * MIN), NOW), relativeTime(at(0), NOW)], ['vor 5 Minuten', 'vor 2 Tagen', 'in 3 Minuten', 'jetzt']);
    useDisplayLanguage('fr');
    assert.strictEqual(relativeTime(at(H), NOW), 'il y a 1 heure');
  });

  it('keeps the runtime\'s default for a language tag it cannot read', () => {
    useDisplayLanguage('not a language tag!');
    assert.strictEqual(relativeTime(at(5 * MIN), NOW), new Intl.RelativeTimeFormat(undefined).format(-5, 'minute'));
  });
});
