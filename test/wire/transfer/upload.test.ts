// The upload engine against the emulator (its multipart API and storage origin), with the fake clock for waits.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SbClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import type { FileLocation } from '../../../src/api/files';
import { StorageClient } from '../../../src/api/storage';
import type { FileRecord } from '../../../src/api/types';
import { MiB } from '../../../src/transfer/partPlan';
import type { TransferProgress } from '../../../src/transfer/progress';
import { ResumeBook, type UploadResume } from '../../../src/transfer/resumeState';
import { Uploader } from '../../../src/transfer/uploader';
import type { CompleteContext } from '../../../src/transfer/fileUploads';
import type { UploaderDeps, UploadRequest } from '../../../src/transfer/upload';
import { lookUpCompletion } from '../../../src/transfer/uploadLookup';
import { startEmulator, type Emulator } from '../../emulator';
import { FakeClock } from '../../support/fakeClock';
import { memoryState, type WindowState } from '../../support/sharedState';
import { bytesOf } from '../../unit/transfer/fakeStorage';

describe('transfer: upload engine (against the emulator)', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let dir: string;
  let clock: FakeClock;
  let client: SbClient;
  let state: WindowState;
  let folderCalls: string[];
  const project = 'rfranklin/my-project';

  /** A stand-in for the create-folder call (not in the client yet): the folder of that name, made in the emulator's data. */
  const ensureFolder = async (parent: FileLocation, name: string): Promise<string> => {
    const parentId = 'project' in parent ? emu.data.projectById.get(parent.project)!.root_folder : parent.parent;
    folderCalls.push(`${emu.data.fileById.get(parentId)!.name}/${name}`);
    const there = emu.data.children(parentId).find((f) => f.name === name && f.type === 'folder');
    if (there) return there.id;
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    return emu.data.addFile({ id: emu.data.newFileId(), name, project: emu.data.fileById.get(parentId)!.project, parent: parentId, type: 'folder', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} }).id;
  };
  const uploader = (more: Partial<UploaderDeps> = {}) =>
    new Uploader({
      uploads: client.uploads,
      complete: (id) => client.uploads.complete(id),
      ensureFolder,
      storage: new StorageClient({ clock }),
      clock,
      resume: new ResumeBook<UploadResume>(state, 'upload', 'acc'),
      ...more,
    });
  const request = (sources: string[], more: Partial<UploadRequest> = {}): UploadRequest => ({ sources, destination: { project }, ifExists: 'rename', ...more });
  const local = (relative: string, bytes: Buffer | string): string => {
    const file = path.join(dir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    return file;
  };
  const contentOf = async (fileId: string): Promise<Buffer> => {
    const blob = emu.contentOf(fileId)!;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  const root = () => emu.data.children(emu.data.projectById.get(project)!.root_folder);
  const puts = () => emu.storageRequests.filter((r) => r.method === 'PUT');
  const records = () => state.keys().filter((k) => k.startsWith('sevenbridges.transfer.upload.'));

  beforeEach(async () => {
    emu = await startEmulator({ tasks: 10, files: 60 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-upload-'));
    clock = new FakeClock();
    client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), clock, backoffMs: 10 });
    state = memoryState();
    folderCalls = [];
    emu.uploads.settings.partSize = 5 * MiB;
  });
  afterEach(async () => {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the folders first, parents before children, then sends each file in parts of the server size, several at once', async () => {
    const a = local('top/a.txt', 'hello');
    const b = local('top/sub/b.bin', bytesOf(12 * MiB + 3));
    local('top/sub/deeper/c.bin', '');
    const storage = new StorageClient({ clock });
    let inFlight = 0;
    let most = 0;
    const counting: Pick<StorageClient, 'put'> = {
      put: async (...args) => {
        most = Math.max(most, ++inFlight);
        try {
          return await storage.put(...args);
        } finally {
          inFlight--;
        }
      },
    };
    const up = uploader({ storage: counting, connections: 4 });
    const plan = await up.plan(request([path.join(dir, 'top')]));
    assert.deepStrictEqual(plan.folders, ['top', 'top/sub', 'top/sub/deeper']);
    assert.strictEqual(plan.bytes, 12 * MiB + 3 + 5);
    const summary = await up.run(plan);
    assert.deepStrictEqual(summary.failed, []);
    assert.deepStrictEqual(folderCalls, ['my-project/top', 'top/sub', 'sub/deeper']);
    assert.strictEqual(summary.uploaded.length, 3);
    const byPath = Object.fromEntries(summary.uploaded.map((u) => [u.localPath, u.file]));
    assert.ok((await contentOf(byPath[b].id)).equals(fs.readFileSync(b)), 'b is byte for byte the local file');
    assert.strictEqual((await contentOf(byPath[a].id)).toString(), 'hello');
    assert.strictEqual(byPath[b].size, 12 * MiB + 3);
    assert.strictEqual(emu.data.fileById.get(byPath[b].id)!.parent, emu.data.children(emu.data.fileById.get(byPath[a].id)!.parent!).find((f) => f.name === 'sub')!.id);
    assert.strictEqual(puts().length, 3 + 1 + 1, 'b in three parts of 5 MiB (the server said so), a and c in one');
    assert.ok(most > 1 && most <= 4, `parts at once: ${most}`);
    assert.ok(emu.storageRequests.every((r) => !r.carriedToken), 'the storage never saw the token');
    assert.strictEqual(emu.uploads.pending.size, 0);
    assert.deepStrictEqual(records(), [], 'nothing left to resume');
    assert.strictEqual(summary.bytes, 12 * MiB + 3 + 5);
  });

  it('tells its progress at most every 250 ms however many files end or are skipped, and the last count whole', async () => {
    const sources = Array.from({ length: 30 }, (_, i) => local(`many/f${i}.txt`, `file ${i}`));
    const first = await uploader().run(await uploader().plan(request(sources.slice(0, 10))));
    assert.strictEqual(first.uploaded.length, 10);
    const progress: TransferProgress[] = [];
    const up = uploader();
    const summary = await up.run(await up.plan(request(sources, { ifExists: 'skip' })), { onProgress: (p) => progress.push(p) });
    assert.deepStrictEqual([summary.uploaded.length, summary.skipped.length], [20, 10]);
    assert.strictEqual(clock.monotonic(), 0, 'the fake clock did not move');
    assert.ok(progress.length <= 3, `${progress.length} progress reports`);
    assert.deepStrictEqual([progress.at(-1)!.filesDone, progress.at(-1)!.filesTotal], [20, 20], 'a skipped file leaves the count');
  });

  it('a name taken: renamed 1_<name> (as the clash preview says), skipped without a byte sent, or overwritten', async () => {
    const file = local('a.txt', 'new bytes');
    await uploader().run(await uploader().plan(request([file])));
    const renamed = await uploader().run(await uploader().plan(request([file], { ifExists: 'rename' })));
    assert.strictEqual(renamed.uploaded[0].file.name, '1_a.txt');
    const putsBefore = puts().length;
    const skipped = await uploader().run(await uploader().plan(request([file], { ifExists: 'skip' })));
    assert.deepStrictEqual([skipped.uploaded.length, skipped.skipped.length, puts().length], [0, 1, putsBefore]);
    assert.match(skipped.skipped[0].reason, /"a.txt" is already there/);
    fs.writeFileSync(file, 'newer bytes');
    const overwritten = await uploader().run(await uploader().plan(request([file], { ifExists: 'overwrite' })));
    assert.strictEqual(overwritten.uploaded[0].file.name, 'a.txt');
    assert.deepStrictEqual(root().filter((f) => /a\.txt$/.test(f.name)).map((f) => f.name).sort(), ['1_a.txt', 'a.txt']);
    assert.strictEqual((await contentOf(overwritten.uploaded[0].file.id)).toString(), 'newer bytes');
  });

  it('a name the platform refuses is said clearly, for that file alone', async () => {
    const bad = local('tab\there.txt', 'x');
    const good = local('fine.txt', 'y');
    const summary = await uploader().run(await uploader().plan(request([bad, good])));
    assert.deepStrictEqual(summary.uploaded.map((u) => u.file.name), ['fine.txt']);
    assert.match(summary.failed[0].reason, /^The platform refused the name "tab\there.txt": Invalid file name/);
  });

  it('Cancel aborts the upload on the platform: no file, no upload, no part left, nothing to resume', async () => {
    const big = local('big.bin', bytesOf(30 * MiB));
    const cancel = new AbortController();
    let reported = 0;
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        if (++reported === 2) cancel.abort();
      },
    });
    const summary = await uploader({ uploads, connections: 2 }).run(await uploader().plan(request([big])), { signal: cancel.signal });
    assert.strictEqual(summary.cancelled, true);
    assert.deepStrictEqual(summary.uploaded, []);
    assert.strictEqual(summary.retry?.files.length, 1);
    assert.strictEqual(emu.uploads.pending.size, 0, 'the upload was aborted');
    assert.ok(emu.uploads.calls.some((c) => c.call === 'abort' && c.status === 204));
    assert.strictEqual(emu.uploads.bytesOnDisk(), 0, 'no part kept');
    assert.ok(!root().some((f) => f.name === 'big.bin'));
    assert.deepStrictEqual(records(), []);
  });

  it('on one connection, the next part\'s URL is asked for while a part\'s bytes go, and the part is reported while the next one\'s bytes go', async () => {
    const big = local('big.bin', bytesOf(15 * MiB));
    const events: string[] = [];
    const storage = new StorageClient({ clock });
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      partTarget: async (...args: Parameters<typeof client.uploads.partTarget>) => {
        events.push(`url ${args[1]}`);
        return client.uploads.partTarget(...args);
      },
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        events.push(`report ${args[1]} done`);
      },
    });
    const sending: Pick<StorageClient, 'put'> = {
      put: async (url, ...rest) => {
        const part = /\/(\d+)\?/.exec(url)?.[1];
        events.push(`put ${part}`);
        try {
          return await storage.put(url, ...rest);
        } finally {
          events.push(`put ${part} done`);
        }
      },
    };
    const summary = await uploader({ uploads, storage: sending, connections: 1 }).run(await uploader().plan(request([big])));
    assert.deepStrictEqual(summary.failed, []);
    assert.ok((await contentOf(summary.uploaded[0].file.id)).equals(fs.readFileSync(big)));
    const at = (event: string) => {
      assert.ok(events.includes(event), `${event} in ${events.join(', ')}`);
      return events.indexOf(event);
    };
    for (const [part, next] of [[1, 2], [2, 3]]) {
      assert.ok(at(`url ${next}`) < at(`put ${part} done`), `part ${next}'s URL before part ${part}'s bytes end: ${events.join(', ')}`);
      assert.ok(at(`put ${part} done`) < at(`put ${next}`), `one connection, one part's bytes at a time: ${events.join(', ')}`);
      assert.ok(at(`put ${next}`) < at(`report ${part} done`), `part ${next}'s bytes go while part ${part} is reported: ${events.join(', ')}`);
    }
  });

  it('a part URL that waited over a minute for its connection is asked for again before its bytes go', async () => {
    const big = local('big.bin', bytesOf(10 * MiB));
    const asked: number[] = [];
    let urlTwo: () => void;
    const urlTwoHeld = new Promise<void>((resolve) => (urlTwo = resolve));
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      partTarget: async (...args: Parameters<typeof client.uploads.partTarget>) => {
        asked.push(args[1]);
        const target = await client.uploads.partTarget(...args);
        if (args[1] === 2) urlTwo();
        return target;
      },
    });
    const storage = new StorageClient({ clock });
    let first = true;
    const slowFirst: Pick<StorageClient, 'put'> = {
      put: async (...args) => {
        if (first) {
          // Part 1's bytes take a minute (a slow link) while part 2's URL waits for the connection.
          first = false;
          await urlTwoHeld;
          clock.advance(61_000);
        }
        return storage.put(...args);
      },
    };
    const summary = await uploader({ uploads, storage: slowFirst, connections: 1 }).run(await uploader().plan(request([big])));
    assert.deepStrictEqual(summary.failed, []);
    assert.deepStrictEqual(asked, [1, 2, 2]);
    assert.ok((await contentOf(summary.uploaded[0].file.id)).equals(fs.readFileSync(big)));
  });

  it('after a halt (the window closes), a new engine resumes from the parts the platform has, sending only the rest', async () => {
    const big = local('big.bin', bytesOf(26 * MiB));
    const halt = new AbortController();
    let reported = 0;
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        if (++reported === 3) halt.abort();
      },
    });
    const first = await uploader({ uploads, connections: 1 }).run(await uploader().plan(request([big])), { halt: halt.signal });
    assert.strictEqual(first.cancelled, true);
    assert.strictEqual(emu.uploads.pending.size, 1, 'the upload is kept on the platform');
    assert.strictEqual(records().length, 1, 'and in stored state');
    const [uploadId] = emu.uploads.pending.keys();
    const sentBefore = puts().filter((r) => r.path.includes(uploadId) && r.status === 200).length;
    assert.strictEqual(sentBefore, 3);
    // Part 4 was on its way when the third report came back: cut by the halt (499), not kept.
    const later = uploader();
    assert.deepStrictEqual(later.leftOver().map((r) => [r.uploadId, r.localPath]), [[uploadId, big]]);
    const second = await later.run(first.retry!);
    assert.deepStrictEqual(second.failed, []);
    const arrived = puts().filter((r) => r.path.includes(uploadId) && r.status !== 499);
    assert.deepStrictEqual(arrived.map((r) => r.status), [200, 200, 200, 200, 200, 200], 'parts 4 to 6 only, once each');
    assert.strictEqual(second.bytes, 26 * MiB - 15 * MiB);
    assert.ok((await contentOf(second.uploaded[0].file.id)).equals(fs.readFileSync(big)));
    assert.deepStrictEqual(emu.uploads.calls.filter((c) => c.call === 'init').length, 1, 'one upload, begun once');
    assert.deepStrictEqual(records(), []);
  });

  it('a resumed upload the platform no longer has (404) starts again; a file changed since is begun anew', async () => {
    const a = local('a.bin', bytesOf(11 * MiB));
    const halt = new AbortController();
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        halt.abort();
      },
    });
    const first = await uploader({ uploads, connections: 1 }).run(await uploader().plan(request([a])), { halt: halt.signal });
    const [gone] = emu.uploads.pending.keys();
    await client.uploads.abort(gone);
    const second = await uploader().run(first.retry!);
    assert.deepStrictEqual(second.failed, []);
    assert.ok((await contentOf(second.uploaded[0].file.id)).equals(fs.readFileSync(a)));
    assert.strictEqual(emu.uploads.calls.filter((c) => c.call === 'init').length, 2);
  });

  it('a resumed upload the platform already completed (its answer lost): the file it made is taken, nothing begun again', async () => {
    const a = local('a.bin', bytesOf(6 * MiB));
    const lostAnswer = async (id: string): Promise<FileRecord> => {
      await client.uploads.complete(id);
      throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
    };
    const first = await uploader({ complete: lostAnswer }).run(await uploader().plan(request([a])));
    assert.deepStrictEqual(first.failed.map((f) => f.reason), ['The platform may have completed it; it is being checked: The connection to the platform was reset before it answered.']);
    assert.strictEqual(records().length, 1, 'its record kept');
    // Resumed (Retry, or the interrupted run): the platform no longer knows the upload; the write path is asked.
    const asked: string[] = [];
    const completed = async (context: CompleteContext): Promise<FileRecord | undefined> => {
      asked.push(context.uploadId);
      const seen = await lookUpCompletion(client, context);
      return seen.state === 'completed' ? seen.file : undefined;
    };
    const second = await uploader({ completed }).run(first.retry!);
    assert.deepStrictEqual(second.failed, []);
    const made = root().filter((f) => f.name.endsWith('a.bin'));
    assert.deepStrictEqual(made.map((f) => f.name), ['a.bin'], 'one file, no 1_a.bin');
    assert.deepStrictEqual([second.uploaded.map((u) => u.file.id), asked.length], [[made[0].id], 1]);
    assert.strictEqual(emu.uploads.calls.filter((c) => c.call === 'init').length, 1, 'begun once');
    assert.deepStrictEqual(records(), []);
  });

  it('a local file changed on disk during its upload is refused alone, its upload aborted; the others arrive', async () => {
    const changing = local('changing.bin', bytesOf(12 * MiB));
    const steady = local('steady.bin', bytesOf(7 * MiB, 3));
    let touched = false;
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        if (!touched && emu.uploads.pending.get(args[0])?.name === 'changing.bin') {
          touched = true;
          fs.appendFileSync(changing, 'more');
        }
      },
    });
    const summary = await uploader({ uploads, connections: 1 }).run(await uploader().plan(request([changing, steady])));
    assert.deepStrictEqual(summary.uploaded.map((u) => u.file.name), ['steady.bin']);
    assert.deepStrictEqual(summary.failed.map((f) => [f.localPath, f.reason]), [[changing, 'The file changed on disk during the upload: it was not uploaded. Upload it again.']]);
    assert.strictEqual(emu.uploads.pending.size, 0, 'its upload was aborted');
    assert.ok(!root().some((f) => f.name === 'changing.bin'));
  });

  it('Cancel while an init is on its way: the upload the platform began is aborted too, not left unknown', async () => {
    const a = local('a.txt', 'abc');
    const cancel = new AbortController();
    // The platform begins the upload; the Cancel comes before its answer is read (a transport rejects a call whose
    // signal aborted, answered or not).
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      init: async (...args: Parameters<typeof client.uploads.init>) => {
        const upload = await client.uploads.init(args[0]);
        cancel.abort();
        if (args[1]?.signal?.aborted) throw new ApiError({ kind: 'cancelled', message: 'Cancelled.' });
        return upload;
      },
    });
    const summary = await uploader({ uploads }).run(await uploader().plan(request([a])), { signal: cancel.signal });
    assert.strictEqual(summary.cancelled, true);
    assert.deepStrictEqual(summary.uploaded, []);
    assert.strictEqual(emu.uploads.calls.filter((c) => c.call === 'init').length, 1);
    assert.strictEqual(emu.uploads.pending.size, 0, 'the upload begun was aborted');
    assert.deepStrictEqual(records(), []);
  });

  it('Cancel with the rate limit spent: the abort refused (429) is sent again after the reset; one that cannot be sent stays on record', async () => {
    const big = local('big.bin', bytesOf(12 * MiB));
    const cancel = new AbortController();
    let refusals = 1;
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        cancel.abort();
      },
      abort: async (...args: Parameters<typeof client.uploads.abort>) => {
        if (refusals-- > 0) throw new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded', untilResetMs: 20_000 });
        return client.uploads.abort(...args);
      },
    });
    const summary = await uploader({ uploads }).run(await uploader().plan(request([big])), { signal: cancel.signal });
    assert.strictEqual(summary.cancelled, true);
    assert.strictEqual(emu.uploads.pending.size, 0, 'aborted after the reset');
    assert.ok(clock.sleeps.some((ms) => ms >= 20_000), `waited for the reset: ${clock.sleeps}`);
    assert.deepStrictEqual(records(), []);

    // Refused past the wait's minute: the upload is kept on record (the next upload of the file takes it up).
    const again = new AbortController();
    refusals = Infinity;
    const stuck = Object.assign(Object.create(uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        again.abort();
      },
    });
    const second = await uploader({ uploads: stuck }).run(await uploader().plan(request([big])), { signal: again.signal });
    assert.strictEqual(second.cancelled, true);
    assert.strictEqual(emu.uploads.pending.size, 1, 'the platform still has it');
    assert.strictEqual(records().length, 1, 'the upload not aborted stays on record');
  });

  it('a lost init answer: the upload the platform began is found in its list and used, not begun twice', async () => {
    const a = local('a.txt', 'abc');
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      init: async (...args: Parameters<typeof client.uploads.init>) => {
        if (emu.uploads.calls.length === 0) {
          await client.uploads.init(...args);
          throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
        }
        return client.uploads.init(...args);
      },
    });
    const summary = await uploader({ uploads }).run(await uploader().plan(request([a])));
    assert.strictEqual(summary.uploaded.length, 1);
    assert.strictEqual(emu.uploads.calls.filter((c) => c.call === 'init').length, 1);
    assert.strictEqual(emu.uploads.pending.size, 0);
  });

  it('a lost complete answer is looked up (the file is there) and not sent again; the lookup tells the three cases', async () => {
    const a = local('a.bin', bytesOf(6 * MiB));
    const contexts: CompleteContext[] = [];
    const lookups: string[] = [];
    const complete = async (id: string, context: CompleteContext): Promise<FileRecord> => {
      contexts.push(context);
      lookups.push((await lookUpCompletion(client, context)).state);
      try {
        return await client.uploads.complete(id);
      } catch (error) {
        if (!(error instanceof ApiError && error.maybeDelivered)) throw error;
        const found = await lookUpCompletion(client, context);
        lookups.push(found.state);
        if (found.state === 'completed') return found.file;
        throw error;
      }
    };
    emu.uploads.loseNextCompleteResponse();
    const summary = await uploader({ complete }).run(await uploader().plan(request([a])));
    assert.deepStrictEqual(summary.failed, []);
    assert.deepStrictEqual(lookups, ['notCompleted', 'completed']);
    assert.deepStrictEqual(emu.uploads.calls.filter((c) => c.call === 'complete').map((c) => [c.status, c.responseLost]), [[200, true]]);
    assert.strictEqual(root().filter((f) => f.name === 'a.bin').length, 1, 'one file');
    assert.strictEqual(summary.uploaded[0].file.id, root().find((f) => f.name === 'a.bin')!.id);
    assert.deepStrictEqual([contexts[0].name, contexts[0].size, contexts[0].destination], ['a.bin', 6 * MiB, { project }]);
    // An upload aborted (or expired): neither it nor its file is there.
    const aborted = await client.uploads.init({ destination: { project }, name: 'x.bin', size: 1, partSize: 5 * MiB });
    await client.uploads.abort(aborted.upload_id);
    assert.deepStrictEqual(await lookUpCompletion(client, { ...contexts[0], uploadId: aborted.upload_id, name: 'x.bin', size: 1 }), { state: 'gone' });
  });

  it('the rate limit spent (5 requests a file): each call refused with a 429 is sent again after the reset, each file made once', async () => {
    await emu.close();
    emu = await startEmulator({ tasks: 10, files: 60, rateLimit: { limit: 7, windowMs: 60_000 }, now: () => clock.now() });
    emu.uploads.settings.partSize = 5 * MiB;
    client = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), clock, backoffMs: 10 });
    const files = ['a', 'b', 'c', 'd'].map((n) => local(`${n}.txt`, n.repeat(10)));
    const summary = await uploader({ connections: 2 }).run(await uploader().plan(request(files)));
    assert.deepStrictEqual(summary.failed, []);
    assert.deepStrictEqual(summary.uploaded.map((u) => u.file.name).sort(), ['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    assert.strictEqual(emu.uploads.calls.filter((c) => c.call === 'complete' && c.status === 200).length, 4);
    assert.ok(clock.sleeps.filter((ms) => ms >= 1_000).length >= 2, `waited for the reset: ${clock.sleeps}`);
  });

  it('a folder that cannot be created: its files fail with why, the rest goes on', async () => {
    local('ok/a.txt', 'a');
    local('bad/b.txt', 'b');
    const summary = await uploader({
      ensureFolder: async (parent, name) => {
        if (name === 'bad') throw new ApiError({ kind: 'http', status: 400, code: 9999, message: 'Invalid folder name.' });
        return ensureFolder(parent, name);
      },
    }).run(await uploader().plan(request([path.join(dir, 'ok'), path.join(dir, 'bad')])));
    assert.deepStrictEqual(summary.uploaded.map((u) => u.file.name), ['a.txt']);
    assert.match(summary.failed[0].reason, /The folder "bad" could not be created: Invalid folder name/);
  });
});
