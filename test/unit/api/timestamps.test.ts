import * as assert from 'assert';
import { formatFilterTimestamp, parseFilterTimestamp, parseRecordTimestamp } from '../../../src/api/timestamps';
import { checkTaskQuery } from '../../../src/api/tasks';
import { ApiError } from '../../../src/api/errors';

describe('filter timestamps: parseFilterTimestamp', () => {
  const valid: [string, string][] = [
    ['2016-04-01T14:25:50+01:00', '2016-04-01T13:25:50.000Z'],
    ['2016-04-01T14:25:50-01:30', '2016-04-01T15:55:50.000Z'],
    ['2016-04-01T00:30:00+01:00', '2016-03-31T23:30:00.000Z'],
    ['2016-04-01T14:25:50+00:00', '2016-04-01T14:25:50.000Z'],
    ['2016-04-01T14:25:50-00:00', '2016-04-01T14:25:50.000Z'],
    ['2016-04-01T23:59:59+14:00', '2016-04-01T09:59:59.000Z'],
    ['2016-04-01T14:25:50', '2016-04-01T14:25:50.000Z'],
    ['2016-04-01T00:00:00', '2016-04-01T00:00:00.000Z'],
    ['2016-12-31T23:59:59', '2016-12-31T23:59:59.000Z'],
    ['2016-04-01', '2016-04-01T00:00:00.000Z'],
    ['2016-02-29', '2016-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['2016-04-30', '2016-04-30T00:00:00.000Z'],
  ];
  for (const [input, iso] of valid) {
    it(`accepts ${input} as ${iso}`, () => {
      const result = parseFilterTimestamp(input);
      assert.ok(result.ok, result.ok ? '' : result.reason);
      assert.strictEqual(result.date.toISOString(), iso);
    });
  }

  // [input, a fragment the reason must contain]
  const invalid: [string, string, RegExp][] = [
    ['month 13', '2016-13-01', /Month 13 does not exist/],
    ['month 00', '2016-00-10', /Month 00 does not exist/],
    ['day 31 in April', '2016-04-31', /Day 31 does not exist in 2016-04 \(01–30\)/],
    ['day 00', '2016-04-00', /Day 00 does not exist/],
    ['Feb 29 in a non-leap year', '2015-02-29', /Day 29 does not exist in 2015-02 \(01–28\)/],
    ['Feb 29 in a century non-leap year', '1900-02-29T10:00:00', /Day 29 does not exist in 1900-02/],
    ['hour 24', '2016-04-01T24:00:00', /Hour 24 does not exist/],
    ['minute 60', '2016-04-01T14:60:00', /Minute 60 does not exist/],
    ['second 60', '2016-04-01T14:25:60', /Second 60 does not exist/],
    ['an offset beyond 14 hours', '2016-04-01T14:25:50+15:00', /Offset \+15:00 is not a time-zone offset/],
    ['offset minutes 60', '2016-04-01T14:25:50+01:60', /Offset \+01:60/],
    ['an offset without minutes', '2016-04-01T14:25:50+01', /offset needs minutes/],
    ['an offset without a colon', '2016-04-01T14:25:50+0100', /offset needs a colon/],
    ['a trailing Z', '2016-04-01T14:25:50Z', /trailing Z is not accepted/],
    ['a lowercase trailing z', '2016-04-01T14:25:50z', /trailing Z is not accepted/],
    ['fractions of a second', '2016-04-01T14:25:50.123', /Fractions of a second/],
    ['fractions with Z', '2016-04-01T14:25:50.123Z', /Fractions of a second/],
    ['no seconds', '2016-04-01T14:25', /Seconds are required/],
    ['a space separator', '2016-04-01 14:25:50', /with T, not a space/],
    ['trailing text after a date', '2016-04-01abc', /Unexpected text after "2016-04-01": "abc"/],
    ['trailing text after a time', '2016-04-01T14:25:50 UTC', /Unexpected text after "2016-04-01T14:25:50": " UTC"/],
    ['trailing text after an offset', '2016-04-01T14:25:50+01:00x', /Unexpected text after "2016-04-01T14:25:50\+01:00": "x"/],
    ['a single-digit month', '2016-4-01', /Month and day need two digits/],
    ['a single-digit day', '2016-04-1', /Month and day need two digits/],
    ['empty', '', /^Empty\./],
    ['blank', '   ', /^Empty\./],
    ['garbage', 'yesterday', /"yesterday" is not a date/],
    ['a slash date', '2016/04/01', /is not a date/],
    ['a lowercase t', '2016-04-01t14:25:50', /Unexpected text after "2016-04-01"/],
  ];
  for (const [what, input, reason] of invalid) {
    it(`rejects ${what} (${JSON.stringify(input)})`, () => {
      const result = parseFilterTimestamp(input);
      assert.strictEqual(result.ok, false, `${input} was accepted`);
      if (!result.ok) assert.match(result.reason, reason);
    });
  }

  it('tells which forms are accepted when the shape is wrong', () => {
    const result = parseFilterTimestamp('2016-04-01T14:25:50Z');
    assert.ok(!result.ok && result.reason.includes('yyyy-MM-ddTHH:mm:ss±HH:mm'));
  });

  it('reads years before 100 as those years, not as 19xx', () => {
    const result = parseFilterTimestamp('0050-06-01T12:00:00');
    assert.ok(result.ok);
    assert.strictEqual(result.date.getUTCFullYear(), 50);
    assert.strictEqual(result.date.toISOString(), '0050-06-01T12:00:00.000Z');
    const leap = parseFilterTimestamp('0004-02-29');
    assert.ok(leap.ok, leap.ok ? '' : leap.reason);
    assert.strictEqual(leap.date.toISOString(), '0004-02-29T00:00:00.000Z');
  });
});

describe('filter timestamps: formatFilterTimestamp', () => {
  it('writes the UTC form without offset, Z or fractions', () => {
    assert.strictEqual(formatFilterTimestamp(new Date(Date.UTC(2016, 3, 1, 13, 25, 50, 999))), '2016-04-01T13:25:50');
    assert.strictEqual(formatFilterTimestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5))), '2026-01-02T03:04:05');
  });

  it('round-trips through parseFilterTimestamp (to the second)', () => {
    for (const ms of [0, Date.UTC(2016, 1, 29, 23, 59, 59, 500), Date.UTC(2026, 10, 21, 5, 0, 0)]) {
      const text = formatFilterTimestamp(new Date(ms));
      const back = parseFilterTimestamp(text);
      assert.ok(back.ok, text);
      assert.strictEqual(back.date.getTime(), Math.floor(ms / 1000) * 1000);
    }
  });
});

