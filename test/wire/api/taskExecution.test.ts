// The client's task execution calls against the emulator: details, download info, the signed URL without the
// token, the last 1 MB by Range, bulk get, and the action POSTs sent once.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { findFileIds } from '../../../src/api/ids';
import { downloadTail, downloadWhole } from '../../../src/api/signedDownload';
import { safeLocation } from '../../../src/api/storage';
import type { RequestLogEntry } from '../../../src/api/transport';
import { type Emulator, startEmulator, type TaskRec } from '../../emulator';

const MB = 1024 * 1024;

describe('client: task execution, logs and actions (against the emulator)', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let sb: SbClient;
  let log: RequestLogEntry[];

  beforeEach(async () => {
    emu = await startEmulator({ taskStepMs: 60_000 });
    log = [];
    sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), onRequest: (e) => log.push(e), backoffMs: 5 });
  });
  afterEach(() => emu.close());

  const first = (pred: (t: TaskRec) => boolean): TaskRec => emu.data.tasks.find(pred)!;

  /** A failed task whose failed job's job.err.log is larger than 1 MB, and that log's URL. */
  async function bigFailedLog(): Promise<{ task: TaskRec; url: string; size: number }> {
    for (const task of emu.data.tasks.filter((t) => t.status === 'FAILED' && !t.batch)) {
      const details = await sb.tasks.executionDetails(task.id);
      const job = details.jobs!.find((j) => j.status === 'FAILED' && !j.retried)!;
      const url = String(job.logs!['job.err.log']);
      const size = emu.logs.get(findFileIds(url)[0])!.content.length;
      if (size > MB) return { task, url, size };
    }
    throw new Error('no failed task with a log above 1 MB');
  }

  it('reads execution details: jobs with status, instance, times, retried and log URLs', async () => {
    const task = first((t) => t.status === 'COMPLETED' && !t.batch);
    const details = await sb.tasks.executionDetails(task.id);
    assert.strictEqual(details.status, 'COMPLETED');
    assert.ok(details.jobs!.length > 0);
    for (const job of details.jobs!) {
      assert.ok(job.instance?.type);
      assert.strictEqual(findFileIds(String(job.logs!['cmd.log'])).length, 1);
    }
    await assert.rejects(sb.tasks.executionDetails('nope'), (e: ApiError) => e.kind === 'invalid');
  });

  it('fetches the last 1 MB of a large log from the signed URL, without the token, and the whole file on demand', async () => {
    const { task, url, size } = await bigFailedLog();
    const signed = await sb.files.downloadInfo(findFileIds(url)[0]);
    const tail = await downloadTail(signed, MB, { onRequest: (e) => log.push(e) });
    assert.strictEqual(tail.partial, true);
    assert.strictEqual(tail.size, size);
    assert.strictEqual(tail.received, MB);
    assert.ok(tail.text.trimEnd().endsWith(task.errors[0].message), 'the tail holds the error');
    assert.match(tail.text, /^\d{4}-\d{2}-\d{2}T/, 'starts at a whole line');
    const whole = await downloadWhole(signed);
    assert.strictEqual(whole.partial, false);
    assert.strictEqual(Buffer.byteLength(whole.text), size);
    const storage = emu.storageRequests;
    assert.strictEqual(storage.length, 2);
    assert.ok(storage.every((r) => !r.carriedToken && r.status < 300));
    assert.strictEqual(storage[0].range, `bytes=-${MB}`);
    // The log names host and path only: the signature never appears.
    const lines = log.map((e) => JSON.stringify(e));
    assert.ok(lines.every((l) => !l.includes('X-Amz-Signature') && !l.includes(new URL(signed).searchParams.get('X-Amz-Signature')!)));
    assert.ok(log.some((e) => e.path === safeLocation(signed)));
  });

  it('a storage that ignores Range sends the whole log: only its last 1 MB is held, from a whole line, the error at its end', async () => {
    const { task, url, size } = await bigFailedLog();
    emu.storageFaults.settings.ignoreRange = true;
    const tail = await downloadTail(await sb.files.downloadInfo(findFileIds(url)[0]), MB);
    assert.strictEqual(emu.storageRequests.at(-1)!.status, 200, 'the storage sent the whole log');
    assert.strictEqual(tail.partial, true);
    assert.strictEqual(tail.size, size);
    assert.ok(tail.received <= MB, `${tail.received} bytes held`);
    assert.ok(Buffer.byteLength(tail.text) <= MB);
    assert.match(tail.text, /^\d{4}-\d{2}-\d{2}T/, 'starts at a whole line');
    assert.ok(tail.text.trimEnd().endsWith(task.errors[0].message), 'the tail holds the error');
  });

  it('a small log comes whole from the tail request', async () => {
    const task = first((t) => t.status === 'COMPLETED' && !t.batch);
    const url = String((await sb.tasks.executionDetails(task.id)).jobs![0].logs!['cmd.log']);
    const tail = await downloadTail(await sb.files.downloadInfo(findFileIds(url)[0]), MB);
    assert.strictEqual(tail.partial, false);
    assert.match(tail.text, /--threads 8/);
  });

  it('a storage refusal is an error naming host and path, never the signature', async () => {
    const task = first((t) => t.status === 'COMPLETED' && !t.batch);
    const url = String((await sb.tasks.executionDetails(task.id)).jobs![0].logs!['cmd.log']);
    const signed = new URL(await sb.files.downloadInfo(findFileIds(url)[0]));
    signed.searchParams.set('X-Amz-Signature', 'f'.repeat(64));
    const error = await downloadTail(signed.toString(), MB).then(() => undefined, (e: ApiError) => e);
    assert.ok(error instanceof ApiError);
    assert.strictEqual(error.status, 403);
    assert.ok(!JSON.stringify({ m: error.message, p: error.path }).includes('f'.repeat(64)));
    assert.match(error.message, /SignatureDoesNotMatch/);
  });

  it('bulk get: many tasks in one request', async () => {
    const ids = emu.data.tasks.slice(0, 50).map((t) => t.id);
    const before = log.length;
    const items = await sb.tasks.bulkGet(ids);
    assert.strictEqual(log.length - before, 1);
    assert.deepStrictEqual(items.map((i) => i.resource?.id), ids);
    await assert.rejects(sb.tasks.bulkGet(emu.data.tasks.slice(0, 101).map((t) => t.id)), (e: ApiError) => e.kind === 'invalid');
  });

  it('actions: abort, run, re-run (clone with action=run), each one POST; a refusal says why', async () => {
    const running = first((t) => t.status === 'RUNNING' && !t.batch);
    assert.strictEqual((await sb.tasks.action('abort', running.id)).status, 'ABORTING');
    const draft = first((t) => t.status === 'DRAFT' && !t.batch);
    assert.strictEqual((await sb.tasks.action('run', draft.id)).status, 'QUEUED');
    const failed = first((t) => t.status === 'FAILED' && !t.batch);
    const copy = await sb.tasks.action('rerun', failed.id);
    assert.notStrictEqual(copy.id, failed.id);
    assert.strictEqual(copy.status, 'QUEUED');
    const refused = await sb.tasks.action('abort', failed.id).then(() => undefined, (e: ApiError) => e);
    assert.strictEqual(refused?.status, 400);
    assert.strictEqual(refused?.maybeDelivered, false);
    assert.deepStrictEqual(emu.actionRequests.map((a) => a.action), ['abort', 'run', 'clone', 'abort']);
  });

  it('a lost action answer is reported as maybe delivered and not sent again', async () => {
    const running = first((t) => t.status === 'RUNNING' && !t.batch);
    emu.loseNextActionResponse();
    const error = await sb.tasks.action('abort', running.id).then(() => undefined, (e: ApiError) => e);
    assert.strictEqual(error?.maybeDelivered, true);
    assert.strictEqual(emu.actionRequests.length, 1);
  });
});
