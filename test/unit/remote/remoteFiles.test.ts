import * as assert from 'assert';
import type { FileRecord, Page, Project } from '../../../src/api/types';
import type { StorageRead } from '../../../src/api/storage';
import { MAX_FOLDER_ENTRIES, NotFoundError, RemoteFiles, type RemoteFilesOptions, type RemoteSource } from '../../../src/remote/remoteFiles';
import { ReadRefused } from '../../../src/remote/fileKinds';
import { contentReader } from '../../../src/remote/preview';
import { FakeFiles, fileId } from '../../support/fakeFiles';

const MB = 1024 * 1024;
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

/** What the storage holds of a file: the text of its ID, or `size` bytes of it when the record has a size over 1 MB. */
function bytesOf(records: FileRecord[], id: string): Buffer {
  const size = records.find((r) => r.id === id)?.size ?? 0;
  const text = Buffer.from(`the text of ${id}\n`);
  return size > 1024 * 1024 ? Buffer.alloc(size, text) : text;
}

function setup(records: FileRecord[], options: RemoteFilesOptions = {}, list?: RemoteSource['list']) {
  const fake = new FakeFiles([project], records);
  const reads: string[] = [];
  const remote = new RemoteFiles(
    {
      list: list ?? ((location, page) => fake.files.list(location, page)),
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
      reader: async () => contentReader({
        read: async (url: string, range: unknown): Promise<StorageRead> => {
          reads.push(`${url.split('?')[0]} ${JSON.stringify(range)}`);
          const all = bytesOf(records, url.split('/').pop()!.split('?')[0]);
          const asked = range as { start: number; end?: number } | undefined;
          const bytes = asked ? all.subarray(asked.start, asked.end === undefined ? undefined : asked.end + 1) : all;
          return { status: asked ? 206 : 200, start: asked?.start ?? 0, size: all.length, length: bytes.length, etag: undefined, body: [bytes] as unknown as AsyncIterable<Buffer> };
        },
      }),
    },
    options,
  );
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

  it('reads a file once through its signed URL; a head that held all of it is the whole file too', async () => {
    const { fake, remote, reads } = setup(tree());
    const path = '/rfranklin/my-project/samples/README.txt';
    assert.strictEqual((await remote.content(path, 'head')).bytes.toString(), `the text of ${fileId(5)}\n`);
    await remote.content(path, 'head');
    assert.strictEqual(fake.calls.filter((c) => c.startsWith('download_info')).length, 1);
    assert.strictEqual((await remote.content(path, 'file')).partial, false);
    assert.strictEqual(reads.length, 1);
  });

  it('the file is its whole bytes and its real size; its head is its first 1 MB', async () => {
    const { remote, reads } = setup([...tree(), rec(7, 'big.tsv', 1, 'file', 3 * MB)]);
    const path = '/rfranklin/my-project/big.tsv';
    assert.deepStrictEqual([await remote.sizeOf(path, 'file'), await remote.sizeOf(path, 'head')], [3 * MB, MB]);
    const whole = await remote.content(path, 'file');
    assert.ok(whole.bytes.equals(bytesOf([rec(7, 'big.tsv', 1, 'file', 3 * MB)], fileId(7))), 'the whole file, byte for byte');
    const head = await remote.content(path, 'head');
    assert.strictEqual(head.partial, true);
    assert.ok(head.bytes.length <= MB);
    assert.deepStrictEqual(reads, [`https://storage.example/${fileId(7)} undefined`, `https://storage.example/${fileId(7)} {"start":0,"end":${MB - 1}}`]);
  });

  it('keeps what it read up to 64 MB, the least recently read let go first (40 files of 8 MB read whole)', async () => {
    const files = Array.from({ length: 40 }, (_, i) => rec(100 + i, `f${i}.bin`, 1, 'file', 8 * MB));
    const { remote, reads } = setup(files);
    for (let i = 0; i < 40; i++) {
      await remote.content(`/rfranklin/my-project/f${i}.bin`, 'file');
      assert.ok(remote.cachedBytes <= 64 * MB, `${remote.cachedBytes} bytes kept after ${i + 1} files`);
    }
    assert.strictEqual(remote.cachedBytes, 64 * MB);
    const before = reads.length;
    await remote.content('/rfranklin/my-project/f39.bin', 'file');
    assert.strictEqual(reads.length, before, 'the last read is kept');
    await remote.content('/rfranklin/my-project/f0.bin', 'file');
    assert.strictEqual(reads.length, before + 1, 'the first was let go: read again');
  });

  it('a folder has no content, and a failure is not kept: the next read tries again', async () => {
    const { remote, fake } = setup(tree());
    await assert.rejects(remote.content('/rfranklin/my-project/samples', 'file'), /is a folder/);
    await assert.rejects(remote.entry('/rfranklin/my-project/late.txt'), NotFoundError);
    fake.records.push(rec(7, 'late.txt', 1, 'file', 5));
    assert.strictEqual((await remote.entry('/rfranklin/my-project/late.txt')).id, fileId(7));
  });

  describe('walks that would not end', () => {
    const page = (items: FileRecord[], total?: number): Page<FileRecord> => ({ items, total, next: undefined });

    it('a listing that never ends (a full page each time, new entries for ever) is refused at 10,000 entries, in words', async () => {
      let asked = 0;
      const { remote } = setup(tree(), {}, async (location, p) => {
        if (!('parent' in location) || p.name !== undefined) throw new Error('only the folder is listed');
        if (++asked > 200) throw new Error('read on past 20,000 entries');
        return page(Array.from({ length: 100 }, (_, i) => rec(1_000_000 + (p.offset ?? 0) + i, `e${(p.offset ?? 0) + i}`, 2, 'file', 1)));
      });
      remote.remember({ project: project.id, names: ['samples'] }, rec(2, 'samples', 1, 'folder'));
      await assert.rejects(remote.list('/rfranklin/my-project/samples'), (e: unknown) => e instanceof ReadRefused && /lists more than 10,000 entries/.test((e as Error).message));
      assert.strictEqual(asked, MAX_FOLDER_ENTRIES / 100);
    });

    it('a listing that gives the same page again is refused after that page, not read for ever', async () => {
      let asked = 0;
      const same = Array.from({ length: 100 }, (_, i) => rec(2000 + i, `e${i}`, 2, 'file', 1));
      const { remote } = setup(tree(), {}, async () => {
        if (++asked > 10) throw new Error('the same page read 10 times');
        return page(same, 1_000_000);
      });
      remote.remember({ project: project.id, names: ['samples'] }, rec(2, 'samples', 1, 'folder'));
      await assert.rejects(remote.list('/rfranklin/my-project/samples'), (e: unknown) => e instanceof ReadRefused && /listed the same entries of \/rfranklin\/my-project\/samples again after 100/.test((e as Error).message));
      assert.strictEqual(asked, 2);
    });

    it('a folder that lists itself, or a folder above it, is left out of its listing (said once) and its path not followed', async () => {
      const told: string[] = [];
      // samples lists itself; qc (inside samples) lists samples.
      const loops = [...tree(), { ...rec(2, 'samples', 2, 'folder') }, { ...rec(2, 'again', 3, 'folder') }];
      const { remote } = setup(loops, { onWalkStopped: (words) => told.push(words) });
      assert.deepStrictEqual((await remote.list('/rfranklin/my-project/samples')).map((r) => r.name).sort(), ['README.txt', 'qc']);
      assert.deepStrictEqual((await remote.list('/rfranklin/my-project/samples/qc')).map((r) => r.name), ['metrics.tsv']);
      await remote.list('/rfranklin/my-project/samples');
      assert.deepStrictEqual(told, [
        '/rfranklin/my-project/samples lists samples inside itself (a loop on the platform): left out there.',
        '/rfranklin/my-project/samples/qc lists again inside itself (a loop on the platform): left out there.',
      ]);
      await assert.rejects(remote.entry('/rfranklin/my-project/samples/qc/again'), (e: unknown) => e instanceof NotFoundError && /a folder above it again/.test((e as Error).message));
    });

    it('a path deeper than 64 folders is refused before anything is read', async () => {
      const { remote, fake } = setup(tree());
      const deep = `/rfranklin/my-project/${Array.from({ length: 65 }, () => 'd').join('/')}`;
      await assert.rejects(remote.entry(deep), (e: unknown) => e instanceof NotFoundError && /goes deeper than 64 folders/.test((e as Error).message));
      assert.deepStrictEqual(fake.calls, []);
    });
  });
});
