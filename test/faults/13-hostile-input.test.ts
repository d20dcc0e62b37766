// Hostile input (issue 36): odd answers of a storage of the suite's own (hostileStorage.ts: shifted and short ranges,
// a 200 to Range, bodies shorter or longer than said, sizes no file has), odd listings of a hostile platform
// (hostile.ts), odd names, and hostile local disks (temporary folders holding links out of them, case collisions,
// files rewritten with their times set back, files that cannot be read). Each case compares the bytes on disk, or on
// the platform, with the bytes meant, and adds its figures to the summary's row of its class (`accountIntegrity`):
// files the product wrote outside the folder chosen, files saved or uploaded whole that are not the bytes meant
// (torn), and waits that did not end (hung), each computed from what is on disk and on the platform.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as vscode from 'vscode';
import { systemClock, type Clock } from '../../src/api/clock';
import type { ReadableFile } from '../../src/transfer/fileSpanBody';
import { StorageClient } from '../../src/api/storage';
import type { ExecutionDetails, Task } from '../../src/api/types';
import { collectItems } from '../../src/remote/downloadItems';
import { uploadSummaryWords } from '../../src/remote/transferWords';
import { collectFailureLogs, writeSummary } from '../../src/tasks/failureLogs';
import { Downloader, type DownloaderDeps } from '../../src/transfer/download';
import type { DownloadItem } from '../../src/transfer/downloadPlan';
import { ResumeBook, type DownloadResume, type UploadResume, type UploadRunResume } from '../../src/transfer/resumeState';
import { Uploader } from '../../src/transfer/uploader';
import { requestLogger } from '../../src/ui/requestLog';
import type { Emulator } from '../emulator';
import { bytesOf } from '../unit/transfer/fakeStorage';
import { listReply, startHostile, type HostileServer } from './hostile';
import { honest, startHostileStorage, type Asked, type HostileStorage, type StorageReply } from './hostileStorage';
import { accountIntegrity, assertReadable, makeClient, makeEmulator, note, record, recordedState, type IntegrityFigures } from './support';
import type { WindowState } from '../support/sharedState';

const MiB = 1024 * 1024;
/** A wait longer than any case takes by far: past it, the case is counted as hung. */
const DEADLINE_MS = 60_000;

/** What one case found, added to its class's row of the summary. */
type Figures = IntegrityFigures;
const figures = (): Figures => ({ cases: 0, bytesCompared: 0, outside: 0, torn: 0, hung: 0 });

/** The promise's value, or `undefined` (and one more hung wait) when it has not settled by the deadline. */
async function within<T>(f: Figures, promise: Promise<T>, ms = DEADLINE_MS): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([promise, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    f.hung++;
    return undefined;
  }
  return outcome as T;
}

/** Compares a file's bytes with the bytes meant: a file there with other bytes is torn (shifted, truncated, mixed). */
function compare(f: Figures, file: string, meant: Buffer): boolean {
  const there = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
  f.bytesCompared += meant.length;
  if (there && !there.equals(meant)) f.torn++;
  return !!there?.equals(meant);
}

/** Everything under a folder, a link as where it leads: what the product must leave as it is. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of fs.readdirSync(at)) {
      const p = path.join(at, name);
      const stats = fs.lstatSync(p);
      if (stats.isSymbolicLink()) out.set(p, `link ${fs.readlinkSync(p)}`);
      else if (stats.isDirectory()) {
        out.set(p, 'folder');
        walk(p);
      } else out.set(p, fs.readFileSync(p).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

/** Entries added, changed or gone between two snapshots: what was written outside the folder. */
function changedOutside(before: Map<string, string>, after: Map<string, string>): number {
  let n = 0;
  for (const [p, v] of after) if (before.get(p) !== v) n++;
  for (const p of before.keys()) if (!after.has(p)) n++;
  return n;
}

