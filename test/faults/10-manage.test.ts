// 10. Managing files (issue 25): each new kind of write — new folder, rename, tags, metadata, delete, async delete — with its
// answer lost after the platform processed it, sent through the outbox as the commands send it: looked up by the
// kind's identity rule, never made twice, never lost; no delete sent twice. Counted in the summary's table per kind.
import * as assert from 'assert';
import type { SbClient } from '../../src/api/client';
import type { FileRecord } from '../../src/api/types';
import { planDelete } from '../../src/files/deleteWrites';
import { WRITE_KINDS, type WriteKindName } from '../../src/keys/writes';
import { Outbox } from '../../src/write/outbox';
import { writeKinds } from '../../src/writeKinds';
import { systemClock } from '../../src/api/clock';
import { memoryState } from '../support/sharedState';
import type { Emulator, FileRec } from '../emulator';
import { TEST_OUTBOX } from './copyKit';
import { accountWrites, compareWrites, makeClient, makeEmulator, NO_TRACKER, note, TOKEN } from './support';

describe('10. managing files: every new kind of write exactly once through lost answers', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let client: SbClient;
  let outbox: Outbox;

  beforeEach(async () => {
    emu = await makeEmulator({ copyStepMs: 50 });
    client = makeClient(emu.baseUrl);
    const account = { key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } };
    outbox = new Outbox(memoryState(), async () => account, writeKinds(client, NO_TRACKER, systemClock), undefined, TEST_OUTBOX);
    outbox.start();
  });
  afterEach(() => outbox.dispose());

  const account = () => ({ key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } });
  /** Sends as the commands do, then waits until the outbox is done with them (a lost answer is looked up meanwhile). */
  const send = <P>(kind: WriteKindName, payloads: P[]) => outbox.send(kind, payloads, account(), { until: 'end', atMostMs: 20_000 });
  /** The writes the emulator processed (2xx) on paths matching `path`, and how many reached it at all. */
  const processed = (method: string, path: RegExp) => emu.writes.filter((w) => w.method === method && path.test(w.path) && w.status >= 200 && w.status < 300);
  const received = (method: string, path: RegExp) => emu.writes.filter((w) => w.method === method && path.test(w.path));
  const project = () => emu.data.projects.find((p) => emu.data.children(p.root_folder).filter((f) => f.type === 'file').length >= 4)!;
  const topFiles = (): FileRec[] => emu.data.children(project().root_folder).filter((f) => f.type === 'file');

  it('a new folder whose answer is lost is found by difference (a folder of that name that was not there), not made twice', async () => {
    const where = { project: project().id };
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/files$/ });
    const { finished, left } = await send(WRITE_KINDS.newFolder, [{ name: 'lost-answer folder', where, label: where.project }]);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished.length, 1);
    assert.strictEqual(finished[0].found, true, 'found after the lost answer');
    const made = emu.data.children(project().root_folder).filter((f) => f.name === 'lost-answer folder');
    assert.strictEqual(made.length, 1);
    assert.strictEqual((finished[0].outcome as FileRecord).id, made[0].id);
    assert.strictEqual(received('POST', /^\/files$/).length, 1, 'one POST in all');
    accountWrites('new folder', { ...compareWrites(['lost-answer folder'], made.map((f) => f.name)), wronglyAdopted: 0, stuck: 0 });
  });

  it('a rename, a change of tags and of metadata whose answers are lost are read back (done), and not sent again', async () => {
    const [a, b] = topFiles();
    emu.loseNextWriteResponse({ method: 'PATCH', path: new RegExp(`^/files/${a.id}`) });
    const renamed = await send(WRITE_KINDS.rename, [{ id: a.id, name: 'renamed after a lost answer.bam', oldName: a.name }]);
    assert.deepStrictEqual([renamed.left.map((r) => [r.state, r.note]), renamed.finished[0]?.found], [[], true]);
    assert.strictEqual(emu.data.fileById.get(a.id)!.name, 'renamed after a lost answer.bam');
    assert.strictEqual(received('PATCH', new RegExp(`^/files/${a.id}`)).length, 1, 'one PATCH');
    accountWrites('rename', { ...compareWrites([a.id], processed('PATCH', new RegExp(`^/files/${a.id}`)).map(() => a.id)), wronglyAdopted: 0, stuck: 0 });

    emu.loseNextWriteResponse({ method: 'PUT', path: new RegExp(`^/files/${b.id}/tags`) });
    const tagged = await send(WRITE_KINDS.tags, [{ id: b.id, name: b.name, tags: ['tumor', 'lost'] }]);
    assert.deepStrictEqual([tagged.left.length, tagged.finished[0]?.found], [0, true]);
    assert.deepStrictEqual([...emu.data.fileById.get(b.id)!.tags].sort(), ['lost', 'tumor']);
    assert.strictEqual(received('PUT', new RegExp(`^/files/${b.id}/tags`)).length, 1, 'one PUT');
    const c = topFiles()[3];
    emu.loseNextWriteResponse({ method: 'PUT', path: new RegExp(`^/files/${c.id}/metadata`) });
    const described = await send(WRITE_KINDS.metadata, [{ id: c.id, name: c.name, metadata: { sample_id: 'S-lost' } }]);
    assert.deepStrictEqual([described.left.length, described.finished[0]?.found], [0, true]);
    assert.deepStrictEqual(emu.data.fileById.get(c.id)!.metadata, { sample_id: 'S-lost' });
    assert.strictEqual(received('PUT', new RegExp(`^/files/${c.id}/metadata`)).length, 1, 'one PUT');
    accountWrites('metadata', { ...compareWrites([c.id], processed('PUT', new RegExp(`^/files/${c.id}/metadata`)).map(() => c.id)), wronglyAdopted: 0, stuck: 0 });

    accountWrites('tags', { ...compareWrites([b.id], processed('PUT', new RegExp(`^/files/${b.id}/tags`)).map(() => b.id)), wronglyAdopted: 0, stuck: 0 });
  });

  it('a delete whose answer is lost: read back as gone, never sent twice; one already gone is not an error storm', async () => {
    const [, , c] = topFiles();
    const path = new RegExp(`^/files/${c.id}$`);
    emu.loseNextWriteResponse({ method: 'DELETE', path });
    const deleted = await send(WRITE_KINDS.delete, [{ id: c.id, name: c.name }]);
    assert.deepStrictEqual([deleted.left.length, deleted.finished[0]?.found], [0, true]);
    assert.strictEqual(emu.data.fileById.get(c.id), undefined);
    assert.strictEqual(received('DELETE', path).length, 1, 'no delete sent twice');
    accountWrites('delete', { ...compareWrites([c.id], processed('DELETE', path).map(() => c.id)), wronglyAdopted: 0, stuck: 0 });
    // Deleted again (another window, the web page): refused once with 404, nothing sent again.
    const again = await send(WRITE_KINDS.delete, [{ id: c.id, name: c.name }]);
    assert.deepStrictEqual(again.left.map((r) => r.state), ['failed']);
    assert.strictEqual(received('DELETE', path).length, 2, 'the second asked once, refused once');
  });

  it('an async delete of 250 items goes as 3 calls; the lost one is found among the jobs by its results, none made twice', async () => {
    const p = project();
    const folder = emu.data.children(p.root_folder).find((f) => f.type === 'folder');
    const items = emu.data.files.filter((f) => f.project === p.id && f.type === 'file' && f.parent !== p.root_folder).slice(0, 250);
    assert.strictEqual(items.length, 250, 'the emulator has 250 files below a folder');
    const plan = planDelete(items.map((f) => ({ id: f.id, name: f.name, folder: false })));
    assert.ok('jobs' in plan);
    assert.deepStrictEqual(plan.jobs.map((j) => j.items.length), [100, 100, 50]);
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/async\/files\/delete$/ });
    const { finished, left } = await send(WRITE_KINDS.asyncDelete, plan.jobs);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished.length, 3);
    assert.strictEqual(finished.filter((f) => f.found).length, 1, 'the lost one found');
    const calls = received('POST', /^\/async\/files\/delete$/);
    assert.strictEqual(calls.length, 3, '3 calls for 250 items, none sent twice');
    const deleted = emu.deleteRequests.filter((r) => r.status >= 200 && r.status < 300).flatMap((r) => (r.items as { file: string }[]).map((i) => i.file));
    // An adopted job must be the one the emulator made for that very call (its items).
    const wronglyAdopted = finished.filter((f) => {
      if (!f.found) return false;
      const made = emu.deleteRequests.find((r) => r.jobId === (f.outcome as { id: string }).id);
      return !made || JSON.stringify(made.items) !== JSON.stringify((f.record.payload as { items: unknown }).items);
    }).length;
    assert.strictEqual(wronglyAdopted, 0);
    accountWrites('async delete', { ...compareWrites(items.map((f) => f.id), deleted), wronglyAdopted, stuck: 0 });
    note(`delete of 250 files: ${calls.length} calls of the async delete (100 + 100 + 50), one answer lost and found; folder ${folder?.name ?? '-'} untouched`);
  });
});
