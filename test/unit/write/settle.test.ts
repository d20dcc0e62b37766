// The one call to submit writes and wait for them (`Outbox.send`, `Outbox.follow`): how long each wait waits.
import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import { WriteKinds } from '../../../src/write/kinds';
import type { Settled } from '../../../src/write/settle';
import { Outbox } from '../../../src/write/outbox';
import { FakeClock } from '../../support/fakeClock';
import { FakeKind } from '../../support/fakeWriteKind';
import { SharedGlobalState } from '../../support/sharedState';

const ACCOUNT = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };
const lost = () => new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
const rateLimited = () => new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded', untilResetMs: 30_000 });

describe('Outbox.send: one call to submit writes and wait for them', () => {
  let clock: FakeClock;
  const outboxes: Outbox[] = [];
  const open = (idempotent = false) => {
    const kind = new FakeKind(idempotent);
    const outbox = new Outbox(new SharedGlobalState().window(), async () => ACCOUNT, [kind], clock, { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000, lateWindowMs: 20_000 });
    outbox.start();
    outboxes.push(outbox);
    return { outbox, kind };
  };
  /** Resolves `promise` while the fake clock runs, in steps of 100 ms, at most `ms`; the time it took. */
  const settleWithin = async <T>(promise: Promise<T>, ms: number): Promise<{ value: T; took: number }> => {
    const start = clock.now();
    let value: { v: T } | undefined;
    void promise.then((v) => (value = { v }));
    while (!value && clock.now() - start < ms) await clock.tickAsync(100);
    if (!value) throw new Error(`not settled within ${ms} ms`);
    return { value: value.v, took: clock.now() - start };
  };

  beforeEach(() => (clock = new FakeClock(Date.UTC(2026, 0, 1))));
  afterEach(() => outboxes.splice(0).forEach((o) => o.dispose()));

  it('by default, until each has its answer: the outcomes of those answered, the records of the rest as they stand', async () => {
    const { outbox, kind } = open();
    kind.answers = ['job-a', lost()];
    const { value } = await settleWithin(outbox.send<string>('fake', ['a', 'b'], ACCOUNT), 5_000);
    assert.deepStrictEqual(value.records.map((r) => r.payload), ['a', 'b']);
    assert.deepStrictEqual(value.finished.map((f) => [f.outcome, f.found]), [['job-a', false]]);
    // The lost answer is left to its lookup: not waited for.
    assert.deepStrictEqual(value.left.map((r) => [r.payload, r.state]), [['b', 'unsure']]);
  });

  it('"lookup": also while a lost answer is looked up, and while it is sent again; it comes out found', async () => {
    const { outbox, kind } = open(true);
    kind.answers = [lost()];
    kind.lookupAnswers = [{ unknown: 'cannot tell yet' }, { absent: 'not done' }];
    const { value } = await settleWithin(outbox.send<string>('fake', ['a'], ACCOUNT, { until: 'lookup', atMostMs: 10_000 }), 20_000);
    assert.deepStrictEqual(kind.sends, ['a', 'a'], 'sent again once the lookup showed it not done');
    assert.deepStrictEqual([value.finished.map((f) => f.outcome), value.left], [['job-a'], []]);
  });

  it('"lookup" waits at most `atMostMs` past the answer: then the write is left, still being looked up', async () => {
    const { outbox, kind } = open();
    kind.answers = [lost()];
    const { value, took } = await settleWithin(outbox.send('fake', ['a'], ACCOUNT, { until: 'lookup', atMostMs: 3_000 }), 20_000);
    assert.deepStrictEqual(value.left.map((r) => r.state), ['unsure']);
    assert.ok(took >= 3_000 && took <= 3_200, `waited ${took} ms`);
  });

  it('"lookup" does not wait for a rate limit to reset: the write is left waiting; "end" waits through it to the outcome', async () => {
    const first = open();
    first.kind.answers = [rateLimited()];
    const { value: answered } = await settleWithin(first.outbox.send('fake', ['a'], ACCOUNT, { until: 'lookup', atMostMs: 60_000 }), 5_000);
    assert.deepStrictEqual(answered.left.map((r) => r.state), ['queued']);
    const second = open();
    second.kind.answers = [rateLimited()];
    const { value: ended } = await settleWithin(second.outbox.send<string>('fake', ['a'], ACCOUNT, { until: 'end' }), 60_000);
    assert.deepStrictEqual([ended.finished.map((f) => f.outcome), ended.left], [['job-a'], []]);
  });

  it('"end" stops at what waits for the person (a refusal): it is left, with its note', async () => {
    const { outbox, kind } = open();
    kind.answers = [new ApiError({ kind: 'http', status: 404, code: 10225, message: 'Source does not exist.' })];
    const { value } = await settleWithin(outbox.send('fake', ['a'], ACCOUNT, { until: 'end' }), 5_000);
    assert.deepStrictEqual(value.left.map((r) => [r.state, r.note]), [['failed', 'Source does not exist. (HTTP 404, code 10225).']]);
  });

  it('tells the progress from the start: how many of the writes reached the platform, of how many', async () => {
    const { outbox } = open();
    const told: string[] = [];
    await settleWithin(outbox.send('fake', ['a', 'b'], ACCOUNT, { onProgress: (done, total) => told.push(`${done}/${total}`) }), 5_000);
    assert.strictEqual(told[0], '0/2');
    assert.strictEqual(told[told.length - 1], '2/2');
  });

  it('follows a write already in the outbox as a new one is waited for', async () => {
    const { outbox, kind } = open();
    kind.answers = [rateLimited()];
    const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
    const { value } = await settleWithin(outbox.follow<string>(async () => [record], { until: 'end', atMostMs: 60_000 }), 60_000);
    assert.deepStrictEqual([value.finished.map((f) => [f.record.id, f.outcome]), value.left], [[[record.id, 'job-a']], []]);
  });

  it('a Cancel while the first write is on its way: the rest are taken back, and the wait stops without its answer', async () => {
    const { outbox, kind } = open();
    let left: Settled<string> | undefined;
    // The first call is held on its way (a slow platform): no answer until released.
    let release = () => undefined as void;
    const answered = new Promise<void>((r) => (release = r));
    const send = kind.send;
    kind.send = async (record) => {
      kind.send = send;
      await answered;
      return send(record);
    };
    const controller = new AbortController();
    const sending = outbox.send<string>('fake', ['a', 'b', 'c'], ACCOUNT, { until: 'end', signal: controller.signal });
    for (let i = 0; i < 10 && !outbox.all().some((r) => r.state === 'sending'); i++) await clock.tickAsync(10);
    assert.deepStrictEqual(outbox.all().map((r) => r.state), ['sending', 'queued', 'queued']);
    controller.abort();
    try {
      const { value } = await settleWithin(sending, 1_000);
      assert.deepStrictEqual(value.withdrawn.map((r) => r.payload), ['b', 'c'], 'the writes never sent, taken back');
      assert.deepStrictEqual(value.left.map((r) => [r.payload, r.state]), [['a', 'sending']], 'the one on its way, left to the outbox');
      assert.deepStrictEqual(value.finished, []);
      left = value;
    } finally {
      release();
    }
    await settleWithin(outbox.settled(outbox.all().map((r) => r.id)), 1_000);
    assert.deepStrictEqual(kind.sends, ['a'], 'nothing more sent after the Cancel');
    assert.deepStrictEqual(kind.finished, ['job-a'], 'the one on its way is made');
    // Made after the settle, before anyone listened: handed over once asked for (the caller shows it with the rest).
    const later: string[] = [];
    left!.later((f) => later.push(f.outcome));
    assert.deepStrictEqual(later, ['job-a']);
  });

  it('a write found after the settle ended (its answer lost, looked up later) is handed to `later` when found', async () => {
    const { outbox, kind } = open(true);
    kind.answers = [lost()];
    kind.lookupAnswers = [{ unknown: 'cannot tell yet' }, { found: 'job-found' }];
    const { value } = await settleWithin(outbox.send<string>('fake', ['a'], ACCOUNT), 5_000);
    assert.deepStrictEqual(value.left.map((r) => r.state), ['unsure']);
    const later: string[] = [];
    value.later((f) => later.push(f.outcome));
    assert.deepStrictEqual(later, []);
    for (let i = 0; i < 100 && !later.length; i++) await clock.tickAsync(100);
    assert.deepStrictEqual(later, ['job-found']);
  });

  it('the kinds it is built from have a name each: two of one name are refused', () => {
    assert.throws(() => new WriteKinds([new FakeKind(), new FakeKind()]), /Two kinds of write are named "fake"/);
  });
});
