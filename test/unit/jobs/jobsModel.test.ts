import * as assert from 'assert';
import type { CopyWriteRecord } from '../../../src/jobs/copyRequests';
import { DataJobsModel, isJobsNode } from '../../../src/jobs/jobsModel';
import { childNodes, itemOrder, rootNodes } from '../../../src/jobs/jobNodes';
import { interruptedRow, itemRow, jobRow, requestRow, shortDestination, submissionRow, transferRow } from '../../../src/jobs/jobRows';
import { resultsFileName, resultsTable, retryPlan } from '../../../src/jobs/itemOutcomes';
import { Transfers } from '../../../src/jobs/transfers';
import { MessageNode, messageView } from '../../../src/ui/rowView';
import type { TrackedJob } from '../../../src/jobs/tracker';

const id = (n: number) => n.toString(16).padStart(24, '0');
const dest = { label: 'rfranklin/dest › results', project: 'rfranklin/dest' };
const job = (jobId: string, extra: Partial<TrackedJob> = {}): TrackedJob => ({
  id: jobId,
  submittedAt: 0,
  items: [1, 2, 3].map((n) => ({ file: id(n), project: 'rfranklin/dest' })),
  destination: dest,
  sourceNames: { [id(1)]: 'a.bam', [id(2)]: 'b.bam', [id(3)]: 'c.bam' },
  state: 'RUNNING',
  ...extra,
});
const copied = (n: number, name: string) => ({ resource: { href: '', id: id(100 + n), name } });
const failedResult = (code: number, message: string) => ({ error: { status: 404, code, message } });
const request = (group: string, state: CopyWriteRecord['state'], createdAt: number, items = 2, note?: string): CopyWriteRecord => ({
  v: 2,
  id: `${group}-${state}-${createdAt}`,
  kind: 'copy',
  group,
  account: 'e#u',
  owner: 'w',
  state,
  payload: { items: Array.from({ length: items }, (_, i) => ({ file: id(i), project: 'rfranklin/dest' })), destination: dest },
  createdAt,
  attempts: 1,
  resends: 0,
  note,
});