describe('hostile input: odd answers, names and disks (issue 36)', function () {
  this.timeout(120_000);
  let dir: string;
  let target: string;
  let outside: string;
  let before: Map<string, string>;
  let storage: HostileStorage;
  let state: WindowState;
  const writeLog = requestLogger({ info: (l: string) => record.logLines.push(l), warn: (l: string) => record.logLines.push(l) } as unknown as vscode.LogOutputChannel);
  const storageClient = () => new StorageClient({ onRequest: (e) => (record.logEntries.push(e), writeLog(e)) });

  const downloader = (more: Partial<DownloaderDeps> = {}) =>
    new Downloader({
      downloadInfo: async (id) => storage.url(id),
      storage: storageClient(),
      clock: systemClock,
      resume: new ResumeBook<DownloadResume>(state, 'download', 'hostile'),
      backoffMs: 5,
      freeSpace: async () => 1e12,
      ...more,
    });
  /** Plans and runs a download of `items` into the target, within the deadline. */
  const download = async (f: Figures, items: DownloadItem[], more: Partial<DownloaderDeps> = {}) => {
    const d = downloader(more);
    return within(
      f,
      d.plan({ target, items, ifExists: 'overwrite' }).then((plan) => d.run(plan)),
    );
  };
  /** A file of the hostile storage: its bytes, and how it answers (honestly unless told). */
  const stored = (id: string, bytes: Buffer, serve?: (asked: Asked, bytes: Buffer, n: number) => StorageReply) => {
    storage.files.set(id, { bytes, serve });
    return bytes;
  };
  /** Ends a case: what changed outside the folder, then the figures in the summary, then none of the three may be more than 0. */
  const account = (cls: string, f: Figures) => {
    f.outside += changedOutside(before, snapshot(outside));
    accountIntegrity(cls, f);
    assert.deepStrictEqual({ outside: f.outside, torn: f.torn, hung: f.hung }, { outside: 0, torn: 0, hung: 0 });
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-hostile-'));
    target = path.join(dir, 'target');
    outside = path.join(dir, 'outside');
    fs.mkdirSync(target);
    fs.mkdirSync(path.join(outside, 'dir'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'the bytes of a file outside the folder chosen');
    fs.writeFileSync(path.join(outside, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY----- not to leave this machine');
    fs.writeFileSync(path.join(outside, 'dir', 'kept.txt'), 'a file in a folder outside');
    before = snapshot(outside);
    storage = await startHostileStorage();
    state = recordedState();
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('range answers', () => {
    /** A 206 of other bytes than asked (`by` later), saying so in its Content-Range. */
    const shifted = (by: number) => (asked: Asked, bytes: Buffer): StorageReply => {
      const { start, end } = asked as { start: number; end?: number };
      const [from, to] = [start + by, Math.min(bytes.length - 1, (end ?? bytes.length - 1) + by)];
      return { status: 206, headers: { 'Content-Range': `bytes ${from}-${to}/${bytes.length}` }, body: bytes.subarray(from, to + 1) };
    };
    /** A 206 that ends 1,000 bytes before the end asked, the file going on. */
    const endsEarly = (asked: Asked, bytes: Buffer): StorageReply => {
      const { start, end } = asked as { start: number; end: number };
      return { status: 206, headers: { 'Content-Range': `bytes ${start}-${end - 1000}/${bytes.length}` }, body: bytes.subarray(start, end - 999) };
    };
    const once = (bad: (asked: Asked, bytes: Buffer) => StorageReply) => (asked: Asked, bytes: Buffer, n: number) => (n === 0 ? bad(asked, bytes) : honest(asked, bytes));

    it('a 206 shifted, cut short, with a short or a long body is refused and asked again; one that never fits fails its file alone, nothing under its name', async () => {
      const f = figures();
      const good = {
        shiftedOnce: stored('shiftedOnce', bytesOf(3 * MiB, 1), once(shifted(100))),
        endsEarlyOnce: stored('endsEarlyOnce', bytesOf(3 * MiB, 2), once(endsEarly)),
        shortBodyOnce: stored('shortBodyOnce', bytesOf(3 * MiB, 3), once((a, b) => ({ ...honest(a, b), body: honest(a, b).body.subarray(0, MiB), chunked: true }))),
        longBodyOnce: stored('longBodyOnce', bytesOf(3 * MiB, 4), once((a, b) => ({ ...honest(a, b), body: Buffer.concat([honest(a, b).body, bytesOf(5000, 9)]), chunked: true }))),
        honest: stored('honest', bytesOf(20 * MiB + 17, 5)),
      };
      const alwaysShifted = stored('alwaysShifted', bytesOf(3 * MiB, 6), shifted(100));
      // A file whose answers after the first say another total: it changed under the download.
      const changing = stored('changing', bytesOf(20 * MiB, 7), (asked, bytes, n) => {
        const reply = honest(asked, bytes);
        return n === 0 ? reply : { ...reply, headers: { ...reply.headers, 'Content-Range': reply.headers!['Content-Range'].replace(/\/\d+$/, `/${bytes.length * 2}`) } };
      });
      const items = [...Object.keys(good), 'alwaysShifted', 'changing'].map((id) => ({ fileId: id, relativePath: `run/${id}.bin`, size: storage.files.get(id)!.bytes.length }));
      const summary = await download(f, items);
      f.cases += items.length;
      assert.ok(summary, 'the download ended');
      for (const [id, bytes] of Object.entries(good)) assert.ok(compare(f, path.join(target, 'run', `${id}.bin`), bytes), id);
      const reasons = Object.fromEntries(summary.failed.map((x) => [x.item.fileId, x.reason]));
      assert.deepStrictEqual(Object.keys(reasons).sort(), ['alwaysShifted', 'changing']);
      assert.match(reasons.alwaysShifted, /Stopped after 6 tries: .*sent bytes 100-3145827\/3145728 where bytes 0-3145727 were asked|Stopped after 6 tries: .*sent bytes 100-/);
      assert.match(reasons.changing, /now has 41943040: the file changed/);
      for (const reason of Object.values(reasons)) assertReadable(reason, 'a range refused');
      // Neither took its name: a shifted or changed file is never saved.
      for (const [id, bytes] of [['alwaysShifted', alwaysShifted], ['changing', changing]] as const) {
        f.bytesCompared += bytes.length;
        if (fs.existsSync(path.join(target, 'run', `${id}.bin`))) f.torn++;
      }
      assert.strictEqual(storage.requests.filter((r) => r.id === 'alwaysShifted').length, 6, 'asked six times, then given up');
      note(`${items.length} files: ${Object.keys(good).length} saved byte for byte after a bad answer each, 2 refused (${storage.requests.length} requests)`);
      account('range answers', f);
    });

    it('a 200 to every Range request: the file is read once, whole, by one connection, never again per range', async () => {
      const f = figures();
      const bytes = stored('ignoresRange', bytesOf(40 * MiB, 11), (_asked, b) => ({ status: 200, headers: { ETag: '"whole"' }, body: b }));
      const summary = await download(f, [{ fileId: 'ignoresRange', relativePath: 'whole.bin', size: bytes.length }]);
      f.cases++;
      assert.deepStrictEqual(summary?.failed, []);
      assert.ok(compare(f, path.join(target, 'whole.bin'), bytes));
      assert.strictEqual(summary!.bytes, bytes.length, 'each byte written once');
      const sent = storage.sentFor('ignoresRange');
      const requests = storage.requests.filter((r) => r.id === 'ignoresRange').length;
      note(`40 MiB whose storage ignores Range: ${requests} requests, ${(sent / bytes.length).toFixed(2)}× the file's bytes sent by the storage (a range's body let go after its headers), 1× written`);
      assert.ok(sent < 2 * bytes.length, `the storage sent ${sent} bytes for a file of ${bytes.length}: it was read again per range`);
      account('range answers', f);
    });

    it('a range\'s fault count is reset by progress: seven cuts spread over one range do not fail it', async () => {
      const f = figures();
      const bytes = stored('cutOften', bytesOf(3 * MiB, 12), (asked, b, n) => ({ ...honest(asked, b), ...(n < 7 ? { cutAfter: 256 * 1024 } : {}) }));
      const summary = await download(f, [{ fileId: 'cutOften', relativePath: 'cut.bin', size: bytes.length }]);
      f.cases++;
      assert.deepStrictEqual(summary?.failed, []);
      assert.ok(compare(f, path.join(target, 'cut.bin'), bytes));
      assert.strictEqual(storage.requests.filter((r) => r.id === 'cutOften').length, 8, 'seven cuts, each after progress, then the rest');
      account('range answers', f);
    });

    it('every read sends a Range header, the one from byte 0 too: no range streams the whole file', async () => {
      const f = figures();
      const files = { big: stored('big', bytesOf(20 * MiB, 13)), small: stored('small', bytesOf(1000, 14)), empty: stored('empty', Buffer.alloc(0)) };
      const summary = await download(f, Object.entries(files).map(([id, b]) => ({ fileId: id, relativePath: id, size: b.length })));
      f.cases += 3;
      assert.deepStrictEqual(summary?.failed, []);
      for (const [id, b] of Object.entries(files)) assert.ok(compare(f, path.join(target, id), b), id);
      assert.deepStrictEqual(storage.requests.filter((r) => r.range === undefined), [], 'a read without Range');
      assert.ok(storage.requests.some((r) => r.id === 'big' && r.range === `bytes=0-${8 * MiB - 1}`));
      assert.strictEqual(storage.requests.reduce((n, r) => n + r.sent, 0), 20 * MiB + 1000, 'the storage sent each byte once');
      account('range answers', f);
    });
  });

  describe('listed sizes', () => {
    it('a listed size of 0, 1e18, -5, NaN or another size is a hint: each file is read from the storage, whole; a size no file has from the storage fails that file alone', async () => {
      const f = figures();
      const listed: [string, Buffer, number][] = [
        ['zero', bytesOf(2 * MiB, 21), 0],
        ['empty', Buffer.alloc(0), 0],
        ['huge', bytesOf(3 * MiB, 22), 1e18],
        ['negative', bytesOf(1000, 23), -5],
        ['nan', bytesOf(1000, 24), NaN],
        ['fraction', bytesOf(1000, 25), 2.5],
        ['listedSmaller', bytesOf(20 * MiB, 26), 10 * MiB],
        ['listedLarger', bytesOf(10 * MiB + 3, 27), 20 * MiB],
      ];
      for (const [id, bytes] of listed) stored(id, bytes);
      // The storage says 1 PiB: no file is that large.
      const absurd = stored('absurd', bytesOf(MiB, 28), (asked, b) => {
        const reply = honest(asked, b);
        return { ...reply, headers: { ...reply.headers, 'Content-Range': reply.headers!['Content-Range'].replace(/\/\d+$/, `/${2 ** 50}`) } };
      });
      const items = [...listed.map(([id, , size]) => ({ fileId: id, relativePath: `${id}.bin`, size })), { fileId: 'absurd', relativePath: 'absurd.bin', size: MiB }];
      const summary = await download(f, items);
      f.cases += items.length;
      assert.ok(summary, 'the run ended (no RangeError aborting it)');
      for (const [id, bytes] of listed) assert.ok(compare(f, path.join(target, `${id}.bin`), bytes), id);
      assert.deepStrictEqual(summary.failed.map((x) => x.item.fileId), ['absurd']);
      assert.match(summary.failed[0].reason, /says the file has 1125899906842624 bytes, more than any file can have/);
      f.bytesCompared += absurd.length;
      if (fs.existsSync(path.join(target, 'absurd.bin'))) f.torn++;
      assert.deepStrictEqual(fs.readdirSync(target).filter((n) => n.endsWith('.part')), [], 'no .part stranded');
      assert.strictEqual(storage.requests.filter((r) => r.id === 'empty').length, 1, 'an empty listing is asked of the storage');
      assert.deepStrictEqual(
        summary.retry.map((r) => [r.fileId, r.size]),
        [['absurd', MiB]],
        'Retry asks again, with the size listed (the storage said none a file can have)',
      );
      account('listed sizes', f);
    });
  });

  describe('names and collisions', () => {
    it('x.bam and x.bam.part, Sample.VCF and sample.vcf, ..notes.txt and ..., a file where a folder of the run goes, a .part of someone else\'s: every file saved as itself', async () => {
      const f = figures();
      const remote: [string, Buffer][] = [
        ['run/x.bam', bytesOf(2 * MiB, 31)],
        ['run/x.bam.part', bytesOf(MiB, 32)],
        ['run/Sample.VCF', bytesOf(5000, 33)],
        ['run/sample.vcf', bytesOf(6000, 34)],
        ['..notes.txt', bytesOf(100, 35)],
        ['...', bytesOf(101, 36)],
        ['data', bytesOf(102, 37)],
        ['data/inner.txt', bytesOf(103, 38)],
        ['run/y.bam', bytesOf(MiB + 5, 39)],
      ];
      remote.forEach(([, b], i) => stored(`n${i}`, b));
      // A file of the person's, named as this download's temporary name would be.
      fs.mkdirSync(path.join(target, 'run'));
      const precious = Buffer.from('a file of the person, named y.bam.part');
      fs.writeFileSync(path.join(target, 'run', 'y.bam.part'), precious);
      const summary = await download(
        f,
        remote.map(([p, b], i) => ({ fileId: `n${i}`, relativePath: p, size: b.length })),
      );
      f.cases += remote.length + 1;
      assert.deepStrictEqual(summary?.failed, []);
      const landed: [string, Buffer][] = [
        ['run/x.bam', remote[0][1]],
        ['run/x.bam.part', remote[1][1]],
        ['run/Sample.VCF', remote[2][1]],
        ['run/sample (1).vcf', remote[3][1]],
        ['..notes.txt', remote[4][1]],
        ['...', remote[5][1]],
        ['data (1)', remote[6][1]],
        ['data/inner.txt', remote[7][1]],
        ['run/y.bam', remote[8][1]],
      ];
      for (const [p, b] of landed) assert.ok(compare(f, path.join(target, p), b), p);
      assert.ok(compare(f, path.join(target, 'run', 'y.bam.part'), precious), 'the person\'s y.bam.part is left as it was');
      assert.deepStrictEqual(fs.readdirSync(path.join(target, 'run')).sort(), ['Sample.VCF', 'sample (1).vcf', 'x.bam', 'x.bam.part', 'y.bam', 'y.bam.part']);
      assert.strictEqual(summary!.saved.length, remote.length);
      account('names and collisions', f);
    });
  });

  describe('links under the folder', () => {
    it('a leftover .part that is a link, a folder of the target that is a link out, a link where a file goes: nothing is written through them', async () => {
      const f = figures();
      const z = stored('z', bytesOf(MiB, 41));
      const w = stored('w', bytesOf(2000, 42));
      const inLinked = stored('inLinked', bytesOf(3000, 43));
      // A .part that leads out of the folder, with a record that claims it (a record of an earlier run, or forged).
      fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(target, 'z.bin.part'));
      await new ResumeBook<DownloadResume>(state, 'download', 'hostile').set(path.join(target, 'z.bin.part'), { fileId: 'z', size: z.length, partPath: path.join(target, 'z.bin.part'), done: [[0, 10]] });
      fs.symlinkSync(path.join(outside, 'dir'), path.join(target, 'linked'));
      fs.mkdirSync(path.join(target, 'deep'));
      fs.symlinkSync(path.join(outside, 'dir'), path.join(target, 'deep', 'er'));
      fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(target, 'w.bin'));
      const summary = await download(f, [
        { fileId: 'z', relativePath: 'z.bin', size: z.length },
        { fileId: 'w', relativePath: 'w.bin', size: w.length },
        { fileId: 'inLinked', relativePath: 'linked/f.bin', size: inLinked.length },
        { fileId: 'inLinked', relativePath: 'deep/er/f.bin', size: inLinked.length },
      ]);
      f.cases += 4;
      assert.ok(compare(f, path.join(target, 'z.bin'), z));
      assert.ok(fs.lstatSync(path.join(target, 'z.bin.part')).isSymbolicLink(), 'the link is left as it was');
      // Overwrite chosen: the link where w.bin goes is replaced by the file, not written through.
      assert.ok(compare(f, path.join(target, 'w.bin'), w) && !fs.lstatSync(path.join(target, 'w.bin')).isSymbolicLink());
      const reasons = summary!.failed.map((x) => `${x.item.relativePath}: ${x.reason}`).sort();
      assert.strictEqual(reasons.length, 2, reasons.join('\n'));
      assert.match(reasons[0], /^deep\/er\/f.bin: .*deep\/er is a link: nothing is written through a link/);
      assert.match(reasons[1], /^linked\/f.bin: .*linked is a link/);
      for (const reason of reasons) assertReadable(reason, 'a link in the way');
      account('links under the folder', f);
    });

    it('a link put where a .part or a folder goes after the plan, before the first byte: the open refuses it, nothing is written through it', async () => {
      const f = figures();
      const a = stored('a', bytesOf(4000, 44));
      const b = stored('b', bytesOf(5000, 45));
      const d = downloader();
      const plan = await d.plan({ target, items: [{ fileId: 'a', relativePath: 'a.bin', size: a.length }, { fileId: 'b', relativePath: 'later/b.bin', size: b.length }], ifExists: 'overwrite' });
      fs.symlinkSync(path.join(outside, 'victim.txt'), plan.files[0].partPath);
      fs.symlinkSync(path.join(outside, 'dir'), path.join(target, 'later'));
      const summary = await within(f, d.run(plan));
      f.cases += 2;
      const reasons = Object.fromEntries(summary!.failed.map((x) => [x.item.fileId, x.reason]));
      assert.deepStrictEqual(Object.keys(reasons).sort(), ['a', 'b']);
      assert.match(reasons.a, /Something else is already at .*a.bin.part: it was left as it is/);
      assert.match(reasons.b, /later is a link: nothing is written through a link/);
      for (const [name, bytes] of [['a.bin', a], ['later/b.bin', b]] as const) {
        f.bytesCompared += bytes.length;
        if (fs.existsSync(path.join(target, name))) f.torn++;
      }
      account('links under the folder', f);
    });

    it('Collect Failure Logs writes neither through an existing job.err.log link, a task folder that is a link, nor a failure-summary.md link', async () => {
      const f = figures();
      const ids = { errA: '5'.repeat(24), cmdA: '6'.repeat(24), errB: '7'.repeat(24) };
      const cmd = stored(ids.cmdA, bytesOf(700, 51));
      stored(ids.errA, bytesOf(800, 52));
      stored(ids.errB, bytesOf(900, 53));
      const job = (err: string, cmdLog?: string) => ({ name: 'align', status: 'FAILED', logs: { 'job.err.log': `https://api.example/v2/files/${err}`, ...(cmdLog ? { 'cmd.log': `https://api.example/v2/files/${cmdLog}` } : {}) } });
      const details: Record<string, ExecutionDetails> = { a: { jobs: [job(ids.errA, ids.cmdA)] }, b: { jobs: [job(ids.errB)] } };
      const tasks = [{ id: 'a', name: 'Task A' }, { id: 'b', name: 'Task B' }] as Task[];
      fs.mkdirSync(path.join(target, 'Task A', 'align'), { recursive: true });
      fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(target, 'Task A', 'align', 'job.err.log'));
      fs.symlinkSync(path.join(outside, 'dir'), path.join(target, 'Task B'));
      fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(target, 'failure-summary.md'));
      const result = await within(
        f,
        collectFailureLogs(tasks, { executionDetails: async (id) => details[id], downloadInfo: async (id) => storage.url(id) }, { folder: target, storage: { onRequest: (e) => record.logEntries.push(e) } }),
      );
      f.cases += 3;
      assert.ok(result);
      const [a, b] = result.rows;
      assert.match(a.problem ?? '', /job.err.log: .*job.err.log is a link: nothing is written through a link/);
      assert.ok(compare(f, path.join(target, 'Task A', 'align', 'cmd.log'), cmd), 'the other log is saved');
      assert.match(b.problem ?? '', /Task B is a link/);
      await assert.rejects(writeSummary(target, '# summary\n'), /failure-summary.md is a link/);
      account('links under the folder', f);
    });

    it('uploading a folder that holds links to a file and a folder outside it: the links are left out and named, only the folder\'s own files arrive', async () => {
      const f = figures();
      const emu = await makeEmulator({ tasks: 5, files: 20 });
      try {
        const up = path.join(dir, 'up');
        fs.mkdirSync(path.join(up, 'sub'), { recursive: true });
        const own = { 'up/data.txt': Buffer.from('the folder\'s own file'), 'up/sub/more.txt': Buffer.from('another of its own') };
        for (const [p, b] of Object.entries(own)) fs.writeFileSync(path.join(dir, p), b);
        fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(up, 'id_rsa'));
        fs.symlinkSync(path.join(outside, 'dir'), path.join(up, 'sub', 'shared'));
        const uploader = uploaderOn(emu, state);
        const plan = await uploader.plan({ sources: [up], destination: { project: 'rfranklin/my-project' }, ifExists: 'rename' });
        const summary = await within(f, uploader.run(plan));
        f.cases += 2;
        assert.ok(summary);
        assert.deepStrictEqual(summary.failed, []);
        assert.deepStrictEqual(summary.links, [path.join(up, 'id_rsa'), path.join(up, 'sub', 'shared')]);
        const words = uploadSummaryWords(summary, 'my-project').message;
        assert.match(words, /Not uploaded: 2 links inside the folders, not followed \(id_rsa, shared\)/);
        assertReadable(words, 'the upload summary');
        // What arrived: the folder's own files, byte for byte; nothing from outside it.
        const upRoot = fs.realpathSync(up);
        for (const { localPath, file } of summary.uploaded) {
          if (!fs.realpathSync(localPath).startsWith(upRoot + path.sep)) f.outside++;
          const meant = own[path.relative(dir, localPath).split(path.sep).join('/') as keyof typeof own];
          f.bytesCompared += meant.length;
          if (!(await contentOf(emu, file.id)).equals(meant)) f.torn++;
        }
        assert.deepStrictEqual(summary.uploaded.map((u) => u.file.name).sort(), ['data.txt', 'more.txt']);
        const secret = fs.readFileSync(path.join(outside, 'id_rsa'));
        for (const file of emu.data.files.filter((x) => x.type === 'file' && x.size === secret.length)) if ((await contentOf(emu, file.id)).equals(secret)) f.outside++;
      } finally {
        await emu.close();
      }
      account('links under the folder', f);
    });
  });

  describe('torn uploads', () => {
    let emu: Emulator;
    beforeEach(async () => {
      emu = await makeEmulator({ tasks: 5, files: 20 });
      emu.uploads.settings.partSize = 5 * MiB;
    });
    afterEach(() => emu.close());

    /** The destination's file of that name, as the platform holds it. */
    const uploadedAs = async (name: string): Promise<Buffer | undefined> => {
      const file = emu.data.children(emu.data.projectById.get('rfranklin/my-project')!.root_folder).find((x) => x.name === name && x.type === 'file');
      return file ? contentOf(emu, file.id) : undefined;
    };
    /** An hour ago, in whole seconds: a time `rsync -t` or a restore sets back exactly. */
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    /** A local file with its modification time an hour ago. */
    const written = (file: string, bytes: Buffer) => {
      fs.writeFileSync(file, bytes);
      fs.utimesSync(file, anHourAgo, anHourAgo);
    };
    const destination = { project: 'rfranklin/my-project' };

    it('a file rewritten during its upload, same size, its mtime set back: it fails with words, its upload aborted, no mixed file made', async () => {
      const f = figures();
      const file = path.join(dir, 'rewritten.bin');
      const v1 = bytesOf(15 * MiB, 61);
      const v2 = bytesOf(15 * MiB, 62);
      written(file, v1);
      let reports = 0;
      // Rewritten in place after the first part arrived, its modification time set back: size and mtime as before.
      const uploader = uploaderOn(emu, state, { connections: 1, onReport: () => ++reports === 1 && written(file, v2) });
      const summary = await within(f, uploader.run(await uploader.plan({ sources: [file], destination, ifExists: 'rename' })));
      f.cases++;
      assert.ok(summary);
      assert.strictEqual(summary.uploaded.length, 0);
      assert.match(summary.failed[0]?.reason ?? '', /changed on disk during the upload/);
      assert.strictEqual(emu.uploads.pending.size, 0, 'its upload was aborted on the platform');
      const there = await uploadedAs('rewritten.bin');
      f.bytesCompared += v1.length;
      if (there) f.torn++;
      account('torn uploads', f);
    });

    /** An upload halted after its first part arrived, the file then changed by `change`, then resumed by a new engine. */
    const resumedAfter = async (f: Figures, name: string, change: (file: string, v2: Buffer) => void) => {
      const file = path.join(dir, name);
      const v1 = bytesOf(15 * MiB, 71);
      const v2 = bytesOf(15 * MiB, 72);
      written(file, v1);
      const halt = new AbortController();
      const first = uploaderOn(emu, state, { connections: 1, onReport: () => halt.abort() });
      const one = await within(f, first.run(await first.plan({ sources: [file], destination, ifExists: 'rename' }), { halt: halt.signal }));
      assert.strictEqual(one?.uploaded.length, 0, 'halted before the end');
      assert.strictEqual(emu.uploads.pending.size, 1, 'its upload kept to resume');
      change(file, v2);
      const second = uploaderOn(emu, state);
      const two = await within(f, second.run(await second.plan({ sources: [file], destination, ifExists: 'rename' })));
      f.cases++;
      assert.deepStrictEqual(two?.failed, []);
      const there = await uploadedAs(name);
      f.bytesCompared += v2.length;
      if (!there?.equals(v2)) f.torn++;
      assert.ok(there?.equals(v2), 'the platform holds the file as it is now, whole');
      assert.strictEqual(emu.uploads.pending.size, 0, 'the first upload, of the other bytes, was aborted');
    };

    it('on resume, a file replaced meanwhile by one of the same size and the same mtime: begun anew, never old parts with new ones', async () => {
      const f = figures();
      await resumedAfter(f, 'replaced.bin', (file, v2) => {
        written(`${file}.new`, v2);
        fs.renameSync(`${file}.new`, file);
      });
      account('torn uploads', f);
    });

    it('a run resumed after its upload\'s record was lost, the file replaced meanwhile with the same mtime: the upload left on the platform is aborted, not taken', async () => {
      const f = figures();
      const file = path.join(dir, 'adopted.bin');
      const v2 = bytesOf(15 * MiB, 92);
      written(file, bytesOf(15 * MiB, 91));
      const halt = new AbortController();
      const first = uploaderOn(emu, state, { connections: 1, onReport: () => halt.abort() });
      await within(f, first.run(await first.plan({ sources: [file], destination, ifExists: 'rename' }), { halt: halt.signal, record: { runId: 'run-adopt', label: 'my-project' } }));
      // Global state lost the upload's record (an echo of an older value): only the run's is left.
      for (const key of state.keys().filter((k) => k.startsWith('sevenbridges.transfer.upload.'))) await state.update(key, undefined);
      written(`${file}.new`, v2);
      fs.renameSync(`${file}.new`, file);
      const second = uploaderOn(emu, state);
      const [left] = second.runsLeft();
      const two = await within(f, second.run(second.planOf(left), { record: { runId: left.runId, label: left.label }, adoptLeftOver: true }));
      f.cases++;
      assert.deepStrictEqual(two?.failed, []);
      const there = await uploadedAs('adopted.bin');
      f.bytesCompared += v2.length;
      if (!there?.equals(v2)) f.torn++;
      assert.ok(there?.equals(v2), 'the platform holds the file as it is now, whole');
      assert.strictEqual(emu.uploads.pending.size, 0, 'the upload of the other bytes was aborted');
      account('torn uploads', f);
    });

    it('on resume, a file edited in place meanwhile, same size, a newer mtime: begun anew, never old parts with new ones', async () => {
      const f = figures();
      await resumedAfter(f, 'edited.bin', (file, v2) => {
        fs.writeFileSync(file, v2);
        const later = new Date(Date.now() + 5_000);
        fs.utimesSync(file, later, later);
      });
      account('torn uploads', f);
    });
  });

  describe('local read errors', () => {
    it('a file the disk fails to read, one gone before its turn and one gone during its upload: each fails at once in the disk\'s words, its upload aborted; the others arrive', async () => {
      const f = figures();
      const emu = await makeEmulator({ tasks: 5, files: 20 });
      try {
        emu.uploads.settings.partSize = 5 * MiB;
        const files = { ok: bytesOf(7 * MiB, 81), eio: bytesOf(12 * MiB, 82), gone: bytesOf(1000, 83), vanishing: bytesOf(12 * MiB, 84) };
        for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, `${name}.bin`), bytes);
        // The disk fails to read eio.bin past its first part (an input/output error), as a failing disk does.
        const openLocal = async (p: string): Promise<ReadableFile> => {
          const handle = await fs.promises.open(p, 'r');
          if (!p.endsWith('eio.bin')) return handle;
          return {
            read: async (buffer, offset, length, position) => {
              if (position >= 5 * MiB) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
              return handle.read(buffer, offset, length, position);
            },
            close: () => handle.close(),
          };
        };
        const sleeps: number[] = [];
        const clock: Clock = { ...systemClock, sleep: (ms, signal) => (sleeps.push(ms), systemClock.sleep(ms, signal)) };
        let reports = 0;
        const uploader = uploaderOn(emu, state, { connections: 1, openLocal, clock, onReport: () => ++reports === 2 && fs.rmSync(path.join(dir, 'vanishing.bin')) });
        const plan = await uploader.plan({ sources: ['ok', 'vanishing', 'eio', 'gone'].map((n) => path.join(dir, `${n}.bin`)), destination: { project: 'rfranklin/my-project' }, ifExists: 'rename' });
        fs.rmSync(path.join(dir, 'gone.bin'));
        const summary = await within(f, uploader.run(plan));
        f.cases += 3;
        assert.ok(summary);
        const reasons = Object.fromEntries(summary.failed.map((x) => [path.basename(x.localPath), x.reason]));
        assert.match(reasons['eio.bin'], /The disk failed while reading .*eio.bin \(an input\/output error\)/);
        assert.match(reasons['gone.bin'], /The file is no longer there: .*gone.bin/);
        assert.match(reasons['vanishing.bin'], /The file is no longer there: .*vanishing.bin/);
        for (const reason of Object.values(reasons)) assertReadable(reason, 'a local read error');
        assert.deepStrictEqual(sleeps, [], 'no try again with back-off');
        assert.strictEqual(emu.uploads.pending.size, 0, 'the uploads begun were aborted on the platform');
        assert.deepStrictEqual(summary.uploaded.map((u) => u.file.name), ['ok.bin']);
        f.bytesCompared += files.ok.length;
        if (!(await contentOf(emu, summary.uploaded[0].file.id)).equals(files.ok)) f.torn++;
        assert.ok(!emu.data.files.some((x) => ['eio.bin', 'vanishing.bin', 'gone.bin'].includes(x.name)), 'no half file made');
      } finally {
        await emu.close();
      }
      account('local read errors', f);
    });
  });

  describe('walks', () => {
    let api: HostileServer;
    beforeEach(async () => (api = await startHostile()));
    afterEach(() => api.close());

    const folderId = (n: number) => n.toString(16).padStart(24, '0');
    const fileRecord = (n: number, parent: number, type: 'file' | 'folder' = 'file') => ({ id: folderId(n), name: `${type}-${n}`, type, parent: folderId(parent), project: 'rfranklin/p', size: type === 'file' ? 10 : undefined });

    it('a folder listing itself, a listing repeating its page, one that never ends, a chain of folders without end: each walk stops, saying where and why', async () => {
      const f = figures();
      const ROOT = { self: 1, repeat: 2, endless: 3, deep: 4 };
      api.handler = (_req, url) => {
        const parent = parseInt(url.searchParams.get('parent') ?? '0', 16);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        if (parent === ROOT.self) return listReply(offset ? [] : [fileRecord(ROOT.self, ROOT.self, 'folder'), fileRecord(100, ROOT.self)]);
        if (parent === ROOT.repeat) return listReply(Array.from({ length: 100 }, (_, i) => fileRecord(1000 + i, ROOT.repeat)), { total: '100000' });
        if (parent === ROOT.endless) return listReply(Array.from({ length: 100 }, (_, i) => fileRecord(0x100000 + offset + i, ROOT.endless)), { total: '999999999' });
        // The deep chain: each folder lists one new folder below it.
        if (parent >= 0x10000 && parent < 0x20000) return listReply(offset ? [] : [fileRecord(parent + 1, parent, 'folder')]);
        if (parent === ROOT.deep) return listReply(offset ? [] : [fileRecord(0x10000, ROOT.deep, 'folder')]);
        return listReply([]);
      };
      const client = makeClient(api.baseUrl);
      const walk = (n: number) => within(f, collectItems(client.files, [{ id: folderId(n), name: `root-${n}`, folder: true }]));
      const self = await walk(ROOT.self);
      const repeat = await walk(ROOT.repeat);
      const endless = await walk(ROOT.endless);
      const deep = await walk(ROOT.deep);
      f.cases += 4;
      assert.deepStrictEqual(self?.items.map((i) => i.relativePath), ['root-1/file-100']);
      assert.deepStrictEqual(self.problems, [{ name: 'root-1/folder-1', reason: 'The folder is met again inside itself: it was read once.' }]);
      assert.strictEqual(repeat?.items.length, 100);
      assert.deepStrictEqual(repeat.problems, [{ name: 'root-2', reason: 'The platform listed the same files again: the folder was read up to there.' }]);
      assert.strictEqual(endless?.items.length, 100_000);
      assert.deepStrictEqual(endless.problems, [{ name: 'root-3', reason: 'Stopped after 100,000 files and folders, the most one download reads: download the folders one by one.' }]);
      assert.deepStrictEqual(deep?.items, []);
      assert.strictEqual(deep.problems.length, 1);
      assert.match(deep.problems[0].reason, /^Not read: it is more than 64 folders deep\.$/);
      assert.strictEqual(deep.problems[0].name.split('/').length, 65, 'the folder asked for is the first level: 64 read, the 65th not');
      for (const p of [...self.problems, ...repeat.problems, ...endless.problems, ...deep.problems]) assertReadable(p.reason, 'a walk that stopped');
      note(`walks stopped: a cycle after ${api.requests.filter((r) => r.url.includes(folderId(ROOT.self))).length} requests, a repeating listing after 2, an endless one after ${api.requests.filter((r) => r.url.includes(folderId(ROOT.endless))).length}, a chain 64 deep`);
      account('walks', f);
    });
  });
});

