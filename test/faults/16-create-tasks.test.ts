// 16. Making tasks (issue 39): Run Task and Run for Each Row… as writes of the outbox, on the product's own Outbox
// (built from its table of write kinds) with its default timings, over the in-memory platform, on one fake clock.
// A create is not idempotent (each call makes a task, billed once run): a lost answer is found by difference — the
// task that appeared in the project since the send with the app, name and inputs asked, claimed by no other write —
// never sent again blind. Rows "create task" and "create tasks from a sheet" of the writes table.
import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import type { NewTask } from '../../src/api/types';
import { WRITE_KINDS } from '../../src/keys/writes';
import type { SaveDraftPayload } from '../../src/tasks/taskWrites';
import { draftState, stateAfter } from '../../src/tasks/taskRequest';
import { MemoryWorld } from './memoryKit';
import { accountWrites, compareWrites, note, type WriteFigures } from './support';

const MINUTE = 60_000;
const exactlyOnce = (requested: number) => ({ requested, once: requested, doubled: 0, lost: 0, wronglyAdopted: 0, stuck: 0 });
const PROJECT = 'rfranklin/dest';
const APP = 'rfranklin/dest/variant-filter/2';

/** A task document's request: its name and inputs (a file ID written as the API takes it). */
const task = (name: string, file = 'aaaaaaaaaaaaaaaaaaaaaaa1', threads = 4): NewTask => ({
  project: PROJECT,
  app: APP,
  name,
  inputs: { vcf: { class: 'File', path: file }, min_quality: threads },
});

