/**
 * Tasks at scale in the real host, against the emulator: what tasks cost (a status group, a batch parent's children,
 * everything under the filter), a batch's failed children, and the failure logs collected to disk.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { CostTotal } from '../../../src/tasks/cost';
import type { CollectResult } from '../../../src/tasks/failureLogs';
import type { GroupNode, TaskNode, TaskTreeNode } from '../../../src/tasks/taskNodes';
import { activateProduct, closeAllEditors, emulator, waitFor } from '../helpers';

/** The emulator's sum of some tasks' prices, per currency, to the cent. */
function expectedCost(tasks: { price?: { currency?: string; amount?: number } }[]): Record<string, string> {
  const sums: Record<string, number> = {};
  for (const t of tasks) if (typeof t.price?.amount === 'number') sums[t.price.currency ?? 'USD'] = (sums[t.price.currency ?? 'USD'] ?? 0) + t.price.amount;
  return Object.fromEntries(Object.entries(sums).map(([c, a]) => [c, a.toFixed(2)]));
}
/** The requests the emulator received since its count was `before` (its log keeps the last 2,000). */
function requestsSince(before: number): string[] {
  const since = emulator().stats.requests - before;
  return since > 0 ? emulator().requestLines.slice(-since) : [];
}
const cents = (total: CostTotal) => Object.fromEntries(Object.entries(total.sums).map(([c, a]) => [c, a.toFixed(2)]));

