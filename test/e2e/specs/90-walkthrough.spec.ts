/**
 * The "Get Started with Seven Bridges" walkthrough: it opens from Welcome: Open Walkthrough, its first
 * step's button runs Select Platform, and the steps done show as done. Then the picture of each step,
 * taken in the state the step describes: into test-artifacts/screenshots/walkthrough-*.png on every run,
 * and into media/walkthrough/*.png (the images the manifest ships) with SB_WALKTHROUGH_MEDIA=1
 * (`npm run media:walkthrough`), so that an ordinary run leaves the committed images alone.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { repoRoot, screenshotsDir } from '../../harness/paths';
import { COMMAND, e2e, VIEW } from '../fixture';

const WALKTHROUGH = 'Get Started with Seven Bridges';
const mediaDir = path.join(repoRoot, 'media', 'walkthrough');

/** The walkthrough page (VS Code's Welcome editor showing one walkthrough). */
function walkthroughPage(): Locator {
  return e2e().wb.page.locator('.part.editor .gettingStartedContainer');
}

/** A step of the open walkthrough by its title. */
function step(title: string): Locator {
  return walkthroughPage().locator('.getting-started-step').filter({ has: e2e().wb.page.locator('.step-title', { hasText: title }) });
}

/** A step's check mark, when the step is done ("Set your token: Completed" to a screen reader). */
function checkedMark(title: string): Locator {
  return step(title).locator('[role="checkbox"][aria-checked="true"]');
}

