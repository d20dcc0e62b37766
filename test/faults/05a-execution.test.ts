// 5a. Task execution: the token never reaches the storage origin that serves logs; a task action whose answer is
// lost is looked up, never sent twice.
import * as assert from 'assert';
import type { Task } from '../../src/api/types';
import { abortWrite, rerunWrite, runWrite, TaskActionSender, type TaskActionApi } from '../../src/tasks/actions';
import { Outbox } from '../../src/write/outbox';
import { memoryState } from '../support/sharedState';
import { TEST_OUTBOX } from './copyKit';
import { fetchLog } from '../../src/tasks/logContent';
import { jobLogs } from '../../src/tasks/taskInfo';
import type { Emulator } from '../emulator';
import { accountWrites, compareWrites, makeClient, makeEmulator, note, record, TOKEN } from './support';

describe('5a. task execution: logs from the storage origin, actions sent once', function () {
  this.timeout(60_000);
  let emu: Emulator;

  beforeEach(async () => {
    emu = await makeEmulator({ taskStepMs: 60_000 });
  });

  const outboxes: Outbox[] = [];
  afterEach(() => outboxes.splice(0).forEach((o) => o.dispose()));
  /** The task actions as the extension sends them: through an outbox, as the emulator's account. */
  const actions = (api: TaskActionApi) => {
    const account = { key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } };
    const outbox = new Outbox(memoryState(), async () => account, [abortWrite(api), runWrite(api), rerunWrite(api)], undefined, TEST_OUTBOX);
    outbox.start();
    outboxes.push(outbox);
    return { outbox, sender: new TaskActionSender(outbox, async () => account) };
  };

  const first = (status: string): Task => emu.data.tasks.find((t) => t.status === status && !t.batch) as unknown as Task;

  /**
   * Counts task actions into the summary's table of writes: each asked for (`kind`, task) against the actions the
   * emulator processed, and each outcome found after a lost answer against what the emulator did.
   */
  const accountActions = (asked: { kind: 'abort' | 'run' | 'rerun'; task: Task; outcome: { kind: string; task?: Task } }[]) => {
    const action = (kind: string) => (kind === 'rerun' ? 'clone' : kind);
    for (const kind of ['abort', 'run', 'rerun'] as const) {
      const mine = asked.filter((a) => a.kind === kind);
      if (!mine.length) continue;
      const processed = emu.actionRequests.filter((a) => a.status >= 200 && a.status < 300 && a.action === action(kind));
      const compared = compareWrites(mine.map((a) => a.task.id), processed.map((a) => a.taskId));
      const wronglyAdopted = mine.filter(
        (a) => a.outcome.kind === 'found' && !processed.some((p) => p.taskId === a.task.id && (kind !== 'rerun' || p.newTaskId === a.outcome.task?.id)),
      ).length;
      accountWrites(kind === 'rerun' ? 're-run' : kind, { ...compared, wronglyAdopted, stuck: 0 });
    }
  };

  it('the token never reaches the storage origin, and no signed URL is logged whole, through 500s and drops on the API', async () => {
    emu.faults.error500Rate = 0.1;
    emu.faults.dropRate = 0.05;
    const client = makeClient(emu.baseUrl, { backoffMs: 5, maxRetries: 6 });
    const storageLog: string[] = [];
    let opened = 0;
    for (const task of emu.data.tasks.filter((t) => t.status === 'FAILED' && !t.batch).slice(0, 12)) {
      const details = await client.tasks.executionDetails(task.id);
      for (const job of details.jobs ?? []) {
        for (const log of jobLogs(job, task)) {
          const { text } = await fetchLog(client.files, log.fileId, log.name !== 'job.err.log', {
            onRequest: (e) => {
              storageLog.push(JSON.stringify(e));
              record.logEntries.push(e);
            },
          });
          assert.ok(text.length > 0);
          opened++;
        }
      }
    }
    const storage = emu.storageRequests;
    assert.strictEqual(storage.length, opened);
    assert.strictEqual(storage.filter((r) => r.carriedToken).length, 0, 'no request to the storage carried X-SBG-Auth-Token');
    assert.ok(storageLog.every((line) => !line.includes('X-Amz-Signature') && !line.includes(TOKEN)));
    note(`${opened} logs opened from ${emu.storageOrigin.replace(/^http:\/\//, '')} (another origin): 0 requests there carried the token; ${storageLog.length} log lines, none with a signature`);
  });

  it('a lost abort answer: the task is read, the abort is not sent again; a look-up that fails is done again before any resend', async () => {
    const client = makeClient(emu.baseUrl, { backoffMs: 5, maxRetries: 2 });
    const { sender } = actions(client.tasks);
    const running = first('RUNNING');
    emu.loseNextActionResponse();
    const outcome = await sender.sendTaskAction('abort', running);
    assert.strictEqual(outcome.kind, 'found');
    assert.strictEqual(outcome.kind === 'found' && outcome.task.status, 'ABORTING');
    assert.strictEqual(emu.actionRequests.filter((a) => a.taskId === running.id).length, 1);

    // Lost again, and the first look-up cannot reach the platform (its one GET fails): looked up again, not resent.
    let failLookUp = true;
    const flaky = actions({
      action: (kind, id, options) => client.tasks.action(kind, id, options),
      list: (query, page) => client.tasks.list(query, page),
      get: async (id, options) => {
        if (failLookUp) {
          failLookUp = false;
          throw new Error('connection reset');
        }
        return client.tasks.get(id, options);
      },
    });
    const other = emu.data.tasks.filter((t) => t.status === 'RUNNING' && !t.batch)[1] as unknown as Task;
    emu.loseNextActionResponse();
    const again = await flaky.sender.sendTaskAction('abort', other);
    assert.strictEqual(again.kind, 'found', 'found by the look-up done again');
    assert.strictEqual(failLookUp, false, 'the first look-up failed');
    assert.strictEqual(emu.actionRequests.filter((a) => a.taskId === other.id).length, 1, 'one abort POST in all');
    accountActions([{ kind: 'abort', task: running, outcome }, { kind: 'abort', task: other, outcome: again }]);
    note('lost abort answers: 2; abort POSTs received per task: 1; the second found by reading the task again after a failed look-up');
  });

  it('lost run and re-run answers are found (not DRAFT any more; the new copy in the project), each sent once', async () => {
    const client = makeClient(emu.baseUrl, { backoffMs: 5 });
    const { sender } = actions(client.tasks);
    const draft = first('DRAFT');
    emu.loseNextActionResponse();
    const ran = await sender.sendTaskAction('run', draft);
    assert.strictEqual(ran.kind, 'found');
    assert.strictEqual(ran.kind === 'found' && ran.task.status, 'QUEUED');
    const failed = first('FAILED');
    const before = emu.data.tasks.length;
    emu.loseNextActionResponse();
    const rerun = await sender.sendTaskAction('rerun', failed);
    assert.strictEqual(rerun.kind, 'found');
    assert.strictEqual(emu.data.tasks.length, before + 1, 'one copy made');
    assert.strictEqual(rerun.kind === 'found' && rerun.task.id, emu.data.tasks[emu.data.tasks.length - 1].id);
    assert.deepStrictEqual(emu.actionRequests.map((a) => a.action), ['run', 'clone']);
    accountActions([{ kind: 'run', task: draft, outcome: ran }, { kind: 'rerun', task: failed, outcome: rerun }]);
  });
});
