// Run Task's snapshot read ahead (#43): while a task document with no problem is open, the project's newest tasks are
// read before the person clicks (`prepare`), so that the send waits for its own request only. A snapshot so read serves a send for a
// minute once the platform's time of the send is known; a task made by hand between the read and the send is still
// not the lost send's, since it was made before the send on the platform's clock.
import * as assert from 'assert';
import type { Page, Task } from '../../../src/api/types';
import type { CloneSnapshot } from '../../../src/tasks/newTaskIdentity';
import { createTaskWrite, type CreateTaskApi, type CreateTaskPayload } from '../../../src/tasks/taskWrites';
import type { WriteRecord } from '../../../src/write/outbox';
import { FakeClock } from '../../support/fakeClock';

const credentials = { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' };
const ACCOUNT = 'https://api.sbgenomics.com/v2#rfranklin';
const PROJECT = 'rfranklin/rna';
const payload: CreateTaskPayload = { run: true, task: { project: PROJECT, app: 'rfranklin/rna/bwa/3', name: 'BWA 1', inputs: { mode: 'strict' } } };
/** As the platform writes a task's `created_time`: rounded down to its second. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A project's tasks, newest first on request; counts the listings. */
class Project implements CreateTaskApi {
  readonly tasks: Task[] = [];
  listings = 0;
  private gate: Promise<void> | undefined;
  failNext = false;
  /** Holds the listings back until the returned function is called: a listing on its way. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return release;
  }
  add(name: string, at: number): Task {
    const t: Task = { href: '', id: `task-${this.tasks.length}`, name, app: payload.task.app, project: PROJECT, status: 'QUEUED', inputs: { mode: 'strict' }, created_time: iso(at) };
    this.tasks.push(t);
    return t;
  }
  async list(): Promise<Page<Task>> {
    this.listings++;
    await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the connection was reset');
    }
    const items = [...this.tasks].sort((a, b) => b.created_time!.localeCompare(a.created_time!));
    return { items, total: items.length, next: undefined };
  }
  async create(): Promise<Task> {
    throw new Error('not sent here');
  }
}

const record = (snapshot: CloneSnapshot): WriteRecord<CreateTaskPayload, CloneSnapshot, Task> & { snapshot: CloneSnapshot } =>
  ({ v: 2, id: 'w-1', kind: 'task.create', group: 'g', account: ACCOUNT, owner: 'o', state: 'unsure', payload, createdAt: 0, attempts: 1, resends: 0, snapshot }) as never;

function setUp(clockKnown = true) {
  const clock = new FakeClock(Date.UTC(2026, 10, 29, 12));
  const platform = new Project();
  platform.add('an old one', clock.trueNow() - 3_600_000);
  // The platform's clock, as the transport estimates it from the Date header: whole seconds, never ahead.
  const serverNow = () => (clockKnown ? Math.floor(clock.trueNow() / 1000) * 1000 : undefined);
  const { identity } = createTaskWrite(platform, clock, serverNow);
  if (identity.by !== 'difference' || !identity.prepare) throw new Error('Run Task\'s write is found by difference, with a read ahead');
  const readAhead = identity.prepare;
  return { clock, platform, identity, prepare: () => readAhead({ payload, account: ACCOUNT }, credentials), send: () => identity.snapshot(record({ before: [] }), credentials) };
}

describe('Run Task\'s snapshot, read ahead while its task document is open (#43)', () => {
  it('a send within the minute takes its snapshot from the read ahead: no request before its own', async () => {
    const { clock, platform, send, prepare } = setUp();
    await prepare();
    assert.strictEqual(platform.listings, 1);
    await clock.tickAsync(45_000);
    const snapshot = await send();
    assert.strictEqual(platform.listings, 1, 'no listing at the send');
    assert.deepStrictEqual(snapshot.before, ['task-0']);
    assert.strictEqual(snapshot.sentAt, Math.floor(clock.trueNow() / 1000) * 1000, 'the send\'s own time on the platform\'s clock');
  });

  it('a task of the same app, name and inputs made by hand between the read ahead and the send is not the lost send\'s; the send\'s own is', async () => {
    const { clock, platform, identity, prepare, send } = setUp();
    await prepare();
    await clock.tickAsync(20_000);
    platform.add('BWA 1', clock.trueNow());
    await clock.tickAsync(20_000);
    const lost = record(await send());
    await clock.tickAsync(5_000);
    assert.deepStrictEqual(await identity.find(lost, credentials, () => false), { absent: 'No task of this app, name and inputs shows in the project.' });
    const own = platform.add('BWA 1', clock.trueNow() - 5_000);
    assert.deepStrictEqual(await identity.find(lost, credentials, () => false), { found: own });
  });

  it('read again only once the one before is half a minute old; past the minute the send reads its own', async () => {
    const { clock, platform, send, prepare } = setUp();
    await prepare();
    await clock.tickAsync(20_000);
    await prepare();
    assert.strictEqual(platform.listings, 1, 'the one before is 20 s old');
    await clock.tickAsync(15_000);
    await prepare();
    assert.strictEqual(platform.listings, 2, '35 s old: read again');
    await clock.tickAsync(61_000);
    await send();
    assert.strictEqual(platform.listings, 3, 'a minute and more: the send reads its own');
  });

  it('the platform\'s clock not known yet: a read ahead serves a send no longer than any snapshot (10 s), since no time can be judged', async () => {
    const { clock, platform, send, prepare } = setUp(false);
    await prepare();
    await clock.tickAsync(5_000);
    await send();
    assert.strictEqual(platform.listings, 1, 'within 10 s it serves');
    await clock.tickAsync(10_000);
    await send();
    assert.strictEqual(platform.listings, 2, '15 s: the send reads its own');
  });

  it('a send while the read ahead is on its way waits for it instead of reading again; one that failed is read again by the send', async () => {
    const { platform, send, prepare } = setUp();
    const release = platform.hold();
    const ahead = prepare();
    const sending = send();
    release();
    await ahead;
    assert.deepStrictEqual((await sending).before, ['task-0']);
    assert.strictEqual(platform.listings, 1, 'one listing for both');

    const again = setUp();
    again.platform.failNext = true;
    await again.prepare().catch(() => undefined);
    await again.prepare();
    assert.strictEqual(again.platform.listings, 1, 'a read ahead that failed is not asked again at once (a project one may not read: every edit would ask)');
    assert.deepStrictEqual((await again.send()).before, ['task-0']);
    assert.strictEqual(again.platform.listings, 2, 'the send read its own');

    // Failing while a send waits for it: the send reads its own.
    const third = setUp();
    const open = third.platform.hold();
    third.platform.failNext = true;
    const failing = third.prepare().catch(() => undefined);
    const waiting = third.send();
    open();
    await failing;
    assert.deepStrictEqual((await waiting).before, ['task-0']);
    assert.strictEqual(third.platform.listings, 2);
  });

  it('kept apart by account and project: a read ahead serves neither another project\'s send nor another account\'s', async () => {
    const { clock, platform, identity, prepare } = setUp();
    await prepare();
    await clock.tickAsync(20_000);
    const elsewhere = { ...record({ before: [] }), payload: { ...payload, task: { ...payload.task, project: 'rfranklin/other' } } };
    await identity.snapshot(elsewhere, credentials);
    await identity.snapshot({ ...record({ before: [] }), account: 'https://api.sbgenomics.com/v2#kwatson' }, credentials);
    assert.strictEqual(platform.listings, 3);
  });

  it('a send\'s own snapshot, 10 s old, no longer serves: the read ahead after it reads again (Run Task, an edit, Run Task again)', async () => {
    const { clock, platform, send, prepare } = setUp();
    await send();
    await clock.tickAsync(5_000);
    await prepare();
    assert.strictEqual(platform.listings, 1, 'within 10 s the send\'s serves');
    await clock.tickAsync(7_000);
    await prepare();
    assert.strictEqual(platform.listings, 2, '12 s: read ahead again');
    await clock.tickAsync(40_000);
    await send();
    assert.strictEqual(platform.listings, 2, 'that one serves the send 40 s later');
  });

  it('a read ahead whose age this machine\'s clock does not see (it slept) serves no send past a minute of the platform\'s time', async () => {
    const { clock, platform, send, prepare } = setUp();
    await prepare();
    await clock.suspend(3_600_000);
    await send();
    assert.strictEqual(platform.listings, 2, 'an hour later on the platform: the send reads its own');
  });

  it('a send\'s own snapshot serves the sends of 10 s only (a bulk\'s), not a minute', async () => {
    const { clock, platform, send } = setUp();
    await send();
    await clock.tickAsync(11_000);
    await send();
    assert.strictEqual(platform.listings, 2);
  });
});
