// The client against the platform emulator: every call, paging to the end, filter semantics against the
// emulator's own data, error mapping, rate limit and maintenance (on a fake clock shared with the emulator),
// and the copy POST whose response is lost.
import * as assert from 'assert';
import nodeFetch from 'node-fetch';
import { SbClient } from '../../../src/api/client';
import { parseFilterTimestamp, formatFilterTimestamp } from '../../../src/api/timestamps';
import type { TaskListQuery, TimeBound } from '../../../src/api/tasks';
import type { FetchLike, TransportOptions } from '../../../src/api/transport';
import type { Page, Task } from '../../../src/api/types';
import { startEmulator, type Emulator, type TaskRec } from '../../emulator/index';
import { rejection } from '../../unit/api/fakes';
import { FakeClock } from '../../support/fakeClock';

interface Setup {
  emu: Emulator;
  clock: FakeClock;
  sb: SbClient;
  /** URLs the client sent, in order. */
  sent: string[];
}

async function setup(emulatorOptions: Parameters<typeof startEmulator>[0] = {}, clientOptions: Partial<TransportOptions> = {}): Promise<Setup> {
  const clock = new FakeClock();
  const emu = await startEmulator({ now: () => clock.now(), copyStepMs: 600, ...emulatorOptions });
  const sent: string[] = [];
  const fetch: FetchLike = (url, init) => {
    sent.push(`${init.method} ${url}`);
    return (nodeFetch as unknown as FetchLike)(url, init);
  };
  const sb = new SbClient({ credentials: async () => ({ endpoint: emu.baseUrl, token: emu.token }), fetch, clock, backoffMs: 100, ...clientOptions });
  return { emu, clock, sb, sent };
}

async function collect<T>(pages: AsyncGenerator<Page<T>>): Promise<{ items: T[]; pages: Page<T>[] }> {
  const all: Page<T>[] = [];
  for await (const page of pages) all.push(page);
  return { items: all.flatMap((p) => p.items), pages: all };
}

const sorted = (ids: string[]) => [...ids].sort();

