import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { FileRecord } from '../../../src/api/types';
import { completedThroughOutbox, completeThroughOutbox, folderThroughOutbox, uploadCompleteWrite } from '../../../src/remote/uploadWrite';
import { WRITE_KINDS } from '../../../src/keys/writes';
import { newFolderWrite } from '../../../src/remote/newFolderWrite';
import { Outbox, type WriteKind } from '../../../src/write/outbox';
import { FakeClock } from '../../support/fakeClock';
import { SharedGlobalState } from '../../support/sharedState';
import type { WriteRecord } from '../../../src/write/records';
import type { CompleteContext } from '../../../src/transfer/fileUploads';

/** An outbox of one window, with one kind, on the test's timings. */
const openWith = (kind: WriteKind, clock: FakeClock): Outbox =>
  new Outbox(new SharedGlobalState().window(), async () => ({ key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } }), [kind], clock, { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000, lateWindowMs: 20_000 });

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
    assert.deepStrictEqual(k.keep(made), { href: 'h', id: 'file1', name: 'a.bam', type: 'file', size: 10, project: undefined, parent: 'f1', created_on: '2026-01-01T00:00:05Z', modified_on: undefined });
  });

  it('the upload still there: not done (sent again); gone with the file: done, that file; gone without: it cannot be done, the person decides', async () => {
    assert.ok('absent' in (await read(kind('there', [made]))));
    assert.deepStrictEqual(await read(kind('gone', [made])), { found: made });
    const gone = { changed: 'The upload is gone (aborted or expired) and no file of its name is in its folder: upload the file again.' };
    assert.deepStrictEqual(await read(kind('gone', [{ ...made, size: 9 }])), gone);
    assert.deepStrictEqual(await read(kind('gone', [])), gone);
  });

  it('the completed file is one made since the upload began: a server time a second before its start is within, ten minutes before is another file', async () => {
    // Both times are the platform's, each rounded down to its second.
    assert.deepStrictEqual(await read(kind('gone', [{ ...made, created_on: '2025-12-31T23:59:59Z' }])), { found: { ...made, created_on: '2025-12-31T23:59:59Z' } });
    assert.ok('changed' in (await read(kind('gone', [{ ...made, created_on: '2025-12-31T23:50:00Z' }]))), 'an older file of that name and size is not the upload\'s');
  });

  it('a 404 to complete is checked, never taken as a refusal: another call may have completed this very upload', () => {
    const k = kind('gone', []);
    assert.strictEqual(k.verifyRefusal!(new ApiError({ kind: 'http', status: 404, message: 'Upload not found.' }), record), true);
    assert.strictEqual(k.verifyRefusal!(new ApiError({ kind: 'http', status: 400, message: 'Parts missing.' }), record), false);
  });

  it('checks payloads read back', () => {
    const k = kind('there', []);
    assert.strictEqual(k.isPayload(context), true);
    assert.strictEqual(k.isPayload({ ...context, destination: {} }), false);
    assert.strictEqual(k.isPayload(null), false);
  });

  describe('the engine\'s complete through the outbox', () => {
    const ACCOUNT = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };
    let clock: FakeClock;
    const pick = (f: FileRecord) => ({ id: f.id, name: f.name, size: f.size, parent: f.parent });
    let outbox: Outbox;
    const lost = () => new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
    /** `answers`: what each complete does; `upload`: whether the upload is still there when looked up; `files`: the listing. */
    const wire = (answers: (FileRecord | Error)[], upload: () => 'there' | 'gone' | 'unreachable', files: () => FileRecord[]) => {
      const sent: string[] = [];
      outbox = openWith(
        uploadCompleteWrite({
          uploads: {
            info: async () => (upload() === 'there' ? ({} as never) : upload() === 'gone' ? gone() : Promise.reject(new ApiError({ kind: 'network', message: 'ECONNRESET' }))),
            complete: async (id) => {
              sent.push(id);
              const answer = answers.shift() ?? made;
              if (answer instanceof Error) throw answer;
              return answer;
            },
          },
          files: { list: async () => ({ items: files() }) as never },
        }),
        clock,
      );
      outbox.start();
      return { sent, complete: completeThroughOutbox(outbox, ACCOUNT, 30_000) };
    };
    beforeEach(() => {
      clock = new FakeClock(Date.UTC(2026, 0, 1));
    });
    afterEach(() => outbox.dispose());

    it('answered: the file, one complete, recorded as the "upload complete" write', async () => {
      const { sent, complete } = wire([made], () => 'there', () => []);
      const kinds: string[] = [];
      outbox.onDidFinish(({ record }) => kinds.push(record.kind));
      const file = complete('u1', context);
      await clock.tickAsync(1_000);
      assert.deepStrictEqual(pick(await file), pick(made));
      assert.deepStrictEqual([sent, kinds], [['u1'], [WRITE_KINDS.uploadComplete]]);
    });

    it('a lost answer, the file made: found by the lookup and adopted, complete not sent again', async () => {
      const { sent, complete } = wire([lost()], () => 'gone', () => [made]);
      const file = complete('u1', context);
      await clock.tickAsync(10_000);
      assert.deepStrictEqual(pick(await file), pick(made));
      assert.deepStrictEqual(sent, ['u1'], 'made once');
    });

    it('a lost answer, the upload still there: complete sent again, once', async () => {
      const { sent, complete } = wire([lost(), made], () => 'there', () => []);
      const file = complete('u1', context);
      await clock.tickAsync(10_000);
      assert.deepStrictEqual(pick(await file), pick(made));
      assert.deepStrictEqual(sent, ['u1', 'u1']);
    });

    it('a 404 on a first try, the file made by another window\'s completion of the same upload: that file, not "refused"', async () => {
      const { sent, complete } = wire([new ApiError({ kind: 'http', status: 404, message: 'Upload not found.' })], () => 'gone', () => [made]);
      const file = complete('u1', context);
      await clock.tickAsync(5_000);
      assert.deepStrictEqual(pick(await file), pick(made));
      assert.deepStrictEqual(sent, ['u1']);
    });

    it('a 404 on a first try, neither the upload nor its file there: a refusal with why, not "may have been made"', async () => {
      const { sent, complete } = wire([new ApiError({ kind: 'http', status: 404, message: 'Upload not found.' })], () => 'gone', () => []);
      const file = complete('u1', context).catch((e: unknown) => e);
      await clock.tickAsync(5_000);
      const error = (await file) as ApiError;
      assert.deepStrictEqual([error.maybeDelivered, error.message, sent], [false, 'The upload is gone (aborted or expired) and no file of its name is in its folder: upload the file again.', ['u1']]);
    });

    it('a completion of the same upload already in the outbox (an earlier run\'s, still checked) is followed, not sent again', async () => {
      let upload: 'there' | 'gone' = 'there';
      const { sent, complete } = wire([lost()], () => upload, () => (upload === 'gone' ? [made] : []));
      // The earlier run's completion: its answer lost, the platform completed it meanwhile.
      const first = complete('u1', context).catch((e: unknown) => e);
      await clock.tickAsync(10);
      upload = 'gone';
      const again = complete('u1', context);
      await clock.tickAsync(10_000);
      assert.deepStrictEqual(pick(await again), pick(made));
      assert.deepStrictEqual(pick((await first) as FileRecord), pick(made));
      assert.deepStrictEqual(sent, ['u1'], 'one complete');
    });

    it('before a resumed upload the platform no longer knows is begun again: its pending completion is followed, else the file looked for', async () => {
      let upload: 'there' | 'gone' = 'there';
      let files: FileRecord[] = [];
      const { sent, complete } = wire([lost()], () => upload, () => files);
      const api = { uploads: { info: async () => (upload === 'there' ? ({} as never) : gone()), complete: async () => made }, files: { list: async () => ({ items: files }) as never } };
      const completed = completedThroughOutbox(outbox, api, ACCOUNT, 30_000);
      void complete('u1', context).catch(() => undefined);
      await clock.tickAsync(10);
      // Completed on the platform, the answer lost; the lookup has not run yet.
      [upload, files] = ['gone', [made]];
      const asked = completed(context);
      await clock.tickAsync(10_000);
      assert.deepStrictEqual(pick((await asked)!), pick(made), 'the pending completion, followed');
      assert.deepStrictEqual(sent, ['u1']);
      // No completion in the outbox: the file is looked for; none there (aborted): undefined, begun again.
      assert.deepStrictEqual(pick((await completed(context))!), pick(made));
      files = [];
      assert.strictEqual(await completed(context), undefined);
    });

    it('while the pending completion is still being checked, nothing is begun: it rejects as "may have been made"', async () => {
      // Its lookups cannot reach the platform.
      const { complete } = wire([lost()], () => 'unreachable', () => []);
      const api = { uploads: { info: async () => gone(), complete: async () => made }, files: { list: async () => ({ items: [] }) as never } };
      const completed = completedThroughOutbox(outbox, api, ACCOUNT, 1_000);
      void complete('u1', context).catch(() => undefined);
      await clock.tickAsync(10);
      const asked = completed(context).catch((e: unknown) => e);
      await clock.tickAsync(2_000);
      assert.strictEqual(((await asked) as ApiError).maybeDelivered, true);
    });

    it('a refusal (4xx) rejects as refused, not "may have been made"', async () => {
      const { sent, complete } = wire([new ApiError({ kind: 'http', status: 400, message: 'parts missing' })], () => 'there', () => []);
      const file = complete('u1', context).catch((e: unknown) => e);
      await clock.tickAsync(1_000);
      const error = (await file) as ApiError;
      assert.ok(error instanceof ApiError);
      assert.strictEqual(error.maybeDelivered, false);
      assert.deepStrictEqual(sent, ['u1']);
    });
  });

  describe("the engine's ensureFolder: a folder there is used, else made by the outbox's \"new folder\" write", () => {
    const ACCOUNT = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };
    const folder = (id: string, name = 'reads'): FileRecord => ({ href: 'h', id, name, type: 'folder', parent: 'f1' });
    let clock: FakeClock;
    let outbox: Outbox;
    beforeEach(() => {
      clock = new FakeClock(Date.UTC(2026, 0, 1));
    });
    afterEach(() => outbox.dispose());
    /** `listings`: what each listing of the parent answers, in turn (the last one repeats); `create`: what a POST does. */
    const wire = (listings: FileRecord[][], create: () => Promise<FileRecord>) => {
      const calls: string[] = [];
      const kinds: string[] = [];
      const files = {
        list: async () => (calls.push('list'), { items: listings.length > 1 ? listings.shift()! : listings[0] } as never),
        createFolder: async (name: string) => (calls.push(`create ${name}`), create()),
      };
      outbox = openWith(newFolderWrite(files), clock);
      outbox.start();
      outbox.onDidFinish(({ record }) => kinds.push(record.kind));
      return { calls, kinds, ensure: folderThroughOutbox(outbox, files, ACCOUNT, 30_000) };
    };

    it('there already: its ID, nothing written', async () => {
      const { calls, ensure } = wire([[folder('d1')]], () => Promise.reject(new Error('not sent')));
      assert.strictEqual(await ensure({ parent: 'f1' }, 'reads'), 'd1');
      assert.deepStrictEqual(calls, ['list']);
    });

    it('not there: made once, as a "new folder" write of the outbox', async () => {
      const { calls, kinds, ensure } = wire([[], []], async () => folder('d2'));
      const id = ensure({ parent: 'f1' }, 'reads', undefined, 'run/x');
      await clock.tickAsync(1_000);
      assert.strictEqual(await id, 'd2');
      assert.deepStrictEqual([calls.filter((c) => c.startsWith('create')), kinds], [['create reads'], [WRITE_KINDS.newFolder]]);
    });

    it('a lost answer whose folder shows in the listing only 10 s later: looked for, never made again (a new folder is not idempotent)', async () => {
      let made: FileRecord | undefined;
      let shownAt = Infinity;
      const files = {
        list: async () => ({ items: made && clock.now() >= shownAt ? [made] : [] }) as never,
        createFolder: async () => {
          if (made) return folder('d-twice');
          made = folder('d5');
          shownAt = clock.now() + 10_000;
          throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
        },
      };
      const creates: string[] = [];
      const counted = { ...files, createFolder: async (name: string) => (creates.push(name), files.createFolder()) };
      outbox = openWith(newFolderWrite(counted), clock);
      outbox.start();
      const id = folderThroughOutbox(outbox, counted, ACCOUNT, 60_000)({ parent: 'f1' }, 'reads');
      await clock.tickAsync(30_000);
      assert.strictEqual(await id, 'd5');
      assert.deepStrictEqual(creates, ['reads'], 'one POST');
    });

    it('refused (409: made meanwhile by another): the folder of that name found then is the one', async () => {
      const { calls, ensure } = wire([[], [], [folder('d3')]], () => Promise.reject(new ApiError({ kind: 'http', status: 409, message: 'taken' })));
      const id = ensure({ parent: 'f1' }, 'reads');
      await clock.tickAsync(1_000);
      assert.strictEqual(await id, 'd3');
      assert.deepStrictEqual(calls.filter((c) => c.startsWith('create')), ['create reads'], 'not sent again');
    });
  });
});
