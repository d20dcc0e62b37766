import * as assert from 'assert';
import type { WriteRecord } from '../../../src/write/outbox';
import { failedItems, finishMessage, statusSummary, transferFigureWords, transferFraction } from '../../../src/jobs/summary';
import type { TrackedJob } from '../../../src/jobs/tracker';
import type { LiveTransfer } from '../../../src/jobs/transfers';

const job = (id: string, extra: Partial<TrackedJob> = {}): TrackedJob => ({
  id,
  submittedAt: 0,
  items: [{ file: 'a'.repeat(24), project: 'rfranklin/dest' }, { file: 'b'.repeat(24), project: 'rfranklin/dest' }],
  destination: { label: 'rfranklin/dest › results/2026', project: 'rfranklin/dest' },
  state: 'RUNNING',
  ...extra,
});

describe('the status bar while uploads and downloads run', () => {
  const transfer = (kind: 'upload' | 'download', extra: Partial<LiveTransfer> = {}): LiveTransfer => ({ id: `${kind}:1`, kind, label: kind === 'upload' ? 'rfranklin/dest › reads' : '/home/me/data', account: 'a', startedAt: 0, ...extra });
  it('says what moves, each with its progress in the tooltip, the jobs running after them', () => {
    const up = statusSummary([], [], [transfer('upload', { progress: { filesDone: 3, filesTotal: 7, bytesDone: 40 * 1024 * 1024, bytesTotal: 120 * 1024 * 1024, bytesPerSecond: undefined, secondsLeft: undefined } })]);
    assert.deepStrictEqual([up.visible, up.text, up.warning], [true, '$(cloud-upload) Uploading', false]);
    assert.deepStrictEqual(up.tooltip, ['Upload to rfranklin/dest › reads: 33% · 3 of 7 files · 40 MB of 120 MB', 'Click to see the data jobs']);
    const both = statusSummary([job('1', { total: 600, completed: 200, failed: 0 })], [], [transfer('download', { cancelling: true }), transfer('upload')]);
    assert.strictEqual(both.text, '$(sync~spin) Uploading and downloading (2)');
    assert.deepStrictEqual(both.tooltip, ['Download to /home/me/data: cancelling…', 'Upload to rfranklin/dest › reads: starting…', 'rfranklin/dest › results/2026: running, 200/600 files', 'Click to see the data jobs']);
    assert.strictEqual(statusSummary([], [], [transfer('download'), transfer('download')]).text, '$(cloud-download) Downloading (2)');
  });
  it('a copy not submitted keeps its warning in view; the transfers are in the tooltip', () => {
    const refused = { kind: 'copy', state: 'failed', group: 'g1' } as unknown as WriteRecord;
    const s = statusSummary([], [refused], [transfer('upload')]);
    assert.deepStrictEqual([s.text, s.warning], ['$(warning) 1 copy not submitted', true]);
    assert.strictEqual(s.tooltip[0], 'Upload to rfranklin/dest › reads: starting…');
  });
});

describe('a transfer\'s progress in words', () => {
  it('in full: files, bytes, rate and time left, each when known', () => {
    assert.strictEqual(transferFigureWords({ filesDone: 3, filesTotal: 10, bytesDone: 1024 * 1024 * 12, bytesTotal: 1024 ** 3 * 4, bytesPerSecond: 85 * 1024 * 1024, secondsLeft: 65.2 }), '3 of 10 files · 12 MB of 4.0 GB · 85 MB/s · 1 min 6 s left');
    assert.strictEqual(transferFigureWords({ filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 500, bytesPerSecond: undefined, secondsLeft: undefined }), '0 of 1 file · 0 B of 500 B');
  });
  it('how much is done: by bytes, by files when there are no bytes, never past all', () => {
    const figures = { bytesPerSecond: undefined, secondsLeft: undefined };
    assert.strictEqual(transferFraction({ ...figures, filesDone: 0, filesTotal: 10, bytesDone: 30, bytesTotal: 120 }), 0.25);
    assert.strictEqual(transferFraction({ ...figures, filesDone: 3, filesTotal: 4, bytesDone: 0, bytesTotal: 0 }), 0.75);
    assert.strictEqual(transferFraction({ ...figures, filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 }), 0);
    assert.strictEqual(transferFraction({ ...figures, filesDone: 1, filesTotal: 1, bytesDone: 130, bytesTotal: 120 }), 1);
  });
});

