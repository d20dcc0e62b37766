// The task document (tasks/taskDocument.ts): read with the place of every key and value, written back with file
// names as comments; checked against the app's inputs and the project's files (tasks/taskValidation.ts); and the
// request it makes (tasks/taskRequest.ts).
import * as assert from 'assert';
import * as yaml from 'yaml';
import { appInputs } from '../../../src/apps/cwlInputs';
import { readTaskDocument, renderTaskDocument, scalar, type ParsedTaskDocument } from '../../../src/tasks/taskDocument';
import { documentOfTask, draftChanges, taskRequest } from '../../../src/tasks/taskRequest';
import { namedFileIds, platformProblems, validateTaskDocument, type FileFacts } from '../../../src/tasks/taskValidation';

const read = (text: string): ParsedTaskDocument => readTaskDocument(yaml, text);
const R1 = '64f1a2b3c4d5e6f708192a3b';
const R2 = '64f1a2b3c4d5e6f708192a3c';
const REF = '64f1a2b3c4d5e6f708192a3d';
const DIR = '64f1a2b3c4d5e6f708192a3e';

const app = appInputs({
  inputs: [
    { id: 'reads', label: 'Reads', type: 'File[]', 'sbg:fileTypes': 'FASTQ' },
    { id: 'reference', type: 'File' },
    { id: 'ref_dir', type: 'Directory?' },
    { id: 'threads', type: 'int', default: 8 },
    { id: 'ratio', type: 'float?' },
    { id: 'mode', type: { type: 'enum', name: 'm', symbols: ['strict', 'lenient'] } },
    { id: 'sample', type: 'string?' },
    { id: 'keep', type: 'boolean?' },
  ],
});

const TEXT = `# a task
app: rfranklin/rna-seq/bwa-mem/3
project: rfranklin/rna-seq
name: BWA-MEM on sample_01
inputs:
  reads:
    - ${R1}  # s1_R1.fastq
    - ${R2}
  reference: ${REF}  # ref.fa
  threads: 8
  mode: strict
batch:
  input: reads
  by: { criteria: [metadata.sample_id] }
execution:
  instance_type: c5.2xlarge;ebs-gp2;1024
  max_parallel_instances: 2
interruptible: true
`;

const at = (text: string, s: { start: number; end: number }) => text.slice(s.start, s.end);

describe('tasks/taskDocument: reading', () => {
  it('reads every field, and where each key, value and list item is', () => {
    const parsed = read(TEXT);
    assert.deepStrictEqual(parsed.problems, []);
    assert.deepStrictEqual(parsed.document, {
      app: 'rfranklin/rna-seq/bwa-mem/3',
      project: 'rfranklin/rna-seq',
      name: 'BWA-MEM on sample_01',
      inputs: { reads: [R1, R2], reference: REF, threads: 8, mode: 'strict' },
      batch: { input: 'reads', by: { criteria: ['metadata.sample_id'] } },
      execution: { instance_type: 'c5.2xlarge;ebs-gp2;1024', max_parallel_instances: 2 },
      interruptible: true,
    });
    assert.strictEqual(at(TEXT, parsed.fields.app!.key), 'app');
    assert.strictEqual(at(TEXT, parsed.fields.app!.value), 'rfranklin/rna-seq/bwa-mem/3');
    const reads = parsed.inputs.find((i) => i.id === 'reads')!;
    assert.strictEqual(at(TEXT, reads.key), 'reads');
    assert.deepStrictEqual(reads.items.map((s) => at(TEXT, s)), [R1, R2]);
    assert.strictEqual(at(TEXT, parsed.inputs.find((i) => i.id === 'reference')!.value), REF);
  });

  it('says what is wrong with the document itself, where it is, and reads the rest', () => {
    const text = 'app: rfranklin/rna-seq/bwa-mem\nproject: nope\ncolour: blue\ndraft: 12\ninterruptible: maybe\nbatch: { input: reads, by: everything }\nexecution:\n  max_parallel_instances: 0\n  speed: 9\ninputs:\n  threads: 4\n  threads: 5\n';
    const parsed = read(text);
    assert.deepStrictEqual(
      parsed.problems.map((p) => [at(text, p.span), p.severity]),
      [
        ['rfranklin/rna-seq/bwa-mem', 'error'],
        ['nope', 'error'],
        ['colour', 'warning'],
        ['12', 'error'],
        ['maybe', 'error'],
        ['{ input: reads, by: everything }', 'error'],
        ['0', 'error'],
        ['speed', 'warning'],
        ['threads', 'error'],
      ],
    );
    assert.match(parsed.problems[0].message, /revision/);
    assert.deepStrictEqual(parsed.document.inputs, { threads: 4 });
  });

  it('says where the YAML is broken, and a document that is not a mapping', () => {
    const broken = read('app: a/b/c/1\ninputs:\n  reads: [\n');
    assert.ok(broken.problems.length >= 1 && broken.problems.every((p) => p.severity === 'error' && /Not YAML/.test(p.message)));
    assert.match(read('- a\n- b\n').problems[0].message, /list of fields/);
    assert.deepStrictEqual(read('').problems, []);
  });
});

