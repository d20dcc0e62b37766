import * as assert from 'assert';
import { downloadSummaryWords, uploadSummaryWords } from '../../../src/remote/transferWords';
import type { UploadSummary } from '../../../src/transfer/upload';

describe('remote/transferWords: what a download says', () => {
  it('summary: saved and bytes; skipped; failures by name with why, the first five, then how many more', () => {
    const failed = Array.from({ length: 7 }, (_, i) => ({ item: { fileId: String(i), relativePath: `run/f${i}.bam` }, reason: 'The file is no longer on the platform.' }));
    const words = downloadSummaryWords(
      { target: '/data', cancelled: false, saved: ['/data/a', '/data/b'], bytes: 2048, skipped: [{ item: { fileId: 'x', relativePath: 'x' }, path: '/data/x', reason: '' }], failed, retry: [], kept: [] },
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
    assert.strictEqual(downloadSummaryWords({ target: '/d', cancelled: true, saved: [], bytes: 0, skipped: [], failed: [], retry: [], kept: [] }).message, 'Download cancelled: 0 files saved (0 B).');
    assert.strictEqual(downloadSummaryWords({ target: '/d', cancelled: false, saved: ['/d/a'], bytes: 1, skipped: [], failed: [], retry: [], kept: [] }).message, 'Downloaded 1 file (1 B).');
  });

  it('a Cancel that left .part files says what is kept, to resume or discard (#44)', () => {
    const kept = [{ partPath: '/d/big.bam.part', bytes: 100 * 1024 * 1024, size: 200 * 1024 * 1024 }, { partPath: '/d/run/b.bam.part', bytes: 5 * 1024 * 1024, size: 6 * 1024 * 1024 }];
    const words = downloadSummaryWords({ target: '/d', cancelled: true, saved: ['/d/a'], bytes: 105 * 1024 * 1024, skipped: [], failed: [], retry: [], kept });
    assert.strictEqual(words.message, 'Download cancelled: 1 file saved; 2 files begun kept to resume (105 MB on disk).');
  });

  it('upload summary: the links left out by name (a link may lead to a file not meant to leave the machine), names taken, failures counted once', () => {
    const base: UploadSummary = { cancelled: false, uploaded: [], bytes: 3000, skipped: [], links: [], failed: [], retry: undefined };
    const file = { id: 'f', name: 'a.txt' } as UploadSummary['uploaded'][number]['file'];
    assert.deepStrictEqual(uploadSummaryWords({ ...base, uploaded: [{ localPath: '/up/a.txt', file }] }, 'my-project'), { message: 'Uploaded 1 file (2.9 KB) to my-project.', failed: 0 });
    const links = ['/up/id_rsa', '/up/sub/shared', '/up/1', '/up/2', '/up/3', '/up/4'];
    const words = uploadSummaryWords({ ...base, links, skipped: [{ localPath: '/up/b.txt', reason: '' }], failed: [{ localPath: '/up/c.bin', reason: 'Permission denied: cannot read /up/c.bin.' }] }, 'my-project');
    assert.strictEqual(
      words.message,
      'Uploaded 0 files (2.9 KB) to my-project; 1 failed. Not uploaded: 6 links inside the folders, not followed (id_rsa, shared, 1, 2, 3, … and 1 more). To upload what a link leads to, choose that itself. Skipped: 1 file (the name was taken). c.bin: Permission denied: cannot read /up/c.bin.',
    );
    assert.strictEqual(words.failed, 1);
    assert.match(uploadSummaryWords({ ...base, links: ['/up/id_rsa'] }, 'p').message, /Not uploaded: 1 link inside the folders, not followed \(id_rsa\)/);
  });
});