describe('Data Jobs view model', () => {
  it('lists jobs newest first, a lone job as its own row, and says so when there are none', () => {
    const roots = rootNodes([job('1', { submittedAt: 10 }), job('2', { submittedAt: 30 }), job('3', { submittedAt: 20 })], []);
    assert.deepStrictEqual(roots.map((r) => r.id), ['job:2', 'job:3', 'job:1']);
    const empty = rootNodes([], []);
    assert.strictEqual(empty.length, 1);
    const row = empty[0] instanceof MessageNode ? messageView(empty[0]) : undefined;
    assert.deepStrictEqual(row && [row.label, row.description, row.icon.id, row.contextValue], [
      'No data jobs yet',
      'Copy, move, delete, upload or download files in Projects & Files: each shows here until it is done.',
      'info',
      'message',
    ]);
  });

  it('groups the jobs of a split copy under its submission, with its requests not yet sent first', () => {
    const jobs = [job('1', { submittedAt: 10, group: 'g' }), job('2', { submittedAt: 11, group: 'g' }), job('3', { submittedAt: 5, group: 'solo' })];
    const roots = rootNodes(jobs, [request('g', 'queued', 12), request('waiting', 'failed', 1)]);
    assert.deepStrictEqual(roots.map((r) => r.id), ['submission:g', 'job:3', 'request:waiting'], 'newest first; a group of one job is that job');
    const children = childNodes(roots[0]);
    assert.deepStrictEqual(children.map((c) => c.id), ['request:g', 'job:2', 'job:1']);
    const row = submissionRow(roots[0] as never, 60_000);
    assert.deepStrictEqual([row.label, row.description], ['running · 8 items · 1 request not submitted yet', 'results · 3 requests · 1 minute ago']);
  });

  it('shows a job\'s state and progress in files first, then the folder\'s name and its age; the whole destination on hover', () => {
    const running = jobRow(job('1', { total: 1000, completed: 330, failed: 10, submittedAt: 0 }), 120_000);
    assert.deepStrictEqual(
      [running.label, running.description, running.ariaLabel, running.tooltip.split('\n')[0]],
      ['running · 340/1,000 files · 10 failed', 'results · 2 minutes ago', 'Copy to rfranklin/dest › results, running · 340/1,000 files · 10 failed · 2 minutes ago', 'Copy to rfranklin/dest › results'],
    );
    assert.match(running.contextValue, /\brunning\b/);
    assert.doesNotMatch(running.contextValue, /\bhasFailed\b/, 'no retry while the job runs');
    const done = job('2', { state: 'FINISHED', total: 3, completed: 2, failed: 1, result: [copied(1, 'a.bam'), failedResult(10225, 'gone'), copied(3, '1_c.bam')] });
    const row = jobRow(done, 0);
    assert.match(row.contextValue, /\bcopyJob\b.*\bfinished\b.*\bhasFailed\b/);
    assert.strictEqual(row.icon.id, 'warning');
    const submitted = jobRow(job('3', { state: 'SUBMITTED' }), 0);
    assert.deepStrictEqual([submitted.label, submitted.description], ['submitted · 3 items', 'results · now']);
    const toProject = jobRow(job('4', { state: 'FINISHED', total: 1, completed: 1, destination: { label: 'rfranklin/gamma', project: 'rfranklin/gamma' } }), 0);
    assert.deepStrictEqual([toProject.label, toProject.description], ['finished · 1/1 files', 'gamma · now']);
    assert.strictEqual(shortDestination('rfranklin/dest › results/2026'), '2026');
  });

  it('opens a job into its items, failed first, each with the new copy or the error code, message and advice', () => {
    const done = job('2', { state: 'FINISHED', result: [copied(1, 'a.bam'), failedResult(10225, 'Source does not exist.'), copied(3, '1_c.bam')] });
    assert.deepStrictEqual(itemOrder(done), [1, 0, 2]);
    const items = childNodes({ kind: 'job', id: 'job:2', job: done });
    assert.deepStrictEqual(items.map((i) => i.id), ['item:2:1', 'item:2:0', 'item:2:2']);
    const failed = itemRow(done, 1);
    assert.deepStrictEqual([failed.label, failed.description, failed.contextValue], ['b.bam', 'error 10225: Source does not exist.', 'copyItem failed']);
    assert.match(failed.tooltip, /no longer exists/);
    const ok = itemRow(done, 2);
    assert.deepStrictEqual([ok.label, ok.description, ok.contextValue], ['c.bam', '→ 1_c.bam', 'copyItem copied']);
    const pending = itemRow(job('4'), 0);
    assert.deepStrictEqual([pending.description, pending.icon.id], ['pending', 'circle-outline']);
  });

  it('shows a request still in the outbox with its state and the actions that fit', () => {
    const refused = requestRow({ kind: 'request', id: 'request:g', group: 'g', records: [request('g', 'failed', 0, 3, 'No write permission.')] }, 0, () => true);
    assert.match(refused.contextValue, /\brefused\b/);
    assert.match(refused.contextValue, /\bdiscardable\b/);
    assert.deepStrictEqual([refused.label, refused.description], ['not submitted · 3 items', 'results · now']);
    assert.match(refused.tooltip, /No write permission\./);
    const unsure = requestRow({ kind: 'request', id: 'request:h', group: 'h', records: [request('h', 'unsure', 0)] }, 0, () => true);
    assert.match(unsure.contextValue, /\bunsure\b/);
    assert.doesNotMatch(unsure.contextValue, /\brefused\b/);
    const elsewhere = requestRow({ kind: 'request', id: 'request:i', group: 'i', records: [request('i', 'failed', 0)] }, 0, () => false);
    assert.doesNotMatch(elsewhere.contextValue, /\b(refused|discardable)\b/, 'another window owns it: no Submit Again or Discard here');
    assert.match(elsewhere.tooltip, /another window/);
  });

  it('shows a request not found after the late window with Submit Again, other writes by their words, and records left alone without actions', () => {
    const notFound = requestRow({ kind: 'request', id: 'request:n', group: 'n', records: [request('n', 'notFound', 0, 2, 'Not found on the platform after 2 min. No job on the platform matches it. Submit again?')] }, 0, () => true);
    assert.match(notFound.contextValue, /\brefused\b/);
    assert.match(notFound.label, /^not found on the platform: submit again\? · 2 items$/);
    assert.match(notFound.tooltip, /Not found on the platform after 2 min/);
    const rerun = { ...request('r', 'notFound', 0), kind: 'taskAction.rerun', label: 'Re-run "BWA-MEM run"', payload: { action: 'rerun', task: { id: 't' } } } as unknown as CopyWriteRecord;
    const other = requestRow({ kind: 'request', id: 'request:r', group: 'r', records: [rerun] }, 0, () => true);
    assert.deepStrictEqual([other.label, other.description.split(' · ')[0]], ['not found on the platform: submit again?', 'Re-run "BWA-MEM run"']);
    assert.match(other.contextValue, /\brefused\b.*\bdiscardable\b/);
    const damaged = { ...request('d', 'failed', 0), kind: 'copy', payload: undefined, problem: 'corrupt', note: 'damaged' } as unknown as CopyWriteRecord;
    const corrupt = requestRow({ kind: 'request', id: 'request:d', group: 'd', records: [damaged] }, 0, () => false);
    assert.deepStrictEqual(corrupt.contextValue, 'copyRequest discardable', 'a damaged record: Discard only, from any window');
    const fromNewer = { ...request('v', 'queued', 0), kind: 'copy', payload: undefined, problem: 'newer' } as unknown as CopyWriteRecord;
    const newer = requestRow({ kind: 'request', id: 'request:v', group: 'v', records: [fromNewer] }, 0, () => false);
    assert.deepStrictEqual(newer.contextValue, 'copyRequest', 'left alone: no action');
    assert.match(newer.label, /from a newer version of the extension: left alone/);
  });

  it('writes the results as TSV: source ID, source name, outcome, new ID or error; one line per item', () => {
    const done = job('2', { state: 'FINISHED', result: [copied(1, 'a.bam'), failedResult(10225, 'Source\tdoes not exist.')] });
    assert.strictEqual(resultsFileName([done]), 'copy-results-rfranklin-dest-results-2.tsv');
    assert.strictEqual(resultsFileName([done, job('3', { destination: { label: 'rfranklin/gamma', project: 'rfranklin/gamma' } })]), 'copy-results-2-destinations-2-jobs.tsv');
    const table = resultsTable([done]);
    assert.ok(table.endsWith('\n'));
    const lines = table.slice(0, -1).split('\n');
    assert.deepStrictEqual(lines, [
      'source_id\tsource_name\toutcome\tnew_id_or_error',
      `${id(1)}\ta.bam\tcopied\t${id(101)}`,
      `${id(2)}\tb.bam\tfailed\terror 10225: Source does not exist.`,
      `${id(3)}\tc.bam\tno result\t`,
    ]);
  });

  it('Copy Results keeps what a spreadsheet would run as text, and what a terminal would act on out: one line, four cells a row', () => {
    const names = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', '\x1b]0;owned\x07title.bam', '\x1b[31mred\x1b[0m.bam', 'two\nlines\r.bam', 'a-b=c.bam'];
    const hostile = job('9', {
      state: 'FINISHED',
      items: names.map((_, i) => ({ file: id(i + 1), project: 'rfranklin/dest' })),
      sourceNames: Object.fromEntries(names.map((n, i) => [id(i + 1), n])),
      result: names.map((n, i) => (i === 0 ? failedResult(10225, '=HYPERLINK("http://x")') : copied(i + 1, n))),
    });
    const lines = resultsTable([hostile]).slice(0, -1).split('\n');
    assert.strictEqual(lines.length, names.length + 1);
    assert.ok(lines.every((l) => l.split('\t').length === 4), 'four cells a row');
    assert.deepStrictEqual(
      lines.slice(1).map((l) => l.split('\t')[1]),
      ["'=cmd|' /C calc'!A0", "'+1+1", "'-2+3", "'@SUM(A1)", "' =1+1", "' =1+1", 'title.bam', 'red.bam', 'two lines .bam', 'a-b=c.bam'],
    );
    assert.deepStrictEqual(lines.slice(1).map((l) => l.split('\t')[3]), ['error 10225: =HYPERLINK("http://x")', ...names.slice(1).map((_, i) => id(100 + i + 2))]);
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(resultsTable([hostile])), 'no control character but the separators');
  });

  it('accounts for every one of 1,000 items split into ten jobs, without fetching anything', () => {
    const jobs = Array.from({ length: 10 }, (_, j) =>
      job(String(j + 1), {
        group: 'big',
        submittedAt: j,
        state: 'FINISHED',
        items: Array.from({ length: 100 }, (_, i) => ({ file: id(j * 100 + i), project: 'rfranklin/dest' })),
        sourceNames: {},
        result: Array.from({ length: 100 }, (_, i) => (i % 50 === 0 ? failedResult(10226, 'No privilege.') : copied(j * 100 + i, `f${j * 100 + i}`))),
      }),
    );
    const [submission] = rootNodes(jobs, []);
    const items = childNodes(submission).flatMap((j) => childNodes(j));
    assert.strictEqual(items.length, 1000);
    const table = resultsTable(jobs).trimEnd().split('\n').slice(1);
    assert.strictEqual(table.length, 1000);
    assert.strictEqual(table.filter((l) => l.split('\t')[2] === 'failed').length, 20);
  });
});