async function closeAllEditors(): Promise<void> {
  const { wb } = e2e();
  await wb.runCommand('View: Close All Editors');
  await wb.page.locator('.part.editor .tab').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

/** Runs a palette command found by the start of its label (VS Code's own labels end in "..." or "…" by version). */
async function runCommandStartingWith(label: string): Promise<void> {
  const { wb } = e2e();
  await wb.page.locator('.monaco-workbench').focus().catch(() => undefined);
  await wb.page.keyboard.press('F1');
  await wb.waitForQuickInput();
  await wb.quickInput().locator('.quick-input-box input').fill(`>${label}`);
  await wb.quickItem(label).click();
}

async function openWalkthrough(): Promise<void> {
  const { wb } = e2e();
  await runCommandStartingWith('Welcome: Open Walkthrough');
  await wb.quickItem(WALKTHROUGH).waitFor();
  await wb.quickItem(WALKTHROUGH).click();
  await walkthroughPage().locator('.getting-started-category .category-title, .gettingStartedSlideDetails h2', { hasText: WALKTHROUGH }).first().waitFor({ timeout: 20_000 });
}

/**
 * The pictures are taken in a 960×600 window, whole: the walkthrough shows them in a column about half the
 * editor's width, where a smaller window's text stays readable. Small enough for the package, too.
 */
const PICTURE_WINDOW = { width: 960, height: 600 };

/** Saves the step's picture: test-artifacts/screenshots/walkthrough-<name>.png, and media/walkthrough/<name>.png when asked. */
async function picture(name: string): Promise<void> {
  const { wb } = e2e();
  const file = await wb.screenshot(`walkthrough-${name}`);
  await wb.page.screenshot({ path: file });
  if (process.env.SB_WALKTHROUGH_MEDIA === '1') {
    fs.mkdirSync(mediaDir, { recursive: true });
    fs.copyFileSync(file, path.join(mediaDir, `${name}.png`));
  }
}

describe('the walkthrough', function () {
  this.timeout(120_000);

  // Signed out before the walkthrough is first opened: VS Code's walkthrough service starts with it, and a
  // context key already true when it starts never completes a step in that session (VS Code 1.139), so the
  // token step is seen to complete only when the sign-in happens after, as on a first run.
  before(async () => {
    const { wb } = e2e();
    await closeAllEditors();
    await wb.resetViews();
    const signedOutButton = wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button', { hasText: 'Set Authentication Token' });
    await wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 20_000 });
    if (!(await signedOutButton.isVisible())) {
      await wb.runCommand(COMMAND.signOut);
      await signedOutButton.waitFor({ timeout: 20_000 });
    }
  });

  after(closeAllEditors);

  it("opens from Welcome: Open Walkthrough with its four steps, and the first step's button runs Select Platform", async () => {
    const { wb } = e2e();
    await openWalkthrough();
    const titles = (await walkthroughPage().locator('.getting-started-step .step-title').allInnerTexts()).map((t) => t.trim());
    assert.deepStrictEqual(titles, ['Choose your platform', 'Set your token', 'Browse your tasks', 'Copy files between projects']);
    assert.strictEqual(await checkedMark('Set your token').count(), 0, 'signed out, yet the token step is done');
    assert.strictEqual(await checkedMark('Choose your platform').count(), 0, 'the platform step is done before its button was pressed');
    await wb.screenshot('walkthrough-00-open');

    await step('Choose your platform').locator('.step-title').click();
    const button = step('Choose your platform').getByRole('button', { name: 'Select Platform' });
    await button.click();
    await wb.waitForQuickInput(/Select Platform/);
    await wb.quickItem('Cancer Genomics Cloud').waitFor();
    const offered = (await wb.quickItems()).map((i) => i.label);
    await wb.screenshot('walkthrough-01-button-ran-select-platform');
    // Escape: choosing a platform would point the workbench away from the emulator.
    await wb.page.keyboard.press('Escape');
    await wb.waitForQuickInputClosed();
    assert.ok(offered.includes('Cavatica') && offered.includes('BioData Catalyst'), offered.join(' | '));
    // onCommand:sevenbridges.selectPlatform: the step is done once its command ran.
    await checkedMark('Choose your platform').waitFor({ timeout: 10_000 });
    await wb.screenshot('walkthrough-02-platform-step-done');
  });

  it("each next step's button does what the step says and marks the step done", async () => {
    const { wb, emulator } = e2e();
    // Escape on the platform pick also takes the Welcome editor back to its start page (where the walkthrough is listed).
    await wb.screenshot('walkthrough-02b-welcome-page');
    await openWalkthrough();
    // Set your token: signed out, its button asks for the token; signing in (onContext:sevenbridges.signedIn) marks it done.
    assert.strictEqual(await checkedMark('Set your token').count(), 0, 'signed out, yet the token step is done');
    await step('Set your token').locator('.step-title').click();
    await step('Set your token').getByRole('button', { name: 'Set Authentication Token' }).click();
    await wb.waitForQuickInput(/Authentication Token/);
    await wb.typeInQuickInput(emulator.token, { submit: true });
    await wb.waitForQuickInputClosed(20_000);
    await checkedMark('Set your token').waitFor({ timeout: 20_000 });

    // Browse your tasks: from another side bar, its button shows the Tasks view (onView:sevenbridges.tasks).
    await wb.runCommand('View: Show Explorer');
    await wb.page.locator('.part.sidebar .composite.title', { hasText: /Explorer/i }).waitFor();
    await step('Browse your tasks').locator('.step-title').click();
    await step('Browse your tasks').getByRole('button', { name: 'Open the Tasks View' }).click();
    await wb.waitForTreeItems(VIEW.tasks, 1, 20_000);
    await checkedMark('Browse your tasks').waitFor({ timeout: 10_000 });

    // Copy files between projects: its button starts a copy (nothing selected: it asks for the IDs).
    await step('Copy files between projects').locator('.step-title').click();
    await step('Copy files between projects').getByRole('button', { name: 'Copy Files and Folders…' }).click();
    await wb.waitForQuickInput(/Copy Files and Folders/);
    await wb.page.keyboard.press('Escape');
    await wb.waitForQuickInputClosed();
    await checkedMark('Copy files between projects').waitFor({ timeout: 10_000 });
    await wb.screenshot('walkthrough-03-all-steps-done');
    const marks = await walkthroughPage().locator('.getting-started-step [role="checkbox"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.deepStrictEqual(marks, ['Choose your platform: Completed', 'Set your token: Completed', 'Browse your tasks: Completed', 'Copy files between projects: Completed']);
  });

  it('takes the picture of each step in the state the step describes, as on a first run', async () => {
    const { wb } = e2e();
    const viewport = wb.page.viewportSize()!;
    await wb.page.setViewportSize(PICTURE_WINDOW);
    try {
      await takePictures();
    } finally {
      await wb.page.setViewportSize(viewport);
    }
    for (const name of ['choose-platform', 'set-token', 'browse-tasks', 'copy-files']) {
      const size = fs.statSync(path.join(screenshotsDir, `walkthrough-${name}.png`)).size;
      assert.ok(size < 120_000, `walkthrough-${name}.png weighs ${size} bytes`);
    }
  });
});

