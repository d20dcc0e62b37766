import * as assert from 'assert';
import type { FileRecord, Project } from '../../../src/api/types';
import type { StorageRead } from '../../../src/api/storage';
import { NotFoundError, RemoteFiles } from '../../../src/remote/remoteFiles';
import { FakeFiles, fileId } from '../../support/fakeFiles';

const project: Project = { href: '', id: 'rfranklin/my-project', name: 'My Project', root_folder: fileId(1) } as Project;
const rec = (n: number, name: string, parent: number, type: 'file' | 'folder', size?: number): FileRecord => ({
  href: '',
  id: fileId(n),
  name,
  parent: fileId(parent),
  project: project.id,
  type,
  ...(size !== undefined ? { size } : {}),
});

function setup(records: FileRecord[]) {
  const fake = new FakeFiles([project], records);
  const reads: string[] = [];
  const remote = new RemoteFiles({
    list: (location, page) => fake.files.list(location, page),
    get: (id) => fake.files.get(id),
    project: async (id) => {
      fake.calls.push(`project ${id}`);
      if (id !== project.id) throw new Error(`no project ${id}`);
      return project;
    },
    downloadInfo: async (id) => {
      fake.calls.push(`download_info ${id}`);
      return `https://storage.example/${id}?X-Amz-Signature=secret`;
    },
    storage: {
      read: async (url: string, range: unknown): Promise<StorageRead> => {
        reads.push(`${url.split('?')[0]} ${JSON.stringify(range)}`);
        const text = Buffer.from(`the text of ${url.split('/').pop()!.split('?')[0]}\n`);
        return { status: 200, start: 0, size: text.length, length: text.length, etag: undefined, body: [text] as unknown as AsyncIterable<Buffer> };
      },
    },
  });
  return { fake, remote, reads };
}

const tree = () => [rec(2, 'samples', 1, 'folder'), rec(3, 'qc', 2, 'folder'), rec(4, 'metrics.tsv', 3, 'file', 8000), rec(5, 'README.txt', 2, 'file', 1200), rec(6, 'top.txt', 1, 'file', 10)];

describe('remote/remoteFiles: the platform read as a file system', () => {
  it('finds a path one name-narrowed listing per level, the root from the project', async () => {
    const { fake, remote } = setup(tree());
    const entry = await remote.entry('/rfranklin/my-project/samples/qc/metrics.tsv');
    assert.strictEqual(entry.id, fileId(4));
    assert.deepStrictEqual(fake.calls, [
      'project rfranklin/my-project',
      'files rfranklin/my-project name=samples 0+1',
      `files ${fileId(2)} name=qc 0+1`,
      `files ${fileId(3)} name=metrics.tsv 0+1`,
    ]);
    // Read once: a second look, and a look at a folder on the way, cost nothing.
    await remote.entry('/rfranklin/my-project/samples/qc/metrics.tsv');
    await remote.entry('/rfranklin/my-project/samples');
    assert.strictEqual(fake.calls.length, 4);
  });

  it('says a missing name is not there (not found), and a path through a file is refused', async () => {
    const { remote } = setup(tree());
    await assert.rejects(remote.entry('/rfranklin/my-project/samples/gone.txt'), (e: unknown) => e instanceof NotFoundError && /gone\.txt is not there/.test((e as Error).message));
    await assert.rejects(remote.entry('/rfranklin/my-project/top.txt/x'), (e: unknown) => e instanceof NotFoundError && /top\.txt is a file, not a folder/.test((e as Error).message));
    await assert.rejects(remote.entry('/rfranklin'), NotFoundError);
  });

  it('finds the path of a file from its ID: its record, then each folder up to the root', async () => {
    const { fake, remote } = setup(tree());
    assert.deepStrictEqual(await remote.pathOf(fileId(4)), { project: project.id, names: ['samples', 'qc', 'metrics.tsv'] });
    assert.deepStrictEqual(fake.calls, [`get ${fileId(4)}`, 'project rfranklin/my-project', `get ${fileId(3)}`, `get ${fileId(2)}`]);
    // The path found is remembered: opening it reads no listing.
    await remote.entry('/rfranklin/my-project/samples/qc/metrics.tsv');
    assert.strictEqual(fake.calls.length, 4);
    assert.deepStrictEqual(await remote.pathOf(fileId(6)), { project: project.id, names: ['top.txt'] });
  });

  it('lists a folder whole, page by page, and knows its entries after', async () => {
    const many = [rec(2, 'big', 1, 'folder'), ...Array.from({ length: 250 }, (_, i) => rec(100 + i, `f${i}.txt`, 2, 'file', i))];
    const { fake, remote } = setup(many);
    const listed = await remote.list('/rfranklin/my-project/big');
    assert.strictEqual(listed.length, 250);
    assert.deepStrictEqual(fake.calls.slice(-3), [`files ${fileId(2)} 0+100`, `files ${fileId(2)} 100+100`, `files ${fileId(2)} 200+100`]);
    const before = fake.calls.length;
    assert.strictEqual((await remote.entry('/rfranklin/my-project/big/f249.txt')).id, fileId(349));
    assert.strictEqual(fake.calls.length, before);
    assert.deepStrictEqual((await remote.list('/rfranklin/my-project')).map((r) => r.name), ['big']);
  });

  it('reads a file once through its signed URL, and again whole once asked', async () => {
    const { fake, remote, reads } = setup(tree());
    const path = '/rfranklin/my-project/samples/README.txt';
    assert.strictEqual((await remote.content(path, false)).bytes.toString(), `the text of ${fileId(5)}\n`);
    await remote.content(path, false);
    assert.strictEqual(fake.calls.filter((c) => c.startsWith('download_info')).length, 1);
    assert.strictEqual(await remote.isPartial(path), false);
    await remote.content(path, true);
    await remote.content(path, true);
    assert.strictEqual(reads.length, 2);
  });

  it('a folder has no content, and a failure is not kept: the next read tries again', async () => {
    const { remote, fake } = setup(tree());
    await assert.rejects(remote.content('/rfranklin/my-project/samples', false), /is a folder/);
    await assert.rejects(remote.entry('/rfranklin/my-project/late.txt'), NotFoundError);
    fake.records.push(rec(7, 'late.txt', 1, 'file', 5));
    assert.strictEqual((await remote.entry('/rfranklin/my-project/late.txt')).id, fileId(7));
  });
});
