import * as assert from 'assert';
import * as yaml from 'yaml';
import type { FileRecord } from '../../../src/api/types';
import { appInputs } from '../../../src/apps/cwlInputs';
import { readTaskDocument } from '../../../src/tasks/taskDocument';
import { completionAt, cursorPlace, dropText, hoverTarget, inputHover, suggestionsAt } from '../../../src/tasks/taskDocumentAssist';

const inputs = appInputs({
  class: 'CommandLineTool',
  inputs: [
    { id: 'input_bam', label: 'Aligned reads', doc: 'Coordinate-sorted BAM.', type: 'File', 'sbg:fileTypes': 'BAM' },
    { id: 'known_sites', label: 'Known sites', type: 'File[]', 'sbg:fileTypes': 'VCF.GZ' },
    { id: 'annotation_dir', type: 'Directory?' },
    { id: 'mode', label: 'Mode', type: { type: 'enum', name: 'mode', symbols: ['strict', 'lenient'] } },
    { id: 'keep', type: 'boolean', default: false },
    { id: 'min_quality', type: 'int', default: 30 },
  ],
});
const file = (id: string, name: string, type = 'file'): FileRecord => ({ href: '', id, name, type });
const files = [file('a'.repeat(24), 'x.bam'), file('b'.repeat(24), 'y.vcf.gz'), file('c'.repeat(24), 'refs', 'folder'), file('d'.repeat(24), 'z.bam')];
const TEXT = 'app: u/p/vf/2\nproject: u/p\ninputs:\n  input_bam: \n  known_sites:\n    - bbbbbbbbbbbbbbbbbbbbbbbb  # y.vcf.gz\n  mode: st\n';
const at = (marker: string, text = TEXT) => text.indexOf(marker) + marker.length;
const parsed = readTaskDocument(yaml, TEXT);

