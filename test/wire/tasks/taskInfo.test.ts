import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { fetchLog, partialNote, TAIL_BYTES } from '../../../src/tasks/logContent';
import { buildTaskInfo, fileValues, jobLogs, messages, sortJobs, type InfoItem } from '../../../src/tasks/taskInfo';
import { type Emulator, startEmulator } from '../../emulator';

const find = (items: InfoItem[], key: string) => items.find((i) => i.key === key);

describe('task info: what a task opens into', () => {
  it('reads errors and warnings as lists or as objects', () => {
    assert.deepStrictEqual(messages([{ message: 'out of memory', code: 0 }, 'plain']), ['out of memory', 'plain']);
    assert.deepStrictEqual(messages({ message: 'one error', code: 5 }), ['one error (code 5)']);
    assert.deepStrictEqual(messages({ 'step 1': 'disk full' }), ['step 1: disk full']);
    assert.deepStrictEqual(messages(undefined), []);
  });

  it('orders jobs failed first, then aborted, running, completed', () => {
    const jobs = [{ name: 'a', status: 'COMPLETED' }, { name: 'b', status: 'RUNNING' }, { name: 'c', status: 'FAILED' }, { name: 'd', status: 'ABORTED' }];
    assert.deepStrictEqual(sortJobs(jobs).map((j) => j.name), ['c', 'd', 'b', 'a']);
  });

  it('finds files among inputs and outputs, in lists too', () => {
    const files = fileValues({ reads: [{ class: 'File', path: '567890abc8a5136ec6127063', name: 'a.fastq' }], threads: 8, out: null, dir: { class: 'Directory', path: '567890abc8a5136ec6127064' } });
    assert.deepStrictEqual(files.map((f) => [f.port, f.name, f.kind]), [['reads', 'a.fastq', 'File'], ['dir', '567890abc8a5136ec6127064', 'Directory']]);
  });

  it('lists a job\'s logs by file ID, job.err.log first', () => {
    const logs = jobLogs({ name: 'bwa', logs: { 'cmd.log': 'https://x/v2/files/567890abc8a5136ec6127063/download_info', 'job.err.log': 'https://x/v2/files/567890abc8a5136ec6127064/download_info', 'bad.log': 'nothing' } }, { id: 't', name: 'BWA-MEM run', project: 'rfranklin/my-project' });
    assert.deepStrictEqual(logs.map((l) => [l.name, l.fileId]), [['job.err.log', '567890abc8a5136ec6127064'], ['cmd.log', '567890abc8a5136ec6127063']]);
    assert.deepStrictEqual(logs[0], { fileId: '567890abc8a5136ec6127064', name: 'job.err.log', taskId: 't', job: 'bwa', taskName: 'BWA-MEM run', project: 'rfranklin/my-project' });
  });

  it('a failed task: errors open, jobs with the failed one first and open, inputs, the raw record', () => {
    const task = {
      href: 'h', id: 'bd5e95d9-12b3-789c-45b6-34d8696571a9', name: 't', status: 'FAILED', errors: [{ message: 'exit code 137' }], warnings: [],
      inputs: { reads: { class: 'File', path: '567890abc8a5136ec6127063', name: 'sample.fastq' } }, outputs: { out: null },
    };
    const details = {
      jobs: [
        { name: 'index', status: 'COMPLETED', start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T00:10:00Z', instance: { type: 'c5.2xlarge' }, retried: false, logs: {} },
        { name: 'align', status: 'FAILED', start_time: '2026-01-01T00:10:00Z', end_time: '2026-01-01T01:15:00Z', instance: { type: 'r5.2xlarge' }, retried: false, logs: { 'job.err.log': 'https://x/v2/files/567890abc8a5136ec6127064/download_info' } },
      ],
    };
    const items = buildTaskInfo(task, details, Date.parse('2026-01-02T00:00:00Z'));
    assert.deepStrictEqual(items.map((i) => i.key), ['errors', 'jobs', 'inputs', 'rerun', 'raw']);
    assert.deepStrictEqual(find(items, 'rerun')!.command, { command: 'sevenbridges.tasks.rerun', title: 'Re-run this task…', args: [task.id] });
    assert.strictEqual(find(items, 'rerun')!.tooltip, 'A copy of the task with the same app and inputs is made and run; the original stays as it is.');
    assert.strictEqual(find(items, 'errors')!.expanded, true);
    const jobs = find(items, 'jobs')!;
    assert.strictEqual(jobs.expanded, true);
    assert.strictEqual(jobs.children![0].label, 'align');
    assert.strictEqual(jobs.children![0].description, 'Failed · r5.2xlarge · 1 h 5 min');
    assert.strictEqual(jobs.children![0].children![0].label, 'job.err.log');
    assert.strictEqual(jobs.children![0].children![0].command!.command, 'sevenbridges.tasks.openLog');
    assert.strictEqual(find(items, 'inputs')!.children![0].label, 'sample.fastq');
    assert.strictEqual(find(items, 'raw')!.command!.command, 'sevenbridges.tasks.openDetails');
  });

  it('a draft says it has no jobs yet; an unreadable execution details says so and keeps the rest', () => {
    const task = { href: 'h', id: 'bd5e95d9-12b3-789c-45b6-34d8696571a9', name: 't', status: 'DRAFT' };
    assert.ok(find(buildTaskInfo(task, undefined, 0), 'jobs-none'));
    const items = buildTaskInfo({ ...task, status: 'RUNNING' }, undefined, 0, 'HTTP 500');
    assert.strictEqual(find(items, 'jobs-error')!.description, 'HTTP 500');
    assert.ok(find(items, 'raw'));
  });
});

describe('log content (against the emulator)', function () {
  this.timeout(20_000);
  let emu: Emulator;
  before(async () => (emu = await startEmulator()));
  after(() => emu.close());

  it('a large log: the last 1 MB with a first line saying so; the whole file on demand', async () => {
    const sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) });
    let big: { id: string; size: number } | undefined;
    for (const t of emu.data.tasks.filter((x) => x.status === 'FAILED' && !x.batch)) {
      const d = await sb.tasks.executionDetails(t.id);
      for (const job of d.jobs ?? []) {
        const log = jobLogs(job, t).find((l) => l.name === 'job.err.log')!;
        const size = emu.logs.get(log.fileId)!.content.length;
        if (size > TAIL_BYTES) big = { id: log.fileId, size };
      }
      if (big) break;
    }
    assert.ok(big);
    const tail = await fetchLog(sb.files, big.id, false);
    assert.strictEqual(tail.text.split('\n')[0], partialNote(TAIL_BYTES, big.size));
    assert.match(tail.text.split('\n')[0], /Showing the last 1\.0 MB of \d\.\d MB/);
    const whole = await fetchLog(sb.files, big.id, true);
    assert.strictEqual(whole.text, emu.logs.get(big.id)!.content.toString('utf8'));
  });
});