describe('tasks/taskDocument: writing', () => {
  it('writes a document that reads back the same, file names as comments, the inputs not set as comments in the app\'s order', () => {
    const doc = read(TEXT).document;
    const text = renderTaskDocument(doc, {
      names: new Map([[R1, 's1_R1.fastq'], [REF, 'ref.fa\nsecond line']]),
      order: app.map((i) => ({ id: i.id, hint: i.id === 'ratio' ? 'float' : '' })),
    });
    assert.deepStrictEqual(read(text).document, doc);
    assert.deepStrictEqual(read(text).problems, []);
    assert.ok(text.includes(`    - ${R1}  # s1_R1.fastq\n    - ${R2}\n`), text);
    assert.ok(text.includes(`  reference: ${REF}  # ref.fa second line\n`), text);
    assert.ok(text.includes('  # ratio:  # float\n'), text);
    assert.ok(text.startsWith('# Seven Bridges task.'), text);
  });

  it('quotes a text that would read back as something else', () => {
    for (const value of ['true', 'no', '8', '1e5', '0x1f', 'a: b', 'x #y', ' lead', 'trail ', '', '- item', '{a}', 'null', '~', '000000000000000000000e10', 'line\nbreak']) {
      const text = `v: ${scalar(value)}\n`;
      assert.strictEqual(yaml.parse(text).v, value, text);
    }
    for (const value of ['sample_01', 'c5.2xlarge;ebs-gp2;1024', R1, 'BWA-MEM on sample_01']) assert.strictEqual(scalar(value), value);
  });
});

describe('tasks/taskValidation: a document against its app and files', () => {
  const files = new Map<string, FileFacts | 'missing'>([
    [R1, { id: R1, name: 's1_R1.fastq', type: 'file', project: 'rfranklin/rna-seq' }],
    [R2, { id: R2, name: 's1_R2.fastq', type: 'file', project: 'admin/sbg-public-data' }],
    [REF, 'missing'],
    [DIR, { id: DIR, name: 'refs', type: 'folder', project: 'rfranklin/rna-seq' }],
  ]);
  const lookup = (id: string) => files.get(id);

  it('finds a missing required input, wrong types, an unknown input, files gone, in another project or of the wrong kind', () => {
    const text = `app: rfranklin/rna-seq/bwa-mem/3
project: rfranklin/rna-seq
inputs:
  reads:
    - ${R1}
    - ${R2}
    - ${DIR}
    - sample.fastq
  reference: ${REF}
  ref_dir: ${R1}
  threads: 8.5
  ratio: 1
  mode: loose
  sample: 12
  keep: yes
  colour: blue
`;
    const problems = validateTaskDocument(read(text), app, lookup);
    assert.deepStrictEqual(
      problems.map((p) => [at(text, p.span), p.input, p.severity]),
      [
        [R2, 'reads', 'error'],
        [DIR, 'reads', 'error'],
        ['sample.fastq', 'reads', 'error'],
        [REF, 'reference', 'error'],
        [R1, 'ref_dir', 'error'],
        ['8.5', 'threads', 'error'],
        ['loose', 'mode', 'error'],
        ['12', 'sample', 'error'],
        // YAML 1.2 reads "yes" as text: the platform would get a string.
        ['yes', 'keep', 'error'],
        ['colour', 'colour', 'warning'],
      ],
    );
  });

  it('is quiet about a complete document, and about files not read yet', () => {
    const text = `app: a/b/c/1\nproject: rfranklin/rna-seq\ninputs:\n  reads: [${R1}]\n  reference: ${R1}\n  mode: lenient\n`;
    assert.deepStrictEqual(validateTaskDocument(read(text), app, () => undefined), []);
    assert.deepStrictEqual(namedFileIds(read(text), app), [R1]);
  });

  it('says what the document lacks (app, project, a required input) where it can', () => {
    const text = 'name: x\n';
    assert.deepStrictEqual(validateTaskDocument(read(text), app).map((p) => p.message.slice(0, 20)), ['Name the app: "app: ', 'Name the project the', 'The required input "', 'The required input "', 'The required input "']);
    assert.deepStrictEqual(validateTaskDocument(read(text), undefined).length, 2);
  });

  it('checks the batch input against the app', () => {
    const text = `app: a/b/c/1\nproject: rfranklin/rna-seq\ninputs:\n  reads: [${R1}]\n  reference: ${R1}\n  mode: strict\nbatch: { input: threads, by: file }\n`;
    assert.match(validateTaskDocument(read(text), app)[0].message, /takes no files/);
    const single = `app: a/b/c/1\nproject: rfranklin/rna-seq\ninputs:\n  reads: [${R1}]\n  reference: [${R1}, ${R1}]\n  mode: strict\nbatch: { input: reference, by: file }\n`;
    assert.deepStrictEqual(validateTaskDocument(read(single), app), [], 'a batch input takes a list of what the input takes');
  });

  it('puts the platform\'s errors on the lines of the inputs they name', () => {
    const parsed = read(TEXT);
    const problems = platformProblems(parsed, [{ type: 'MISSING_INPUT', input: '#reference', message: 'Required input is not set.' }, { type: 'X', message: 'Odd.' }, 'plain'], 'error');
    assert.deepStrictEqual(problems.map((p) => [at(TEXT, p.span).split('\n')[0], p.message]), [
      ['reference: ' + REF, 'The platform: Required input is not set.'],
      ['inputs', 'The platform: Odd.'],
      ['inputs', 'The platform: plain'],
    ]);
  });
});

