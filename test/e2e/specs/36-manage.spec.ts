/**
 * Managing files as a person does it (#25), each step seen on screen: New Folder… in a folder of a project, its name
 * typed, the folder shown as a row; two files selected with Ctrl-click and dragged onto it, "Move here" chosen, the
 * files shown under it and gone from where they were; Edit Tags… on the two, a new tag typed and accepted; Find
 * Files… by that tag, both files in the results and the words above them saying what was found; Clear Find; the
 * folder deleted through its question with what is in it counted, and gone. A screenshot at each step.
 */
import * as assert from 'assert';
import { e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape } from '../workbench';

/** A row whose label is this name, whole (a name can be the start of another's). */
const exactly = (name: string): RegExp => new RegExp(`^\\s*${escape(name)}\\s*$`);

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await e2e().wb.page.waitForTimeout(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

describe('managing files in Projects & Files', function () {
  this.timeout(180_000);

  /**
   * A small folder of files only (no subfolder), in a writable project that the other specs leave alone (not the first
   * two: the copy, files and walkthrough specs use those).
   */
  const place = () => {
    const data = e2e().emulator.data;
    for (const project of data.projects.slice(2).filter((p) => p.permissions.write)) {
      const folder = data
        .children(project.root_folder)
        .filter((f) => f.type === 'folder')
        .find((f) => {
          const kids = data.children(f.id);
          return kids.length >= 2 && kids.length <= 8 && kids.every((k) => k.type === 'file');
        });
      if (folder) return { project, folder, files: data.children(folder.id).slice(0, 2) };
    }
    throw new Error('no small folder of files in a writable project of the emulator');
  };

  /** Opens the row of this name (whole) and waits for the child of that name under it. */
  async function open(parent: string, child: string): Promise<void> {
    const { wb } = e2e();
    await wb.waitForTreeItems(VIEW.files, exactly(parent), 20_000);
    await wb.expandTreeItem(VIEW.files, exactly(parent));
    await wb.waitForTreeItems(VIEW.files, exactly(child), 20_000);
  }

  /**
   * A row's context menu entry run. A file clicked just before opens in an editor, which takes the focus when its text
   * arrives and closes a menu opened meanwhile: then the menu is opened again.
   */
  async function menu(label: string, entry: string): Promise<void> {
    const { wb } = e2e();
    const open = wb.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu').first();
    for (let attempt = 1; ; attempt++) {
      await wb.treeItem(VIEW.files, exactly(label)).click({ button: 'right' });
      if (await open.waitFor({ timeout: 3_000 }).then(() => true, () => false)) {
        await wb.page.waitForTimeout(500);
        if (await open.isVisible()) break;
      }
      if (attempt >= 3) throw new Error(`no context menu on ${label}`);
    }
    await wb.clickContextMenuEntry(entry);
  }

  /**
   * Two files selected as a person does: a click on the first (which opens it: the editor takes the focus once its
   * text is there, and is let do so before going on), a Ctrl-click on the second.
   */
  async function select(first: string, second: string): Promise<void> {
    const { wb } = e2e();
    await wb.clickTreeItem(VIEW.files, exactly(first));
    await until(`"${first}" opened`, async () => (await wb.activeEditorTitle()).startsWith(first.replace(/\.[^.]*$/, '')) || (await wb.notifications()).some((n) => n.startsWith(first)), 10_000).catch(() => undefined);
    await wb.page.waitForTimeout(500);
    await wb.clickTreeItem(VIEW.files, exactly(second), ['Control']);
  }

  after(async () => {
    const { wb } = e2e();
    if (await wb.quickInput().isVisible().catch(() => false)) await wb.page.keyboard.press('Escape');
    await wb.clickViewAction(VIEW.files, 'Clear Find').catch(() => undefined);
    // The files clicked on the way opened in editors: closed.
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.resetViews().catch(() => undefined);
    await wb.expandPane(VIEW.files).catch(() => undefined);
  });

  it('makes a folder, moves two files into it by dragging, tags them, finds them by the tag, deletes the folder', async () => {
    const { wb, emulator } = e2e();
    const data = emulator.data;
    const { project, folder, files } = place();
    const [first, second] = files.map((f) => f.name);
    const newName = `walk-${Date.now().toString(36)}`;
    const tag = `moved-${Date.now().toString(36)}`;

    await wb.openViewContainer('Seven Bridges');
    await ensureSignedIn();
    await wb.collapsePane(VIEW.tasks);
    await wb.collapsePane(VIEW.jobs);
    await wb.expandPane(VIEW.files);
    // Folded first: what the specs before opened may have scrolled the projects out of the view.
    await wb.pane(VIEW.files).locator('.monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 20_000 });
    await wb.collapseAll(VIEW.files);
    await wb.waitForTreeItems(VIEW.files, project.name, 20_000);
    await open(project.name, folder.name);
    await open(folder.name, second);

    // 1. New Folder… on the folder: its name typed in the box, the folder a row under it.
    await menu(folder.name, 'New Folder…');
    await wb.waitForQuickInput();
    const box = await wb.quickInputState();
    assert.ok(box.message.startsWith(`The new folder's name, in ${folder.name}`), JSON.stringify(box));
    // Opened from a row's menu, the box names the action and the place (not "Seven Bridges: New Folder…").
    assert.strictEqual(box.title, `New Folder in ${folder.name}`);
    await wb.typeInQuickInput(newName);
    await wb.screenshot('manage-1-new-folder-name');
    await wb.typeInQuickInput(newName, { submit: true });
    await wb.waitForQuickInputClosed();
    await wb.waitForTreeItems(VIEW.files, exactly(newName), 20_000);
    const made = data.children(folder.id).find((f) => f.name === newName);
    assert.ok(made && made.type === 'folder', 'the folder is made on the platform, in the folder');
    const rows = await wb.treeItems(VIEW.files);
    const parentRow = rows.find((r) => r.label === folder.name)!;
    const newRow = rows.find((r) => r.label === newName)!;
    assert.strictEqual(newRow.level, parentRow.level + 1, 'the new folder is shown inside the folder');
    assert.strictEqual(newRow.expanded, false, 'shown as a folder (closed)');
    await wb.screenshot('manage-2-new-folder-row');

    // 2. Two files selected with Ctrl-click and dragged onto the new folder: Move here (the first choice in a project).
    await select(first, second);
    await until('both files selected', async () => (await wb.treeItems(VIEW.files)).filter((r) => r.selected && (r.label === first || r.label === second)).length === 2);
    await wb.treeItem(VIEW.files, exactly(second)).dragTo(wb.treeItem(VIEW.files, exactly(newName)));
    await wb.waitForQuickInput(`Drop onto ${newName}`);
    const choices = (await wb.quickItems()).map((i) => i.label);
    assert.deepStrictEqual(choices.map((c) => c.replace(/^\S*\s*(?=[A-Z])/, '')), ['Move here', 'Copy here'], choices.join(' | '));
    await wb.page.waitForTimeout(300);
    await wb.screenshot('manage-3-drop-move-or-copy');
    await wb.quickItem(/Move here/).click();
    await wb.waitForQuickInputClosed();
    // Nothing to tell (the folder is empty): the drop and the choice were the word; no question. The status bar says it.
    const moved = await wb.waitForStatusBarText(/Moved 2 files to/, 20_000);
    assert.ok(moved.endsWith(`Moved 2 files to ${project.id} › ${folder.name}/${newName}`), moved);
    assert.strictEqual(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no question for a move with nothing to tell');
    await wb.expandTreeItem(VIEW.files, exactly(newName));
    await until('the two files under the new folder, and no more under the old one', async () => {
      const now = await wb.treeItems(VIEW.files);
      const at = now.findIndex((r) => r.label === newName);
      const under = now.filter((r, i) => i > at && r.level === now[at].level + 1 && (r.label === first || r.label === second));
      return under.length === 2 && now.filter((r) => r.label === first || r.label === second).length === 2;
    });
    await wb.screenshot('manage-4-moved-into-folder');
    for (const f of files) assert.strictEqual(data.fileById.get(f.id)!.parent, made.id, `${f.name} moved on the platform, its ID kept`);

    // 3. Edit Tags… on the two: a new tag typed, checked and accepted.
    await select(first, second);
    await menu(second, 'Edit Tags…');
    await wb.waitForQuickInput(/Edit Tags/);
    assert.strictEqual((await wb.quickInputState()).title, 'Edit Tags of 2 files');
    await wb.typeInQuickInput(tag);
    await wb.quickItem(tag, true).waitFor();
    // Offered as a new tag, and checked as it appears: Enter adds it.
    await until('the new tag checked', async () => (await wb.quickItems()).find((i) => i.label === tag)?.checked === true, 5_000);
    const offered = (await wb.quickItems()).find((i) => i.label === tag)!;
    assert.strictEqual(offered.description, 'new tag');
    await wb.screenshot('manage-5-tags-typed');
    await wb.acceptQuickInput();
    await wb.waitForQuickInputClosed();
    await wb.waitForStatusBarText(/Tags changed on 2 files/, 20_000);
    for (const f of files) assert.ok(data.fileById.get(f.id)!.tags.includes(tag), `${f.name} has the tag on the platform`);
    await wb.screenshot('manage-6-tags-changed');

    // 4. Find Files… by that tag, in the project: both files in the results, the words above them say what was found.
    await wb.clickViewAction(VIEW.files, 'Find Files…');
    await wb.waitForQuickInput(/Find Files/);
    // By what (a tag; the two files still selected are not what is looked for), the tag, then where (the project).
    await wb.quickItem('Tag', true).waitFor({ timeout: 10_000 });
    assert.strictEqual((await wb.quickInputState()).placeholder, 'Find files by…');
    await wb.pickQuickItem('Tag', true);
    await until('the box for the tag', async () => (await wb.quickItems()).length === 0 && (await wb.quickInputState()).visible);
    await wb.typeInQuickInput(tag);
    await wb.screenshot('manage-7-find-by-tag');
    await wb.typeInQuickInput(tag, { submit: true });
    await wb.quickItem(project.name).waitFor({ timeout: 20_000 });
    await wb.typeInQuickInput(project.name);
    await wb.pickQuickItem(project.name);
    await wb.waitForQuickInputClosed();
    // What was found is said whole above the results (the view's message); the pane's title keeps no description,
    // which the side bar's width cut to a stray letter (#44).
    const message = wb.pane(VIEW.files).locator('.pane-body .message');
    const description = wb.pane(VIEW.files).locator('.pane-header .description');
    const words = async (at: typeof message): Promise<string> => (await at.allInnerTexts()).join(' ').trim();
    const expected = `Found: tag "${tag}" in ${project.id} (server search)`;
    await until(`the words "${expected}" above the results`, async () => (await words(message)) === expected, 20_000);
    assert.strictEqual(await words(description), '', "no description in the view's title");
    // The words come when the find starts; until its answer the tree keeps the rows it had, the two files among them.
    const foundRows = async () => (await wb.treeItems(VIEW.files)).map((r) => r.label).sort();
    await until('the results: the two files alone', async () => JSON.stringify(await foundRows()) === JSON.stringify([first, second].sort()), 20_000).catch(
      async (e: Error) => assert.fail(`${e.message}; the rows: ${(await foundRows()).join(' | ')}`),
    );
    await wb.screenshot('manage-8-found-by-tag');

    // 5. Clear Find: the projects again, the words above them gone.
    await wb.clickViewAction(VIEW.files, 'Clear Find');
    await wb.waitForTreeItems(VIEW.files, project.name, 20_000);
    await until('the words above the rows cleared', async () => (await words(message)) === '');
    assert.strictEqual(await words(description), '', "no description in the view's title");
    assert.ok(!(await wb.viewActions(VIEW.files)).some((a) => a.startsWith('Clear Find')), 'Clear Find leaves with the results');
    await wb.screenshot('manage-9-find-cleared');

    // 6. Delete… the folder: the question with the counts, confirmed; the folder gone from the view and the platform.
    if (!(await wb.treeItem(VIEW.files, exactly(newName)).isVisible().catch(() => false))) {
      await open(project.name, folder.name);
      await open(folder.name, newName);
    }
    await menu(newName, 'Delete…');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    // A question without a detail is drawn in the dialog's detail line: its whole text is read.
    const question = (await dialog.locator('.dialog-message-container').innerText()).replace(/\s+/g, ' ').trim();
    await wb.screenshot('manage-10-delete-question');
    // One folder: named, and what is in it (counted first) said to go with it.
    assert.match(question, new RegExp(`^Delete "${escape(newName)}" and everything in it \\(2 files, [\\d.,]+ (B|KB|MB|GB)\\)\\? This cannot be undone\\.$`), question);
    await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await until('the folder gone from the view', async () => !(await wb.treeItems(VIEW.files)).some((r) => r.label === newName), 20_000);
    const deleted = await wb.waitForStatusBarText(/Deleted/, 10_000).catch(() => '');
    await wb.screenshot('manage-11-folder-deleted');
    assert.ok(!data.children(folder.id).some((f) => f.name === newName), 'the folder is gone from the platform');
    assert.ok(!(await wb.treeItems(VIEW.files)).some((r) => r.label === first || r.label === second), 'the files went with it');
    console.log(`      moved: "${moved}"; found: "${expected}"; delete asked: "${question}"; deleted: "${deleted}"`);
    await wb.collapseAll(VIEW.files);
  });

  it('a move that waits on the platform has a Cancel: the wait stops, the job sent goes on, and the words say so (#44)', async () => {
    const { wb, emulator } = e2e();
    const data = emulator.data;
    // Two folders at a project's top level; the platform's jobs slowed so that the move is waited on.
    const project = data.projects.slice(2).find((p) => p.permissions.write && data.children(p.root_folder).filter((f) => f.type === 'folder').length >= 2)!;
    const [from, into] = data.children(project.root_folder).filter((f) => f.type === 'folder').slice(-2);
    const step = emulator.copySettings.stepMs;
    const immediate = emulator.copySettings.immediateResults;
    emulator.copySettings.stepMs = 120_000;
    emulator.copySettings.immediateResults = 0;
    try {
      await wb.collapseAll(VIEW.files);
      await wb.waitForTreeItems(VIEW.files, exactly(project.name), 20_000);
      await open(project.name, into.name);
      await wb.waitForTreeItems(VIEW.files, exactly(from.name), 20_000);
      await wb.treeItem(VIEW.files, exactly(from.name)).dragTo(wb.treeItem(VIEW.files, exactly(into.name)));
      await wb.waitForQuickInput(`Drop onto ${into.name}`);
      await wb.quickItem(/Move here/).click();
      await wb.waitForQuickInputClosed();
      await wb.waitForNotification(/^Moving to /, 20_000);
      await wb.screenshot('manage-12-move-waiting-with-cancel');
      await wb.clickNotificationButton(/Moving to /, 'Cancel');
      const said = await wb.waitForNotification(/Move cancelled: /, 20_000);
      await wb.screenshot('manage-13-move-cancelled');
      assert.strictEqual(said, 'Move cancelled: 1 item still moving on the platform (see Data Jobs)');
    } finally {
      emulator.copySettings.stepMs = step;
      emulator.copySettings.immediateResults = immediate;
    }
    // The job sent goes on: the folder arrives, and its rows are read again when it ends (no command waits for it).
    // A folder moved is made anew in its new place (a new ID, its contents moved into it); the one it was is gone.
    await until('the folder moved on the platform', () => !data.fileById.has(from.id) && data.children(into.id).some((f) => f.type === 'folder' && f.name === from.name), 30_000);
    await until('the folder gone from the project\'s top level', async () => !(await wb.treeItems(VIEW.files)).some((r) => r.label === from.name && r.level === 2), 30_000);
    await wb.clearNotifications();
    await wb.collapseAll(VIEW.files);
  });
});
