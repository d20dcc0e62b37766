/**
 * Why a task failed, acting on it, and hearing when it ends, as a person does it: a failed task opened down to
 * its failed job's log (the error read on screen), a running task aborted from its menu (the confirmation read,
 * ABORTING shown, then the task in Aborted), a draft run from its menu and the notification when it fails.
 */
import * as assert from 'assert';
import type { TaskRec } from '../../emulator';
import type { TreeItem } from '../workbench';
import { waitFor } from '../../support/waitFor';
import { COMMAND, e2e, ensureSignedIn, openTaskGroup, VIEW } from '../fixture';
import { escape } from '../workbench';

const exact = (name: string): RegExp => new RegExp(`^${escape(name)}$`);

/**
 * The newest task of a status (the first row of its group), without a batch, named once among the tasks (unless
 * `anyName`), and not a copy made by a re-run here.
 */
function newest(status: string, options: { anyName?: boolean } = {}): TaskRec {
  const { data, actionRequests } = e2e().emulator;
  const tasks = data.tasks;
  const list = tasks.filter((t) => t.status === status).sort((a, b) => (a.created_time < b.created_time ? 1 : a.created_time > b.created_time ? -1 : 0));
  const named = (t: TaskRec) => options.anyName || tasks.filter((o) => o.name === t.name).length === 1;
  const task = list.find((t) => !t.batch && !t.parent && named(t) && !actionRequests.some((a) => a.newTaskId === t.id));
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

/** The rows of a group as shown: its row (label, count) and the task rows under it that are rendered. */
async function groupRows(label: string): Promise<{ count: string; tasks: TreeItem[] }> {
  const rows = await e2e().wb.treeItems(VIEW.tasks);
  const at = rows.findIndex((r) => r.level === 1 && r.label === label);
  if (at < 0) return { count: '', tasks: [] };
  const tasks: TreeItem[] = [];
  for (let i = at + 1; i < rows.length && rows[i].level > 1; i++) if (rows[i].level === 2) tasks.push(rows[i]);
  return { count: rows[at].description, tasks };
}

/** How many tasks of a status the platform has ("OTHER": those no status group names), in a project if given, as the view writes it. */
function platformCount(status: string, project?: string): string {
  const named = ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'];
  const tasks = e2e().emulator.data.tasks.filter((t) => project === undefined || t.project === project);
  return tasks.filter((t) => (status === 'OTHER' ? !named.includes(t.status) : t.status === status)).length.toLocaleString('en-US');
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
    // Room for the task tree: the files view below it folds away (it is someone else's subject).
    await wb.collapsePane(VIEW.files);
  });

  after(async () => {
    const { wb } = e2e();
    await wb.expandPane(VIEW.files).catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.clearNotifications();
  });

  it('a failed task opens into its error and its failed job, whose log shows the error on screen', async () => {
    const { wb, emulator } = e2e();
    const task = newest('FAILED');
    await openTaskGroup('Failed');
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
    // The tab says whose log it is (several open logs are told apart); its tooltip says where the log is, whole.
    const tabLabel = (await wb.page.locator('.part.editor .tab.active .monaco-icon-label').first().innerText()).replace(/\s*\n\s*/g, '').trim();
    assert.strictEqual(tabLabel, `job.err.log · ${firstJob.label} · ${task.name}`);
    const hover = wb.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'job.err.log' }).first();
    // A hover shows after a delay and only for a pointer that arrives: away, then onto the tab, until it shows.
    for (let attempt = 1; ; attempt++) {
      await wb.page.mouse.move(700, 400);
      await wb.page.locator('.part.editor .tab.active .monaco-icon-label').first().hover();
      if (await hover.waitFor({ timeout: 4_000 }).then(() => true, () => false)) break;
      if (attempt === 4) throw new Error('no tooltip on the log\'s tab');
    }
    // (VS Code adds "(preview)" to the tooltip of a tab opened as a preview, and may space it with no-break spaces.)
    const words = (text: string) => text.replace(/\s*\(preview\s*\)\s*$/, '').replace(/\s+/g, ' ').trim();
    assert.strictEqual(words(await hover.innerText()), words(`${task.project} › ${task.name} › ${firstJob.label}/${tabLabel}`));
    await wb.screenshot('41-failed-job-log');
    await wb.page.mouse.move(700, 400);
    assert.ok(emulator.storageRequests.length > storageBefore, 'fetched from the storage origin');
    assert.ok(emulator.storageRequests.every((r) => !r.carriedToken), 'without the token');
  });

  it('aborts a running task from its menu: at once, before any listing answers, it leaves Running for Other statuses, saying "aborting"', async () => {
    const { wb } = e2e();
    const task = newest('RUNNING');
    // The person's own project: its Running and Other statuses groups both fit on the screen.
    await openTaskGroup('Running');
    await wb.treeItemContextMenu(VIEW.tasks, exact(task.name), 'Filter by This Project');
    try {
      await abortInItsProject(task);
    } finally {
      await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters').catch(() => undefined);
    }
  });

  /** The abort, seen in the task's project: out of Running, into Other statuses as "aborting", then into Aborted. */
  async function abortInItsProject(task: TaskRec): Promise<void> {
    const { wb, emulator } = e2e();
    await waitFor(async () => (await groupRows('Running')).count === String(emulator.data.tasks.filter((t) => t.status === 'RUNNING' && t.project === task.project).length), 'the Running count of the project');
    await wb.clickViewAction(VIEW.tasks, 'Collapse All');
    await wb.expandTreeItem(VIEW.tasks, /^Other statuses$/);
    await wb.expandTreeItem(VIEW.tasks, /^Running$/);
    await wb.waitForTreeItems(VIEW.tasks, exact(task.name), 20_000);
    const before = { running: Number((await groupRows('Running')).count), other: Number((await groupRows('Other statuses')).count) };
    await wb.treeItemContextMenu(VIEW.tasks, exact(task.name), 'Abort Task…');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const question = (await dialog.locator('.dialog-message-text').innerText()).trim();
    assert.match(question, new RegExp(`^Abort "${escape(task.name)}"\\? It has run .+ and cost \\$\\d+\\.\\d\\d so far\\.$`));
    // From here the platform's listings wait: what the view shows comes from the abort's own answer.
    const listings = emulator.hold((method, p) => method === 'GET' && p === '/v2/tasks');
    try {
      await dialog.locator('.monaco-button', { hasText: /^Abort Task$/ }).click();
      const aborting = new RegExp(`^aborting · ${escape(task.name)}$`);
      await waitFor(async () => (await groupRows('Other statuses')).tasks.some((r) => aborting.test(r.label)), 'the task in Other statuses, saying "aborting"', 10_000).catch(async (error: Error) => {
        const rows = (await wb.treeItems(VIEW.tasks)).map((r) => `${r.level}:${r.label}`);
        throw new Error(`${error.message}; "${task.name}" ${task.status}, actions ${JSON.stringify(emulator.actionRequests.filter((a) => a.taskId === task.id))}; rows ${rows.join(' | ')}`);
      });
      const running = await groupRows('Running');
      const other = await groupRows('Other statuses');
      await wb.screenshot('42-task-aborting');
      assert.ok(!running.tasks.some((r) => r.label === task.name), `out of Running: ${running.tasks.map((r) => r.label).join(' | ')}`);
      assert.deepStrictEqual([Number(running.count), Number(other.count)], [before.running - 1, before.other + 1], 'the counts move with it');
      const row = other.tasks.find((r) => aborting.test(r.label))!;
      assert.match(row.description, /^started .+ ago/, row.description);
      assert.strictEqual(emulator.actionRequests.filter((a) => a.taskId === task.id).length, 1);
    } finally {
      listings.release();
    }
    // The refresh that follows reads the platform: it agrees.
    await waitFor(async () => (await groupRows('Other statuses')).count === platformCount('OTHER', task.project) && (await groupRows('Running')).count === platformCount('RUNNING', task.project), 'the refresh after the abort', 20_000);
    assert.ok((await groupRows('Other statuses')).tasks.some((r) => r.label === `aborting · ${task.name}`));
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
    await openTaskGroup('Aborted');
    await wb.waitForTreeItems(VIEW.tasks, exact(task.name), 20_000);
    await wb.screenshot('43-task-aborted');
  }

  it('runs a draft from its menu; when it fails, a notification says so, and Show Logs opens the error', async function () {
    this.timeout(120_000);
    const { wb, emulator } = e2e();
    const task = newest('DRAFT');
    emulator.setRunOutcome(task.id, 'FAILED');
    await openTaskGroup('Draft');
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

  it('re-runs a failed task, then Refresh Tasks: Running, opened again, lists the copy first, its count and its rows agreeing', async function () {
    this.timeout(150_000);
    const { wb, emulator } = e2e();
    // Running opened once, then closed by its twistie.
    await openTaskGroup('Running');
    const firstBefore = (await groupRows('Running')).tasks[0].label;
    await wb.treeItem(VIEW.tasks, /^Running$/).locator('.monaco-tl-twistie').click();
    await waitFor(async () => (await groupRows('Running')).tasks.length === 0, 'Running closed');
    // A failed task re-run from its menu.
    const failed = newest('FAILED');
    await openTaskGroup('Failed');
    await wb.treeItemContextMenu(VIEW.tasks, exact(failed.name), 'Re-run Task…');
    assert.strictEqual(await confirmDialog(/^Re-run Task$/), `Re-run "${failed.name}"?`);
    const copyId = await waitFor(() => emulator.actionRequests.find((a) => a.taskId === failed.id && a.action === 'clone')?.newTaskId, 'the re-run to reach the platform');
    // The copy starts running on the platform (a step after it is queued).
    await waitFor(
      () => {
        emulator.advance();
        return emulator.data.taskById.get(copyId)?.status === 'RUNNING';
      },
      'the copy to run',
      20_000,
      250,
    );
    await wb.clickViewAction(VIEW.tasks, 'Collapse All');
    const sent = emulator.received.length;
    await wb.clickViewAction(VIEW.tasks, 'Refresh Tasks');
    // The refresh has begun (the platform is asked again), and its counts are shown.
    await waitFor(() => emulator.received.slice(sent).some((r) => r.method === 'GET' && r.path === '/v2/tasks'), 'the refresh to ask the platform', 20_000);
    // Opened again: once the refresh has answered, what it lists now, the copy (the newest task) first. (The count
    // alone does not tell the refresh has answered: a running task the emulator ends meanwhile leaves it as it was.)
    await wb.expandTreeItem(VIEW.tasks, /^Running$/);
    let shown = await groupRows('Running');
    await waitFor(async () => (shown = await groupRows('Running')).tasks[0]?.label === failed.name, `the copy first (before the re-run the first was "${firstBefore}")`, 20_000).catch(() => {
      assert.fail(`the copy first: "${shown.tasks[0]?.label}" is first, not "${failed.name}" (before the re-run the first was "${firstBefore}")`);
    });
    await wb.screenshot('46-rerun-refreshed-running');
    assert.match(shown.tasks[0].ariaLabel, /, running, started /, shown.tasks[0].ariaLabel);
    // The count is the listing's total; the platform's moves on meanwhile (tasks earlier specs made start and end),
    // and the view follows at its next refresh (every 30 s): the two are compared until they agree.
    await waitFor(async () => (shown = await groupRows('Running')).count === platformCount('RUNNING'), 'the count to be the platform\'s', 45_000).catch(() => {
      assert.strictEqual(shown.count, platformCount('RUNNING'), 'the count is the platform\'s');
    });
    const newestRunning = emulator.data.tasks.filter((t) => t.status === 'RUNNING').sort((a, b) => (a.created_time < b.created_time ? 1 : -1));
    assert.deepStrictEqual(shown.tasks.slice(0, 5).map((r) => r.label), newestRunning.slice(0, 5).map((t) => t.name), 'the rows are the platform\'s newest running tasks');
  });

  it('a watched task that ends just after a check is told at the next check, one refresh interval later, however long nothing changed', async function () {
    this.timeout(150_000);
    const { wb, emulator } = e2e();
    // A running task of the platform, named so that its row is told apart (the seeded running tasks share names).
    const task = newest('RUNNING', { anyName: true });
    task.name = `${task.name} (long run)`;
    await wb.clickViewAction(VIEW.tasks, 'Refresh Tasks');
    await openTaskGroup('Running');
    await wb.waitForTreeItems(VIEW.tasks, exact(task.name), 20_000);
    await wb.treeItemContextMenu(VIEW.tasks, exact(task.name), 'Watch Task (Notify When It Ends)');
    const reads = () => emulator.received.filter((r) => r.method === 'POST' && r.path === '/v2/bulk/tasks/get');
    const start = reads().length;
    // Two checks in which nothing changed (before #29 each doubled the wait before the next: 30 s, 60 s, 120 s…),
    // then the task ends just after the second.
    await waitFor(() => reads().length >= start + 2, 'two checks of the watched tasks', 80_000, 20);
    emulator.endTask(task.id, 'FAILED');
    const endedAt = reads()[reads().length - 1].at;
    const next = await waitFor(() => reads().find((r) => r.at > endedAt), 'the next check', 60_000, 20);
    const gaps = reads().slice(start).map((r, i, all) => (i ? r.at - all[i - 1].at : 0)).slice(1);
    // The refresh interval is 30 s (the default): told within it + 10 %.
    assert.ok(next.at - endedAt <= 33_000, `the next check came ${next.at - endedAt} ms after the end: not within 30 s + 10 % (gaps between checks: ${gaps.join(', ')} ms)`);
    const message = await wb.waitForNotification(new RegExp(`Task "${escape(task.name)}" failed: `), 10_000);
    await wb.screenshot('47-watched-task-told-within-interval');
    assert.match(message, /exit code 1/);
    console.log(`      watched task: checks ${gaps.join(', ')} ms apart; told ${next.at - endedAt} ms after it ended`);
    await wb.clearNotifications();
  });
});
