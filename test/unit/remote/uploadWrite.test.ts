import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { FileRecord } from '../../../src/api/types';
import { uploadCompleteWrite } from '../../../src/remote/uploadWrite';
import type { WriteRecord } from '../../../src/write/records';
import type { CompleteContext } from '../../../src/transfer/upload';

describe('remote/uploadWrite: "upload complete" as a write kind, found by state', () => {
  const context: CompleteContext = { uploadId: 'u1', destination: { parent: 'f1' }, name: 'a.bam', size: 10, localPath: '/tmp/a.bam', initiated: '2026-01-01T00:00:00Z' };
  const record = { payload: context } as WriteRecord<CompleteContext, undefined, FileRecord>;
  const made: FileRecord = { href: 'h', id: 'file1', name: 'a.bam', type: 'file', size: 10, parent: 'f1', created_on: '2026-01-01T00:00:05Z', tags: ['t'] };
  const gone = () => Promise.reject(new ApiError({ kind: 'http', status: 404, message: 'gone' }));
  const kind = (upload: 'there' | 'gone', files: FileRecord[], calls: string[] = []) =>
    uploadCompleteWrite({
      uploads: {
        info: async () => (calls.push('info'), upload === 'there' ? ({} as never) : gone()),
        complete: async (id) => (calls.push(`complete ${id}`), made),
      },
      files: { list: async () => (calls.push('list'), { items: files } as never) },
    });
  const read = (k: ReturnType<typeof kind>) => (k.identity.by === 'state' ? k.identity.read(record, { endpoint: 'e', token: 't' } as never) : Promise.reject(new Error('not by state')));

  it('is idempotent, found by state; sends complete with the upload ID and keeps only the file\'s place', async () => {
    const calls: string[] = [];
    const k = kind('there', [], calls);
    assert.strictEqual(k.idempotent, true);
    assert.strictEqual(k.identity.by, 'state');
    assert.deepStrictEqual(await k.send(record, { endpoint: 'e', token: 't' } as never), made);
    assert.deepStrictEqual(calls, ['complete u1']);
    assert.deepStrictEqual(k.keep(made), { href: 'h', id: 'file1', name: 'a.bam', type: 'file', size: 10, project: undefined, parent: 'f1' });
  });

  it('the upload still there: not done (sent again); gone with the file: done, that file; gone without: not done', async () => {
    assert.ok('absent' in (await read(kind('there', [made]))));
    assert.deepStrictEqual(await read(kind('gone', [made])), { found: made });
    assert.ok('absent' in (await read(kind('gone', [{ ...made, size: 9 }]))));
    assert.ok('absent' in (await read(kind('gone', []))));
  });

  it('checks payloads read back', () => {
    const k = kind('there', []);
    assert.strictEqual(k.isPayload(context), true);
    assert.strictEqual(k.isPayload({ ...context, destination: {} }), false);
    assert.strictEqual(k.isPayload(null), false);
  });
});
