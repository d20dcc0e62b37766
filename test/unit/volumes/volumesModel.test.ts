// The Volumes view's model on an in-memory volume: the volumes with cloud, bucket and access; a level's prefixes and
// objects with size and date; paging by the continuation ("Load more"); an inactive volume; a listing that failed.
import * as assert from 'assert';
import type { Volume, VolumeListing, VolumeObject } from '../../../src/api/volumes';
import { VolumesModel, type VolumesBrowseApi, type VolumesNode } from '../../../src/volumes/volumesModel';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const runs: Volume = { id: 'rfranklin/sequencing_runs', name: 'sequencing_runs', access_mode: 'RO', service: { type: 'S3', bucket: 'lab-seq' }, active: true };
const results: Volume = { id: 'rfranklin/analysis_results', name: 'analysis_results', access_mode: 'RW', service: { type: 'GCS', bucket: 'lab-results' }, active: true };
const archive: Volume = { id: 'rfranklin/old_archive', name: 'old_archive', access_mode: 'RW', service: { type: 'S3', bucket: 'lab-archive' }, active: false };

/** 5 objects under `lane1/`, 2 a page; the top has a prefix and an object of GCS shape. */
function fakeApi(failFirst = false): VolumesBrowseApi & { calls: string[] } {
  const lane1: VolumeObject[] = Array.from({ length: 5 }, (_, i) => ({ location: `lane1/S${i}.fastq.gz`, volume: runs.id, metadata: { size: 2048 * (i + 1), last_modified: '2026-11-27T12:00:00Z' } }));
  const calls: string[] = [];
  let failed = !failFirst;
  return {
    calls,
    list: async () => ({ items: [runs, archive, results], total: 3, next: undefined }),
    objects: async (id: string, prefix: string, page: { continuation?: string } = {}): Promise<VolumeListing> => {
      calls.push(`${prefix}|${page.continuation ?? ''}`);
      if (!failed) {
        failed = true;
        throw new Error('connection reset');
      }
      if (prefix === '') return { objects: [{ location: 'README.txt', volume: id, metadata: { size: '1536', updated: '2026-11-28T11:00:00Z' } }], prefixes: ['lane1/'] };
      const from = Number(page.continuation ?? 0);
      return { objects: lane1.slice(from, from + 2), prefixes: [], continuation: from + 2 < lane1.length ? String(from + 2) : undefined };
    },
  };
}

