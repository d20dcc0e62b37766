// The volumes client (platform-api.md §13) against the emulator: the volumes, a volume's objects by prefix paged by the
// continuation, one object; imports and exports single and bulk, read back one by one, in bulk and listed; what is
// refused before sending, and what the platform refuses.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import type { ApiError } from '../../../src/api/errors';
import { isVolumeJobEnded, volumesOf, type ExportJob, type ImportJob, type VolumesApi } from '../../../src/api/volumes';
import { startEmulator, type Emulator } from '../../emulator';

describe('volumes client (against the emulator)', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let client: { files: SbClient['files']; volumes: VolumesApi };
  const sent = () => emu.received.length;
  const project = 'rfranklin/my-project';

  before(async () => {
    emu = await startEmulator({ tasks: 10, files: 40, copyStepMs: 20 });
    const sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }) });
    client = { files: sb.files, volumes: volumesOf(sb) };
  });
  after(() => emu.close());

  async function ended<J extends ImportJob | ExportJob>(kind: 'imports' | 'exports', id: string): Promise<J> {
    for (;;) {
      const job = (kind === 'imports' ? await client.volumes.getImport(id) : await client.volumes.getExport(id)) as J;
      if (isVolumeJobEnded(job.state)) return job;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('lists the volumes with their access, cloud and bucket, and reads one', async () => {
    const page = await client.volumes.list();
    const byId = new Map(page.items.map((v) => [v.id, v]));
    assert.deepStrictEqual([...byId.keys()].sort(), ['rfranklin/analysis_results', 'rfranklin/old_archive', 'rfranklin/sequencing_runs']);
    const runs = byId.get('rfranklin/sequencing_runs');
    assert.strictEqual(runs?.access_mode, 'RO');
    assert.strictEqual(runs?.service?.type, 'S3');
    assert.strictEqual(runs?.service?.bucket, 'franklin-lab-sequencing');
    assert.strictEqual(byId.get('rfranklin/old_archive')?.active, false);
    const one = await client.volumes.get('rfranklin/analysis_results');
    assert.strictEqual(one.access_mode, 'RW');
    await assert.rejects(client.volumes.get('rfranklin/no_such_volume'), (e: ApiError) => e.status === 404 && e.code === 9007);
  });

  it('browses one level by prefix, paged by the continuation to the end, with size and date', async () => {
    const top = await client.volumes.objects('rfranklin/sequencing_runs', '');
    assert.deepStrictEqual(top.objects.map((o) => o.location), ['README.txt', 'samples.tsv']);
    assert.deepStrictEqual(top.prefixes, ['aligned/', 'references/', 'runs/']);
    assert.strictEqual(top.continuation, undefined);
    assert.strictEqual(typeof top.objects[0].metadata?.size, 'number');
    const seen: string[] = [];
    let pages = 0;
    let continuation: string | undefined;
    do {
      const page = await client.volumes.objects('rfranklin/sequencing_runs', 'runs/2026-10-14/', { continuation, limit: 100 });
      seen.push(...page.objects.map((o) => o.location));
      continuation = page.continuation;
      pages++;
    } while (continuation);
    assert.strictEqual(pages, 4);
    assert.strictEqual(new Set(seen).size, 320);
    const lane1 = await client.volumes.objects('rfranklin/sequencing_runs', 'runs/2026-11-02/lane1');
    assert.strictEqual(lane1.objects.length, 30);
    const object = await client.volumes.object('rfranklin/sequencing_runs', 'README.txt');
    assert.strictEqual(object.location, 'README.txt');
    await assert.rejects(client.volumes.objects('rfranklin/old_archive', ''), (e: ApiError) => e.status === 400 && e.code === 9001);
  });

  it('imports a prefix into a project folder and an object by itself; the files appear as links', async () => {
    const folder = await client.files.createFolder('lane1_import', { project });
    const job = await client.volumes.importOne({ source: { volume: 'rfranklin/sequencing_runs', location: 'runs/2026-11-02/lane1/' }, destination: { parent: folder.id }, preserve_folder_structure: false });
    assert.strictEqual(job.state, 'PENDING');
    const done = await ended<ImportJob>('imports', job.id);
    assert.strictEqual(done.state, 'COMPLETED', JSON.stringify(done.error));
    assert.strictEqual(done.result?.id, folder.id);
    const inside = emu.data.files.filter((f) => f.parent === folder.id);
    assert.strictEqual(inside.length, 30);
    assert.ok(inside.every((f) => f.storage?.volume === 'rfranklin/sequencing_runs'));
    const single = await client.volumes.importOne({ source: { volume: 'rfranklin/sequencing_runs', location: 'README.txt' }, destination: { parent: folder.id }, autorename: true });
    assert.strictEqual((await ended<ImportJob>('imports', single.id)).result?.name, 'README.txt');
  });

  it('imports in bulk, one answer per item in order (a refusal among them), read back in bulk and listed', async () => {
    const folder = await client.files.createFolder('bulk_import', { project });
    const answers = await client.volumes.importMany([
      { source: { volume: 'rfranklin/sequencing_runs', location: 'samples.tsv' }, destination: { parent: folder.id } },
      { source: { volume: 'rfranklin/no_such_volume', location: 'x' }, destination: { parent: folder.id } },
      { source: { volume: 'rfranklin/sequencing_runs', location: 'aligned/sample_01.bam' }, destination: { parent: folder.id } },
    ]);
    assert.strictEqual(answers.length, 3);
    assert.ok(answers[0].job && answers[2].job);
    assert.strictEqual(answers[1].error?.code, 9007);
    const ids = [answers[0].job!.id, answers[2].job!.id];
    const read = await client.volumes.getMany<ImportJob>('imports', [...ids, 'NoSuchJob']);
    assert.deepStrictEqual(read.map((r) => r.job?.id), [...ids, undefined]);
    assert.strictEqual(read[2].error?.code, 9008);
    const listed = await client.volumes.listJobs<ImportJob>('imports', { volume: 'rfranklin/sequencing_runs', limit: 100 });
    assert.ok(ids.every((id) => listed.items.some((j) => j.id === id)));
    await Promise.all(ids.map((id) => ended('imports', id)));
  });

  it('exports a file to the read-write volume (copy only, single and bulk); the platform refuses a read-only volume', async () => {
    const files = emu.data.files.filter((f) => f.project === project && f.type === 'file' && !f.storage).slice(0, 3);
    const one = await client.volumes.exportOne({ source: { file: files[0].id }, destination: { volume: 'rfranklin/analysis_results', location: `exports/${files[0].name}` } }, true);
    const done = await ended<ExportJob>('exports', one.id);
    assert.strictEqual(done.state, 'COMPLETED', JSON.stringify(done.error));
    assert.strictEqual(emu.data.files.find((f) => f.id === files[0].id)?.storage, undefined);
    const many = await client.volumes.exportMany(files.slice(1).map((f) => ({ source: { file: f.id }, destination: { volume: 'rfranklin/analysis_results', location: `exports/bulk/${f.name}` } })), true);
    assert.ok(many.every((a) => a.job));
    for (const a of many) assert.strictEqual((await ended<ExportJob>('exports', a.job!.id)).state, 'COMPLETED');
    assert.ok(emu.data.volumeObjects.get('rfranklin/analysis_results')?.has(`exports/bulk/${files[1].name}`));
    await assert.rejects(
      client.volumes.exportOne({ source: { file: files[0].id }, destination: { volume: 'rfranklin/sequencing_runs', location: 'x.txt' } }, true),
      (e: ApiError) => e.status === 400 && e.code === 9026,
    );
  });

  it('refuses malformed IDs, locations and requests before sending anything', async () => {
    const before = sent();
    const folder = 'a'.repeat(24);
    for (const call of [
      () => client.volumes.get('no-slash'),
      () => client.volumes.objects('rfranklin/has-dash', ''),
      () => client.volumes.importOne({ source: { volume: 'rfranklin/sequencing_runs', location: '' }, destination: { parent: folder } }),
      () => client.volumes.importOne({ source: { volume: 'rfranklin/sequencing_runs', location: 'a' }, destination: { parent: folder, project } }),
      () => client.volumes.importOne({ source: { volume: 'rfranklin/sequencing_runs', location: 'a' }, destination: { parent: folder }, overwrite: true, autorename: true }),
      () => client.volumes.exportOne({ source: { file: folder }, destination: { volume: 'rfranklin/analysis_results', location: 'dir/' } }, true),
      () => client.volumes.exportMany(Array.from({ length: 101 }, () => ({ source: { file: folder }, destination: { volume: 'rfranklin/analysis_results', location: 'x' } })), true),
      () => client.volumes.getImport('../files'),
    ]) {
      await assert.rejects(call(), (e: ApiError) => e.kind === 'invalid');
    }
    assert.strictEqual(sent(), before);
  });
});