/** Signed out, then through the four steps as a person does them, a picture at each. */
async function takePictures(): Promise<void> {
  const { wb, emulator } = e2e();
  await closeAllEditors();
  await wb.resetViews();
  // Copy Jobs folded, as on a first run (an earlier spec may have opened it), so the files have the side bar's height.
  await wb.collapsePane(VIEW.jobs);
  const signedOutButton = wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button', { hasText: 'Set Authentication Token' });
  if (!(await signedOutButton.isVisible())) {
    await wb.runCommand(COMMAND.signOut);
    await signedOutButton.waitFor({ timeout: 20_000 });
  }
  await wb.clearNotifications();

  await wb.runCommand(COMMAND.selectPlatform);
  await wb.waitForQuickInput(/Select Platform/);
  await wb.quickItem('Cancer Genomics Cloud').waitFor();
  await picture('choose-platform');
  await wb.page.keyboard.press('Escape');
  await wb.waitForQuickInputClosed();

  await wb.clickWelcomeButton(VIEW.tasks, 'Set Authentication Token');
  await wb.waitForQuickInput(/Authentication Token/);
  assert.strictEqual((await wb.quickInputState()).value, '', 'the token box is empty in the picture');
  await picture('set-token');
  await wb.typeInQuickInput(emulator.token, { submit: true });
  await wb.waitForQuickInputClosed(20_000);

  // A group opened, a failed task's tooltip shown.
  await wb.waitForTreeItems(VIEW.tasks, 'Failed', 20_000);
  await wb.expandTreeItem(VIEW.tasks, 'Failed');
  let failed = (await wb.treeItems(VIEW.tasks)).find((r) => r.level === 2);
  for (let i = 0; i < 100 && !failed; i++) {
    await wb.page.waitForTimeout(200);
    failed = (await wb.treeItems(VIEW.tasks)).find((r) => r.level === 2);
  }
  assert.ok(failed, 'the Failed group shows no task');
  await wb.clearNotifications();
  await wb.treeItem(VIEW.tasks, failed.label).hover();
  await wb.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: failed.label }).first().waitFor({ timeout: 10_000 });
  await picture('browse-tasks');
  await wb.page.mouse.move(700, 600);
  await wb.collapseAll(VIEW.tasks);

  // Two files selected in Projects & Files, then Copy Files and Folders…: where to?
  const data = emulator.data;
  const source = data.projects.find((p) => data.children(p.root_folder).filter((f) => f.type === 'file').length >= 2)!;
  const [first, second] = data.children(source.root_folder).filter((f) => f.type === 'file').map((f) => f.name);
  await wb.collapsePane(VIEW.tasks);
  await wb.expandPane(VIEW.files);
  await wb.openTreeItem(VIEW.files, source.name, first);
  await wb.clickTreeItem(VIEW.files, first);
  await wb.clickTreeItem(VIEW.files, second, ['Control']);
  await wb.runCommand(COMMAND.copy);
  await wb.quickItem('A folder in another project').waitFor({ timeout: 20_000 });
  await picture('copy-files');
  await wb.page.keyboard.press('Escape');
  await wb.waitForQuickInputClosed();
  await wb.collapseAll(VIEW.files);
  await wb.resetViews();
}
