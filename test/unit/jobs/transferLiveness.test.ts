// Whether another window runs a transfer (issue 37, item 2): the write path's liveness, on the monotonic clock, with
// the outbox's default timings and global state's propagation delay, never the times saved in records. A laptop that
// sleeps an hour wakes with every saved time an hour old: the upload the other window runs is still its own.
import * as assert from 'assert';
import { Transfers, type InterruptedRun } from '../../../src/jobs/transfers';
import { Outbox } from '../../../src/write/outbox';
import { FakeClock } from '../../support/fakeClock';
import { SharedGlobalState } from '../../support/sharedState';

const ACCOUNT = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };
const MINUTE = 60_000;

describe('transfers: another window\'s run is alive by its heartbeat, not by saved times', () => {
  for (const monotonic of [false, true]) {
    it(`an upload window A runs is not offered as interrupted in window B after the machine sleeps an hour (the monotonic clock ${monotonic ? 'counting' : 'stopped during'} the sleep); once A closes, at once`, async () => {
      const clock = new FakeClock();
      const global = new SharedGlobalState(30, clock);
      const [aState, bState] = [global.window(), global.window()];
      const a = new Outbox(aState, async () => ACCOUNT, [], clock);
      const b = new Outbox(bState, async () => ACCOUNT, [], clock);
      a.start();
      b.start();
      const runs = (state: typeof aState) => ({ runs: (): InterruptedRun[] => (state.get('run') ? [state.get<InterruptedRun>('run')!] : []) });
      const inA = new Transfers(clock.now, runs(aState), a);
      const inB = new Transfers(clock.now, runs(bState), b);
      const running = inA.start('upload', 'rfranklin/dest', ACCOUNT.key, () => undefined, 'run-1');
      // The run's record as window A's engine keeps it in global state, saved every 5 s while it runs (its times on A's wall clock).
      const startedAt = clock.now();
      const save = () => {
        void aState.update('run', { kind: 'upload', runId: 'run-1', label: 'rfranklin/dest', filesLeft: 1, filesTotal: 1, bytesLeft: 1_000, startedAt, savedAt: clock.now() });
        saving = clock.setTimeout(save, 5_000);
      };
      let saving: unknown;
      save();
      const offeredInB: number[] = [];
      const look = async (ms: number) => {
        for (let t = 0; t < ms; t += 500) {
          if (inB.interrupted(ACCOUNT.key).length) offeredInB.push(clock.monotonic());
          await clock.tickAsync(500);
        }
      };
      await look(2 * MINUTE);
      await clock.suspend(60 * MINUTE, { monotonic });
      await look(3 * MINUTE);
      assert.deepStrictEqual(offeredInB, [], 'never offered in B while A runs it');
      assert.deepStrictEqual(inA.interrupted(ACCOUNT.key), [], 'nor in A');
      // A's run stops (halted as the window closes), its record kept: B offers it at once.
      clock.clearTimeout(saving);
      running.end();
      a.dispose();
      await clock.tickAsync(100);
      assert.deepStrictEqual(inB.interrupted(ACCOUNT.key).map((r) => r.runId), ['run-1']);
      b.dispose();
    });
  }

  it('a window that dies while it runs an upload: B offers it once its heartbeat has not changed for a minute, as B watched it', async () => {
    const clock = new FakeClock();
    const global = new SharedGlobalState(30, clock);
    const aState = global.window();
    const a = new Outbox(aState, async () => ACCOUNT, [], clock);
    const b = new Outbox(global.window(), async () => ACCOUNT, [], clock);
    a.start();
    b.start();
    const record: InterruptedRun = { kind: 'upload', runId: 'run-2', label: 'rfranklin/dest', filesLeft: 1, filesTotal: 1, bytesLeft: 1_000, startedAt: clock.now() };
    const inA = new Transfers(clock.now, { runs: () => [record] }, a);
    const inB = new Transfers(clock.now, { runs: () => [record] }, b);
    inA.start('upload', record.label, ACCOUNT.key, () => undefined, 'run-2');
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(inB.interrupted(ACCOUNT.key), []);
    // The process dies: nothing it writes reaches the others any more.
    aState.closed = true;
    a.dispose();
    await clock.tickAsync(45_000);
    assert.deepStrictEqual(inB.interrupted(ACCOUNT.key), [], 'not before its beat is a minute old, as watched');
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(inB.interrupted(ACCOUNT.key).map((r) => r.runId), ['run-2']);
    b.dispose();
  });
});
