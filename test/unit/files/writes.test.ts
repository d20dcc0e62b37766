import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { FileLocation } from '../../../src/api/files';
import type { AsyncJob, FileRecord, Page } from '../../../src/api/types';
import { folderContents } from '../../../src/files/folderContents';
import { deleteQuestion } from '../../../src/files/deleteQuestion';
import { asyncDeleteWrite, deleteWrite, matchDelete, planDelete } from '../../../src/files/deleteWrites';
import { doneWhat, refusal, type ManagedItem } from '../../../src/files/managedItems';
import { metadataWrite, parseMetadata } from '../../../src/files/metadataWrite';
import { asyncMoveWrite } from '../../../src/files/moveWrites';
import { renameWrite } from '../../../src/files/renameWrite';
import { checkedTags, planTags, tagProblem, tagsInUse, tagsWrite } from '../../../src/files/tagsWrites';
import type { FilesWriteApi } from '../../../src/files/writeParts';
import type { WriteRecord } from '../../../src/write/outbox';
import { fileId } from '../../support/fakeFiles';

const GB = 1024 ** 3;
const rec = (n: number, name: string, size?: number, type: 'file' | 'folder' = 'file'): FileRecord => ({ href: '', id: fileId(n), name, type, ...(size !== undefined ? { size } : {}) });
const item = (n: number, extra: Partial<ManagedItem> = {}): ManagedItem => ({ id: fileId(n), name: `f${n}.bam`, folder: false, project: 'me/p', writable: true, ...extra });
const credentials = { endpoint: 'http://x/v2', token: 't' };
const record = <P>(payload: P): WriteRecord<P, undefined, never> => ({ payload } as unknown as WriteRecord<P, undefined, never>);

/** One file's record as the platform holds it (or none: 404). */
function platform(file: Partial<FileRecord> | undefined): FilesWriteApi {
  const get = async (): Promise<FileRecord> => {
    if (!file) throw new ApiError({ kind: 'http', status: 404, message: 'gone' });
    return { href: '', id: fileId(1), name: 'x', ...file };
  };
  return { get } as unknown as FilesWriteApi;
}