describe('Data Jobs: every kind of async job, transfers and interrupted uploads', () => {
  const where = { label: 'rfranklin/dest', project: 'rfranklin/dest' };
  const deleted = (n: number, name: string) => ({ resource: { href: '', id: id(n), name } });

  it('a delete job says its kind first, its progress in items, and each item "deleted" (nothing to open)', () => {
    const running = jobRow(job('d1', { type: 'DELETE', destination: where, submittedAt: 0, state: 'RUNNING' }), 60_000);
    assert.deepStrictEqual([running.label, running.description, running.icon.id], ['Delete · running · 3 items', 'dest · 1 minute ago', 'sync~spin']);
    assert.strictEqual(running.tooltip.split('\n')[0], 'Delete in rfranklin/dest');
    assert.match(running.contextValue!, /\bcopyJob\b.*\btype-delete\b.*\brunning\b/);
    const finished = job('d1', { type: 'DELETE', destination: where, state: 'FINISHED', total: 3, completed: 2, failed: 1, result: [deleted(1, 'a.bam'), failedResult(10225, 'Source does not exist.'), deleted(3, 'c.bam')] });
    const row = jobRow(finished, 0);
    assert.deepStrictEqual([row.label, row.icon.id], ['Delete · finished · 3/3 files · 1 failed', 'warning']);
    assert.match(row.contextValue!, /\bhasFailed\b/);
    const first = itemRow(finished, 0);
    assert.deepStrictEqual([first.label, first.description, first.contextValue], ['a.bam', 'deleted', 'copyItem deleted']);
    assert.strictEqual(itemRow(finished, 1).contextValue, 'copyItem failed');
    assert.deepStrictEqual(resultsTable([finished]).split('\n').slice(1, 3), [`${id(1)}\ta.bam\tdeleted\t`, `${id(2)}\tb.bam\tfailed\terror 10225: Source does not exist.`]);
    assert.match(resultsFileName([finished]), /^delete-results-rfranklin-dest-d1\.tsv$/);
  });

  it('a move job (any type the platform names) is shown the same way: its kind, "moved as", openable where it went', () => {
    const moved = job('m1', { type: 'MOVE', state: 'FINISHED', total: 3, completed: 3, failed: 0, result: [copied(1, 'a.bam'), copied(2, 'b.bam'), copied(3, '1_c.bam')] });
    const row = jobRow(moved, 0);
    assert.deepStrictEqual([row.label, row.tooltip.split('\n')[0], row.icon.id], ['Move · finished · 3/3 files', 'Move to rfranklin/dest › results', 'pass']);
    const item = itemRow(moved, 2);
    assert.deepStrictEqual([item.description, item.contextValue, item.ariaLabel], ['→ 1_c.bam', 'copyItem copied', 'c.bam, moved as 1_c.bam']);
    assert.match(resultsTable([moved]), /\tmoved\t/);
    // A copy's row is as before: its state first.
    assert.strictEqual(jobRow(job('c1', { state: 'RUNNING' }), 0).label, 'running · 3 items');
    // A type this version does not know: its name as the platform gives it.
    assert.match(jobRow(job('x1', { type: 'ARCHIVE' }), 0).label, /^Archive · running/);
  });

  it('Retry Failed Items plans the failed items only, as the job recorded them, with their names', () => {
    const done = job('d2', { type: 'DELETE', state: 'FINISHED', result: [deleted(1, 'a.bam'), failedResult(10226, 'No permission.'), { error: { status: 500, message: 'failed' } }] });
    assert.deepStrictEqual(retryPlan(done), {
      items: [
        { file: id(2), project: 'rfranklin/dest' },
        { file: id(3), project: 'rfranklin/dest' },
      ],
      names: { [id(2)]: 'b.bam', [id(3)]: 'c.bam' },
    });
    assert.deepStrictEqual(retryPlan(job('d3', { state: 'FINISHED', result: [deleted(1, 'a'), deleted(2, 'b'), deleted(3, 'c')] })).items, []);
  });

  it('an upload or download under way is a row at the top with its progress and Cancel; while cancelling it says so', () => {
    let now = 1_000_000;
    const MiB = 1024 * 1024;
    const transfers = new Transfers(() => now);
    const cancelled: string[] = [];
    const up = transfers.start('upload', 'rfranklin/dest › results', 'e#u', () => cancelled.push('up'), 'run-1');
    transfers.start('download', '/home/me/data', 'e#other', () => cancelled.push('down'));
    assert.deepStrictEqual(transfers.all('e#u').map((t) => t.kind), ['upload'], 'only the account in use');
    let row = transferRow(transfers.all('e#u')[0], now);
    assert.deepStrictEqual([row.label, row.description, row.icon.id, row.contextValue], ['starting…', 'results · now', 'cloud-upload', 'transfer transfer-upload cancellable']);
    assert.strictEqual(row.ariaLabel, 'Upload to rfranklin/dest › results, starting… · now');
    const figures = { filesDone: 3, filesTotal: 7, bytesDone: 40 * MiB, bytesTotal: 120 * MiB, bytesPerSecond: undefined, secondsLeft: undefined };
    up.report(figures);
    now += 120_000;
    row = transferRow(transfers.all('e#u')[0], now);
    // Short first, where it goes still in view at the default width; the whole in the tooltip and aria label.
    assert.deepStrictEqual([row.label, row.description], ['33%', 'results · 3/7 files · 2 minutes ago'], 'no rate before it is measured');
    figures.bytesDone = 50 * MiB;
    assert.strictEqual(transferRow(transfers.all('e#u')[0], now).label, '33%', 'what was reported, not the engine\'s object as it changes');
    up.report({ filesDone: 3, filesTotal: 7, bytesDone: 45 * MiB, bytesTotal: 120 * MiB, bytesPerSecond: 85 * MiB, secondsLeft: 65.2 });
    row = transferRow(transfers.all('e#u')[0], now);
    assert.deepStrictEqual([row.label, row.description], ['37% · 85 MB/s', 'results · 3/7 files · 2 minutes ago']);
    assert.strictEqual(row.tooltip, 'Upload to rfranklin/dest › results\n37% · 3 of 7 files · 45 MB of 120 MB · 85 MB/s · 1 min 6 s left\nCancel stops it; nothing half made is left.');
    assert.strictEqual(row.ariaLabel, 'Upload to rfranklin/dest › results, 37% · 3 of 7 files · 45 MB of 120 MB · 85 MB/s · 1 min 6 s left · 2 minutes ago');
    assert.strictEqual(transfers.cancel(up.id), true);
    assert.strictEqual(transfers.cancel(up.id), false, 'one Cancel');
    assert.deepStrictEqual(cancelled, ['up']);
    row = transferRow(transfers.all('e#u')[0], now);
    assert.deepStrictEqual([row.label, row.description, row.contextValue], ['cancelling…', 'results · 2 minutes ago', 'transfer transfer-upload']);
    const roots = rootNodes([job('1', { submittedAt: now })], [], transfers.all('e#u'), []);
    assert.deepStrictEqual(roots.map((r) => r.kind), ['transfer', 'job'], 'what moves bytes first');
    up.end();
    assert.deepStrictEqual(transfers.all('e#u'), []);
  });

  it('an upload run left by a reload is "Interrupted · 120 MB left", "3 of 7 files left" after it, with Resume and Discard; not while it moves here or in another window', () => {
    const now = 10_000_000;
    const run = { kind: 'upload' as const, runId: 'run-1', label: 'rfranklin/dest › results', filesLeft: 3, filesTotal: 7, bytesLeft: 120 * 1024 * 1024, startedAt: now - 3_600_000 };
    const stored = [run];
    // What the other windows alive name in their heartbeats (the outbox's liveness), and what this one names.
    const elsewhere = new Set<string>();
    const here: string[] = [];
    const liveness = { keepAlive: (work: string) => (here.push(work), { dispose: () => here.splice(here.indexOf(work), 1) }), workElsewhere: () => elsewhere };
    const transfers = new Transfers(() => now, { runs: (account) => (account === 'e#u' ? stored : []) }, liveness);
    assert.deepStrictEqual(transfers.interrupted('e#u').map((r) => r.runId), ['run-1']);
    assert.deepStrictEqual(transfers.interrupted('e#other'), []);
    assert.deepStrictEqual(transfers.interrupted(undefined), []);
    const row = interruptedRow(run, now);
    assert.deepStrictEqual([row.label, row.description, row.icon.id, row.contextValue], ['Interrupted · 120 MB left', '3 of 7 files left · results · 1 hour ago', 'debug-pause', 'interrupted interrupted-upload']);
    assert.strictEqual(row.ariaLabel, 'Upload to rfranklin/dest › results, Interrupted: 3 of 7 files, 120 MB left · 1 hour ago');
    assert.match(row.tooltip, /Resume sends the rest, from the parts already sent\. Discard aborts the uploads begun on the platform/);
    assert.deepStrictEqual(rootNodes([], [], [], transfers.interrupted('e#u')).map((r) => r.id), ['interrupted:run-1']);
    // Resumed in this window: a transfer under way, not interrupted, and this window's heartbeat names it.
    const handle = transfers.start('upload', run.label, 'e#u', () => undefined, 'run-1');
    assert.deepStrictEqual([transfers.interrupted('e#u'), here], [[], ['upload:run-1']]);
    handle.end();
    assert.deepStrictEqual(here, []);
    // Another window alive names it: it moves there.
    elsewhere.add('upload:run-1');
    assert.deepStrictEqual(transfers.interrupted('e#u'), []);
    elsewhere.clear();
    assert.deepStrictEqual(transfers.interrupted('e#u').map((r) => r.runId), ['run-1']);
  });
});

