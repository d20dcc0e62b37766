// 8. The adversary (issue 28): the write path tried as an adversary would, on the product's own Outbox (built from its
// table of write kinds) and JobTracker with their default timings, over the in-memory platform, everything on one
// fake clock (global state's propagation delays included). Each test is one way the promise "every write reaches
// the platform exactly once" broke before: a clock set off, a name taken for an identity, an answer that came
// late, two windows, a sleep, a record from another version, a token echoed back. Every figure goes to the
// summary's table of writes.
import * as assert from 'assert';
import { describeError, errorFromResponse } from '../../src/api/errors';
import { ACCOUNT, MemoryWorld, TOKEN_HERE, type MemoryWindow } from './memoryKit';
import { note, shown } from './support';

const MINUTE = 60_000;
const exactlyOnce = (requested: number) => ({ requested, once: requested, doubled: 0, lost: 0, wronglyAdopted: 0, stuck: 0 });

describe('8. the adversary: exactly once without trusting the local clock, a name, or a lucky timing', function () {
  this.timeout(60_000);
  let world: MemoryWorld | undefined;
  afterEach(() => world?.dispose());
  const make = (options?: ConstructorParameters<typeof MemoryWorld>[0]) => (world = new MemoryWorld(options));

  describe('re-run: the clone that appeared since the send, with the original\'s name and app, claimed by no other', () => {
    it('1a. this machine\'s clock an hour ahead: a lost answer\'s clone is found, no second clone is made', async () => {
      const w = make();
      const win = w.open();
      const original = w.platform.seedTask({ status: 'FAILED' });
      w.platform.seedTask({ status: 'COMPLETED', name: 'other run' }, 10 * MINUTE);
      w.clock.setWall(60 * MINUTE);
      w.platform.postFaults.push('lose');
      await win.action('rerun', original);
      await w.run(10 * MINUTE);
      assert.deepStrictEqual(w.account('1a. re-run, clock 1 h ahead, answer lost')['re-run'], exactlyOnce(1));
      assert.strictEqual(win.finished[0]?.found, true, 'found after the lost answer');
    });

    it('1b. the same task re-run twice within a minute: the second, never received, does not adopt the first\'s clone', async () => {
      const w = make();
      const win = w.open();
      const original = w.platform.seedTask({ status: 'FAILED' });
      await win.action('rerun', original);
      await w.run(20_000);
      w.platform.postFaults.push('drop');
      await win.action('rerun', original);
      await w.run(10 * MINUTE);
      assert.deepStrictEqual(w.account('1b. re-run twice in a minute, the second dropped')['re-run'], exactlyOnce(2));
      assert.strictEqual(w.userResubmits, 1, 'not found after the late window: the person submitted it again');
    });

    it('1c. this machine\'s clock 10 min behind, an older clone of the task in the project: the dropped re-run adopts no old clone', async () => {
      const w = make();
      const win = w.open();
      const original = w.platform.seedTask({ status: 'FAILED' });
      w.platform.seedTask({ status: 'COMPLETED' }, 5 * MINUTE); // an earlier re-run of the same task
      w.clock.setWall(-10 * MINUTE);
      w.platform.postFaults.push('drop');
      await win.action('rerun', original);
      await w.run(10 * MINUTE);
      assert.deepStrictEqual(w.account('1c. re-run, clock 10 min behind, dropped')['re-run'], exactlyOnce(1));
    });
  });

  it('2a. a copy acted on 15 s after the client gave up (its 30 s timeout): looked for through the late window, not sent again', async () => {
    const w = make();
    const win = w.open();
    w.platform.postFaults.push({ late: 45_000 });
    await win.copy(w.platform.sourceFiles(2));
    await w.run(10 * MINUTE);
    assert.deepStrictEqual(w.account('2a. copy acted on after the timeout').copy, exactlyOnce(1));
    assert.strictEqual(w.userResubmits, 0);
  });

  it('2b. a re-run acted on 15 s after the client gave up: looked for through the late window, not sent again', async () => {
    const w = make();
    const win = w.open();
    const original = w.platform.seedTask({ status: 'FAILED' });
    w.platform.postFaults.push({ late: 45_000 });
    await win.action('rerun', original);
    await w.run(10 * MINUTE);
    assert.deepStrictEqual(w.account('2b. re-run acted on after the timeout')['re-run'], exactlyOnce(1));
    assert.strictEqual(w.userResubmits, 0);
  });

  it('3. the same copy asked at once from two windows: one answer lost, the other never received; the one job is adopted by one of them, the other asked again', async () => {
    const w = make({ propagationMs: 500 });
    const [first, second] = [w.open(), w.open()];
    await w.run(3_000);
    const items = w.platform.sourceFiles(2);
    w.platform.postFaults.push('lose', 'drop');
    await Promise.all([first.copy(items), second.copy(items)]);
    await w.run(10 * MINUTE);
    assert.deepStrictEqual(w.account('3. one copy asked from two windows at once').copy, exactlyOnce(2));
    assert.strictEqual([...first.finished, ...second.finished].filter((f) => f.found).length, 1, 'the one job is adopted once');
  });

  it('3b. the same copy asked twice (two calls), both answers lost: each call adopts a job of its own, none is asked again', async () => {
    const w = make();
    const win = w.open();
    const items = w.platform.sourceFiles(2);
    w.platform.postFaults.push('lose', 'lose');
    await win.copy(items);
    await win.copy(items);
    await w.run(10 * MINUTE);
    assert.deepStrictEqual(w.account('3b. one copy asked twice, both answers lost').copy, exactlyOnce(2));
    assert.deepStrictEqual([win.finished.filter((f) => f.found).length, w.userResubmits, w.pending()], [2, 0, []]);
  });

  it('4. more than 1,000 earlier jobs and this machine\'s clock 15 min ahead: a lost answer\'s job is told from old ones on the platform\'s clock', async () => {
    const w = make({ platform: { jobOrder: 'oldest' } });
    const win = w.open();
    const old = w.platform.sourceFiles(1_100);
    for (const [i, f] of old.entries()) w.platform.foreignJob([{ file: f.id, project: 'rfranklin/dest' }], (2 * 24 * 60 - i) * MINUTE);
    // An old copy of the very same file, past the end of the snapshot: it must not be adopted.
    const [mine] = w.platform.sourceFiles(1);
    w.platform.foreignJob([{ file: mine.id, project: 'rfranklin/dest' }], 24 * 60 * MINUTE);
    await w.run(5_000);
    w.clock.setWall(15 * MINUTE);
    w.platform.postFaults.push('lose');
    await win.copy([mine]);
    await w.run(10 * MINUTE);
    assert.deepStrictEqual(w.account('4. 1,100 earlier jobs, clock 15 min ahead').copy, exactlyOnce(1));
    assert.strictEqual(win.finished[0]?.found, true);
  });

  it('5. the laptop sleeps an hour while a POST is on its way, its answer coming 1 to 24 s after waking (24 timings, the monotonic clock stopped or counting the sleep): no other window takes it over and sends it', async () => {
    const totals = { requested: 0, once: 0, doubled: 0, lost: 0, wronglyAdopted: 0, stuck: 0 };
    for (const monotonic of [false, true]) {
      for (let after = 2_000; after <= 24_000; after += 2_000) {
        const w = make({ propagationMs: 30 });
        const [a, b] = [w.open(), w.open()];
        // The second window's loop runs at another phase than the first's.
        await w.run(15_000 + (after % 7_000));
        const items = w.platform.sourceFiles(2);
        w.platform.postFaults.push({ answerAfter: after });
        await a.copy(items);
        await w.clock.tickAsync(1_000);
        await w.clock.suspend(60 * MINUTE, { monotonic });
        await w.run(10 * MINUTE);
        const figures = w.account(`5. sleep 1 h, answer ${after / 1000} s after sending${monotonic ? ', monotonic clock counting' : ''}`).copy;
        for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += figures[k];
        assert.strictEqual(b.finished.filter((f) => !f.found).length, 0, 'the other window sent nothing');
        w.dispose();
      }
    }
    assert.deepStrictEqual(totals, exactlyOnce(24));
  });

  it('6. two windows see a write orphaned at nearly the same time (0.7 s apart, global state 0.5 s behind): one takes it over, it is not left without an owner', async () => {
    const w = make({ propagationMs: 500 });
    const dead = w.open();
    await w.run(3_000);
    const items = w.platform.sourceFiles(2);
    w.platform.postFaults.push('hang');
    await dead.copy(items);
    await w.run(2_000, { submitAgain: false });
    dead.kill();
    w.open();
    await w.clock.tickAsync(700);
    w.open();
    await w.run(15 * MINUTE);
    assert.deepStrictEqual(w.account('6. two windows take over one orphan').copy, exactlyOnce(1));
    assert.deepStrictEqual(w.pending(), [], 'nothing left');
  });

  it('7. a record in a state this version does not know (from a newer version) is left alone, shown as such, never sent', async () => {
    const w = make();
    const items = w.platform.sourceFiles(1);
    await seed(w, { v: 2, id: 'newer-1', kind: 'copy', group: 'g-newer', account: ACCOUNT.key, owner: 'w-gone', state: 'paused', payload: { items: [{ file: items[0].id, project: 'rfranklin/dest' }], destination: { label: 'dest', project: 'rfranklin/dest' } }, createdAt: 1, attempts: 0, resends: 0 });
    const win = w.open();
    await w.run(10 * MINUTE);
    assert.strictEqual(w.platform.posts, 0, 'never sent');
    const [shownRecord] = win.outbox.all();
    assert.strictEqual(shownRecord?.problem, 'newer');
    shown('a record from a newer version', `${win.outbox.describe(shownRecord)}: ${shownRecord.note}`);
    note(`from a newer version: ${shownRecord.note}; POSTs: ${w.platform.posts}`);
  });

  it('8. a damaged record (a copy without its payload) becomes failed with a clear note and Discard; the rest carries on', async () => {
    const w = make();
    await seed(w, { v: 2, id: 'broken-1', kind: 'copy', group: 'g-broken', account: ACCOUNT.key, owner: 'w-gone', state: 'unsure', payload: null, createdAt: 1, attempts: 1, resends: 0 });
    const win = w.open();
    const items = w.platform.sourceFiles(2);
    await win.copy(items);
    await w.run(5 * MINUTE);
    const [broken] = win.outbox.all();
    assert.deepStrictEqual([broken?.state, broken?.problem], ['failed', 'corrupt']);
    shown('a damaged record', broken.note!, ['Discard']);
    await win.outbox.discard('g-broken');
    assert.deepStrictEqual(win.outbox.all(), [], 'discarded');
    assert.deepStrictEqual(w.account('8. a damaged record beside a copy').copy, exactlyOnce(1));
  });

  it('9. an error body that spells the token with JSON escapes: redacted once decoded, in the message, the stored note and describeError', async () => {
    const w = make();
    const win = w.open();
    const writes = spy(win);
    const escaped = [...TOKEN_HERE].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const refusal = errorFromResponse(400, `{"code": 9000, "message": "Rejected X-SBG-Auth-Token ${escaped.replace(/\\u002f/g, '\\/')}"}`, { method: 'POST', path: '/async/files/copy', secrets: [TOKEN_HERE] });
    w.platform.postFaults.push({ refuse: refusal });
    await win.copy(w.platform.sourceFiles(1));
    await w.run(MINUTE, { submitAgain: false });
    const [left] = win.outbox.all();
    assert.strictEqual(left?.state, 'failed');
    for (const text of [refusal.message, describeError(refusal), left.note!, ...writes]) assert.ok(!text.includes(TOKEN_HERE), `the token in ${text}`);
    assert.match(left.note!, /\(the token\)/);
  });

  it('10. a 2xx answer that echoes the token (in href and a result): nothing stored carries it, only the fields needed are kept', async () => {
    const w = make();
    const win = w.open();
    const writes = spy(win);
    w.platform.postFaults.push('echo');
    await win.copy(w.platform.sourceFiles(2));
    await w.run(MINUTE);
    assert.ok(writes.length > 0);
    for (const text of writes) assert.ok(!text.includes(TOKEN_HERE), `the token stored: ${text.slice(0, 200)}`);
    assert.deepStrictEqual(w.account('10. a 2xx answer echoing the token').copy, exactlyOnce(1));
  });

  describe('behaviours no test pinned down before', () => {
    it('a lost re-run answer whose clone shows in the project\'s list only after 10 s still gives exactly one clone', async () => {
      const w = make({ platform: { listLagMs: 10_000 } });
      const win = w.open();
      const original = w.platform.seedTask({ status: 'ABORTED' });
      w.platform.postFaults.push('lose');
      await win.action('rerun', original);
      await w.run(10 * MINUTE);
      assert.deepStrictEqual(w.account('a clone listed 10 s late')['re-run'], exactlyOnce(1));
    });

    it('a lost abort answer on a task still QUEUED is not taken as "aborted": the abort is sent again and reaches it once', async () => {
      const w = make();
      const win = w.open();
      const queued = w.platform.seedTask({ status: 'QUEUED' });
      w.platform.postFaults.push('drop');
      await win.action('abort', queued);
      await w.run(5 * MINUTE);
      assert.deepStrictEqual(w.account('abort of a QUEUED task, dropped').abort, exactlyOnce(1));
      assert.strictEqual(w.platform.task(queued.id)?.status, 'ABORTED');
    });

    it('a run of a draft, dropped: read, sent again, run once', async () => {
      const w = make();
      const win = w.open();
      const draft = w.platform.seedTask({ status: 'DRAFT' });
      w.platform.postFaults.push('drop');
      await win.action('run', draft);
      await w.run(5 * MINUTE);
      assert.deepStrictEqual(w.account('run of a draft, dropped').run, exactlyOnce(1));
    });
  });
});

/** A record as another version (or a damaged store) left it in global state, seen by every window opened after. */
async function seed(w: MemoryWorld, value: Record<string, unknown>): Promise<void> {
  const writer = w.global.window();
  await writer.update(`sevenbridges.write.${value.id as string}`, value);
  writer.closed = true;
}

/** Every value the window writes to global state, as JSON. */
function spy(win: MemoryWindow): string[] {
  const writes: string[] = [];
  const update = win.state.update.bind(win.state);
  win.state.update = (key: string, value: unknown) => {
    writes.push(`${key} ${JSON.stringify(value)}`);
    return update(key, value);
  };
  return writes;
}
