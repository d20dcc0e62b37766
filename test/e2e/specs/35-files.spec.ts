/**
 * Files in and out of the editor as a person does it: a text file of a project clicked in "Projects & Files" opens
 * in a tab whose text is on screen; "Download…" on a folder asks where (the workspace's folder offered), shows the
 * progress notification and ends with a summary, the files on disk byte for byte; "Move To…" on a file moves it into
 * another folder of its project, where the tree shows it; "Upload to Seven Bridges…" on a folder asks for the local
 * file, shows the upload as a row of Data Jobs while it goes, and the file then arrives in Projects & Files, byte for
 * byte. A screenshot at each step.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { generatedBlob } from '../../emulator/content';
import { waitFor } from '../../support/waitFor';
import { e2e, showProjectsAndFiles, VIEW } from '../fixture';

describe('files in and out of the editor', function () {
  this.timeout(120_000);

  const samples = () => {
    const { emulator } = e2e();
    const project = emulator.data.projects[0];
    return { project, folder: emulator.data.children(project.root_folder).find((f) => f.name === 'samples')! };
  };

  before(async () => {
    // Two files no sample has: one binary by its bytes though its name tells no kind, one text file of 3 MB.
    const { emulator } = e2e();
    const { project, folder } = samples();
    const startsBinary = async (id: string) => {
      for await (const chunk of generatedBlob(id, 'blob.dat', 200_000).read(0, 511)) if (chunk.includes(0)) return true;
      return false;
    };
    let id = emulator.data.newFileId();
    while (!(await startsBinary(id))) id = emulator.data.newFileId();
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    for (const [name, size, fileId] of [['blob.dat', 200_000, id], ['big-table.tsv', 3_000_000, emulator.data.newFileId()]] as const) {
      emulator.data.addFile({ id: fileId, name, size, project: project.id, parent: folder.id, type: 'file', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
    }
  });

  async function bytesOf(id: string): Promise<Buffer> {
    const blob = e2e().emulator.contentOf(id)!;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  it('opens a text file clicked in Projects & Files, its text on screen', async () => {
    const { wb, emulator } = e2e();
    await showProjectsAndFiles();
    const { project, folder } = samples();
    await wb.openTreeItem(VIEW.files, project.name, 'samples');
    await wb.openTreeItem(VIEW.files, 'samples', 'README.txt');
    await wb.clickTreeItem(VIEW.files, 'README.txt');
    // The tab's label may hold the name without its extension (drawn apart).
    for (let i = 0; i < 100 && !(await wb.activeEditorTitle()).startsWith('README'); i++) await wb.page.waitForTimeout(100);
    assert.match(await wb.activeEditorTitle(), /^README/);
    const readme = emulator.data.children(folder.id).find((f) => f.name === 'README.txt')!;
    const firstLine = (await bytesOf(readme.id)).toString('utf8').split('\n')[0];
    let shown = '';
    for (let i = 0; i < 100 && !shown.includes(firstLine); i++) {
      shown = await wb.activeEditorText();
      await wb.page.waitForTimeout(100);
    }
    await wb.screenshot('files-00-remote-text-file');
    assert.ok(shown.includes(firstLine), `the editor shows the file's first line "${firstLine}"; it shows: ${shown.slice(0, 200)}`);
  });

  it('a click on a binary file\'s row says what it is in the status bar, with no notification to answer', async () => {
    const { wb } = e2e();
    await wb.clearNotifications();
    await wb.clickTreeItem(VIEW.files, 'sample_01.bam');
    const said = await wb.waitForStatusBarText(/sample_01\.bam: a BAM alignment file/, 10_000);
    await wb.screenshot('files-00b-binary-row-clicked');
    assert.match(said, /^sample_01\.bam: a BAM alignment file, [\d.]+ MB, not text; use Download…$/);
    assert.deepStrictEqual((await wb.notifications()).filter((n) => /does not open as text/.test(n)), []);
  });

  it('a click on a file binary by its bytes, whose name tells no kind, says so in the status bar: no error to dismiss', async () => {
    const { wb } = e2e();
    await wb.clearNotifications();
    await wb.clickTreeItem(VIEW.files, 'blob.dat');
    const said = await wb.waitForStatusBarText(/blob\.dat: a binary file/, 10_000);
    await wb.screenshot('files-00c-binary-by-bytes-clicked');
    assert.match(said, /^blob\.dat: a binary file, 195 KB, not text; use Download…$/);
    assert.deepStrictEqual((await wb.notifications()).filter((n) => /binary|cannot open|Open in Editor/i.test(n)), []);
  });

  it('a click on a 3 MB text file opens its first 1 MB, and the notification says so in sizes that read right', async () => {
    const { wb } = e2e();
    await wb.clearNotifications();
    await wb.clickTreeItem(VIEW.files, 'big-table.tsv');
    const said = await wb.waitForNotification(/big-table\.tsv: showing the first/, 20_000);
    await wb.screenshot('files-00d-large-text-file-head');
    assert.strictEqual(said, 'big-table.tsv: showing the first 1.0 MB of 2.9 MB.');
    assert.match(await wb.activeEditorTitle(), /^big-table/);
    await wb.clearNotifications();
  });

  it('downloads a folder: asks where, shows the progress, then the summary; the files arrive byte for byte', async () => {
    const { wb, emulator } = e2e();
    const { folder } = samples();
    // A slow link, so that the progress is there to be seen.
    emulator.storageFaults.settings.bytesPerSecond = 800_000;
    try {
      await wb.treeItemContextMenu(VIEW.files, 'samples', 'Download…');
      await wb.waitForQuickInput();
      await wb.screenshot('files-01-download-where');
      // The workspace's folder is offered: take it.
      await wb.acceptQuickInput();
      const progress = await wb.waitForNotification(/Downloading/, 20_000).catch(() => '');
      // The status bar says it too, for when the notification is hidden.
      const status = await wb.waitForStatusBarText(/Downloading/, 20_000).catch(() => '');
      await wb.screenshot('files-02-download-progress');
      const summary = await wb.waitForNotification(/^Downloaded \d+ files/, 60_000);
      await wb.screenshot('files-03-download-summary');
      assert.match(progress, /Downloading/);
      assert.strictEqual(status, 'Downloading', 'the status bar item while it goes');
      const target = /To (.+)$/.exec(summary)?.[1]?.trim();
      assert.ok(target, summary);
      const expected: [string, string][] = [];
      const walk = (id: string, prefix: string) => {
        for (const f of emulator.data.children(id)) {
          if (f.type === 'folder') walk(f.id, `${prefix}${f.name}/`);
          else expected.push([`${prefix}${f.name}`, f.id]);
        }
      };
      walk(folder.id, 'samples/');
      assert.match(summary, new RegExp(`^Downloaded ${expected.length} files`));
      for (const [relative, id] of expected) assert.ok(fs.readFileSync(path.join(target, relative)).equals(await bytesOf(id)), relative);
      fs.rmSync(path.join(target, 'samples'), { recursive: true, force: true });
    } finally {
      emulator.storageFaults.settings.bytesPerSecond = 0;
      await wb.clearNotifications();
    }
  });

  it('moves a file with Move To…: a folder of the same project picked, the question answered, the file shown in its new folder', async () => {
    const { wb, emulator } = e2e();
    const { project, folder } = samples();
    const file = emulator.data.children(folder.id).find((f) => f.type === 'file' && f.name !== 'README.txt')!;
    const into = emulator.data.children(project.root_folder).find((f) => f.type === 'folder' && f.id !== folder.id && !emulator.data.children(f.id).some((c) => c.name === file.name))!;
    await wb.waitForTreeItems(VIEW.files, file.name);
    await wb.treeItemContextMenu(VIEW.files, file.name, 'Move To…');
    await wb.quickItem('A folder in the same project').waitFor({ timeout: 5_000 }).catch(async () => {
      if (await wb.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu').first().isVisible()) await wb.page.keyboard.press('Enter');
    });
    await wb.quickItem('A folder in the same project').click();
    await wb.quickItem(into.name).waitFor({ timeout: 20_000 });
    await wb.quickItem(into.name).click();
    await wb.quickItem('Here').waitFor();
    await wb.screenshot('files-04-move-to-folder');
    for (let i = 0; i < 100 && !(await wb.quickInputState()).title.includes(into.name); i++) await wb.page.waitForTimeout(100);
    await wb.quickItem('Here').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.strictEqual((await dialog.locator('.dialog-message-text').innerText()).trim(), `Move "${file.name}" to ${project.id} › ${into.name}?`);
    await wb.screenshot('files-05-move-question');
    await dialog.locator('.monaco-button', { hasText: /^Move$/ }).click();
    await wb.openTreeItem(VIEW.files, into.name, file.name);
    await wb.screenshot('files-06-moved');
    assert.strictEqual(emulator.data.fileById.get(file.id)!.parent, into.id, 'moved on the platform, its ID kept');
    // Gone from where it was: one row of that name, under the folder it went to (the old row alone would pass the
    // open above).
    const parentsOf = async (name: string): Promise<string[]> => {
      const rows = await wb.treeItems(VIEW.files);
      return rows.flatMap((row, i) => (row.label === name ? [rows.slice(0, i).reverse().find((r) => r.level === row.level - 1)?.label ?? ''] : []));
    };
    await waitFor(async () => JSON.stringify(await parentsOf(file.name)) === JSON.stringify([into.name]), `one row of ${file.name}, under ${into.name}`, 10_000).catch(
      async (e: Error) => assert.fail(`${e.message}; its rows are under: ${(await parentsOf(file.name)).join(' | ') || '(none)'}`),
    );
  });

  it('uploads a local file with the command: its row in Data Jobs while it goes, then the file in Projects & Files, byte for byte', async () => {
    const { wb, emulator, server } = e2e();
    const { folder } = samples();
    const name = 'e2e-uploaded.bin';
    const local = path.join(server.workspace, name);
    const bytes = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
    fs.writeFileSync(local, bytes);
    // A slow link, so that the row is there to be seen.
    emulator.storageFaults.settings.bytesPerSecond = 600_000;
    try {
      // Folded back to the project's top level (what earlier specs opened scrolls "samples" away), then opened.
      await showProjectsAndFiles();
      await wb.openTreeItem(VIEW.files, samples().project.name, 'samples');
      await wb.treeItemContextMenu(VIEW.files, 'samples', 'Upload to Seven Bridges…');
      // The open dialog (VS Code's own, in the browser): the workspace's folder is offered; the file's path typed.
      await wb.chooseInFileDialog(local, server.workspace);
      // Data Jobs opened once the menu is used (opened before, its rows could push "samples" out of the files' view).
      await wb.expandPane(VIEW.jobs);
      // Its row is short first ("37% · 85 MB/s"), where it goes next; "Upload to …" in full in its aria label.
      const uploading = (r: { ariaLabel: string }) => /^Upload to .*samples, /.test(r.ariaLabel);
      const rows = await wb.waitForTreeItems(VIEW.jobs, /^(starting…|\d+%)/, 30_000);
      // The pointer off the trees: no tooltip over the row in the screenshot.
      await wb.page.mouse.move(900, 300);
      await wb.page.waitForTimeout(500);
      await wb.screenshot('files-07-upload-in-data-jobs');
      const row = rows.find(uploading)!;
      assert.match(row.label, /^(starting…|\d+%( · \S+ [KMGT]?B\/s)?)$/, JSON.stringify(row));
      assert.match(row.description, /^samples · /, JSON.stringify(row));
      const summary = await wb.waitForNotification(/^Uploaded 1 file/, 60_000);
      assert.match(summary, /to .*samples/);
      // Done: its row goes, and the file shows in Projects & Files.
      for (let i = 0; i < 50 && (await wb.treeItems(VIEW.jobs)).some(uploading); i++) await wb.page.waitForTimeout(100);
      assert.ok(!(await wb.treeItems(VIEW.jobs)).some(uploading), 'the row goes once the upload is done');
      await wb.collapsePane(VIEW.jobs);
      // Projects & Files read its listings again: samples shows the new file once opened.
      await wb.openTreeItem(VIEW.files, 'samples', name);
      await wb.screenshot('files-08-uploaded-in-projects');
      const made = emulator.data.children(folder.id).filter((f) => f.name === name);
      assert.strictEqual(made.length, 1, 'made once');
      assert.ok((await bytesOf(made[0].id)).equals(bytes), 'byte for byte');
      emulator.data.removeFile(made[0]);
    } finally {
      emulator.storageFaults.settings.bytesPerSecond = 0;
      fs.rmSync(local, { force: true });
      await wb.clearNotifications();
    }
  });
});
