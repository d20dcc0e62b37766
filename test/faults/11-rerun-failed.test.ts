// 11. Re-run Failed on a batch of 200 failed children, with the answers of one clone in five lost: each child is
// cloned exactly once, each lost answer found by the re-run's identity rule (the clone with its name and app that
// appeared since the snapshot, claimed by no other write): 200 new tasks, not 199 or 201.
import * as assert from 'assert';
import type { Task } from '../../src/api/types';
import type { TaskActionApi } from '../../src/tasks/actions';
import { WRITE_KINDS } from '../../src/keys/writes';
import { planRerun, rerunFailedWrite, rerunnableChildren, rerunPayloads } from '../../src/tasks/rerunFailed';
import { Outbox } from '../../src/write/outbox';
import type { Emulator } from '../emulator';
import { memoryState } from '../support/sharedState';
import { TEST_OUTBOX } from './copyKit';
import { accountWrites, compareWrites, makeClient, makeEmulator, note, TOKEN } from './support';

describe('11. Re-run Failed: 200 children under lost answers', function () {
  // Real time: the outbox sends one write at a time (about 150 ms each here, slower on a loaded machine), then the lookups.
  this.timeout(400_000);
  let emu: Emulator;
  let outbox: Outbox | undefined;

  beforeEach(async () => {
    emu = await makeEmulator({ tasks: 40, batches: [200], batchFailures: 1, taskStepMs: 60_000 });
  });
  afterEach(() => outbox?.dispose());

  it('lost answers while re-running 200 children: 200 new tasks, each child cloned once, each found one its own', async () => {
    const client = makeClient(emu.baseUrl, { backoffMs: 5 });
    const parent = emu.data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;
    const plan = planRerun(await rerunnableChildren(client.tasks, parent.id));
    assert.strictEqual(plan.tasks.length, 200);
    let clones = 0;
    const api: TaskActionApi = {
      action: (kind, id, options) => {
        // One answer in five lost after the platform made the clone.
        if (kind === 'rerun' && ++clones % 5 === 0) emu.loseNextActionResponse();
        return client.tasks.action(kind, id, options);
      },
      get: (id, options) => client.tasks.get(id, options),
      list: (query, page) => client.tasks.list(query, page),
    };
    const account = { key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } };
    outbox = new Outbox(memoryState(), async () => account, [rerunFailedWrite(api, client.budget)], undefined, TEST_OUTBOX);
    outbox.start();
    // As Re-run Failed sends them: followed through every wait, until each reached the platform or waits for the person.
    const { finished, left } = await outbox.send<Task>(WRITE_KINDS.rerunFailed, rerunPayloads(plan), account, { until: 'end', atMostMs: 360_000 });

    const processed = emu.actionRequests.filter((a) => a.action === 'clone' && a.status >= 200 && a.status < 300);
    const lost = processed.filter((a) => a.responseLost).length;
    const compared = compareWrites(plan.tasks.map((t) => t.id), processed.map((a) => a.taskId));
    const found = finished.filter((f) => f.found);
    const wronglyAdopted = finished.filter((f) => !processed.some((p) => p.taskId === (f.record.payload as { task: Task }).task.id && p.newTaskId === f.outcome.id)).length;
    accountWrites('re-run failed', { ...compared, wronglyAdopted, stuck: 0 });
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), [], 'none left');
    assert.strictEqual(lost, 40, 'one answer in five lost');
    assert.deepStrictEqual(compared, { requested: 200, once: 200, doubled: 0, lost: 0 });
    assert.strictEqual(finished.length, 200);
    assert.strictEqual(found.length, 40, 'each lost answer found by the lookup');
    assert.strictEqual(wronglyAdopted, 0);
    assert.strictEqual(new Set(finished.map((f) => f.outcome.id)).size, 200, 'each new task adopted once');
    const made = emu.data.tasks.filter((t) => t.parent === null && !t.batch && plan.tasks.some((o) => o.name === t.name));
    assert.strictEqual(made.length, 200, '200 new tasks on the platform');
    note(`Re-run Failed: 200 children, ${lost} answers lost, ${found.length} found by lookup; clones made: ${processed.length}`);
  });
});
