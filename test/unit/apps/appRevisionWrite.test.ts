// A push as a write (src/apps/appRevisionWrite.ts): its identity rule on an in-memory fake of the apps client.
import * as assert from 'assert';
import type { RawApp } from '../../../src/api/apps';
import { ApiError } from '../../../src/api/errors';
import { appInstallWrite, appRevisionWrite, type AppRevisionPayload, type AppsWriteApi } from '../../../src/apps/appRevisionWrite';
import { WRITE_KINDS } from '../../../src/keys/writes';
import type { WriteRecord } from '../../../src/write/outbox';

const credentials = { endpoint: 'http://x/v2', token: 't' };
const SENT: RawApp = { class: 'CommandLineTool', cwlVersion: 'v1.0', inputs: [{ id: 'threads', type: 'int', default: 16 }], outputs: [] };
const payload: AppRevisionPayload = { app: 'rfranklin/rna-seq/bwa', revision: 3, cwl: SENT, source: 'tools/bwa.cwl' };
const record = (p: AppRevisionPayload = payload) => ({ payload: p }) as unknown as WriteRecord<AppRevisionPayload, undefined, never>;

/** The platform's revisions of the app, by number, as it serves them (with the fields it sets). */
function platform(revisions: Record<number, RawApp>): AppsWriteApi & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    raw: async (id: string) => {
      asked.push(id);
      const revision = Number(id.split('/')[3]);
      if (!(revision in revisions)) throw new ApiError({ kind: 'http', status: 404, message: 'Requested app/revision does not exist' });
      return revisions[revision];
    },
    createRevision: async () => ({}),
    install: async () => ({}),
  };
}

const served = (doc: RawApp, revision: number, by = 'rfranklin'): RawApp => ({
  ...doc,
  'sbg:id': `rfranklin/rna-seq/bwa/${revision}`,
  'sbg:revision': revision,
  'sbg:modifiedBy': by,
  'sbg:validationErrors': ["No 'outputs'"],
  'sbg:content_hash': 'abc',
});

describe('a push as a write: the revision read back', () => {
  const kind = appRevisionWrite(platform({}));
  const read = async (revisions: Record<number, RawApp>) => {
    const k = appRevisionWrite(platform(revisions));
    assert.strictEqual(k.identity.by, 'state');
    return k.identity.by === 'state' ? k.identity.read(record(), credentials) : undefined;
  };

  it('is the kind named app.revision, sent again when read as not done (its number named makes that safe)', () => {
    assert.strictEqual(kind.name, WRITE_KINDS.appRevision);
    assert.strictEqual(kind.idempotent, true);
    assert.strictEqual(kind.describe(payload), 'Push tools/bwa.cwl as revision 3 of rfranklin/rna-seq/bwa');
  });

  it('revision N holds what was sent (the platform\'s own fields aside, fields it adds taken): done, with the revision and its validation errors', async () => {
    const withMore = served({ ...SENT, inputs: [{ id: 'threads', type: 'int', default: 16, 'sbg:toolDefaultValue': '16' }], 'sbg:appVersion': ['v1.0'] }, 3);
    assert.deepStrictEqual(await read({ 2: served({ ...SENT }, 2), 3: withMore }), { found: { id: 'rfranklin/rna-seq/bwa/3', revision: 3, validationErrors: ["No 'outputs'"] } });
  });

  it('revision N is not there: not done', async () => {
    assert.deepStrictEqual(await read({ 2: served(SENT, 2) }), { absent: 'Revision 3 of rfranklin/rna-seq/bwa is not on the platform.' });
  });

  it('revision N holds another document (a default changed, an input more): someone else pushed it, the person decides', async () => {
    const other = served({ ...SENT, inputs: [{ id: 'threads', type: 'int', default: 8 }] }, 3, 'ggarcia');
    assert.deepStrictEqual(await read({ 3: other }), { changed: 'Revision 3 of rfranklin/rna-seq/bwa holds another document, pushed by ggarcia. Push again to compare and make the next revision.' });
    const longer = served({ ...SENT, inputs: [{ id: 'threads', type: 'int', default: 16 }, { id: 'more', type: 'string' }] }, 3, 'ggarcia');
    assert.ok('changed' in (await read({ 3: longer }))!);
  });

  it('a lookup that cannot read the platform is an error, not an answer', async () => {
    const k = appRevisionWrite({ ...platform({}), raw: () => Promise.reject(new ApiError({ kind: 'http', status: 500, message: 'boom' })) });
    await assert.rejects(k.identity.by === 'state' ? k.identity.read(record(), credentials) : Promise.resolve(), /boom/);
  });

  it('keeps only the revision and its errors; checks what it reads back', () => {
    assert.deepStrictEqual(kind.keep({ id: 'a/b/c/3', revision: 3, validationErrors: [], extra: 1 } as never), { id: 'a/b/c/3', revision: 3, validationErrors: [] });
    assert.strictEqual(kind.isPayload(payload), true);
    assert.strictEqual(kind.isPayload({ ...payload, app: 'a/b/c/3' }), false);
    assert.strictEqual(kind.isPayload({ ...payload, revision: -1 }), false);
    assert.strictEqual(kind.isOutcome!({ id: 'a/b/c/3', revision: 3, validationErrors: [] }), true);
    assert.strictEqual(kind.isOutcome!({ id: 'a/b/c/3', revision: '3', validationErrors: [] }), false);
  });
});

describe('a new app as a write', () => {
  it('is app.install, found by revision 0 as the next revision is, and never sent again without the person', async () => {
    const kind = appInstallWrite(platform({ 0: served(SENT, 0) }));
    assert.strictEqual(kind.name, WRITE_KINDS.appInstall);
    assert.strictEqual(kind.idempotent, false);
    const found = kind.identity.by === 'state' ? await kind.identity.read(record({ ...payload, revision: 0 }), credentials) : undefined;
    assert.deepStrictEqual(found, { found: { id: 'rfranklin/rna-seq/bwa/0', revision: 0, validationErrors: ["No 'outputs'"] } });
  });
});
