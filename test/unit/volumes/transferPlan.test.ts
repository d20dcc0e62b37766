// Import and export planned before anything is sent: the choices asked once, 100 items a call, the kind of each call,
// and what an export refuses with why.
import * as assert from 'assert';
import type { Volume } from '../../../src/api/volumes';
import { exportKind, exportPlan, importKind, importPayloads } from '../../../src/volumes/transferPlan';

const rw: Volume = { id: 'rfranklin/analysis_results', name: 'analysis_results', access_mode: 'RW', active: true };
const ro: Volume = { id: 'rfranklin/sequencing_runs', name: 'sequencing_runs', access_mode: 'RO', active: true };
const off: Volume = { id: 'rfranklin/old_archive', name: 'old_archive', access_mode: 'RW', active: false };
const id = (n: number) => n.toString(16).padStart(24, '0');

describe('import and export plans', () => {
  it('an import: the choices on every item, folder structure said only for a prefix, duplicates once, 100 a call', () => {
    const sources = [
      { volume: 'rfranklin/sequencing_runs', location: 'runs/2026-11-02/lane1/' },
      { volume: 'rfranklin/sequencing_runs', location: 'README.txt' },
      { volume: 'rfranklin/sequencing_runs', location: 'README.txt' },
    ];
    const [p] = importPayloads(sources, { project: 'rfranklin/my-project', parent: id(1), label: 'lane1' }, { onClash: 'autorename', keepFolders: false });
    assert.deepStrictEqual(p.items, [
      { source: sources[0], destination: { parent: id(1) }, autorename: true, preserve_folder_structure: false },
      { source: sources[1], destination: { parent: id(1) }, autorename: true },
    ]);
    assert.strictEqual(importKind([p]), 'volume.bulkImport');
    const root = importPayloads([sources[1]], { project: 'rfranklin/my-project', label: 'my-project' }, { onClash: 'overwrite', keepFolders: true });
    assert.deepStrictEqual(root[0].items[0].destination, { project: 'rfranklin/my-project' });
    assert.strictEqual(root[0].items[0].overwrite, true);
    assert.strictEqual(importKind(root), 'volume.import');
    const many = Array.from({ length: 250 }, (_, i) => ({ volume: 'rfranklin/sequencing_runs', location: `o${i}` }));
    const split = importPayloads(many, { project: 'rfranklin/my-project', label: 'p' }, { onClash: 'fail', keepFolders: true });
    assert.deepStrictEqual(split.map((x) => x.items.length), [100, 100, 50]);
    assert.strictEqual(importKind(split), 'volume.bulkImport');
  });

  it('an export: each file at <prefix><name>; folders, public files, links to a volume and a second file for one place refused with why', () => {
    const files = [
      { id: id(1), name: 'a.vcf', project: 'rfranklin/my-project', type: 'file' },
      { id: id(2), name: 'dir', project: 'rfranklin/my-project', type: 'folder' },
      { id: id(3), name: 'ref.fa', project: 'admin/sbg-public-data', type: 'file' },
      { id: id(4), name: 'linked.bam', project: 'rfranklin/my-project', type: 'file', storage: { type: 'VOLUME' } },
      { id: id(5), name: 'a.vcf', project: 'rfranklin/other', type: 'file' },
      { id: id(6), name: 'b.vcf', project: 'rfranklin/my-project', type: 'file' },
    ];
    const plan = exportPlan(files, rw, 'exports', true);
    assert.deepStrictEqual(plan.payloads[0].items.map((i) => i.destination.location), ['exports/a.vcf', 'exports/b.vcf']);
    assert.strictEqual(plan.payloads[0].copyOnly, true);
    assert.deepStrictEqual(plan.payloads[0].projects, { [id(1)]: 'rfranklin/my-project', [id(6)]: 'rfranklin/my-project' });
    assert.deepStrictEqual(plan.refused.map((r) => r.name), ['dir', 'ref.fa', 'linked.bam', 'a.vcf']);
    assert.match(plan.refused[0].why, /folder/);
    assert.match(plan.refused[1].why, /public/);
    assert.match(plan.refused[2].why, /link to a volume/);
    assert.match(plan.refused[3].why, /exports\/a\.vcf/);
    assert.strictEqual(exportKind(plan.payloads), 'volume.bulkExport');
  });

  it('an export to a read-only or inactive volume sends nothing and says why for each file', () => {
    const files = [{ id: id(1), name: 'a.vcf', type: 'file' }];
    const readOnly = exportPlan(files, ro, '', true);
    assert.deepStrictEqual(readOnly.payloads, []);
    assert.match(readOnly.refused[0].why, /read-only/);
    assert.match(exportPlan(files, off, '', false).refused[0].why, /inactive/);
  });
});