/** The upload engine on the emulator, as the product makes it (completing directly; the write path has its own suite). */
function uploaderOn(
  emu: Emulator,
  state: WindowState,
  more: { connections?: number; onReport?: () => void; openLocal?: (p: string) => Promise<ReadableFile>; clock?: Clock } = {},
): Uploader {
  const sb = makeClient(emu.baseUrl);
  const uploads = Object.assign(Object.create(sb.uploads) as typeof sb.uploads, {
    reportPart: async (...args: Parameters<typeof sb.uploads.reportPart>) => {
      await sb.uploads.reportPart(...args);
      more.onReport?.();
    },
  });
  return new Uploader({
    uploads,
    complete: (id) => sb.uploads.complete(id),
    ensureFolder: async (parent, name) => {
      const parentId = 'project' in parent ? emu.data.projectById.get(parent.project)!.root_folder : parent.parent;
      const there = emu.data.children(parentId).find((x) => x.name === name && x.type === 'folder');
      if (there) return there.id;
      return (await sb.files.createFolder(name, parent)).id;
    },
    storage: new StorageClient(),
    clock: more.clock ?? systemClock,
    resume: new ResumeBook<UploadResume>(state, 'upload', `${emu.baseUrl} ${emu.username}`),
    runs: new ResumeBook<UploadRunResume>(state, 'uploadRun', `${emu.baseUrl} ${emu.username}`),
    backoffMs: 5,
    connections: more.connections,
    openLocal: more.openLocal,
  });
}

async function contentOf(emu: Emulator, fileId: string): Promise<Buffer> {
  const blob = emu.contentOf(fileId)!;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
