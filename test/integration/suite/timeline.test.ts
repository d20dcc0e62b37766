/**
 * Show Timeline in the real host, against the emulator: the panel opens with the task's name, its page (the packaged
 * media/timeline.js under the strict policy) asks for the data and gets the task's jobs as the platform lists them;
 * a bar opens its job's log; a batch's children are read 100 a page and ordered failed first on request; a child's
 * bar opens the child's timeline.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { ExecutionDetails } from '../../../src/api/types';
import type { TimelinePanel } from '../../../src/tasks/timelinePanel';
import { activateProduct, closeAllEditors, emulator, tasksStartedBeforeEnded, waitFor } from '../helpers';

async function executionDetails(id: string): Promise<ExecutionDetails> {
  const answer = await fetch(`${emulator().baseUrl}/tasks/${id}/execution_details`, { headers: { 'X-SBG-Auth-Token': emulator().token } });
  return (await answer.json()) as ExecutionDetails;
}
const webviewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);

describe('Show Timeline', function () {
  this.timeout(60_000);
  let api: ExtensionApi;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in', 20_000);
  });

  after(async () => {
    await closeAllEditors();
  });

  it("a task's jobs: the panel titled with its name, its page given each job as a bar (status, instance, retries); a bar opens the job's log", async () => {
    const failed = emulator().data.tasks.find((t) => !t.batch && t.status === 'FAILED' && t.parent === null && t.start_time)!;
    const details = await executionDetails(failed.id);
    const panel = (await vscode.commands.executeCommand('sevenbridges.tasks.showTimeline', failed.id)) as TimelinePanel;
    assert.strictEqual(panel.title, `Timeline: ${failed.name}`);
    await waitFor(() => webviewTabs().some((t) => t.label === `Timeline: ${failed.name}`), 'the panel among the tabs');
    // The page loaded (its script under the policy, from the packaged media folder) and asked for the data.
    await waitFor(() => panel.posts > 0, 'the page to ask for the data', 20_000);
    const data = panel.data!;
    assert.strictEqual(data.kind, 'task');
    assert.strictEqual(data.bars.length, details.jobs!.length);
    const byKey = new Map(data.bars.map((b) => [b.key, b]));
    details.jobs!.forEach((job, n) => {
      const bar = byKey.get(`job:${n}`)!;
      assert.deepStrictEqual([bar.label, bar.status, bar.instance, bar.retried], [job.name, job.status, job.instance?.type, job.retried], `job ${n}`);
      assert.ok(bar.left !== undefined && bar.left >= 0 && bar.left + bar.width! <= 100.001, `job ${n} on the axis`);
    });
    assert.ok(data.bars.some((b) => b.tone === 'failed'));
    // As the page sends a click: the failed job's bar.
    const failedJob = details.jobs!.findIndex((j) => j.status === 'FAILED' && !j.retried);
    await panel.receive({ type: 'open', key: `job:${failedJob}` });
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'sevenbridges-log', 'the log to open', 20_000);
    assert.match(vscode.window.activeTextEditor!.document.uri.path, new RegExp(`^/${failed.id}/[0-9a-f]{24}/job\\.err\\.log`));
    // Show Timeline again reveals the same panel.
    assert.strictEqual(await vscode.commands.executeCommand('sevenbridges.tasks.showTimeline', failed.id), panel);
  });

  it("a batch parent: its children 100 a page, all of them as bars; failed first on request; a child's bar opens its timeline", async () => {
    const parent = emulator().data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;
    const kids = emulator().data.tasks.filter((t) => t.parent === parent.id);
    const failedKids = kids.filter((t) => t.status === 'FAILED');
    const before = emulator().stats.requests;
    const panel = (await vscode.commands.executeCommand('sevenbridges.tasks.showTimeline', parent.id)) as TimelinePanel;
    await panel.loaded;
    const since = emulator().stats.requests - before;
    const reads = emulator().requestLines.slice(-since).filter((l) => l.startsWith('GET /v2/tasks?') && l.includes(`parent=${parent.id}`));
    assert.strictEqual(reads.length, Math.ceil(kids.length / 100), reads.join('\n'));
    assert.ok(reads.every((l) => l.includes('limit=100')));
    assert.strictEqual(panel.data!.bars.length, kids.length);
    assert.strictEqual(panel.data!.loading, false);
    await waitFor(() => panel.posts > 0, 'the page to ask for the data', 20_000);
    await panel.receive({ type: 'failedFirst', value: true });
    assert.deepStrictEqual(panel.data!.bars.slice(0, failedKids.length).map((b) => b.status), failedKids.map(() => 'FAILED'));
    assert.deepStrictEqual(new Set(panel.data!.bars.slice(0, failedKids.length).map((b) => b.key)), new Set(failedKids.map((t) => t.id)));
    await panel.receive({ type: 'open', key: failedKids[0].id });
    await waitFor(() => api.tasks.timelines.get(failedKids[0].id) !== undefined, "the child's timeline");
    await waitFor(() => webviewTabs().some((t) => t.label === `Timeline: ${failedKids[0].name}`), "the child's panel among the tabs");
  });

  it('a running task: its running job open-ended; read again at the refresh interval until it ends', async function () {
    this.timeout(150_000);
    // The tasks the suites before started end first: the one picked stays running until this test ends it (a task
    // whose scheduled end came between the pick and the read showed its jobs all completed).
    await tasksStartedBeforeEnded(60_000);
    const running = emulator().data.tasks.find((t) => !t.batch && t.parent === null && t.status === 'RUNNING' && t.start_time)!;
    const settings = vscode.workspace.getConfiguration('sevenbridges.tasks');
    await settings.update('refreshInterval', 10, vscode.ConfigurationTarget.Global);
    try {
      const panel = (await vscode.commands.executeCommand('sevenbridges.tasks.showTimeline', running.id)) as TimelinePanel;
      assert.ok(panel.data!.bars.some((b) => b.open && b.tone === 'running'), JSON.stringify(panel.data!.bars.map((b) => [b.label, b.status])));
      emulator().endTask(running.id, 'COMPLETED');
      await waitFor(() => panel.data!.bars.every((b) => !b.open) && panel.data!.bars.some((b) => b.status === 'COMPLETED'), 'the refresh to show the task ended', 40_000);
      assert.ok(panel.data!.bars.every((b) => b.end !== undefined));
    } finally {
      await settings.update('refreshInterval', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
