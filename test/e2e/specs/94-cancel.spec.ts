/**
 * Long waits a person can cancel (#44): Re-run Failed… of a batch whose new tasks are still being sent, and a job's
 * log whose fetch is slow. Each Cancel stops what was not sent or fetched yet, keeps what was, and the words on
 * screen say both.
 */
import * as assert from 'assert';
import type { TaskRec } from '../../emulator';
import { waitFor } from '../../support/waitFor';
import { e2e, ensureSignedIn, openTaskGroup, VIEW } from '../fixture';
import { escape } from '../workbench';

const exact = (name: string): RegExp => new RegExp(`^${escape(name)}$`);

describe('waits with a Cancel', function () {
  this.timeout(180_000);

  before(async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.expandPane(VIEW.tasks);
    await ensureSignedIn();
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters').catch(() => undefined);
    await wb.collapsePane(VIEW.files);
    await wb.clearNotifications();
  });

  after(async () => {
    const { wb } = e2e();
    await wb.clickViewAction(VIEW.tasks, 'Collapse All').catch(() => undefined);
    await wb.expandPane(VIEW.files).catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.clearNotifications();
  });

  it('Re-run Failed… Cancel while the new tasks are sent: those not sent are not made, the one on its way is, and the summary says so', async () => {
    const { wb, emulator } = e2e();
    const parent = emulator.data.scaleBatches[0];
    const failed = emulator.data.tasks.filter((t) => t.parent === parent.id && (t.status === 'FAILED' || t.status === 'ABORTED'));
    assert.ok(failed.length >= 2, `the batch has failed children (${failed.length})`);
    const clones = () => emulator.actionRequests.filter((a) => a.action === 'clone' && failed.some((t) => t.id === a.taskId));
    await openTaskGroup(parent.status === 'FAILED' ? 'Failed' : 'Completed');
    await wb.scrollToTreeItem(VIEW.tasks, exact(parent.name));
    await wb.treeItemContextMenu(VIEW.tasks, exact(parent.name), 'Re-run Failed…');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    // The first new task's call is held on its way: the rest wait their turn.
    const held = emulator.hold((method, path) => method === 'POST' && /\/actions\/clone$/.test(path));
    try {
      await dialog.locator('.monaco-button', { hasText: new RegExp(`^Re-run ${failed.length} Tasks$`) }).click();
      await held.arrived;
      const progress = await wb.waitForNotification(new RegExp(`^Re-running ${failed.length} tasks`), 20_000).catch(() => '');
      await wb.screenshot('94-rerun-failed-progress-with-cancel');
      await wb.clickNotificationButton(new RegExp(`Re-running ${failed.length} tasks`), 'Cancel');
      const summary = await wb.waitForNotification(/^Re-run Failed cancelled: /, 20_000);
      await wb.screenshot('95-rerun-failed-cancelled');
      assert.strictEqual(summary, `Re-run Failed cancelled: 0 of ${failed.length} new tasks made, ${failed.length - 1} not sent, 1 sent and not answered yet (followed in the Data Jobs view).`, `progress read "${progress}"`);
    } finally {
      held.release();
    }
    // The one on its way reaches the platform; nothing more is sent.
    await waitFor(() => clones().length === 1, 'the call on its way to be made', 20_000);
    await new Promise((r) => setTimeout(r, 3_000));
    assert.strictEqual(clones().length, 1, 'no other re-run sent after Cancel');
    await wb.clearNotifications();
  });

  it('a job\'s log that is slow to come: Cancel stops fetching it, no tab opens, and the status bar says so', async () => {
    const { wb, emulator } = e2e();
    // A failed task of its own name, not the newest (whose log another spec opened, and so is kept).
    const tasks = emulator.data.tasks;
    const named = (t: TaskRec) => tasks.filter((o) => o.name === t.name).length === 1;
    const task = tasks
      .filter((t) => t.status === 'FAILED' && !t.batch && !t.parent && named(t))
      .sort((a, b) => (a.created_time < b.created_time ? 1 : -1))[1];
    await openTaskGroup('Failed');
    await wb.scrollToTreeItem(VIEW.tasks, exact(task.name));
    await wb.expandTreeItem(VIEW.tasks, exact(task.name));
    await wb.waitForTreeItems(VIEW.tasks, /^job\.err\.log$/, 20_000);
    const held = emulator.hold((method, path) => method === 'GET' && /^\/v2\/files\/[^/]+\/download_info$/.test(path));
    try {
      await wb.clickTreeItem(VIEW.tasks, /^job\.err\.log$/);
      await held.arrived;
      await wb.waitForNotification(/^Loading job\.err\.log/, 20_000);
      await wb.screenshot('96-log-loading-with-cancel');
      await wb.clickNotificationButton(/Loading job\.err\.log/, 'Cancel');
      const said = await wb.waitForStatusBarText(/cancelled: nothing was opened/, 20_000);
      assert.match(said, /Loading job\.err\.log · .+ cancelled: nothing was opened\.$/);
    } finally {
      held.release();
    }
    await new Promise((r) => setTimeout(r, 2_000));
    await wb.screenshot('97-log-cancelled');
    assert.strictEqual(await wb.page.locator('.part.editor .tab', { hasText: task.name }).count(), 0, 'no tab of the log');
  });
});
