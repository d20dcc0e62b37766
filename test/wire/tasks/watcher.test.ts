import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { memoryState } from '../../support/sharedState';
import type { BulkTaskItem, Task } from '../../../src/api/types';
import { followWatched, shouldNotify, TaskWatcher, type TaskEnded } from '../../../src/tasks/watcher';
import { type Emulator, startEmulator } from '../../emulator';
import { FAKE_CLOCK_START, FakeClock } from '../../support/fakeClock';

describe('task watcher (against the emulator)', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let clock: number;
  let requests: string[];
  let sb: SbClient;

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ tasks: 400, now: () => clock, taskStepMs: 1000, runSteps: 2 });
    requests = [];
    sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), onRequest: (e) => requests.push(`${e.method} ${e.path}`) });
  });
  afterEach(() => emu.close());

  it('50 watched tasks cost one request per poll; each ending is announced once, then it is no longer watched', async () => {
    const watcher = new TaskWatcher(sb.tasks, memoryState(), () => emu.baseUrl, () => clock);
    const active = emu.data.tasks.filter((t) => (t.status === 'RUNNING' || t.status === 'QUEUED') && !t.batch).slice(0, 50);
    assert.strictEqual(active.length, 50);
    for (const t of active) await watcher.watch(t);
    const ended: TaskEnded[] = [];
    watcher.onDidEnd((e) => ended.push(e));
    assert.strictEqual(await watcher.poll(), false);
    assert.deepStrictEqual(requests, ['POST /v2/bulk/tasks/get']);
    // Abort one running task (ABORTING, then ABORTED a step later).
    const running = active.find((t) => t.status === 'RUNNING')!;
    await sb.tasks.action('abort', running.id);
    requests = [];
    await watcher.poll();
    assert.strictEqual(ended.length, 0, 'ABORTING is not an end');
    clock += 1000;
    assert.strictEqual(await watcher.poll(), true);
    assert.deepStrictEqual(ended.map((e) => [e.task.id, e.how]), [[running.id, 'ABORTED']]);
    assert.strictEqual(watcher.list().length, 49);
    await watcher.poll();
    assert.strictEqual(ended.length, 1, 'announced once');
    assert.deepStrictEqual(requests, ['POST /v2/bulk/tasks/get', 'POST /v2/bulk/tasks/get', 'POST /v2/bulk/tasks/get']);
  });

  it('a task run here ends FAILED: announced with its errors; terminal tasks are not watched; endpoints are kept apart', async () => {
    const store = memoryState();
    const watcher = new TaskWatcher(sb.tasks, store, () => emu.baseUrl, () => clock);
    const draft = emu.data.tasks.find((t) => t.status === 'DRAFT' && !t.batch)!;
    emu.setRunOutcome(draft.id, 'FAILED');
    await watcher.watch(await sb.tasks.action('run', draft.id));
    await watcher.watch(emu.data.tasks.find((t) => t.status === 'COMPLETED')!);
    assert.strictEqual(watcher.list().length, 1);
    const ended: TaskEnded[] = [];
    watcher.onDidEnd((e) => ended.push(e));
    clock += 1000;
    await watcher.poll();
    clock += 2000;
    await watcher.poll();
    assert.strictEqual(ended[0].how, 'FAILED');
    assert.ok((ended[0].task.errors ?? []).length > 0);
    const other = new TaskWatcher(sb.tasks, store, () => 'https://api.sbgenomics.com/v2', () => clock);
    assert.strictEqual(other.list().length, 0);
  });

  it('notifies by the setting: all, failures only, off', () => {
    assert.strictEqual(shouldNotify('all', 'COMPLETED'), true);
    assert.strictEqual(shouldNotify('failures', 'COMPLETED'), false);
    assert.strictEqual(shouldNotify('failures', 'FAILED'), true);
    assert.strictEqual(shouldNotify('failures', 'ABORTED'), true);
    assert.strictEqual(shouldNotify('off', 'FAILED'), false);
  });
});

describe('following watched tasks (on the fake clock)', () => {
  const RUNNING: Task = { href: '', id: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'BWA-MEM run', status: 'RUNNING' };

  /** A platform of one task, answering the bulk read from memory; each read is noted with its time. */
  function setup(clock: FakeClock) {
    const state = { task: { ...RUNNING }, fail: false };
    const reads: number[] = [];
    const source = {
      bulkGet: async (ids: readonly string[]) => {
        reads.push((clock.now() - FAKE_CLOCK_START) / 1000);
        if (state.fail) throw new Error('offline');
        return ids.map((id): BulkTaskItem => (id === state.task.id ? { resource: { ...state.task } } : { error: { status: 404, code: 90003, message: 'Not found' } }));
      },
    };
    const watcher = new TaskWatcher(source, memoryState(), () => 'https://api.sbgenomics.com/v2', clock.now);
    const ended: { at: number; ended: TaskEnded }[] = [];
    watcher.onDidEnd((e) => ended.push({ at: (clock.now() - FAKE_CLOCK_START) / 1000, ended: e }));
    const poller = followWatched(watcher, { intervalMs: () => 30_000, enabled: () => true, clock });
    return { state, reads, watcher, ended, poller };
  }

  it('reads every 30 s however long nothing changes, so an end just after a read is told 30 s later, not after a back-off', async () => {
    const clock = new FakeClock();
    const { state, reads, watcher, ended, poller } = setup(clock);
    await watcher.watch(RUNNING);
    poller.markFresh();
    await clock.tickAsync(150_000);
    assert.deepStrictEqual(reads, [30, 60, 90, 120, 150], 'not stretched while nothing changes');
    // The task ends just after the check at 150 s.
    state.task = { ...RUNNING, status: 'FAILED', end_time: '2026-11-21T05:02:31Z' };
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(ended.map((e) => [e.at, e.ended.how, e.ended.was]), [[180, 'FAILED', 'RUNNING']]);
    await clock.tickAsync(120_000);
    assert.deepStrictEqual(reads, [30, 60, 90, 120, 150, 180], 'nothing is watched any more: no reads');
    poller.dispose();
  });

  it('waits twice as long after each failed read (5 min at most), and every 30 s again once a read succeeds', async () => {
    const clock = new FakeClock();
    const { state, reads, watcher, poller } = setup(clock);
    await watcher.watch(RUNNING);
    poller.markFresh();
    state.fail = true;
    await clock.tickAsync(30_000 + 60_000 + 120_000 + 240_000 + 300_000);
    assert.deepStrictEqual(reads, [30, 90, 210, 450, 750]);
    state.fail = false;
    await clock.tickAsync(300_000 + 60_000);
    assert.deepStrictEqual(reads, [30, 90, 210, 450, 750, 1050, 1080, 1110]);
    poller.dispose();
  });

  it('pauses while the window is in the background, and reads soon after it comes back', async () => {
    const clock = new FakeClock();
    const { reads, watcher, poller } = setup(clock);
    await watcher.watch(RUNNING);
    poller.markFresh();
    await clock.tickAsync(30_000);
    poller.setFocused(false);
    await clock.tickAsync(600_000);
    assert.deepStrictEqual(reads, [30]);
    poller.setFocused(true);
    await clock.tickAsync(1_000);
    assert.strictEqual(reads.length, 2);
    assert.ok(reads[1] <= 631, `read again within 1 s of coming back: ${reads[1]}`);
    poller.dispose();
  });
});