describe('client against the emulator', function () {
  this.timeout(30_000);
  let s: Setup;
  before(async () => {
    s = await setup();
  });
  after(async () => s.emu.close());

  /** Every task matching a query, via transport.all, checked for totals and duplicates. */
  async function allTasks(query: TaskListQuery): Promise<Task[]> {
    const { items, pages } = await collect(s.sb.transport.all<Task>('tasks', { query: { ...query } as Record<string, string> }));
    for (const page of pages) assert.strictEqual(page.total, items.length, 'X-Total-Matching-Query on every page equals what paging returned');
    assert.strictEqual(new Set(items.map((t) => t.id)).size, items.length, 'no duplicates');
    assert.strictEqual(pages.length, Math.max(1, Math.ceil(items.length / 100)));
    return items;
  }

  function expectTasks(query: TaskListQuery, predicate: (t: TaskRec) => boolean, label: string) {
    it(`${label}: the same tasks as the emulator's data`, async () => {
      const expected = s.emu.data.tasks.filter(predicate).map((t) => t.id);
      assert.ok(expected.length > 0, `${label}: the seeded data has matches`);
      assert.ok(expected.length < s.emu.data.tasks.length || Object.keys(query).length === 0, `${label}: the filter leaves some out`);
      const got = await allTasks(query);
      assert.deepStrictEqual(sorted(got.map((t) => t.id)), sorted(expected));
      // The same through tasks.list/next with small pages.
      let page = await s.sb.tasks.list(query, { limit: 50 });
      const ids = [...page.items.map((t) => t.id)];
      while (page.next) {
        page = await s.sb.tasks.next(page.next);
        ids.push(...page.items.map((t) => t.id));
      }
      assert.deepStrictEqual(sorted(ids), sorted(expected));
      assert.strictEqual(await s.sb.tasks.count(query), expected.length);
    });
  }

  it('user', async () => {
    const user = await s.sb.user();
    assert.strictEqual(user.username, s.emu.username);
    assert.strictEqual(user.email, s.emu.data.user.email);
  });

  it('rateLimit, and the remembered X-RateLimit-* headers', async () => {
    const first = await s.sb.rateLimit();
    assert.strictEqual(first.rate.limit, 1000);
    assert.ok(Number.isInteger(first.rate.remaining) && Number.isInteger(first.rate.reset));
    const again = await s.sb.rateLimit();
    assert.strictEqual(again.rate.remaining, first.rate.remaining, 'rate_limit does not count');
    await s.sb.user();
    assert.deepStrictEqual(s.sb.transport.rateLimit, { limit: 1000, remaining: first.rate.remaining - 1, reset: first.rate.reset });
  });

  describe('projects', () => {
    it('list, all and get', async () => {
      const data = s.emu.data.projects;
      const page = await s.sb.projects.list();
      assert.strictEqual(page.total, data.length);
      assert.deepStrictEqual(page.items.map((p) => p.id), data.slice(0, 25).map((p) => p.id));
      assert.ok(page.items.every((p) => typeof p.root_folder === 'string' && p.permissions !== undefined), 'the default fields include root_folder and permissions');
      const all = await s.sb.projects.all();
      assert.deepStrictEqual(all.map((p) => p.id), data.map((p) => p.id));
      for (const p of data) {
        const got = await s.sb.projects.get(p.id);
        assert.strictEqual(got.id, p.id);
        assert.strictEqual(got.root_folder, p.root_folder);
        assert.strictEqual(got.href, `${s.emu.baseUrl}/projects/${p.id}`);
      }
    });

    it('list by part of a name', async () => {
      const needle = s.emu.data.projects[0].name.slice(1, 4).toLowerCase();
      const expected = s.emu.data.projects.filter((p) => p.name.toLowerCase().includes(needle)).map((p) => p.id);
      assert.deepStrictEqual((await s.sb.projects.list({ name: needle })).items.map((p) => p.id), expected);
    });

    it('a project that does not exist: 404 with the platform error', async () => {
      const error = await rejection(s.sb.projects.get('nobody/nothing'));
      assert.strictEqual(error.kind, 'http');
      assert.strictEqual(error.status, 404);
      assert.ok(error.requestId?.startsWith('emu-'), String(error.requestId));
      assert.ok(error.moreInfo);
    });
  });

  describe('files', () => {
    it("lists each project's root to the end, every child once", async () => {
      for (const project of s.emu.data.projects) {
        const expected = s.emu.data.children(project.root_folder!).map((f) => f.id);
        const { items, pages } = await collect(s.sb.transport.all<{ id: string }>('files', { query: { project: project.id } }));
        assert.deepStrictEqual(items.map((f) => f.id), expected, project.id);
        assert.ok(pages.every((p) => p.total === expected.length));
      }
    });

    it('lists a folder page by page with next links, and gets a file', async () => {
      const folder = s.emu.data.files
        .filter((f) => f.type === 'folder' && f.parent !== null)
        .sort((a, b) => s.emu.data.children(b.id).length - s.emu.data.children(a.id).length)[0];
      const expected = s.emu.data.children(folder.id);
      assert.ok(expected.length > 7, 'a folder with several children');
      let page = await s.sb.files.list({ parent: folder.id }, { limit: 7 });
      assert.strictEqual(page.total, expected.length);
      const items = [...page.items];
      let pages = 1;
      while (page.next) {
        page = await s.sb.files.next(page.next);
        items.push(...page.items);
        pages++;
      }
      assert.strictEqual(pages, Math.ceil(expected.length / 7));
      assert.deepStrictEqual(items.map((f) => f.id), expected.map((f) => f.id));
      for (const item of items) assert.strictEqual(item.parent, folder.id);

      const file = expected.find((f) => f.type === 'file') ?? s.emu.data.files.find((f) => f.type === 'file')!;
      const got = await s.sb.files.get(file.id);
      assert.strictEqual(got.id, file.id);
      assert.strictEqual(got.name, file.name);
      assert.strictEqual(got.type, 'file');
      assert.strictEqual(got.size, file.size);
      assert.strictEqual(got.project, file.project);
      assert.strictEqual(got.href, `${s.emu.baseUrl}/files/${file.id}`);
    });

    it('a file that does not exist: 404, code 5002', async () => {
      const error = await rejection(s.sb.files.get('000000000000000000000000'));
      assert.strictEqual(error.status, 404);
      assert.strictEqual(error.code, 5002);
      assert.strictEqual(error.message, 'Requested file does not exist.');
    });
  });

  describe('tasks', () => {
    it('pages through every task to the end: total, no duplicates, every seeded task', async () => {
      const all = await allTasks({});
      assert.strictEqual(all.length, s.emu.data.tasks.length);
      assert.deepStrictEqual(sorted(all.map((t) => t.id)), sorted(s.emu.data.tasks.map((t) => t.id)));
    });

    for (const status of ['QUEUED', 'DRAFT', 'RUNNING', 'COMPLETED', 'ABORTED', 'FAILED'] as const) {
      expectTasks({ status }, (t) => t.status === status, `status=${status}`);
    }

    it('parent: the children of a batch', async () => {
      const parent = s.emu.data.batchParents[0];
      assert.ok(parent, 'the seeded data has a batch parent');
      const expected = s.emu.data.tasks.filter((t) => t.parent === parent.id).map((t) => t.id);
      assert.ok(expected.length > 0);
      assert.deepStrictEqual(sorted((await allTasks({ parent: parent.id })).map((t) => t.id)), sorted(expected));
    });

    it('project: each project', async () => {
      let nonEmpty = 0;
      for (const project of s.emu.data.projects) {
        const expected = s.emu.data.tasks.filter((t) => t.project === project.id).map((t) => t.id);
        if (expected.length) nonEmpty++;
        assert.deepStrictEqual(sorted((await allTasks({ project: project.id })).map((t) => t.id)), sorted(expected), project.id);
      }
      assert.ok(nonEmpty >= 2);
    });

    // Bounds taken from the seeded data (a task's own time, so that inclusiveness shows), written in each of the three forms.
    const FIELD: Record<TimeBound, 'created_time' | 'start_time' | 'end_time'> = {
      created_from: 'created_time',
      created_to: 'created_time',
      started_from: 'start_time',
      started_to: 'start_time',
      ended_from: 'end_time',
      ended_to: 'end_time',
    };
    const middle = (field: 'created_time' | 'start_time' | 'end_time'): number => {
      const times = s.emu.data.tasks.map((t) => t[field]).filter((v): v is string => !!v).map(Date.parse).sort((a, b) => a - b);
      return times[Math.floor(times.length / 2)];
    };
    const forms: Record<string, (ms: number) => string> = {
      utc: (ms) => formatFilterTimestamp(new Date(ms)),
      date: (ms) => formatFilterTimestamp(new Date(ms)).slice(0, 10),
      plus2: (ms) => formatFilterTimestamp(new Date(ms + 2 * 3_600_000)) + '+02:00',
      minus0530: (ms) => formatFilterTimestamp(new Date(ms - 5.5 * 3_600_000)) + '-05:30',
    };
    const matches = (t: TaskRec, bound: TimeBound, ms: number): boolean => {
      const value = t[FIELD[bound]];
      if (!value) return false;
      return bound.endsWith('_from') ? Date.parse(value) >= ms : Date.parse(value) <= ms;
    };
    const boundsAndForms: [TimeBound, string][] = [
      ['created_from', 'utc'],
      ['created_to', 'plus2'],
      ['started_from', 'minus0530'],
      ['started_to', 'date'],
      ['ended_from', 'date'],
      ['ended_to', 'utc'],
      ['created_from', 'date'],
      ['ended_to', 'plus2'],
    ];
    for (const [bound, form] of boundsAndForms) {
      it(`${bound} (${form} form): the emulator's tasks on the right side of the bound`, async () => {
        const value = forms[form](middle(FIELD[bound]));
        const check = parseFilterTimestamp(value);
        assert.ok(check.ok, value);
        const ms = check.date.getTime();
        const expected = s.emu.data.tasks.filter((t) => matches(t, bound, ms)).map((t) => t.id);
        assert.ok(expected.length > 0 && expected.length < s.emu.data.tasks.length, `${bound}=${value} splits the data`);
        const got = await allTasks({ [bound]: value });
        assert.deepStrictEqual(sorted(got.map((t) => t.id)), sorted(expected), `${bound}=${value}`);
      });
    }

    it('the bounds are inclusive: a bound equal to a task time keeps that task', async () => {
      const task = s.emu.data.tasks.find((t) => t.start_time && t.end_time)!;
      const started = formatFilterTimestamp(new Date(task.start_time!));
      const ended = formatFilterTimestamp(new Date(task.end_time!));
      const got = await allTasks({ started_from: started, started_to: started, ended_from: ended, ended_to: ended });
      assert.ok(got.some((t) => t.id === task.id));
    });

    it('combined: started_from + ended_to (ran inside a window), created_from + status=FAILED', async () => {
      const from = middle('start_time');
      const to = middle('end_time') + 30 * 86_400_000;
      const window = { started_from: formatFilterTimestamp(new Date(from)), ended_to: formatFilterTimestamp(new Date(to)) };
      const expected = s.emu.data.tasks.filter((t) => matches(t, 'started_from', from) && matches(t, 'ended_to', to)).map((t) => t.id);
      assert.ok(expected.length > 0);
      assert.deepStrictEqual(sorted((await allTasks(window)).map((t) => t.id)), sorted(expected));

      const since = middle('created_time') - 60 * 86_400_000;
      const failures = s.emu.data.tasks.filter((t) => t.status === 'FAILED' && Date.parse(t.created_time) >= since).map((t) => t.id);
      assert.ok(failures.length > 0);
      const got = await allTasks({ status: 'FAILED', created_from: formatFilterTimestamp(new Date(since)) });
      assert.deepStrictEqual(sorted(got.map((t) => t.id)), sorted(failures));
    });

    for (const [orderBy, order] of [
      ['name', 'asc'],
      ['created_time', 'desc'],
      ['start_time', 'asc'],
      ['end_time', 'desc'],
      ['created_by', 'asc'],
    ] as const) {
      it(`order_by=${orderBy}&order=${order}: every page in order`, async () => {
        const got = await allTasks({ order_by: orderBy, order, fields: `id,${orderBy}` });
        assert.strictEqual(got.length, s.emu.data.tasks.length);
        const values = got.map((t) => String((t as unknown as Record<string, unknown>)[orderBy] ?? ''));
        for (let i = 1; i < values.length; i++) {
          const [a, b] = order === 'asc' ? [values[i - 1], values[i]] : [values[i], values[i - 1]];
          assert.ok(a <= b, `${orderBy} ${order} at ${i}: ${values[i - 1]} then ${values[i]}`);
        }
      });
    }

    it('fields=_all gives whole records; get gives the record of the data', async () => {
      const page = await s.sb.tasks.list({ fields: '_all' }, { limit: 5 });
      assert.ok(page.items.every((t) => typeof t.status === 'string' && typeof t.created_time === 'string' && t.execution_status));
      const withoutFields = await s.sb.tasks.list({}, { limit: 5 });
      assert.ok(withoutFields.items.every((t) => t.id && t.name && t.href && t.status === undefined), 'default fields only');
      for (const record of s.emu.data.tasks.slice(0, 10)) {
        const task = await s.sb.tasks.get(record.id);
        assert.strictEqual(task.id, record.id);
        assert.strictEqual(task.href, `${s.emu.baseUrl}/tasks/${record.id}`);
        assert.strictEqual(task.status, record.status);
        assert.strictEqual(task.project, record.project);
        assert.strictEqual(task.created_time, record.created_time);
        assert.strictEqual(task.batch, record.batch);
        assert.strictEqual(task.parent, record.parent);
      }
    });

    it('a task that does not exist: 404', async () => {
      const error = await rejection(s.sb.tasks.get('00000000-0000-0000-0000-000000000000'));
      assert.strictEqual(error.status, 404);
    });

    it('bad filter values are refused by the client (invalid, nothing sent)', async () => {
      const bad: TaskListQuery[] = [
        { status: 'DONE' as never },
        { parent: 'not-a-uuid' },
        { project: 'no-owner' },
        { created_from: '2016-13-01' },
        { created_to: '2016-04-31' },
        { started_from: '2016-04-01T24:00:00' },
        { started_to: '2016-04-01T14:25:50+01' },
        { ended_from: '2016-04-01T14:25:50Z' },
        { ended_to: '2016-04-01 14:25:50' },
        { order: 'asc' },
        { order_by: 'size' as never },
      ];
      const before = s.sent.length;
      const requests = s.emu.stats.requests;
      for (const query of bad) {
        const error = await rejection(s.sb.tasks.list(query));
        assert.strictEqual(error.kind, 'invalid', JSON.stringify(query));
      }
      assert.strictEqual(s.sent.length, before);
      assert.strictEqual(s.emu.stats.requests, requests);
    });

    it('the client and the emulator agree on which timestamps are acceptable', async () => {
      const values = [
        '2016-04-01T14:25:50+01:00',
        '2016-04-01T14:25:50',
        '2016-04-01',
        '2016-02-29',
        '2016-13-01',
        '2016-04-31',
        '2015-02-29',
        '2016-04-01T24:00:00',
        '2016-04-01T14:60:00',
        '2016-04-01T14:25:50+01',
        '2016-04-01T14:25:50+0100',
        '2016-04-01T14:25:50Z',
        '2016-04-01T14:25:50.5',
        '2016-04-01 14:25:50',
        '2016-04-01x',
        '2016-4-01',
        'garbage',
      ];
      for (const value of values) {
        const client = parseFilterTimestamp(value).ok;
        const server = await s.sb.transport.get('tasks', { query: { created_from: value, limit: 1 } }).then(
          () => true,
          (e) => {
            assert.strictEqual(e.status, 400, value);
            return false;
          },
        );
        assert.strictEqual(server, client, `${value}: client ${client}, emulator ${server}`);
      }
    });

    it("the platform's own refusal maps to an ApiError (400, code 7006, request ID)", async () => {
      const error = await rejection(s.sb.transport.get('tasks', { query: { status: 'DONE' } }));
      assert.strictEqual(error.kind, 'http');
      assert.strictEqual(error.status, 400);
      assert.strictEqual(error.code, 7006);
      assert.match(error.message, /Invalid task status/);
      assert.ok(error.requestId?.startsWith('emu-'));
    });
  });

  describe('copy jobs', () => {
    it('submit, get until FINISHED, list; the copy appears in the destination', async () => {
      const [source, dest] = s.emu.data.projects.filter((p) => p.permissions.write);
      assert.ok(source && dest, 'two writable projects');
      const file = s.emu.data.children(source.root_folder).find((f) => f.type === 'file')!;
      const job = await s.sb.copyJobs.submit([{ file: file.id, project: dest.id }]);
      assert.strictEqual(job.state, 'SUBMITTED');
      assert.match(job.id, /^\d+$/);
      assert.strictEqual((await s.sb.copyJobs.get(job.id)).id, job.id);

      await s.clock.sleep(5 * 600); // the emulator's time moves with the fake clock
      const done = await s.sb.copyJobs.get(job.id);
      assert.strictEqual(done.state, 'FINISHED');
      assert.strictEqual(done.completed_files, 1);
      assert.strictEqual(done.failed_files, 0);
      const copy = done.result?.[0]?.resource;
      assert.ok(copy, JSON.stringify(done.result));
      assert.match(copy.name, new RegExp(`^(\\d+_)?${file.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      const root = (await collect(s.sb.transport.all<{ id: string }>('files', { query: { project: dest.id } }))).items;
      assert.ok(root.some((f) => f.id === copy.id), 'the copy is listed in the destination root');

      const jobs = await s.sb.copyJobs.list({ limit: 100 });
      assert.ok(jobs.items.some((j) => j.id === job.id));
      assert.strictEqual(jobs.total, s.emu.data.jobs.length);
    });

    it('a job that does not exist: 404, code 10211', async () => {
      const error = await rejection(s.sb.copyJobs.get('1'));
      assert.strictEqual(error.status, 404);
      assert.strictEqual(error.code, 10211);
    });

    it('a copy POST whose response is lost: maybeDelivered, sent exactly once, and the job exists', async () => {
      const [source, dest] = s.emu.data.projects.filter((p) => p.permissions.write);
      const file = s.emu.data.children(source.root_folder).find((f) => f.type === 'file')!;
      const before = s.emu.copyRequests.length;
      const posts = s.sent.filter((u) => u.startsWith('POST')).length;
      s.emu.loseNextCopyResponse();
      const error = await rejection(s.sb.copyJobs.submit([{ file: file.id, project: dest.id }]));
      assert.strictEqual(error.kind, 'network');
      assert.strictEqual(error.maybeDelivered, true);
      assert.strictEqual(error.method, 'POST');
      assert.strictEqual(s.emu.copyRequests.length, before + 1, 'not repeated');
      assert.strictEqual(s.sent.filter((u) => u.startsWith('POST')).length, posts + 1);
      const record = s.emu.copyRequests[s.emu.copyRequests.length - 1];
      assert.strictEqual(record.responseLost, true);
      const jobs = await s.sb.copyJobs.list({ limit: 100 });
      assert.ok(jobs.items.some((j) => j.id === record.jobId), 'the job was created although the answer was lost');
    });
  });
});

describe('client against the emulator: errors, rate limit, maintenance, cancellation', function () {
  this.timeout(30_000);

  it('a wrong token: 401, code 90001, not repeated', async () => {
    const s = await setup();
    try {
      const wrong = new SbClient({ credentials: async () => ({ endpoint: s.emu.baseUrl, token: 'wrong-token' }), clock: s.clock });
      const before = s.emu.stats.requests;
      const error = await rejection(wrong.user());
      assert.strictEqual(error.status, 401);
      assert.strictEqual(error.code, 90001);
      assert.ok(error.isUnauthorized);
      assert.strictEqual(s.emu.stats.requests, before + 1);
      assert.ok(!JSON.stringify(error).includes('wrong-token') && !error.message.includes('wrong-token'));
    } finally {
      await s.emu.close();
    }
  });

  it('a copy POST to a closed port: network error, ECONNREFUSED, not delivered', async () => {
    const s = await setup();
    await s.emu.close();
    const error = await rejection(s.sb.copyJobs.submit([{ file: '567890abc8a5639cc6722063', project: 'a/b' }]));
    assert.strictEqual(error.kind, 'network');
    assert.strictEqual(error.message, 'ECONNREFUSED');
    assert.strictEqual(error.maybeDelivered, false);
    assert.strictEqual(s.sent.length, 1);
  });

  it('a 429 burst: the GET waits (fake clock) until X-RateLimit-Reset and succeeds', async () => {
    const s = await setup();
    try {
      const start = s.clock.now();
      s.emu.burst429(1, 30);
      const user = await s.sb.user();
      assert.strictEqual(user.username, s.emu.username);
      assert.strictEqual(s.emu.stats.byStatus[429], 1);
      assert.strictEqual(s.clock.sleeps.length, 1);
      const reset = (Math.ceil(start / 1000) + 30) * 1000;
      assert.ok(s.clock.sleeps[0] >= reset - start && s.clock.sleeps[0] <= reset - start + 2_000, `slept ${s.clock.sleeps[0]}`);
    } finally {
      await s.emu.close();
    }
  });

  it('a 429 burst on a copy POST: not repeated, not delivered', async () => {
    const s = await setup();
    try {
      const [source, dest] = s.emu.data.projects.filter((p) => p.permissions.write);
      const file = s.emu.data.children(source.root_folder).find((f) => f.type === 'file')!;
      s.emu.burst429(1, 30);
      const error = await rejection(s.sb.copyJobs.submit([{ file: file.id, project: dest.id }]));
      assert.ok(error.isRateLimited);
      assert.strictEqual(error.maybeDelivered, false);
      assert.strictEqual(s.emu.copyRequests.length, 0);
      assert.strictEqual(s.sent.length, 1);
    } finally {
      await s.emu.close();
    }
  });

  it('the real limit: after remaining hits 0 the next request waits for the reset instead of spending a 429', async () => {
    const s = await setup({ rateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      for (let i = 0; i < 3; i++) await s.sb.user();
      assert.strictEqual(s.sb.transport.rateLimit?.remaining, 0);
      await s.sb.user();
      assert.strictEqual(s.emu.stats.byStatus[429] ?? 0, 0, 'no 429 spent');
      assert.strictEqual(s.clock.sleeps.length, 1);
      assert.ok(s.clock.sleeps[0] >= 59_000 && s.clock.sleeps[0] <= 62_000, `slept ${s.clock.sleeps[0]}`);
    } finally {
      await s.emu.close();
    }
  });

  it('the real limit, reset too far away: the 429 with resetAt, nothing sent but the free probe', async () => {
    const s = await setup({ rateLimit: { limit: 2, windowMs: 300_000 } }, { maxRateLimitWaitMs: 10_000 });
    try {
      await s.sb.user();
      await s.sb.user();
      const sent = s.sent.length;
      const error = await rejection(s.sb.user());
      assert.ok(error.isRateLimited);
      assert.strictEqual(error.resetAt, s.sb.transport.rateLimit?.reset);
      assert.deepStrictEqual(s.sent.slice(sent).map((r) => new URL(r.split(' ')[1]).pathname), ['/v2/rate_limit'], 'only GET /v2/rate_limit, which costs nothing');
    } finally {
      await s.emu.close();
    }
  });

  it('maintenance: the GET backs off (fake clock) and succeeds when it ends', async () => {
    const s = await setup();
    try {
      s.emu.maintenance(5_000);
      const user = await s.sb.user();
      assert.strictEqual(user.username, s.emu.username);
      assert.ok((s.emu.stats.byStatus[503] ?? 0) >= 2);
      assert.strictEqual(s.clock.sleeps.length, s.emu.stats.byStatus[503]);
      for (let i = 1; i < s.clock.sleeps.length; i++) assert.ok(s.clock.sleeps[i] > s.clock.sleeps[i - 1], 'the waits grow');
    } finally {
      await s.emu.close();
    }
  });

  it('maintenance that lasts: given up after maxRetries with isMaintenance', async () => {
    const s = await setup({}, { maxRetries: 2 });
    try {
      s.emu.maintenance(24 * 3_600_000);
      const error = await rejection(s.sb.user());
      assert.ok(error.isMaintenance);
      assert.strictEqual(s.emu.stats.byStatus[503], 3);
    } finally {
      await s.emu.close();
    }
  });

  it('cancellation while the emulator holds the answer: cancelled; a timeout: timeout; a timed-out copy may have been delivered', async () => {
    const s = await setup({}, { timeoutMs: 100, maxRetries: 0 });
    try {
      // The emulator holds each request until released; the client's timeout runs on the fake clock.
      const first = s.emu.hold();
      const controller = new AbortController();
      const cancelled = rejection(s.sb.user({ signal: controller.signal }));
      await first.arrived;
      controller.abort();
      assert.strictEqual((await cancelled).kind, 'cancelled');

      const second = s.emu.hold();
      const timedOut = rejection(s.sb.user());
      await second.arrived;
      await s.clock.tickAsync(100);
      assert.strictEqual((await timedOut).kind, 'timeout');

      const third = s.emu.hold();
      const [source, dest] = s.emu.data.projects.filter((p) => p.permissions.write);
      const file = s.emu.data.children(source.root_folder).find((f) => f.type === 'file')!;
      const submitted = rejection(s.sb.copyJobs.submit([{ file: file.id, project: dest.id }]));
      await third.arrived;
      await s.clock.tickAsync(100);
      const error = await submitted;
      assert.strictEqual(error.kind, 'timeout');
      assert.strictEqual(error.maybeDelivered, true);
      for (const hold of [first, second, third]) hold.release();
      await s.sb.user(); // answered once the held requests have been processed
      assert.strictEqual(s.emu.copyRequests.length, 1, 'the server took the copy after the client gave up, once');
    } finally {
      await s.emu.close();
    }
  });
});