describe('Data Jobs: interrupted downloads', () => {
  it('a folder\'s .part files left by a download read "Interrupted · 40 MB left", "2 files" after it, with Resume and Discard; not while a download into that folder goes', () => {
    const now = 50_000_000;
    const run = { kind: 'download' as const, runId: 'download:/home/me/data/run-1', label: '/home/me/data/run-1', filesLeft: 2, filesTotal: 2, bytesLeft: 40 * 1024 * 1024, startedAt: now - 600_000 };
    const elsewhere = new Set<string>();
    const transfers = new Transfers(() => now, { runs: () => [run] }, { keepAlive: () => ({ dispose: () => undefined }), workElsewhere: () => elsewhere });
    const row = interruptedRow(run, now);
    assert.deepStrictEqual([row.label, row.description, row.contextValue], ['Interrupted · 40 MB left', '2 files · run-1 · 10 minutes ago', 'interrupted interrupted-download']);
    assert.match(row.tooltip, /^Download to \/home\/me\/data\/run-1\n2 files begun and not finished \(40 MB not received\)\.\nResume fetches the rest/);
    assert.deepStrictEqual(transfers.interrupted('e#u').map((r) => r.runId), ['download:/home/me/data/run-1']);
    // A download into /home/me/data (its files land below it) is going: those .part files are its own.
    const going = transfers.start('download', '/home/me/data', 'e#u', () => undefined);
    assert.deepStrictEqual(transfers.interrupted('e#u'), []);
    going.end();
    // One into a folder beside it is not.
    const beside = transfers.start('download', '/home/me/dat', 'e#u', () => undefined);
    assert.strictEqual(transfers.interrupted('e#u').length, 1);
    beside.end();
    // Another window alive downloads into that folder: its heartbeat names it.
    elsewhere.add('download:/home/me/data');
    assert.deepStrictEqual(transfers.interrupted('e#u'), []);
  });
});

