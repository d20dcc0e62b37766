/** The emulator's task execution: exact status filter, actions with the platform's rules, execution details, logs, storage. */
import * as assert from 'assert';
import { type Emulator, startEmulator, type TaskRec } from '../../emulator';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('emulator: task execution, actions and logs', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let clock = Date.parse('2026-11-20T12:00:00Z');

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const url = path.startsWith('http') ? path : emu.baseUrl + path;
    const r = await fetch(url, {
      method,
      headers: { 'X-SBG-Auth-Token': emu.token, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: JSON.parse(await r.text()) as Json };
  };
  const first = (pred: (t: TaskRec) => boolean): TaskRec => {
    const t = emu.data.tasks.find(pred);
    assert.ok(t, 'the seeded data has such a task');
    return t;
  };

  beforeEach(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ now: () => clock, taskStepMs: 1000, runSteps: 2 });
  });
  afterEach(() => emu.close());

  it('filters status exactly: ABORTING and CREATING tasks are listed by no status value, only without the filter', async () => {
    const odd = emu.data.tasks.filter((t) => t.status === 'ABORTING' || t.status === 'CREATING');
    assert.ok(odd.some((t) => t.status === 'ABORTING') && odd.some((t) => t.status === 'CREATING'));
    let listed = 0;
    for (const status of ['QUEUED', 'DRAFT', 'RUNNING', 'COMPLETED', 'ABORTED', 'FAILED']) {
      const r = await call('GET', `/tasks?status=${status}&limit=1&fields=id`);
      const total = Number((await fetch(`${emu.baseUrl}/tasks?status=${status}&limit=1`, { headers: { 'X-SBG-Auth-Token': emu.token } })).headers.get('x-total-matching-query'));
      assert.strictEqual(total, emu.data.tasks.filter((t) => t.status === status).length, status);
      assert.strictEqual(r.status, 200);
      listed += total;
    }
    assert.strictEqual(listed, emu.data.tasks.length - odd.length);
  });

  it('abort: a RUNNING task goes ABORTING, then ABORTED a step later; a QUEUED one ABORTED at once', async () => {
    const running = first((t) => t.status === 'RUNNING' && !t.batch);
    const r = await call('POST', `/tasks/${running.id}/actions/abort`);
    assert.strictEqual(r.status, 200);
    assert.strictEqual(r.body.status, 'ABORTING');
    assert.strictEqual(r.body.id, running.id);
    clock += 1000;
    assert.strictEqual((await call('GET', `/tasks/${running.id}`)).body.status, 'ABORTED');
    assert.ok((await call('GET', `/tasks/${running.id}`)).body.end_time);
    const queued = first((t) => t.status === 'QUEUED' && !t.batch);
    assert.strictEqual((await call('POST', `/tasks/${queued.id}/actions/abort`)).body.status, 'ABORTED');
    assert.deepStrictEqual(emu.actionRequests.map((a) => [a.action, a.status]), [['abort', 200], ['abort', 200]]);
  });

  it('refuses actions the status does not allow with 400 and an error body', async () => {
    for (const [status, action] of [['COMPLETED', 'abort'], ['DRAFT', 'abort'], ['ABORTED', 'abort'], ['RUNNING', 'run'], ['FAILED', 'run']] as const) {
      const t = first((x) => x.status === status);
      const r = await call('POST', `/tasks/${t.id}/actions/${action}`);
      assert.strictEqual(r.status, 400, `${action} on ${status}`);
      assert.strictEqual(typeof r.body.message, 'string');
      assert.match(r.body.message, new RegExp(status));
      assert.strictEqual(t.status, status, 'the task did not move');
    }
    assert.strictEqual((await call('POST', '/tasks/00000000-0000-4000-8000-000000000000/actions/abort')).status, 404);
  });

  it('run: DRAFT → QUEUED → RUNNING → the outcome set for it, with jobs and an error', async () => {
    const draft = first((t) => t.status === 'DRAFT' && !t.batch);
    emu.setRunOutcome(draft.id, 'FAILED');
    assert.strictEqual((await call('POST', `/tasks/${draft.id}/actions/run`)).body.status, 'QUEUED');
    clock += 1000;
    const running = (await call('GET', `/tasks/${draft.id}`)).body;
    assert.strictEqual(running.status, 'RUNNING');
    assert.ok(running.start_time);
    clock += 2000;
    const ended = (await call('GET', `/tasks/${draft.id}`)).body;
    assert.strictEqual(ended.status, 'FAILED');
    assert.ok(ended.errors.length > 0);
    const details = (await call('GET', `/tasks/${draft.id}/execution_details`)).body;
    assert.strictEqual(details.jobs.at(-1).status, 'FAILED');
  });

  it('clone keeps the original; ?action=run runs the copy', async () => {
    const failed = first((t) => t.status === 'FAILED' && !t.batch);
    const r = await call('POST', `/tasks/${failed.id}/actions/clone?action=run`);
    assert.strictEqual(r.status, 201);
    assert.notStrictEqual(r.body.id, failed.id);
    assert.strictEqual(r.body.status, 'QUEUED');
    assert.strictEqual(r.body.name, failed.name);
    assert.deepStrictEqual(r.body.inputs, failed.inputs);
    assert.strictEqual(failed.status, 'FAILED', 'the original stays');
    const draft = await call('POST', `/tasks/${failed.id}/actions/clone`);
    assert.strictEqual(draft.body.status, 'DRAFT');
    assert.strictEqual(emu.actionRequests.at(-1)?.newTaskId, draft.body.id);
  });

  it('execution details: every started task has jobs with logs; a failed job\'s job.err.log ends with the error', async () => {
    for (const status of ['RUNNING', 'COMPLETED', 'FAILED', 'ABORTED', 'ABORTING'] as const) {
      const t = first((x) => x.status === status && !!x.start_time && !x.batch);
      const d = (await call('GET', `/tasks/${t.id}/execution_details`)).body;
      assert.ok(d.jobs.length > 0, status);
      for (const job of d.jobs) {
        assert.ok(job.name && job.start_time && job.instance.type && typeof job.retried === 'boolean', JSON.stringify(job));
        assert.deepStrictEqual(Object.keys(job.logs).sort(), ['cmd.log', 'job.err.log', 'job.out.log']);
        assert.match(job.logs['job.err.log'], /\/v2\/files\/[0-9a-f]{24}\/download_info$/);
      }
    }
    const draft = first((t) => t.status === 'DRAFT');
    assert.deepStrictEqual((await call('GET', `/tasks/${draft.id}/execution_details`)).body.jobs, []);
    const failed = first((t) => t.status === 'FAILED' && !t.batch);
    const d = (await call('GET', `/tasks/${failed.id}/execution_details`)).body;
    const job = d.jobs.find((j: Json) => j.status === 'FAILED' && !j.retried);
    const logId = /files\/([0-9a-f]{24})\//.exec(job.logs['job.err.log'])![1];
    const text = emu.logs.get(logId)!.content.toString('utf8');
    assert.ok(text.trimEnd().endsWith(failed.errors[0].message), text.slice(-200));
    // The same details on a second call: the log IDs stay valid.
    assert.deepStrictEqual((await call('GET', `/tasks/${failed.id}/execution_details`)).body.jobs, d.jobs);
  });

  it('download_info points at another origin that serves the bytes, honours Range and refuses the token', async () => {
    const failed = first((t) => t.status === 'FAILED' && !t.batch);
    const d = (await call('GET', `/tasks/${failed.id}/execution_details`)).body;
    const logUrl: string = d.jobs.at(-1).logs['job.err.log'];
    const info = await call('GET', logUrl);
    assert.strictEqual(info.status, 200);
    const signed = new URL(info.body.url);
    assert.notStrictEqual(signed.origin, new URL(emu.baseUrl).origin);
    assert.strictEqual(signed.origin, emu.storageOrigin);
    assert.ok(signed.searchParams.get('X-Amz-Signature'));
    const whole = await fetch(signed);
    const bytes = Buffer.from(await whole.arrayBuffer());
    assert.strictEqual(whole.status, 200);
    const id = /files\/([0-9a-f]{24})\//.exec(logUrl)![1];
    assert.ok(bytes.equals(emu.logs.get(id)!.content));
    const tail = await fetch(signed, { headers: { Range: 'bytes=-100' } });
    assert.strictEqual(tail.status, 206);
    assert.strictEqual(tail.headers.get('content-range'), `bytes ${bytes.length - 100}-${bytes.length - 1}/${bytes.length}`);
    assert.ok(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 100)));
    const withToken = await fetch(signed, { headers: { 'X-SBG-Auth-Token': emu.token } });
    assert.strictEqual(withToken.status, 400);
    assert.strictEqual(emu.storageRequests.filter((r) => r.carriedToken).length, 1);
    const forged = new URL(signed);
    forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    assert.strictEqual((await fetch(forged)).status, 403);
    clock += 16 * 60_000;
    assert.strictEqual((await fetch(signed)).status, 403, 'expired');
    assert.ok(emu.storageRequests.every((r) => !r.path.includes('Signature')));
  });

  it('bulk get: one resource or error per ID, in order; more than 100 refused', async () => {
    const ids = emu.data.tasks.slice(0, 3).map((t) => t.id);
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await call('POST', '/bulk/tasks/get', { task_ids: [ids[0], missing, ids[2]] });
    assert.strictEqual(r.status, 200);
    assert.strictEqual(r.body.items[0].resource.id, ids[0]);
    assert.strictEqual(r.body.items[1].error.status, 404);
    assert.strictEqual(r.body.items[2].resource.status, emu.data.tasks[2].status);
    const tooMany = await call('POST', '/bulk/tasks/get', { task_ids: emu.data.tasks.slice(0, 101).map((t) => t.id) });
    assert.strictEqual(tooMany.status, 400);
    assert.strictEqual((await call('POST', '/bulk/tasks/get', { ids })).status, 400);
  });

  it('a lost action answer: the action was processed, the connection dropped', async () => {
    const running = first((t) => t.status === 'RUNNING' && !t.batch);
    emu.loseNextActionResponse();
    await assert.rejects(call('POST', `/tasks/${running.id}/actions/abort`));
    assert.strictEqual(running.status, 'ABORTING');
    assert.strictEqual(emu.actionRequests[0].responseLost, true);
  });

  it('a task ended by the platform (endTask) carries its end, duration and error; every request is logged as it arrived', async () => {
    const running = first((t) => t.status === 'RUNNING' && !t.batch);
    clock += 5_000;
    emu.endTask(running.id, 'FAILED');
    const r = await call('POST', '/bulk/tasks/get', { task_ids: [running.id] });
    const record = r.body.items[0].resource as Json;
    assert.deepStrictEqual([record.status, record.end_time, record.errors[0].message], ['FAILED', '2026-11-20T12:00:05Z', 'Job failed with exit code 1. Check the job log for details.']);
    assert.ok(record.execution_status.duration > 0);
    assert.deepStrictEqual(emu.received.map((q) => [q.at, q.method, q.path]), [[clock, 'POST', '/v2/bulk/tasks/get']]);
  });

  it('a hold can pick the requests it holds: task listings wait, an action goes through', async () => {
    const queued = first((t) => t.status === 'QUEUED' && !t.batch);
    const hold = emu.hold((method, path) => method === 'GET' && path === '/v2/tasks');
    let listed = false;
    const listing = call('GET', '/tasks?status=QUEUED&limit=1').then((answer) => {
      listed = true;
      return answer;
    });
    await hold.arrived;
    const aborted = await call('POST', `/tasks/${queued.id}/actions/abort`);
    assert.deepStrictEqual([aborted.status, aborted.body.status, listed], [200, 'ABORTED', false]);
    hold.release();
    assert.strictEqual((await listing).status, 200);
  });
});
