import * as assert from 'assert';
import { clashQuestion, decideClashes, takenNames } from '../../../src/remote/uploadClashes';

describe('remote/uploadClashes: what Upload to Seven Bridges… sends when a name is taken', () => {
  const arriving = [
    { name: 'reads.fq', folder: false },
    { name: 'run', folder: true },
    { name: 'notes.txt', folder: false },
    { name: 'new.bam', folder: false },
  ];
  const existing = [
    { name: 'reads.fq', folder: false },
    { name: '1_reads.fq', folder: false },
    { name: 'run', folder: true },
    { name: 'notes.txt', folder: true },
  ];

  it('a folder onto a folder is merged, not taken; a file onto a file or a folder is taken', () => {
    assert.deepStrictEqual(takenNames(arriving, existing), ['reads.fq', 'notes.txt']);
    assert.deepStrictEqual(takenNames([{ name: 'x', folder: false }], []), []);
  });

  it('keep both: taken names go as the first free N_<name>, the rest as they are', () => {
    const d = decideClashes(arriving, existing, 'rename');
    assert.deepStrictEqual(d.renamed, [
      { from: 'reads.fq', to: '2_reads.fq' },
      { from: 'notes.txt', to: '1_notes.txt' },
    ]);
    assert.deepStrictEqual(d.sent, ['run', 'new.bam']);
    assert.deepStrictEqual(d.merged, ['run']);
    assert.deepStrictEqual([d.skipped, d.overwritten], [[], []]);
  });

  it('skip: taken names are not sent', () => {
    const d = decideClashes(arriving, existing, 'skip');
    assert.deepStrictEqual(d.skipped, ['reads.fq', 'notes.txt']);
    assert.deepStrictEqual(d.sent, ['run', 'new.bam']);
    assert.deepStrictEqual([d.renamed, d.overwritten], [[], []]);
  });

  it('overwrite: taken names replace what is there', () => {
    const d = decideClashes(arriving, existing, 'overwrite');
    assert.deepStrictEqual(d.overwritten, ['reads.fq', 'notes.txt']);
    assert.deepStrictEqual(d.sent, ['run', 'new.bam']);
  });

  it('the question names what is taken (a few by name), the names Keep Both gives, and says nothing was sent', () => {
    const one = clashQuestion(arriving, existing.slice(0, 2), 'p');
    assert.strictEqual(one.message, '"reads.fq" is already in p');
    assert.match(one.detail, /Keep Both sends them as 2_reads\.fq \(/);
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => ({ name, folder: false }));
    const many = clashQuestion(names, names, 'p');
    assert.match(many.message, /^7 names are already in p: a, b, c, d, e … and 2 more$/);
    assert.match(many.detail, /Nothing has been sent yet/);
  });
});
