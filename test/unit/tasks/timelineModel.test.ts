import * as assert from 'assert';
import type { ExecutionDetails, TaskJob } from '../../../src/api/types';
import { axisTicks, childItems, jobItems, jobLog, layoutBar, layoutTimeline, orderItems, timeScale, type TimelineItem } from '../../../src/tasks/timelineModel';
import { timelineCsp, timelineHtml } from '../../../src/tasks/timelinePage';
import { task } from '../../support/fakeTasks';

const T0 = Date.UTC(2026, 10, 27, 6, 0, 0);
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString().replace('.000', '');
const log = (id: string) => `https://api.sbgenomics.com/v2/files/${id}/download_info`;
const job = (name: string, from: number, to: number | undefined, status: string, more: Partial<TaskJob> = {}): TaskJob => ({
  name,
  start_time: at(from),
  ...(to !== undefined ? { end_time: at(to) } : {}),
  status,
  retried: false,
  instance: { type: 'c5.2xlarge' },
  logs: { 'job.out.log': log('5f0000000000000000000001'), 'job.err.log': log('5f0000000000000000000002') },
  ...more,
});
const parent = task(1, 'FAILED', { name: 'BWA-MEM run' });

describe('timeline: the layout', () => {
  it('puts the axis from the first start to the last end, each bar at its share of it', () => {
    const items: TimelineItem[] = [
      { key: 'a', label: 'a', status: 'COMPLETED', start: T0, end: T0 + 30 * 60_000, opens: true },
      { key: 'b', label: 'b', status: 'COMPLETED', start: T0 + 30 * 60_000, end: T0 + 120 * 60_000, opens: true },
    ];
    const scale = timeScale(items, T0 + 999 * 60_000)!;
    assert.deepStrictEqual([scale.start, scale.end], [T0, T0 + 120 * 60_000]);
    assert.strictEqual(scale.at(T0 + 60 * 60_000), 50);
    assert.strictEqual(scale.at(T0 - 1000), 0, 'clamped');
    const bars = items.map((i) => layoutBar(i, scale, T0));
    assert.deepStrictEqual(bars.map((b) => [b.left, b.width]), [[0, 25], [25, 75]]);
    assert.deepStrictEqual(bars.map((b) => b.duration), ['30 min', '1 h 30 min']);
    assert.strictEqual(bars[1].start, '2026-11-27 06:30 UTC');
    assert.strictEqual(timeScale([{ start: undefined, end: undefined }], T0), undefined, 'nothing started: no axis');
    // A job that took no time, at the very end: a sliver, inside the axis.
    const last = layoutBar({ key: 'z', label: 'z', status: 'COMPLETED', start: T0 + 120 * 60_000, end: T0 + 120 * 60_000, opens: false }, scale, T0);
    assert.deepStrictEqual([last.left, last.width], [99.6, 0.4]);
  });

  it('ticks the axis at a round step, at most 8 ticks, labelled by the time since the start', () => {
    const scale = timeScale([{ start: T0, end: T0 + 120 * 60_000 }], T0)!;
    const ticks = axisTicks(scale);
    assert.deepStrictEqual(ticks.map((t) => t.label), ['0', '+30 min', '+1 h', '+1 h 30 min', '+2 h']);
    assert.deepStrictEqual(ticks.map((t) => t.left), [0, 25, 50, 75, 100]);
    const short = axisTicks(timeScale([{ start: T0, end: T0 + 7000 }], T0)!);
    assert.ok(short.length <= 8 && short.length >= 4, short.map((t) => t.label).join(' '));
    assert.strictEqual(short[1].label, '+1 s');
    const long = axisTicks(timeScale([{ start: T0, end: T0 + 11 * 86_400_000 }], T0)!);
    assert.ok(long.length <= 8, long.map((t) => t.label).join(' '));
  });

  it('a running job has no end: its bar reaches now, open, its duration "so far", and the axis ends now', () => {
    const details: ExecutionDetails = { jobs: [job('bwa_index', 0, 10, 'COMPLETED'), job('bwa_mem', 10, undefined, 'RUNNING')] };
    const data = layoutTimeline({ kind: 'task', task: parent, items: jobItems(details, parent), failedFirst: false, now: T0 + 40 * 60_000 });
    const running = data.bars[1];
    assert.strictEqual(running.open, true);
    assert.strictEqual(running.tone, 'running');
    assert.deepStrictEqual([running.left, running.width], [25, 75]);
    assert.strictEqual(running.duration, '30 min so far');
    assert.strictEqual(running.end, undefined);
    assert.strictEqual(data.axis.end, '2026-11-27 06:40 UTC');
    assert.strictEqual(data.bars[0].open, false);
  });

  it('marks retries: the replaced attempt striped and "attempt 1 of 2", its retry "attempt 2 of 2"; the instance on each bar', () => {
    const details: ExecutionDetails = {
      jobs: [job('bwa_mem', 0, 5, 'FAILED', { retried: true, instance: { type: 'c5.4xlarge' } }), job('bwa_mem', 5, 20, 'COMPLETED'), job('samtools_sort', 20, 30, 'COMPLETED')],
    };
    const data = layoutTimeline({ kind: 'task', task: parent, items: jobItems(details, parent), failedFirst: false, now: T0 });
    assert.deepStrictEqual(data.bars.map((b) => [b.retried, b.attempt, b.instance]), [
      [true, 'attempt 1 of 2', 'c5.4xlarge'],
      [false, 'attempt 2 of 2', 'c5.2xlarge'],
      [false, undefined, 'c5.2xlarge'],
    ]);
    assert.strictEqual(data.bars[0].tooltip, 'bwa_mem · Failed · 5 min · c5.4xlarge · attempt 1 of 2');
    assert.match(data.summary, /^3 jobs \(1 failed, 2 completed\) · 1 retried attempt · 30 min from first start to last end$/);
  });

  it('orders failed first on request (then aborted), by start time within each; as the timeline runs otherwise', () => {
    const items = [
      { key: 'c', status: 'COMPLETED', start: 1 },
      { key: 'f2', status: 'FAILED', start: 9 },
      { key: 'q', status: 'QUEUED', start: undefined },
      { key: 'a', status: 'ABORTED', start: 2 },
      { key: 'f1', status: 'FAILED', start: 5 },
    ];
    assert.deepStrictEqual(orderItems(items, true).map((i) => i.key), ['f1', 'f2', 'a', 'c', 'q']);
    assert.deepStrictEqual(orderItems(items, false).map((i) => i.key), ['c', 'a', 'f1', 'f2', 'q']);
  });

  it("lays out a batch's children (1,000 of them at once), failed first, those not started yet last and unplaced", () => {
    const kids = Array.from({ length: 1000 }, (_, i) =>
      task(i + 2, i % 50 === 7 ? 'FAILED' : i === 999 ? 'QUEUED' : 'COMPLETED', i === 999 ? {} : { start_time: at(i), end_time: at(i + 20) }),
    );
    const started = Date.now();
    const data = layoutTimeline({ kind: 'batch', task: task(1, 'FAILED', { batch: true, name: 'batch' }), items: childItems(kids), failedFirst: true, now: T0, reading: { read: 1000, total: 1000 } });
    assert.ok(Date.now() - started < 500, `${Date.now() - started} ms`);
    assert.strictEqual(data.bars.length, 1000);
    assert.deepStrictEqual(data.bars.slice(0, 20).map((b) => b.status), Array(20).fill('FAILED'));
    assert.strictEqual(data.bars[20].status, 'COMPLETED');
    assert.strictEqual(data.bars[999].status, 'QUEUED');
    assert.strictEqual(data.bars[999].left, undefined, 'not started: no place on the axis');
    assert.strictEqual(data.bars[0].key, kids[7].id, 'a child bar is keyed by its task ID');
    assert.strictEqual(data.loading, false);
    assert.match(data.summary, /^1,000 child tasks \(/);
    assert.strictEqual(data.words.name, 'Task');
  });

  it('says while it is still reading a batch', () => {
    const data = layoutTimeline({ kind: 'batch', task: task(1, 'RUNNING', { batch: true }), items: [], failedFirst: false, now: T0, reading: { read: 300, total: 1000 } });
    assert.strictEqual(data.loading, true);
    assert.match(data.summary, /reading 300 of 1,000…$/);
  });

  it("a job's bar opens its job.err.log; one without logs opens nothing", () => {
    const details: ExecutionDetails = { jobs: [job('a', 0, 1, 'FAILED'), job('b', 1, 2, 'COMPLETED', { logs: {} })] };
    const items = jobItems(details, parent);
    assert.deepStrictEqual(items.map((i) => i.opens), [true, false]);
    assert.deepStrictEqual(jobLog(details, parent, 'job:0'), { fileId: '5f0000000000000000000002', name: 'job.err.log', taskId: parent.id, job: 'a', taskName: 'BWA-MEM run', project: 'me/alpha' });
    assert.strictEqual(jobLog(details, parent, 'job:1'), undefined);
    assert.strictEqual(jobLog(details, parent, 'job:9'), undefined);
  });
});

describe('timeline: the page', () => {
  it('has a strict policy: nothing by default, styles from the webview only, the one script by its nonce, no network', () => {
    const csp = timelineCsp('vscode-resource:', 'abc123');
    assert.strictEqual(csp, "default-src 'none'; style-src vscode-resource:; script-src 'nonce-abc123'");
    const html = timelineHtml({ cspSource: 'vscode-resource:', scriptUri: 'vscode-resource:/media/timeline.js', styleUri: 'vscode-resource:/media/timeline.css', nonce: 'abc123', lang: 'en', title: 'Timeline: <b>', loading: 'Reading…' });
    assert.ok(html.includes(`content="default-src &#39;none&#39;;`), html);
    assert.match(html, /<script nonce="abc123" src="vscode-resource:\/media\/timeline.js"><\/script>/);
    assert.strictEqual((html.match(/<script/g) ?? []).length, 1, 'one script, no inline code');
    assert.ok(!/connect-src|https?:/.test(html), 'no network');
    assert.ok(html.includes('<title>Timeline: &#60;b&#62;</title>'), 'the name escaped');
  });
});
