// The outbox's states with a fake kind and a fake clock: what is sent, when, and what never is.
import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import { Outbox, type Lookup, type WriteKind, type WriteRecord } from '../../../src/write/outbox';
import { SharedGlobalState, type WindowState } from '../../support/sharedState';
import { FakeClock } from '../../support/fakeClock';

const ACCOUNT = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 't' } };

/** A kind whose answers the test scripts: each send takes the next answer (a result, or an error to throw). */
class FakeKind implements WriteKind<string, number, string> {
  readonly name = 'fake';
  sends: string[] = [];
  lookups: string[] = [];
  finished: string[] = [];
  answers: (string | Error)[] = [];
  lookupAnswers: Lookup<string>[] = [];
  prepared = 0;
  /** The wait each send is held back by (bulk work pacing itself to the API budget); none once used up. */
  holds: number[] = [];
  async prepare(): Promise<number> {
    this.prepared++;
    return 1;
  }
  hold(): number {
    return this.holds.shift() ?? 0;
  }
  async send(record: WriteRecord<string>): Promise<string> {
    this.sends.push(record.payload);
    const answer = this.answers.shift() ?? `job-${record.payload}`;
    if (answer instanceof Error) throw answer;
    return answer;
  }
  async lookup(record: WriteRecord<string>): Promise<Lookup<string>> {
    this.lookups.push(record.payload);
    return this.lookupAnswers.shift() ?? { unknown: 'cannot tell yet' };
  }
  finish(_record: WriteRecord<string>, outcome: string): void {
    this.finished.push(outcome);
  }
}

