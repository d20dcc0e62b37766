// 1. Faults: 10% of requests answered 500, 5% of connections dropped, a 429 burst and a maintenance window.
// The task tree model must end complete and correct, and every problem shown must say what to do.
import * as assert from 'assert';
import { describeError } from '../../src/api/errors';
import type { Task, TaskStatus } from '../../src/api/types';
import { FilterModel } from '../../src/tasks/filterModel';
import { groupView } from '../../src/tasks/taskRows';
import { type MessageNode, TaskNode, type ContainerNode, type GroupNode, type TaskTreeNode } from '../../src/tasks/taskNodes';
import { TaskTreeModel } from '../../src/tasks/taskTree';
import type { Emulator, TaskRec } from '../emulator';
import { makeClient, makeEmulator, note, recordedState, sent, shown, sleep } from './support';

const ERROR_500_RATE = 0.1;
const DROP_RATE = 0.05;

/** Checks the message nodes shown in place of a listing or of the groups, records them, returns the error text. */
function checkMessages(where: string, nodes: TaskTreeNode[]): string | undefined {
  const messages = nodes.filter((n): n is MessageNode => n.kind === 'message');
  const error = messages.find((m) => m.severity !== 'info' && !m.action);
  if (!error) return undefined;
  const actions = messages.filter((m) => m.action).map((m) => m.action!.title);
  shown(where, error.text, actions);
  for (const m of messages) if (m.action) assert.ok(m.action.command.startsWith('sevenbridges.'), `${where}: action ${m.action.title} runs ${m.action.command}`);
  return error.text;
}

const newestFirst = (a: { created_time?: string }, b: { created_time?: string }) =>
  (b.created_time ?? '').localeCompare(a.created_time ?? '');

