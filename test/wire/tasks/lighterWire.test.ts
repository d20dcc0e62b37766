// The lighter wire (#27 §2) against the emulator: a listing with a row's fields only, the batch parents' counts and the
// tooltips read as whole records (`POST /v2/bulk/tasks/get` 100 IDs a request, `GET /v2/tasks/{id}` per hover), each
// once while current, and the emulator serving the bulk read as platform-api.md says.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import type { Task } from '../../../src/api/types';
import { FilterModel } from '../../../src/tasks/filterModel';
import { TASK_LIST_FIELDS } from '../../../src/tasks/taskListing';
import { TaskRecords } from '../../../src/tasks/taskRecords';
import { taskTooltip } from '../../../src/tasks/taskRows';
import { TaskTreeModel } from '../../../src/tasks/taskTree';
import type { TaskNode } from '../../../src/tasks/taskNodes';
import { type Emulator, startEmulator } from '../../emulator';
import { memoryState } from '../../support/sharedState';

describe('a lighter wire (against the emulator)', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let requests: string[];
  let sb: SbClient;
  const NOW = Date.parse('2026-11-20T12:00:00Z');

  beforeEach(async () => {
    emu = await startEmulator({ tasks: 2000, now: () => NOW });
    requests = [];
    sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), onRequest: (e) => requests.push(`${e.method} ${e.path}`) });
  });
  afterEach(() => emu.close());

  it('serves the bulk read: one entry per ID in order, a resource or an error; more than 100 IDs refused', async () => {
    const ids = emu.data.tasks.slice(0, 100).map((t) => t.id);
    const items = await sb.tasks.bulkGet(ids);
    assert.deepStrictEqual(items.map((i) => i.resource?.id), ids);
    assert.ok(items.every((i) => i.resource && typeof i.resource.execution_status === 'object' && 'outputs' in i.resource), 'whole records');
    const missing = '00000000-0000-4000-8000-000000000000';
    const mixed = await sb.tasks.bulkGet([ids[0], missing]);
    assert.strictEqual(mixed[0].resource?.id, ids[0]);
    assert.strictEqual(mixed[1].error?.status, 404);
    await assert.rejects(sb.tasks.bulkGet([...ids, emu.data.tasks[100].id]), /At most 100/);
  });

  it('whole records of 250 listed tasks: three bulk requests, then none while they are current', async () => {
    const records = new TaskRecords(sb.tasks);
    const listed = (await sb.tasks.list({ fields: TASK_LIST_FIELDS }, { limit: 100 })).items;
    const more = (await sb.tasks.list({ fields: TASK_LIST_FIELDS }, { offset: 100, limit: 100 })).items;
    const last = (await sb.tasks.list({ fields: TASK_LIST_FIELDS }, { offset: 200, limit: 50 })).items;
    requests = [];
    const read = await records.many([...listed, ...more, ...last]);
    assert.strictEqual(read.size, 250);
    assert.deepStrictEqual(requests, ['POST /v2/bulk/tasks/get', 'POST /v2/bulk/tasks/get', 'POST /v2/bulk/tasks/get']);
    await records.many(listed);
    await records.one(listed[0]);
    assert.strictEqual(requests.length, 3);
  });

  it("the tree lists a row's fields, reads a page's batch parents together, and a hovered tooltip once", async () => {
    const store = memoryState();
    const tree = new TaskTreeModel({ source: sb.tasks, filter: new FilterModel(store), store, signedIn: () => true, now: () => NOW, countsDelayMs: 0 });
    await tree.getChildren();
    requests = [];
    const group = tree.group('COMPLETED');
    const rows = ((await tree.getChildren(group)) as TaskNode[]).filter((n) => n.kind === 'task');
    await tree.settled();
    const parents = rows.filter((r) => r.task.batch);
    assert.ok(parents.length, 'a batch parent on the first page');
    assert.deepStrictEqual(requests.map((r) => r.split('?')[0]), ['GET /v2/tasks', 'POST /v2/bulk/tasks/get']);
    assert.strictEqual(new URL(requests[0].split(' ')[1], 'http://x').searchParams.get('fields'), TASK_LIST_FIELDS);
    for (const parent of parents) {
      const rec = emu.data.tasks.find((t) => t.id === parent.task.id)!;
      assert.deepStrictEqual(parent.task.execution_status, rec.execution_status, "the parent's counts, from its whole record");
    }
    const plain = rows.find((r) => !r.task.batch)!;
    requests = [];
    const tooltip = await tree.resolveTooltip(plain);
    await tree.resolveTooltip(plain);
    assert.deepStrictEqual(requests, [`GET /v2/tasks/${plain.task.id}`]);
    const whole: Task = await sb.tasks.get(plain.task.id);
    assert.strictEqual(tooltip, taskTooltip(whole, NOW));
  });
});
