import * as assert from 'assert';
import { idsInEditorText, splitIdText } from '../../../src/copy/extract';
import { outputFileIds, outputNames } from '../../../src/api/outputs';
import { checkSources } from '../../../src/copy/request';

const A = '567890abc8a5639cc6722063';
const B = '567890abc8a5639cc6722064';

describe('ID extraction', () => {
  it('splits pasted text on spaces, commas, semicolons and new lines', () => {
    assert.deepStrictEqual(splitIdText(`${A}, ${B}\n${A}\r\n\t${B};${A}`), [A, B, A, B, A]);
  });
  it('keeps malformed entries so they can be named', () => {
    const entries = splitIdText(`${A} hello ${B.slice(0, 20)}`);
    const check = checkSources(entries);
    assert.deepStrictEqual(check.ids, [A]);
    assert.deepStrictEqual(check.malformed, ['hello', B.slice(0, 20)]);
  });
  it('drops quotes and brackets, lowercases, and reads a platform URL', () => {
    assert.deepStrictEqual(splitIdText(`["${A.toUpperCase()}", '${B}']`), [A, B]);
    assert.deepStrictEqual(splitIdText(`https://igor.sbgenomics.com/u/rfranklin/p/files/${B}/`), [B]);
  });
  it('returns nothing for blank text', () => {
    assert.deepStrictEqual(splitIdText('  \n , ; '), []);
  });
  it('finds IDs anywhere in an editor selection, not inside longer hex runs', () => {
    const text = `{"id": "${A}", "other": "${B}0", "x": "${B}"}\nfile ${A} again`;
    assert.deepStrictEqual(idsInEditorText(text), [A, B, A]);
  });
  it("takes the file IDs of a task's outputs, nested in lists", () => {
    const outputs = {
      out: { class: 'File', path: A, name: 'out.txt' },
      many: [{ class: 'File', path: B, name: 'b.txt' }, null, { class: 'Directory', path: 'c'.repeat(24), name: 'dir' }],
      number: 3,
      missing: null,
    };
    assert.deepStrictEqual(outputFileIds(outputs), [A, B, 'c'.repeat(24)]);
    assert.strictEqual(outputNames(outputs).get(B), 'b.txt');
    assert.deepStrictEqual(outputFileIds(undefined), []);
  });
});
