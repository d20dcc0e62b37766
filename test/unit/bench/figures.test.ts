import * as assert from 'assert';
import { markdownTable, passes, ratio, type Figure } from '../../../scripts/bench/figures';

const throughput = (value: number | undefined, limit: number, peer?: number): Figure => ({
  section: 'Transfers',
  name: 'throughput',
  unit: 'MB/s',
  value,
  atLeast: true,
  limit,
  margin: "goal: ≥ 2 × the official client's",
  peer: peer === undefined ? undefined : { value: peer },
});

describe('bench figures: a floor (atLeast)', () => {
  it('passes at or above its limit, fails below it', () => {
    assert.strictEqual(passes(throughput(200, 100, 50)), true);
    assert.strictEqual(passes(throughput(100, 100, 50)), true);
    assert.strictEqual(passes(throughput(99.9, 100, 50)), false);
  });

  it('fails when nothing was measured, or the official client could not give its figure', () => {
    assert.strictEqual(passes(throughput(undefined, 100, 50)), false);
    assert.strictEqual(passes(throughput(NaN, 100, 50)), false);
    assert.strictEqual(passes(throughput(200, NaN, 50)), false);
    assert.strictEqual(passes({ ...throughput(200, 100), peer: { value: undefined, note: 'python3 missing' } }), false);
  });

  it('a ceiling stays a ceiling', () => {
    assert.strictEqual(passes({ ...throughput(200, 100, 50), atLeast: undefined }), false);
    assert.strictEqual(passes({ ...throughput(50, 100, 50), atLeast: undefined }), true);
  });

  it('shows the floor in the table, MB/s to a tenth, and the ratio to the official client', () => {
    const table = markdownTable([throughput(123.45, 100, 50)]);
    assert.match(table, /\| 123\.5 \| — \| ≥ 100\.0 \(goal: ≥ 2 × the official client's\) \| — \| 50\.0 \| 2\.47× \| ok \|/);
    assert.strictEqual(ratio(throughput(123.45, 100, 50))!.toFixed(2), '2.47');
  });
});
