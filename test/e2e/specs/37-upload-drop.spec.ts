/**
 * Uploading by dragging, as a person does it (#24): a local file of the workspace, shown in VS Code's Explorer, is
 * dragged from there; held over the Seven Bridges icon of the activity bar, which opens Projects & Files; dropped
 * onto a folder row. The upload's notification ends with its summary, the file appears under that row, and its
 * bytes on the platform are the local file's. A screenshot at each step.
 */
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape } from '../workbench';

const exactly = (name: string): RegExp => new RegExp(`^\\s*${escape(name)}\\s*$`);

async function bytesOf(id: string): Promise<Buffer> {
  const blob = e2e().emulator.contentOf(id)!;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The middle of an element, for the mouse. */
async function middle(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

describe('uploading by dragging from the Explorer', function () {
  this.timeout(120_000);

  /** A small folder of files only in a writable project the other specs leave alone (not the one 36-manage uses). */
  const place = () => {
    const data = e2e().emulator.data;
    const folders = data.projects
      .slice(2)
      .filter((p) => p.permissions.write)
      .flatMap((project) =>
        data
          .children(project.root_folder)
          .filter((f) => f.type === 'folder')
          .filter((f) => {
            const kids = data.children(f.id);
            return kids.length >= 2 && kids.length <= 8 && kids.every((k) => k.type === 'file');
          })
          .map((folder) => ({ project, folder })),
      );
    if (folders.length < 2) throw new Error('no second small folder of files in a writable project of the emulator');
    return folders[1];
  };

  let local: string | undefined;
  after(async () => {
    const { wb } = e2e();
    if (local) fs.rmSync(local, { force: true });
    await wb.clearNotifications();
    await wb.resetViews().catch(() => undefined);
  });

  it('drags a workspace file from the Explorer onto a folder of a project: it arrives, byte for byte', async () => {
    const { wb, emulator, server } = e2e();
    const { project, folder } = place();
    const name = `dropped-${Date.now().toString(36)}.txt`;
    local = path.join(server.workspace, name);
    const content = Buffer.from(`${crypto.randomBytes(3000).toString('base64')}\nuploaded by dragging\n`);
    fs.writeFileSync(local, content);

    // The folder's row ready in Projects & Files (the view keeps it open while the Explorer is shown).
    await wb.openViewContainer('Seven Bridges');
    await ensureSignedIn();
    await wb.collapsePane(VIEW.tasks);
    await wb.collapsePane(VIEW.jobs);
    await wb.expandPane(VIEW.files);
    await wb.waitForTreeItems(VIEW.files, project.name, 20_000);
    await wb.collapseAll(VIEW.files);
    await wb.expandTreeItem(VIEW.files, project.name);
    await wb.waitForTreeItems(VIEW.files, exactly(folder.name), 20_000);

    // The file in the Explorer.
    await wb.runCommand('View: Show Explorer');
    await wb.page.locator('.part.sidebar .composite.title', { hasText: /Explorer/i }).waitFor();
    const explorerRow = wb.page.locator('.part.sidebar .explorer-folders-view .monaco-list-row', { hasText: exactly(name) }).first();
    // A file written outside VS Code shows once the Explorer looks again.
    for (let i = 0; i < 3 && !(await explorerRow.isVisible().catch(() => false)); i++) {
      await explorerRow.waitFor({ timeout: 5_000 }).catch(async () => {
        await wb.runCommand('File: Refresh Explorer').catch(() => undefined);
      });
    }
    await explorerRow.waitFor({ timeout: 10_000 });
    await wb.screenshot('upload-drop-1-explorer');

    // Dragged: picked up in the Explorer, held over the Seven Bridges icon until its views open, dropped on the folder.
    const from = await middle(explorerRow);
    await wb.page.mouse.move(from.x, from.y);
    await wb.page.mouse.down();
    await wb.page.mouse.move(from.x + 10, from.y + 5, { steps: 5 });
    const icon = await middle(wb.activityBarItem('Seven Bridges'));
    await wb.page.mouse.move(icon.x, icon.y, { steps: 10 });
    const folderRow = wb.treeItem(VIEW.files, exactly(folder.name));
    for (let i = 0; i < 40 && !(await folderRow.isVisible().catch(() => false)); i++) {
      // Still over the icon: small moves keep the drag alive until the container opens.
      await wb.page.mouse.move(icon.x + (i % 2), icon.y, { steps: 2 });
      await wb.page.waitForTimeout(100);
    }
    await wb.screenshot('upload-drop-2-over-seven-bridges');
    assert.ok(await folderRow.isVisible(), 'holding the dragged file over the Seven Bridges icon opens its views');
    const to = await middle(folderRow);
    await wb.page.mouse.move(to.x, to.y, { steps: 10 });
    await wb.page.waitForTimeout(300);
    await wb.screenshot('upload-drop-3-over-folder');
    await wb.page.mouse.up();

    // No name is taken there: nothing to ask; the summary says what arrived where.
    const summary = await wb.waitForNotification(/^Uploaded 1 file/, 30_000);
    await wb.screenshot('upload-drop-4-summary');
    // The destination named as the pickers and the copy name it: the project, then the folder's path (#44).
    assert.match(summary, new RegExp(`^Uploaded 1 file \\(.+\\) to ${escape(`${project.id} › ${folder.name}`)}\\.`), summary);
    // The progress leaves once the summary is there: no "Uploading…" with a Cancel left behind.
    const progress = wb.page.locator('.notifications-toasts .notification-list-item-message', { hasText: /^Uploading to/ });
    await progress.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    assert.strictEqual(await progress.count(), 0, `the progress is still shown: ${await wb.notifications()}`);
    await wb.expandTreeItem(VIEW.files, exactly(folder.name));
    await wb.waitForTreeItems(VIEW.files, exactly(name), 20_000);
    const rows = await wb.treeItems(VIEW.files);
    const at = rows.findIndex((r) => r.label === folder.name);
    const row = rows.find((r) => r.label === name)!;
    assert.strictEqual(row.level, rows[at].level + 1, 'shown under the folder it was dropped on');
    await wb.screenshot('upload-drop-5-arrived');
    const record = emulator.data.children(folder.id).find((f) => f.name === name);
    assert.ok(record, 'the file is in the folder on the platform');
    assert.ok((await bytesOf(record.id)).equals(content), 'its bytes are the local file\'s');
    console.log(`      "${summary.split('\n')[0]}"`);
  });
});