describe('record timestamps: parseRecordTimestamp', () => {
  it('reads the Z form and refuses what is not a date', () => {
    assert.strictEqual(parseRecordTimestamp('2015-11-26T14:14:10Z')?.toISOString(), '2015-11-26T14:14:10.000Z');
    assert.strictEqual(parseRecordTimestamp(''), undefined);
    assert.strictEqual(parseRecordTimestamp(null), undefined);
    assert.strictEqual(parseRecordTimestamp(12), undefined);
    assert.strictEqual(parseRecordTimestamp('soon'), undefined);
  });
});

describe('task filter check: time bounds', () => {
  it('refuses a bad bound and names it, before anything is sent', () => {
    assert.throws(
      () => checkTaskQuery({ started_to: '2016-04-01T14:25:50Z' }),
      (e: unknown) => e instanceof ApiError && e.kind === 'invalid' && /^started_to: A trailing Z/.test(e.message),
    );
  });

  it('sends a bound as it was checked (surrounding blanks removed)', () => {
    const sent = checkTaskQuery({ created_from: ' 2016-04-01 ', ended_to: '2016-04-02T10:00:00+02:00\n' });
    assert.strictEqual(sent.created_from, '2016-04-01');
    assert.strictEqual(sent.ended_to, '2016-04-02T10:00:00+02:00');
  });
});
