/**
 * Bulk copy in a real VS Code against the emulator: files chosen in the Projects & Files view, copied to a
 * folder of another project, the job followed to FINISHED with the status bar, the copies then listed in
 * the view; a lost answer adopted rather than sent twice; a rate-limited call kept and sent again on request.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { FilesNode } from '../../../src/files/fileNodes';
import type { TrackedJob } from '../../../src/jobs/tracker';
import type { CopyDestination } from '../../../src/copy/request';
import { requestsOf, WRITES, type FileRec } from '../../emulator';
import { activateProduct, emulator, waitFor } from '../helpers';

type AnyNode = FilesNode & { kind: string };

describe('bulk copy', function () {
  this.timeout(90_000);
  let api: ExtensionApi;

  const copy = () => api.copy;
  const filesView = () => api.files;
  const copyJobs = () => api.jobs;
  const children = async (node?: AnyNode) => (await filesView().rows.getChildren(node)) as AnyNode[];
  const data = () => emulator().data;
  /** A project with files at its root, and another with a folder at its root. */
  const pickProjects = () => {
    const rootFiles = (p: { root_folder: string }) => data().children(p.root_folder);
    const source = data().projects.find((p) => rootFiles(p).filter((f) => f.type === 'file').length >= 3)!;
    const target = data().projects.find((p) => p.id !== source.id && rootFiles(p).some((f) => f.type === 'folder'))!;
    const folder = rootFiles(target).find((f) => f.type === 'folder')!;
    return { source, target, folder };
  };
  const projectNode = async (id: string) => {
    const roots = await children();
    let node = roots.find((n) => n.kind === 'project' && (n as unknown as { project: { id: string } }).project.id === id);
    while (!node) {
      const more = roots.find((n) => n.kind === 'loadMore');
      assert.ok(more, `project ${id} not in the view`);
      await vscode.commands.executeCommand('sevenbridges.files.loadMore', more);
      node = (await children()).find((n) => n.kind === 'project' && (n as unknown as { project: { id: string } }).project.id === id);
    }
    return node;
  };
  const fileOf = (node: AnyNode) => (node as unknown as { file: FileRec }).file;
  const finished = (id: string) => waitFor(() => {
    const job = copyJobs().tracker.get(id);
    return job && job.state === 'FINISHED' && job.result?.length ? job : undefined;
  }, `job ${id} to finish`, 40_000);

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    await vscode.commands.executeCommand('sevenbridges.files.focus');
  });

  it('lists projects, folders and files with IDs in tooltips and context values for the menus', async () => {
    const { source } = pickProjects();
    const project = await projectNode(source.id);
    const projectItem = filesView().rows.getTreeItem(project);
    // Menus follow the data: a project that may be changed says so in its context value, and so do its rows.
    const writable = source.permissions?.write !== false ? ' writable' : '';
    assert.strictEqual(projectItem.contextValue, `project${writable}`);
    assert.ok((projectItem.tooltip as vscode.MarkdownString).value.includes(source.id));
    const kids = await children(project);
    const file = kids.find((k) => k.kind === 'file')!;
    // A file's tooltip (its tags, metadata, origin) is read when it is hovered.
    const item = await filesView().rows.resolvedItem(file);
    assert.strictEqual(item.contextValue, `file${writable}`);
    const tip = (item.tooltip as vscode.MarkdownString).value;
    assert.ok(tip.includes(fileOf(file).id), 'tooltip has the ID');
    assert.match(tip, /Size: /);
    assert.match(tip, /Created: \d{4}-\d\d-\d\d/);
    const rootCount = data().children(source.root_folder).length;
    assert.strictEqual(kids.filter((k) => k.kind === 'file' || k.kind === 'folder').length, Math.min(100, rootCount));
  });

  it('lists folders before files, as the Explorer does, with icons of the file icon theme and plain screen-reader labels', async () => {
    const project = data().projects.find((p) => {
      const kids = data().children(p.root_folder);
      return kids.some((f) => f.type === 'folder') && kids.some((f) => f.type === 'file');
    })!;
    const kids = (await children(await projectNode(project.id))).filter((k) => k.kind === 'file' || k.kind === 'folder');
    const kinds = kids.map((k) => k.kind);
    assert.ok(kinds.lastIndexOf('folder') < kinds.indexOf('file'), `folders first: ${kinds.join(',')}`);
    for (const node of kids) {
      const item = filesView().rows.getTreeItem(node);
      assert.ok(item.resourceUri, 'a resourceUri, so the file icon theme gives the icon');
      assert.strictEqual(item.iconPath, node.kind === 'folder' ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File);
      const label = item.accessibilityInformation?.label ?? '';
      assert.ok(label.startsWith(`${fileOf(node).name}, ${node.kind}`), label);
      assert.doesNotMatch(label, /\*\*|`|\$\(/, label);
    }
  });

  it('copies files chosen in the view to a folder of another project and follows the job to FINISHED', async () => {
    const { source, target, folder } = pickProjects();
    const project = await projectNode(source.id);
    const files = (await children(project)).filter((k) => k.kind === 'file').slice(0, 3);
    // The destination folder is listed before the copy: its rows are read again when the job ends.
    const targetNode = await projectNode(target.id);
    const folderNode = (await children(targetNode)).find((k) => k.kind === 'folder' && fileOf(k).id === folder.id)!;
    assert.ok(folderNode, 'destination folder in the view');
    const listedBefore = await children(folderNode);
    const before = emulator().copyRequests.length;
    const destination: CopyDestination = { kind: 'otherProjectFolder', project: target.id, folder: folder.id, path: [folder.name] };
    const jobs = (await vscode.commands.executeCommand('sevenbridges.copyTo', files[0], files, { destination, confirm: false })) as TrackedJob[];
    assert.strictEqual(jobs.length, 1);
    assert.strictEqual(emulator().copyRequests.length, before + 1);
    assert.deepStrictEqual(
      emulator().copyRequests[before].items,
      files.map((f) => ({ file: fileOf(f).id, parent: folder.id })),
      'body: file + parent only',
    );

    const statusBar = copyJobs().statusBar.item;
    assert.match(statusBar.text, /^\$\(sync~spin\) Copying 1 job/);
    const done = await finished(jobs[0].id);
    assert.strictEqual(done.failed ?? 0, 0);
    await waitFor(() => statusBar.text.startsWith('$(check) Copy done'), 'the status bar to show the outcome');
    assert.strictEqual(statusBar.text, '$(check) Copy done · 3 files');
    assert.ok(!statusBar.backgroundColor);

    // The copies are listed in the destination folder of the view, with no refresh asked for.
    const listed = async () => {
      const ids = new Set<string>();
      let folderKids = await children(folderNode);
      for (;;) {
        folderKids.filter((k) => k.kind === 'file').forEach((k) => ids.add(fileOf(k).id));
        const more = folderKids.find((k) => k.kind === 'loadMore');
        if (!more) return ids;
        await vscode.commands.executeCommand('sevenbridges.files.loadMore', more);
        folderKids = await children(folderNode);
      }
    };
    const copies = done.result!.map((r) => r.resource!.id);
    assert.ok(!copies.some((id) => listedBefore.some((k) => k.kind === 'file' && fileOf(k).id === id)), 'not listed before the copy');
    await waitFor(async () => {
      const ids = await listed();
      return copies.every((id) => ids.has(id));
    }, 'the copies listed in the destination folder', 10_000);

    // Kept in global state for the next session; opening the list marks the outcome as seen.
    const saved = api.services.context.globalState.get<{ jobs: TrackedJob[] }>('sevenbridges.copyJobs');
    assert.ok(saved?.jobs.some((j) => j.id === done.id && j.state === 'FINISHED'));
    copyJobs().tracker.acknowledge();
    await waitFor(() => !statusBar.text || statusBar.text === '' || !copyJobs().tracker.all().some((j) => !j.acknowledged), 'outcome seen');
  });

  it('reports failed items and retries only them as a new request', async () => {
    const { target } = pickProjects();
    const good = data().files.find((f) => f.type === 'file' && f.project !== target.id)!;
    const missing = 'f'.repeat(23) + '0';
    const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', {
      ids: [good.id, missing],
      destination: { kind: 'projectRoot', project: target.id },
      confirm: false,
    })) as TrackedJob[];
    const done = await finished(jobs[0].id);
    assert.ok(done.result![1].error, 'the missing source fails');
    await waitFor(() => copyJobs().statusBar.item.text === '$(warning) Copy: 1 failed', 'the failure in the status bar');
    assert.ok(copyJobs().statusBar.item.backgroundColor instanceof vscode.ThemeColor);

    const before = emulator().copyRequests.length;
    const retried = await copy().flow.retryFailed(done, { confirm: false });
    assert.strictEqual(retried.length, 1);
    assert.deepStrictEqual(emulator().copyRequests[before].items, [{ file: missing, project: target.id }]);
    await finished(retried[0].id);
    copyJobs().tracker.acknowledge();
  });

  it("copies a task's outputs (Copy Outputs To…) to another project's root", async () => {
    const task = data().tasks.find((t) => t.status === 'COMPLETED' && Object.values(t.outputs).flat().filter(Boolean).length >= 2)!;
    assert.ok(task, 'a completed task with outputs');
    const target = data().projects.find((p) => p.id !== task.project)!;
    const before = emulator().copyRequests.length;
    const jobs = (await vscode.commands.executeCommand(
      'sevenbridges.tasks.copyOutputs',
      { task: { id: task.id, name: task.name, href: '' } },
      { destination: { kind: 'projectRoot', project: target.id }, confirm: false },
    )) as TrackedJob[];
    assert.strictEqual(jobs.length, 1);
    const outputIds = (Object.values(task.outputs).flat() as unknown as ({ path?: unknown } | null)[])
      .map((v) => v?.path)
      .filter((path): path is string => typeof path === 'string');
    assert.deepStrictEqual(
      (emulator().copyRequests[before].items as { file: string }[]).map((i) => i.file),
      [...new Set(outputIds)],
    );
    await finished(jobs[0].id);
    copyJobs().tracker.acknowledge();
  });

  it('after a lost answer, finds the job on the platform and follows it without submitting twice', async () => {
    const { source, target } = pickProjects();
    const file = data().children(source.root_folder).find((f) => f.type === 'file')!;
    const before = emulator().copyRequests.length;
    emulator().loseNextCopyResponse();
    const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', {
      ids: [file.id],
      destination: { kind: 'projectRoot', project: target.id },
      newName: 'renamed-after-lost-answer.txt',
      confirm: false,
    })) as TrackedJob[];
    assert.strictEqual(jobs.length, 0, 'the answer was lost');
    const created = emulator().copyRequests[before].jobId!;
    const adopted = await waitFor(() => copyJobs().tracker.get(created), 'the job to be found and adopted', 20_000);
    assert.strictEqual(adopted.adopted, true);
    assert.deepStrictEqual(api.services.outbox.all(), [], 'nothing left to send');
    await finished(created);
    assert.strictEqual(emulator().copyRequests.length, before + 1, 'one POST only');
    copyJobs().tracker.acknowledge();
  });

  it('a rate-limited call waits, told in the status bar, and is sent again by itself once, after the reset', async () => {
    const { source, target } = pickProjects();
    const file = data().children(source.root_folder).find((f) => f.type === 'file')!;
    const before = emulator().copyRequests.length;
    const outbox = api.services.outbox;
    // Let the snapshot GET through, then refuse the POST: it is marked as on its way just before it leaves.
    const unsubscribe = outbox.onDidChange(() => {
      if (outbox.all().some((r) => r.state === 'sending')) {
        emulator().burst429(1, 2, requestsOf(WRITES.copy));
        unsubscribe.dispose();
      }
    });
    const jobs = (await vscode.commands.executeCommand('sevenbridges.copy', {
      ids: [file.id],
      destination: { kind: 'projectRoot', project: target.id },
      confirm: false,
    })) as TrackedJob[];
    assert.strictEqual(jobs.length, 0, 'not sent yet');
    const waiting = outbox.all();
    assert.deepStrictEqual(waiting.map((r) => [r.state, r.note]), [['queued', "The platform's rate limit is used up."]]);
    assert.ok(waiting[0].notBefore! > Date.now(), 'it waits for the reset');
    assert.ok(api.services.context.globalState.keys().includes(`sevenbridges.write.${waiting[0].id}`), 'kept in global state');
    assert.strictEqual(emulator().copyRequests.length, before, 'the refused POST was not processed');
    await waitFor(() => copyJobs().statusBar.item.text.includes('Submitting 1 copy request') || emulator().copyRequests.length > before, 'the status bar to show the waiting copy');

    const created = await waitFor(() => emulator().copyRequests[before]?.jobId, 'the call to be sent by itself after the reset', 20_000);
    await waitFor(() => copyJobs().tracker.get(created), 'its job followed');
    assert.deepStrictEqual(emulator().copyRequests[before].items, [{ file: file.id, project: target.id }]);
    await finished(created);
    assert.strictEqual(emulator().copyRequests.length, before + 1, 'processed once');
    assert.deepStrictEqual(outbox.all(), []);
    copyJobs().tracker.acknowledge();
  });
});
