import * as assert from 'assert';
import { checkedText, submissionTellings } from '../../../src/copy/submissionWords';
import type { WriteRecord } from '../../../src/write/outbox';

const record = (state: WriteRecord['state'], items: number, note?: string): WriteRecord<{ items: unknown[] }> => ({
  v: 2,
  id: `r-${state}-${items}`,
  kind: 'copy',
  group: 'g',
  account: 'e#u',
  owner: 'w',
  state,
  payload: { items: Array.from({ length: items }, (_, i) => i) },
  createdAt: 0,
  attempts: 1,
  resends: 0,
  note,
});

describe('what a person is told about a copy that did not go straight through', () => {
  it('a lost answer, said plainly: what did not answer, why in a sentence of its own, and that it is being checked', () => {
    const [telling] = submissionTellings([record('unsure', 2, 'The connection to the platform was reset before it answered.')], 'rfranklin/gamma › results', 0);
    assert.deepStrictEqual(
      [telling.severity, telling.text],
      ['warning', 'The platform did not answer the copy of 2 items to rfranklin/gamma › results. The connection to the platform was reset before it answered. Checking whether it arrived before sending anything again: nothing to do.'],
    );
    assert.doesNotMatch(telling.text, /\([^)]*\(/, 'no parentheses inside parentheses');
  });

  it('then the outcome: it had arrived, or it had not and was sent again', () => {
    assert.strictEqual(checkedText([record('sent', 2)], [], 'rfranklin/gamma'), 'The copy of 2 items to rfranklin/gamma had arrived: its job is followed in Data Jobs.');
    assert.strictEqual(checkedText([], [record('sent', 1)], 'rfranklin/gamma'), 'The copy of 1 item to rfranklin/gamma had not arrived: it was sent again, and the platform took it.');
    assert.strictEqual(
      checkedText([record('sent', 1)], [record('sent', 3)], 'x'),
      'The copy of 1 item to x had arrived: its job is followed in Data Jobs. The copy of 3 items to x had not arrived: it was sent again, and the platform took it.',
    );
  });
});
