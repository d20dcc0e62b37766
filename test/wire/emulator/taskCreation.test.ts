/** The emulator's tasks against their app's CWL (platform-api.md §11): checks, request errors, drafts, runs, batches, delete. */
import * as assert from 'assert';
import { startEmulator, type Emulator, type FileRec } from '../../emulator';
import { caller, type Json } from './call';

describe('emulator: tasks made from an app, checked against its CWL, run, batched and deleted', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;
  let clock = 0;
  const mine = 'rfranklin/my-project';
  const step = () => {
    clock += 1000;
  };

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ now: () => clock, tasks: 60, files: 400, batches: [], taskStepMs: 1000, runSteps: 2 });
    call = caller(emu);
  });
  afterEach(() => emu.close());

  const sample = (name: string): FileRec => emu.data.files.find((f) => f.project === mine && f.name === name)!;
  const files = (n: number, ext = '.fastq.gz'): FileRec[] => emu.data.files.filter((f) => f.project === mine && f.type === 'file' && f.name.endsWith(ext)).slice(0, n);
  const value = (f: FileRec, cls = 'File') => ({ class: cls, path: f.id });
  const vf = (inputs: Json, extra: Json = {}): Json => ({ name: 'filter', project: mine, app: `${mine}/variant-filter`, inputs, ...extra });
  const good = (): Json => ({ input_bam: value(sample('sample_01.bam')), reference: value(sample('regions.bed')), mode: 'strict' });

  describe('checks against the CWL', () => {
    it('a valid task: no errors; the app named without a revision is its latest; secondary files not beside the input: warnings', async () => {
      const r = await call('POST', '/tasks', vf(good()));
      assert.deepStrictEqual([r.status, r.body.status, r.body.app, r.body.errors], [201, 'DRAFT', `${mine}/variant-filter/3`, []]);
      assert.deepStrictEqual(r.body.warnings.map((w: Json) => [w.type, w.input, w.message]), [
        ['MISSING_SECONDARY_FILE', 'reference', "Input 'reference': 'regions.bed.fai' is not beside 'regions.bed'."],
        ['MISSING_SECONDARY_FILE', 'reference', "Input 'reference': 'regions.dict' is not beside 'regions.bed'."],
      ], 'sample_01.bam has its .bai; the reference has neither .fai nor ^.dict');
      assert.strictEqual(r.body.execution_status.steps_total, 1);
    });

    it('every problem: required missing, wrong type, enum value, file not found, folder for a file, another class, another project, a public file; unknown input a warning', async () => {
      const folder = emu.data.files.find((f) => f.project === mine && f.type === 'folder' && f.parent !== null)!;
      const other = emu.data.files.find((f) => f.project === 'rfranklin/rna-seq-analysis' && f.type === 'file')!;
      const publicFile = emu.data.files.find((f) => f.project === 'admin/sbg-public-data' && f.type === 'file')!;
      const r = await call('POST', '/tasks?action=run', vf({
        input_bam: value(folder),
        reference: value(sample('regions.bed'), 'Directory'),
        intervals: value(other),
        known_sites: [value(publicFile), { class: 'File', path: 'ffffffffffffffffffffffff' }],
        mode: 'loose',
        min_quality: 'high',
        min_allele_fraction: 1,
        exclude_contigs: ['chrM', 7],
        read_filter: { min_mapq: 20, drop_duplicates: true },
        sample_name: null,
        colour: 'blue',
      }));
      assert.deepStrictEqual([r.status, r.body.status], [201, 'DRAFT']);
      assert.deepStrictEqual(r.body.errors.map((e: Json) => [e.type, e.input]), [
        ['INVALID_VALUE', 'input_bam'],
        ['INVALID_TYPE', 'reference'],
        ['INVALID_VALUE', 'intervals'],
        ['INVALID_VALUE', 'known_sites'],
        ['FILE_NOT_FOUND', 'known_sites'],
        ['INVALID_VALUE', 'mode'],
        ['INVALID_TYPE', 'min_quality'],
        ['INVALID_TYPE', 'exclude_contigs'],
      ], 'an int for a float, a record, null for an optional input: fine');
      assert.match(r.body.errors[2].message, /is in project 'rfranklin\/rna-seq-analysis', not the task's: copy it there first/);
      assert.match(r.body.errors[5].message, /'loose' is not one of strict, lenient/);
      assert.deepStrictEqual(r.body.warnings.map((w: Json) => [w.type, w.input]), [['UNKNOWN_INPUT', 'colour']]);
      const missing = await call('POST', '/tasks', vf({}));
      assert.deepStrictEqual(missing.body.errors.map((e: Json) => [e.type, e.input]), [['MISSING_INPUT', 'input_bam'], ['MISSING_INPUT', 'reference'], ['MISSING_INPUT', 'mode']]);
    });

    it('draft-2 ids are read without their #; a workflow counts its steps', async () => {
      const text = files(1, '.txt')[0];
      const d2 = await call('POST', '/tasks', { project: mine, app: `${mine}/count-matches/1`, inputs: { input_file: value(text), pattern: 7, max_count: 3 } });
      assert.deepStrictEqual(d2.body.errors.map((e: Json) => [e.type, e.input]), [['INVALID_TYPE', 'pattern']]);
      const wf = await call('POST', '/tasks', { project: mine, app: `${mine}/align-and-sort`, inputs: { reads: [value(files(1)[0])], reference: value(text) } });
      assert.deepStrictEqual([wf.body.errors, wf.body.execution_status.steps_total], [[], 2]);
    });

    it('request errors make nothing, with platform-api.md\'s codes', async () => {
      const before = emu.data.tasks.length;
      for (const [body, q, status, code] of [
        [vf(good(), { app: `${mine}/variant-filter/9` }), '', 404, 6002],
        [vf(good(), { app: `${mine}/nothing` }), '', 404, 6002],
        [vf(good(), { project: 'nobody/nothing' }), '', 404, 3002],
        [vf(good(), { project: 'admin/sbg-public-data' }), '', 404, 3002],
        [vf(good(), { app: undefined }), '', 400, 7015],
        [vf(good(), { batch_input: 'nothing', batch_by: { type: 'ITEM' } }), '', 400, 7018],
        [vf(good(), { batch_input: 'known_sites', batch_by: { type: 'SAMPLE' } }), '', 400, 7020],
        [vf(good(), { batch_input: 'known_sites', batch_by: { type: 'CRITERIA' } }), '', 400, 7019],
        [vf(good(), { batch_input: 'known_sites' }), '', 400, 7023],
        [vf(good(), { batch_by: { type: 'ITEM' } }), '', 400, 7023],
        [{ ...vf({}), inputs: 'reads' }, '', 400, 90000],
        [vf(good()), '?batch=false', 400, 7021],
      ] as [Json, string, number, number][]) {
        const r = await call('POST', `/tasks${q}`, body);
        assert.deepStrictEqual([r.status, r.body.code], [status, code], `${JSON.stringify(body).slice(0, 120)} ${q}`);
      }
      assert.strictEqual(emu.data.tasks.length, before);
    });
  });

  describe('drafts: PATCH, run, delete', () => {
    it('PATCH merges inputs (null removes one) and recomputes errors; PATCH …/inputs answers the whole map; run refuses a draft with errors (7024) and a task that is not a draft (7007)', async () => {
      const made = (await call('POST', '/tasks', vf({ ...good(), mode: undefined, colour: 'x' }))).body;
      assert.deepStrictEqual(made.errors.map((e: Json) => e.input), ['mode']);
      const refused = await call('POST', `/tasks/${made.id}/actions/run`);
      assert.deepStrictEqual([refused.status, refused.body.code], [400, 7024]);
      assert.strictEqual((await call('GET', `/tasks/${made.id}`)).body.status, 'DRAFT');
      const patched = await call('PATCH', `/tasks/${made.id}`, { inputs: { mode: 'lenient', colour: null }, description: 'ready' });
      assert.deepStrictEqual([patched.status, patched.body.errors, patched.body.warnings.filter((w: Json) => w.type === 'UNKNOWN_INPUT')], [200, [], []]);
      assert.deepStrictEqual(Object.keys(patched.body.inputs).sort(), ['input_bam', 'mode', 'reference']);
      const inputs = await call('PATCH', `/tasks/${made.id}/inputs`, { min_quality: 'x' });
      assert.deepStrictEqual(Object.keys(inputs.body).sort(), ['input_bam', 'min_quality', 'mode', 'reference']);
      assert.deepStrictEqual((await call('GET', `/tasks/${made.id}`)).body.errors.map((e: Json) => e.type), ['INVALID_TYPE']);
      await call('PATCH', `/tasks/${made.id}/inputs`, { min_quality: null });
      const ran = await call('POST', `/tasks/${made.id}/actions/run`);
      assert.deepStrictEqual([ran.status, ran.body.status], [200, 'QUEUED']);
      const again = await call('POST', `/tasks/${made.id}/actions/run`);
      assert.deepStrictEqual([again.status, again.body.code], [400, 7007]);
    });

    it('PATCH of a task that is not a draft: 7026; a RUNNING or COMPLETED task may only be renamed', async () => {
      const t = (await call('POST', '/tasks?action=run', vf(good()))).body;
      const queued = await call('PATCH', `/tasks/${t.id}`, { name: 'renamed' });
      assert.deepStrictEqual([queued.status, queued.body.code], [400, 7026]);
      step();
      const renamed = await call('PATCH', `/tasks/${t.id}`, { name: 'renamed' });
      assert.deepStrictEqual([renamed.status, renamed.body.name, renamed.body.status], [200, 'renamed', 'RUNNING']);
      const inputs = await call('PATCH', `/tasks/${t.id}`, { name: 'x', inputs: {} });
      assert.deepStrictEqual([inputs.status, inputs.body.code], [400, 7026]);
      assert.deepStrictEqual((await call('PATCH', `/tasks/${t.id}/inputs`, { mode: 'lenient' })).body.code, 7026);
    });

    it('DELETE: a draft 204, then 404 7002; any other status 400 7010', async () => {
      const draft = (await call('POST', '/tasks', vf({}))).body;
      const r = await call('DELETE', `/tasks/${draft.id}`);
      assert.deepStrictEqual([r.status, r.text], [204, '']);
      for (const path of [`/tasks/${draft.id}`, `/tasks/${draft.id}/execution_details`]) {
        const gone = await call('GET', path);
        assert.deepStrictEqual([gone.status, gone.body.code], [404, 7002], path);
      }
      assert.ok(!(await call('GET', `/tasks?project=${mine}&limit=100`)).body.items.some((i: Json) => i.id === draft.id));
      const completed = emu.data.tasks.find((t) => t.status === 'COMPLETED')!;
      const refused = await call('DELETE', `/tasks/${completed.id}`);
      assert.deepStrictEqual([refused.status, refused.body.code], [400, 7010]);
      assert.strictEqual((await call('DELETE', `/tasks/${draft.id}`)).body.code, 7002);
    });
  });

  describe('a run', () => {
    it('listed at once; QUEUED → RUNNING (start_time, steps moving) → COMPLETED with end_time, price and its outputs as files in the project root', async () => {
      const reads = files(2);
      const t = (await call('POST', '/tasks?action=run', { name: 'align', project: mine, app: `${mine}/align-and-sort/2`, inputs: { reads: reads.map((f) => value(f)), reference: value(sample('regions.bed')) } })).body;
      const newest = await call('GET', `/tasks?project=${mine}&limit=1`);
      assert.deepStrictEqual([newest.body.items[0].id, t.status], [t.id, 'QUEUED']);
      step();
      const running = (await call('GET', `/tasks/${t.id}`)).body;
      assert.deepStrictEqual([running.status, running.start_time, running.execution_status.steps_completed, running.execution_status.steps_total], ['RUNNING', '2026-11-20T12:00:01Z', 0, 2]);
      step();
      assert.strictEqual((await call('GET', `/tasks/${t.id}`)).body.execution_status.steps_completed, 1);
      step();
      const done = (await call('GET', `/tasks/${t.id}`)).body;
      assert.deepStrictEqual([done.status, done.end_time, done.execution_status.steps_completed, typeof done.price.amount], ['COMPLETED', '2026-11-20T12:00:03Z', 2, 'number']);
      const out = done.outputs.sorted_bam;
      assert.strictEqual(out.name, `${reads[0].name.split('.')[0]}.bam`);
      const file = (await call('GET', `/files/${out.path}`)).body;
      assert.deepStrictEqual([file.parent, file.origin.task, file.project], [emu.data.projectById.get(mine)!.root_folder, t.id, mine]);
      const made = await call('GET', `/files?project=${mine}&origin.task=${t.id}`);
      assert.deepStrictEqual(made.body.items.map((i: Json) => i.id), [out.path]);
      const details = (await call('GET', `/tasks/${t.id}/execution_details`)).body;
      assert.deepStrictEqual(details.jobs.filter((j: Json) => !j.retried).map((j: Json) => j.name), ['bwa_mem', 'samtools_sort'], "the workflow's steps");
    });

    it('an output whose name is taken in the root gets _1_ in front', async () => {
      const input = value(files(1)[0]);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) ids.push((await call('POST', '/tasks?action=run', { project: mine, app: `${mine}/count-matches`, inputs: { input_file: input, pattern: 'x' } })).body.id);
      clock += 3000;
      const names = await Promise.all(ids.map(async (id) => (await call('GET', `/tasks/${id}`)).body.outputs.count.name));
      const base = `${files(1)[0].name.split('.')[0]}.txt`;
      assert.deepStrictEqual(names.sort(), [`_1_${base}`, base].sort());
    });
  });

  describe('batches', () => {
    it('by ITEM: a DRAFT parent; run: CREATING, then RUNNING with one child per file; the parent ends by the end rule with its children\'s price', async () => {
      const reads = files(3);
      const parent = (await call('POST', '/tasks', { name: 'qc', project: mine, app: 'admin/sbg-public-data/fastqc-0-11-9/0', inputs: {}, batch_input: 'in_reads', batch_by: { type: 'item' } })).body;
      assert.strictEqual(parent.status, 'DRAFT');
      assert.deepStrictEqual(parent.errors.map((e: Json) => e.type), ['MISSING_INPUT'], 'a draft may be incomplete');
      const patched = (await call('PATCH', `/tasks/${parent.id}`, { inputs: { in_reads: reads.map((f) => value(f)) } })).body;
      assert.deepStrictEqual([patched.batch, patched.batch_input, patched.batch_by, patched.errors], [true, 'in_reads', { type: 'ITEM', criteria: [] }, []]);
      assert.strictEqual((await call('POST', `/tasks/${parent.id}/actions/run`)).body.status, 'CREATING');
      assert.deepStrictEqual((await call('GET', `/tasks?parent=${parent.id}`)).body.items, [], 'children are made when it runs');
      step();
      const kids = (await call('GET', `/tasks?parent=${parent.id}&fields=_all&order_by=name`)).body.items;
      assert.deepStrictEqual(kids.map((k: Json) => [k.name, k.status, k.batch, k.batch_group.value, k.inputs.in_reads.map((v: Json) => v.path)]),
        reads.map((f) => [`qc - ${f.name}`, 'QUEUED', false, f.name, [f.id]]).sort());
      const running = (await call('GET', `/tasks/${parent.id}`)).body;
      assert.deepStrictEqual([running.status, running.execution_status.queued, running.execution_status.steps_total], ['RUNNING', 3, 3]);
      emu.setRunOutcome(kids[0].id, 'FAILED');
      clock += 3000;
      const ended = (await call('GET', `/tasks/${parent.id}`)).body;
      assert.deepStrictEqual([ended.status, ended.execution_status.completed, ended.execution_status.failed, ended.execution_status.steps_completed], ['COMPLETED', 2, 1, 3], 'FAILED only if all failed');
      const childPrices = (await call('GET', `/tasks?parent=${parent.id}&fields=price`)).body.items.reduce((n: number, k: Json) => n + Math.round(k.price.amount * 100), 0);
      assert.strictEqual(Math.round(ended.price.amount * 100), childPrices);
    });

    it('every child failed: the parent FAILED; by CRITERIA: one child per metadata value, a list input; on a one-file input an error; ?batch=false: one task', async () => {
      const reads = files(4);
      for (const [i, f] of reads.entries()) assert.strictEqual((await call('PUT', `/files/${f.id}/metadata`, i < 3 ? { sample_id: i < 2 ? 'S1' : 'S2' } : {})).status, 200);
      const body = { name: 'by sample', project: mine, app: `${mine}/align-and-sort`, inputs: { reads: reads.map((f) => value(f)), reference: value(sample('regions.bed')) }, batch_input: 'reads', batch_by: { type: 'CRITERIA', criteria: ['metadata.sample_id'] } };
      const parent = (await call('POST', '/tasks?action=run', body)).body;
      emu.setRunOutcome(parent.id, 'FAILED');
      step();
      const kids = (await call('GET', `/tasks?parent=${parent.id}&fields=_all`)).body.items;
      assert.deepStrictEqual(kids.map((k: Json) => [k.batch_group.value, k.batch_group.fields, k.inputs.reads.length]).sort(), [['', { sample_id: '' }, 1], ['S1', { sample_id: 'S1' }, 2], ['S2', { sample_id: 'S2' }, 1]]);
      clock += 3000;
      assert.strictEqual((await call('GET', `/tasks/${parent.id}`)).body.status, 'FAILED');
      const oneFile = await call('POST', '/tasks', vf({ ...good(), input_bam: [value(sample('sample_01.bam'))] }, { batch_input: 'input_bam', batch_by: { type: 'CRITERIA', criteria: ['metadata.sample_id'] } }));
      assert.deepStrictEqual(oneFile.body.errors.map((e: Json) => [e.type, e.input]), [['INVALID_VALUE', 'input_bam']]);
      const single = (await call('POST', '/tasks?action=run&batch=false', body)).body;
      assert.deepStrictEqual([single.batch, single.status, single.batch_input], [false, 'QUEUED', 'reads']);
    });
  });
});
