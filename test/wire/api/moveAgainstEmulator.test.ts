// Move To… and bulk tags as the product plans and checks them, against the emulator over real HTTP: the names a
// move takes (the clash preview's rule) are the names the platform gives; a MOVE job's results are matched by the
// identity rule; a folder into its own subfolder refused before sending (the folder chain read from the platform)
// and by the platform; the bulk tag edit read back by its identity rule.
import * as assert from 'assert';
import nodeFetch from 'node-fetch';
import { SbClient } from '../../../src/api/client';
import type { FetchLike } from '../../../src/api/transport';
import type { AsyncJob } from '../../../src/api/types';
import { lookupDestination, planClashes } from '../../../src/copy/clashes';
import { folderChain, intoItself, planMove } from '../../../src/files/movePlan';
import { matchMove, moveWrite } from '../../../src/files/moveWrites';
import { bulkTagsWrite, planBulkTags } from '../../../src/files/tagsWrites';
import type { WriteRecord } from '../../../src/write/outbox';
import { startEmulator, type Emulator, type FileRec } from '../../emulator/index';
import { FakeClock } from '../../support/fakeClock';

const STEP = 600;

describe('client against the emulator: Move To… and bulk tags as planned', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let clock: FakeClock;
  let sb: SbClient;
  beforeEach(async () => {
    clock = new FakeClock();
    emu = await startEmulator({ now: () => clock.now(), copyStepMs: STEP, immediateResults: 0, tasks: 20, files: 600 });
    sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), fetch: nodeFetch as unknown as FetchLike, clock, backoffMs: 100 });
  });
  afterEach(() => emu.close());

  const credentials = () => ({ endpoint: emu.baseUrl, token: emu.token });
  const record = <P>(payload: P) => ({ payload }) as unknown as WriteRecord<P, never, never>;
  const project = () => emu.data.projects.find((p) => p.permissions.write && emu.data.files.some((f) => f.project === p.id && f.type === 'folder' && f.parent && f.parent !== p.root_folder))!;
  const asItem = (f: FileRec) => ({ id: f.id, name: f.name, folder: f.type === 'folder', project: f.project, parent: f.parent ?? undefined });
  async function finished(job: AsyncJob): Promise<AsyncJob> {
    for (let i = 0; i < 50; i++) {
      const now = await sb.fileJobs.get('move', job.id);
      if (now.state === 'FINISHED') return now;
      await clock.sleep(STEP);
    }
    throw new Error('the job did not finish');
  }

  it('a taken name: planned for the async move, previewed as 1_<name>, arrives so; its job matched by its results; the ID kept', async () => {
    const p = project();
    const dest = emu.data.children(p.root_folder).find((f) => f.type === 'folder' && emu.data.children(f.id).some((c) => c.type === 'file'))!;
    const taken = emu.data.children(dest.id).find((f) => f.type === 'file')!;
    const file = emu.data.files.find((f) => f.project === p.id && f.type === 'file' && f.parent !== dest.id)!;
    // Give the moved file the taken name, so the move clashes.
    await sb.files.update(file.id, { name: taken.name });
    const moving = { ...asItem(emu.data.fileById.get(file.id)!) };
    const arriving = [{ name: moving.name, folder: false }];
    const lookup = await lookupDestination(sb.files, { parent: dest.id }, arriving);
    const clashes = planClashes(arriving, lookup.existing);
    assert.strictEqual(clashes.renamed.length, 1);
    const plan = planMove([moving], { kind: 'sameProjectFolder', project: p.id, folder: dest.id, path: [dest.name] }, clashes);
    assert.ok('jobs' in plan, 'the single move would refuse the name: the async move renames it');
    const job = await finished(await sb.fileJobs.submit('move', plan.jobs[0].items));
    assert.strictEqual(matchMove(plan.jobs[0], job), 'yes');
    const now = emu.data.fileById.get(file.id)!;
    assert.deepStrictEqual([now.parent, now.name], [dest.id, clashes.renamed[0].to], 'the name the preview said');
    assert.strictEqual(matchMove({ ...plan.jobs[0], items: [{ file: taken.id, parent: dest.id }] }, job), 'no', 'another call\'s job');
  });

  it('a folder into its own subfolder: refused before sending from the chain the platform gives, and by the platform per item', async () => {
    const p = project();
    const child = emu.data.files.find((f) => f.project === p.id && f.type === 'folder' && f.parent && f.parent !== p.root_folder)!;
    const parent = emu.data.fileById.get(child.parent!)!;
    const destination = { kind: 'sameProjectFolder' as const, project: p.id, folder: child.id, path: [parent.name, child.name] };
    const chain = await folderChain(sb.files, destination);
    assert.deepStrictEqual(chain.slice(0, 2), [child.id, parent.id]);
    assert.strictEqual(chain.at(-1), p.root_folder);
    assert.match(intoItself([asItem(parent)], chain, destination)!, /cannot be moved into its own subfolder/);
    const job = await finished(await sb.fileJobs.submit('move', [{ file: parent.id, parent: child.id }]));
    assert.strictEqual(job.result?.[0].error?.code, 10229);
  });

  it('a single move read back by its identity rule; bulk tags of 150 files in 2 calls, read back as done', async () => {
    const p = project();
    const dest = emu.data.children(p.root_folder).find((f) => f.type === 'folder')!;
    const file = emu.data.files.find((f) => f.project === p.id && f.type === 'file' && f.parent !== dest.id && !emu.data.children(dest.id).some((c) => c.name === f.name))!;
    const plan = planMove([asItem(file)], { kind: 'sameProjectFolder', project: p.id, folder: dest.id, path: [dest.name] }, { renamed: [] });
    assert.ok('single' in plan);
    const kind = moveWrite(sb.files);
    assert.ok(kind.identity.by === 'state');
    assert.ok('absent' in (await kind.identity.read(record(plan.single) as never, credentials())), 'not moved yet');
    await kind.send(record(plan.single) as never, credentials());
    assert.ok('found' in (await kind.identity.read(record(plan.single) as never, credentials())));

    const writable = new Set(emu.data.projects.filter((q) => q.permissions.write).map((q) => q.id));
    const files = emu.data.files.filter((f) => f.type === 'file' && writable.has(f.project)).slice(0, 150);
    assert.strictEqual(files.length, 150);
    const calls = planBulkTags(files.map((f) => ({ id: f.id, name: f.name, tags: ['wire-bulk'], before: [...f.tags] })));
    const bulk = bulkTagsWrite(sb.bulkFiles);
    assert.ok(bulk.identity.by === 'state');
    for (const call of calls) {
      assert.ok('absent' in (await bulk.identity.read(record(call) as never, credentials())));
      const answer = await bulk.send(record(call) as never, credentials());
      assert.ok(answer.every((r) => r.resource?.tags?.join() === 'wire-bulk'), 'the edit replaces the list');
      assert.ok('found' in (await bulk.identity.read(record(call) as never, credentials())));
    }
    assert.ok(files.every((f) => emu.data.fileById.get(f.id)!.tags.join() === 'wire-bulk'));
  });
});
