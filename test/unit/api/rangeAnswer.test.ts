// A storage's answer to a read checked against what was asked (issue 36, item 3): a 206 must hold the bytes asked,
// no more, no fewer, no others; a 200 is the whole file from byte 0.
import * as assert from 'assert';
import { rangeAnswer } from '../../../src/api/rangeAnswer';

const MiB = 1024 * 1024;

describe('api: a range answer checked against what was asked', () => {
  it('takes a 206 that holds exactly the bytes asked, or the file\'s end when it is shorter', () => {
    assert.deepStrictEqual(rangeAnswer({ start: 0, end: 8 * MiB - 1 }, 206, `bytes 0-${8 * MiB - 1}/${20 * MiB}`, String(8 * MiB)), { partial: true, start: 0, length: 8 * MiB, size: 20 * MiB });
    assert.deepStrictEqual(rangeAnswer({ start: 16, end: 99 }, 206, 'bytes 16-39/40', '24'), { partial: true, start: 16, length: 24, size: 40 }, 'the file ends before the range');
    assert.deepStrictEqual(rangeAnswer({ start: 5 }, 206, 'bytes 5-9/10', null), { partial: true, start: 5, length: 5, size: 10 }, 'to the end, no Content-Length');
    assert.deepStrictEqual(rangeAnswer({ start: 5, end: 9 }, 206, 'bytes 5-9/*', '5'), { partial: true, start: 5, length: 5, size: undefined }, 'a size not said');
    assert.deepStrictEqual(rangeAnswer({ tail: 4 }, 206, 'bytes 6-9/10', '4'), { partial: true, start: 6, length: 4, size: 10 });
    assert.deepStrictEqual(rangeAnswer({ tail: 40 }, 206, 'bytes 0-9/10', '10'), { partial: true, start: 0, length: 10, size: 10 }, 'a tail longer than the file');
  });

  it('refuses a 206 that starts elsewhere, ends elsewhere, disagrees with its length or its total, or says no range', () => {
    const wrong = (answer: ReturnType<typeof rangeAnswer>) => 'wrong' in answer;
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 100-199/1000', '100')), 'shifted: starts later than asked');
    assert.ok(wrong(rangeAnswer({ start: 100, end: 199 }, 206, 'bytes 0-99/1000', '100')), 'starts earlier than asked');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 0-49/1000', '50')), 'ends before the range, the file going on');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 0-149/1000', '150')), 'ends after the range');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 0-99/1000', '120')), 'a length that disagrees');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 0-99/50', '100')), 'a range past the total');
    assert.ok(wrong(rangeAnswer({ start: 5 }, 206, 'bytes 5-8/10', '4')), 'to the end, but stops short of the total');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, null, '100')), 'no Content-Range');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 0-99/1e18', '100')), 'a total that is not a count');
    assert.ok(wrong(rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 0-99/1000', 'lots')), 'a length that is not a count');
    assert.ok(wrong(rangeAnswer(undefined, 206, 'bytes 0-99/1000', '100')), 'a range nobody asked for');
    assert.ok(wrong(rangeAnswer({ tail: 4 }, 206, 'bytes 0-3/10', '4')), 'a tail from the start');
    const said = rangeAnswer({ start: 0, end: 99 }, 206, 'bytes 100-199/1000', '100');
    assert.match('wrong' in said ? said.wrong : '', /sent bytes 100-199\/1000 where bytes 0-99 were asked/);
  });

  it('reads a 200 as the whole file from byte 0, its size its length', () => {
    assert.deepStrictEqual(rangeAnswer({ start: 100, end: 199 }, 200, null, '1000'), { partial: false, start: 0, length: 1000, size: 1000 });
    assert.deepStrictEqual(rangeAnswer(undefined, 200, null, null), { partial: false, start: 0, length: undefined, size: undefined });
  });
});
