import * as assert from 'assert';
import { findFileIds, isFileId, isJobId, isProjectId, isTaskId } from '../../../src/api/ids';

function table(name: string, fn: (value: string) => boolean, yes: string[], no: string[]): void {
  describe(`ids: ${name}`, () => {
    for (const value of yes) it(`accepts ${JSON.stringify(value)}`, () => assert.strictEqual(fn(value), true));
    for (const value of no) it(`refuses ${JSON.stringify(value)}`, () => assert.strictEqual(fn(value), false));
  });
}

table(
  'isTaskId',
  isTaskId,
  ['bd5e95d9-12b3-789c-45b6-34d8696571a9', 'BD5E95D9-12B3-789C-45B6-34D8696571A9', '00000000-0000-0000-0000-000000000000'],
  [
    '',
    'bd5e95d912b3789c45b634d8696571a9',
    'bd5e95d9-12b3-789c-45b6-34d8696571a',
    'bd5e95d9-12b3-789c-45b6-34d8696571a9a',
    'gd5e95d9-12b3-789c-45b6-34d8696571a9',
    ' bd5e95d9-12b3-789c-45b6-34d8696571a9',
    'bd5e95d9-12b3-789c-45b6-34d8696571a9\n',
    '{bd5e95d9-12b3-789c-45b6-34d8696571a9}',
  ],
);

table(
  'isFileId',
  isFileId,
  ['567890abc8a5639cc6722063', '567890ABC8A5639CC6722063'],
  ['', '567890abc8a5639cc672206', '567890abc8a5639cc67220633', '567890abc8a5639cc672206g', ' 567890abc8a5639cc6722063', '567890abc8a5639cc6722063\n'],
);

table(
  'isProjectId',
  isProjectId,
  ['rfranklin/my-project', 'r.franklin/my_project.2', 'A/B'],
  ['', 'my-project', 'rfranklin/', '/my-project', 'a/b/c', 'r franklin/p', 'rfranklin/p\n', 'rfranklin/../x?', '../..', '../user', 'rfranklin/..', './p'],
);

table('isJobId', isJobId, ['70711174378885120', '1'], ['', '-1', '7071117437888512a', '1.5', ' 1', '1234567890123456789012345678901']);

describe('ids: findFileIds', () => {
  const a = '567890abc8a5639cc6722063';
  const b = '567890abc9b0307bc0414999';
  it('finds every standalone 24-hex run, in order', () => {
    assert.deepStrictEqual(findFileIds(`copy ${a}, ${b} and ${a}`), [a, b, a]);
    assert.deepStrictEqual(findFileIds(`https://igor.sbgenomics.com/u/x/y/file/${a}/`), [a]);
    assert.deepStrictEqual(findFileIds(`${a}\n${b}`), [a, b]);
    assert.deepStrictEqual(findFileIds(`${a}-${b}`), [a, b]);
  });
  it('lowercases', () => assert.deepStrictEqual(findFileIds(a.toUpperCase()), [a]));
  it('ignores a 24-hex part of a longer hex run', () => {
    assert.deepStrictEqual(findFileIds(`${a}0`), []);
    assert.deepStrictEqual(findFileIds(`f${a}`), []);
    assert.deepStrictEqual(findFileIds(a + b), []);
    assert.deepStrictEqual(findFileIds('0123456789abcdef0123456789abcdef'), []);
  });
  it('ignores shorter runs, task UUIDs and text without IDs', () => {
    assert.deepStrictEqual(findFileIds(a.slice(1)), []);
    assert.deepStrictEqual(findFileIds('bd5e95d9-12b3-789c-45b6-34d8696571a9'), []);
    assert.deepStrictEqual(findFileIds(''), []);
    assert.deepStrictEqual(findFileIds('nothing here'), []);
  });
});
