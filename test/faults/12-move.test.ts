// 12. Moving files and tagging many (issue 25): the single move, the async move and the bulk tag edit, each with its
// answer lost after the platform processed it, or stopped by a 429 or maintenance before it was: looked up by the
// kind's identity rule (or sent again by itself when the platform proves it did nothing), never made twice, never
// lost. Counted in the summary's table per kind (move, async move, bulk tags).
import * as assert from 'assert';
import type { SbClient } from '../../src/api/client';
import type { AsyncJob, BulkFileItem, FileRecord } from '../../src/api/types';
import { planMove } from '../../src/files/movePlan';
import { planBulkTags, type TagsPayload } from '../../src/files/tagsWrites';
import { WRITE_KINDS, type WriteKindName } from '../../src/keys/writes';
import { Outbox } from '../../src/write/outbox';
import { writeKinds } from '../../src/writeKinds';
import { systemClock } from '../../src/api/clock';
import { memoryState } from '../support/sharedState';
import { requestsOf, type Emulator, type FileRec } from '../emulator';
import { TEST_OUTBOX } from './copyKit';
import { accountWrites, compareWrites, makeClient, makeEmulator, NO_TRACKER, note, TOKEN, waitFor } from './support';

describe('12. moving files and tagging many: every kind exactly once through lost answers, 429 and maintenance', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: SbClient;
  let outbox: Outbox;

  const account = () => ({ key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } });
  beforeEach(async () => {
    emu = await makeEmulator({ copyStepMs: 50 });
    client = makeClient(emu.baseUrl);
    outbox = new Outbox(memoryState(), async () => account(), writeKinds(client, NO_TRACKER, systemClock), undefined, TEST_OUTBOX);
    outbox.start();
  });
  afterEach(() => outbox.dispose());

  /** Sends as the commands do, then waits until the outbox is done with them (a lost answer is looked up meanwhile). */
  const send = <P>(kind: WriteKindName, payloads: P[]) => outbox.send(kind, payloads, account(), { until: 'end', atMostMs: 30_000 });
  const processed = (method: string, path: RegExp) => emu.writes.filter((w) => w.method === method && path.test(w.path) && w.status >= 200 && w.status < 300);
  /** Whether the platform stopped such a write before processing it, with this status (429, 503). */
  const stopped = (method: string, path: RegExp, status: number) => emu.unprocessedWrites.some((w) => w.method === method && path.test(w.path) && w.status === status);
  const received = (method: string, path: RegExp) => emu.writes.filter((w) => w.method === method && path.test(w.path));
  /** A project with files in folders and a folder at its root to move them to. */
  const setting = () => {
    const p = emu.data.projects.find((q) => q.permissions?.write !== false && emu.data.files.filter((f) => f.project === q.id && f.type === 'file' && f.parent !== q.root_folder).length >= 260)!;
    const folders = emu.data.children(p.root_folder).filter((f) => f.type === 'folder');
    return { p, folders };
  };
  const asItem = (f: FileRec) => ({ id: f.id, name: f.name, folder: f.type === 'folder', project: f.project, writable: true, parent: f.parent ?? undefined });
  const destinationOf = (folder: FileRec, project: string) => ({ kind: 'sameProjectFolder' as const, project, folder: folder.id, path: [folder.name] });

  it('a single move whose answer is lost is read back (in its new folder), not sent again; one stopped by 429 is sent again by itself, once', async () => {
    const { p, folders } = setting();
    const [file, other] = emu.data.files.filter((f) => f.project === p.id && f.type === 'file' && f.parent !== folders[0].id && !emu.data.children(folders[0].id).some((c) => c.name === f.name));
    const plan = planMove([asItem(file)], destinationOf(folders[0], p.id), { renamed: [] });
    assert.ok('single' in plan, 'one file within its project, its name free: the single move');
    const path = new RegExp(`^/files/${file.id}/actions/move$`);
    emu.loseNextWriteResponse({ method: 'POST', path });
    const moved = await send(WRITE_KINDS.move, [plan.single]);
    assert.deepStrictEqual(moved.left.map((r) => [r.state, r.note]), []);
    assert.deepStrictEqual([moved.finished.length, moved.finished[0].found], [1, true], 'found after the lost answer');
    assert.strictEqual(emu.data.fileById.get(file.id)!.parent, folders[0].id);
    assert.strictEqual(received('POST', path).length, 1, 'one POST');

    const otherPlan = planMove([asItem(other)], destinationOf(folders[0], p.id), { renamed: [] });
    assert.ok('single' in otherPlan);
    const otherPath = new RegExp(`^/files/${other.id}/actions/move$`);
    emu.burst429(1, 1, requestsOf({ method: 'POST', path: otherPath }));
    const again = await send(WRITE_KINDS.move, [otherPlan.single]);
    assert.deepStrictEqual([again.left.length, again.finished.length], [0, 1]);
    assert.strictEqual(emu.data.fileById.get(other.id)!.parent, folders[0].id);
    assert.strictEqual(processed('POST', otherPath).length, 1, 'processed once, after the 429');
    assert.ok(stopped('POST', otherPath, 429), 'the 429 met the move itself');
    const made = [...processed('POST', path), ...processed('POST', otherPath)].map((w) => w.path.split('/')[2]);
    accountWrites('move', { ...compareWrites([file.id, other.id], made), wronglyAdopted: 0, stuck: 0 });
  });

  it('a move that renames (a drag in the Explorer to another folder under a new name) is one call: its lost answer is read back, moved and renamed once', async () => {
    const { p, folders } = setting();
    const file = emu.data.files.find((f) => f.project === p.id && f.type === 'file' && f.parent !== folders[0].id)!;
    const newName = `renamed-${file.name}`;
    const path = new RegExp(`^/files/${file.id}/actions/move$`);
    emu.loseNextWriteResponse({ method: 'POST', path });
    const moved = await send(WRITE_KINDS.move, [{ id: file.id, name: file.name, from: file.parent!, to: folders[0].id, newName, label: `${folders[0].name}/${newName}` }]);
    assert.deepStrictEqual(moved.left.map((r) => [r.state, r.note]), []);
    assert.deepStrictEqual([moved.finished.length, moved.finished[0].found], [1, true], 'found after the lost answer');
    const now = emu.data.fileById.get(file.id)!;
    assert.deepStrictEqual([now.parent, now.name], [folders[0].id, newName]);
    assert.strictEqual(received('POST', path).length, 1, 'one POST');
    assert.ok(!emu.writes.some((w) => w.method === 'PATCH' && w.path === `/files/${file.id}`), 'no rename sent on its own');
    accountWrites('move', { ...compareWrites([file.id], processed('POST', path).map((w) => w.path.split('/')[2])), wronglyAdopted: 0, stuck: 0 }, 'with a new name');
  });

  it('an async move of 250 files goes as 3 calls; the lost answer is found among the MOVE jobs by its results; maintenance waited out; none moved twice', async () => {
    const { p, folders } = setting();
    const dest = folders[0];
    const items = emu.data.files.filter((f) => f.project === p.id && f.type === 'file' && f.parent !== p.root_folder && f.parent !== dest.id).slice(0, 250);
    assert.strictEqual(items.length, 250, 'the emulator has 250 files below folders');
    const plan = planMove(items.map(asItem), destinationOf(dest, p.id), { renamed: [] });
    assert.ok('jobs' in plan);
    assert.deepStrictEqual(plan.jobs.map((j) => j.items.length), [100, 100, 50]);
    // Maintenance begins as the first move call arrives (held until then), and is over a second later.
    const held = emu.hold((method, path) => method === 'POST' && /\/async\/files\/move$/.test(path));
    void held.arrived.then(() => {
      emu.maintenance(1_000);
      held.release();
    });
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/async\/files\/move$/ });
    const { finished, left } = await send(WRITE_KINDS.asyncMove, plan.jobs);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished.length, 3);
    assert.strictEqual(finished.filter((f) => f.found).length, 1, 'the lost one found');
    const calls = processed('POST', /^\/async\/files\/move$/);
    assert.strictEqual(calls.length, 3, '3 calls processed for 250 items, none sent twice');
    assert.ok(stopped('POST', /^\/async\/files\/move$/, 503), 'maintenance met a move call');
    const wronglyAdopted = finished.filter((f) => {
      if (!f.found) return false;
      const made = emu.moveRequests.find((r) => r.jobId === (f.outcome as AsyncJob).id);
      return !made || JSON.stringify(made.items) !== JSON.stringify((f.record.payload as { items: unknown }).items);
    }).length;
    assert.strictEqual(wronglyAdopted, 0);
    // The jobs run to their end; every file is then in the destination, once (a moved file keeps its ID).
    await waitFor('the move jobs finished', async () => {
      const jobs = await Promise.all(finished.map((f) => client.fileJobs.get('move', (f.outcome as AsyncJob).id)));
      return jobs.every((j) => j.state === 'FINISHED');
    }, 30_000);
    const moved = items.filter((f) => emu.data.fileById.get(f.id)?.parent === dest.id).map((f) => f.id);
    assert.strictEqual(moved.length, 250);
    const sent = emu.moveRequests.filter((r) => r.status >= 200 && r.status < 300).flatMap((r) => (r.items as { file: string }[]).map((i) => i.file));
    accountWrites('async move', { ...compareWrites(items.map((f) => f.id), sent), wronglyAdopted, stuck: 0 });
    note(`move of 250 files: ${calls.length} calls of the async move (100 + 100 + 50), one answer lost and found, maintenance waited out`);
  });

  it('tags of 150 files: 2 bulk edits; the lost answer is read back (every file has its list), not sent again; a 429 is waited out', async () => {
    const { p } = setting();
    const files = emu.data.files.filter((f) => f.project === p.id && f.type === 'file').slice(0, 150);
    const payloads: TagsPayload[] = files.map((f) => ({ id: f.id, name: f.name, tags: [...new Set([...f.tags, 'bulk-tagged'])] }));
    const calls = planBulkTags(payloads);
    assert.deepStrictEqual(calls.map((c) => c.items.length), [100, 50]);
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/bulk\/files\/edit$/ });
    emu.burst429(1, 1, requestsOf({ method: 'POST', path: /^\/bulk\/files\/edit$/ }));
    const { finished, left } = await send(WRITE_KINDS.bulkTags, calls);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished.length, 2);
    assert.strictEqual(finished.filter((f) => f.found).length, 1, 'the lost one read back');
    assert.ok(files.every((f) => emu.data.fileById.get(f.id)!.tags.includes('bulk-tagged')), 'every file tagged');
    const edits = processed('POST', /^\/bulk\/files\/edit$/);
    assert.strictEqual(edits.length, 2, 'each call processed once');
    assert.ok(stopped('POST', /^\/bulk\/files\/edit$/, 429), 'the 429 met a bulk edit');
    const answered = finished.flatMap((f) => f.outcome as BulkFileItem[]);
    assert.ok(answered.every((r) => r.resource && (r.resource as FileRecord).tags?.includes('bulk-tagged')));
    const made = edits.flatMap((w) => ((w.body as { items: { id: string }[] }).items ?? []).map((i) => i.id));
    accountWrites('bulk tags', { ...compareWrites(files.map((f) => f.id), made), wronglyAdopted: 0, stuck: 0 });
  });
});