describe('task document: what is offered where the cursor is', () => {
  it('reads the place from the line and the block it is in', () => {
    assert.deepStrictEqual(cursorPlace(TEXT, at('projec')), { at: 'field', typed: 'projec' });
    assert.deepStrictEqual(cursorPlace(TEXT, at('project: u/')), { at: 'fieldValue', field: 'project', typed: 'u/' });
    assert.deepStrictEqual(cursorPlace(TEXT, at('input_bam: ')), { at: 'inputValue', input: 'input_bam', item: false, typed: '' });
    assert.deepStrictEqual(cursorPlace(TEXT, at('mode: st')), { at: 'inputValue', input: 'mode', item: false, typed: 'st' });
    assert.deepStrictEqual(cursorPlace(TEXT, at('    - bbb')), { at: 'inputValue', input: 'known_sites', item: true, typed: 'bbb' });
    assert.deepStrictEqual(cursorPlace(`${TEXT}  min_`, at('  min_', `${TEXT}  min_`)), { at: 'inputId', typed: 'min_' });
    assert.deepStrictEqual(cursorPlace('execution:\n  max', at('max', 'execution:\n  max')), { at: 'setting', block: 'execution', typed: 'max' });
  });

  it('offers the fields not given, the inputs not given, enum symbols and booleans', () => {
    const facts = { parsed, inputs, files };
    assert.deepStrictEqual(suggestionsAt({ at: 'field', typed: '' }, facts).map((s) => s.label), ['name', 'description', 'draft', 'batch', 'execution', 'interruptible']);
    assert.deepStrictEqual(suggestionsAt({ at: 'inputId', typed: '' }, facts).map((s) => s.insert), ['annotation_dir: ', 'keep: ', 'min_quality: ']);
    assert.deepStrictEqual(suggestionsAt({ at: 'inputValue', input: 'mode', item: false, typed: '' }, facts).map((s) => s.insert), ['strict', 'lenient']);
    assert.deepStrictEqual(suggestionsAt({ at: 'inputValue', input: 'keep', item: false, typed: '' }, facts).map((s) => s.insert), ['true', 'false']);
  });

  it('offers the project\'s files of the input\'s types by name, writing the ID with the name beside it; a folder input its folders', () => {
    const facts = { parsed, inputs, files };
    const bams = suggestionsAt({ at: 'inputValue', input: 'input_bam', item: false, typed: '' }, facts);
    assert.deepStrictEqual(bams.map((s) => [s.label, s.insert, s.filter]), [
      ['x.bam', `${'a'.repeat(24)}  # x.bam`, 'x.bam'],
      ['z.bam', `${'d'.repeat(24)}  # z.bam`, 'z.bam'],
    ]);
    assert.deepStrictEqual(suggestionsAt({ at: 'inputValue', input: 'known_sites', item: true, typed: '' }, facts).map((s) => s.label), ['y.vcf.gz']);
    assert.deepStrictEqual(suggestionsAt({ at: 'inputValue', input: 'annotation_dir', item: false, typed: '' }, facts).map((s) => [s.label, s.kind]), [['refs', 'folder']]);
  });

  it('hovers an input\'s key with its label, type, need and description', () => {
    const target = hoverTarget(parsed, at('  input_b'));
    assert.deepStrictEqual(target, { input: 'input_bam' });
    const words = inputHover(inputs[0]);
    assert.match(words, /\*\*Aligned reads\*\* `input_bam`/);
    assert.match(words, /File — a file ID · required/);
    assert.match(words, /File types: BAM/);
    assert.match(words, /Coordinate-sorted BAM\./);
  });

  it('puts dropped files into the input of the line: below a list\'s items, or as a single input\'s value', () => {
    const dropped = [{ id: 'e'.repeat(24), name: 'w.vcf.gz' }, { id: 'f'.repeat(24), name: 'v.vcf.gz' }];
    const list = dropText(TEXT, at('  known_si'), dropped, inputs)!;
    const afterList = TEXT.slice(0, list.at) + list.text + TEXT.slice(list.end);
    assert.match(afterList, /known_sites:\n {4}- b{24} {2}# y\.vcf\.gz\n {4}- e{24} {2}# w\.vcf\.gz\n {4}- f{24} {2}# v\.vcf\.gz\n {2}mode/);
    const single = dropText(TEXT, at('  input_'), dropped, inputs)!;
    assert.strictEqual(TEXT.slice(0, single.at) + single.text + TEXT.slice(single.end), TEXT.replace('input_bam: \n', `input_bam: ${'e'.repeat(24)}  # w.vcf.gz\n`));
    assert.strictEqual(dropText(TEXT, at('  mode'), dropped, inputs), undefined, 'an enum takes no files');
  });

  it('takes in an input New Task… wrote commented out, the dropped files its value', () => {
    const dropped = [{ id: 'e'.repeat(24), name: 'w.vcf.gz' }, { id: 'f'.repeat(24), name: 'v.vcf.gz' }];
    const text = 'inputs:\n  # known_sites:  # File[] · Known sites\n  # input_bam:  # File · required\n  # mode:\n';
    const apply = (edit: { at: number; end: number; text: string }) => text.slice(0, edit.at) + edit.text + text.slice(edit.end);
    assert.strictEqual(
      apply(dropText(text, at('  # known_si', text), dropped, inputs)!),
      text.replace('  # known_sites:  # File[] · Known sites\n', `  known_sites:  # File[] · Known sites\n    - ${'e'.repeat(24)}  # w.vcf.gz\n    - ${'f'.repeat(24)}  # v.vcf.gz\n`),
    );
    assert.strictEqual(apply(dropText(text, at('  # input_', text), dropped, inputs)!), text.replace('  # input_bam:  # File · required\n', `  input_bam: ${'e'.repeat(24)}  # w.vcf.gz\n`));
    assert.strictEqual(dropText(text, at('  # mo', text), dropped, inputs), undefined, 'an enum takes no files, commented or not');
  });
});

describe('task document: the file suggestions made from the files held', () => {
  it('makes each file\'s suggestion once: the next list reads only the files held since, for each input\'s kind and file types', () => {
    let reads = 0;
    const counted = (id: string, name: string, type = 'file'): FileRecord => ({ href: '', id, type, get name() {
      reads++;
      return name;
    } });
    const held = [counted('a'.repeat(24), 'x.bam'), counted('b'.repeat(24), 'y.vcf.gz'), counted('c'.repeat(24), 'refs', 'folder')];
    const bam = { at: 'inputValue', input: 'input_bam', item: false, typed: '' } as const;
    assert.deepStrictEqual(suggestionsAt(bam, { parsed, inputs, files: held }).map((s) => s.label), ['x.bam']);
    const once = reads;
    assert.deepStrictEqual(suggestionsAt(bam, { parsed, inputs, files: held }).map((s) => s.label), ['x.bam']);
    assert.strictEqual(reads, once, 'no file read again');
    held.push(counted('d'.repeat(24), 'z.bam'));
    assert.deepStrictEqual(suggestionsAt(bam, { parsed, inputs, files: held }).map((s) => s.insert), [`${'a'.repeat(24)}  # x.bam`, `${'d'.repeat(24)}  # z.bam`]);
    assert.ok(reads > once && reads <= once + 3, `only the file held since read (${reads - once} reads)`);
    assert.deepStrictEqual(suggestionsAt({ ...bam, input: 'known_sites', item: true }, { parsed, inputs, files: held }).map((s) => s.label), ['y.vcf.gz'], 'another input\'s file types: a list of its own');
    assert.deepStrictEqual(suggestionsAt({ ...bam, input: 'annotation_dir' }, { parsed, inputs, files: held }).map((s) => [s.label, s.kind]), [['refs', 'folder']]);
  });
});

describe('task document: completion, the project\'s files read only for an input that takes files', () => {
  const held = () => {
    const asked: boolean[] = [];
    return { asked, files: { projectFiles: async (_project: string, more: boolean) => (asked.push(more), { files, complete: false }) } };
  };

  it('a file input: the files held (a page more when the person typed on in a list not complete), and whether more are left', async () => {
    const { asked, files: source } = held();
    const first = await completionAt(source, cursorPlace(TEXT, at('input_bam: ')), parsed, inputs, false);
    assert.deepStrictEqual([first.suggestions.map((s) => s.label), first.complete], [['x.bam', 'z.bam'], false]);
    await completionAt(source, cursorPlace(TEXT, at('input_bam: ')), parsed, inputs, true);
    await completionAt(source, cursorPlace(TEXT, at('    - bbb')), parsed, inputs, false);
    assert.deepStrictEqual(asked, [false, true, false]);
  });

  it('an enum, a new input id: nothing read, the list complete', async () => {
    const { asked, files: source } = held();
    const mode = await completionAt(source, cursorPlace(TEXT, at('mode: st')), parsed, inputs, true);
    assert.deepStrictEqual([mode.suggestions.map((s) => s.label), mode.complete], [['strict', 'lenient'], true]);
    await completionAt(source, cursorPlace(`${TEXT}  min_`, at('  min_', `${TEXT}  min_`)), parsed, inputs, false);
    assert.deepStrictEqual(asked, []);
  });
});
