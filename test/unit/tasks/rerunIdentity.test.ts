// The re-run's identity rule (tasks/actions.ts, `rerunWrite`): what makes a clone this write's own (issue 37, items 5
// and 6). A snapshot serves the sends of 10 s (a bulk re-run); a clone made by hand between that snapshot and this
// write's send appeared since the snapshot too, but was made before the send on the platform's clock.
import * as assert from 'assert';
import type { Page, Task } from '../../../src/api/types';
import { rerunWrite, type TaskActionApi, type TaskActionPayload } from '../../../src/tasks/actions';
import { isCloneSnapshot, type CloneSnapshot } from '../../../src/tasks/newTaskIdentity';
import type { WriteRecord } from '../../../src/write/outbox';
import { FakeClock } from '../../support/fakeClock';

const credentials = { endpoint: 'https://api.sbgenomics.com/v2', token: 'a-token-of-the-test' };
const PROJECT = 'rfranklin/rna';
/** As the platform writes a task's `created_time`: rounded down to its second. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A project's tasks, newest first on request, each with its platform time of creation. */
class Project implements TaskActionApi {
  readonly tasks: Task[] = [];
  add(name: string, at: number): Task {
    const t: Task = { href: '', id: `task-${this.tasks.length}`, name, app: 'rfranklin/rna/bwa/3', project: PROJECT, status: 'QUEUED', created_time: iso(at) };
    this.tasks.push(t);
    return t;
  }
  async list(): Promise<Page<Task>> {
    const items = [...this.tasks].sort((a, b) => b.created_time!.localeCompare(a.created_time!));
    return { items, total: items.length, next: undefined };
  }
  async get(): Promise<Task> {
    throw new Error('not read here');
  }
  async action(): Promise<Task> {
    throw new Error('not sent here');
  }
}

const record = (payload: TaskActionPayload, snapshot: CloneSnapshot): WriteRecord<TaskActionPayload, CloneSnapshot, Task> & { snapshot: CloneSnapshot } =>
  ({ v: 2, id: `w-${payload.task.id}`, kind: 'taskAction.rerunFailed', group: 'g', account: 'e#u', owner: 'o', state: 'unsure', payload, createdAt: 0, attempts: 1, resends: 0, snapshot }) as never;

describe('the re-run\'s clone: appeared since the snapshot, and made no earlier than its own send', () => {
  for (const between of [3_000, 6_000, 9_000]) {
    it(`a child re-run by hand just after a snapshot the bulk's dropped call reuses ${between / 1000} s later is not adopted; the call's own clone is`, async () => {
      const clock = new FakeClock();
      const platform = new Project();
      // The platform's clock, as the transport estimates it from the Date header: whole seconds, never ahead.
      const serverNow = () => Math.floor(clock.trueNow() / 1000) * 1000;
      const first = platform.add('child 1', clock.trueNow() - 3_600_000);
      const second = platform.add('child 2', clock.trueNow() - 3_600_000);
      const kind = rerunWrite(platform, clock, serverNow);
      assert.ok(kind.identity.by === 'difference');
      const payload = (t: Task): TaskActionPayload => ({ action: 'rerun', task: { id: t.id, name: t.name, app: t.app, project: PROJECT, status: 'FAILED' } });
      const one = record(payload(first), await kind.identity.snapshot(record(payload(first), { before: [] }), credentials));
      platform.add('child 1', clock.trueNow());
      // Half a second after the snapshot, the person re-runs child 2 from the web page; the bulk sends child 2's re-run later.
      clock.advance(500);
      platform.add('child 2', clock.trueNow());
      clock.advance(between - 500);
      const snapshot = await kind.identity.snapshot(record(payload(second), { before: [] }), credentials);
      assert.deepStrictEqual(snapshot.before, one.snapshot.before, 'the snapshot served this send too');
      const two = record(payload(second), snapshot);
      // Its call is dropped: nothing made.
      clock.advance(5_000);
      const lookup = await kind.identity.find(two, credentials, () => false);
      assert.deepStrictEqual(lookup, { absent: 'No copy of the task shows in its project.' }, 'the hand-made re-run is not this one\'s');
      // Sent again (the person's Submit Again): its own clone, made after its send, is.
      const again = record(payload(second), await kind.identity.snapshot(two, credentials));
      const own = platform.add('child 2', clock.trueNow());
      clock.advance(1_000);
      assert.deepStrictEqual(await kind.identity.find(again, credentials, () => false), { found: own });
    });
  }

  it('the platform\'s clock not known yet: no time is judged (this machine\'s is never used instead)', async () => {
    const clock = new FakeClock();
    clock.setWall(3_600_000);
    const platform = new Project();
    const original = platform.add('run', clock.trueNow() - 600_000);
    const kind = rerunWrite(platform, clock, () => undefined);
    assert.ok(kind.identity.by === 'difference');
    const payload: TaskActionPayload = { action: 'rerun', task: { id: original.id, name: 'run', app: original.app, project: PROJECT, status: 'FAILED' } };
    const snapshot = await kind.identity.snapshot(record(payload, { before: [] }), credentials);
    assert.strictEqual(snapshot.sentAt, undefined);
    const clone = platform.add('run', clock.trueNow());
    assert.deepStrictEqual(await kind.identity.find(record(payload, snapshot), credentials, () => false), { found: clone });
  });

  it('a snapshot read back is checked: text, {}, a number, a list of numbers are damaged (dropped: the write is then never found)', () => {
    for (const damaged of ['text', {}, 5, { before: [1, 2] }, { before: [], newest: 7 }, { before: [], sentAt: 'now' }, null]) assert.strictEqual(isCloneSnapshot(damaged), false, JSON.stringify(damaged));
    for (const fine of [{ before: [] }, { before: ['a'], newest: '2026-01-01T00:00:00Z', sentAt: 1 }]) assert.strictEqual(isCloneSnapshot(fine), true, JSON.stringify(fine));
  });
});