describe('Volumes view model', () => {
  it('lists the volumes by name, with cloud, bucket and access; an inactive one says so and is not browsed', async () => {
    const api = fakeApi();
    const model = new VolumesModel(api, () => NOW);
    const top = await model.getChildren();
    assert.deepStrictEqual(top.map((r) => model.rowView(r).label), ['analysis_results', 'old_archive', 'sequencing_runs']);
    assert.deepStrictEqual(top.map((r) => model.rowView(r).description), ['GCS · lab-results · read-write', 'S3 · lab-archive · read-write · inactive', 'S3 · lab-seq · read-only']);
    assert.match(model.rowView(top[2]).contextValue, /\breadOnly\b/);
    const inactive = await model.getChildren(top[1]);
    assert.strictEqual(inactive.length, 1);
    assert.match(model.rowView(inactive[0]).label, /inactive/);
    assert.deepStrictEqual(api.calls, []);
  });

  it('shows a level: prefixes as folders, objects with size and age; a prefix pages by the continuation to the end', async () => {
    const model = new VolumesModel(fakeApi(), () => NOW);
    const volume = (await model.getChildren()).find((r) => r.id === 'volume:rfranklin/sequencing_runs')!;
    const level = await model.getChildren(volume);
    assert.deepStrictEqual(level.map((r) => [r.kind, model.rowView(r).label, model.rowView(r).description]), [
      ['prefix', 'lane1', ''],
      ['object', 'README.txt', '1.5 KB · 1 hour ago'],
    ]);
    let rows = await model.getChildren(level[0]);
    assert.deepStrictEqual(rows.map((r) => r.kind), ['object', 'object', 'loadMore']);
    await model.loadMore(rows[2] as Extract<VolumesNode, { kind: 'loadMore' }>);
    await model.loadMore(rows[2] as Extract<VolumesNode, { kind: 'loadMore' }>);
    rows = await model.getChildren(level[0]);
    assert.deepStrictEqual(rows.map((r) => model.rowView(r).label), ['S0.fastq.gz', 'S1.fastq.gz', 'S2.fastq.gz', 'S3.fastq.gz', 'S4.fastq.gz']);
    assert.strictEqual(model.getParent(rows[4])?.id, level[0].id);
    assert.strictEqual(model.getParent(level[0])?.id, volume.id);
  });

  it('a level that could not be read shows why and a retry, which reads it again', async () => {
    const api = fakeApi(true);
    const model = new VolumesModel(api, () => NOW);
    const volume = (await model.getChildren()).find((r) => r.id === 'volume:rfranklin/sequencing_runs')!;
    const failed = await model.getChildren(volume);
    assert.strictEqual(failed[0].kind, 'message');
    assert.match(model.rowView(failed[0]).label, /connection reset/);
    await model.loadMore(volume as Extract<VolumesNode, { kind: 'volume' }>);
    assert.deepStrictEqual((await model.getChildren(volume)).map((r) => r.kind), ['prefix', 'object']);
  });

  it('an export\'s end reads again the levels that now hold its object; the other levels and volumes keep what they show', async () => {
    // A bucket in memory: a level lists the objects right under its prefix and the prefixes below it.
    const objects = new Map([[results.id, ['qc/report.html', 'exports/old.vcf.gz']], [runs.id, ['lane1/S0.fastq.gz']]]);
    const calls: string[] = [];
    const api: VolumesBrowseApi = {
      list: async () => ({ items: [runs, results], total: 2, next: undefined }),
      objects: async (id: string, prefix: string): Promise<VolumeListing> => {
        calls.push(`${id}|${prefix}`);
        const under = (objects.get(id) ?? []).filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length)).sort();
        return {
          prefixes: [...new Set(under.filter((r) => r.includes('/')).map((r) => `${prefix}${r.split('/')[0]}/`))],
          objects: under.filter((r) => !r.includes('/')).map((r) => ({ location: `${prefix}${r}`, volume: id, metadata: { size: 10 } })),
        };
      },
    };
    const model = new VolumesModel(api, () => NOW);
    const [runsRow, resultsRow] = ['volume:rfranklin/sequencing_runs', 'volume:rfranklin/analysis_results'].map(async (id) => (await model.getChildren()).find((r) => r.id === id)!);
    const labels = async (row: VolumesNode | undefined) => (await model.getChildren(row)).map((r) => model.rowView(r).label);
    const top = await model.getChildren(await resultsRow);
    const [exportsRow, qcRow] = top;
    assert.deepStrictEqual(await labels(await resultsRow), ['exports', 'qc']);
    assert.deepStrictEqual(await labels(exportsRow), ['old.vcf.gz']);
    assert.deepStrictEqual(await labels(qcRow), ['report.html']);
    assert.deepStrictEqual(await labels(await runsRow), ['lane1']);
    const fired: (VolumesNode | undefined)[] = [];
    model.onDidChange((row) => fired.push(row));
    calls.length = 0;

    objects.get(results.id)!.push('exports/cohort/a.vcf.gz', 'results/b.vcf.gz');
    model.objectsChanged(results.id, ['exports/cohort/a.vcf.gz', 'results/b.vcf.gz']);
    assert.deepStrictEqual(fired.map((r) => r?.id), [results.id].map((id) => `volume:${id}`), 'the volume\'s rows are drawn again');
    assert.deepStrictEqual(await labels(await resultsRow), ['exports', 'qc', 'results']);
    assert.deepStrictEqual(await labels(exportsRow), ['cohort', 'old.vcf.gz']);
    assert.deepStrictEqual(await labels(qcRow), ['report.html']);
    assert.deepStrictEqual(await labels(await runsRow), ['lane1']);
    assert.deepStrictEqual(calls.sort(), [`${results.id}|`, `${results.id}|exports/`], 'read again: the top and exports/; qc/ and the other volume are not');

    // Written on a volume whose rows were never drawn: nothing to read again.
    const drawn = fired.length;
    model.objectsChanged('rfranklin/elsewhere', ['x/y.txt']);
    assert.strictEqual(fired.length, drawn);
  });
});
