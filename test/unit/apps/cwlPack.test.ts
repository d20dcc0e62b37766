// The packer (src/apps/cwlPack.ts) on fixtures held in memory: what sbpack makes of the same documents.
import * as assert from 'assert';
import * as path from 'path';
import { packCwl, PackError } from '../../../src/apps/cwlPack';

const ROOT = path.resolve('/repo');

/** A packed document read loosely, as a test reads it: every field may be anything. */
interface Doc {
  [key: string]: Doc & Doc[] & string;
}
const at = (relative: string) => path.join(ROOT, ...relative.split('/'));

/** A repository of files by path relative to ROOT (absolute paths kept as they are). */
function files(map: Record<string, string>) {
  const byPath = new Map(Object.entries(map).map(([k, v]) => [path.isAbsolute(k) ? k : at(k), v]));
  const reads: string[] = [];
  const read = async (file: string) => {
    reads.push(file);
    const text = byPath.get(file);
    if (text === undefined) throw new Error(`ENOENT ${file}`);
    return text;
  };
  return { read, reads };
}

const TOOL = (name: string) => `cwlVersion: v1.0
class: CommandLineTool
baseCommand: ${name}
inputs:
  reads: File
outputs:
  out:
    type: File
    outputBinding: { glob: "*.out" }
`;

