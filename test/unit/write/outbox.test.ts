// The outbox's states with a fake kind and a fake clock: what is sent, when, and what never is.
import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import { Outbox } from '../../../src/write/outbox';
import { FakeKind } from '../../support/fakeWriteKind';
import { SharedGlobalState, type WindowState } from '../../support/sharedState';
import { FakeClock } from '../../support/fakeClock';

const ACCOUNT = { key: 'https://api.sbgenomics.com/v2#rfranklin', credentials: { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' } };

describe('Outbox', () => {
  let clock: FakeClock;
  let global: SharedGlobalState;
  const outboxes: Outbox[] = [];
  const open = (state: WindowState = global.window(), account: () => Promise<typeof ACCOUNT | undefined> = async () => ACCOUNT, idempotent = false) => {
    const kind = new FakeKind(idempotent);
    const outbox = new Outbox(state, account, [kind], clock, { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000, lateWindowMs: 20_000 });
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
    const stored: (string | undefined)[] = [];
    const send = kind.send;
    kind.send = async (r) => {
      stored.push(state.get<{ state: string }>(`sevenbridges.write.${r.id}`)?.state);
      return send(r);
    };
    const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
    assert.ok(state.keys().includes(`sevenbridges.write.${record.id}`), 'in global state before anything is sent');
    assert.deepStrictEqual(kind.sends, []);
    await clock.tickAsync(10);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a'], ['job-a']]);
    assert.deepStrictEqual(stored, ['sending'], 'global state read "sending" when the call left');
    assert.ok(marked.includes('sending'), `shown sending: ${marked.join()}`);
    assert.deepStrictEqual(outbox.all(), []);
    // What it made stays claimed a while, hidden (no other write's lookup may adopt it), then goes.
    assert.strictEqual(state.get<{ state: string }>(`sevenbridges.write.${record.id}`)?.state, 'done');
    await clock.tickAsync(10 * 60_000 + 1_000);
    assert.ok(!state.keys().some((k) => k.startsWith('sevenbridges.write.')));
  });

  it('the caller hears the answer as it comes: global state is not written again between the answer and the caller (#43)', async () => {
    // Each write takes 100 ms to be taken by the main process (VS Code's global state answers after a round trip);
    // the record's and its mark's ("sending", awaited before the call leaves) overlap.
    global = new SharedGlobalState(100, clock);
    const { outbox, kind } = open(global.window());
    const start = clock.now();
    let heardAfter: number | undefined;
    void outbox.send('fake', ['a'], ACCOUNT).then(() => (heardAfter = clock.now() - start));
    await clock.tickAsync(1_000);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a'], ['job-a']]);
    assert.ok(heardAfter !== undefined && heardAfter < 150, `heard after ${heardAfter} ms: the mark "sending" written (100 ms), then nothing more before the caller hears`);
    const stored = global.keys().filter((k) => k.startsWith('sevenbridges.write.'));
    assert.deepStrictEqual(stored.map((k) => (global.get(k) as { state: string }).state), ['done'], 'then written finished, what it made claimed');
  });

  it('prepare hands a write like the payload to its identity\'s read ahead, and records and sends nothing; a read ahead that fails costs nothing (#43)', async () => {
    const { outbox, kind, state } = open();
    await outbox.prepare('fake', 'a', ACCOUNT);
    assert.deepStrictEqual(kind.readAheads, [{ payload: 'a', account: ACCOUNT.key }]);
    kind.readAheadFails = true;
    await outbox.prepare('fake', 'b', ACCOUNT);
    await outbox.prepare('no such kind', 'c', ACCOUNT);
    await clock.tickAsync(1_000);
    assert.deepStrictEqual([kind.sends, kind.prepared, outbox.all()], [[], 0, []]);
    assert.ok(!state.keys().some((k) => k.startsWith('sevenbridges.write.')), 'nothing recorded');
    // A write found by its state (idempotent) has nothing to read ahead.
    const other = open(global.window(), async () => ACCOUNT, true);
    await other.outbox.prepare('fake', 'd', ACCOUNT);
    assert.deepStrictEqual(other.kind.readAheads, []);
  });

  it('a finished write is listed no more from the moment it finishes: what is shown then never says it is on its way (#44)', async () => {
    for (const idempotent of [false, true]) {
      const { outbox } = open(global.window(), async () => ACCOUNT, idempotent);
      const listed: string[][] = [];
      outbox.onDidFinish(() => listed.push(outbox.all().map((r) => r.state)));
      let last: string[] = [];
      outbox.onDidChange(() => (last = outbox.all().map((r) => r.state)));
      await outbox.submit('fake', ['a'], ACCOUNT);
      await clock.tickAsync(10);
      assert.deepStrictEqual(listed, [[]], idempotent ? 'a write that made nothing to claim' : 'a write whose claim is kept');
      assert.deepStrictEqual(last, []);
    }
  });

  it('a cancelled wait takes back the writes never sent; what was sent stays sent, and nothing more of the group leaves (#44)', async () => {
    const { outbox, kind } = open();
    // The second and third are held back (the API budget): queued, never tried.
    kind.holds = [0, 60_000, 60_000];
    const records = await outbox.submit('fake', ['a', 'b', 'c'], ACCOUNT);
    await clock.tickAsync(10);
    assert.deepStrictEqual(kind.sends, ['a']);
    const taken = await outbox.withdraw(records[0].group);
    assert.deepStrictEqual(taken.map((r) => r.payload), ['b', 'c']);
    await clock.tickAsync(120_000);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a'], ['job-a']], 'a sent and finished; b and c never sent');
    assert.deepStrictEqual(outbox.all(), []);
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
    // The transport measures the wait on the platform's clock (untilResetMs); the outbox never reads resetAt against its own.
    const reset = Math.floor(clock.now() / 1000) + 30;
    kind.answers = [new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded', resetAt: reset, untilResetMs: 30_000 }), new ApiError({ kind: 'http', status: 503, code: 0, message: 'Maintenance' })];
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

  it('a lookup reads the other writes\' claims once, however many items it lists, and still passes over what they claim', async () => {
    const { outbox, kind, state } = open();
    await outbox.submit('fake', Array.from({ length: 30 }, (_, i) => `w${i}`), ACCOUNT);
    await clock.tickAsync(100);
    assert.strictEqual(kind.finished.length, 30, 'their claims kept a while');
    let reads = 0;
    const get = state.get.bind(state);
    state.get = <T>(key: string): T | undefined => (reads++, get<T>(key));
    let readsWhileListing = -1;
    const listed = ['job-w3', ...Array.from({ length: 200 }, (_, i) => `job-listed-${i}`)];
    const find = async (_record: unknown, _credentials: unknown, taken: (id: string) => boolean) => {
      const before = reads;
      const free = listed.filter((id) => !taken(id));
      readsWhileListing = reads - before;
      return { found: free[0] };
    };
    (kind as unknown as { identity: object }).identity = { ...kind.identity, find };
    kind.answers = [new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true })];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(kind.finished.slice(30), ['job-listed-0'], 'what another write claims is not adopted');
    assert.ok(readsWhileListing >= 0 && readsWhileListing <= 2 * 31, `${readsWhileListing} reads of global state for 201 items listed beside 31 records`);
  });

  it('an ambiguous answer is not a "no": a write that is not idempotent is looked for through the late window, never sent again, then the person decides', async () => {
    const { outbox, kind } = open();
    kind.answers = [new ApiError({ kind: 'timeout', message: 'timed out', maybeDelivered: true })];
    kind.lookupAnswers = Array.from({ length: 30 }, () => ({ absent: 'No job matches it.' }));
    const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(19_000);
    assert.deepStrictEqual([kind.sends, outbox.all().map((r) => r.state)], [['a'], ['unsure']], 'still looked for within the window');
    await clock.tickAsync(10_000);
    assert.deepStrictEqual(kind.sends, ['a'], 'never sent again by itself');
    assert.deepStrictEqual(outbox.all().map((r) => r.state), ['notFound']);
    assert.match(outbox.all()[0].note!, /^Not found on the platform after [0-9 a-z]+\. No job matches it\. Submit again\?$/);
    await outbox.resubmit(record.group);
    await clock.tickAsync(100);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a', 'a'], ['job-a']], 'Submit Again sends it once more');
  });

  it('an idempotent write whose lookup shows it not done is sent again, at most three times, then the person decides', async () => {
    const { outbox, kind } = open(undefined, undefined, true);
    const lost = () => new ApiError({ kind: 'timeout', message: 'timed out', maybeDelivered: true });
    kind.answers = [lost(), lost(), lost(), lost()];
    kind.lookupAnswers = [1, 2, 3, 4].map(() => ({ absent: 'The task still runs.' }));
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(60_000);
    assert.deepStrictEqual(kind.sends, ['a', 'a', 'a', 'a']);
    assert.deepStrictEqual(outbox.all().map((r) => r.state), ['notFound']);
  });

  it('when global state refuses to record "sending", no POST goes out: it waits and tries to record it again', async () => {
    const { outbox, kind, state } = open();
    state.refuse = (_key, value) => (value as { state?: string } | undefined)?.state === 'sending';
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(30_000);
    assert.deepStrictEqual(kind.sends, [], 'not sent while it cannot be marked as on its way');
    assert.match(outbox.all()[0].note!, /could not record it/);
    state.refuse = undefined;
    await clock.tickAsync(5_000);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a'], ['job-a']]);
  });

  it('a record missing from global state (VS Code may echo an older value back, for a moment or for good) is never sent while missing: made here, it is recorded again, then sent once', async () => {
    const { outbox, kind, state } = open();
    // Submitted; the loop has not run yet (it runs on the next timer).
    const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
    const key = `sevenbridges.write.${record.id}`;
    let hidden = true;
    const get = state.get.bind(state);
    // Global state shows an older value without it, as after an echo.
    state.get = <T>(k: string) => (k === key && hidden ? undefined : get<T>(k));
    let settled = false;
    void outbox.settled([record.id]).then(() => (settled = true));
    await clock.tickAsync(1);
    assert.deepStrictEqual([kind.sends, settled], [[], false], 'not sent while missing, and still on its way for the command that waits');
    await clock.tickAsync(3_000);
    assert.deepStrictEqual([kind.sends, settled], [[], false], 'however long it is missing');
    hidden = false;
    await clock.tickAsync(1_000);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a'], ['job-a']], 'sent once it shows again');
    state.get = get;
    state.apply(key, undefined);
    await outbox.submit('fake', ['b'], ACCOUNT);
    const [lostForGood] = outbox.all();
    state.apply(`sevenbridges.write.${lostForGood.id}`, undefined);
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(kind.sends, ['a', 'b'], 'lost for good by global state: recorded again from memory and sent, once');
    assert.ok(!state.keys().includes(`sevenbridges.write.${lostForGood.id}`) || state.get<{ state: string }>(`sevenbridges.write.${lostForGood.id}`)?.state === 'done');
  });

  it('a write taken over from a closed window whose record then goes (finished there) is let go, never sent or looked up', async () => {
    const first = open();
    first.kind.answers = [new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded', untilResetMs: 60_000 })];
    const [record] = await first.outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    first.outbox.dispose();
    const second = open();
    await clock.tickAsync(3_000);
    assert.ok(second.outbox.owns(second.outbox.all()[0]), 'taken over, waiting for the reset');
    second.state.apply(`sevenbridges.write.${record.id}`, undefined);
    await clock.tickAsync(120_000);
    assert.deepStrictEqual([first.kind.sends, second.kind.sends, second.kind.lookups, second.outbox.all()], [['a'], [], [], []]);
  });

  it('an error that is not an ApiError, thrown after the POST left, leads to a lookup, not to "failed"', async () => {
    const { outbox, kind } = open();
    kind.answers = [new TypeError('a bug after the request left')];
    kind.lookupAnswers = [{ found: 'job-a' }];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(10);
    assert.deepStrictEqual(outbox.all().map((r) => [r.state, r.note]), [['unsure', 'a bug after the request left']]);
    await clock.tickAsync(2_000);
    assert.deepStrictEqual([kind.sends, kind.lookups, kind.finished], [['a'], ['a'], ['job-a']]);
  });

  it('a refusal after an ambiguous try is checked, not believed; an answer that proves it done (a DELETE\'s 404) finishes it', async () => {
    const { outbox, kind } = open(undefined, undefined, true);
    const gone = new ApiError({ kind: 'http', status: 404, code: 5002, message: 'Requested file does not exist.' });
    (kind as FakeKind & { doneBy?: (e: ApiError) => string | undefined }).doneBy = (e) => (e.status === 404 ? 'deleted' : undefined);
    kind.answers = [new ApiError({ kind: 'timeout', message: 'timed out', maybeDelivered: true }), gone];
    kind.lookupAnswers = [{ absent: 'still there' }];
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(5_000);
    assert.deepStrictEqual([kind.sends, kind.finished], [['a', 'a'], ['deleted']]);
    const refused = open(undefined, undefined, true);
    refused.kind.answers = [gone];
    await refused.outbox.submit('fake', ['b'], ACCOUNT);
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(refused.outbox.all().map((r) => r.state), ['failed'], 'a 404 on a first try is a refusal');
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
    await state.update('sevenbridges.write.x', { v: 2, id: 'x', kind: 'fake', group: 'g', account: ACCOUNT.key, owner: 'other', state: 'sending', payload: 'b', createdAt: 0, attempts: 1, resends: 0 });
    await outbox.submit('fake', ['a'], ACCOUNT);
    await clock.tickAsync(3_000);
    assert.deepStrictEqual(kind.lookups, []);
    await state.update('sevenbridges.write.x', undefined);
    await clock.tickAsync(2_000);
    assert.deepStrictEqual(kind.lookups, ['a']);
  });

  describe('what a lookup proves, and what is read back (issue 37)', () => {
    const lost = () => new ApiError({ kind: 'timeout', message: 'timed out', maybeDelivered: true });

    it('a lookup that sees someone else\'s change (or the thing gone) leaves the write to the person: never sent again by itself; Submit Again sends it', async () => {
      const { outbox, kind } = open(undefined, undefined, true);
      kind.answers = [lost()];
      kind.lookupAnswers = [{ changed: 'It is named "c.bam" now: someone else renamed it since.' }];
      const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
      await clock.tickAsync(60_000);
      assert.deepStrictEqual(kind.sends, ['a'], 'not overwritten');
      assert.deepStrictEqual(outbox.all().map((r) => [r.state, r.note]), [['changed', 'It is named "c.bam" now: someone else renamed it since.']]);
      await outbox.resubmit(record.group);
      await clock.tickAsync(100);
      assert.deepStrictEqual([kind.sends, kind.finished], [['a', 'a'], ['job-a']], 'on the person\'s word');
    });

    it('a write of many items the platform applied in part: only the rest the lookup names is sent again', async () => {
      const { outbox, kind } = open(undefined, undefined, true);
      kind.answers = [lost()];
      kind.lookupAnswers = [{ absent: 'Two of three not done yet.', rest: 'bc' }];
      await outbox.submit('fake', ['abc'], ACCOUNT);
      await clock.tickAsync(10_000);
      assert.deepStrictEqual([kind.sends, kind.finished], [['abc', 'bc'], ['job-bc']]);
    });

    it('a destructive write (a DELETE) is not sent again while a late one may act: looked up through the whole late window first', async () => {
      const late = open(undefined, undefined, true);
      late.kind.destructive = true;
      late.kind.answers = [lost()];
      // Still there at every lookup until the platform acts late on the first DELETE.
      late.kind.lookupAnswers = [{ absent: 'still there' }, { absent: 'still there' }, { absent: 'still there' }, { found: 'gone' }];
      await late.outbox.submit('fake', ['a'], ACCOUNT);
      await clock.tickAsync(19_000);
      assert.deepStrictEqual([late.kind.sends, late.kind.finished], [['a'], ['gone']], 'sent once');
      const never = open(undefined, undefined, true);
      never.kind.destructive = true;
      never.kind.answers = [lost()];
      never.kind.lookupAnswers = Array.from({ length: 20 }, () => ({ absent: 'still there' }));
      await never.outbox.submit('fake', ['b'], ACCOUNT);
      await clock.tickAsync(19_000);
      assert.deepStrictEqual(never.kind.sends, ['b'], 'not within the late window (20 s here)');
      await clock.tickAsync(10_000);
      assert.deepStrictEqual(never.kind.sends, ['b', 'b'], 'after it: not acted on late, sent again');
    });

    it('a refusal the kind checks (an upload completed elsewhere answers 404) is looked up on a first try, not believed', async () => {
      const { outbox, kind } = open(undefined, undefined, true);
      kind.verifyRefusal = (error) => error.status === 404;
      kind.answers = [new ApiError({ kind: 'http', status: 404, message: 'Upload not found.' })];
      kind.lookupAnswers = [{ found: 'made-elsewhere' }];
      await outbox.submit('fake', ['a'], ACCOUNT);
      await clock.tickAsync(5_000);
      assert.deepStrictEqual([kind.sends, kind.finished, outbox.all()], [['a'], ['made-elsewhere'], []]);
    });

    for (const damaged of ['text', {}, [], null]) {
      it(`a snapshot stored damaged (${JSON.stringify(damaged)}) is dropped: nothing is adopted without one, the person decides after the late window`, async () => {
        const state = global.window();
        await state.update('sevenbridges.writer.wgone', { seq: 1, at: 0, closed: true });
        await state.update('sevenbridges.write.old', { v: 2, id: 'old', kind: 'fake', group: 'g-old', account: ACCOUNT.key, owner: 'wgone', state: 'unsure', ambiguous: true, payload: 'a', snapshot: damaged, createdAt: 1, attempts: 1, resends: 0 });
        const { outbox, kind } = open(state);
        // What a lookup would find: an older thing of the same kind, not this write's.
        kind.lookupAnswers = Array.from({ length: 20 }, () => ({ found: 'older' }));
        await clock.tickAsync(30_000);
        assert.deepStrictEqual([kind.lookups, kind.finished, kind.sends], [[], [], []], 'never looked for without a snapshot, never adopted');
        const [left] = outbox.all();
        assert.ok(outbox.owns(left), 'taken over from the closed window');
        assert.strictEqual(left.state, 'notFound');
        assert.match(left.note!, /nothing noted before it was sent can tell what it made apart/);
      });
    }

    it('a write "sent" in a closed window whose stored outcome cannot be read is shown damaged, never handed over for ever; Discard forgets it', async () => {
      const state = global.window();
      await state.update('sevenbridges.writer.wgone', { seq: 1, at: 0, closed: true });
      await state.update('sevenbridges.write.sent1', { v: 2, id: 'sent1', kind: 'fake', group: 'g-sent', account: ACCOUNT.key, owner: 'wgone', state: 'sent', payload: 'a', outcome: null, createdAt: 1, attempts: 1, resends: 0 });
      const { outbox, kind } = open(state);
      kind.isOutcome = (o): o is string => typeof o === 'string';
      await clock.tickAsync(30_000);
      assert.deepStrictEqual([kind.finished, kind.sends], [[], []]);
      const [shown] = outbox.all();
      assert.deepStrictEqual([shown.state, shown.problem], ['failed', 'corrupt']);
      assert.match(shown.note!, /^It reached the platform, but what the platform answered cannot be read back/);
      await outbox.discard('g-sent');
      assert.deepStrictEqual(outbox.all(), []);
    });

    it('Discard works on a write that reached the platform ("sent": its kind cannot take it yet); what it made stays claimed', async () => {
      const { outbox, kind, state } = open();
      kind.finish = () => {
        throw new TypeError('the view cannot show it');
      };
      const [record] = await outbox.submit('fake', ['a'], ACCOUNT);
      await clock.tickAsync(5_000);
      assert.deepStrictEqual(outbox.all().map((r) => r.state), ['sent']);
      await outbox.discard(record.group);
      assert.deepStrictEqual(outbox.all(), []);
      const kept = state.get<{ state: string; claim: unknown }>(`sevenbridges.write.${record.id}`);
      assert.deepStrictEqual([kept?.state, kept?.claim], ['done', { id: 'job-a', how: 'answered' }]);
      await clock.tickAsync(30_000);
      assert.deepStrictEqual(kind.sends, ['a'], 'not sent again');
    });
  });

  describe('takeovers: pinned down (issue 37)', () => {
    /** The window ID a state's outbox beats as (the key of its heartbeat). */
    const beatKeys = (state: WindowState) => {
      const keys: string[] = [];
      const update = state.update.bind(state);
      state.update = (key: string, value: unknown) => {
        if (key.startsWith('sevenbridges.writer.') && !keys.includes(key)) keys.push(key);
        return update(key, value);
      };
      return () => keys[0]?.slice('sevenbridges.writer.'.length);
    };

    it('a bid is judged after the settle time: a lower window\'s bid that shows meanwhile wins, this window does not take the write', async () => {
      const state = global.window();
      await state.update('sevenbridges.writer.wgone', { seq: 1, at: 0, closed: true });
      await state.update('sevenbridges.write.orphan', { v: 2, id: 'orphan', kind: 'fake', group: 'g', account: ACCOUNT.key, owner: 'wgone', state: 'queued', payload: 'a', createdAt: 1, attempts: 0, resends: 0 });
      const idOf = beatKeys(state);
      const { outbox, kind } = open(state);
      // Half a second after this window bids, within the settle time, a window with a lower ID (its beat not seen
      // before: global state brought it late) shows its bid too.
      const lower = 'w';
      let bidSeen = false;
      const update = state.update.bind(state);
      state.update = (key: string, value: unknown) => {
        const done = update(key, value);
        if (!bidSeen && key.startsWith('sevenbridges.writeBid.orphan#')) {
          bidSeen = true;
          clock.setTimeout(() => {
            void update(`sevenbridges.writer.${lower}`, { seq: 1, account: ACCOUNT.key, at: clock.now() });
            void update(`sevenbridges.writeBid.orphan#${lower}`, { at: clock.now() });
          }, 500);
        }
        return done;
      };
      await clock.tickAsync(2_400);
      assert.ok(bidSeen && idOf()! > lower, 'this window bid');
      // The lower window keeps beating; it takes the write (the test plays it: it writes the record as its own).
      for (let i = 0; i < 3; i++) {
        await clock.tickAsync(1_000);
        void update(`sevenbridges.writer.${lower}`, { seq: 2 + i, account: ACCOUNT.key, at: clock.now() });
      }
      assert.deepStrictEqual([kind.sends, outbox.all().filter((r) => outbox.owns(r))], [[], []], 'not taken, not sent by this window');
    });

    it('a signed-out window is alive for no account: a lower one does not block the signed-in window\'s takeover', async () => {
      const signedOut: { state?: WindowState } = {};
      const as = (state: WindowState) => async () => (state === signedOut.state ? undefined : ACCOUNT);
      const [x, y] = [global.window(), global.window()];
      const [idX, idY] = [beatKeys(x), beatKeys(y)];
      const wx = open(x, as(x));
      const wy = open(y, as(y));
      // An orphan of a closed window: both see it and beat.
      const seeder = global.window();
      await seeder.update('sevenbridges.writer.wgone', { seq: 1, at: 0, closed: true });
      wx.kind.answers = [new ApiError({ kind: 'http', status: 429, code: 1000, message: 'x', untilResetMs: 600_000 })];
      await wx.outbox.submit('fake', ['z'], ACCOUNT);
      await clock.tickAsync(2_000);
      // The window with the lower ID signs out; the other stays signed in.
      signedOut.state = idX()! < idY()! ? x : y;
      const signedIn = signedOut.state === x ? wy : wx;
      await clock.tickAsync(2_000);
      await seeder.update('sevenbridges.write.orphan', { v: 2, id: 'orphan', kind: 'fake', group: 'g-orphan', account: ACCOUNT.key, owner: 'wgone', state: 'queued', payload: 'a', createdAt: 1, attempts: 0, resends: 0 });
      await clock.tickAsync(30_000);
      assert.deepStrictEqual([...wx.kind.sends, ...wy.kind.sends].filter((p) => p === 'a'), ['a'], 'taken over and sent, once');
      assert.ok(signedIn.kind.sends.includes('a'), 'by the signed-in window');
    });
  });

  describe('the kinds loaded when a record first needs them (issue 43: dist/main.js without their code)', () => {
    const OPTIONS = { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 500, lookupDelayMs: 200, maxWaitMs: 4_000, lateWindowMs: 20_000 };
    /** An outbox whose kinds come from a loader that counts its calls (and fails while `failing` says so). */
    const lazy = (state: WindowState = global.window()) => {
      const kind = new FakeKind();
      const loads = { count: 0, failing: 0 };
      const outbox = new Outbox(
        state,
        async () => ACCOUNT,
        async () => {
          loads.count++;
          if (loads.failing-- > 0) throw new Error('dist/features.js could not be read');
          return [kind];
        },
        clock,
        OPTIONS,
      );
      outbox.start();
      outboxes.push(outbox);
      return { outbox, kind, loads };
    };

    it('nothing in global state: not loaded by the start nor by the heartbeats; the first write loads them, once, and is sent', async () => {
      const { outbox, kind, loads } = lazy();
      await clock.tickAsync(30_000);
      assert.deepStrictEqual([loads.count, outbox.all()], [0, []]);
      await outbox.submit('fake', ['a'], ACCOUNT);
      await outbox.submit('fake', ['b'], ACCOUNT);
      await clock.tickAsync(10);
      assert.deepStrictEqual([loads.count, kind.sends, kind.finished], [1, ['a', 'b'], ['job-a', 'job-b']]);
    });

    it('a write a reload left: loaded at the start, the write listed once they are (a change said) and sent', async () => {
      const state = global.window();
      await state.update('sevenbridges.writer.wgone', { seq: 1, at: 0, closed: true });
      await state.update('sevenbridges.write.left', { v: 2, id: 'left', kind: 'fake', group: 'g-left', account: ACCOUNT.key, owner: 'wgone', state: 'queued', payload: 'a', createdAt: 1, attempts: 0, resends: 0 });
      const { outbox, kind, loads } = lazy(state);
      const listed: string[][] = [];
      outbox.onDidChange(() => listed.push(outbox.all().map((r) => r.id)));
      await clock.tickAsync(1);
      assert.strictEqual(loads.count, 1);
      assert.deepStrictEqual(listed[0], ['left'], 'listed as soon as the kinds are in, never as from a newer version');
      await clock.tickAsync(10_000);
      assert.deepStrictEqual([kind.sends, kind.finished, outbox.all()], [['a'], ['job-a'], []]);
    });

    it('another window\'s write, recorded later: loaded by the next heartbeat, shown read-only, never sent here', async () => {
      const first = lazy();
      const second = lazy();
      await clock.tickAsync(5_000);
      first.kind.answers = [new ApiError({ kind: 'http', status: 429, code: 1000, message: 'x', untilResetMs: 600_000 })];
      const [record] = await first.outbox.submit('fake', ['a'], ACCOUNT);
      assert.strictEqual(second.loads.count, 0);
      await clock.tickAsync(1_500);
      assert.strictEqual(second.loads.count, 1);
      assert.deepStrictEqual(second.outbox.all().map((r) => [r.id, second.outbox.owns(r)]), [[record.id, false]]);
      await clock.tickAsync(30_000);
      assert.deepStrictEqual([first.kind.sends, second.kind.sends, second.kind.lookups], [['a'], [], []]);
    });

    it('a load that fails: the write is refused before anything is recorded; the next one loads them and is sent', async () => {
      const state = global.window();
      const { outbox, kind, loads } = lazy(state);
      loads.failing = 1;
      await assert.rejects(outbox.submit('fake', ['a'], ACCOUNT), /could not be read/);
      assert.ok(!state.keys().some((k) => k.startsWith('sevenbridges.write.')), 'nothing recorded');
      await outbox.submit('fake', ['b'], ACCOUNT);
      await clock.tickAsync(10);
      assert.deepStrictEqual([loads.count, kind.sends], [2, ['b']]);
    });
  });
});
