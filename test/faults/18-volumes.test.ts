// 16. Import from and export to a volume (issue 41): each of the four kinds — import, bulk import, export, bulk export —
// with an answer lost after the platform processed it, sent through the outbox as the commands send it: the jobs it
// made found by difference among the import (or export) jobs, matching each item's source and destination, none made
// twice, none lost, none adopted that another call made. Rows "import", "bulk import", "export", "bulk export" of the
// writes table.
import * as assert from 'assert';
import type { SbClient } from '../../src/api/client';
import { systemClock } from '../../src/api/clock';
import { WRITE_KINDS, type WriteKindName } from '../../src/keys/writes';
import { exportPlan, importPayloads } from '../../src/volumes/transferPlan';
import { volumeWritingFor } from '../../src/volumes/volumeJobWrite';
import type { VolumeJobsOutcome } from '../../src/volumes/volumeWrites';
import { Outbox, type FinishedWrite } from '../../src/write/outbox';
import { writeKinds } from '../../src/writeKinds';
import { memoryState } from '../support/sharedState';
import type { Emulator } from '../emulator';
import { TEST_OUTBOX } from './copyKit';
import { accountWrites, compareWrites, makeClient, makeEmulator, NO_TRACKER, note, TOKEN } from './support';

const RUNS = 'rfranklin/sequencing_runs';
const RESULTS = 'rfranklin/analysis_results';

