import * as assert from 'assert';
import { downloadSummaryWords, progressWords } from '../../../src/remote/transferWords';

describe('remote/transferWords: what a download says', () => {
  it('progress: files, bytes, rate and time left, each when known', () => {
    assert.strictEqual(progressWords({ filesDone: 3, filesTotal: 10, bytesDone: 1024 * 1024 * 12, bytesTotal: 1024 ** 3 * 4, bytesPerSecond: 85 * 1024 * 1024, secondsLeft: 65.2 }), '3 of 10 files · 12 MB of 4.0 GB · 85 MB/s · 1 min 6 s left');
    assert.strictEqual(progressWords({ filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 500, bytesPerSecond: undefined, secondsLeft: undefined }), '0 of 1 file · 0 B of 500 B');
  });

  it('summary: saved and bytes; skipped; failures by name with why, the first five, then how many more', () => {
    const failed = Array.from({ length: 7 }, (_, i) => ({ item: { fileId: String(i), relativePath: `run/f${i}.bam` }, reason: 'The file is no longer on the platform.' }));
    const words = downloadSummaryWords(
      { target: '/data', cancelled: false, saved: ['/data/a', '/data/b'], bytes: 2048, skipped: [{ item: { fileId: 'x', relativePath: 'x' }, path: '/data/x', reason: '' }], failed, retry: [] },
      [{ name: 'gone', reason: 'File not found' }],
    );
    assert.strictEqual(words.message, 'Downloaded 2 files (2.0 KB); 8 failed.');
    assert.strictEqual(words.failed, 8);
    assert.deepStrictEqual(words.detail.split('\n'), [
      'To /data',
      'Skipped: 1 file (already there with the same size, or by your choice).',
      'gone: File not found',
      'run/f0.bam: The file is no longer on the platform.',
      'run/f1.bam: The file is no longer on the platform.',
      'run/f2.bam: The file is no longer on the platform.',
      'run/f3.bam: The file is no longer on the platform.',
      '… and 3 more',
    ]);
    assert.strictEqual(downloadSummaryWords({ target: '/d', cancelled: true, saved: [], bytes: 0, skipped: [], failed: [], retry: [] }).message, 'Download cancelled: 0 files saved (0 B).');
    assert.strictEqual(downloadSummaryWords({ target: '/d', cancelled: false, saved: ['/d/a'], bytes: 1, skipped: [], failed: [], retry: [] }).message, 'Downloaded 1 file (1 B).');
  });
});
