// 9. Exactly once for the new write kinds too (issue 37): the adversary's read of issue 28 (09-adversary) carried to
// the kinds added since — upload complete, new folder, rename / tags / metadata, bulk tags, delete and async delete,
// Re-run Failed — and to the copy's lookup among many jobs. The product's own classes (Outbox, the kinds as the
// extension registers them, the upload engine, Transfers, JobTracker) with their default timings, over the in-memory
// platform, on one fake clock, global state reaching each window after a delay; the person plays their part (Submit
// Again when told "not found"; never when told someone else changed it). Each case is a row of the writes table.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Task } from '../../src/api/types';
import { planBulkTags, planTags } from '../../src/files/tagsWrites';
import { WRITE_KINDS } from '../../src/keys/writes';
import { Transfers } from '../../src/jobs/transfers';
import { interruptedRun } from '../../src/remote/interrupted';
import { completedThroughOutbox, completeThroughOutbox, outcomeOf } from '../../src/remote/uploadWrite';
import { uploadBytes } from '../../src/remote/saveFile';
import type { FileRecord } from '../../src/api/types';
import { ResumeBook, type UploadResume, type UploadRunResume } from '../../src/transfer/resumeState';
import { Uploader } from '../../src/transfer/uploader';
import type { UploadPlan, UploadSummary } from '../../src/transfer/upload';
import { versionOf } from '../../src/transfer/localTree';
import type { WriteRecord } from '../../src/write/outbox';
import { ACCOUNT, MemoryWorld, type MemoryWindow } from './memoryKit';
import { accountWrites, compareWrites, note, shown, type WriteFigures } from './support';

const MINUTE = 60_000;
const PROJECT = 'rfranklin/dest';
const none = { doubled: 0, lost: 0, asked: 0, wronglyAdopted: 0, stuck: 0 };

/** Counts a case into the summary (its own row) and notes it; returns the figures. */
function tally(kind: string, what: string, figures: WriteFigures): WriteFigures {
  accountWrites(kind, figures, what);
  note(`${kind} · ${what}: requested ${figures.requested}, made once ${figures.once}, doubled ${figures.doubled}, lost ${figures.lost}, person asked ${figures.asked}, wrongly adopted ${figures.wronglyAdopted}, stuck ${figures.stuck}`);
  return figures;
}

/** A write's record as global state then holds it, changed (damaged): what every window opened after reads. */
async function stored(w: MemoryWorld, write: WriteRecord, change: Record<string, unknown>): Promise<void> {
  const writer = w.global.window();
  const key = `sevenbridges.write.${write.id}`;
  void writer.update(key, { ...(writer.get(key) as object), ...change });
  await w.clock.tickAsync(100);
  writer.closed = true;
}

/** The writes among `ids` no live window owned for 5 minutes. */
const stuckOf = (w: MemoryWorld, ids: readonly string[]) => w.stuckIds().filter((id) => ids.includes(id)).length;

/**
 * The real disk under the fake clock: the upload engine reads its files' sizes and whether it may read them
 * (`fs.promises.stat`, `access`) and a part's bytes through an opened handle (its `stat`, `read`, `close`). While
 * such a call is on its way, the fake time must not move on (it would, by minutes, with every turn of the event loop:
 * on a busy machine a part was never read in time, and an `access` left uncounted let a whole minute pass in CI).
 * Every call of `fs.promises` that returns a promise is counted, so one the engine starts using later is too.
 */