describe('managing files: the planners', () => {
  it('the delete question gives counts and the total size, and says it cannot be undone', () => {
    const items = [item(1, { folder: true, name: 'a' }), item(2, { folder: true, name: 'b' }), item(3, { folder: true, name: 'c' }), ...Array.from({ length: 214 }, (_, i) => item(10 + i, { size: (38.2 * GB) / 214 }))];
    assert.strictEqual(deleteQuestion(items), 'Delete 3 folders and 214 files, 38 GB? Everything in the folders goes too. This cannot be undone.');
    assert.strictEqual(deleteQuestion([item(1, { size: 5 * 1024 * 1024 })]), 'Delete "f1.bam", 5.0 MB? This cannot be undone.');
    assert.strictEqual(deleteQuestion([item(1, { folder: true, name: 'reads' })]), 'Delete "reads"? Everything in the folder goes too. This cannot be undone.');
    assert.strictEqual(deleteQuestion([item(1, { folder: true, name: 'reads' }), item(2)]), 'Delete 1 folder and 1 file? Everything in the folder goes too. This cannot be undone.');
    assert.strictEqual(deleteQuestion([item(1), item(2)]), 'Delete 2 files? This cannot be undone.');
  });

  it('the question for one folder says what is in it, counted first: files, folders, size; empty; or more than it counted (#44)', async () => {
    const reads = [item(1, { folder: true, name: 'reads' })];
    // reads/: 2 files of 1 KB and sub/ (1 file of 2 KB, and 150 files of nothing in sub/deep/).
    const tree: Record<string, FileRecord[]> = {
      [fileId(1)]: [rec(2, 'a.fq', 1024), rec(3, 'b.fq', 1024), rec(4, 'sub', undefined, 'folder')],
      [fileId(4)]: [rec(5, 'c.fq', 2048), rec(6, 'deep', undefined, 'folder')],
      [fileId(6)]: Array.from({ length: 150 }, (_, i) => rec(100 + i, `r${i}.fq`, 0)),
    };
    const requests: string[] = [];
    const source = {
      list: async (location: FileLocation, page: { offset?: number; limit?: number }): Promise<Page<FileRecord>> => {
        const parent = 'parent' in location ? location.parent : '';
        requests.push(`${parent} ${page.offset}`);
        const all = tree[parent] ?? [];
        return { items: all.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? 100)), total: all.length, next: undefined };
      },
    };
    const inside = await folderContents(source, fileId(1));
    assert.deepStrictEqual(inside, { files: 153, folders: 2, bytes: 4096, complete: true });
    assert.deepStrictEqual(requests, [`${fileId(1)} 0`, `${fileId(4)} 0`, `${fileId(6)} 0`, `${fileId(6)} 100`]);
    assert.strictEqual(deleteQuestion(reads, inside), 'Delete "reads" and everything in it (153 files in 2 folders, 4.0 KB)? This cannot be undone.');
    assert.strictEqual(deleteQuestion(reads, { files: 0, folders: 0, bytes: 0, complete: true }), 'Delete "reads"? It is empty. This cannot be undone.');
    assert.strictEqual(deleteQuestion(reads, await folderContents(source, fileId(1), 100)), 'Delete "reads" and everything in it (more than 1,000 files and folders)? This cannot be undone.');
  });

  it('says what a move or a delete was done to: the one item by its name, files as files, else items', () => {
    assert.strictEqual(doneWhat(1, [item(1)]), '"f1.bam"');
    assert.strictEqual(doneWhat(2, [item(1), item(2)]), '2 files');
    assert.strictEqual(doneWhat(1, [item(1), item(2)]), '1 file');
    assert.strictEqual(doneWhat(3, [item(1, { folder: true, name: 'reads' }), item(2), item(3)]), '3 items');
    assert.strictEqual(doneWhat(1_200, Array.from({ length: 1_200 }, (_, i) => item(i + 1))), '1,200 files');
  });

  it('Edit Tags…: a new tag typed is checked as it appears (Enter adds it); a bad one is not; what was checked stays checked', () => {
    assert.deepStrictEqual(checkedTags(['batch-7', 'tumor', 'normal'], ['tumor'], 'batch-7'), ['batch-7', 'tumor']);
    assert.deepStrictEqual(checkedTags(['tumor', 'normal'], ['tumor'], undefined), ['tumor']);
    assert.deepStrictEqual(checkedTags(['a,b', 'tumor'], [], 'a,b'), []);
    // Typing on: the tag typed before is no longer offered, the one typed now is checked.
    assert.deepStrictEqual(checkedTags(['batch-77', 'tumor'], ['batch-7', 'tumor'], 'batch-77'), ['batch-77', 'tumor']);
  });

  it('one file goes by the single call; several items or a folder by the async delete, 100 a call (250: 3 calls)', () => {
    assert.deepStrictEqual(planDelete([item(1)]), { single: item(1) });
    const folder = planDelete([item(1, { folder: true })]);
    assert.ok('jobs' in folder && folder.jobs.length === 1);
    const many = planDelete(Array.from({ length: 250 }, (_, i) => item(i + 1)));
    assert.ok('jobs' in many);
    assert.deepStrictEqual(many.jobs.map((j) => j.items.length), [100, 100, 50]);
    assert.strictEqual(many.jobs[2].items[49].file, fileId(250));
    assert.strictEqual(many.jobs[1].names[fileId(101)], 'f101.bam');
  });

  it('refuses a project\'s root folder and a read-only project before anything is sent', () => {
    assert.strictEqual(refusal([item(1), item(2, { name: 'root' })], new Set([fileId(2)])), '"root" is a project\'s root folder: it cannot be deleted, renamed or moved.');
    assert.strictEqual(refusal([item(1, { writable: false, project: 'me/ro' })], new Set()), 'me/ro is read only: nothing in it can be changed.');
    assert.strictEqual(refusal([item(1)], new Set([fileId(9)])), undefined);
  });

  it('tag edits across a selection: added where missing, removed where present, files left unchanged not sent', () => {
    const files = [
      { id: 'a', name: 'a', tags: ['tumor', 'qc'] },
      { id: 'b', name: 'b', tags: ['normal'] },
      { id: 'c', name: 'c', tags: ['tumor', 'rna'] },
    ];
    // Each with its list before the change: a lookup after a lost answer tells "not done" from someone else's change.
    assert.deepStrictEqual(planTags(files, ['rna'], ['qc']), [
      { id: 'a', name: 'a', tags: ['tumor', 'rna'], before: ['tumor', 'qc'] },
      { id: 'b', name: 'b', tags: ['normal', 'rna'], before: ['normal'] },
    ]);
    assert.deepStrictEqual(planTags(files, [], ['nowhere']), []);
    assert.deepStrictEqual(tagsInUse(files), [
      { tag: 'tumor', files: 2 },
      { tag: 'normal', files: 1 },
      { tag: 'qc', files: 1 },
      { tag: 'rna', files: 1 },
    ]);
  });

  it('a tag with a comma, or empty, is refused in words', () => {
    assert.strictEqual(tagProblem('tumor,normal'), 'A tag cannot contain a comma ("tumor,normal"): add each tag on its own.');
    assert.strictEqual(tagProblem('  '), 'A tag cannot be empty.');
    assert.strictEqual(tagProblem('tumor normal'), undefined);
  });

  it('a delete job answers for a call only by its results: each deleted record one of the items', () => {
    const payload = { items: [{ file: fileId(1) }, { file: fileId(2) }], names: {} };
    const job = (result: AsyncJob['result'], state = 'FINISHED'): AsyncJob => ({ id: '1', state, result });
    const gone = (n: number) => ({ resource: { href: '', id: fileId(n), name: '' } });
    assert.strictEqual(matchDelete(payload, job([gone(1), gone(2)])), 'yes');
    assert.strictEqual(matchDelete(payload, job([gone(1), { error: { status: 404 } }])), 'yes');
    assert.strictEqual(matchDelete(payload, job([gone(1), gone(3)])), 'no');
    assert.strictEqual(matchDelete(payload, job([gone(1)], 'RUNNING')), 'maybe');
    assert.strictEqual(matchDelete(payload, job([], 'SUBMITTED')), 'maybe');
    assert.strictEqual(matchDelete(payload, job([gone(1), gone(2), gone(2)])), 'no');
  });
});

