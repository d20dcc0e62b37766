// The timeline's layout of what the emulator serves (as the platform would): every started task's jobs fit the
// axis, each retried attempt is followed by its retry, a running task's job is open-ended, every failed job's bar
// opens a log the storage serves; a batch parent's children read 100 a page.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { namePages } from '../../../src/tasks/findTask';
import { childItems, jobItems, jobLog, layoutTimeline, TIMELINE_CHILD_FIELDS } from '../../../src/tasks/timelineModel';
import { type Emulator, startEmulator } from '../../emulator';

describe('timeline: the layout of the emulator\'s execution details', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let sb: SbClient;

  before(async () => {
    emu = await startEmulator({ taskStepMs: 60_000 });
    sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), backoffMs: 5 });
  });
  after(() => emu.close());

  it('lays out the jobs of 60 started tasks: on the axis, retries marked in order, a running job open-ended, failed jobs opening a log', async () => {
    const now = Date.now();
    const tasks = emu.data.tasks.filter((t) => !t.batch && t.start_time).slice(0, 60);
    let retried = 0;
    let running = 0;
    for (const task of tasks) {
      const details = await sb.tasks.executionDetails(task.id);
      const data = layoutTimeline({ kind: 'task', task, items: jobItems(details, task), failedFirst: false, now });
      assert.strictEqual(data.bars.length, details.jobs!.length, task.name);
      for (const bar of data.bars) {
        assert.ok(bar.left !== undefined && bar.width !== undefined && bar.left >= 0 && bar.left + bar.width <= 100.001, `${task.name} ${bar.label}: ${bar.left}+${bar.width}`);
        assert.ok(bar.instance, `${task.name} ${bar.label}: an instance`);
      }
      for (const [i, bar] of data.bars.entries()) {
        if (!bar.retried) continue;
        retried++;
        assert.match(bar.attempt ?? '', /^attempt 1 of 2$/, `${task.name} ${bar.label}`);
        const retry = data.bars.slice(i + 1).find((b) => b.label === bar.label);
        assert.strictEqual(retry?.attempt, 'attempt 2 of 2', `${task.name} ${bar.label}: its retry after it`);
      }
      if (task.status === 'RUNNING') {
        running++;
        assert.ok(data.bars.some((b) => b.open), `${task.name}: its running job open-ended`);
      }
      const failed = details.jobs!.findIndex((j) => j.status === 'FAILED' && !j.retried);
      if (failed >= 0) {
        const log = jobLog(details, task, `job:${failed}`)!;
        assert.strictEqual(log.name, 'job.err.log');
        assert.match(await sb.files.downloadInfo(log.fileId), /^https?:\/\//, 'a log the storage serves');
      }
    }
    assert.ok(retried > 0 && running > 0, `retried ${retried}, running ${running}: the sample has both`);
  });

  it("reads a batch parent's children 100 a page with the timeline's fields, and places every started one", async () => {
    const parent = emu.data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;
    const before = emu.stats.requests;
    const kids = [];
    for await (const page of namePages(sb.tasks, { parent: parent.id }, { fields: TIMELINE_CHILD_FIELDS, max: Infinity })) kids.push(...page.items);
    const expected = emu.data.tasks.filter((t) => t.parent === parent.id).length;
    assert.strictEqual(kids.length, expected);
    assert.strictEqual(emu.stats.requests - before, Math.ceil(expected / 100));
    const data = layoutTimeline({ kind: 'batch', task: parent, items: childItems(kids), failedFirst: true, now: Date.now(), reading: { read: kids.length, total: expected } });
    assert.ok(data.bars.every((b) => b.left !== undefined), 'every child started');
    const failed = kids.filter((k) => k.status === 'FAILED').length;
    assert.ok(failed > 0);
    assert.deepStrictEqual(data.bars.slice(0, failed).map((b) => b.status), Array(failed).fill('FAILED'));
  });
});
