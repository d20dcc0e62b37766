/**
 * Show Timeline as a person uses it: from the palette with a pasted task ID, a task's jobs as bars in the panel (one
 * per job, counted in the webview), a hover that names the job, a click that opens its log; the same rows as a table;
 * a batch's children ordered failed first, walked with the keyboard, Enter opening a child's timeline. Pictures of
 * the panel in a dark and a light theme: test-artifacts/screenshots/, and media/timeline-{dark,light}.png (the
 * README's) with SB_README_MEDIA=1.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { ExecutionDetails } from '../../../src/api/types';
import type { TaskRec } from '../../emulator';
import { repoRoot, screenshotsDir } from '../../harness/paths';
import { waitFor } from '../../support/waitFor';
import { e2e, ensureSignedIn, VIEW } from '../fixture';

const COMMAND = 'Seven Bridges: Show Timeline';

async function executionDetails(id: string): Promise<ExecutionDetails> {
  const { emulator } = e2e();
  const answer = await fetch(`${emulator.baseUrl}/tasks/${id}/execution_details`, { headers: { 'X-SBG-Auth-Token': emulator.token } });
  return (await answer.json()) as ExecutionDetails;
}

/** A failed task of its own (no batch) with several jobs, one of them retried if any task has one. */
async function taskWithJobs(): Promise<{ task: TaskRec; details: ExecutionDetails }> {
  const candidates = e2e().emulator.data.tasks.filter((t) => !t.batch && t.parent === null && t.status === 'FAILED' && t.start_time);
  let fallback: { task: TaskRec; details: ExecutionDetails } | undefined;
  for (const task of candidates.slice(0, 40)) {
    const details = await executionDetails(task.id);
    const jobs = details.jobs ?? [];
    if (jobs.length >= 4 && jobs.some((j) => j.retried)) return { task, details };
    if (!fallback && jobs.length >= 3) fallback = { task, details };
  }
  assert.ok(fallback, 'a failed task with jobs');
  return fallback;
}

/** The timeline's page: the webview's inner frame. */
function timeline(): FrameLocator {
  return e2e().wb.page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

/** Show Timeline from the palette, the task's ID pasted into its pick. */
async function showTimeline(id: string): Promise<void> {
  const { wb } = e2e();
  await wb.runCommand(COMMAND);
  await wb.waitForQuickInput();
  await wb.typeInQuickInput(id);
  await wb.pickQuickItem(id, true);
  await wb.waitForQuickInputClosed();
}

/** Picks a colour theme by (part of) its name, as a person does: the picker, the name typed, the row clicked. */
async function pickTheme(name: string, exact = false): Promise<void> {
  const { wb } = e2e();
  await wb.runCommand('Preferences: Color Theme');
  await wb.waitForQuickInput();
  await wb.typeInQuickInput(name);
  await wb.pickQuickItem(exact ? name : new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), exact);
  await wb.waitForQuickInputClosed();
}

/** The colour theme in use: the row the theme picker opens on. */
async function currentTheme(): Promise<string> {
  const { wb } = e2e();
  await wb.runCommand('Preferences: Color Theme');
  await wb.waitForQuickInput();
  const row = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
  await row.waitFor({ timeout: 5_000 });
  const name = ((await row.textContent()) ?? '').trim();
  await wb.page.keyboard.press('Escape');
  await wb.waitForQuickInputClosed();
  return name;
}

/** The editor area's picture: into the screenshots, and into media/ (the README's) when asked. */
async function picture(name: string): Promise<void> {
  const { wb } = e2e();
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  // The editor area down to a little below the bars (the rest is empty).
  const box = (await wb.page.locator('.part.editor').boundingBox())!;
  await wb.page.screenshot({ path: file, clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 330) } });
  if (process.env.SB_README_MEDIA === '1') fs.copyFileSync(file, path.join(repoRoot, 'media', `${name}.png`));
}

