/**
 * The Copy Jobs view, name clashes and drag and drop in a real VS Code against the emulator: jobs shown with
 * their progress and items, Copy Results as a table, Retry Failed Items, Dismiss, Clear Finished; a request
 * waiting in the outbox shown with its actions; clashes told before sending; drops refused before anything is sent.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { FilesNode, ItemNode } from '../../../src/files/fileNodes';
import type { JobsNode } from '../../../src/jobs/jobNodes';
import type { TrackedJob } from '../../../src/jobs/tracker';
import { requestsOf, WRITES, type FileRec } from '../../emulator';
import { activateProduct, emulator, manifest, waitFor } from '../helpers';

type AnyNode = FilesNode & { kind: string };
const FILES_MIME = 'application/vnd.code.tree.sevenbridges.files';

describe('copy jobs view, name clashes, drag and drop', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const copy = () => api.copy;
  const filesView = () => api.files;
  const copyJobs = () => api.jobs;
  const data = () => emulator().data;
  const files = async (node?: AnyNode) => (await filesView().rows.getChildren(node)) as AnyNode[];
  const jobRows = async () => copyJobs().rows.getChildren();
  const fileOf = (node: AnyNode) => (node as unknown as { file: FileRec }).file;
  const projectNode = async (id: string) => {
    for (;;) {
      const roots = await files();
      const node = roots.find((n) => n.kind === 'project' && n.id === id);
      if (node) return node;
      const more = roots.find((n) => n.kind === 'loadMore');
      assert.ok(more, `project ${id} not in the view`);
      await vscode.commands.executeCommand('sevenbridges.files.loadMore', more);
    }
  };
  const finished = (id: string) =>
    waitFor(() => {
      const job = copyJobs().tracker.get(id);
      return job && job.state === 'FINISHED' && job.result?.length ? job : undefined;
    }, `job ${id} to finish`, 40_000);
  /** A writable project with files at its root and a folder holding a subfolder; another writable project with a folder. */
  const setting = () => {
    const writable = data().projects.filter((p) => p.permissions.write);
    const rootKids = (p: { root_folder: string }) => data().children(p.root_folder);
    const source = writable.find((p) => rootKids(p).filter((f) => f.type === 'file').length >= 3 && rootKids(p).some((f) => f.type === 'folder' && data().children(f.id).some((k) => k.type === 'folder')))!;
    const target = writable.find((p) => p.id !== source.id && rootKids(p).some((f) => f.type === 'folder'))!;
    assert.ok(source && target, 'the seeded data has the projects this suite needs');
    return { source, target, folder: rootKids(target).find((f) => f.type === 'folder')! };
  };

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
  });

  it('contributes the Copy Jobs view third in the container, with its actions on rows and title', () => {
    const views = manifest().contributes.views!.sevenbridges.map((v) => v.id);
    assert.deepStrictEqual(views.slice(0, 3), ['sevenbridges.tasks', 'sevenbridges.files', 'sevenbridges.copyJobs']);
    const item = manifest().contributes.menus!['view/item/context'].filter((m) => m.when?.includes('view == sevenbridges.copyJobs')).map((m) => m.command);
    for (const command of ['sevenbridges.jobs.retryFailed', 'sevenbridges.jobs.copyResults', 'sevenbridges.jobs.dismiss', 'sevenbridges.jobs.submitAgain', 'sevenbridges.jobs.submitAnyway', 'sevenbridges.jobs.discard']) {
      assert.ok(item.includes(command), `${command} on the view's rows`);
    }
    assert.ok(manifest().contributes.menus!['view/title'].some((m) => m.command === 'sevenbridges.jobs.clearFinished' && m.when?.includes('sevenbridges.copyJobs')));
  });

  it('"Show Copy Jobs" focuses the view', async () => {
    await vscode.commands.executeCommand('sevenbridges.jobs.show');
    await waitFor(() => copyJobs().view.visible, 'the Copy Jobs view to be visible');
  });

  it('shows a job with its progress and items (failed first), copies its results as TSV, retries the failed item, and dismisses', async () => {
    const { source, target, folder } = setting();
    const kids = data().children(source.root_folder).filter((f) => f.type === 'file').slice(0, 2);
    const missing = 'f'.repeat(23) + '0';
    const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', {
      ids: [kids[0].id, missing, kids[1].id],
      destination: { kind: 'otherProjectFolder', project: target.id, folder: folder.id, path: [folder.name] },
      confirm: false,
    })) as TrackedJob[];
    assert.strictEqual(jobs.length, 1);
    const done = await finished(jobs[0].id);
    const row = (await jobRows()).find((n) => n.kind === 'job' && n.job.id === done.id)!;
    assert.ok(row, 'the job has a row');
    const item = copyJobs().rows.getTreeItem(row);
    // State and progress first, then the folder's name and the age; the whole destination on hover.
    assert.strictEqual(item.label, 'finished · 3/3 files · 1 failed');
    assert.match(String(item.description), new RegExp(`^${folder.name} · `));
    assert.strictEqual(String(item.tooltip).split('\n')[0], `Copy to ${target.id} › ${folder.name}`);
    assert.match(item.contextValue!, /\bhasFailed\b/);

    const items = (await copyJobs().rows.getChildren(row)) as JobsNode[];
    assert.strictEqual(items.length, 3, 'one row per item');
    const first = copyJobs().rows.getTreeItem(items[0]);
    assert.strictEqual(first.label, missing, 'the failed item comes first');
    assert.match(String(first.description), /^error 10225: /);
    const ok = copyJobs().rows.getTreeItem(items[1]);
    assert.strictEqual(ok.label, kids[0].id);
    assert.match(String(ok.description), /^→ /);

    await vscode.commands.executeCommand('sevenbridges.jobs.openItem', items[1]);
    const newId = done.result![0].resource!.id;
    assert.strictEqual(await vscode.env.clipboard.readText(), newId, 'clicking a copied item copies the new ID');

    // Reveal in Projects & Files, from the copied item's menu: the folders open down to the new copy, selected there.
    assert.match(ok.contextValue!, /\bcopied\b/);
    await vscode.commands.executeCommand('sevenbridges.files.reveal', items[1]);
    await waitFor(() => filesView().view.selection[0]?.id === newId, 'the new copy selected in Projects & Files');
    assert.deepStrictEqual(filesView().view.selection.map((n) => n.kind), ['file']);
    const parent = filesView().rows.getParent(filesView().view.selection[0]);
    assert.strictEqual(parent?.id, folder.id, 'in the folder it was copied to');

    const document = (await vscode.commands.executeCommand('sevenbridges.jobs.copyResults', row)) as vscode.TextDocument;
    const lines = document.getText().trimEnd().split('\n');
    assert.strictEqual(lines[0], 'source_id\tsource_name\toutcome\tnew_id_or_error');
    assert.deepStrictEqual(lines.slice(1).map((l) => l.split('\t')[2]), ['copied', 'failed', 'copied']);
    assert.strictEqual(lines[1].split('\t')[3], newId);
    assert.match(lines[2].split('\t')[3], /^error 10225: /);
    // A read-only document named after the destination and the job: nothing to save.
    assert.match(document.uri.path, /^\/copy-results-.+\.tsv$/);
    assert.strictEqual(document.isDirty, false);
    assert.strictEqual(document.isUntitled, false);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    const before = emulator().copyRequests.length;
    const retried = (await vscode.commands.executeCommand('sevenbridges.jobs.retryFailed', row, { confirm: false })) as TrackedJob[];
    assert.strictEqual(retried.length, 1);
    assert.deepStrictEqual(emulator().copyRequests[before].items, [{ file: missing, parent: folder.id }], 'only the failed item is sent again');
    await finished(retried[0].id);

    await vscode.commands.executeCommand('sevenbridges.jobs.dismiss', row);
    assert.ok(!copyJobs().tracker.get(done.id), 'dismissed');
    assert.ok(!(await jobRows()).some((n) => n.kind === 'job' && n.job.id === done.id), 'its row is gone');
    const cleared = (await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished')) as number;
    assert.ok(cleared >= 1);
    assert.strictEqual(copyJobs().tracker.all().filter((j) => j.state === 'FINISHED').length, 0, 'Clear Finished leaves no finished job');
  });

  it('reads results already carried by the POST answer (the emulator answers every second small job so)', async () => {
    const { source, target } = setting();
    const file = data().children(source.root_folder).find((f) => f.type === 'file')!;
    const early: TrackedJob[] = [];
    for (let i = 0; i < 2; i++) {
      const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', { ids: [file.id], destination: { kind: 'projectRoot', project: target.id }, confirm: false })) as TrackedJob[];
      const job = copyJobs().tracker.get(jobs[0].id)!;
      if (job.state !== 'FINISHED' && job.result?.length === 1) early.push(job);
    }
    assert.strictEqual(early.length, 1, 'one of two small jobs had its result in the POST answer, and it was kept');
    assert.ok(early[0].result![0].resource, 'the result is the new copy');
    await finished(early[0].id);
    await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished');
  });

  it('groups the jobs of a split copy under one row', async () => {
    const { source, target } = setting();
    const ids = data().children(source.root_folder).filter((f) => f.type === 'file').slice(0, 3).map((f) => f.id);
    await vscode.workspace.getConfiguration('sevenbridges').update('copy.maxItemsPerRequest', 2, vscode.ConfigurationTarget.Global);
    try {
      const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', { ids, destination: { kind: 'projectRoot', project: target.id }, confirm: false })) as TrackedJob[];
      assert.strictEqual(jobs.length, 2);
      const submission = (await jobRows()).find((n) => n.kind === 'submission' && n.jobs.some((j) => j.id === jobs[0].id))!;
      assert.ok(submission, 'one row for the submission');
      const children = (await copyJobs().rows.getChildren(submission)) as JobsNode[];
      assert.deepStrictEqual(children.map((c) => c.kind === 'job' && c.job.id).sort(), jobs.map((j) => j.id).sort());
      assert.match(String(copyJobs().rows.getTreeItem(submission).description), /2 requests/);
      await Promise.all(jobs.map((j) => finished(j.id)));
    } finally {
      await vscode.workspace.getConfiguration('sevenbridges').update('copy.maxItemsPerRequest', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished');
    }
  });

  it('shows a request waiting in the outbox with its state, and Discard forgets it before it is sent', async () => {
    const { source, target } = setting();
    const file = data().children(source.root_folder).find((f) => f.type === 'file')!;
    const outbox = api.services.outbox;
    const before = emulator().copyRequests.length;
    const unsubscribe = outbox.onDidChange(() => {
      if (outbox.all().some((r) => r.state === 'sending')) {
        emulator().burst429(1, 5, requestsOf(WRITES.copy));
        unsubscribe.dispose();
      }
    });
    await vscode.commands.executeCommand('sevenbridges.copy', { ids: [file.id], destination: { kind: 'projectRoot', project: target.id }, confirm: false });
    const request = await waitFor(async () => (await jobRows()).find((n) => n.kind === 'request'), 'the waiting request in the view');
    const item = copyJobs().rows.getTreeItem(request);
    assert.match(String(item.label), /^waiting until .+ · 1 item$/);
    assert.match(item.contextValue!, /\bcopyRequest\b.*\bdiscardable\b/);
    assert.match(String(item.tooltip), /rate limit/);
    await vscode.commands.executeCommand('sevenbridges.jobs.discard', request);
    await waitFor(() => outbox.all().length === 0, 'the request to be discarded');
    assert.ok(!(await jobRows()).some((n) => n.kind === 'request'), 'its row is gone');
    assert.strictEqual(emulator().copyRequests.length, before, 'nothing was sent');
    // The client waits out the rate limit itself if it still must (it asks GET /v2/rate_limit first, which is free).
    await api.services.client.user();
  });

  it('tells name clashes before sending: a taken name arrives as 1_<name>, a folder is merged', async () => {
    const { source, target, folder } = setting();
    const file = data().children(source.root_folder).find((f) => f.type === 'file')!;
    const destination = { kind: 'otherProjectFolder' as const, project: target.id, folder: folder.id, path: [folder.name] };
    const fresh = await copy().flow.checkClashes([file.id], { ids: [file.id], names: { [file.id]: file.name } }, destination);
    const [jobs] = [(await vscode.commands.executeCommand('sevenbridges.copy', { ids: [file.id], destination, confirm: false })) as TrackedJob[]];
    await finished(jobs[0].id);
    const taken = await copy().flow.checkClashes([file.id], { ids: [file.id] }, destination);
    assert.strictEqual(taken.complete, true);
    const existing = new Set(data().children(folder.id).map((f) => f.name));
    let expected = `1_${file.name}`;
    for (let i = 2; existing.has(expected); i++) expected = `${i}_${file.name}`;
    assert.deepStrictEqual(taken.lines, [`1 file will arrive renamed (${expected}).`], `before the copy: ${fresh.lines.join(' ')}`);
    const sub = data().children(target.root_folder).find((f) => f.type === 'folder')!;
    const merged = await copy().flow.checkClashes([sub.id], { ids: [sub.id], names: { [sub.id]: sub.name }, folders: [sub.id] }, { kind: 'projectRoot', project: target.id });
    assert.deepStrictEqual(merged.lines, [`1 folder will be merged (${sub.name}).`]);
    await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished');
  });

  it('drag and drop: refused onto the items\' own folder or a folder\'s own subtree, nothing sent; onto another project, copied there', async () => {
    const { source, target } = setting();
    const project = await projectNode(source.id);
    const kids = await files(project);
    const two = kids.filter((k) => k.kind === 'file').slice(0, 2);
    const parentFolder = kids.find((k) => k.kind === 'folder' && data().children(fileOf(k).id).some((c) => c.type === 'folder'))!;
    const subfolder = (await files(parentFolder)).find((k) => k.kind === 'folder')!;
    const dnd = filesView().dragAndDrop;
    const before = emulator().copyRequests.length;

    const transfer = new vscode.DataTransfer();
    await dnd.handleDrag(two, transfer);
    assert.deepStrictEqual(transfer.get(FILES_MIME)?.value, two, 'the dragged nodes travel in the tree\'s mime type');
    assert.strictEqual(await transfer.get('text/plain')?.asString(), two.map((n) => fileOf(n).id).join('\n'));

    await dnd.handleDrop(project, transfer, new vscode.CancellationTokenSource().token);
    await dnd.handleDrop(two[1], transfer, new vscode.CancellationTokenSource().token);
    const folderTransfer = new vscode.DataTransfer();
    await dnd.handleDrag([parentFolder], folderTransfer);
    await dnd.handleDrop(subfolder, folderTransfer, new vscode.CancellationTokenSource().token);
    await dnd.handleDrop(parentFolder, folderTransfer, new vscode.CancellationTokenSource().token);
    assert.strictEqual(emulator().copyRequests.length, before, 'no refused drop sent anything');
    assert.strictEqual(api.services.outbox.all().length, 0);

    const targetNode = await projectNode(target.id);
    const jobs = await filesView().dropCopy(targetNode as never, two as unknown as ItemNode[], { confirm: false });
    assert.strictEqual(jobs.length, 1);
    assert.deepStrictEqual(emulator().copyRequests[before].items, two.map((n) => ({ file: fileOf(n).id, project: target.id })));
    await finished(jobs[0].id);
    await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished');
  });
  it('"Copy Outputs To…" on several selected tasks and a batch parent copies all their outputs in one flow', async () => {
    const outputsOf = (t: { outputs: Record<string, unknown> }) =>
      (Object.values(t.outputs).flat() as ({ path?: unknown } | null)[]).map((v) => v?.path).filter((p): p is string => typeof p === 'string');
    const completed = data().tasks.filter((t) => t.status === 'COMPLETED' && !t.batch && outputsOf(t).length > 0);
    const batch = data().tasks.find((t) => t.batch && data().tasks.some((c) => c.parent === t.id && c.status === 'COMPLETED' && outputsOf(c).length > 0))!;
    assert.ok(completed.length >= 2 && batch, 'the seeded data has completed tasks with outputs and a batch with completed children');
    const chosen = [completed[0], completed[1], batch].map((t) => ({ task: { id: t.id, name: t.name, href: '', batch: t.batch } }));
    const expected = [...new Set([
      ...outputsOf(completed[0]),
      ...outputsOf(completed[1]),
      ...data().tasks.filter((c) => c.parent === batch.id && c.status === 'COMPLETED').flatMap(outputsOf),
    ])];
    const target = data().projects.find((p) => p.permissions.write)!;
    const before = emulator().copyRequests.length;
    const jobs = (await vscode.commands.executeCommand('sevenbridges.tasks.copyOutputs', chosen[0], chosen, {
      destination: { kind: 'projectRoot', project: target.id },
      confirm: false,
    })) as TrackedJob[];
    assert.strictEqual(jobs.length, Math.ceil(expected.length / 100), 'split per 100');
    const sent = emulator().copyRequests.slice(before).flatMap((r) => (r.items as { file: string }[]).map((i) => i.file));
    assert.deepStrictEqual([...sent].sort(), [...expected].sort(), 'every output once');
    await Promise.all(jobs.map((j) => finished(j.id)));
    await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished');
  });
  it('accounts for every one of 1,000 items in the view, with no request per file', async () => {
    const target = data().projects.find((p) => p.permissions.write)!;
    const ids = data().files.filter((f) => f.type === 'file' && f.parent !== null).slice(0, 1000).map((f) => f.id);
    assert.strictEqual(ids.length, 1000, 'the seeded data has 1,000 files');
    const requestsBefore = emulator().stats.requests;
    const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', { ids, destination: { kind: 'projectRoot', project: target.id }, confirm: false })) as TrackedJob[];
    assert.strictEqual(jobs.length, 10);
    await Promise.all(jobs.map((j) => finished(j.id)));
    const submission = (await jobRows()).find((n) => n.kind === 'submission' && n.jobs.some((j) => j.id === jobs[0].id))!;
    const jobNodes = (await copyJobs().rows.getChildren(submission)) as JobsNode[];
    const items = (await Promise.all(jobNodes.map((j) => copyJobs().rows.getChildren(j)))).flat();
    assert.strictEqual(items.length, 1000, 'one row per item');
    const outcomes = items.map((i) => String(copyJobs().rows.getTreeItem(i).description));
    assert.strictEqual(outcomes.filter((d) => d.startsWith('→ ')).length, 1000, 'every item has its copy');
    const spent = emulator().stats.requests - requestsBefore;
    console.log(`      1,000 items: ${spent} requests from submission to every per-file outcome shown`);
    assert.ok(spent < 40, `${spent} requests: not one per file`);
    await vscode.commands.executeCommand('sevenbridges.jobs.clearFinished');
  });
});
