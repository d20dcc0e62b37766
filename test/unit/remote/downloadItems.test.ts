import * as assert from 'assert';
import type { FileRecord, Project } from '../../../src/api/types';
import { collectItems, taskOutputRefs } from '../../../src/remote/downloadItems';
import { FakeFiles, fileId } from '../../support/fakeFiles';

const project = { href: '', id: 'rfranklin/p', name: 'p', root_folder: fileId(1) } as Project;
const rec = (n: number, name: string, parent: number, type: 'file' | 'folder', size?: number): FileRecord => ({ href: '', id: fileId(n), name, parent: fileId(parent), project: project.id, type, size });

describe('remote/downloadItems: what Download… fetches, and where each file lands', () => {
  it('walks folders to their last file, every page, keeping the remote layout', async () => {
    const records = [rec(2, 'run', 1, 'folder'), rec(3, 'qc', 2, 'folder'), rec(4, 'm.tsv', 3, 'file', 8), rec(5, 'a.bam', 2, 'file', 100), ...Array.from({ length: 120 }, (_, i) => rec(1000 + i, `x${i}.txt`, 3, 'file', i))];
    const fake = new FakeFiles([project], records);
    const { items, problems } = await collectItems(fake.files, [{ id: fileId(2), name: 'run', folder: true }]);
    assert.deepStrictEqual(problems, []);
    assert.strictEqual(items.length, 122);
    assert.deepStrictEqual(items.slice(0, 2), [
      { fileId: fileId(4), relativePath: 'run/qc/m.tsv', size: 8 },
      { fileId: fileId(1000), relativePath: 'run/qc/x0.txt', size: 0 },
    ]);
    assert.deepStrictEqual(items[items.length - 1], { fileId: fileId(5), relativePath: 'run/a.bam', size: 100 });
    assert.deepStrictEqual(fake.calls, [`files ${fileId(2)} 0+100`, `files ${fileId(3)} 0+100`, `files ${fileId(3)} 100+100`]);
  });

  it('reads a ref it knows nothing of; a file met twice is fetched once; what cannot be read is said, the rest goes on', async () => {
    const fake = new FakeFiles([project], [rec(4, 'one.txt', 1, 'file', 3)]);
    const { items, problems } = await collectItems(fake.files, [{ id: fileId(4) }, { id: fileId(4), name: 'one.txt', folder: false }, { id: fileId(9), name: 'gone.bam' }]);
    assert.deepStrictEqual(items, [{ fileId: fileId(4), relativePath: 'one.txt', size: 3 }]);
    assert.deepStrictEqual(problems, [{ name: 'gone.bam', reason: 'File not found (HTTP 404, code 5002).' }]);
  });

  it('takes a whole project under a folder of its name (one safe name on this platform), its top level listed by project', async () => {
    const fake = new FakeFiles([project], [rec(2, 'run', 1, 'folder'), rec(4, 'm.tsv', 2, 'file', 8), rec(5, 'top.txt', 1, 'file', 3)]);
    const { items, problems } = await collectItems(fake.files, [{ id: project.id, name: 'RNA: batch/12', wholeProject: true }], { platform: 'win32' });
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(items, [
      { fileId: fileId(4), relativePath: 'RNA_ batch_12/run/m.tsv', size: 8 },
      { fileId: fileId(5), relativePath: 'RNA_ batch_12/top.txt', size: 3 },
    ]);
    const posix = await collectItems(fake.files, [{ id: project.id, name: 'RNA: batch/12', wholeProject: true }], { platform: 'linux' });
    assert.deepStrictEqual(posix.items.map((i) => i.relativePath), ['RNA: batch_12/run/m.tsv', 'RNA: batch_12/top.txt'], 'a colon is a name on Linux; a slash never is');
  });

  it('puts each task\'s outputs under a folder of its name; two tasks of one name are told apart by ID', () => {
    const refs = taskOutputRefs(
      [
        { task: { id: 't1', name: 'Align: sample/1' }, outputs: [{ id: fileId(4), name: 'a.bam', folder: false }] },
        { task: { id: 't2', name: 'align: SAMPLE/1' }, outputs: [{ id: fileId(5), folder: true }] },
        { task: { id: 't3' }, outputs: [{ id: fileId(6), name: 'c.vcf', folder: false }] },
      ],
      'win32',
    );
    assert.deepStrictEqual(refs, [
      { id: fileId(4), name: 'a.bam', folder: false, under: 'Align_ sample_1' },
      { id: fileId(5), folder: true, under: 'align_ SAMPLE_1 (t2)' },
      { id: fileId(6), name: 'c.vcf', folder: false, under: 't3' },
    ]);
  });

});
