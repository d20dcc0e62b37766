/**
 * Why a task failed, acting on it, and hearing when it ends, as a person does it: a failed task opened down to
 * its failed job's log (the error read on screen), a running task aborted from its menu (the confirmation read,
 * ABORTING shown, then the task in Aborted), a draft run from its menu and the notification when it fails.
 */
import * as assert from 'assert';
import type { TaskRec } from '../../emulator';
import { waitFor } from '../../support/waitFor';
import { COMMAND, e2e, ensureSignedIn, VIEW } from '../fixture';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exact = (name: string): RegExp => new RegExp(`^${escape(name)}$`);

/** The newest task of a status (the first row of its group), without a batch, named once among the tasks. */
function newest(status: string): TaskRec {
  const tasks = e2e().emulator.data.tasks;
  const list = tasks.filter((t) => t.status === status).sort((a, b) => (a.created_time < b.created_time ? 1 : a.created_time > b.created_time ? -1 : 0));
  const task = list.find((t) => !t.batch && !t.parent && tasks.filter((o) => o.name === t.name).length === 1);
  assert.ok(task, `a ${status} task with a name of its own`);
  return task;
}

/** The window's title (VS Code puts the active editor's name first) and the active tabs' labels. */
async function activeTab(): Promise<string> {
  const { page } = e2e().wb;
  return `${await page.title()} | ${(await page.locator('.tab.active').allInnerTexts()).join(' | ')}`;
}

/** Whether an editor on screen shows a line with this text. */
async function onScreen(text: string): Promise<boolean> {
  return (await e2e().wb.page.locator('.monaco-editor .view-lines', { hasText: text }).count()) > 0;
}

/** Collapses the tree, then opens one group so its newest task is the row right under it. */
async function openGroup(label: string): Promise<void> {
  const { wb } = e2e();
  await wb.clickViewAction(VIEW.tasks, 'Collapse All').catch(() => undefined);
  await wb.waitForTreeItems(VIEW.tasks, exact(label), 20_000);
  await wb.expandTreeItem(VIEW.tasks, exact(label));
  await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), `the tasks of ${label}`, 20_000);
}


async function confirmDialog(button: RegExp): Promise<string> {
  const { wb } = e2e();
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor();
  const question = (await dialog.locator('.dialog-message-text').innerText()).trim();
  return question + (await dialog.locator('.monaco-button', { hasText: button }).click().then(() => ''));
}

describe('why a task failed, acting on it, hearing when it ends', () => {
  before(async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.expandPane(VIEW.tasks);
    await ensureSignedIn();
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters').catch(() => undefined);
  });

  after(async () => {
    const { wb } = e2e();
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.clearNotifications();
  });

  it('a failed task opens into its error and its failed job, whose log shows the error on screen', async () => {
    const { wb, emulator } = e2e();
    const task = newest('FAILED');
    await openGroup('Failed');
    await wb.expandTreeItem(VIEW.tasks, exact(task.name));
    await wb.waitForTreeItems(VIEW.tasks, /^Jobs$/, 20_000);
    const rows = await wb.treeItems(VIEW.tasks);
    const error = task.errors[0].message;
    assert.ok(rows.some((r) => r.label === error && r.level === 4), `the error under Errors: ${rows.map((r) => r.label).join(' | ')}`);
    const at = rows.findIndex((r) => r.label === 'Jobs');
    const firstJob = rows[at + 1];
    assert.match(firstJob.description, /^Failed · /, 'the failed job first');
    assert.strictEqual(rows[at + 2].label, 'job.err.log', 'its logs, job.err.log first');
    await wb.screenshot('40-failed-task-opened');

    const storageBefore = emulator.storageRequests.length;
    await wb.clickTreeItem(VIEW.tasks, /^job\.err\.log$/);
    let tab = '';
    await waitFor(async () => /job\.err\.log/.test((tab = await activeTab())), `the log tab (shows "${tab}")`, 20_000);
    await waitFor(() => onScreen(error), 'the error on screen', 20_000);
    await wb.screenshot('41-failed-job-log');
    assert.ok(emulator.storageRequests.length > storageBefore, 'fetched from the storage origin');
    assert.ok(emulator.storageRequests.every((r) => !r.carriedToken), 'without the token');
  });

  it('aborts a running task from its menu: the confirmation says what it cost, ABORTING shows, then it moves to Aborted', async () => {
    const { wb, emulator } = e2e();
    const task = newest('RUNNING');
    await openGroup('Running');
    await e2e().wb.treeItemContextMenu(VIEW.tasks, exact(task.name), 'Abort Task…');
    const question = await confirmDialog(/^Abort Task$/);
    assert.match(question, new RegExp(`^Abort "${escape(task.name)}"\\? It has run .+ and cost \\$\\d+\\.\\d\\d so far\\.$`));
    // Its row says ABORTING at once; the refresh that follows lists it where the platform does: with exact
    // filtering no status value names ABORTING, so it is under "Other statuses".
    await openGroup('Other statuses');
    await wb.waitForTreeItems(VIEW.tasks, exact(task.name), 20_000);
    await waitFor(async () => /aborting/i.test((await wb.treeItems(VIEW.tasks)).find((r) => r.label === task.name)?.ariaLabel ?? ''), 'the row to show ABORTING');
    await wb.screenshot('42-task-aborting');
    assert.strictEqual(emulator.actionRequests.filter((a) => a.taskId === task.id).length, 1);
    // The emulator finishes the abort after its step (6 s in this run); a refresh then shows the task in Aborted.
    await waitFor(
      () => {
        emulator.advance();
        return emulator.data.taskById.get(task.id)?.status === 'ABORTED';
      },
      'the platform to finish the abort',
      20_000,
      250,
    );
    await wb.runCommand(COMMAND.refreshTasks);
    await openGroup('Aborted');
    await wb.waitForTreeItems(VIEW.tasks, exact(task.name), 20_000);
    await wb.screenshot('43-task-aborted');
  });

  it('runs a draft from its menu; when it fails, a notification says so, and Show Logs opens the error', async function () {
    this.timeout(120_000);
    const { wb, emulator } = e2e();
    const task = newest('DRAFT');
    emulator.setRunOutcome(task.id, 'FAILED');
    await openGroup('Draft');
    await e2e().wb.treeItemContextMenu(VIEW.tasks, exact(task.name), 'Run Task…');
    const question = await confirmDialog(/^Run Task$/);
    assert.strictEqual(question, `Run "${task.name}"?`);
    // Watched at once: its row offers "Stop Watching" now.
    const message = await wb.waitForNotification(new RegExp(`Task "${escape(task.name)}" failed: `), 90_000);
    await wb.screenshot('44-watched-task-failed-notification');
    assert.match(message, /exit code 1/);
    await wb.clickNotificationButton(new RegExp(`Task "${escape(task.name)}" failed`), 'Show Logs');
    await waitFor(async () => /job\.err\.log/.test(await activeTab()), 'the failed job\'s log', 20_000);
    await waitFor(() => onScreen('exit code 1'), 'the error in the log', 20_000);
    await wb.screenshot('45-show-logs-from-notification');
  });
});
