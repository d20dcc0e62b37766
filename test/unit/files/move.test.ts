import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { AsyncJob, BulkFileItem, FileRecord } from '../../../src/api/types';
import { clashWords, planClashes } from '../../../src/copy/clashes';
import type { CopyDestination } from '../../../src/copy/request';
import { dropChoices, uriListEntries } from '../../../src/files/dropChoice';
import { alreadyThere, folderChain, intoItself, moveQuestion, planMove, type MovingItem } from '../../../src/files/movePlan';
import { matchMove, moveWrite, type AsyncMovePayload, type MovePayload } from '../../../src/files/moveWrites';
import { bulkTagsWrite, planBulkTags, tagsNotTaken } from '../../../src/files/tagsWrites';
import type { FilesWriteApi } from '../../../src/files/writeParts';
import type { WriteRecord } from '../../../src/write/outbox';
import { fileId } from '../../support/fakeFiles';

const credentials = { endpoint: 'http://x/v2', token: 't' };
const record = <P>(payload: P): WriteRecord<P, undefined, never> => ({ payload } as unknown as WriteRecord<P, undefined, never>);
const item = (n: number, extra: Partial<MovingItem> = {}): MovingItem => ({ id: fileId(n), name: `f${n}.bam`, folder: false, project: 'me/p', writable: true, parent: fileId(900), ...extra });
const inFolder = (folder: string, project = 'me/p'): CopyDestination => ({ kind: project === 'me/p' ? 'sameProjectFolder' : 'otherProjectFolder', project, folder, path: ['reads'] });
const noClash = { renamed: [] };

describe('Move To…: the plan', () => {
  it('one file within its project, its name free there: the single move (the folder it leaves noted for the lookup)', () => {
    assert.deepStrictEqual(planMove([item(1)], inFolder(fileId(901)), noClash), {
      single: { id: fileId(1), name: 'f1.bam', from: fileId(900), to: fileId(901), label: 'me/p › reads' },
    });
  });

  it('a name taken there, a folder, another project, a project root not known by ID, several items: the async move', () => {
    const renamed = planMove([item(1)], inFolder(fileId(901)), planClashes([{ name: 'f1.bam', folder: false }], [{ name: 'f1.bam', folder: false }]));
    assert.ok('jobs' in renamed, 'a taken name: the single move would refuse it, the async move renames it as the preview says');
    assert.deepStrictEqual(renamed.jobs[0].items, [{ file: fileId(1), parent: fileId(901) }]);
    assert.ok('jobs' in planMove([item(1, { folder: true })], inFolder(fileId(901)), noClash));
    const across = planMove([item(1)], inFolder(fileId(901), 'me/q'), noClash);
    assert.ok('jobs' in across);
    assert.deepStrictEqual(across.jobs[0].destination, { label: 'me/q › reads', project: 'me/q', parent: fileId(901) });
    const root = planMove([item(1)], { kind: 'projectRoot', project: 'me/p' }, noClash);
    assert.ok('jobs' in root);
    assert.deepStrictEqual(root.jobs[0].items, [{ file: fileId(1), project: 'me/p' }]);
    assert.deepStrictEqual(planMove([item(1)], { kind: 'projectRoot', project: 'me/p', rootFolder: fileId(950) }, noClash), {
      single: { id: fileId(1), name: 'f1.bam', from: fileId(900), to: fileId(950), label: 'me/p' },
    });
  });

  it('250 items go as 3 calls of the async move (100 + 100 + 50), each with its own names', () => {
    const plan = planMove(Array.from({ length: 250 }, (_, i) => item(i + 1)), inFolder(fileId(901)), noClash);
    assert.ok('jobs' in plan);
    assert.deepStrictEqual(plan.jobs.map((j) => j.items.length), [100, 100, 50]);
    assert.strictEqual(plan.jobs[2].items[49].file, fileId(250));
    assert.deepStrictEqual(Object.keys(plan.jobs[1].sourceNames!).length, 100);
    assert.strictEqual(plan.jobs[1].sourceNames![fileId(101)], 'f101.bam');
  });

  it('a folder into itself or into one of its own subfolders is refused, in words; a folder beside it is not', () => {
    const folder = item(5, { folder: true, name: 'reads' });
    const dest = inFolder(fileId(5));
    assert.strictEqual(intoItself([folder], [fileId(5), fileId(950)], dest), 'The folder "reads" cannot be moved into itself.');
    assert.strictEqual(intoItself([item(1), folder], [fileId(7), fileId(5), fileId(950)], inFolder(fileId(7))), 'The folder "reads" cannot be moved into its own subfolder me/p › reads.');
    assert.strictEqual(intoItself([folder], [fileId(6), fileId(950)], inFolder(fileId(6))), undefined);
    assert.strictEqual(intoItself([item(5)], [fileId(5)], dest), undefined, 'a file is not a folder');
  });

  it('the folder chain is read upwards from the destination to the root', async () => {
    const parents: Record<string, string | undefined> = { [fileId(7)]: fileId(5), [fileId(5)]: fileId(950), [fileId(950)]: undefined };
    const files = { get: async (id: string) => ({ id, name: id, href: '', parent: parents[id] }) as FileRecord };
    assert.deepStrictEqual(await folderChain(files, inFolder(fileId(7))), [fileId(7), fileId(5), fileId(950)]);
    assert.deepStrictEqual(await folderChain(files, { kind: 'projectRoot', project: 'me/p' }), []);
  });

  it('items already in the destination are left out; the question names one item or counts them', () => {
    assert.deepStrictEqual(alreadyThere([item(1), item(2, { parent: fileId(901) })], inFolder(fileId(901))).map((i) => i.id), [fileId(2)]);
    assert.deepStrictEqual(alreadyThere([item(1, { parent: undefined })], inFolder(fileId(900))), [], 'where it is not known: sent, the platform leaves it');
    assert.strictEqual(moveQuestion([item(1)], inFolder(fileId(901))), 'Move "f1.bam" to me/p › reads?');
    assert.strictEqual(moveQuestion([item(1), item(2)], { kind: 'projectRoot', project: 'me/q' }), 'Move 2 items to me/q?');
  });

  it('the names a move takes are the copy\'s: a taken file name becomes 1_<name>, a folder is merged; an unfinished check asks "Move anyway?"', () => {
    const plan = planClashes(
      [{ name: 'a.bam', folder: false }, { name: 'reads', folder: true }],
      [{ name: 'a.bam', folder: false }, { name: '1_a.bam', folder: false }, { name: 'reads', folder: true }],
    );
    assert.deepStrictEqual(plan, { renamed: [{ from: 'a.bam', to: '2_a.bam', folder: false }], merged: ['reads'] });
    const lines = clashWords({ renamed: [], merged: [] }, { complete: false, problem: 'Timed out.' }, 'move');
    assert.match(lines[0], /Timed out\. Some items may arrive renamed or merged\. Move anyway\?$/);
  });
});

