import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { Task } from '../../../src/api/types';
import { abortWrite, actionTokens, canTake, confirmationText, rerunWrite, runWrite, TaskActionSender, type TaskActionApi } from '../../../src/tasks/actions';
import { Outbox } from '../../../src/write/outbox';
import { FakeClock } from '../../support/fakeClock';
import { memoryState } from '../../support/sharedState';

const task = (over: Partial<Task>): Task => ({ href: 'h', id: 'bd5e95d9-12b3-789c-45b6-34d8696571a9', name: 'BWA-MEM run', ...over });

describe('task actions: rules, words, one send', () => {
  it('follows the platform\'s rules: abort RUNNING/QUEUED, run DRAFT, re-run a finished task', () => {
    assert.deepStrictEqual(['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'ABORTING'].map((s) => canTake('abort', s)), [true, true, false, false, false]);
    assert.deepStrictEqual(['DRAFT', 'QUEUED'].map((s) => canTake('run', s)), [true, false]);
    assert.deepStrictEqual(['FAILED', 'ABORTED', 'COMPLETED', 'RUNNING'].map((s) => canTake('rerun', s)), [true, true, true, false]);
    assert.strictEqual(actionTokens({ status: 'RUNNING' }, false), 'canAbort canWatch');
    assert.strictEqual(actionTokens({ status: 'QUEUED' }, true), 'canAbort watched');
    assert.strictEqual(actionTokens({ status: 'FAILED' }, false), 'canRerun');
  });

  it('confirms with what will happen: how long it ran and what it cost; several tasks in one confirmation', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const running = task({ status: 'RUNNING', start_time: '2026-01-01T09:50:00Z', price: { currency: 'USD', amount: 3.2 } });
    assert.strictEqual(confirmationText('abort', [running], now).message, 'Abort "BWA-MEM run"? It has run 2 h 10 min and cost $3.20 so far.');
    assert.strictEqual(confirmationText('abort', [task({ status: 'QUEUED' })], now).message, 'Abort "BWA-MEM run"? It has not started yet.');
    // Days, not 271 hours: the one duration formatter.
    const long = task({ status: 'RUNNING', start_time: '2025-12-21T04:52:00Z' });
    assert.strictEqual(confirmationText('abort', [long], now).message, 'Abort "BWA-MEM run"? It has run 11 days 7 h.');
    const both = confirmationText('abort', [running, task({ id: 'x', name: 'second', status: 'RUNNING', start_time: '2026-01-01T11:00:00Z', price: { currency: 'USD', amount: 1 } })], now);
    assert.strictEqual(both.message, 'Abort 2 tasks? They have run 3 h 10 min in all and cost $4.20 so far.');
    assert.match(both.detail, /• BWA-MEM run\n• second/);
    assert.match(confirmationText('rerun', [task({ status: 'FAILED' })], now).detail, /the original stays as it is/);
    assert.strictEqual(confirmationText('run', [task({ status: 'DRAFT' })], now).message, 'Run "BWA-MEM run"?');
  });

  it('goes through the outbox: the same action twice at once is sent once, a refused one is not repeated', async () => {
    let posts = 0;
    let posted: () => void = () => undefined;
    let release: () => void = () => undefined;
    const api = {
      action: async () => {
        posts++;
        posted();
        await new Promise<void>((r) => (release = r));
        return task({ status: 'ABORTING' });
      },
      get: async () => task({ status: 'RUNNING' }),
      list: async () => ({ items: [], total: 0, next: undefined }),
    };
    const { outbox, sender, clock } = withOutbox(api);
    const ticking = runTimersDue(clock);
    try {
      const t = task({ status: 'RUNNING' });
      const sent = new Promise<void>((r) => (posted = r));
      const first = sender.sendTaskAction('abort', t);
      await sent;
      const second = sender.sendTaskAction('abort', t);
      release();
      assert.deepStrictEqual([(await first).kind, (await second).kind], ['done', 'done']);
      assert.strictEqual(posts, 1, 'one POST for the double click');
    } finally {
      ticking.stop();
      outbox.dispose();
    }
    const refusing = withOutbox({
      ...api,
      action: async () => {
        posts++;
        throw new ApiError({ kind: 'http', status: 400, message: 'cannot be aborted' });
      },
    });
    const refusingTicks = runTimersDue(refusing.clock);
    try {
      const outcome = await refusing.sender.sendTaskAction('abort', task({ status: 'RUNNING' }));
      refusingTicks.stop();
      assert.strictEqual(outcome.kind, 'refused');
      // Long past any wait the outbox keeps between sends (its back-off reaches minutes, not an hour).
      await refusing.clock.tickAsync(60 * 60_000);
      assert.strictEqual(posts, 2, 'not repeated');
      assert.deepStrictEqual(refusing.outbox.all().map((r) => r.state), ['failed'], 'kept, refused, for the person to submit again or discard');
    } finally {
      refusingTicks.stop();
      refusing.outbox.dispose();
    }
  });
});

/** Fires the fake clock's timers as they fall due (the outbox's loop runs on them), without moving its time. */
function runTimersDue(clock: FakeClock): { stop(): void } {
  let running = true;
  void (async () => {
    while (running) {
      await new Promise((r) => setImmediate(r));
      await clock.tickAsync(0);
    }
  })();
  return { stop: () => (running = false) };
}

function withOutbox(api: TaskActionApi) {
  const account = { key: 'e#u', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 't' } };
  const clock = new FakeClock();
  const outbox = new Outbox(memoryState(), async () => account, [abortWrite(api), runWrite(api), rerunWrite(api, clock)], clock);
  outbox.start();
  return { outbox, clock, sender: new TaskActionSender(outbox, async () => account, 1_000) };
}
