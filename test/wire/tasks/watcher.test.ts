import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { memoryState } from '../../support/sharedState';
import { shouldNotify, TaskWatcher, type TaskEnded } from '../../../src/tasks/watcher';
import { Emulator, startEmulator } from '../../emulator';

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
