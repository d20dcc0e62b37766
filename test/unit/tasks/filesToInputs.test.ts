// Run App on These Files… (tasks/filesToInputs.ts): the files and folders picked, placed into the app's file inputs.
import * as assert from 'assert';
import { appInputs } from '../../../src/apps/cwlInputs';
import { placeFiles, type PickedFile } from '../../../src/tasks/filesToInputs';

const file = (id: string, name: string): PickedFile => ({ id, name, folder: false });
const folder = (id: string, name: string): PickedFile => ({ id, name, folder: true });

const bwa = appInputs({
  inputs: [
    { id: 'threads', type: 'int', default: 8 },
    { id: 'reads', type: 'File[]', 'sbg:fileTypes': 'FASTQ, FASTQ.GZ' },
    { id: 'reference', type: 'File', 'sbg:fileTypes': 'FASTA, FA' },
    { id: 'known', type: 'File?', 'sbg:fileTypes': 'VCF' },
    { id: 'index_dir', type: 'Directory' },
  ],
});

describe('tasks/filesToInputs: files placed into an app\'s inputs', () => {
  it('gives a File[] every file whose type fits, a single File the first, a Directory a folder', () => {
    const picked = [file('r1', 's1_R1.fastq.gz'), file('ref', 'GRCh38.fa'), file('r2', 's1_R2.FASTQ.GZ'), folder('idx', 'bwa-index'), file('ref2', 'other.fasta')];
    assert.deepStrictEqual(placeFiles(bwa, picked), {
      inputs: { reads: ['r1', 'r2'], reference: 'ref', index_dir: 'idx' },
      unplaced: [file('ref2', 'other.fasta')],
    });
  });

  it('places each file once: inputs that name its type first, then those that name none; required before optional', () => {
    const inputs = appInputs({
      inputs: [
        { id: 'extra', type: 'File?' },
        { id: 'bam', type: 'File', 'sbg:fileTypes': 'BAM' },
        { id: 'anything', type: 'File' },
        { id: 'more', type: 'File[]?' },
      ],
    });
    const picked = [file('a', 'notes.txt'), file('b', 'x.bam'), file('c', 'y.bed'), file('d', 'z.bed')];
    assert.deepStrictEqual(placeFiles(inputs, picked), { inputs: { bam: 'b', anything: 'a', extra: 'c', more: ['d'] }, unplaced: [] });
  });

  it('leaves out what fits no input: a folder with no Directory input, a file of another type, an app without file inputs', () => {
    assert.deepStrictEqual(placeFiles(bwa, [folder('f', 'runs'), folder('g', 'more')]), { inputs: { index_dir: 'f' }, unplaced: [folder('g', 'more')] });
    assert.deepStrictEqual(placeFiles(bwa, [file('x', 'table.tsv')]), { inputs: {}, unplaced: [file('x', 'table.tsv')] });
    assert.deepStrictEqual(placeFiles(appInputs({ inputs: [{ id: 'n', type: 'int' }] }), [file('x', 'a.bam')]), { inputs: {}, unplaced: [file('x', 'a.bam')] });
  });

  it('fills a Directory[] with every folder', () => {
    const inputs = appInputs({ inputs: [{ id: 'dirs', type: 'Directory[]' }] });
    assert.deepStrictEqual(placeFiles(inputs, [folder('f', 'a'), file('x', 'b.txt'), folder('g', 'c')]), { inputs: { dirs: ['f', 'g'] }, unplaced: [file('x', 'b.txt')] });
  });
});