const disk = { inFlight: 0 };
type Calls = Record<string, (...a: unknown[]) => Promise<unknown>>;
const realDisk: Calls = { ...(fs.promises as unknown as Calls) };
function counted<T>(call: Promise<T>): Promise<T> {
  disk.inFlight++;
  return call.finally(() => disk.inFlight--);
}
function countedHandle(handle: fs.promises.FileHandle): fs.promises.FileHandle {
  for (const name of ['stat', 'read', 'close'] as const) {
    const real = handle[name].bind(handle) as (...a: unknown[]) => Promise<unknown>;
    (handle as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => counted(real(...a));
  }
  return handle;
}
function watchDisk(): void {
  const calls = fs.promises as unknown as Calls;
  for (const [name, real] of Object.entries(realDisk)) {
    if (typeof real !== 'function') continue;
    // What returns no promise (`watch`'s iterator) is passed through uncounted.
    const call = (...a: unknown[]) => {
      const result = real(...a);
      return result instanceof Promise ? counted(result) : result;
    };
    calls[name] = name === 'open' ? async (...a) => countedHandle((await call(...a)) as fs.promises.FileHandle) : call;
  }
}
function unwatchDisk(): void {
  Object.assign(fs.promises, realDisk);
}
const diskIdle = async () => {
  while (disk.inFlight > 0) await new Promise((r) => setImmediate(r));
};

/** Lets `ms` of fake time pass a quarter of a second at a time, never while the disk is read; `each` after every step. */
async function drive(w: MemoryWorld, ms: number, each?: () => void): Promise<void> {
  for (let t = 0; t < ms; t += 250) {
    await diskIdle();
    await w.clock.tickAsync(250);
    await diskIdle();
    each?.();
  }
}

/** Drives the clock as `drive` does until `done` holds, for at most `ms` (real file reads in between take what the machine gives them). */
async function driveUntil(w: MemoryWorld, ms: number, done: () => boolean): Promise<void> {
  for (let t = 0; t < ms && !done(); t += 250) {
    await diskIdle();
    await w.clock.tickAsync(250);
    await diskIdle();
  }
}

/** A window's upload side as the extension wires it (remote/upload.ts): the engine on the write path, and Data Jobs' transfers. */
function uploads(win: MemoryWindow) {
  const { platform, clock } = win.world;
  const transfers = new Transfers(clock.now, { runs: (key) => new ResumeBook<UploadRunResume>(win.state, 'uploadRun', key).all().map(interruptedRun) }, win.outbox);
  const uploader = new Uploader({
    uploads: platform.uploadsApi,
    complete: completeThroughOutbox(win.outbox, ACCOUNT),
    completed: completedThroughOutbox(win.outbox, { uploads: platform.uploadsApi, files: platform.filesApi }, ACCOUNT),
    ensureFolder: () => Promise.reject(new Error('no folders here')),
    storage: platform.storage,
    clock,
    resume: new ResumeBook<UploadResume>(win.state, 'upload', ACCOUNT.key),
    runs: new ResumeBook<UploadRunResume>(win.state, 'uploadRun', ACCOUNT.key),
  });
  /** What Upload… (or Resume in Data Jobs) does: a row while it runs, the run's record kept while it has files left. */
  const run = async (plan: UploadPlan, runId: string, resuming = false): Promise<UploadSummary> => {
    const row = transfers.start('upload', PROJECT, ACCOUNT.key, () => undefined, runId);
    try {
      return await uploader.run(plan, { record: { runId, label: PROJECT }, adoptLeftOver: resuming });
    } finally {
      row.end();
    }
  };
  const resume = (runId: string) => run(uploader.planOf(uploader.runsLeft().find((r) => r.runId === runId)!), runId, true);
  return { transfers, uploader, run, resume };
}

/** Local files to upload (real ones: the engine reads their sizes), and the plan of them to the project. */
function localPlan(dir: string, names: string[]): UploadPlan {
  const files = names.map((name) => {
    const localPath = path.join(dir, name);
    fs.writeFileSync(localPath, Buffer.alloc(1_000, 7));
    return { localPath, relativePath: name, ...versionOf(fs.statSync(localPath)) };
  });
  return { destination: { project: PROJECT }, ifExists: 'rename', folders: [], files, links: [], refused: [], bytes: files.reduce((n, f) => n + f.size, 0) };
}

/** The files the platform made for a name, numbered copies (`1_a.bin`) included: each is a file made for it. */
const filesMade = (w: MemoryWorld) => w.platform.made.filter((m) => m.key.startsWith('file:')).map((m) => `file:${m.key.slice(5).replace(/^\d+_/, '')}`);

describe('9. exactly once for the new write kinds (issue 37)', function () {
  this.timeout(120_000);
  let world: MemoryWorld | undefined;
  let dir: string;
  const make = (options?: ConstructorParameters<typeof MemoryWorld>[0]) => (world = new MemoryWorld(options));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-exactly-once-'));
    watchDisk();
  });
  afterEach(() => {
    unwatchDisk();
    world?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('upload complete', () => {
    it('a run resumed after the platform completed its file (the answer lost, the window gone before its lookup) takes that file: no second file, no 1_a.bin', async () => {
      const w = make({ propagationMs: 30 });
      const a = w.open();
      const inA = uploads(a);
      w.platform.postFaults.push('lose');
      void inA.run(localPlan(dir, ['a.bin']), 'run-1');
      await driveUntil(w, 60_000, () => {
        if (w.platform.count('file:a.bin') && a.alive) a.kill();
        return !a.alive;
      });
      assert.strictEqual(a.alive, false, 'the window died once the platform had completed the file');
      // The person reopens a window and resumes the run as soon as Data Jobs offers it as interrupted.
      const b = w.open();
      const inB = uploads(b);
      let resumed: Promise<UploadSummary> | undefined;
      let offeredAfter: number | undefined;
      await drive(w, 5 * MINUTE, () => {
        if (resumed || !inB.transfers.interrupted(ACCOUNT.key).length) return;
        offeredAfter = w.clock.monotonic();
        resumed = inB.resume('run-1');
      });
      assert.ok(resumed, 'offered as interrupted once window A was gone');
      const summary = await resumed!;
      const made = w.platform.named({ project: PROJECT }, 'a.bin');
      assert.deepStrictEqual(summary.failed, []);
      assert.deepStrictEqual(summary.uploaded.map((u) => u.file.id), made.map((f) => f.id), 'the file the platform made, taken');
      assert.deepStrictEqual(w.platform.named({ project: PROJECT }, '1_a.bin'), [], 'no second file');
      assert.strictEqual(w.platform.uploadsOpen, 0, 'no upload begun again');
      const wrong = summary.uploaded.filter((u) => !w.platform.made.some((m) => m.key === 'file:a.bin' && m.id === u.file.id)).length;
      const figures = tally('upload complete', 'resumed after the platform completed it', { ...none, ...compareWrites(['file:a.bin'], filesMade(w)), wronglyAdopted: wrong, stuck: stuckOf(w, w.pending().map((r) => r.id)) });
      assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1 });
      note(`window A died after the platform completed a.bin; window B offered the run ${Math.round((offeredAfter ?? 0) / 1000)} s in and took the file`);
    });

    for (const monotonic of [false, true]) {
      it(`two windows after the laptop sleeps an hour mid-upload (the monotonic clock ${monotonic ? 'counting' : 'stopped during'} the sleep): the other window never offers the running upload as interrupted; one file`, async () => {
        const w = make({ propagationMs: 30, platform: { storageMs: 40_000 } });
        const [a, b] = [w.open(), w.open()];
        const [inA, inB] = [uploads(a), uploads(b)];
        await drive(w, 3_000);
        const running = inA.run(localPlan(dir, ['a.bin']), 'run-2');
        await drive(w, 10_000);
        await w.clock.suspend(60 * MINUTE, { monotonic });
        // The person in window B resumes anything Data Jobs offers there as interrupted.
        let offered = 0;
        let resumed: Promise<UploadSummary> | undefined;
        await drive(w, 3 * MINUTE, () => {
          if (!inB.transfers.interrupted(ACCOUNT.key).length) return;
          offered++;
          resumed ??= inB.resume('run-2');
        });
        const summary = await running;
        if (resumed) await resumed;
        assert.strictEqual(offered, 0, 'never offered in B while A runs it');
        assert.deepStrictEqual([summary.uploaded.length, summary.failed], [1, []]);
        const figures = tally('upload complete', 'two windows after a sleep', { ...none, ...compareWrites(['file:a.bin'], filesMade(w)), stuck: stuckOf(w, w.pending().map((r) => r.id)) });
        assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1 });
      });
    }
  });

  describe('save and new file from the editor (issue 42)', () => {
    /** What Save does once the version is checked (remote/saveFile.ts), its completion through this window's outbox. */
    const save = (win: MemoryWindow, name: string, text: string, replace: boolean) =>
      uploadBytes(
        {
          uploads: win.world.platform.uploadsApi,
          storage: win.world.platform.storage,
          complete: async (kind, payload) => outcomeOf(await win.outbox.send<FileRecord>(kind, [payload], ACCOUNT, { until: 'end' }), () => 'still being checked'),
        },
        { destination: { project: PROJECT }, name, path: `/${PROJECT}/${name}`, bytes: Buffer.from(text), replace },
      );

    for (const c of [
      { kind: WRITE_KINDS.save, label: 'a save (a new version, with overwrite)', replace: true },
      { kind: WRITE_KINDS.newFile, label: 'a new file', replace: false },
    ]) {
      it(`${c.label}: its completion's answer lost, read back: the new version is there, taken; never a second version`, async () => {
        const w = make({ propagationMs: 30 });
        const win = w.open();
        const before = c.replace ? w.platform.addFile('sheet.csv', { size: 5 }) : undefined;
        w.platform.postFaults.push('lose');
        let saved: FileRecord | undefined;
        let failed: unknown;
        void save(win, 'sheet.csv', 'id,x\n1,2\n', c.replace).then((f) => (saved = f), (e) => (failed = e));
        await drive(w, 5 * MINUTE, () => undefined);
        assert.strictEqual(failed, undefined);
        const there = w.platform.named({ project: PROJECT }, 'sheet.csv');
        assert.deepStrictEqual(there.map((f) => f.size), [9], 'one file of that name, the new version');
        assert.notStrictEqual(there[0].id, before?.id);
        assert.strictEqual(saved?.id, there[0].id, 'the version made, taken');
        assert.strictEqual(w.platform.uploadsOpen, 0, 'no upload begun again');
        assert.strictEqual(win.finished.find((f) => f.record.kind === c.kind)?.found, true, 'found by its lookup');
        const sent = w.platform.received.filter((k) => k === 'file:sheet.csv').length;
        const figures = tally(c.kind, 'its answer lost', { ...none, ...compareWrites(['file:sheet.csv'], filesMade(w)), stuck: stuckOf(w, w.pending().map((r) => r.id)) });
        assert.deepStrictEqual([figures, sent], [{ ...none, requested: 1, once: 1 }, 1]);
      });
    }
  });

  describe('a colleague\'s change is never overwritten', () => {
    const cases: { kind: string; label: string; payload: (id: string) => unknown; key: (id: string) => string; colleague: Parameters<MemoryWorld['platform']['colleague']>[1]; stands: (f: { name: string; tags: string[]; metadata: Record<string, string> }) => unknown; told: RegExp }[] = [
      { kind: WRITE_KINDS.rename, label: 'rename', payload: (id) => ({ id, name: 'b.bam', oldName: 'a.bam' }), key: (id) => `rename:${id}:b.bam`, colleague: { name: 'c.bam' }, stands: (f) => f.name === 'c.bam', told: /It is named "c\.bam" now: someone else renamed it since\./ },
      { kind: WRITE_KINDS.tags, label: 'tags', payload: (id) => ({ id, name: 'a.bam', tags: ['qc', 'tumor'], before: ['qc'] }), key: (id) => `tags:${id}:["qc","tumor"]`, colleague: { tags: ['normal'] }, stands: (f) => f.tags.join() === 'normal', told: /Its tags are "normal" now: someone else changed them since\./ },
      { kind: WRITE_KINDS.metadata, label: 'metadata', payload: (id) => ({ id, name: 'a.bam', metadata: { sample_id: 'S1' }, before: { sample_id: 'S0' } }), key: (id) => `metadata:${id}:{"sample_id":"S1"}`, colleague: { metadata: { sample_id: 'S9' } }, stands: (f) => f.metadata.sample_id === 'S9', told: /someone else changed it since/ },
    ];
    for (const c of cases) {
      it(`${c.label}: its answer lost, a colleague changes the file before the lookup: the person is asked, nothing sent again`, async () => {
        const w = make({ propagationMs: 30 });
        const win = w.open();
        const file = w.platform.addFile('a.bam', { tags: ['qc'], metadata: { sample_id: 'S0' } });
        w.platform.postFaults.push('lose');
        const [write] = await win.submit(c.kind, [c.payload(file.id)]);
        await w.clock.tickAsync(1_000);
        w.platform.colleague(file.id, c.colleague);
        await w.run(10 * MINUTE);
        const [left] = win.outbox.all();
        assert.deepStrictEqual([left?.id, left?.state], [write.id, 'changed']);
        assert.match(left.note!, c.told);
        shown(`${c.label}: a colleague's change`, left.note!, ['Submit Again', 'Discard']);
        assert.ok(c.stands(w.platform.file(file.id)!), 'the colleague\'s change stands');
        const sent = w.platform.received.filter((k) => k === c.key(file.id)).length;
        const figures = tally(c.label, 'a colleague\'s change', { ...none, ...compareWrites([c.key(file.id)], w.platform.made.map((m) => m.key)), doubled: sent - 1, asked: 1, stuck: stuckOf(w, [write.id]) });
        assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1, asked: 1 });
      });
    }

    /** Edit Tags… adds "tumor" to four files in one bulk edit: the platform applies it to the first two, its answer lost. */
    const halfApplied = async () => {
      const w = make({ propagationMs: 30 });
      const win = w.open();
      const files = ['a', 'b', 'c', 'd'].map((n) => w.platform.addFile(`${n}.bam`, { tags: ['qc'] }));
      const asked = planTags(files.map((f) => ({ id: f.id, name: f.name, tags: f.tags })), ['tumor'], []);
      w.platform.applyNextBulkTo(2);
      w.platform.postFaults.push('lose');
      const [write] = await win.submit(WRITE_KINDS.bulkTags, planBulkTags(asked));
      return { w, win, files, write, keys: files.map((f) => `tags:${f.id}:["qc","tumor"]`) };
    };

    it('bulk tags: a call the platform applied to half of its files, its answer lost: only the other half is sent again', async () => {
      const { w, win, files, write, keys } = await halfApplied();
      await w.run(5 * MINUTE);
      assert.deepStrictEqual(win.outbox.all(), []);
      assert.ok(files.every((f) => w.platform.file(f.id)!.tags.join() === 'qc,tumor'));
      const calls = w.platform.received.filter((k) => k.startsWith('bulkTags:'));
      assert.deepStrictEqual(calls, [`bulkTags:${files.map((f) => f.id).join(',')}`, `bulkTags:${[files[2].id, files[3].id].join(',')}`], 'the second call: the two files not done');
      const figures = tally('bulk tags', 'applied in part, answer lost', { ...none, ...compareWrites(keys, w.platform.made.map((m) => m.key)), stuck: stuckOf(w, [write.id]) });
      assert.deepStrictEqual(figures, { ...none, requested: 4, once: 4 });
    });

    it('bulk tags: applied to half, a colleague changes another of its files meanwhile: nothing overwritten, the person is asked for the files not done', async () => {
      const { w, win, files, write, keys } = await halfApplied();
      await w.clock.tickAsync(1_000);
      w.platform.colleague(files[3].id, { tags: ['normal'] });
      await w.run(10 * MINUTE);
      const [left] = win.outbox.all();
      assert.deepStrictEqual([left.state, (left.payload as { items: { id: string }[] }).items.map((i) => i.id)], ['changed', [files[2].id, files[3].id]]);
      shown('bulk tags: a colleague\'s change', left.note!, ['Submit Again', 'Discard']);
      assert.deepStrictEqual(w.platform.file(files[3].id)!.tags, ['normal'], 'the colleague\'s change stands');
      const made = compareWrites(keys, w.platform.made.map((m) => m.key));
      const figures = tally('bulk tags', 'a colleague\'s change', { ...none, ...made, lost: made.lost - 2, asked: 2, stuck: stuckOf(w, [write.id]) });
      assert.deepStrictEqual(figures, { ...none, requested: 4, once: 2, asked: 2 });
    });
  });

  describe('a damaged snapshot: nothing is proven without one, the person is asked, nothing older adopted', () => {
    /** The window dies with its write looked up; global state then holds the record with its snapshot damaged. */
    async function damage(w: MemoryWorld, write: WriteRecord, snapshot: unknown): Promise<void> {
      await stored(w, write, { snapshot });
    }

    for (const damaged of ['garbage', {}, 5]) {
      it(`re-run: the snapshot stored as ${JSON.stringify(damaged)}, an earlier re-run of the task in the project: not adopted; Submit Again makes the one clone`, async () => {
        const w = make({ propagationMs: 30 });
        const first = w.open();
        const original = w.platform.seedTask({ status: 'FAILED' });
        w.platform.seedTask({ status: 'COMPLETED' }, 5 * MINUTE);
        w.platform.postFaults.push('drop');
        const write = await first.action('rerun', original);
        await w.run(2_000, { submitAgain: false });
        first.kill();
        await damage(w, write, damaged);
        const second = w.open();
        await w.run(10 * MINUTE);
        const finished = second.finished.filter((f) => f.record.id === write.id);
        const made = w.platform.made.filter((m) => m.key === `rerun:${original.id}`);
        const wrong = finished.filter((f) => f.found && !made.some((m) => m.id === (f.outcome as Task).id)).length;
        const figures = tally('re-run', 'a damaged snapshot', { ...none, ...compareWrites([`rerun:${original.id}`], made.map((m) => m.key)), wronglyAdopted: wrong, stuck: stuckOf(w, [write.id]) });
        assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1 });
        assert.strictEqual(w.userResubmits, 1, 'asked after the late window: the person submitted it again');
      });
    }

    it('new folder: the snapshot stored as a number (every lookup threw, "unsure" for ever): the person is asked after the late window; Submit Again makes the folder', async () => {
      const w = make({ propagationMs: 30 });
      const first = w.open();
      w.platform.postFaults.push('drop');
      const [write] = await first.submit(WRITE_KINDS.newFolder, [{ name: 'reads', where: { project: PROJECT }, label: PROJECT }]);
      await w.run(2_000, { submitAgain: false });
      first.kill();
      await damage(w, write, 5);
      w.open();
      await w.run(10 * MINUTE);
      const figures = tally('new folder', 'a damaged snapshot', { ...none, ...compareWrites([`folder:root-${PROJECT}/reads`], w.platform.made.map((m) => m.key)), stuck: stuckOf(w, [write.id]) });
      assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1 });
      assert.deepStrictEqual([w.platform.named({ project: PROJECT }, 'reads').length, w.userResubmits], [1, 1]);
    });

    it('new folder: the snapshot stored as text, an older folder of that name there: not adopted as made; Submit Again is refused (the name is taken), in words', async () => {
      const w = make({ propagationMs: 30 });
      const older = w.platform.addFile('reads', { type: 'folder' });
      const first = w.open();
      w.platform.postFaults.push('drop');
      const [write] = await first.submit(WRITE_KINDS.newFolder, [{ name: 'reads', where: { project: PROJECT }, label: PROJECT }]);
      await w.run(2_000, { submitAgain: false });
      first.kill();
      await damage(w, write, 'text');
      const second = w.open();
      await w.run(10 * MINUTE);
      const adopted = second.finished.filter((f) => f.found && (f.outcome as { id: string }).id === older.id).length;
      const [left] = second.outbox.all();
      assert.strictEqual(left?.state, 'failed', 'refused: the name is taken');
      shown('new folder: the name taken', left.note!, ['Submit Again', 'Discard']);
      const made = w.platform.made.filter((m) => m.key === `folder:root-${PROJECT}/reads`).length;
      const figures = tally('new folder', 'a damaged snapshot, an older folder of its name', { ...none, requested: 1, once: made, asked: left?.state === 'failed' ? 1 : 0, wronglyAdopted: adopted, stuck: stuckOf(w, [write.id]) });
      assert.deepStrictEqual(figures, { ...none, requested: 1, once: 0, asked: 1 });
    });
  });

  it('async delete: an outcome stored damaged (null) is shown as damaged, never handed over for ever; Discard forgets it; nothing sent again', async () => {
    const w = make({ propagationMs: 30 });
    const first = w.open();
    const files = ['a', 'b', 'c'].map((n) => w.platform.addFile(`${n}.bam`));
    // The job reached the platform; the window cannot show it (its finish fails) and dies.
    first.tracker.add = () => {
      throw new TypeError('the view cannot show it');
    };
    const [write] = await first.submit(WRITE_KINDS.asyncDelete, [{ items: files.map((f) => ({ file: f.id })), names: Object.fromEntries(files.map((f) => [f.id, f.name])) }]);
    await w.run(5_000, { submitAgain: false });
    assert.deepStrictEqual(first.outbox.all().map((r) => r.state), ['sent']);
    first.kill();
    await stored(w, write, { outcome: null });
    const second = w.open();
    await w.run(10_000);
    const [left] = second.outbox.all();
    assert.deepStrictEqual([left?.state, left?.problem], ['failed', 'corrupt']);
    shown('async delete: a damaged outcome', left.note!, ['Discard']);
    // Discard resolves once global state has it (its propagation takes fake time).
    const discarding = second.outbox.discard(write.group);
    await w.run(5 * MINUTE);
    await discarding;
    assert.deepStrictEqual(second.outbox.all(), [], 'discarded');
    const keys = files.map((f) => `delete:${f.id}`);
    const sent = w.platform.received.filter((k) => k.startsWith('delete:[')).length;
    const figures = tally('async delete', 'a damaged outcome', { ...none, ...compareWrites(keys, w.platform.made.map((m) => m.key)), doubled: sent - 1, stuck: stuckOf(w, [write.id]) });
    assert.deepStrictEqual(figures, { ...none, requested: 3, once: 3 });
  });

  it('delete: a DELETE the platform acts on 15 s after the client gave up is looked up through the late window, never sent twice', async () => {
    const w = make({ propagationMs: 30 });
    const win = w.open();
    const file = w.platform.addFile('a.bam');
    w.platform.postFaults.push({ late: 45_000 });
    const [write] = await win.submit(WRITE_KINDS.delete, [{ id: file.id, name: file.name }]);
    await w.run(10 * MINUTE);
    assert.deepStrictEqual([win.outbox.all(), w.platform.file(file.id)], [[], undefined]);
    assert.strictEqual(win.finished.find((f) => f.record.id === write.id)?.found, true, 'found gone after the late act');
    const sent = w.platform.received.filter((k) => k === `delete:${file.id}`).length;
    const figures = tally('delete', 'a late DELETE', { ...none, ...compareWrites([`delete:${file.id}`], w.platform.made.map((m) => m.key)), doubled: sent - 1, stuck: stuckOf(w, [write.id]) });
    assert.deepStrictEqual(figures, { ...none, requested: 1, once: 1 });
  });

  it('Re-run Failed: a child re-run by hand in the seconds between a reused snapshot and the bulk\'s dropped call is not adopted; the person\'s Submit Again makes its own', async () => {
    const w = make({ propagationMs: 30 });
    // Paced to the API budget: the second and third re-runs wait 4 s (a snapshot serves the sends of 10 s).
    const holds = [0, 4_000, 4_000];
    w.holdBulk = () => holds.shift() ?? 0;
    const win = w.open();
    const children = [1, 2, 3].map((n) => w.platform.seedTask({ status: 'FAILED', name: `child ${n}` }));
    w.platform.postFaults.push({ answerAfter: 0 }, 'drop');
    const payloads = children.map((t) => ({ action: 'rerun' as const, task: { id: t.id, name: t.name, app: t.app, project: t.project, status: t.status } }));
    const writes = await win.submit(WRITE_KINDS.rerunFailed, payloads);
    // The first re-run is sent (its snapshot taken); a second later the person re-runs child 2 from the web page.
    await w.clock.tickAsync(1_000);
    const byHand = w.platform.rerunByHand(children[1].id);
    await w.run(10 * MINUTE);
    const finished = win.finished.filter((f) => writes.some((r) => r.id === f.record.id));
    const keys = children.map((t) => `rerun:${t.id}`);
    const madeIds = new Set(w.platform.made.map((m) => m.id));
    const wrong = finished.filter((f) => f.found && !madeIds.has((f.outcome as Task).id)).length;
    assert.ok(!finished.some((f) => (f.outcome as Task).id === byHand.id), 'the re-run made by hand is nobody\'s');
    const figures = tally('re-run failed', 'a re-run made by hand in the seconds between', { ...none, ...compareWrites(keys, w.platform.made.map((m) => m.key)), wronglyAdopted: wrong, stuck: stuckOf(w, writes.map((r) => r.id)) });
    assert.deepStrictEqual(figures, { ...none, requested: 3, once: 3 });
  });

  describe('copy: its own job among many', () => {
    it('more than ten unclaimed jobs inside the lookup\'s time margin (past a snapshot of 1,100 older jobs): its own is found, nothing asked again', async () => {
      const w = make({ platform: { jobOrder: 'oldest' } });
      const win = w.open();
      for (const [i, f] of w.platform.sourceFiles(1_100).entries()) w.platform.foreignJob([{ file: f.id, project: PROJECT }], (2 * 24 * 60 - i) * MINUTE);
      await w.run(5_000);
      // A script copied fifteen other files in the seconds before the call.
      for (const f of w.platform.sourceFiles(15)) w.platform.foreignJob([{ file: f.id, project: PROJECT }], 20_000);
      const [mine] = w.platform.sourceFiles(1);
      w.platform.postFaults.push('lose');
      await win.copy([mine]);
      await w.run(10 * MINUTE);
      const figures = w.account('copy among fifteen recent unclaimed jobs', 'among many unclaimed jobs').copy;
      assert.deepStrictEqual([figures, w.userResubmits, win.finished[0]?.found], [{ requested: 1, once: 1, doubled: 0, lost: 0, wronglyAdopted: 0, stuck: 0 }, 0, true]);
    });

    it('a job list in a new order on every page, longer than a page (07\'s flaky case, on the fake clock): its own job is found at the first lookup', async () => {
      const w = make({ platform: { jobOrder: 'shuffled' } });
      const win = w.open();
      for (const f of w.platform.sourceFiles(120)) w.platform.foreignJob([{ file: f.id, project: PROJECT }], 10 * MINUTE);
      await w.run(5_000);
      const [mine] = w.platform.sourceFiles(1);
      w.platform.postFaults.push('lose');
      await win.copy([mine]);
      await w.run(10 * MINUTE);
      const figures = w.account('copy, a job list reordered on every page', 'job list reordered on every page').copy;
      assert.deepStrictEqual([figures, w.userResubmits, win.finished[0]?.found], [{ requested: 1, once: 1, doubled: 0, lost: 0, wronglyAdopted: 0, stuck: 0 }, 0, true]);
    });
  });
});
