/**
 * The Data Jobs view in a real VS Code against the emulator (issues 24, 25): an async delete made by Delete… is a row
 * of the view (its kind first), followed by the tracker to its end with per-item results; a move job made directly on
 * the platform is followed and shown the same way; an upload left by a window that died mid-way (its run's record in
 * global state) shows as "Interrupted · … left" and Resume completes it byte for byte, sending only the parts missing;
 * Discard aborts the multipart upload on the platform.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { JobsNode } from '../../../src/jobs/jobNodes';
import { StorageClient } from '../../../src/api/storage';
import { ResumeBook, type UploadResume, type UploadRunResume } from '../../../src/transfer/resumeState';
import { Uploader } from '../../../src/transfer/uploader';
import { Downloader } from '../../../src/transfer/download';
import type { DownloadResume } from '../../../src/transfer/resumeState';
import type { FileRec } from '../../emulator';
import { activateProduct, emulator, waitFor } from '../helpers';

const MiB = 1024 * 1024;

describe('Data Jobs: every async job, and transfers, as rows', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const data = () => emulator().data;
  const project = () => data().projects.find((p) => p.permissions?.write !== false && data().children(p.root_folder).filter((f) => f.type === 'file').length >= 4)!;
  const roots = async () => (await api.jobs.rows.getChildren()) as JobsNode[];
  const label = (node: JobsNode) => String(api.jobs.rows.getTreeItem(node).label);
  const added: FileRec[] = [];
  const add = (name: string, type: 'file' | 'folder', parent: string, size?: number) => {
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    const f = data().addFile({ id: data().newFileId(), name, size, project: project().id, parent, type, created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
    added.unshift(f);
    return f;
  };
  const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sb-jobs-'));

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    await vscode.commands.executeCommand('sevenbridges.copyJobs.focus');
  });

  after(() => added.forEach((f) => data().fileById.has(f.id) && data().removeFile(f)));

  it('a delete of two files is a job of Data Jobs: its row says "Delete", it is followed to its end, each item "deleted"', async () => {
    const folder = add('jobs-delete-here', 'folder', project().root_folder);
    const a = add('del-a.txt', 'file', folder.id, 10);
    const b = add('del-b.txt', 'file', folder.id, 20);
    const refs = [a, b].map((f) => ({ id: f.id, name: f.name, type: 'file' }));
    const result = (await vscode.commands.executeCommand('sevenbridges.files.delete', refs[0], refs, { confirm: false })) as { deleted: number };
    assert.strictEqual(result.deleted, 2);
    assert.ok(!data().fileById.has(a.id) && !data().fileById.has(b.id), 'both gone from the platform');
    // The command handed the job to the tracker: no GET of its own under /async/files/delete beyond the tracker's.
    const job = api.jobs.tracker.all().find((j) => j.type === 'DELETE' && j.items.some((i) => i.file === a.id));
    assert.ok(job, 'the delete job is tracked');
    assert.strictEqual(job.state, 'FINISHED');
    assert.deepStrictEqual(job.result?.map((r) => r.resource?.id), [a.id, b.id]);
    const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'job' && n.job.id === job.id), 'the delete job\'s row');
    assert.match(label(row), /^Delete · finished · /);
    const items = (await api.jobs.rows.getChildren(row)) as JobsNode[];
    assert.deepStrictEqual(
      items.map((i) => [String(api.jobs.rows.getTreeItem(i).label), String(api.jobs.rows.getTreeItem(i).description)]),
      [
        ['del-a.txt', 'deleted'],
        ['del-b.txt', 'deleted'],
      ],
    );
    const results = (await vscode.commands.executeCommand('sevenbridges.jobs.copyResults', row)) as vscode.TextDocument;
    assert.match(results.uri.path, /^\/delete-results-/);
    assert.match(results.getText(), new RegExp(`${a.id}\\tdel-a\\.txt\\tdeleted\\t`));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Retry Failed Items on a delete job sends the failed items only, as a new delete through the write path, followed in the view', async () => {
    const folder = add('jobs-retry-here', 'folder', project().root_folder);
    const there = add('retry-there.txt', 'file', folder.id, 3);
    const missing = 'ffffffffffffffffffffff01';
    const items = [{ file: there.id }, { file: missing }];
    const first = await api.services.client.fileJobs.submit('delete', items);
    api.jobs.tracker.add(first, { type: 'DELETE', items, destination: { label: project().id, project: project().id }, sourceNames: { [there.id]: there.name, [missing]: 'gone.txt' } });
    const [done] = await api.jobs.tracker.settled([first.id]);
    assert.deepStrictEqual(done.result?.map((r) => (r.resource ? 'deleted' : 'failed')), ['deleted', 'failed']);
    const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'job' && n.job.id === first.id), 'the delete job\'s row');
    assert.match(String(api.jobs.rows.getTreeItem(row).contextValue), /\bhasFailed\b/);
    const requestsBefore = emulator().deleteRequests.length;
    const made = (await vscode.commands.executeCommand('sevenbridges.jobs.retryFailed', row, { confirm: false })) as { id: string; type?: string; items: { file: string }[] }[];
    const sent = emulator().deleteRequests.slice(requestsBefore);
    assert.deepStrictEqual(sent.map((r) => r.items), [[{ file: missing }]], 'one new delete of the failed item only');
    assert.deepStrictEqual(made.map((j) => [j.type, j.items.map((i) => i.file)]), [['DELETE', [missing]]]);
    assert.ok(api.jobs.tracker.get(made[0].id), 'the new job is followed');
    assert.ok(!api.services.outbox.all().some((r) => r.kind === 'file.asyncDelete'), 'nothing left pending in the outbox');
  });

  it('a move job made on the platform is followed under its own path and shown as "Move", its item where it went', async () => {
    const from = add('jobs-move-from', 'folder', project().root_folder);
    const to = add('jobs-move-to', 'folder', project().root_folder);
    const file = add('moved.txt', 'file', from.id, 5);
    const items = [{ file: file.id, parent: to.id }];
    const receivedBefore = emulator().received.length;
    const submitted = await api.services.client.fileJobs.submit('move', items);
    assert.strictEqual(submitted.type ?? 'MOVE', 'MOVE');
    api.jobs.tracker.add(submitted, { type: 'MOVE', items, destination: { label: `${project().id} › jobs-move-to`, project: project().id, parent: to.id }, sourceNames: { [file.id]: 'moved.txt' } });
    const settled = await api.jobs.tracker.settled([submitted.id]);
    assert.deepStrictEqual(settled.map((j) => [j.state, j.result?.length]), [['FINISHED', 1]]);
    const asked = emulator().received.slice(receivedBefore).map((r) => r.path);
    assert.ok(asked.some((p) => p.includes(`/async/files/move/${submitted.id}`)) || asked.some((p) => /\/async\/files(\?|$)/.test(p)), `followed under move or in the list: ${asked.join(', ')}`);
    assert.ok(!asked.some((p) => p.includes('/async/files/copy/')), 'never asked under copy');
    const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'job' && n.job.id === submitted.id), 'the move job\'s row');
    assert.match(label(row), /^Move · finished · /);
    const [item] = (await api.jobs.rows.getChildren(row)) as JobsNode[];
    assert.strictEqual(String(api.jobs.rows.getTreeItem(item).description), '→ moved.txt');
    assert.strictEqual(data().fileById.get(file.id)?.parent ?? data().children(to.id).find((f) => f.name === 'moved.txt')?.parent, to.id, 'moved on the platform');
  });

  it('Move To… of a folder to another project hands its async move job to Data Jobs: a "Move" row, followed to its end', async () => {
    const other = data().projects.find((p) => p.id !== project().id && p.permissions?.write !== false)!;
    const folder = add('jobs-move-by-command', 'folder', project().root_folder);
    add('inside.txt', 'file', folder.id, 4);
    const requestsBefore = emulator().moveRequests.length;
    const result = (await vscode.commands.executeCommand('sevenbridges.files.moveTo', folder.id, { destination: { kind: 'projectRoot', project: other.id }, confirm: false })) as { moved: number };
    assert.ok(result.moved >= 1);
    const sent = emulator().moveRequests.slice(requestsBefore);
    assert.strictEqual(sent.length, 1, 'one call of the async move');
    const job = api.jobs.tracker.all().find((j) => j.type === 'MOVE' && j.items.some((i) => i.file === folder.id));
    assert.ok(job, 'the move job is tracked');
    assert.deepStrictEqual([job.id, job.state], [sent[0].jobId, 'FINISHED']);
    const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'job' && n.job.id === job.id), 'the move job\'s row');
    assert.match(label(row), /^Move · finished · /);
  });

  /**
   * An upload as a window that dies mid-way leaves it: the engine (the product's own) sends two parts of a 40 MB file
   * and stops without aborting anything; its records stay in the window's global state.
   */
  const halfUpload = async (name: string, runId: string, destination: FileRec) => {
    const local = temp();
    const file = path.join(local, name);
    const bytes = Buffer.alloc(40 * MiB);
    for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2246822519) >>> 0, i);
    fs.writeFileSync(file, bytes);
    const account = api.services.session.accountKey!;
    const state = api.services.context.globalState;
    const halt = new AbortController();
    let reports = 0;
    const client = api.services.client;
    const uploads = Object.assign(Object.create(client.uploads) as typeof client.uploads, {
      reportPart: async (...args: Parameters<typeof client.uploads.reportPart>) => {
        await client.uploads.reportPart(...args);
        if (++reports === 2) halt.abort();
      },
    });
    const dying = new Uploader({
      uploads,
      complete: () => Promise.reject(new Error('not reached')),
      ensureFolder: () => Promise.reject(new Error('not reached')),
      storage: new StorageClient({ clock: api.services.clock }),
      clock: api.services.clock,
      resume: new ResumeBook<UploadResume>(state, 'upload', account),
      runs: new ResumeBook<UploadRunResume>(state, 'uploadRun', account),
      connections: 2,
    });
    const plan = await dying.plan({ sources: [file], destination: { parent: destination.id }, ifExists: 'rename' });
    const summary = await dying.run(plan, { halt: halt.signal, record: { runId, label: `${project().id} › ${destination.name}` } });
    assert.deepStrictEqual(summary.uploaded, []);
    assert.deepStrictEqual(summary.failed, []);
    // The reload, some time later: the record was last saved before it (a run saved lately is another window's).
    const runs = new ResumeBook<UploadRunResume>(state, 'uploadRun', account);
    const record = runs.get(runId)!;
    assert.ok(record, 'the run is kept in global state');
    await runs.set(runId, { ...record, savedAt: record.savedAt - 60_000 });
    api.services.transfers.refresh();
    return { local, file, bytes };
  };

  it('an upload left by a window that died shows as interrupted after the reload; Resume sends only the parts missing, byte for byte', async () => {
    const emu = emulator();
    const partSize = emu.uploads.settings.partSize;
    emu.uploads.settings.partSize = 5 * MiB;
    try {
      const destination = add('jobs-resume-here', 'folder', project().root_folder);
      const { local, bytes } = await halfUpload('resumed.bin', 'int-run-resume', destination);
      const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'interrupted' && n.run.runId === 'int-run-resume'), 'the interrupted upload\'s row');
      assert.match(label(row), /^Interrupted · 3\d MB left$/);
      assert.match(String(api.jobs.rows.getTreeItem(row).description), /^1 of 1 file left · /);
      assert.strictEqual(api.jobs.rows.getTreeItem(row).contextValue, 'interrupted interrupted-upload');
      const storageBefore = emu.storageRequests.length;
      const callsBefore = emu.uploads.calls.length;
      const receivedBefore = emu.received.length;
      const summary = (await vscode.commands.executeCommand('sevenbridges.jobs.resumeTransfer', row)) as { uploaded: { file: { id: string } }[]; failed: unknown[]; bytes: number };
      assert.deepStrictEqual(summary.failed, []);
      assert.strictEqual(summary.uploaded.length, 1);
      const puts = emu.storageRequests.slice(storageBefore).filter((r) => r.method === 'PUT' && r.status === 200).length;
      const calls = emu.uploads.calls.slice(callsBefore).map((c) => `${c.call} ${c.status}`);
      const asked = emu.received.slice(receivedBefore).map((r) => `${r.method} ${r.path}`).filter((p) => p.includes('upload'));
      assert.ok(puts <= 6 && summary.bytes <= 30 * MiB, `only the parts missing were sent: ${puts} parts, ${summary.bytes} bytes; calls ${calls.join(', ')}; ${asked.slice(0, 2).join(', ')}`);
      const made = data().children(destination.id).filter((f) => f.name === 'resumed.bin');
      assert.strictEqual(made.length, 1, 'made once');
      const blob = emu.contentOf(made[0].id)!;
      const chunks: Buffer[] = [];
      for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
      assert.ok(Buffer.concat(chunks).equals(bytes), 'byte for byte');
      await waitFor(async () => !(await roots()).some((n) => n.kind === 'interrupted' && n.run.runId === 'int-run-resume'), 'the interrupted row gone');
      fs.rmSync(local, { recursive: true, force: true });
    } finally {
      emu.uploads.settings.partSize = partSize;
    }
  });

  it('Discard of an interrupted upload aborts its multipart upload on the platform: nothing half made is left', async () => {
    const emu = emulator();
    const partSize = emu.uploads.settings.partSize;
    emu.uploads.settings.partSize = 5 * MiB;
    try {
      const destination = add('jobs-discard-here', 'folder', project().root_folder);
      const pendingBefore = new Set(emu.uploads.pending.keys());
      const { local } = await halfUpload('discarded.bin', 'int-run-discard', destination);
      const begun = [...emu.uploads.pending.keys()].filter((id) => !pendingBefore.has(id));
      assert.strictEqual(begun.length, 1, 'the half-made upload is on the platform');
      const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'interrupted' && n.run.runId === 'int-run-discard'), 'the interrupted upload\'s row');
      const aborted = await vscode.commands.executeCommand('sevenbridges.jobs.discardTransfer', row, { confirm: false });
      assert.strictEqual(aborted, 1);
      assert.ok(!emu.uploads.pending.has(begun[0]), 'aborted on the platform');
      assert.deepStrictEqual(data().children(destination.id), [], 'no file made');
      assert.ok(!(await roots()).some((n) => n.kind === 'interrupted' && n.run.runId === 'int-run-discard'), 'its row gone');
      fs.rmSync(local, { recursive: true, force: true });
    } finally {
      emu.uploads.settings.partSize = partSize;
    }
  });

  it('a download cancelled mid-way leaves its .part file: shown as interrupted, Resume fetches the rest, byte for byte', async () => {
    const emu = emulator();
    const remote = add('jobs-download-me.bin', 'file', project().root_folder, 24 * MiB);
    const target = temp();
    const account = api.services.session.accountKey!;
    const state = api.services.context.globalState;
    const client = api.services.client;
    // A slow link: the download is cancelled once some of its bytes are on disk.
    emu.storageFaults.settings.bytesPerSecond = 6 * MiB;
    try {
      const cancel = new AbortController();
      const first = new Downloader({ downloadInfo: (id, signal) => client.files.downloadInfo(id, signal), storage: new StorageClient({ clock: api.services.clock }), clock: api.services.clock, resume: new ResumeBook<DownloadResume>(state, 'download', account) });
      const plan = await first.plan({ target, items: [{ fileId: remote.id, relativePath: remote.name, size: 24 * MiB }], ifExists: 'keepBoth', ask: async () => 'keepBoth' });
      const running = first.run(plan, { signal: cancel.signal });
      const part = path.join(target, `${remote.name}.part`);
      await waitFor(() => fs.existsSync(part) && fs.statSync(part).size > 0, 'bytes on disk', 20_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      cancel.abort();
      const cancelled = await running;
      assert.strictEqual(cancelled.cancelled, true);
      assert.ok(fs.existsSync(part), 'the .part file is kept');
      // Some time later (a .part file written lately is a download still moving, in another window).
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(part, past, past);
      api.services.transfers.refresh();
      emu.storageFaults.settings.bytesPerSecond = 0;
      const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'interrupted' && n.run.label === target), 'the interrupted download\'s row');
      assert.match(label(row), /^Interrupted · \d+(\.\d)? MB left$/);
      assert.match(String(api.jobs.rows.getTreeItem(row).description), /^1 file · /);
      assert.strictEqual(api.jobs.rows.getTreeItem(row).contextValue, 'interrupted interrupted-download');
      const summary = (await vscode.commands.executeCommand('sevenbridges.jobs.resumeTransfer', row)) as { saved: string[]; failed: unknown[]; bytes: number };
      assert.deepStrictEqual(summary.failed, []);
      assert.deepStrictEqual(summary.saved.map((p) => path.basename(p)), [remote.name]);
      assert.ok(summary.bytes < 24 * MiB, `only the bytes missing were fetched: ${summary.bytes}`);
      const blob = emu.contentOf(remote.id)!;
      const chunks: Buffer[] = [];
      for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
      assert.ok(fs.readFileSync(path.join(target, remote.name)).equals(Buffer.concat(chunks)), 'byte for byte');
      assert.ok(!fs.existsSync(part), 'the .part file took its name');
      await waitFor(async () => !(await roots()).some((n) => n.kind === 'interrupted' && n.run.label === target), 'the interrupted row gone');
    } finally {
      emu.storageFaults.settings.bytesPerSecond = 0;
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('a download cancelled from its row leaves a row at once that resumes or discards what it kept (#44); Discard deletes the .part', async () => {
    const emu = emulator();
    const remote = add('jobs-cancel-download.bin', 'file', project().root_folder, 24 * MiB);
    const target = temp();
    const part = path.join(target, `${remote.name}.part`);
    emu.storageFaults.settings.bytesPerSecond = 6 * MiB;
    try {
      const running = vscode.commands.executeCommand('sevenbridges.files.download', { id: remote.id, name: remote.name, type: 'file' }, { target, confirm: false }) as Thenable<{ cancelled: boolean; kept: { partPath: string }[] }>;
      const live = await waitFor(async () => (await roots()).find((n) => n.kind === 'transfer' && n.transfer.label === target), 'the download\'s row', 30_000);
      await waitFor(() => fs.existsSync(part) && fs.statSync(part).size > 0, 'bytes on disk', 20_000);
      await vscode.commands.executeCommand('sevenbridges.jobs.cancelTransfer', live);
      const summary = await running;
      assert.strictEqual(summary.cancelled, true);
      assert.deepStrictEqual(summary.kept.map((k) => k.partPath), [part], 'the summary says the .part is kept');
      // Shown as soon as the download has stopped: no refresh, no waiting for the .part to age.
      const row = (await roots()).find((n) => n.kind === 'interrupted' && n.run.label === target);
      assert.ok(row, `a row for what it kept: ${(await roots()).map(label).join(' | ')}`);
      assert.match(label(row), /^Interrupted · \d+(\.\d)? MB left$/);
      assert.match(String(api.jobs.rows.getTreeItem(row).description), /^1 file · /);
      assert.strictEqual(api.jobs.rows.getTreeItem(row).contextValue, 'interrupted interrupted-download');
      assert.strictEqual(await vscode.commands.executeCommand('sevenbridges.jobs.discardTransfer', row, { confirm: false }), 1);
      assert.ok(!fs.existsSync(part), 'the .part is deleted');
      assert.ok(!(await roots()).some((n) => n.kind === 'interrupted' && n.run.label === target), 'its row gone');
    } finally {
      emu.storageFaults.settings.bytesPerSecond = 0;
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('an upload under way is a row with its progress; its Cancel stops it and aborts the multipart upload: nothing left', async () => {
    const emu = emulator();
    const local = temp();
    const file = path.join(local, 'cancel-from-row.bin');
    fs.writeFileSync(file, Buffer.alloc(48 * MiB, 3));
    const destination = add('jobs-cancel-here', 'folder', project().root_folder);
    const pendingBefore = new Set(emu.uploads.pending.keys());
    emu.storageFaults.settings.bytesPerSecond = 8 * MiB;
    try {
      const running = vscode.commands.executeCommand('sevenbridges.files.upload', { sources: [file], destination: { parent: destination.id }, confirm: false }) as Thenable<{ cancelled: boolean; uploaded: unknown[] }>;
      const row = await waitFor(async () => (await roots()).find((n) => n.kind === 'transfer' && /^\d+%/.test(label(n)) && / · 0\/1 files · /.test(String(api.jobs.rows.getTreeItem(n).description))), 'the upload\'s row with its progress', 30_000);
      assert.match(String(api.jobs.rows.getTreeItem(row).contextValue), /\bcancellable\b/);
      await waitFor(() => [...emu.uploads.pending.keys()].some((id) => !pendingBefore.has(id)), 'the upload begun on the platform', 30_000);
      await vscode.commands.executeCommand('sevenbridges.jobs.cancelTransfer', row);
      const summary = await running;
      assert.strictEqual(summary.cancelled, true);
      assert.deepStrictEqual(summary.uploaded, []);
      assert.deepStrictEqual([...emu.uploads.pending.keys()].filter((id) => !pendingBefore.has(id)), [], 'no upload left pending');
      assert.deepStrictEqual(data().children(destination.id), [], 'no file made');
      assert.ok(!(await roots()).some((n) => n.kind === 'transfer' || (n.kind === 'interrupted' && n.run.label.includes('jobs-cancel-here'))), 'no row left: not under way, not interrupted');
    } finally {
      emu.storageFaults.settings.bytesPerSecond = 0;
      fs.rmSync(local, { recursive: true, force: true });
    }
  });
});
