// An app's CWL read as a task form needs it (apps/cwlInputs.ts): every type form of contract §14.2, v1.0 and draft-2.
import * as assert from 'assert';
import { appInputs, appOutputs, appSummary, fileKind, fitsFileTypes, typeName } from '../../../src/apps/cwlInputs';

const v1 = {
  class: 'CommandLineTool',
  cwlVersion: 'v1.0',
  label: 'Variant Filter',
  'sbg:toolkit': 'vfilter',
  'sbg:toolkitVersion': '1.3',
  inputs: [
    { id: 'input_bam', label: 'Aligned reads', doc: 'Sorted BAM.', type: 'File', secondaryFiles: ['.bai'], 'sbg:fileTypes': 'BAM', 'sbg:category': 'File Inputs' },
    { id: 'intervals', type: 'File?', 'sbg:fileTypes': 'bed' },
    { id: 'known_sites', type: { type: 'array', items: 'File' }, default: [] },
    { id: 'annotation_dir', type: 'Directory?' },
    { id: 'mode', type: { type: 'enum', name: 'mode', symbols: ['#main/mode/strict', 'lenient'] } },
    { id: 'output_format', type: ['null', { type: 'enum', name: 'of', symbols: ['VCF', 'BCF'] }], 'sbg:toolDefaultValue': 'VCF' },
    { id: 'min_quality', type: 'int', default: 30 },
    { id: 'exclude', type: 'string[]?' },
    { id: 'read_filter', type: ['null', { type: 'record', name: 'rf', fields: [{ name: 'min_mapq', type: 'int' }] }] },
    { id: 'flag', type: 'boolean' },
    { id: 'odd', type: 'Flie' },
  ],
  outputs: [{ id: 'filtered', type: 'File', 'sbg:fileTypes': 'VCF.GZ' }, { id: 'report', type: 'File?' }],
};

describe('apps/cwlInputs: an app\'s inputs from its CWL', () => {
  it('reads every type form, with what is required, optional, defaults and file types', () => {
    const inputs = appInputs(v1);
    const row = (id: string) => {
      const i = inputs.find((x) => x.id === id)!;
      return [typeName(i.type), i.required, i.optional, i.default];
    };
    assert.deepStrictEqual(inputs.map((i) => i.id), ['input_bam', 'intervals', 'known_sites', 'annotation_dir', 'mode', 'output_format', 'min_quality', 'exclude', 'read_filter', 'flag', 'odd']);
    assert.deepStrictEqual(row('input_bam'), ['File', true, false, undefined]);
    assert.deepStrictEqual(row('intervals'), ['File', false, true, undefined]);
    assert.deepStrictEqual(row('known_sites'), ['File[]', false, false, []]);
    assert.deepStrictEqual(row('annotation_dir'), ['Directory', false, true, undefined]);
    assert.deepStrictEqual(row('mode'), ['enum', true, false, undefined]);
    assert.deepStrictEqual(row('output_format'), ['enum', false, true, undefined]);
    assert.deepStrictEqual(row('min_quality'), ['int', false, false, 30]);
    assert.deepStrictEqual(row('exclude'), ['string[]', false, true, undefined]);
    assert.deepStrictEqual(row('read_filter'), ['record', false, true, undefined]);
    assert.deepStrictEqual(row('odd'), ['Flie', true, false, undefined]);
    const bam = inputs[0];
    assert.deepStrictEqual([bam.label, bam.doc, bam.fileTypes, bam.secondaryFiles, bam.category], ['Aligned reads', 'Sorted BAM.', ['BAM'], ['.bai'], 'File Inputs']);
    assert.deepStrictEqual(inputs[1].fileTypes, ['BED']);
    assert.deepStrictEqual(inputs.find((i) => i.id === 'mode')!.type, { kind: 'enum', symbols: ['strict', 'lenient'] });
    assert.strictEqual(inputs.find((i) => i.id === 'output_format')!.toolDefault, 'VCF');
  });

  it('reads draft-2 ids (#reads), types as one-member lists, secondary files inside inputBinding, and inputs as a map', () => {
    const draft2 = appInputs({
      cwlVersion: 'sbg:draft-2',
      inputs: [
        { id: '#mate', type: ['File'], inputBinding: { secondaryFiles: ['.bai'] } },
        { id: '#ploidy', type: { type: 'array', items: 'int' } },
        { id: '#window', type: ['null', 'int'] },
      ],
    });
    assert.deepStrictEqual(draft2.map((i) => [i.id, typeName(i.type), i.required, i.secondaryFiles]), [
      ['mate', 'File', true, ['.bai']],
      ['ploidy', 'int[]', true, []],
      ['window', 'int', false, []],
    ]);
    const map = appInputs({ inputs: { reads: { type: 'File[]' }, threads: 'int?', '#main/ref': { type: 'File', secondaryFiles: [{ pattern: '.fai' }] } } });
    assert.deepStrictEqual(map.map((i) => [i.id, typeName(i.type), i.required, i.secondaryFiles]), [
      ['reads', 'File[]', true, []],
      ['threads', 'int', false, []],
      ['ref', 'File', true, ['.fai']],
    ]);
  });

  it('reads the outputs and the summary', () => {
    assert.deepStrictEqual(appOutputs(v1).map((o) => [o.id, typeName(o.type), o.optional, o.fileTypes]), [['filtered', 'File', false, ['VCF.GZ']], ['report', 'File', true, []]]);
    assert.deepStrictEqual(appSummary(v1), { label: 'Variant Filter', doc: undefined, toolkit: 'vfilter 1.3', className: 'CommandLineTool', cwlVersion: 'v1.0', steps: 0 });
    assert.strictEqual(appSummary({ class: 'Workflow', steps: [{ id: 'a' }, { id: 'b' }] }).steps, 2);
  });

  it('tells file inputs and the files that fit their types', () => {
    const inputs = appInputs(v1);
    assert.deepStrictEqual(inputs.map((i) => fileKind(i.type)).slice(0, 5), [
      { kind: 'File', many: false },
      { kind: 'File', many: false },
      { kind: 'File', many: true },
      { kind: 'Directory', many: false },
      undefined,
    ]);
    assert.ok(fitsFileTypes('s1.FASTQ.gz', ['FASTQ', 'FASTQ.GZ']));
    assert.ok(!fitsFileTypes('s1.bam', ['FASTQ', 'FASTQ.GZ']));
    assert.ok(!fitsFileTypes('xfastq', ['FASTQ']));
    assert.ok(fitsFileTypes('anything', []));
  });
});