describe('Outbox', () => {
  let clock: FakeClock;
  let global: SharedGlobalState;
  const outboxes: Outbox[] = [];
  const open = (state: WindowState = global.window(), account: () => Promise<typeof ACCOUNT | undefined> = async () => ACCOUNT) => {
    const kind = new FakeKind();
    const outbox = new Outbox(state, account, clock, { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000 });
    outbox.register(kind);
    outbox.start();
    outboxes.push(outbox);
    return { outbox, kind, state };
  };

  beforeEach(() => {
    clock = new FakeClock(Date.UTC(2026, 0, 1));
    global = new SharedGlobalState();
  });
  afterEach(() => outboxes.splice(0).forEach((o) => o.dispose()));

  it('records a write before it is sent, sends it once, hands its outcome over and forgets it', async () => {
    const { outbox, kind, state } = open();
    const marked: string[] = [];
    outbox.onDidChange(() => marked.push(...outbox.all().map((r) => r.state)));
    const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
    assert.ok(state.keys().includes(`sevenbridges.write.${record.id}`), 'in global state before anything is sent');
    assert.deepStrictEqual(kind.sends, []);
    await clock.tickAsync(10);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a'], ['job-a']]);
    assert.ok(marked.indexOf('sending') < marked.indexOf('sent'), `marked sending before the answer: ${marked.join()}`);
    assert.deepStrictEqual(outbox.all(), []);
    assert.ok(!state.keys().some((k) => k.startsWith('sevenbridges.write.')));
  });

  it('a refusal (4xx) is kept as failed and never sent again by itself; Submit Again sends it once more', async () => {
    const { outbox, kind } = open();
    kind.answers = [new ApiError({ kind: 'http', status: 404, code: 10225, message: 'Source does not exist.' })];
    const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(60_000);
    assert.deepStrictEqual(kind.sends, ['a']);
    assert.deepStrictEqual(outbox.all().map((r) => [r.state, r.note]), [['failed', 'Source does not exist. (HTTP 404, code 10225).']]);
    await outbox.resubmit(record.group);
    await clock.tickAsync(10);
    assert.deepStrictEqual(kind.sends, ['a', 'a']);
    assert.deepStrictEqual(outbox.all(), []);
  });

  it('after a 429 it waits for the reset, then sends again by itself; after maintenance it backs off and does too', async () => {
    const { outbox, kind } = open();
    const reset = Math.floor(clock.now() / 1000) + 30;
    kind.answers = [new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded', resetAt: reset }), new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance' })];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    assert.deepStrictEqual(outbox.all().map((r) => r.state), ['queued']);
    await clock.tickAsync(29_000);
    assert.deepStrictEqual(kind.sends, ['a'], 'not before the reset');
    await clock.tickAsync(2_100);
    assert.deepStrictEqual(kind.sends, ['a', 'a'], 'sent after the reset');
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(kind.sends, ['a', 'a', 'a'], 'and after the maintenance back-off');
    assert.deepStrictEqual(kind.finished, ['job-a']);
  });

  it('a write its kind holds back (paced to the API budget) is queued until then, saying why; nothing is prepared or sent before', async () => {
    const { outbox, kind } = open();
    kind.holds = [60_000, 60_000];
    const [a, b] = await outbox.submit('fake', ['a', 'b'], ACCOUNT);
    await clock.tickAsync(10);
    assert.deepStrictEqual([kind.prepared, kind.sends], [0, []]);
    const held = outbox.all();
    assert.deepStrictEqual(held.map((r) => [r.id, r.state, r.notBefore]), [[a.id, 'queued', a.createdAt + 60_000], [b.id, 'queued', a.createdAt + 60_000]]);
    assert.ok(held.every((r) => r.note?.includes('API budget')), held.map((r) => r.note).join());
    await clock.tickAsync(59_000);
    assert.deepStrictEqual(kind.sends, [], 'not before the hold is over');
    await clock.tickAsync(1_100);
    assert.deepStrictEqual(kind.sends, ['a', 'b'], 'then sent, in order');
    assert.deepStrictEqual(outbox.all(), []);
  });

  it('a lost answer is looked up, never sent again while the lookup cannot tell; found: adopted', async () => {
    const { outbox, kind } = open();
    kind.answers = [new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true })];
    kind.lookupAnswers = [{ unknown: 'a job without results' }, { unknown: 'a job without results' }, { found: 'job-found' }];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(kind.sends, ['a'], 'one POST');
    assert.strictEqual(kind.lookups.length, 3);
    assert.deepStrictEqual(kind.finished, ['job-found']);
  });

  it('a lookup that proves the call absent sends it again, at most three times, then asks', async () => {
    const { outbox, kind } = open();
    const lost = () => new ApiError({ kind: 'timeout', message: 'timed out', maybeDelivered: true });
    kind.answers = [lost(), lost(), lost(), lost()];
    kind.lookupAnswers = [1, 2, 3, 4].map(() => ({ absent: 'No copy job matches it.' }));
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(60_000);
    assert.deepStrictEqual(kind.sends, ['a', 'a', 'a', 'a']);
    assert.deepStrictEqual(outbox.all().map((r) => r.state), ['failed']);
  });

  it('another window shows the write read-only: it neither sends it nor discards it while its owner beats', async () => {
    const first = open();
    first.kind.answers = [new ApiError({ kind: 'http', status: 429, code: 1000, message: 'x', resetAt: Math.floor(clock.now() / 1000) + 20 })];
    const [record] = await first.outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    const second = open();
    await clock.tickAsync(10);
    assert.deepStrictEqual(second.outbox.all().map((r) => r.id), [record.id]);
    assert.strictEqual(second.outbox.owns(second.outbox.all()[0]), false);
    await second.outbox.resubmit(record.group);
    await second.outbox.discard(record.group);
    await clock.tickAsync(30_000);
    assert.deepStrictEqual([first.kind.sends, second.kind.sends, second.kind.lookups], [['a', 'a'], [], []]);
  });

  it('a write left on its way by a closed window is taken over once the POST could have been answered, looked up first, not sent', async () => {
    const first = open();
    first.kind.send = () => new Promise(() => undefined); // the POST never comes back: the window closes meanwhile
    await first.outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    first.outbox.dispose();
    const second = open();
    second.kind.lookupAnswers = [{ found: 'job-a' }];
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(second.kind.lookups, [], 'its heartbeat is left to go stale while its POST is on its way');
    await clock.tickAsync(6_000);
    assert.deepStrictEqual([second.kind.sends, second.kind.lookups, second.kind.finished], [[], ['a'], ['job-a']]);
  });

  it('two windows taking over the same orphan: one of them sends it, once', async () => {
    const first = open();
    first.kind.answers = [new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance' })];
    await first.outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    first.outbox.dispose();
    const [second, third] = [open(), open()];
    await clock.tickAsync(10_000);
    assert.deepStrictEqual([...second.kind.sends, ...third.kind.sends], ['a']);
    assert.deepStrictEqual([...second.kind.finished, ...third.kind.finished], ['job-a']);
  });

  it('writes of an account not in use make no work: the loop sleeps, asks the account once a beat', async () => {
    let asked = 0;
    let account: typeof ACCOUNT | undefined = ACCOUNT;
    const { outbox, kind } = open(undefined, async () => {
      asked++;
      return account;
    });
    kind.answers = [new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance' })];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    account = { ...ACCOUNT, key: 'https://api.sbgenomics.com/v2#colleague' };
    asked = 0;
    await clock.tickAsync(10_000);
    assert.ok(asked <= 12, `the account was asked ${asked} times in 10 s`);
    account = undefined;
    asked = 0;
    await clock.tickAsync(10_000);
    assert.ok(asked <= 12, `signed out: asked ${asked} times in 10 s`);
    assert.deepStrictEqual(kind.sends, ['a']);
  });

  it('a write of another account waits, untouched, until that account is back', async () => {
    let account: typeof ACCOUNT | undefined = ACCOUNT;
    const { outbox, kind } = open(undefined, async () => account);
    kind.answers = [new ApiError({ kind: 'network', message: 'reset', maybeDelivered: true })];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    account = { ...ACCOUNT, key: 'https://api.sbgenomics.com/v2#colleague' };
    kind.lookupAnswers = [{ found: 'job-a' }];
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(kind.lookups, [], 'not looked up as the colleague');
    account = ACCOUNT;
    outbox.poke();
    await clock.tickAsync(1_000);
    assert.deepStrictEqual([kind.lookups, kind.finished], [['a'], ['job-a']]);
  });

  it('while another write of the account is on its way, a lookup waits (its outcome could be that write\'s)', async () => {
    const { outbox, kind, state } = open();
    kind.answers = [new ApiError({ kind: 'network', message: 'reset', maybeDelivered: true })];
    kind.lookupAnswers = [{ found: 'job-a' }];
    // Another window's write, on its way, with a fresh heartbeat.
    await state.update('sevenbridges.writer.other', clock.now());
    await state.update('sevenbridges.write.x', { id: 'x', kind: 'fake', group: 'g', account: ACCOUNT.key, owner: 'other', state: 'sending', payload: 'b', createdAt: 0, attempts: 1, resends: 0 });
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(3_000);
    assert.deepStrictEqual(kind.lookups, []);
    await state.update('sevenbridges.write.x', undefined);
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(kind.lookups, ['a']);
  });
});