describe('managing files: metadata saved as JSON', () => {
  it('reads an object of text values; null or left out removes a field; anything else is said in words', () => {
    assert.deepStrictEqual(parseMetadata('{"sample_id": "S1", "old": null}'), { metadata: { sample_id: 'S1' } });
    assert.match((parseMetadata('{"sample_id": "S1",}') as { problem: string }).problem, /^The metadata is not JSON: /);
    assert.deepStrictEqual(parseMetadata('["a"]'), { problem: 'The metadata is a JSON object of fields and their values, as {"sample_id": "S1"}.' });
    assert.deepStrictEqual(parseMetadata('{"depth": 30}'), { problem: 'The value of "depth" is not text: put it in quotes ("30").' });
    assert.deepStrictEqual(parseMetadata('{"": "x"}'), { problem: 'A metadata field needs a name.' });
    assert.match((parseMetadata(JSON.stringify({ k: 'v'.repeat(301) })) as { problem: string }).problem, /is 301 bytes long; at most 300/);
  });

  it('a replaced set is done when the platform holds exactly it; the set from before: not done; any other: someone else\'s change', async () => {
    const kind = (now: Record<string, unknown>) => metadataWrite({ metadata: async () => now } as unknown as Parameters<typeof metadataWrite>[0]);
    const read = async (payload: object, now: Record<string, unknown>) => {
      const identity = kind(now).identity;
      assert.ok(identity.by === 'state');
      return identity.read(record(payload as never), credentials);
    };
    const changed = { changed: 'Its metadata is neither what it was nor what was saved: someone else changed it since.' };
    const replace = { id: fileId(1), name: 'a.bam', metadata: { sample_id: 'S1' }, before: { sample_id: 'S0' } };
    assert.ok('found' in (await read(replace, { sample_id: 'S1' })));
    assert.deepStrictEqual(await read(replace, { sample_id: 'S0' }), { absent: 'Its metadata is not changed yet.' });
    assert.deepStrictEqual(await read(replace, { sample_id: 'S1', platform: 'ONT' }), changed);
    // A PUT that adds a field: while only the old fields show, it is not done (sent again), not taken as done.
    const adding = { id: fileId(1), name: 'a.bam', metadata: { sample_id: 'S1', platform: 'ONT' }, before: { sample_id: 'S1' } };
    assert.deepStrictEqual(await read(adding, { sample_id: 'S1' }), { absent: 'Its metadata is not changed yet.' });
    assert.ok('found' in (await read(adding, { platform: 'ONT', sample_id: 'S1' })));
    // A record of an older version (no set from before): only the set asked proves anything.
    assert.deepStrictEqual(await read({ id: fileId(1), name: 'a.bam', metadata: { sample_id: 'S1' } }, { sample_id: 'S0' }), changed);
  });
});

