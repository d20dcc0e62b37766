/**
 * A project's file changed in place (issue 42), as a person does it: a sample sheet opened from Projects & Files,
 * a line changed, saved (Ctrl+S): the platform holds the new version; opened again in a second window, the change is
 * there. The second window saves the file meanwhile: the first window's save is stopped by VS Code's "the file is
 * newer" question, whose Compare shows both versions side by side. A screenshot at each step.
 */
import * as assert from 'assert';
import { e2e, showProjectsAndFiles, signIn, VIEW } from '../fixture';
import { Workbench } from '../workbench';

describe('a mounted project you can change', function () {
  this.timeout(180_000);
  const NAME = 'sample-sheet.csv';

  const place = () => {
    const { emulator } = e2e();
    const project = emulator.data.projects[0];
    return { project, folder: emulator.data.children(project.root_folder).find((f) => f.name === 'samples')! };
  };
  /** The sheet as the platform holds it now (a save makes a new file in its place). */
  const sheet = () => e2e().emulator.data.children(place().folder.id).find((f) => f.name === NAME && e2e().emulator.data.fileById.get(f.id) === f)!;
  async function text(id: string): Promise<string> {
    const blob = e2e().emulator.contentOf(id)!;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.read(0, blob.size - 1)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
    for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail(`${what} within ${timeoutMs} ms`);
  }
  /** Changes the first line of the active editor: the text typed at its start. */
  async function changeFirstLine(wb: Workbench, typed: string): Promise<void> {
    await wb.page.locator('.part.editor .editor-instance .view-lines').first().click();
    await wb.page.keyboard.press('Control+Home');
    await wb.page.keyboard.type(typed);
  }

  before(() => {
    const { emulator } = e2e();
    const { project, folder } = place();
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    emulator.data.addFile({ id: emulator.data.newFileId(), name: NAME, size: 600, project: project.id, parent: folder.id, type: 'file', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
  });

  let second: Workbench | undefined;
  after(async () => {
    await second?.page.close().catch(() => undefined);
    // The first window's change was not saved (asked, then compared): its editors are closed without it, so that
    // the specs after this one find no Save question in their way.
    const { wb } = e2e();
    await wb.runCommand('View: Close All Editors');
    const dialog = wb.page.locator('.monaco-dialog-box');
    if (await dialog.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
      await dialog.locator('.monaco-button', { hasText: /^Don't Save$/ }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
  });

  it('opens the sample sheet, changes a line and saves it: the platform holds the new version; a second window opens it with the change', async () => {
    const { wb, server } = e2e();
    await showProjectsAndFiles();
    const { project } = place();
    // Its ID before (the emulator's record takes the new version's ID in its place).
    const before = sheet().id;
    const firstLine = (await text(before)).split('\n')[0];
    // The editor draws a tab as spaces: its first word is what is looked for on screen.
    const firstWord = firstLine.split(/\s/)[0];
    await wb.openTreeItem(VIEW.files, project.name, 'samples');
    await wb.openTreeItem(VIEW.files, 'samples', NAME);
    await wb.clickTreeItem(VIEW.files, NAME);
    await until('the sheet opens', async () => (await wb.activeEditorText()).includes(firstWord));
    await changeFirstLine(wb, 'checked,');
    await wb.screenshot('mounted-00-sheet-changed');
    await wb.page.keyboard.press('Control+S');
    await until('a new version on the platform', async () => sheet().id !== before && (await text(sheet().id)).startsWith(`checked,${firstLine}`));
    await wb.screenshot('mounted-01-sheet-saved');

    // A new window: the file opened there (by its ID, from the palette) shows the change.
    const page = await wb.page.context().newPage();
    await page.goto(server.url);
    second = new Workbench(page);
    await second.waitReady('Seven Bridges', 90_000);
    // Signed in there too (the token is the browser's), once the extension has started in that window.
    await second.openViewContainer('Seven Bridges');
    await second.expandPane(VIEW.files);
    const files = second.pane(VIEW.files);
    await files.locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 30_000 }).catch(() => second!.screenshot('mounted-02a-second-window-no-view'));
    if ((await second.welcomeButtons(VIEW.files)).some((b) => /Set Authentication Token/.test(b))) await signIn(undefined, second);
    await files.locator('.monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 30_000 });
    await second.runCommand('Seven Bridges: Open in Editor');
    await second.waitForQuickInput();
    await second.typeInQuickInput(sheet().id, { submit: true });
    await until('the second window shows the change', async () => (await second!.activeEditorText()).includes(`checked,${firstWord}`), 30_000);
    await second.screenshot('mounted-02-second-window-sees-the-change');
  });

  it('the second window saves meanwhile: the first window\'s save asks (the file is newer), and Compare shows both versions', async () => {
    const { wb } = e2e();
    assert.ok(second, 'the second window is open');
    const theirs = sheet().id;
    await changeFirstLine(second, 'theirs,');
    await second.page.keyboard.press('Control+S');
    await until('the second window\'s version on the platform', async () => sheet().id !== theirs && (await text(sheet().id)).startsWith('theirs,'));
    await wb.page.bringToFront();
    await changeFirstLine(wb, 'mine,');
    await wb.page.keyboard.press('Control+S');
    const asked = await wb.waitForNotification(/newer/i, 30_000);
    await wb.screenshot('mounted-03-first-window-asked');
    assert.match(asked, /sample-sheet\.csv/);
    assert.ok((await text(sheet().id)).startsWith('theirs,'), 'nothing of the first window was saved over it');
    await wb.clickNotificationButton(/newer/i, 'Compare');
    // The diff editor is drawn before its two sides have their text: wait for both, not for the frame.
    const diffText = () => wb.page.locator('.part.editor .monaco-diff-editor').first().innerText().catch(() => '');
    await until('Compare shows both versions', async () => {
      const diff = await diffText();
      return diff.includes('theirs,') && diff.includes('mine,');
    }).catch(async (e) => assert.fail(`${e.message}; the diff editor shows: ${(await diffText()).slice(0, 200) || '(nothing)'}`));
    await wb.screenshot('mounted-04-compare-both');
  });
});
