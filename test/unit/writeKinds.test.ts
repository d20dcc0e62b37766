// The one table of the kinds of write (src/writeKinds.ts), which the outbox is built from.
import * as assert from 'assert';
import { jobWriteOf } from '../../src/jobs/jobWrite';
import { WRITE_KINDS } from '../../src/keys/writes';
import { WriteKinds } from '../../src/write/kinds';
import { writeKinds } from '../../src/writeKinds';
import { FakeClock } from '../support/fakeClock';

describe('the table of write kinds', () => {
  const kinds = writeKinds({} as never, {} as never, new FakeClock());

  it('declares every kind named in keys/writes.ts, each once, and no other', () => {
    assert.deepStrictEqual(kinds.map((k) => k.name).sort(), Object.values(WRITE_KINDS).sort());
  });

  it('Retry Failed Items finds how to send a move\'s, a delete\'s, an import\'s or an export\'s failed items again by the job\'s type; a copy\'s go through the copy flow', () => {
    const table = new WriteKinds(kinds);
    assert.deepStrictEqual(['COPY', 'MOVE', 'DELETE', 'IMPORT', 'EXPORT', 'OTHER'].map((type) => jobWriteOf(table, type)?.name), [WRITE_KINDS.copy, WRITE_KINDS.asyncMove, WRITE_KINDS.asyncDelete, WRITE_KINDS.volumeImport, WRITE_KINDS.volumeExport, undefined]);
    const destination = { label: 'rfranklin/dest › results', project: 'rfranklin/dest', parent: 'f1' };
    const items = [{ file: 'a1', parent: 'f1' }];
    assert.deepStrictEqual(jobWriteOf(table, 'MOVE')!.retry!(items, { a1: 'a.bam' }, { destination }), { items, destination, sourceNames: { a1: 'a.bam' } });
    assert.deepStrictEqual(jobWriteOf(table, 'DELETE')!.retry!(items, { a1: 'a.bam' }, { destination }), { items: [{ file: 'a1' }], names: { a1: 'a.bam' }, where: { label: 'rfranklin/dest › results', project: 'rfranklin/dest' } });
    assert.strictEqual(jobWriteOf(table, 'COPY')!.retry, undefined);
  });

  it('an import\'s or an export\'s calls are made by one object, asked for once: its snapshots of the jobs serve the next calls', async () => {
    let made = 0;
    const writing = { snapshot: async () => ({ ids: [] }), send: async () => ({ jobs: [] }), find: async () => ({ absent: '' }), finish: async () => undefined };
    const table = new WriteKinds(writeKinds({ budget: { serverClock: {} } } as never, {} as never, new FakeClock(), async () => (made++, writing as never)));
    const record = { payload: {} } as never;
    for (const name of [WRITE_KINDS.volumeImport, WRITE_KINDS.volumeBulkImport, WRITE_KINDS.volumeExport]) {
      const kind = table.get(name)!;
      assert.ok(kind.identity.by === 'difference');
      await kind.identity.snapshot(record, {} as never);
      await kind.send(record, {} as never);
    }
    assert.strictEqual(made, 1);
  });

  it('a load of the kinds that fails (a name twice) keeps none of them, and the next call loads again', async () => {
    let loads = 0;
    const [first, second] = kinds;
    const table = new WriteKinds(async () => (++loads === 1 ? [first, second, first] : [first, second]));
    await assert.rejects(table.ready(), new RegExp(`Two kinds of write are named "${first.name.replace('.', '\\.')}"`));
    assert.deepStrictEqual([table.loaded, table.all()], [false, []]);
    await table.ready();
    assert.deepStrictEqual([loads, table.all().map((k) => k.name)], [2, [first.name, second.name]]);
  });
});