describe('managing files: the identity rules by state', () => {
  it('a rename is done when the record has the new name; still the old name: not done; a third name or gone: someone else\'s, the person decides', async () => {
    const payload = { id: fileId(1), name: 'new.bam', oldName: 'old.bam' };
    const read = (file: Partial<FileRecord> | undefined) => {
      const identity = renameWrite(platform(file)).identity;
      assert.ok(identity.by === 'state');
      return identity.read(record(payload), credentials);
    };
    assert.ok('found' in (await read({ name: 'new.bam' })));
    assert.deepStrictEqual(await read({ name: 'old.bam' }), { absent: 'It is still named "old.bam".' });
    assert.deepStrictEqual(await read({ name: 'third.bam' }), { changed: 'It is named "third.bam" now: someone else renamed it since.' });
    assert.deepStrictEqual(await read(undefined), { changed: '"old.bam" is no longer there.' });
  });

  it('tags are done when the record has the same tags (in any order); still the list from before: not done; another list: someone else\'s', async () => {
    const identity = (tags: string[]) => tagsWrite(platform({ tags })).identity;
    const payload = { id: fileId(1), name: 'a', tags: ['x', 'y'], before: ['x'] };
    const read = async (tags: string[], asked: object = payload) => {
      const id = identity(tags);
      assert.ok(id.by === 'state');
      return id.read(record(asked as never), credentials);
    };
    assert.deepStrictEqual(await read(['y', 'x']), { found: ['y', 'x'] });
    assert.deepStrictEqual(await read(['x']), { absent: 'Its tags are not changed yet.' });
    assert.deepStrictEqual(await read(['x', 'z']), { changed: 'Its tags are "x", "z" now: someone else changed them since.' });
    assert.deepStrictEqual(await read([]), { changed: 'It has no tags now: someone else removed them since.' });
  });

  it('a delete is done when the file answers 404; a 404 after an ambiguous try counts as done', async () => {
    const payload = { id: fileId(1), name: 'a.bam' };
    const gone = deleteWrite(platform(undefined));
    const there = deleteWrite(platform({}));
    assert.ok(gone.identity.by === 'state' && there.identity.by === 'state');
    assert.deepStrictEqual(await gone.identity.read(record(payload), credentials), { found: { id: fileId(1) } });
    assert.deepStrictEqual(await there.identity.read(record(payload), credentials), { absent: '"a.bam" is still there.' });
    assert.deepStrictEqual(gone.doneBy!(new ApiError({ kind: 'http', status: 404, message: 'gone' }), record(payload)), { id: fileId(1) });
    assert.strictEqual(gone.doneBy!(new ApiError({ kind: 'http', status: 403, message: 'no' }), record(payload)), undefined);
    // Never sent twice: looked up through the late window before any resend (the outbox's rule for a destructive kind).
    assert.strictEqual(gone.destructive, true);
  });

  it('what is read back of the deletes and moves is checked: a job without its ID, a deleted record without one, is damaged', () => {
    const jobs = { submit: async () => ({ id: '1' }), get: async () => ({ id: '1' }), list: async () => ({ items: [], total: 0, next: undefined }) } as never;
    const parts = { jobs, tracker: undefined as never, serverNow: () => 0, clock: { monotonic: () => 0 } };
    for (const kind of [asyncDeleteWrite(parts), asyncMoveWrite(parts)]) {
      assert.deepStrictEqual([null, {}, 'job', { id: 7 }, { id: '1', result: 'x' }].map((o) => kind.isOutcome!(o)), [false, false, false, false, false], kind.name);
      assert.strictEqual(kind.isOutcome!({ id: '70711174378885120', state: 'FINISHED', result: [] }), true);
    }
    assert.deepStrictEqual([null, {}, { id: fileId(1) }].map((o) => deleteWrite(platform({})).isOutcome!(o)), [false, false, true]);
  });
});