describe('16. volumes: imports and exports exactly once through lost answers', function () {
  this.timeout(90_000);
  let emu: Emulator;
  let client: SbClient;
  let outbox: Outbox;

  beforeEach(async () => {
    emu = await makeEmulator({ copyStepMs: 50 });
    client = makeClient(emu.baseUrl);
    const account = { key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } };
    outbox = new Outbox(memoryState(), async () => account, writeKinds(client, NO_TRACKER, systemClock, async () => volumeWritingFor(client, NO_TRACKER)), undefined, TEST_OUTBOX);
    outbox.start();
  });
  afterEach(() => outbox.dispose());

  const account = () => ({ key: `${emu.baseUrl}#${emu.username}`, credentials: { endpoint: emu.baseUrl, token: TOKEN } });
  const send = <P>(kind: WriteKindName, payloads: P[]) => outbox.send<VolumeJobsOutcome>(kind, payloads, account(), { until: 'end', atMostMs: 30_000 });
  const received = (path: RegExp) => emu.writes.filter((w) => w.method === 'POST' && path.test(w.path));
  const project = () => emu.data.projects.find((p) => p.id === 'rfranklin/my-project')!;
  const folder = async (name: string) => client.files.createFolder(name, { project: project().id });
  /** Jobs adopted after a lost answer that the emulator made for other sources than the write's items. */
  const wronglyAdopted = (finished: FinishedWrite<VolumeJobsOutcome>[], source: (jobId: string) => string | undefined, asked: (payload: unknown) => string[]) =>
    finished.filter((f) => f.found && f.outcome.jobs.some((j) => 'id' in j && !asked(f.record.payload).includes(source(j.id) ?? ''))).length;
  const importedFrom = (jobId: string) => emu.data.imports.find((j) => j.id === jobId)?.source.location;
  const exportedFile = (jobId: string) => emu.data.exports.find((j) => j.id === jobId)?.source.file;
  const locations = (p: unknown) => (p as { items: { source: { location: string } }[] }).items.map((i) => i.source.location);
  const fileIds = (p: unknown) => (p as { items: { source: { file: string } }[] }).items.map((i) => i.source.file);

  it('import: a prefix imported with its answer lost is found among the import jobs, not sent again', async () => {
    const into = await folder('lane1 (lost answer)');
    const payloads = importPayloads([{ volume: RUNS, location: 'runs/2026-11-02/lane1/' }], { project: project().id, parent: into.id, label: into.name }, { onClash: 'fail', keepFolders: false });
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/storage\/imports$/ });
    const { finished, left } = await send(WRITE_KINDS.volumeImport, payloads);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished[0]?.found, true, 'found after the lost answer');
    assert.strictEqual(received(/^\/storage\/imports$/).length, 1, 'one POST in all');
    const made = emu.data.imports.map((j) => j.source.location);
    assert.deepStrictEqual(made, ['runs/2026-11-02/lane1/']);
    accountWrites('import', { ...compareWrites(['runs/2026-11-02/lane1/'], made), wronglyAdopted: wronglyAdopted(finished, importedFrom, locations), stuck: 0 });
  });

  it('bulk import: 250 objects go as 3 calls of 100, 100, 50; the lost one is found item by item; each object imported once', async () => {
    const into = await folder('run of 2026-10-14');
    const objects = [...emu.data.volumeObjects.get(RUNS)!.keys()].filter((l) => l.startsWith('runs/2026-10-14/')).sort().slice(0, 250);
    const payloads = importPayloads(objects.map((location) => ({ volume: RUNS, location })), { project: project().id, parent: into.id, label: into.name }, { onClash: 'autorename', keepFolders: true });
    assert.deepStrictEqual(payloads.map((p) => p.items.length), [100, 100, 50]);
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/bulk\/storage\/imports\/create$/ });
    const { finished, left } = await send(WRITE_KINDS.volumeBulkImport, payloads);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished.filter((f) => f.found).length, 1, 'the lost one found');
    assert.strictEqual(received(/^\/bulk\/storage\/imports\/create$/).length, 3, 'none sent twice');
    // The found one may come last: the calls' sizes in any order.
    assert.deepStrictEqual(finished.map((f) => f.outcome.jobs.filter((j) => 'id' in j).length).sort((a, b) => b - a), [100, 100, 50], 'every item has its job');
    const made = emu.data.imports.map((j) => j.source.location);
    const adopted = wronglyAdopted(finished, importedFrom, locations);
    assert.strictEqual(adopted, 0);
    accountWrites('bulk import', { ...compareWrites(objects, made), wronglyAdopted: adopted, stuck: 0 });
    note(`bulk import of 250 objects: ${received(/^\/bulk\/storage\/imports\/create$/).length} calls (100 + 100 + 50), one answer lost and found item by item`);
  });

  it('export: a file exported (copy only) with its answer lost is found among the export jobs, not sent again', async () => {
    const file = emu.data.files.find((f) => f.project === project().id && f.type === 'file' && !f.storage)!;
    const volume = (await client.transport.get<{ id: string; name: string; access_mode: string; active: boolean }>(`storage/volumes/${RESULTS}`)).body;
    const plan = exportPlan([{ id: file.id, name: file.name, project: file.project, type: 'file' }], volume, 'lost-answer/', true);
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/storage\/exports(\?|$)/ });
    const { finished, left } = await send(WRITE_KINDS.volumeExport, plan.payloads);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished[0]?.found, true);
    assert.strictEqual(received(/^\/storage\/exports(\?|$)/).length, 1);
    const made = emu.data.exports.map((j) => j.source.file);
    accountWrites('export', { ...compareWrites([file.id], made), wronglyAdopted: wronglyAdopted(finished, exportedFile, fileIds), stuck: 0 });
  });

  it('bulk export: 150 files as 2 calls of 100 and 50, one answer lost: each file exported once', async () => {
    const files = emu.data.files.filter((f) => f.type === 'file' && !f.storage && f.project !== 'admin/sbg-public-data').slice(0, 150);
    assert.strictEqual(files.length, 150);
    const volume = (await client.transport.get<{ id: string; name: string; access_mode: string; active: boolean }>(`storage/volumes/${RESULTS}`)).body;
    // The names repeat across projects: one location per file, by its ID.
    const plan = exportPlan(files.map((f) => ({ id: f.id, name: `${f.id}-${f.name}`, project: f.project, type: 'file' })), volume, 'bulk/', true);
    assert.deepStrictEqual(plan.payloads.map((p) => p.items.length), [100, 50]);
    emu.loseNextWriteResponse({ method: 'POST', path: /^\/bulk\/storage\/exports\/create$/ });
    const { finished, left } = await send(WRITE_KINDS.volumeBulkExport, plan.payloads);
    assert.deepStrictEqual(left.map((r) => [r.state, r.note]), []);
    assert.strictEqual(finished.filter((f) => f.found).length, 1);
    assert.strictEqual(received(/^\/bulk\/storage\/exports\/create(\?|$)/).length, 2);
    const made = emu.data.exports.map((j) => j.source.file);
    const adopted = wronglyAdopted(finished, exportedFile, fileIds);
    assert.strictEqual(adopted, 0);
    accountWrites('bulk export', { ...compareWrites(files.map((f) => f.id), made), wronglyAdopted: adopted, stuck: 0 });
  });
});
