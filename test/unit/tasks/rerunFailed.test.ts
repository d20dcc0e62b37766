import * as assert from 'assert';
import type { BulkTaskItem, Task } from '../../../src/api/types';
import { planRerun, rerunConfirmation, rerunEndedWords, rerunFailedWrite, rerunPayloads, RerunWatch, type RerunEnded } from '../../../src/tasks/rerunFailed';
import { FakeClock } from '../../support/fakeClock';
import { task } from '../../support/fakeTasks';

const priced = (amount: number, currency = 'USD') => ({ price: { currency, amount } });

describe('Re-run Failed', () => {
  it('plans one new task per failed or aborted task, each once, leaving out the rest and batch parents', () => {
    const plan = planRerun([
      task(1, 'FAILED', { app: 'me/p/salmon/4', ...priced(1.1) }),
      task(2, 'ABORTED', priced(0.5)),
      task(3, 'COMPLETED', priced(9)),
      task(4, 'FAILED', { batch: true, ...priced(40) }),
      task(1, 'FAILED', priced(1.1)),
      task(5, 'RUNNING'),
      task(6, 'FAILED'),
    ]);
    assert.deepStrictEqual(plan.tasks.map((t) => t.name), ['task 1', 'task 2', 'task 6']);
    assert.deepStrictEqual([plan.failed, plan.aborted], [2, 1]);
    assert.deepStrictEqual(plan.cost, { tasks: 3, unpriced: 1, sums: { USD: 1.6 } });
    assert.deepStrictEqual(rerunPayloads(plan)[0], { action: 'rerun', task: { id: task(1, '').id, name: 'task 1', app: 'me/p/salmon/4', project: 'me/alpha', status: 'FAILED' } });
  });

  it('confirms with the counts and what the originals cost', () => {
    const failed = planRerun(Array.from({ length: 37 }, (_, i) => task(i + 1, 'FAILED', priced(i < 36 ? 1.1 : 1.6))));
    assert.strictEqual(rerunConfirmation(failed, 'RNA batch 12').message, 'Re-run 37 failed tasks of "RNA batch 12"? They cost $41.20 before failing.');
    assert.match(rerunConfirmation(failed, 'RNA batch 12').detail, /• task 1\n• task 2[\s\S]*… and 27 more$/);
    const mixed = planRerun([task(1, 'FAILED', priced(2)), task(2, 'ABORTED', priced(3, 'EUR'))]);
    assert.strictEqual(rerunConfirmation(mixed, undefined).message, 'Re-run 2 tasks (1 failed, 1 aborted)? They cost $2.00 + €3.00 before they ended.');
    assert.strictEqual(rerunConfirmation(planRerun([task(1, 'FAILED')]), undefined).message, 'Re-run 1 failed task?');
  });

  it('is the re-run write kind under its own name, held back while the API budget is nearly spent', () => {
    let left = 5;
    const kind = rerunFailedWrite({ action: async () => task(1, 'QUEUED'), get: async () => task(1, 'QUEUED'), list: async () => ({ items: [], total: 0, next: undefined }) }, { holdBulk: () => (left-- > 0 ? 0 : 30_000) });
    assert.strictEqual(kind.name, 'taskAction.rerunFailed');
    assert.strictEqual(kind.idempotent, false);
    assert.strictEqual(kind.identity.by, 'difference');
    const record = { payload: { action: 'rerun', task: { id: 'x' } } } as never;
    assert.deepStrictEqual(Array.from({ length: 6 }, () => kind.hold!(record)), [0, 0, 0, 0, 0, 30_000]);
  });

  it('follows the new tasks 100 a request and says once, at the end, how they ended', async () => {
    const clock = new FakeClock();
    const statuses = new Map(Array.from({ length: 150 }, (_, i) => [task(i, '').id, 'QUEUED']));
    const asked: number[] = [];
    const said: RerunEnded[] = [];
    const watch = new RerunWatch([...statuses.keys()], {
      bulkGet: async (ids): Promise<BulkTaskItem[]> => {
        asked.push(ids.length);
        return ids.map((id) => ({ resource: { href: '', id, name: '', status: statuses.get(id) } as Task }));
      },
      clock,
      intervalMs: () => 10_000,
      onEnded: (ended) => said.push(ended),
    });
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(asked, [100, 50]);
    assert.deepStrictEqual(said, []);
    [...statuses.keys()].forEach((id, i) => statuses.set(id, i < 145 ? 'COMPLETED' : i < 148 ? 'FAILED' : 'RUNNING'));
    await clock.tickAsync(10_000);
    assert.strictEqual(watch.left, 2);
    assert.deepStrictEqual(asked.slice(2), [100, 50]);
    [...statuses.keys()].slice(148).forEach((id) => statuses.set(id, 'ABORTED'));
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(asked.slice(4), [2], 'only the tasks still open are read');
    assert.deepStrictEqual(said, [{ completed: 145, failed: 3, aborted: 2 }]);
    await clock.tickAsync(60_000);
    assert.strictEqual(asked.length, 5, 'nothing is read once all have ended');
    assert.strictEqual(rerunEndedWords(said[0]), '145 completed, 3 failed again, 2 aborted');
    assert.strictEqual(rerunEndedWords({ completed: 35, failed: 2, aborted: 0 }), '35 completed, 2 failed again');
    watch.dispose();
  });
});
