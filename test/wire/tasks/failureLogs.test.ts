import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SbClient } from '../../../src/api/client';
import { failedTasks, collectFailureLogs, lastLines, safeSegment, summaryMarkdown, type CollectResult } from '../../../src/tasks/failureLogs';
import { type Emulator, startEmulator } from '../../emulator';

describe('Collect Failure Logs', () => {
  it('names folders the file systems accept, and quotes the last lines of a log that may start inside a line', () => {
    assert.strictEqual(safeSegment('RNA: batch 1/2 <x>', 'id', 'win32'), 'RNA_ batch 1_2 _x_');
    assert.strictEqual(safeSegment('RNA: batch 1/2 <x>', 'id', 'linux'), 'RNA: batch 1_2 <x>', 'the one rule: only what the system refuses');
    assert.strictEqual(safeSegment('..', 'id'), 'id');
    assert.strictEqual(safeSegment('name. ', 'id', 'win32'), 'name');
    assert.strictEqual(safeSegment('x'.repeat(300), 'id').length, 120);
    assert.deepStrictEqual(lastLines('cut line\na\nb\nc\nd\n\n', 3, true), ['b', 'c', 'd']);
    assert.deepStrictEqual(lastLines('one\r\ntwo\r\n', 3, false), ['one', 'two']);
  });

  it('summarises in a table: task, job, instance, error, the last lines linking to the log files', () => {
    const result: CollectResult = {
      rows: [
        { task: { id: 't1', name: 'sample | 01' }, job: 'salmon_quant', instance: 'c5.2xlarge', message: 'Exit code 137', files: { 'job.err.log': 'sample _ 01/salmon_quant/job.err.log', 'cmd.log': 'sample _ 01/salmon_quant/cmd.log' }, lastLines: ['[ERROR] out of memory', 'killed'] },
        { task: { id: 't2', name: 'sample 02' }, message: 'Input missing', files: {}, lastLines: [], problem: 'No failed job: it failed before a job ran.' },
      ],
      notReached: 3,
      logs: 2,
    };
    assert.strictEqual(
      summaryMarkdown(result, 'Failure logs of "batch"'),
      [
        '# Failure logs of "batch"',
        '',
        '2 failed tasks, 1 failed jobs, 2 log files.',
        '',
        'Stopped before the end: 3 tasks were not collected.',
        '',
        '| Task | Job | Instance | Error | Last lines of the error log |',
        '|---|---|---|---|---|',
        '| sample \\| 01 | salmon\\_quant | c5.2xlarge | Exit code 137 | `[ERROR] out of memory`<br>`killed`<br>[job.err.log](sample%20_%2001/salmon_quant/job.err.log)<br>[cmd.log](sample%20_%2001/salmon_quant/cmd.log) |',
        '| sample 02 | — | — | Input missing | ⚠ No failed job: it failed before a job ran. |',
        '',
      ].join('\n'),
    );
  });

  describe('against the emulator', function () {
    this.timeout(30_000);
    let emu: Emulator;
    let sb: SbClient;
    let folder: string;
    beforeEach(async () => {
      emu = await startEmulator({ batches: [40], batchFailures: 0.25 });
      sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) });
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-failure-logs-'));
    });
    afterEach(async () => {
      await emu.close();
      fs.rmSync(folder, { recursive: true, force: true });
    });

    it("downloads each failed job's job.err.log and cmd.log into <task>/<job>/, without the token, paced before each API request", async () => {
      const parent = emu.data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;
      const expected = emu.data.tasks.filter((t) => t.parent === parent.id && t.status === 'FAILED').map((t) => t.name).sort();
      let paced = 0;
      const pace = async () => void paced++;
      const tasks = await failedTasks(sb.tasks, { parent: parent.id }, { pace });
      assert.deepStrictEqual(tasks.map((t) => t.name), expected, 'the failed children, by name');
      assert.strictEqual(expected.length, 10);
      const storageBefore = emu.storageRequests.length;
      const progress: number[] = [];
      const result = await collectFailureLogs(tasks, { executionDetails: (id) => sb.tasks.executionDetails(id), downloadInfo: (id) => sb.files.downloadInfo(id) }, { folder, pace, onProgress: (done) => progress.push(done) });
      assert.strictEqual(result.notReached, 0);
      assert.deepStrictEqual(progress, Array.from({ length: 10 }, (_, i) => i + 1));
      assert.deepStrictEqual([...new Set(result.rows.map((r) => r.task.name))].sort(), expected);
      for (const row of result.rows) {
        assert.ok(row.job && row.instance && row.message, JSON.stringify(row));
        const err = fs.readFileSync(path.join(folder, row.files['job.err.log']!), 'utf8');
        // A job tried twice (a spot instance reclaimed, then the failure) has each attempt in its own folder.
        assert.match(path.dirname(row.files['job.err.log']!), new RegExp(`^${row.task.name}/${row.job}( \\(attempt 2\\))?$`));
        assert.ok(fs.existsSync(path.join(folder, row.files['cmd.log']!)));
        const lines = err.trimEnd().split('\n');
        assert.deepStrictEqual(row.lastLines, lines.slice(-3));
      }
      assert.strictEqual(result.logs, result.rows.length * 2);
      // 1 (first page) + 1 details per task + 1 download_info per log: each paced.
      assert.strictEqual(paced, 1 + tasks.length + result.logs);
      const storage = emu.storageRequests.slice(storageBefore);
      assert.strictEqual(storage.length, result.logs);
      assert.ok(storage.every((r) => !r.carriedToken && r.status === 200), 'no storage request carries the token');
    });

    it('quotes no secret: the token and what looks like a key are redacted in the summary\'s lines, the log files kept as the tool wrote them', async () => {
      const [task] = await failedTasks(sb.tasks, {});
      const written = [`echo token ${emu.token} for the tool`, 'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl" https://api'];
      await sb.tasks.executionDetails(task.id); // its logs are made when its jobs are first read
      for (const log of emu.logs.values()) if (log.taskId === task.id && log.name === 'job.err.log') log.content = Buffer.concat([log.content, Buffer.from(`${written.join('\n')}\n`)]);
      const result = await collectFailureLogs([task], { executionDetails: (id) => sb.tasks.executionDetails(id), downloadInfo: (id) => sb.files.downloadInfo(id) }, { folder, secrets: [emu.token] });
      assert.ok(result.rows.length > 0);
      for (const row of result.rows) {
        assert.deepStrictEqual(row.lastLines, ['echo token (the token) for the tool', 'export AWS_SECRET_ACCESS_KEY=(redacted)', 'curl -H "Authorization: (redacted)" https://api']);
        assert.ok(fs.readFileSync(path.join(folder, row.files['job.err.log']!), 'utf8').endsWith(`${written.join('\n')}\n`), 'the log file is the tool\'s own');
      }
      const summary = summaryMarkdown(result, 'Failure logs');
      assert.ok(!summary.includes(emu.token) && !summary.includes('wJalrXUtnFEMI') && !summary.includes('eyJhbGci'), 'no secret in the summary');
    });

    it('stops when cancelled, keeping what was collected, and counts what was not reached', async () => {
      const tasks = await failedTasks(sb.tasks, {});
      const stop = new AbortController();
      const result = await collectFailureLogs(tasks, { executionDetails: (id) => sb.tasks.executionDetails(id), downloadInfo: (id) => sb.files.downloadInfo(id) }, { folder, signal: stop.signal, concurrency: 1, onProgress: (done) => done === 2 && stop.abort() });
      assert.strictEqual(new Set(result.rows.map((r) => r.task.id)).size, 2);
      assert.strictEqual(result.notReached, tasks.length - 2);
    });
  });
});