describe('tasks at scale: cost, failed children, failure logs', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  const tasks = () => api.tasks;
  const children = (node?: TaskTreeNode) => Promise.resolve(tasks().rows.getChildren(node)) as Promise<TaskTreeNode[]>;
  const scaleBatch = () => emulator().data.tasks.find((t) => t.batch && t.name.startsWith('Salmon Quant batch 1 '))!;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in', 20_000);
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
  });

  after(async () => {
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
    await closeAllEditors();
  });

  it("Cost of These Tasks on a status group: its tasks' prices added up, 100 a page, then shown in the group's tooltip", async () => {
    await children();
    const group = tasks().tree.group('COMPLETED') as GroupNode;
    const completed = emulator().data.tasks.filter((t) => t.status === 'COMPLETED');
    const before = emulator().stats.requests;
    const total = (await vscode.commands.executeCommand('sevenbridges.tasks.cost', group)) as CostTotal;
    const reads = requestsSince(before).filter((line) => line.includes('fields=price'));
    assert.strictEqual(total.tasks, completed.length);
    assert.strictEqual(total.unpriced, completed.filter((t) => typeof t.price?.amount !== 'number').length);
    assert.deepStrictEqual(cents(total), expectedCost(completed));
    assert.strictEqual(reads.length, Math.ceil(completed.length / 100), 'one request per 100 tasks');
    assert.ok(reads.every((line) => line.startsWith('GET /v2/tasks?') && line.includes('status=COMPLETED') && line.includes('limit=100')), reads.join('\n'));
    const tooltip = String(tasks().rows.getTreeItem(group).tooltip);
    assert.match(tooltip, new RegExp(`Cost: ${completed.length.toLocaleString('en-US')} tasks, \\$`));
  });

  it("on a batch parent: its children's prices; from the view's title: every task under the filter", async () => {
    const parent = scaleBatch();
    const kids = emulator().data.tasks.filter((t) => t.parent === parent.id);
    await children();
    const row = (await children(tasks().tree.group(parent.status as 'FAILED'))).find((n): n is TaskNode => n.kind === 'task' && n.task.id === parent.id);
    const total = (await vscode.commands.executeCommand('sevenbridges.tasks.cost', row ?? { kind: 'task', id: `x/${parent.id}`, task: parent })) as CostTotal;
    assert.strictEqual(total.tasks, kids.length);
    assert.deepStrictEqual(cents(total), expectedCost(kids));
    await vscode.commands.executeCommand('sevenbridges.tasks.showOnlyStatus', 'FAILED');
    const all = (await vscode.commands.executeCommand('sevenbridges.tasks.cost')) as CostTotal;
    const failed = emulator().data.tasks.filter((t) => t.status === 'FAILED');
    assert.strictEqual(all.tasks, failed.length);
    assert.deepStrictEqual(cents(all), expectedCost(failed));
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
  });

  it('Show Failed Children: the batch filtered to its failed children by the platform', async () => {
    const parent = scaleBatch();
    await vscode.commands.executeCommand('sevenbridges.tasks.showFailedChildren', parent.id);
    assert.deepStrictEqual(tasks().filters.filter, { statuses: ['FAILED'], parent: { id: parent.id } });
    await children();
    const rows = (await children(tasks().tree.group('FAILED'))).filter((n): n is TaskNode => n.kind === 'task');
    const failedKids = emulator().data.tasks.filter((t) => t.parent === parent.id && t.status === 'FAILED');
    assert.ok(failedKids.length > 0);
    assert.deepStrictEqual(rows.map((r) => r.task.id).sort(), failedKids.map((t) => t.id).sort());
    await vscode.commands.executeCommand('sevenbridges.tasks.clearFilter');
  });

  it("Collect Failure Logs on a batch parent: each failed child's logs under <task>/<job>/, the summary opened beside them", async () => {
    const parent = scaleBatch();
    const failedKids = emulator().data.tasks.filter((t) => t.parent === parent.id && t.status === 'FAILED');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-collect-'));
    try {
      const result = (await vscode.commands.executeCommand('sevenbridges.tasks.collectFailureLogs', parent.id, { folder })) as CollectResult;
      assert.deepStrictEqual([...new Set(result.rows.map((r) => r.task.id))].sort(), failedKids.map((t) => t.id).sort());
      for (const kid of failedKids) assert.ok(fs.readdirSync(path.join(folder, kid.name)).length > 0, `a folder for ${kid.name}`);
      const summary = path.join(folder, 'failure-summary.md');
      const text = fs.readFileSync(summary, 'utf8');
      assert.match(text, /\| Task \| Job \| Instance \| Error \| Last lines of the error log \|/);
      assert.strictEqual(text.split('\n').filter((l) => l.startsWith('| Salmon Quant')).length, result.rows.length);
      await waitFor(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === summary), 'the summary to open');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('Re-run Failed on a batch parent: one new task per failed child, each cloned once, followed to the end', async () => {
    const parent = scaleBatch();
    const failedKids = emulator().data.tasks.filter((t) => t.parent === parent.id && (t.status === 'FAILED' || t.status === 'ABORTED'));
    const clonesBefore = emulator().actionRequests.filter((a) => a.action === 'clone').length;
    const result = (await vscode.commands.executeCommand('sevenbridges.tasks.rerunFailed', parent.id, { confirm: false })) as { made: { id: string; name: string }[]; problems: string[]; watch?: { left: number; saved: Promise<void>; dispose(): void } };
    const state = api.services.context.globalState;
    const KEY = 'sevenbridges.tasks.rerunWatches';
    try {
      // Kept with the account, so that a reload resumes the watch.
      await result.watch?.saved;
      const stored = (state.get(KEY) ?? []) as { account: string; of?: string; open: string[] }[];
      const mine = stored.find((w) => w.open.includes(result.made[0].id));
      assert.ok(mine, JSON.stringify(stored));
      assert.deepStrictEqual([...mine.open].sort(), result.made.map((t) => t.id).sort());
      assert.strictEqual(mine.of, parent.name);
      assert.strictEqual(mine.account, api.services.session.accountKey);
      assert.deepStrictEqual(result.problems, []);
      assert.deepStrictEqual(result.made.map((t) => t.name).sort(), failedKids.map((t) => t.name).sort());
      const clones = emulator().actionRequests.filter((a) => a.action === 'clone').slice(clonesBefore);
      assert.deepStrictEqual(clones.map((c) => c.taskId).sort(), failedKids.map((t) => t.id).sort(), 'each failed child cloned once');
      assert.strictEqual(result.watch?.left, failedKids.length, 'the new tasks are followed');
    } finally {
      result.watch?.dispose();
      const left = ((state.get(KEY) ?? []) as { open: string[] }[]).filter((w) => !w.open.some((id) => result.made.some((t) => t.id === id)));
      await state.update(KEY, left.length ? left : undefined);
    }
  });

  it('Re-run Failed cancelled while sending: Re-run the Rest re-runs only the tasks not sent, each failed child cloned once in all', async () => {
    const parent = scaleBatch();
    const failedKids = emulator().data.tasks.filter((t) => t.parent === parent.id && (t.status === 'FAILED' || t.status === 'ABORTED'));
    assert.ok(failedKids.length >= 3, `failed children to re-run: ${failedKids.length}`);
    const clonesBefore = emulator().actionRequests.filter((a) => a.action === 'clone').length;
    const clones = () => emulator().actionRequests.filter((a) => a.action === 'clone').slice(clonesBefore);
    // Cancelled as soon as the platform has cloned the first.
    const cancel = new AbortController();
    const poll = setInterval(() => clones().length && cancel.abort(), 0);
    type Result = { made: { id: string }[]; rest?: () => Promise<Result>; watch?: { dispose(): void } };
    const results: Result[] = [];
    const state = api.services.context.globalState;
    const KEY = 'sevenbridges.tasks.rerunWatches';
    try {
      results.push((await vscode.commands.executeCommand('sevenbridges.tasks.rerunFailed', parent.id, { confirm: false, signal: cancel.signal })) as Result);
      clearInterval(poll);
      const first = results[0];
      assert.ok(first, 'the run ended with its outcome, not an error');
      assert.ok(first.made.length >= 1 && first.made.length < failedKids.length, `some made before the Cancel, not all: ${first.made.length} of ${failedKids.length}`);
      assert.strictEqual(clones().length, first.made.length, 'none sent after the Cancel');
      assert.ok(first.rest, 'the rest offered');
      results.push(await first.rest());
      assert.strictEqual(results[1].rest, undefined, 'nothing left');
      assert.deepStrictEqual(clones().map((c) => c.taskId).sort(), failedKids.map((t) => t.id).sort(), 'each failed child cloned once in all');
    } finally {
      clearInterval(poll);
      for (const r of results) r?.watch?.dispose();
      const made = new Set(results.flatMap((r) => r?.made ?? []).map((t) => t.id));
      const left = ((state.get(KEY) ?? []) as { open: string[] }[]).filter((w) => !w.open.some((id) => made.has(id)));
      await state.update(KEY, left.length ? left : undefined);
    }
  });
});