describe('Data Jobs view model: each kind of row from one table', () => {
  const quiet = () => ({ dispose: () => undefined });
  const model = (jobs: TrackedJob[], pending: CopyWriteRecord[], details?: (id: string) => Promise<TrackedJob | undefined>) => {
    const tracker = { all: () => jobs, account: () => 'e#u', get: (jobId: string) => jobs.find((j) => j.id === jobId), details: details ?? (async () => undefined), onDidChange: quiet };
    const outbox = { all: () => pending, owns: () => true, onDidChange: quiet };
    return new DataJobsModel(tracker as never, outbox as never, () => 60_000, new Transfers(() => 0));
  };

  it('opens a split copy into its requests and jobs, a job into its items; each row hangs under the row that opened into it', async () => {
    const jobs = [job('1', { submittedAt: 10, group: 'g', state: 'FINISHED', result: [failedResult(5002, 'gone'), copied(2, 'b.bam'), copied(3, 'c.bam')] }), job('2', { submittedAt: 11, group: 'g' })];
    const m = model(jobs, [request('g', 'queued', 12), request('other', 'failed', 1)]);
    const roots = await m.getChildren();
    assert.deepStrictEqual(roots.map((r) => [r.kind, r.id]), [['submission', 'submission:g'], ['request', 'request:other']]);
    const inside = await m.getChildren(roots[0]);
    assert.deepStrictEqual(inside.map((r) => r.id), ['request:g', 'job:2', 'job:1']);
    const items = await m.getChildren(inside[2]);
    assert.deepStrictEqual(items.map((r) => r.id), ['item:1:0', 'item:1:1', 'item:1:2'], 'the failed item first');
    assert.deepStrictEqual([m.getParent(items[0])?.id, m.getParent(inside[0])?.id, m.getParent(inside[2])?.id, m.getParent(roots[0]), m.getParent(roots[1])], ['job:1', 'submission:g', 'submission:g', undefined, undefined]);
    assert.deepStrictEqual(await m.getChildren(roots[1]), [], 'a request opens into nothing');
    assert.deepStrictEqual([m.rowView(roots[0]).expanded, m.rowView(items[0]).command?.args], [true, [items[0]]]);
  });

  it('shows a failed read of a job\'s results above its items, and tells its rows from anything else', async () => {
    const m = model([job('7', { state: 'FINISHED' })], [], async () => {
      throw new Error('the platform is away');
    });
    const [row] = await m.getChildren();
    const items = await m.getChildren(row);
    assert.deepStrictEqual([items[0].kind, m.rowView(items[0]).label, items.length], ['message', 'Could not load the results: the platform is away', 4]);
    assert.deepStrictEqual([isJobsNode(row), isJobsNode(items[1]), isJobsNode({ kind: 'job' }), isJobsNode({ kind: 'folder', id: 'x' }), isJobsNode(undefined), isJobsNode('job')], [true, true, false, false, false, false]);
  });
});