describe('1. faults: the task tree ends complete and correct, and every problem says what to do', function () {
  this.timeout(60_000);
  let emu: Emulator;

  before(async () => {
    // The default data set (seed 1, 400 tasks, 3000 files) with the fault rates of issue 8.
    emu = await makeEmulator({ faults: { error500Rate: ERROR_500_RATE, dropRate: DROP_RATE } });
  });

  it('through a maintenance window, a 429 burst, 10% 500s and 5% drops, every group count and every task equals the emulator data', async () => {
    const client = makeClient(emu.baseUrl, { backoffMs: 20, maxRetries: 4 });
    const shownTexts: string[] = [];
    const byStatus = (status: string) => emu.data.tasks.filter((t) => t.status === status);
    const parents = emu.data.batchParents.filter((p) => (['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'] as string[]).includes(p.status));

    /** One window's worth: a fresh tree model (as after a reload), the groups, every page of every group, every batch's children. */
    const round = async (label: string, before?: (tree: TaskTreeModel) => Promise<void>): Promise<{ listed: number; children: number }> => {
      const memento = recordedState();
      const tree = new TaskTreeModel({ source: client.tasks, filter: new FilterModel(memento), store: memento, signedIn: () => true });
      await before?.(tree);
      let roots: TaskTreeNode[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        // The first look, then the user's Retry (the refresh command) while something is missing.
        if (attempt > 0) await tree.refresh();
        roots = await tree.getChildren();
        const message = checkMessages(`${label}: tree, look ${attempt + 1}`, roots);
        if (message) shownTexts.push(message);
        const groups = roots.filter((n): n is GroupNode & { status: TaskStatus } => n.kind === 'group' && n.status !== 'OTHER');
        for (const g of groups.filter((g) => g.countError)) {
          shown(`${label}: count of ${g.status}`, groupView(g.status, g.count, g.countError).tooltip, ['Retry']);
          shownTexts.push(g.countError!);
        }
        if (!message && groups.length === 6 && groups.every((g) => g.count !== undefined && !g.countError)) break;
      }

      const groups = roots.filter((n): n is GroupNode => n.kind === 'group' && n.status !== 'OTHER');
      assert.deepStrictEqual(groups.map((g) => g.status), ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED']);
      for (const g of groups) assert.strictEqual(g.count, byStatus(g.status).length, `${label}: count of ${g.status}`);

      // Open every group and load every page, as a person clicking "Load more" (and Retry when a page fails).
      const loadAll = async (node: ContainerNode, where: string): Promise<Task[]> => {
        const list = tree.listOf(node);
        for (let clicks = 0; clicks < 60; clicks++) {
          const children = await tree.getChildren(node);
          const message = checkMessages(where, children);
          if (message) shownTexts.push(message);
          if (list.error !== undefined && list.items.length) {
            // A page after the first failed: the node keeps its tasks and offers "Load more" again.
            assert.ok(children.some((c) => c.kind === 'loadMore'), `${where}: "Load more" stays after a failed page`);
            shown(`${where}: failed page`, `Loading more tasks failed: ${describeError(list.error)}`, ['Retry']);
            shownTexts.push(describeError(list.error));
          }
          if (list.loaded && list.error === undefined && !list.hasMore) break;
          // The Retry of a failed listing and "Load more" both load again: a failed first page from the start.
          await tree.loadMore(node);
        }
        assert.ok(list.loaded && list.error === undefined && !list.hasMore, `${where}: everything loaded`);
        return list.items;
      };

      let listed = 0;
      for (const group of groups) {
        tree.setExpanded(group, true);
        const items = await loadAll(group, `${label}: group ${group.status}`);
        const expected = byStatus(group.status).sort(newestFirst);
        assert.strictEqual(items.length, expected.length, `${label}: ${group.status}: as many tasks as the emulator has`);
        assert.deepStrictEqual(items.map((t) => t.id), expected.map((t) => t.id), `${label}: ${group.status}: the same tasks, newest first`);
        for (const task of items) {
          const rec = emu.data.taskById.get(task.id)!;
          assert.deepStrictEqual([task.status, task.name, task.project], [rec.status, rec.name, rec.project], `${label}: task ${task.id}`);
        }
        listed += items.length;
      }

      let children = 0;
      for (const parent of parents) {
        const node = tree.findTaskNodes(parent.id)[0];
        assert.ok(node instanceof TaskNode && node.task.batch, `${label}: batch parent ${parent.id} is in the tree`);
        const items = await loadAll(node, `${label}: children of ${parent.id.slice(0, 8)}`);
        const expected = emu.data.tasks.filter((t: TaskRec) => t.parent === parent.id).sort(newestFirst);
        assert.deepStrictEqual(items.map((t) => t.id).sort(), expected.map((t) => t.id).sort(), `${label}: children of ${parent.id}`);
        children += items.length;
      }
      tree.dispose();
      return { listed, children };
    };

    // Round 1: a maintenance window longer than the client's back-off (20+40+80+160 ms, ×4 for maintenance):
    // the first look fails as a whole and says so; the user waits and presses Retry into a burst of 429s.
    const maintenanceMs = 2_500;
    const first = await round('round 1', async (tree) => {
      const maintenanceStart = Date.now();
      emu.maintenance(maintenanceMs);
      const nodes = await tree.getChildren();
      const text = checkMessages('tree during maintenance', nodes);
      assert.strictEqual(text, 'The platform is under maintenance. Try again later.');
      assert.ok(nodes.some((n) => n.kind === 'message' && n.action?.title === 'Retry' && n.action.command === 'sevenbridges.tasks.refresh'), 'a Retry action');
      shownTexts.push(text);
      await sleep(Math.max(0, maintenanceStart + maintenanceMs + 50 - Date.now()));
      emu.burst429(8, 1);
      await tree.refresh();
    });
    note(`round 1: maintenance ${maintenanceMs} ms then a 429 burst of 8: ${first.listed} tasks in 6 groups, ${first.children} children of ${parents.length} batch parents`);

    // More rounds under the random 500s and drops alone, until the rates have had a fair number of requests.
    let rounds = 1;
    while (emu.stats.requests < 600 && rounds < 12) {
      rounds++;
      const r = await round(`round ${rounds}`);
      assert.deepStrictEqual(r, first);
    }

    const s = emu.stats;
    const t = sent(client);
    const random = s.requests - (s.byStatus[429] ?? 0) - (s.byStatus[503] ?? 0);
    note(`${rounds} rounds, each complete and equal to the emulator data (6 counts, ${first.listed} tasks, ${first.children} batch children)`);
    note(`emulator: ${s.faultsInjected} faults in ${s.requests} requests: ${s.byStatus[500] ?? 0} × 500, ${s.byStatus[0] ?? 0} dropped, ` +
      `${s.byStatus[429] ?? 0} × 429, ${s.byStatus[503] ?? 0} × 503; outside the window and burst ` +
      `${((100 * (s.byStatus[500] ?? 0)) / random).toFixed(1)}% 500 and ${((100 * (s.byStatus[0] ?? 0)) / random).toFixed(1)}% dropped`);
    note(`client: ${t.requests} requests, ${t.retries} retries, ${t.rateLimitWaits} rate-limit waits; ${shownTexts.length} messages shown`);
    assert.ok((s.byStatus[500] ?? 0) > 0 && (s.byStatus[0] ?? 0) > 0 && (s.byStatus[429] ?? 0) > 0 && (s.byStatus[503] ?? 0) > 0, 'every kind of fault happened');
    assert.ok(t.retries > 0 && t.rateLimitWaits > 0, 'the client retried and waited');
  });

  describe('each problem a person can meet is a message that says what to do, never a stack trace', () => {
    const tree = (client: ReturnType<typeof makeClient>, signedIn = true) => {
      const memento = recordedState();
      return new TaskTreeModel({ source: client.tasks, filter: new FilterModel(memento), store: memento, signedIn: () => signedIn });
    };

    it('a rejected token offers Set Authentication Token', async () => {
      const quiet = await makeEmulator({ tasks: 20, files: 50 });
      const roots = await tree(makeClient(quiet.baseUrl, { token: 'not-the-token-0123456789' })).getChildren();
      const text = checkMessages('rejected token', roots);
      assert.strictEqual(text, 'The platform rejected the authentication token. Set a new token to continue.');
      assert.deepStrictEqual(roots.filter((n) => n.kind === 'message' && n.action).map((n) => (n as MessageNode).action!.title), ['Set Authentication Token']);
    });

    it('a rate limit that outlasts the wait says when it resets', async () => {
      const quiet = await makeEmulator({ tasks: 20, files: 50 });
      quiet.burst429(50, 120);
      const roots = await tree(makeClient(quiet.baseUrl, { maxRateLimitWaitMs: 200 })).getChildren();
      const text = checkMessages('rate limit', roots)!;
      assert.match(text, /^The platform's rate limit \(1,000 requests per 5 minutes\) is used up\. It resets at .+\. Try again then\.$/);
    });

    it('an unreachable platform says to check the connection and the endpoint', async () => {
      const quiet = await makeEmulator({ tasks: 20, files: 50 });
      const endpoint = quiet.baseUrl;
      await quiet.close();
      const roots = await tree(makeClient(endpoint, { maxRetries: 1 })).getChildren();
      const text = checkMessages('unreachable', roots)!;
      assert.match(text, /^Cannot reach the platform \(ECONNREFUSED\)\. Check your connection and the API endpoint\.$/);
      assert.ok(roots.some((n) => n.kind === 'message' && n.action?.title === 'Show Log'));
    });

    it('a platform too slow to answer says to try again', async () => {
      const quiet = await makeEmulator({ tasks: 20, files: 50, faults: { latencyMs: 400 } });
      const roots = await tree(makeClient(quiet.baseUrl, { timeoutMs: 100, maxRetries: 0 })).getChildren();
      assert.strictEqual(checkMessages('timeout', roots), 'The platform did not answer in time. Try again.');
    });

    it('a listing that keeps failing shows the error with Retry in the group, and Retry then loads it', async () => {
      const quiet = await makeEmulator({ tasks: 60, files: 50 });
      const model = tree(makeClient(quiet.baseUrl, { maxRetries: 1 }));
      const roots = await model.getChildren();
      const group = roots.find((n): n is GroupNode => n.kind === 'group' && (n.count ?? 0) > 0)!;
      quiet.faults.error500Rate = 1;
      const failed = await model.getChildren(group);
      const text = checkMessages(`listing of ${group.status}`, failed)!;
      assert.strictEqual(text, 'An unexpected error occurred. (HTTP 500, code 90004).');
      const retry = failed.find((n): n is MessageNode => n.kind === 'message' && n.action?.title === 'Retry')!;
      assert.match(retry.action!.command, /^sevenbridges\.tasks\./);
      assert.deepStrictEqual(retry.action!.args, [group]);
      quiet.faults.error500Rate = 0;
      await model.loadMore(group);
      const loaded = await model.getChildren(group);
      assert.strictEqual(loaded.filter((n) => n.kind === 'task').length, group.count);
    });
  });
});