describe('packing CWL (as sbpack packs)', () => {
  it('puts each step\'s run: file in its place, relative to the file that names it, with ports and steps as lists', async () => {
    const repo = files({
      'wf/main.cwl': `cwlVersion: v1.0
class: Workflow
inputs:
  reads: File
outputs:
  result: { type: File, outputSource: "#second/out" }
steps:
  first:
    run: ../tools/first.cwl
    in: { reads: "#reads" }
    out: [out]
  second:
    run: ../tools/second.cwl
    in:
      reads: first/out
    out: [out]
`,
      'tools/first.cwl': TOOL('first'),
      'tools/second.cwl': TOOL('second'),
    });
    const packed = await packCwl(at('wf/main.cwl'), repo.read, { root: ROOT });
    assert.deepStrictEqual(packed.files, [at('wf/main.cwl'), at('tools/first.cwl'), at('tools/second.cwl')]);
    assert.deepStrictEqual(packed.outside, []);
    const cwl = packed.cwl as unknown as Doc;
    assert.deepStrictEqual(cwl.inputs, [{ id: 'reads', type: 'File' }]);
    assert.deepStrictEqual(cwl.outputs, [{ id: 'result', type: 'File', outputSource: 'second/out' }]);
    assert.strictEqual('requirements' in cwl, false, 'a list left out stays out');
    assert.deepStrictEqual(cwl.steps.map((s: Doc) => s.id), ['first', 'second']);
    assert.deepStrictEqual(cwl.steps[0].in, [{ id: 'reads', source: 'reads' }]);
    assert.deepStrictEqual(cwl.steps[1].in, [{ id: 'reads', source: 'first/out' }]);
    assert.deepStrictEqual(cwl.steps[0].run, {
      cwlVersion: 'v1.0',
      class: 'CommandLineTool',
      baseCommand: 'first',
      inputs: [{ id: 'reads', type: 'File' }],
      outputs: [{ id: 'out', type: 'File', outputBinding: { glob: '*.out' } }],
      'sbg:appVersion': ['v1.0'],
    });
    assert.strictEqual(cwl.steps[1].run.baseCommand, 'second');
  });

  it('packs a nested workflow (its steps relative to its own folder), adds SubworkflowFeatureRequirement, raises cwlVersion', async () => {
    const repo = files({
      'main.cwl': `cwlVersion: v1.0
class: Workflow
inputs: []
outputs: []
steps:
  - id: inner
    run: sub/inner.cwl
    in: []
    out: []
`,
      'sub/inner.cwl': `cwlVersion: v1.2
class: Workflow
inputs: []
outputs: []
steps:
  - id: tool
    run: tool.cwl
    in: []
    out: []
`,
      'sub/tool.cwl': TOOL('deep'),
    });
    const cwl = (await packCwl(at('main.cwl'), repo.read, { root: ROOT })).cwl as unknown as Doc;
    assert.strictEqual(cwl.cwlVersion, 'v1.2');
    assert.deepStrictEqual(cwl.requirements, [{ class: 'SubworkflowFeatureRequirement' }]);
    const inner = cwl.steps[0].run;
    assert.strictEqual(inner.class, 'Workflow');
    assert.deepStrictEqual(inner['sbg:appVersion'], ['v1.2']);
    assert.strictEqual(inner.steps[0].run.baseCommand, 'deep');
    assert.deepStrictEqual(inner.steps[0].run['sbg:appVersion'], ['v1.2']);
  });

  it('resolves $import (a document) and $include (text), in steps\' files too, relative to the file that names them', async () => {
    const repo = files({
      'tool.cwl': `cwlVersion: v1.0
class: CommandLineTool
requirements:
  - class: InitialWorkDirRequirement
    listing:
      - entryname: script.sh
        entry: { $include: scripts/run.sh }
hints:
  - $import: hints/docker.yml
inputs: []
outputs: []
`,
      'scripts/run.sh': 'echo hello\n',
      'hints/docker.yml': 'class: DockerRequirement\ndockerPull: "ubuntu:22.04"\n',
    });
    const cwl = (await packCwl(at('tool.cwl'), repo.read, { root: ROOT })).cwl as unknown as Doc;
    assert.deepStrictEqual(cwl.requirements[0].listing[0], { entryname: 'script.sh', entry: 'echo hello\n' });
    assert.deepStrictEqual(cwl.hints, [{ class: 'DockerRequirement', dockerPull: 'ubuntu:22.04' }]);
  });

  it('writes out the user types of a SchemaDefRequirement where inputs and outputs name them, imported from other files too (sbpack\'s fixtures)', async () => {
    const repo = files({
      // sbpack's tests/types/recursive.yml, array.yml and singletype.yml
      'types/recursive.yml': `- name: sample_meta
  type: record
  fields:
    - name: sample
      type: ["null", string]
    - name: species
      type: string
- name: file_with_sample_meta
  type: record
  fields:
    - name: file
      type: File
    - name: meta
      type: sample_meta
`,
      'types/array.yml': `- name: study_meta_too
  type: array
  items: recursive.yml#sample_meta
`,
      'types/singletype.yml': 'name: simple_record\ntype: record\nfields:\n  prop: string\n',
      'tools/clt1.cwl': `class: CommandLineTool
cwlVersion: v1.0
requirements:
  InitialWorkDirRequirement:
    listing: []
  SchemaDefRequirement:
    types:
    - $import: ../types/recursive.yml
    - $import: ../types/array.yml
    - $import: ../types/singletype.yml
    - name: "#local_enum"
      type: enum
      symbols: [a, b]
inputs:
  in1: ../types/recursive.yml#file_with_sample_meta
  in3:
    type: ../types/singletype.yml#simple_record
  in4:
    type: [string, ../types/recursive.yml#sample_meta]
  in5: "#local_enum?"
  in6: ../types/singletype.yml#simple_record[]
  in7: Any?
outputs:
  out2:
    type: ../types/array.yml#study_meta_too
`,
    });
    const cwl = (await packCwl(at('tools/clt1.cwl'), repo.read, { root: ROOT })).cwl as unknown as Doc;
    const type = (id: string) => [...cwl.inputs, ...cwl.outputs].find((p) => p.id === id)!.type as unknown;
    const sampleMeta = (name: string) => ({ name, type: 'record', fields: [{ name: 'sample', type: ['null', 'string'] }, { name: 'species', type: 'string' }] });
    assert.deepStrictEqual(type('in1'), { name: 'file_with_sample_meta', type: 'record', fields: [{ name: 'file', type: 'File' }, { name: 'meta', type: sampleMeta('sample_meta') }] });
    assert.deepStrictEqual(type('in3'), { name: 'simple_record', type: 'record', fields: [{ name: 'prop', type: 'string' }] });
    // A name written out a second time is numbered (one document holds each name once).
    assert.deepStrictEqual(type('in4'), ['string', sampleMeta('sample_meta_2')]);
    assert.deepStrictEqual(type('in5'), ['null', { name: 'local_enum', type: 'enum', symbols: ['a', 'b'] }]);
    assert.deepStrictEqual(type('in6'), { type: 'array', items: { name: 'simple_record_2', type: 'record', fields: [{ name: 'prop', type: 'string' }] } });
    assert.deepStrictEqual(type('in7'), 'Any?', 'a type naming no user type as written');
    // An array type of another file naming a record of a third, relative to its own folder.
    assert.deepStrictEqual(type('out2'), { name: 'study_meta_too', type: 'array', items: sampleMeta('sample_meta_3') });
    assert.deepStrictEqual(cwl.requirements.map((r) => r.class), ['InitialWorkDirRequirement'], 'the SchemaDefRequirement taken out');
  });

  it('a step sees the types of the workflow that runs it; a type no SchemaDefRequirement defines is refused, naming it', async () => {
    const repo = files({
      'types.yml': 'name: pair\ntype: record\nfields:\n  left: File\n  right: File\n',
      'wf.cwl': `cwlVersion: v1.0
class: Workflow
requirements:
  SchemaDefRequirement:
    types:
    - $import: types.yml
inputs:
  reads: types.yml#pair
outputs: []
steps:
  align:
    run: tools/align.cwl
    in: { reads: reads }
    out: []
`,
      'tools/align.cwl': 'cwlVersion: v1.0\nclass: CommandLineTool\ninputs:\n  reads: ../types.yml#pair\noutputs: []\n',
      'bad.cwl': 'cwlVersion: v1.0\nclass: CommandLineTool\ninputs:\n  reads: types.yml#triple\noutputs: []\n',
    });
    const cwl = (await packCwl(at('wf.cwl'), repo.read, { root: ROOT })).cwl as unknown as Doc;
    const pair = (name: string) => ({ name, type: 'record', fields: [{ name: 'left', type: 'File' }, { name: 'right', type: 'File' }] });
    assert.deepStrictEqual(cwl.inputs[0].type as unknown, pair('pair'));
    assert.deepStrictEqual(cwl.steps[0].run.inputs[0].type as unknown, pair('pair_2'));
    await assert.rejects(packCwl(at('bad.cwl'), repo.read, { root: ROOT }), (e: unknown) => e instanceof PackError && e.message === 'bad.cwl names the type types.yml#triple, which no SchemaDefRequirement defines.');
  });

  it('a document whose types are all defined in it (a pulled app) is left as written: its requirement and `#` names kept', async () => {
    const tool = `cwlVersion: v1.0
class: CommandLineTool
requirements:
  - class: SchemaDefRequirement
    types:
      - name: "#pair"
        type: record
        fields: [{ name: left, type: File }]
inputs:
  - id: reads
    type: "#pair"
outputs: []
`;
    const repo = files({ 'pulled.cwl': tool });
    const cwl = (await packCwl(at('pulled.cwl'), repo.read, { root: ROOT })).cwl as unknown as Doc;
    assert.deepStrictEqual(cwl.requirements.map((r) => r.class), ['SchemaDefRequirement']);
    assert.strictEqual(cwl.inputs[0].type as unknown, '#pair');
  });

  it('reads YAML written in flow style, which starts as JSON does', async () => {
    const repo = files({ 'flow.cwl': '{class: CommandLineTool, cwlVersion: v1.0, inputs: {n: int}, outputs: []}\n' });
    assert.deepStrictEqual((await packCwl(at('flow.cwl'), repo.read, { root: ROOT })).cwl, { class: 'CommandLineTool', cwlVersion: 'v1.0', inputs: [{ id: 'n', type: 'int' }], outputs: [] });
  });

  it('reads JSON as well as YAML; a document already packed ($graph) is sent as it is', async () => {
    const repo = files({ 'a.cwl': JSON.stringify({ cwlVersion: 'v1.0', $graph: [{ id: 'main', class: 'Workflow', steps: [{ id: 's', run: '#tool' }] }] }) });
    const packed = await packCwl(at('a.cwl'), repo.read, { root: ROOT });
    assert.deepStrictEqual(packed.cwl, { cwlVersion: 'v1.0', $graph: [{ id: 'main', class: 'Workflow', steps: [{ id: 's', run: '#tool' }] }] });
  });

  it('refuses a cycle of run: files, and of imports, naming the chain', async () => {
    const runs = files({
      'a.cwl': 'cwlVersion: v1.0\nclass: Workflow\ninputs: []\noutputs: []\nsteps:\n  s: { run: b.cwl, in: [], out: [] }\n',
      'b.cwl': 'cwlVersion: v1.0\nclass: Workflow\ninputs: []\noutputs: []\nsteps:\n  t: { run: a.cwl, in: [], out: [] }\n',
    });
    await assert.rejects(packCwl(at('a.cwl'), runs.read, { root: ROOT }), (e: unknown) => e instanceof PackError && e.message === 'The documents name each other in a cycle (a.cwl → b.cwl → a.cwl): it cannot be packed into one.');
    const imports = files({ 'x.cwl': 'class: CommandLineTool\ninputs: { $import: y.yml }\noutputs: []\n', 'y.yml': 'a: { $import: x.cwl }\n' });
    await assert.rejects(packCwl(at('x.cwl'), imports.read, { root: ROOT }), /a cycle \(x\.cwl → y\.yml → x\.cwl\)/);
  });

  it('leaves a pulled document as it was: lists stay lists, processes written in it unmarked', async () => {
    const pulled = {
      class: 'Workflow', cwlVersion: 'v1.0', 'sbg:revision': 2,
      inputs: [{ id: 'reads', type: 'File[]' }], outputs: [{ id: 'bam', type: 'File', outputSource: 'sort/bam' }],
      steps: [{ id: 'sort', run: { class: 'CommandLineTool', cwlVersion: 'v1.0', inputs: [], outputs: [] }, in: [{ id: 'reads', source: 'reads' }], out: ['bam'] }],
    };
    const repo = files({ 'pulled.cwl': JSON.stringify(pulled) });
    assert.deepStrictEqual((await packCwl(at('pulled.cwl'), repo.read, { root: ROOT })).cwl, pulled);
  });

  it('a process run by two steps is not a cycle', async () => {
    const repo = files({
      'wf.cwl': 'cwlVersion: v1.0\nclass: Workflow\ninputs: []\noutputs: []\nsteps:\n  a: { run: t.cwl, in: [], out: [] }\n  b: { run: t.cwl, in: [], out: [] }\n',
      't.cwl': TOOL('t'),
    });
    const cwl = (await packCwl(at('wf.cwl'), repo.read, { root: ROOT })).cwl as unknown as Doc;
    assert.deepStrictEqual(cwl.steps.map((s: Doc) => s.run.baseCommand), ['t', 't']);
  });

  it('refuses a file outside the repository, naming it, unless allowed; then lists it', async () => {
    const elsewhere = path.resolve('/shared/tools/t.cwl');
    const repo = files({ 'wf.cwl': `cwlVersion: v1.0\nclass: Workflow\ninputs: []\noutputs: []\nsteps:\n  a: { run: ../shared/tools/t.cwl, in: [], out: [] }\n`, [elsewhere]: TOOL('t') });
    await assert.rejects(packCwl(at('wf.cwl'), repo.read, { root: ROOT }), (e: unknown) => e instanceof PackError && e.outside === elsewhere && e.message === `wf.cwl names ${elsewhere}, which is outside the repository (${ROOT}).`);
    assert.ok(!repo.reads.includes(elsewhere), 'not read before it is allowed');
    const packed = await packCwl(at('wf.cwl'), repo.read, { root: ROOT, allowOutside: true });
    assert.deepStrictEqual(packed.outside, [elsewhere]);
    assert.strictEqual((packed.cwl as unknown as Doc).steps[0].run.baseCommand, 't');
  });

  it('refuses a URL, a missing file and a file that is not YAML, in words', async () => {
    const url = files({ 'wf.cwl': 'class: Workflow\ninputs: []\noutputs: []\nsteps:\n  a: { run: "https://example.org/t.cwl", in: [], out: [] }\n' });
    await assert.rejects(packCwl(at('wf.cwl'), url.read, { root: ROOT }), { message: 'wf.cwl names https://example.org/t.cwl: a URL is not fetched. Save the file in the repository and name its path.' });
    const missing = files({ 'wf.cwl': 'class: Workflow\ninputs: []\noutputs: []\nsteps:\n  a: { run: gone.cwl, in: [], out: [] }\n' });
    await assert.rejects(packCwl(at('wf.cwl'), missing.read, { root: ROOT }), { message: 'wf.cwl names gone.cwl, which cannot be read.' });
    const broken = files({ 'wf.cwl': 'class: [Workflow\n' });
    await assert.rejects(packCwl(at('wf.cwl'), broken.read, { root: ROOT }), /^PackError: wf\.cwl is neither YAML nor JSON: /);
  });
});