describe('Show Timeline: jobs and children as bars on a time axis', function () {
  this.timeout(120_000);
  /** The theme the workbench had, put back at the end (the specs after this one take pictures too). */
  let theme = '';

  before(async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.expandPane(VIEW.tasks);
    await ensureSignedIn();
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.clearNotifications();
    theme = await currentTheme();
  });

  after(async () => {
    const { wb } = e2e();
    if (theme) await pickTheme(theme, true).catch((error) => console.warn(`could not put the theme ${theme} back: ${String(error)}`));
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.clearNotifications();
  });

  it("a task's jobs: one bar each, a hover names the job, its duration and instance; a click opens its log; the same as a table", async () => {
    const { wb } = e2e();
    const { task, details } = await taskWithJobs();
    const jobs = details.jobs ?? [];
    await showTimeline(task.id);
    await waitFor(async () => (await wb.activeEditorTitle()) === `Timeline: ${task.name}`, 'the timeline tab', 20_000);
    const page = timeline();
    await page.locator('.bar').first().waitFor({ timeout: 20_000 });
    assert.strictEqual(await page.locator('.bar').count(), jobs.length, 'one bar per job');
    assert.strictEqual(await page.locator('.bar.retried').count(), jobs.filter((j) => j.retried).length, 'retries marked');
    assert.strictEqual(await page.locator('.bar.tone-failed').count(), jobs.filter((j) => j.status === 'FAILED').length);
    assert.match(await page.locator('.summary').innerText(), new RegExp(`^${jobs.length} jobs \\(`));
    const failed = jobs.findIndex((j) => j.status === 'FAILED' && !j.retried);
    const bar = page.locator(`.bar[data-key="job:${failed}"]`);
    assert.match((await bar.innerText()).trim(), new RegExp(`^${jobs[failed].instance!.type!.replace('.', '\\.')}`), 'the instance on the bar');
    await bar.hover();
    const tip = page.locator('.tip');
    await tip.waitFor({ state: 'visible', timeout: 5_000 });
    const tipText = await tip.innerText();
    assert.ok(tipText.startsWith(jobs[failed].name!), tipText);
    assert.match(tipText, new RegExp(`Failed · (\\d+ (h|min|s)( \\d+ (min|s))?) · ${jobs[failed].instance!.type!.replace('.', '\\.')}`));
    await pickTheme('Dark Modern');
    await bar.hover();
    await tip.waitFor({ state: 'visible', timeout: 5_000 });
    await picture('timeline-dark');
    await pickTheme('Light Modern');
    await page.locator('.bar').first().waitFor({ timeout: 20_000 });
    await page.locator(`.bar[data-key="job:${failed}"]`).hover();
    await tip.waitFor({ state: 'visible', timeout: 5_000 });
    await picture('timeline-light');
    // The text alternative: the same rows, a header per column.
    await page.locator('button.toggle', { hasText: 'Show as table' }).click();
    await page.locator('table').waitFor({ timeout: 5_000 });
    assert.strictEqual(await page.locator('table thead th[scope="col"]').count(), 7);
    assert.strictEqual(await page.locator('table tbody tr').count(), jobs.length);
    await page.locator('button.toggle', { hasText: 'Show as table' }).click();
    // A click on the failed job's bar opens its log in an editor tab.
    await page.locator(`.bar[data-key="job:${failed}"]`).click();
    const activeTab = async () => (await wb.page.locator('.part.editor .tab.active .monaco-icon-label').allTextContents()).join(' | ');
    let tabs = '';
    await waitFor(async () => (tabs = await activeTab()).includes('job.err.log'), 'the log tab', 30_000).catch((error) => {
      throw new Error(`${String(error)} (the active tab: ${tabs})`);
    });
    assert.ok((await activeTab()).includes(`job.err.log · ${jobs[failed].name!}`), await activeTab());
    await wb.screenshot('timeline-01-log-opened');
  });

  it("a batch's children: all of them as bars, failed first on request; arrows move between bars, Enter opens a child's timeline", async () => {
    const { wb, emulator } = e2e();
    await wb.runCommand('View: Close All Editors');
    const parent = emulator.data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;
    const kids = emulator.data.tasks.filter((t) => t.parent === parent.id);
    const failed = kids.filter((t) => t.status === 'FAILED');
    await showTimeline(parent.id);
    await waitFor(async () => (await wb.activeEditorTitle()) === `Timeline: ${parent.name}`, 'the timeline tab', 20_000);
    const page = timeline();
    await waitFor(async () => (await page.locator('.bar').count()) === kids.length, `${kids.length} bars`, 30_000);
    await page.locator('button.toggle', { hasText: 'Failed first' }).click();
    await waitFor(async () => (await page.locator('button.toggle[aria-pressed="true"]', { hasText: 'Failed first' }).count()) === 1, 'failed first on');
    const firstRows = await page.locator('.bar').evaluateAll((bars) => bars.slice(0, 30).map((b) => b.className));
    assert.ok(firstRows.slice(0, Math.min(30, failed.length)).every((c) => c.includes('tone-failed')), firstRows.join('\n'));
    await wb.screenshot('timeline-02-batch-failed-first');
    // From the toggle, Tab reaches the bars (one stop), the arrows move between them, Enter opens.
    await page.locator('button.toggle', { hasText: 'Failed first' }).focus();
    await wb.page.keyboard.press('Tab');
    await wb.page.keyboard.press('Tab');
    await wb.page.keyboard.press('ArrowDown');
    const focused = await page.locator('.bar:focus').getAttribute('aria-label');
    const second = failed.find((k) => focused?.startsWith(`${k.name} · Failed`));
    assert.ok(second, `the second bar has the focus, a failed child (${focused})`);
    await wb.page.keyboard.press('Enter');
    await waitFor(async () => (await wb.activeEditorTitle()) === `Timeline: ${second.name}`, "the child's timeline", 20_000);
    await timeline().locator('.bar').first().waitFor({ timeout: 20_000 });
  });
});