describe('16. making tasks exactly once: Run Task and a sample sheet\'s rows', function () {
  this.timeout(60_000);
  let world: MemoryWorld | undefined;
  afterEach(() => world?.dispose());
  const make = (options?: ConstructorParameters<typeof MemoryWorld>[0]) => (world = new MemoryWorld(options));

  describe('create task', () => {
    it('a lost answer: the task is found in the project, not made again', async () => {
      const w = make();
      const win = w.open();
      w.platform.postFaults.push('lose');
      await win.create(task('VF on sample_01'));
      await w.run(5 * MINUTE);
      assert.deepStrictEqual(w.account('create task, answer lost', 'answer lost')['create task'], exactlyOnce(1));
      assert.strictEqual(win.finished[0]?.found, true, 'found after the lost answer');
    });

    it('429 and maintenance: not processed, sent again by itself once the wait is over, made once each', async () => {
      const w = make();
      const win = w.open();
      w.platform.postFaults.push({ refuse: new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded.', untilResetMs: 20_000 }) });
      await win.create(task('VF 429'));
      w.platform.postFaults.push({ refuse: new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance.' }) });
      await win.create(task('VF maintenance'));
      await w.run(5 * MINUTE);
      assert.deepStrictEqual(w.account('create task, 429 and maintenance', '429, maintenance')['create task'], exactlyOnce(2));
      assert.strictEqual(w.platform.posts, 4, 'each sent twice: refused once, made once');
    });

    it('the same document run twice, both answers lost: each run adopts a task of its own, none is made a third time', async () => {
      const w = make();
      const win = w.open();
      w.platform.postFaults.push('lose', 'lose');
      await win.create(task('VF twice'));
      await win.create(task('VF twice'));
      await w.run(5 * MINUTE);
      assert.deepStrictEqual(w.account('create task, the same document twice, both lost', 'same document twice')['create task'], exactlyOnce(2));
      assert.strictEqual(new Set(win.finished.map((f) => (f.outcome as { id: string }).id)).size, 2, 'two tasks, each adopted once');
      assert.strictEqual(w.platform.posts, 2, 'no third create');
    });

    it('this machine\'s clock an hour ahead, then 10 min behind with a like task made by hand before: the lost one found, the dropped one adopts no old task', async () => {
      const w = make();
      const win = w.open();
      w.clock.setWall(60 * MINUTE);
      w.platform.postFaults.push('lose');
      await win.create(task('VF clock ahead'));
      await w.run(5 * MINUTE);
      // A task of the same app, name and inputs made from the web page 5 minutes ago, then a create that never arrives.
      w.platform.seedTask({ status: 'COMPLETED', name: 'VF clock behind', app: APP, project: PROJECT, inputs: task('x').inputs }, 5 * MINUTE);
      w.clock.setWall(-10 * MINUTE);
      w.platform.postFaults.push('drop');
      await win.create(task('VF clock behind'));
      await w.run(10 * MINUTE);
      assert.deepStrictEqual(w.account('create task, clock 1 h ahead (lost), 10 min behind (dropped)', 'a skewed clock')['create task'], exactlyOnce(2));
      assert.strictEqual(w.userResubmits, 1, 'the dropped one, not found after the late window: the person submitted it again');
    });

    it('two windows: the owner dies while its create is on its way; another window takes it over and finds the task, none made twice', async () => {
      const w = make({ propagationMs: 500 });
      const dead = w.open();
      await w.run(3_000);
      w.platform.postFaults.push('hang');
      await dead.create(task('VF orphan'));
      await w.run(2_000, { submitAgain: false });
      dead.kill();
      w.open();
      await w.run(10 * MINUTE);
      assert.deepStrictEqual(w.account('create task, its window dies mid-send', 'two windows')['create task'], exactlyOnce(1));
      assert.deepStrictEqual(w.pending(), [], 'nothing left');
    });
  });

  it('create tasks from a sheet: 60 rows, one answer in five lost, a 429 and maintenance among them: 60 tasks, each row once', async () => {
    const w = make();
    const win = w.open();
    const rows = Array.from({ length: 60 }, (_, i) => task(`VF row ${i + 1}`, `aaaaaaaaaaaaaaaaaaaa${(0x100 + i).toString(16)}`, i));
    for (let i = 0; i < rows.length; i++) {
      w.platform.postFaults.push(i % 5 === 4 ? 'lose' : i === 10 ? { refuse: new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit.', untilResetMs: 5_000 }) } : i === 20 ? { refuse: new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance.' }) } : { answerAfter: 0 });
    }
    await win.createMany(rows);
    await w.run(15 * MINUTE);
    assert.deepStrictEqual(w.account('create tasks from a sheet: 60 rows, 12 answers lost, a 429, maintenance', 'lost answers, 429, maintenance')['create tasks from a sheet'], exactlyOnce(60));
    assert.strictEqual(win.finished.filter((f) => f.found).length, 12, 'each lost answer found by the lookup');
  });

  describe('save draft: the document saved over its draft (PATCH), found by state', () => {
    const none = { doubled: 0, lost: 0, asked: 0, wronglyAdopted: 0, stuck: 0 };
    const tally = (what: string, figures: WriteFigures) => {
      accountWrites('save draft', figures, what);
      note(`save draft · ${what}: requested ${figures.requested}, made once ${figures.once}, doubled ${figures.doubled}, lost ${figures.lost}, person asked ${figures.asked}`);
      return figures;
    };
    const saving = (w: MemoryWorld) => {
      const draft = w.platform.seedTask({ status: 'DRAFT', name: 'VF draft', app: APP, project: PROJECT, inputs: { min_quality: 4 } });
      const changes = { name: 'VF draft', inputs: { min_quality: 30 } };
      const before = draftState(draft);
      const payload: SaveDraftPayload = { id: draft.id, before, after: stateAfter(before, changes), changes };
      return { draft, payload, key: `saveDraft:${draft.id}:${JSON.stringify(changes)}` };
    };

    it('its answer lost: read back, it shows what was asked, not sent again', async () => {
      const w = make();
      const win = w.open();
      const { draft, payload, key } = saving(w);
      w.platform.postFaults.push('lose');
      await win.submit(WRITE_KINDS.saveDraft, [payload]);
      await w.run(5 * MINUTE);
      const sent = w.platform.received.filter((k) => k === key).length;
      const figures = tally('answer lost', { ...none, ...compareWrites([key], w.platform.made.map((m) => m.key)), doubled: sent - 1 });
      assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1 });
      assert.strictEqual(win.finished[0]?.found, true);
      assert.deepStrictEqual(w.platform.task(draft.id)?.inputs, { min_quality: 30 });
    });

    it('its answer lost, a colleague changes the draft before the lookup: the person is asked, nothing overwritten', async () => {
      const w = make({ propagationMs: 30 });
      const win = w.open();
      const { draft, payload, key } = saving(w);
      w.platform.postFaults.push('lose');
      const [write] = await win.submit(WRITE_KINDS.saveDraft, [payload]);
      await w.clock.tickAsync(1_000);
      w.platform.task(draft.id)!.inputs = { min_quality: 50 };
      await w.run(10 * MINUTE);
      const [left] = win.outbox.all();
      assert.deepStrictEqual([left?.id, left?.state], [write.id, 'changed']);
      assert.match(left.note!, /was changed by someone else since/);
      assert.deepStrictEqual(w.platform.task(draft.id)?.inputs, { min_quality: 50 }, 'the colleague\'s change stands');
      const sent = w.platform.received.filter((k) => k === key).length;
      const figures = tally('a colleague\'s change', { ...none, ...compareWrites([key], w.platform.made.map((m) => m.key)), doubled: sent - 1, asked: 1 });
      assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1, asked: 1 });
    });
  });
});