describe('tasks/taskRequest: what a document asks of the platform', () => {
  it('makes the body of POST /v2/tasks: files as {class, path}, batch and execution settings', () => {
    const doc = read(TEXT.replace('  mode: strict\n', `  mode: strict\n  ref_dir: ${DIR}\n  sample:\n`)).document;
    assert.deepStrictEqual(taskRequest(doc, app), {
      project: 'rfranklin/rna-seq',
      app: 'rfranklin/rna-seq/bwa-mem/3',
      name: 'BWA-MEM on sample_01',
      inputs: {
        reads: [{ class: 'File', path: R1 }, { class: 'File', path: R2 }],
        reference: { class: 'File', path: REF },
        threads: 8,
        mode: 'strict',
        ref_dir: { class: 'Directory', path: DIR },
      },
      batch_input: 'reads',
      batch_by: { type: 'CRITERIA', criteria: ['metadata.sample_id'] },
      execution_settings: { instance_type: 'c5.2xlarge;ebs-gp2;1024', max_parallel_instances: 2 },
      use_interruptible_instances: true,
    });
  });

  it('reads a draft as a document, and makes the changes that bring the draft to what the document says', () => {
    const draft = {
      href: '',
      id: '1f0e3c7a-0000-4000-8000-000000000001',
      name: 'draft one',
      status: 'DRAFT',
      app: 'rfranklin/rna-seq/bwa-mem/3',
      project: 'rfranklin/rna-seq',
      inputs: { reads: [{ class: 'File', path: R1, name: 's1.fastq' }], threads: 4, old: 'x' },
      batch: true,
      batch_input: 'reads',
      batch_by: { type: 'ITEM' },
      use_interruptible_instances: false,
    };
    const doc = documentOfTask(draft);
    assert.deepStrictEqual(doc, {
      app: 'rfranklin/rna-seq/bwa-mem/3',
      project: 'rfranklin/rna-seq',
      name: 'draft one',
      draft: draft.id,
      inputs: { reads: [R1], threads: 4, old: 'x' },
      batch: { input: 'reads', by: 'file' },
      interruptible: false,
    });
    const edited = { ...doc, inputs: { reads: [R1, R2], threads: 4 }, batch: undefined, name: 'renamed' };
    assert.deepStrictEqual(draftChanges(edited, app, draft), {
      name: 'renamed',
      inputs: { reads: [{ class: 'File', path: R1 }, { class: 'File', path: R2 }], threads: 4, old: null },
      use_interruptible_instances: false,
      batch: false,
    });
  });
});
