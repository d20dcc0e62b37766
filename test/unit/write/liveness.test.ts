// Which windows are alive (write/liveness.ts): judged by how long a beat was watched not changing, on the
// monotonic clock, never by the stamps in it.
import * as assert from 'assert';
import { Liveness } from '../../../src/write/liveness';
import { FakeClock } from '../../support/fakeClock';
import { SharedGlobalState } from '../../support/sharedState';

const ACCOUNT = 'https://api.sbgenomics.com/v2#rfranklin';

describe('Liveness', () => {
  const setup = () => {
    const clock = new FakeClock();
    const global = new SharedGlobalState();
    const opts = { heartbeatMs: 1_000, staleMs: 5_000 };
    const a = new Liveness('wa', global.window(), clock, opts);
    const b = new Liveness('wb', global.window(), clock, opts);
    return { clock, a, b };
  };

  it('a window whose beat does not change for the stale time, as watched here, is gone; one that beats is not', async () => {
    const { clock, a, b } = setup();
    await a.beat(ACCOUNT);
    b.observe();
    for (let i = 0; i < 10; i++) {
      await clock.tickAsync(1_000);
      await a.beat(ACCOUNT);
      b.observe();
    }
    assert.strictEqual(b.isGone('wa'), false);
    // This window looks every beat (the outbox's timer): a gap longer than two beats would be a sleep.
    for (let i = 0; i < 6; i++) {
      await clock.tickAsync(1_000);
      b.observe();
    }
    assert.strictEqual(b.isGone('wa'), true);
    assert.deepStrictEqual(b.aliveFor(ACCOUNT), []);
  });

  it('this machine\'s wall clock set an hour ahead makes no window gone (stamps are never compared)', async () => {
    const { clock, a, b } = setup();
    await a.beat(ACCOUNT);
    b.observe();
    clock.setWall(3_600_000);
    await clock.tickAsync(1_000);
    await a.beat(ACCOUNT);
    assert.strictEqual(b.isGone('wa'), false);
  });

  it('after a sleep counted by the monotonic clock, a window says so, and what it watched before counts for nothing', async () => {
    const { clock, a, b } = setup();
    await a.beat(ACCOUNT);
    await b.beat(ACCOUNT);
    b.observe();
    await clock.suspend(3_600_000, { monotonic: true });
    assert.strictEqual(b.resumed(), true, 'it has not beaten for an hour');
    assert.strictEqual(b.beatingFor(0), false, 'it must beat again before it takes anything over');
    await b.beat(ACCOUNT);
    assert.strictEqual(b.isGone('wa'), false, 'the watch starts again from the resume');
    await a.beat(ACCOUNT);
    assert.deepStrictEqual(b.aliveFor(ACCOUNT).sort(), ['wa', 'wb']);
  });

  it('a window that has not looked for more than two beats (it slept, its monotonic clock stopped) starts its watches again', async () => {
    const { clock, a, b } = setup();
    await a.beat(ACCOUNT, ['upload:run-1']);
    b.observe();
    // The machine sleeps an hour: the wall clock jumps, the monotonic one stands; nobody looks meanwhile.
    await clock.suspend(3_600_000);
    await clock.tickAsync(6_000);
    assert.deepStrictEqual([...b.workElsewhere()], ['upload:run-1'], 'not gone: what it watched before the sleep counts for nothing');
    for (let i = 0; i < 6; i++) {
      await clock.tickAsync(1_000);
      b.observe();
    }
    assert.deepStrictEqual([b.isGone('wa'), [...b.workElsewhere()]], [true, []], 'gone once watched unchanged for the stale time since');
  });

  it('a signed-out window is alive for no account', async () => {
    const { a, b } = setup();
    await a.beat(undefined);
    await b.beat(ACCOUNT);
    assert.deepStrictEqual(b.aliveFor(ACCOUNT), ['wb']);
  });

  it('a window that closed cleanly is gone at once, and its mark can be forgotten', async () => {
    const { a, b } = setup();
    await a.beat(ACCOUNT);
    b.observe();
    await a.stop(true);
    assert.strictEqual(b.isGone('wa'), true);
    assert.deepStrictEqual(b.closedWindows(), ['wa']);
    await b.forget('wa');
    assert.deepStrictEqual(b.closedWindows(), []);
  });
});
