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
});
