/**
 * Tasks at scale as a person uses them: the cost of the Failed group from its menu (the notification's total read
 * against the platform's prices), and a task found by typing part of its name in Find Task.
 */
import * as assert from 'assert';
import { waitFor } from '../../support/waitFor';
import { e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape } from '../workbench';

describe('tasks at scale: cost, finding a task by name', () => {
  before(async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.expandPane(VIEW.tasks);
    await ensureSignedIn();
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters').catch(() => undefined);
    await wb.clearNotifications();
  });

  after(async () => {
    const { wb } = e2e();
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.clearNotifications();
  });

  it("right-click the Failed group, Cost of These Tasks: a notification gives the group's total", async () => {
    const { wb, emulator } = e2e();
    await wb.clickViewAction(VIEW.tasks, 'Collapse All').catch(() => undefined);
    await wb.waitForTreeItems(VIEW.tasks, /^Failed$/, 20_000);
    const failed = emulator.data.tasks.filter((t) => t.status === 'FAILED');
    const usd = failed.reduce((sum, t) => sum + (t.price?.amount ?? 0), 0);
    const expected = `Failed: ${failed.length.toLocaleString('en-US')} tasks, $${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    await wb.treeItemContextMenu(VIEW.tasks, /^Failed$/, 'Cost of These Tasks');
    const message = await wb.waitForNotification(new RegExp(`^${escape(expected)}`), 30_000);
    await wb.screenshot('46-cost-of-failed-tasks');
    assert.match(message, new RegExp(`^${escape(expected)}`));
    await wb.clearNotifications();
  });

  it('Find Task: typing part of a name narrows the list, A to Z; picking it opens its record', async () => {
    const { wb, emulator } = e2e();
    const task = emulator.data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;
    await wb.runCommand('Seven Bridges: Find Task…');
    await wb.waitForQuickInput(/Find Task/);
    await wb.typeInQuickInput('Salmon Quant batch 1 - ');
    let labels: string[] = [];
    await waitFor(async () => (labels = (await wb.quickItems()).map((i) => i.label)).includes(task.name), `"${task.name}" in the list (shows ${labels.slice(0, 3).join(' | ')})`, 30_000);
    assert.strictEqual(labels[0], task.name, 'A to Z: the parent before its children');
    await wb.screenshot('47-find-task');
    await wb.pickQuickItem(task.name, true);
    await waitFor(async () => (await wb.activeEditorTitle()).includes(`${task.name.slice(0, 20)}`), 'the task record', 20_000);
  });
});
