/** The emulator's task creation, clone, draft changes (platform-api.md §11), prices, and the batches at scale. */
import * as assert from 'assert';
import { startEmulator, type Emulator, type TaskRec } from '../../emulator';
import { caller, type Json } from './call';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const cents = (v: number | string) => Math.round(Number(v) * 100);

describe('emulator: tasks made and changed, prices, batches at scale', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;
  let clock = 0;

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ now: () => clock, taskStepMs: 1000, runSteps: 2 });
    call = caller(emu);
  });
  afterEach(() => emu.close());

  const project = () => emu.data.projects[0];
  const fileIn = (p = project()) => emu.data.files.find((f) => f.project === p.id && f.type === 'file')!;
  const body = (extra: Json = {}): Json => ({
    name: 'made here',
    project: project().id,
    app: `${project().id}/bwa-mem/3`,
    inputs: { reads: [{ class: 'File', path: fileIn().id }], threads: 8, reference: null },
    ...extra,
  });
  const first = (pred: (t: TaskRec) => boolean): TaskRec => {
    const t = emu.data.tasks.find(pred);
    assert.ok(t, 'the seeded data has such a task');
    return t;
  };

  describe('POST /v2/tasks', () => {
    it('makes a DRAFT (201), listed and readable; ?action=run (any case) runs it', async () => {
      const r = await call('POST', '/tasks', body({ description: 'd', execution_settings: { instance_type: 'c5.2xlarge' } }));
      assert.strictEqual(r.status, 201);
      assert.match(r.body.id, UUID);
      assert.deepStrictEqual(
        [r.body.status, r.body.name, r.body.project, r.body.app, r.body.created_by, r.body.description, r.body.execution_settings.instance_type],
        ['DRAFT', 'made here', project().id, `${project().id}/bwa-mem/3`, emu.username, 'd', 'c5.2xlarge'],
      );
      assert.deepStrictEqual(r.body.errors, []);
      assert.strictEqual(r.body.created_time, '2026-11-20T12:00:00Z');
      assert.strictEqual((await call('GET', `/tasks/${r.body.id}`)).body.status, 'DRAFT');
      for (const action of ['run', 'RUN', 'Run']) {
        const ran = await call('POST', `/tasks?action=${action}`, body());
        assert.deepStrictEqual([ran.status, ran.body.status], [201, 'QUEUED'], action);
      }
      const ran = await call('POST', '/tasks?action=run', body({ name: undefined }));
      assert.match(ran.body.name, /^BWA-MEM Bundle run - 11-20-26 12:00:00$/, 'named by the platform when no name is given');
      clock += 1000;
      assert.strictEqual((await call('GET', `/tasks/${ran.body.id}`)).body.status, 'RUNNING');
      clock += 2000;
      const ended = (await call('GET', `/tasks/${ran.body.id}`)).body;
      assert.strictEqual(ended.status, 'COMPLETED');
      assert.ok(ended.price && typeof ended.price.amount === 'number', 'a task that ran has a price');
    });

    it('validation problems: made as a DRAFT with its errors listed; with action=run it stays DRAFT with them', async () => {
      const missing = body({ inputs: { threads: 4 } });
      const draft = await call('POST', '/tasks', missing);
      assert.deepStrictEqual([draft.status, draft.body.status, draft.body.errors], [201, 'DRAFT', [{ type: 'MISSING_INPUT', input: 'reads', message: "Required input 'reads' is not set." }]]);
      const run = await call('POST', '/tasks?action=run', missing);
      assert.deepStrictEqual([run.status, run.body.status], [201, 'DRAFT']);
      assert.deepStrictEqual(run.body.errors.map((e: Json) => e.message), ["Required input 'reads' is not set."]);
      const folder = emu.data.files.find((f) => f.type === 'folder' && f.parent)!;
      const wrong = await call('POST', '/tasks?action=run', body({ inputs: { reads: [{ class: 'File', path: 'ffffffffffffffffffffffff' }, { class: 'File', path: folder.id }] } }));
      assert.deepStrictEqual(wrong.body.errors.map((e: Json) => e.message), [
        "Input 'reads': file 'ffffffffffffffffffffffff' does not exist.",
        `Input 'reads': '${folder.name}' is not a file.`,
      ]);
      assert.deepStrictEqual(wrong.body.errors.map((e: Json) => [e.type, e.input]), [['FILE_NOT_FOUND', 'reads'], ['INVALID_VALUE', 'reads']]);
    });

    it('refuses, making nothing: no body, no project or app, unknown ones, no permission, inputs not an object, batch=false without a run', async () => {
      const before = emu.data.tasks.length;
      const readOnly = emu.data.projects.find((p) => !p.permissions.execute)!;
      for (const [b, status, q] of [
        ['not json', 400, ''],
        [[], 400, ''],
        [body({ project: undefined }), 400, ''],
        [body({ app: undefined }), 400, ''],
        [body({ project: 'nobody/nothing' }), 404, ''],
        [body({ app: `${project().id}/no-such-app/1` }), 404, ''],
        [body({ app: `${project().id}/bwa-mem/x` }), 404, ''],
        [body({ project: readOnly.id, app: `${readOnly.id}/bwa-mem/1` }), 403, ''],
        [body({ inputs: [] }), 400, ''],
        [body({ name: '' }), 400, ''],
        [body({ batch_input: 'reads', batch_by: { type: 'ITEM' } }), 400, '?batch=false'],
        [body(), 400, '?action=go'],
      ] as [unknown, number, string][]) {
        const r = await call('POST', `/tasks${q}`, b);
        assert.strictEqual(r.status, status, `${JSON.stringify(b).slice(0, 60)} ${q}`);
        assert.ok(r.body.message);
      }
      assert.strictEqual(emu.data.tasks.length, before);
      const one = await call('POST', '/tasks?batch=false&action=run', body({ batch_input: 'reads', batch_by: { type: 'ITEM' } }));
      assert.deepStrictEqual([one.status, one.body.batch, one.body.status], [201, false, 'QUEUED'], 'batching turned off for a run');
    });
  });

  describe('PATCH a draft', () => {
    it('changes name, description, inputs (replaced), settings; clears errors; refuses a task that is not a draft', async () => {
      const made = await call('POST', '/tasks?action=run', body({ inputs: {} }));
      assert.ok(made.body.errors.length > 0);
      const r = await call('PATCH', `/tasks/${made.body.id}`, { name: 'renamed', description: 'x', inputs: { reads: [{ class: 'File', path: fileIn().id }] }, use_interruptible_instances: false });
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual([r.body.name, r.body.description, r.body.use_interruptible_instances, r.body.errors], ['renamed', 'x', false, []]);
      assert.deepStrictEqual(Object.keys(r.body.inputs), ['reads']);
      const inputs = await call('PATCH', `/tasks/${made.body.id}/inputs`, { threads: 2 });
      assert.deepStrictEqual(Object.keys(inputs.body).sort(), ['reads', 'threads']);
      assert.strictEqual((await call('PATCH', `/tasks/${made.body.id}`, { status: 'RUNNING' })).status, 400);
      assert.strictEqual((await call('POST', `/tasks/${made.body.id}/actions/run`)).body.status, 'QUEUED');
      const notDraft = await call('PATCH', `/tasks/${made.body.id}`, { name: 'again' });
      assert.strictEqual(notDraft.status, 400);
      assert.match(notDraft.body.message, /QUEUED.*draft/);
      assert.strictEqual((await call('PATCH', '/tasks/00000000-0000-4000-8000-000000000000', { name: 'x' })).status, 404);
    });
  });

  describe('clone', () => {
    it('?action= in any case; a batch child\'s clone stands alone; inputs gone since: DRAFT with errors', async () => {
      const failed = first((t) => t.status === 'FAILED' && !t.batch && !t.parent && t.inputs && Object.values(t.inputs).some((v) => v !== null));
      const r = await call('POST', `/tasks/${failed.id}/actions/clone?action=RUN`);
      assert.deepStrictEqual([r.status, r.body.status], [201, 'QUEUED']);
      const child = first((t) => t.status === 'FAILED' && t.parent !== null);
      const c = await call('POST', `/tasks/${child.id}/actions/clone?action=Run`);
      assert.deepStrictEqual([c.body.parent, c.body.batch_group, c.body.name, c.body.app], [null, undefined, child.name, child.app]);
      assert.deepStrictEqual(c.body.inputs, child.inputs);
      const parentList = await call('GET', `/tasks?parent=${child.parent}&limit=100`);
      assert.ok(!parentList.body.items.some((t: Json) => t.id === c.body.id), 'not one of the batch');
      const input = Object.values(failed.inputs).flat().find((v) => v && typeof v === 'object') as { path: string };
      assert.strictEqual((await call('POST', '/async/files/delete', { items: [{ file: input.path }] })).status, 200);
      clock += 60_000;
      await call('GET', '/async/files');
      assert.ok(!emu.data.fileById.has(input.path));
      const stale = await call('POST', `/tasks/${failed.id}/actions/clone?action=run`);
      assert.strictEqual(stale.body.status, 'DRAFT');
      assert.match(stale.body.errors[0].message, /does not exist/);
      assert.strictEqual((await call('POST', `/tasks/${failed.id}/actions/clone?action=later`)).status, 400);
    });
  });

  describe('prices', () => {
    it('every priced task has currency, amount and a breakdown of strings adding up to it', () => {
      const priced = emu.data.tasks.filter((t) => t.price);
      assert.ok(priced.length > emu.data.tasks.length / 3);
      for (const t of priced) {
        const p = t.price!;
        assert.strictEqual(p.currency, 'USD');
        assert.strictEqual(typeof p.amount, 'number');
        for (const part of Object.values(p.breakdown)) assert.match(part, /^\d+\.\d{2}$/);
        assert.strictEqual(cents(p.breakdown.storage) + cents(p.breakdown.computation) + cents(p.breakdown.data_transfer), cents(p.amount), t.id);
      }
      assert.ok(emu.data.tasks.filter((t) => ['DRAFT', 'QUEUED'].includes(t.status)).every((t) => !t.price), 'what has not run has no price');
    });

    it("a batch parent's price is the sum of its children's, breakdown included", async () => {
      const parents = emu.data.batchParents.filter((p) => p.price);
      assert.ok(parents.length >= 3);
      for (const parent of parents) {
        const kids = emu.data.tasks.filter((t) => t.parent === parent.id && t.price);
        for (const key of ['storage', 'computation', 'data_transfer'] as const) {
          assert.strictEqual(cents(parent.price!.breakdown[key]), kids.reduce((n, k) => n + cents(k.price!.breakdown[key]), 0), `${parent.name} ${key}`);
        }
        assert.strictEqual(cents(parent.price!.amount), kids.reduce((n, k) => n + cents(k.price!.amount), 0));
      }
      const r = await call('GET', `/tasks?parent=${parents[0].id}&fields=price`);
      assert.ok(r.body.items.every((t: Json) => typeof t.price?.breakdown?.computation === 'string' || t.price === undefined));
    });
  });

  describe('batches at scale', () => {
    it('the default seed has one of 40 children, 4 failed, each failed child with a failed job and its error log behind a signed URL', async () => {
      assert.strictEqual(emu.data.scaleBatches.length, 1);
      const parent = emu.data.scaleBatches[0];
      assert.strictEqual(parent.name, 'Salmon Quant batch 1 - 40 samples');
      const kids = emu.data.tasks.filter((t) => t.parent === parent.id);
      assert.strictEqual(kids.length, 40);
      const failed = kids.filter((k) => k.status === 'FAILED');
      assert.strictEqual(failed.length, 4);
      assert.deepStrictEqual([parent.status, parent.execution_status.failed, parent.execution_status.completed], ['FAILED', 4, 36]);
      assert.ok(emu.data.batchParents.includes(parent));
      const listed = await call('GET', `/tasks?parent=${parent.id}&status=FAILED&limit=100`);
      assert.deepStrictEqual(listed.body.items.map((t: Json) => t.id).sort(), failed.map((t) => t.id).sort());
      for (const child of failed) {
        assert.ok(child.errors[0].message && child.end_time && child.start_time! >= parent.start_time! && child.end_time <= parent.end_time!);
        const details = (await call('GET', `/tasks/${child.id}/execution_details`)).body;
        const job = details.jobs.find((j: Json) => j.status === 'FAILED' && !j.retried);
        assert.ok(job.start_time && job.end_time && job.instance.type, JSON.stringify(job));
        const info = await call('GET', job.logs['job.err.log']);
        const log = await fetch(info.body.url);
        assert.strictEqual(log.status, 200);
        const text = await log.text();
        assert.ok(text.trimEnd().endsWith(child.errors[0].message));
        assert.ok(text.length < 20 * 1024, `a light log (${text.length} bytes)`);
      }
      for (const done of kids.filter((k) => k.status === 'COMPLETED')) {
        const out = (done.outputs.quant as { path: string }).path;
        assert.strictEqual(emu.data.fileById.get(out)?.origin.task, done.id);
      }
    });

    it('an option for 1,000 children (and a failure share), drawn apart: the rest of the data is the same', async () => {
      const big = await startEmulator({ now: () => clock, batches: [1000, 40], batchFailures: 0.25 });
      try {
        const [thousand, forty] = big.data.scaleBatches;
        assert.strictEqual(big.data.tasks.filter((t) => t.parent === thousand.id).length, 1000);
        assert.strictEqual(big.data.tasks.filter((t) => t.parent === thousand.id && t.status === 'FAILED').length, 250);
        assert.strictEqual(thousand.name, 'Salmon Quant batch 1 - 1,000 samples');
        assert.strictEqual(big.data.tasks.filter((t) => t.parent === forty.id && t.status === 'FAILED').length, 10);
        const drawn = (e: Emulator) => e.data.tasks.filter((t) => !e.data.scaleBatches.some((b) => b.id === t.id || b.id === t.parent)).map((t) => t.id);
        assert.deepStrictEqual(drawn(big), drawn(emu), 'the tasks drawn are the same with or without batches at scale');
        const r = await caller(big)('GET', `/tasks?parent=${thousand.id}&status=FAILED&limit=1`);
        assert.strictEqual(r.headers.get('x-total-matching-query'), '250');
      } finally {
        await big.close();
      }
    });
  });
});