describe('a drop in Projects & Files', () => {
  it('offers Move first within one project, Copy first across projects or from several', () => {
    assert.deepStrictEqual(dropChoices(['me/p', 'me/p'], 'me/p'), ['move', 'copy']);
    assert.deepStrictEqual(dropChoices(['me/q'], 'me/p'), ['copy', 'move']);
    assert.deepStrictEqual(dropChoices(['me/p', 'me/q'], 'me/p'), ['copy', 'move']);
    assert.deepStrictEqual(dropChoices([undefined], 'me/p'), ['copy', 'move'], 'a project not known: the safe default');
  });

  it('reads a text/uri-list: one URI a line, comments and blank lines left out', () => {
    assert.deepStrictEqual(uriListEntries('# from the Explorer\r\nfile:///home/me/a.bam\r\n\r\nfile:///home/me/reads\n'), ['file:///home/me/a.bam', 'file:///home/me/reads']);
  });
});

describe('the move writes: identity rules', () => {
  const payload = { id: fileId(1), name: 'f1.bam', from: fileId(900), to: fileId(901), label: 'me/p › reads' };
  const at = (parent: string | undefined, name = 'f1.bam'): FilesWriteApi =>
    ({
      get: async () => {
        if (!parent) throw new ApiError({ kind: 'http', status: 404, message: 'gone' });
        return { href: '', id: fileId(1), name, parent };
      },
    }) as unknown as FilesWriteApi;
  const read = (files: FilesWriteApi, asked: MovePayload = payload) => {
    const identity = moveWrite(files).identity;
    assert.strictEqual(identity.by, 'state');
    return identity.by === 'state' ? identity.read(record(asked) as never, credentials) : undefined;
  };

  it('a single move is done when the file is in the destination; still at the source: not done (sent again); elsewhere or gone: someone else\'s, the person decides', async () => {
    assert.ok('found' in (await read(at(fileId(901))))!);
    assert.ok('absent' in (await read(at(fileId(900))))!);
    assert.deepStrictEqual(await read(at(fileId(902))), { changed: '"f1.bam" is now in another folder than the one it was moved to: someone else moved it since.' });
    assert.deepStrictEqual(await read(at(undefined)), { changed: '"f1.bam" is no longer there.' });
    assert.strictEqual(moveWrite(at(fileId(900))).idempotent, true);
  });

  it('a move that renames is one call with the new name: done once in the destination under it; at the source under the old: not done; anything else: someone else\'s', async () => {
    const renaming = { ...payload, newName: 'f1-v2.bam' };
    const sent: unknown[] = [];
    const files = { move: async (...args: unknown[]) => (sent.push(args.slice(0, 2)), { href: '', id: fileId(1), name: 'f1-v2.bam', parent: fileId(901) }) } as unknown as FilesWriteApi;
    await moveWrite(files).send(record(renaming) as never, credentials);
    await moveWrite(files).send(record(payload) as never, credentials);
    assert.deepStrictEqual(sent, [[fileId(1), { parent: fileId(901), name: 'f1-v2.bam' }], [fileId(1), { parent: fileId(901) }]]);
    assert.ok('found' in (await read(at(fileId(901), 'f1-v2.bam'), renaming))!);
    assert.ok('absent' in (await read(at(fileId(900)), renaming))!);
    assert.deepStrictEqual(await read(at(fileId(901)), renaming), { changed: '"f1.bam" is in the folder it was moved to, named "f1.bam": someone else renamed it since.' });
    assert.ok('changed' in (await read(at(fileId(900), 'other.bam'), renaming))!);
    assert.ok(moveWrite(files).isPayload(renaming) && !moveWrite(files).isPayload({ ...payload, newName: 7 }));
  });

  it('a MOVE job answers for a call by its results: the moved file keeps its ID, in the destination, under its name or N_<name>', () => {
    const move: AsyncMovePayload = { items: [{ file: fileId(1), parent: fileId(901) }, { file: fileId(2), parent: fileId(901) }], destination: { label: 'x', project: 'me/p', parent: fileId(901) }, sourceNames: { [fileId(1)]: 'f1.bam', [fileId(2)]: 'f2.bam' } };
    const job = (result: AsyncJob['result'], state: AsyncJob['state'] = 'FINISHED'): AsyncJob => ({ id: '1', type: 'MOVE', state, result });
    const moved = (n: number, name: string, parent = fileId(901)) => ({ resource: { href: '', id: fileId(n), name, type: 'file', project: 'me/p', parent } as FileRecord });
    assert.strictEqual(matchMove(move, job([moved(1, 'f1.bam'), moved(2, '1_f2.bam')])), 'yes');
    assert.strictEqual(matchMove(move, job([moved(1, 'f1.bam'), moved(3, 'f2.bam')])), 'no', 'another file');
    assert.strictEqual(matchMove(move, job([moved(1, 'f1.bam'), moved(2, 'f2.bam', fileId(902))])), 'no', 'another folder');
    assert.strictEqual(matchMove(move, job([], 'RUNNING')), 'maybe');
    assert.strictEqual(matchMove(move, job([moved(1, 'f1.bam'), { error: { status: 404, message: 'gone' } }])), 'yes');
  });

  it('bulk tags: 100 files a call; file by file, done, not done (only those sent again) or changed by someone else (the person decides); a list the answer shows otherwise is sent again alone', async () => {
    const tags = Array.from({ length: 250 }, (_, i) => ({ id: fileId(i + 1), name: `f${i + 1}`, tags: ['qc'], before: [] }));
    assert.deepStrictEqual(planBulkTags(tags).map((c) => c.items.length), [100, 100, 50]);
    const answer = (list: (string[] | undefined)[]): BulkFileItem[] =>
      list.map((t, i) => (t ? { resource: { href: '', id: fileId(i + 1), name: `f${i + 1}`, tags: t } } : { error: { status: 404, message: 'gone' } }));
    let now = answer([['qc'], [], undefined]);
    const identity = bulkTagsWrite({ get: async () => now, edit: async () => now }).identity;
    assert.ok(identity.by === 'state');
    const payload = { items: tags.slice(0, 3) };
    assert.deepStrictEqual(await identity.read(record(payload) as never, credentials), { absent: 'The tags of 1 of the files are not changed yet: only those are sent again.', rest: { items: [tags[1]] } });
    now = answer([['qc', 'old'], [], undefined]);
    assert.deepStrictEqual(await identity.read(record(payload) as never, credentials), { changed: 'The tags of "f1" were changed by someone else since.', rest: { items: [tags[1], tags[0]] } });
    now = answer([['qc'], ['qc'], undefined]);
    assert.ok('found' in (await identity.read(record(payload) as never, credentials)), 'a file gone does not hold the others back');
    now = answer([undefined, undefined, undefined]);
    assert.ok('unknown' in (await identity.read(record(payload) as never, credentials)));
    assert.deepStrictEqual(tagsNotTaken(payload.items, answer([['qc'], ['qc', 'old'], undefined])).map((p) => p.id), [fileId(2)]);
  });
});
