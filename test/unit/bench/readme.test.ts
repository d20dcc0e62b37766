import * as assert from 'assert';
import { mergePartialRun } from '../../../scripts/bench/readme';

const README = [
  '# Product',
  '',
  '## Performance',
  '',
  'Measured 2026-11-27 19:12 UTC on a machine.',
  '',
  '| Figure | Unit | Measured | OK |',
  '|---|---|---:|---|',
  '| Tree: counts | ms | 34 | ok |',
  '| Tree: listing | ms | 201 | ok |',
  '',
  'Every figure is within its limit.',
  '',
  'How the figures are taken:',
  '',
  '- Tree: how the tree is measured.',
  '- Reading them: how to read them.',
  '',
  '## Next section',
  '',
  'Left as it is.',
].join('\n');

describe('bench README: a partial run merged in (--only=… --merge)', () => {
  it('adds the rows of figures the table does not have yet at its end, and replaces the others in place', () => {
    const merged = mergePartialRun(README, ['| Tree: listing | ms | 190 | ok |', '| Waits: sign-in | ms | 633 | ok |'], 'Partial run: the rows of waits measured today (`--only=waits --merge`) on a machine.', ['Tree: how the tree is measured.', 'Reading them: how to read them.']);
    const table = merged.split('\n').filter((l) => l.startsWith('| '));
    assert.deepStrictEqual(table, ['| Figure | Unit | Measured | OK |', '| Tree: counts | ms | 34 | ok |', '| Tree: listing | ms | 190 | ok |', '| Waits: sign-in | ms | 633 | ok |']);
    assert.ok(merged.includes('| Waits: sign-in | ms | 633 | ok |\n\nEvery figure is within its limit.'), merged);
  });

  it("says again which figures are over their limit, from the merged table's OK column", () => {
    const note = 'Partial run: the rows of waits measured today (`--only=waits --merge`) on a machine.';
    const failing = mergePartialRun(README, ['| Waits: download \\| 200 files | ms | 4,008 | FAIL |', '| Tree: counts | ms | 900 | FAIL |'], note, []);
    assert.ok(failing.includes('\n**Over the limit:** Tree: counts; Waits: download | 200 files.\n'), failing);
    assert.ok(!failing.includes('Every figure is within its limit.'));
    const passing = mergePartialRun(failing, ['| Waits: download \\| 200 files | ms | 3,008 | ok |', '| Tree: counts | ms | 34 | ok |'], note, []);
    assert.ok(passing.includes('\nEvery figure is within its limit.\n'), passing);
    assert.ok(!passing.includes('Over the limit'));
  });

  it('writes the notes on how the figures are taken afresh, so a new part brings its own', () => {
    const merged = mergePartialRun(README, [], 'Partial run: the rows of waits measured today (`--only=waits --merge`) on a machine.', ['Tree: how the tree is measured.', 'Waits: how the waits are measured.', 'Reading them: how to read them.']);
    assert.ok(merged.includes('How the figures are taken:\n\n- Tree: how the tree is measured.\n- Waits: how the waits are measured.\n- Reading them: how to read them.\n\n## Next section\n\nLeft as it is.'), merged);
  });

  it("puts the run's note under the Measured line, in place of an earlier partial run's of the same part", () => {
    const once = mergePartialRun(README, [], 'Partial run: the rows of waits measured yesterday (`--only=waits --merge`) on a machine.', []);
    const twice = mergePartialRun(once, [], 'Partial run: the rows of waits measured today (`--only=waits --merge`) on a machine.', []);
    const lines = twice.split('\n');
    const measured = lines.findIndex((l) => l.startsWith('Measured '));
    assert.deepStrictEqual(lines.slice(measured, measured + 4), ['Measured 2026-11-27 19:12 UTC on a machine.', '', 'Partial run: the rows of waits measured today (`--only=waits --merge`) on a machine.', '']);
    assert.strictEqual(lines.filter((l) => l.startsWith('Partial run:')).length, 1);
  });
});