describe('copy job words', () => {
  it('spins with files done out of total while jobs run', () => {
    const s = statusSummary([job('1', { total: 600, completed: 200, failed: 0 }), job('2', { total: 400, completed: 130, failed: 10 })], []);
    assert.deepStrictEqual([s.visible, s.text, s.warning], [true, '$(sync~spin) Copying 2 jobs · 340/1,000 files', false]);
    assert.strictEqual(statusSummary([job('1', { state: 'SUBMITTED' })], []).text, '$(sync~spin) Copying 1 job…');
  });
  it('then shows the outcome: all done, or N failed in the warning colour; hidden once seen', () => {
    const done = statusSummary([job('1', { state: 'FINISHED', total: 2, completed: 2, failed: 0 })], []);
    assert.deepStrictEqual([done.text, done.warning], ['$(check) Copy done · 2 files', false]);
    const two = statusSummary([job('1', { state: 'FINISHED', total: 1, completed: 1, failed: 0 }), job('2', { state: 'FINISHED', total: 2, completed: 2, failed: 0 })], []);
    assert.strictEqual(two.text, '$(check) 2 copies done · 3 files', 'the count says what it adds up');
    const failed = statusSummary([job('1', { state: 'FINISHED', total: 2, completed: 1, failed: 1 })], []);
    assert.deepStrictEqual([failed.text, failed.warning], ['$(warning) Copy: 1 failed', true]);
    assert.strictEqual(statusSummary([job('1', { state: 'FINISHED', acknowledged: true })], []).visible, false);
    assert.strictEqual(statusSummary([], []).visible, false);
  });
  it('shows refused requests in the warning colour, requests being checked or sent in words', () => {
    const request = (state: WriteRecord['state']): WriteRecord =>
      ({ id: state, kind: 'copy', group: 'g', account: 'a#u', owner: 'w', state, payload: {}, createdAt: 0, attempts: 1, resends: 0 }) as WriteRecord;
    const failed = statusSummary([], [request('failed')]);
    assert.deepStrictEqual([failed.text, failed.warning], ['$(warning) 1 copy not submitted', true]);
    const checking = statusSummary([], [request('unsure')]);
    assert.deepStrictEqual([checking.text, checking.warning], ['$(search) Checking 1 copy request', false]);
    const sending = statusSummary([], [request('queued'), request('sending')]);
    assert.deepStrictEqual([sending.text, sending.warning], ['$(sync~spin) Submitting 2 copy requests', false]);
  });
  it('counts a copied and a failed item in the finish message', () => {
    const j = job('1', {
      state: 'FINISHED',
      sourceNames: { ['a'.repeat(24)]: 'a.bam' },
      result: [
        { resource: { href: 'h', id: 'c'.repeat(24), name: 'a.bam' } },
        { error: { status: 409, code: 10223, message: 'File already exists.' } },
      ],
    });
    assert.match(finishMessage([{ ...j, completed: 1, failed: 1 }]).text, /Copy to rfranklin\/dest › results\/2026 finished: 1 file copied, 1 failed\./);
  });
  it('says the outcome of a job the platform forgot is unknown, not that it failed', () => {
    const forgotten = job('9', { state: 'UNKNOWN', lastError: 'The platform no longer knows this job.' });
    const one = finishMessage([forgotten]);
    assert.deepStrictEqual(one, {
      text: "The outcome of the copy to rfranklin/dest › results/2026 is unknown: the platform no longer has the job's details.",
      failed: 0,
      unknown: 1,
    });
    const mixed = finishMessage([job('1', { state: 'FINISHED', completed: 2, failed: 0 }), forgotten]);
    assert.strictEqual(mixed.text, 'Copy to rfranklin/dest › results/2026 finished: 2 files copied. The outcome of 1 other job is unknown: the platform no longer has the job\'s details.');
    assert.strictEqual(mixed.failed, 0);
    const status = statusSummary([forgotten], []);
    assert.deepStrictEqual([status.text, status.warning], ['$(question) Copy: outcome unknown', true]);
    assert.strictEqual(failedItems(forgotten).length, 0, 'so there is nothing to retry');
  });
});
