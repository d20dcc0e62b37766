// 4. Bad input from the platform, from a hostile server of the suite's own: malformed JSON, missing fields,
// wrong types, huge pages, unknown statuses and job states, links and redirects to another host. Each is
// handled without a crash, an unknown status is shown as such, and nothing (above all the token) leaves the
// configured origin.
import * as assert from 'assert';
import { randomUUID } from 'crypto';
import { ApiError } from '../../src/api/errors';
import type { Task, TaskStatus } from '../../src/api/types';
import { jobOutcome, jobProgress, statusSummary } from '../../src/jobs/summary';
import { itemRow, jobRow } from '../../src/jobs/jobRows';
import { JobTracker } from '../../src/jobs/tracker';
import { FilterModel } from '../../src/tasks/filterModel';
import { statusLook } from '../../src/tasks/statuses';
import { groupView, taskView } from '../../src/tasks/taskRows';
import type { MessageNode, GroupNode, TaskNode, TaskTreeNode } from '../../src/tasks/taskNodes';
import { TaskTreeModel } from '../../src/tasks/taskTree';
import { listReply, startForeign, startHostile, type HostileReply, type HostileServer } from './hostile';
import { makeClient, note, recordedState, sent, shown, shownError, TOKEN, waitFor } from './support';
import { CopyWindow } from './copyKit';
import { memoryState } from '../support/sharedState';

/** Text shown in the tree must not carry JS values through. */
function assertClean(text: string, where: string): void {
  assert.strictEqual(typeof text, 'string', `${where}: not a string`);
  assert.ok(!/\bundefined\b|\[object Object\]|\bNaN\b|Invalid Date/.test(text), `${where}: "${text}"`);
  assert.ok(!text.includes(TOKEN), `${where}: the token`);
}

function checkViews(tasks: Task[], where: string): void {
  const now = Date.now();
  for (const task of tasks) {
    const view = taskView(task, { now });
    assert.ok(view.label.length > 0, `${where}: a label for ${task.id}`);
    for (const text of [view.label, view.description, view.tooltip, view.contextValue, view.icon.id]) assertClean(text, `${where}: ${task.id}`);
  }
}

function messagesOf(nodes: TaskTreeNode[]): { text: string; actions: string[] } | undefined {
  const messages = nodes.filter((n): n is MessageNode => n.kind === 'message');
  const error = messages.find((m) => m.severity !== 'info' && !m.action);
  return error && { text: error.text, actions: messages.filter((m) => m.action).map((m) => m.action!.title) };
}

describe('4. bad input from the platform', function () {
  this.timeout(60_000);
  let api: HostileServer;
  let foreign: HostileServer;
  /** The answer for GET /v2/tasks: by status and by whether it is a count (limit=1). */
  let tasks: (query: URLSearchParams) => HostileReply;

  before(async () => {
    api = await startHostile((_req, url) => (url.pathname.replace(/\/+$/, '') === '/v2/tasks' ? tasks(url.searchParams) : { status: 404, body: { status: 404, code: 90003, message: 'Not found.' } }));
    foreign = await startForeign();
  });
  after(async () => {
    await api.close();
    await foreign.close();
  });
  afterEach(() => {
    assert.deepStrictEqual(foreign.requests, [], 'the other host received no request');
    for (const r of api.requests) assert.strictEqual(r.headers['x-sbg-auth-token'], TOKEN);
  });

  const tree = () => {
    const memento = recordedState();
    const client = makeClient(api.baseUrl, { maxRetries: 1 });
    return { client, tree: new TaskTreeModel({ source: client.tasks, filter: new FilterModel(memento), store: memento, signedIn: () => true }) };
  };

  /** A count for every group (limit=1) and a listing of `items` for the group asked. */
  const serve = (items: (status: string) => unknown[], extra: Partial<{ total: string | null; links: unknown }> = {}) => {
    tasks = (q) => {
      const list = items(q.get('status') ?? '');
      if (q.get('limit') === '1') return listReply(list.slice(0, 1), { total: extra.total === undefined ? String(list.length) : extra.total });
      return listReply(list, extra);
    };
  };

  it('malformed JSON, an HTML error page, a body without items: a readable message with Retry, no crash', async () => {
    const cases: { name: string; reply: HostileReply; says: RegExp }[] = [
      { name: 'truncated JSON', reply: { body: '{"items": [{"id": "a' }, says: /^The platform sent an answer that cannot be read \(the answer to GET \/v2\/tasks\?.* is not JSON\)\.$/ },
      { name: 'HTML 502', reply: { status: 502, body: '<html><body>Bad gateway</body></html>' }, says: /^HTTP 502: <html><body>Bad gateway<\/body><\/html> \(HTTP 502\)\.$/ },
      { name: 'no items', reply: { body: { href: 'x' }, headers: { 'X-Total-Matching-Query': '3' } }, says: /^The platform sent an answer that cannot be read \(the list at .* has no items array\)\.$/ },
      { name: 'items is an object', reply: { body: { items: { a: 1 } }, headers: { 'X-Total-Matching-Query': '3' } }, says: /has no items array/ },
      { name: 'JSON null', reply: { body: 'null' }, says: /has no items array/ },
      { name: 'no total header', reply: listReply([], { total: null }), says: /did not say how many tasks match \(X-Total-Matching-Query\)/ },
      { name: 'total is a string', reply: listReply([], { total: 'twelve' }), says: /did not say how many tasks match/ },
      { name: 'error body of wrong types', reply: { status: 400, body: { status: '400', code: 'bad', message: { text: 'no' } } }, says: /^HTTP 400: .* \(HTTP 400\)\.$/ },
    ];
    for (const c of cases) {
      tasks = () => c.reply;
      const { tree: model } = tree();
      const nodes = await model.getChildren();
      const message = messagesOf(nodes);
      assert.ok(message, `${c.name}: a message in place of the groups, not ${JSON.stringify(nodes.map((n) => [n.kind, n.kind === 'group' ? [n.count, n.countError] : n.kind === 'message' ? n.text : '']))}`);
      assert.match(message.text, c.says, `${c.name}: ${message.text}`);
      shown(`platform: ${c.name}`, message.text, message.actions);
      assert.ok(message.actions.includes('Retry'), `${c.name}: Retry offered`);
    }
    note(`${cases.length} unreadable answers, each a message with Retry: ${cases.map((c) => c.name).join(', ')}`);
  });

  it('tasks with missing fields and wrong types are shown without a crash (an entry without an id is left out)', async () => {
    const odd: unknown[] = [
      {},
      { id: 42, name: 'id is a number' },
      { id: randomUUID() },
      { id: randomUUID(), name: null, status: null, project: null, created_time: null },
      { id: randomUUID(), name: 42, status: 7, project: { owner: 'x' }, app: ['a'], created_by: 5, created_time: 12345, start_time: 'yesterday', end_time: {} },
      { id: randomUUID(), name: 'strings for counters', status: 'RUNNING', batch: true,
        execution_status: { completed: '5', running: '2', queued: 'x', steps_total: '3', steps_completed: '1', duration: '10', message: 5 }, price: { amount: '0.5', currency: 7 } },
      { id: randomUUID(), name: 'wrong shapes', status: 'COMPLETED', execution_status: 'done', price: 'free', errors: 'boom', warnings: { a: 1 }, outputs: 'x', batch: 'yes', parent: 5 },
      { id: randomUUID(), name: 'lists of junk', status: 'FAILED', errors: [null, 5, { code: 'x' }, 'plain'], outputs: { out: [{ class: 'File', path: 12 }, null] } },
      null,
      'a string',
      [1, 2],
    ];
    serve((status) => (status === 'RUNNING' ? odd : []));
    const { tree: model } = tree();
    const roots = await model.getChildren();
    const running = roots.find((n): n is GroupNode => n.kind === 'group' && n.status === 'RUNNING')!;
    assert.strictEqual(running.count, odd.length);
    for (const g of roots.filter((n): n is GroupNode & { status: TaskStatus } => n.kind === 'group' && n.status !== 'OTHER')) {
      const view = groupView(g.status, g.count, g.countError);
      for (const text of [view.label, view.description, view.tooltip]) assertClean(text, `group ${g.status}`);
    }
    const children = await model.getChildren(running);
    const shownTasks = children.filter((n): n is TaskNode => n.kind === 'task').map((n) => n.task);
    assert.strictEqual(shownTasks.length, 6, 'every entry with a string id is shown');
    checkViews(shownTasks, 'odd tasks');
    // A batch parent whose fields are strings still opens (its children are asked for) without a crash.
    const batch = children.find((n): n is TaskNode => n.kind === 'task' && n.task.name === 'strings for counters')!;
    const batchChildren = await model.getChildren(batch);
    assert.ok(Array.isArray(batchChildren));
    note(`${odd.length} odd entries: ${shownTasks.length} shown, each with a label, a description and a tooltip free of undefined/NaN/[object Object]`);
  });

  it('an unknown task status is shown as such', async () => {
    const unknown = { id: randomUUID(), name: 'paused task', status: 'PAUSED', created_time: '2026-01-01T00:00:00Z' };
    serve((status) => (status === 'QUEUED' ? [unknown, { id: randomUUID(), name: 'creating', status: 'CREATING' }] : []));
    const { tree: model } = tree();
    await model.getChildren();
    const tasksShown = (await model.getChildren(model.group('QUEUED'))).filter((n): n is TaskNode => n.kind === 'task');
    const paused = taskView(tasksShown[0].task, { now: Date.now() });
    assert.strictEqual(paused.icon.id, 'question');
    assert.match(paused.tooltip, /Status: Status "PAUSED" \(not known to this extension\)/);
    assert.deepStrictEqual(statusLook('PAUSED'), { label: 'Paused', icon: { id: 'question' }, note: 'Status "PAUSED" (not known to this extension)' });
    assert.strictEqual(statusLook(undefined).label, 'Unknown');
    checkViews(tasksShown.map((n) => n.task), 'unknown status');
  });

  it('a page of 50,000 tasks is taken in without a crash', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({ id: randomUUID(), name: `task ${i}`, status: 'COMPLETED', project: 'a/b', created_time: '2026-01-01T00:00:00Z' }));
    serve((status) => (status === 'COMPLETED' ? many : []));
    const { tree: model } = tree();
    const started = Date.now();
    await model.getChildren();
    const children = await model.getChildren(model.group('COMPLETED'));
    const tasksShown = children.filter((n) => n.kind === 'task');
    checkViews(tasksShown.slice(0, 500).map((n) => (n as TaskNode).task), 'huge page');
    const ms = Date.now() - started;
    note(`a page of ${many.length.toLocaleString('en-US')} tasks (${(JSON.stringify(many).length / 1e6).toFixed(1)} MB): ${tasksShown.length.toLocaleString('en-US')} nodes in ${ms} ms`);
    assert.strictEqual(tasksShown.length, many.length);
    assert.strictEqual(model.group('COMPLETED').count, many.length);
  });

  it('a next link to another host is not followed: the tree says so, the other host sees no request and no token', async () => {
    const first = Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), name: `t${i}`, status: 'FAILED' }));
    const links = [
      `${foreign.baseUrl}/tasks?offset=100&limit=100`,
      `${foreign.origin.replace('http://', `http://127.0.0.1:${new URL(api.origin).port}@`)}/v2/tasks?offset=100`,
      `${foreign.origin.replace('http:', 'https:')}/v2/tasks?offset=100`,
      `HTTP://${foreign.origin.slice('http://'.length)}/v2/tasks?offset=100`,
    ];
    for (const href of links) {
      serve((status) => (status === 'FAILED' ? first : []), { total: '250', links: [{ rel: 'next', href, method: 'GET' }] });
      const { tree: model, client } = tree();
      await model.getChildren();
      const group = model.group('FAILED');
      await model.getChildren(group);
      const since = sent(client).mark();
      await model.loadMore(group);
      assert.strictEqual(since(), 0, `${href}: no request sent`);
      const list = model.listOf(group);
      assert.ok(list.error instanceof ApiError, `${href}: an error`);
      const text = shownError(`foreign link ${href}`, list.error, ['Retry']);
      assert.match(text, /refused to follow a link to another host \(127\.0\.0\.[12]:\d+\)/);
      assert.strictEqual(list.items.length, 100, 'the first page stays');
    }
    // Through the all-pages reader too (projects).
    api.handler = (_req, url) => url.pathname === '/v2/projects' ? listReply([{ id: 'a/b', name: 'b', href: 'x' }], { total: '300', links: [{ rel: 'next', href: `${foreign.baseUrl}/projects?offset=100` }] }) : { status: 404, body: {} };
    try {
      const client = makeClient(api.baseUrl, { maxRetries: 1 });
      await assert.rejects(client.projects.all(), (e: unknown) => e instanceof ApiError && /another host/.test(e.message));
    } finally {
      api.handler = (_req, url) => (url.pathname.replace(/\/+$/, '') === '/v2/tasks' ? tasks(url.searchParams) : { status: 404, body: {} });
    }
    note(`${links.length + 1} next links to another host refused; the other host (${foreign.host}) received ${foreign.requests.length} requests`);
  });

  it('endless next links on the same host: reading a whole list stops, it does not loop forever', async () => {
    // Every page says there is another one (a fresh offset each time), with and without a total.
    let served = 0;
    const endless = (total: string | null) => (_req: unknown, url: URL): HostileReply => {
      if (url.pathname !== '/v2/projects') return { status: 404, body: {} };
      const offset = Number(url.searchParams.get('offset') ?? 0);
      served++;
      if (served > 3_000) return listReply([], { total }); // the test's own bound
      const items = Array.from({ length: 100 }, (_, i) => ({ id: `o/p${offset + i}`, name: `p${offset + i}`, href: 'x' }));
      return listReply(items, { total, links: [{ rel: 'next', href: `${api.baseUrl}/projects?offset=${offset + 100}&limit=100` }] });
    };
    const client = makeClient(api.baseUrl, { maxRetries: 0 });
    try {
      api.handler = endless('250');
      const projects = await client.projects.all();
      assert.strictEqual(projects.length, 300, 'stops once the announced total is read (the last page may overshoot)');
      const withTotal = served;
      served = 0;
      api.handler = endless(null);
      await assert.rejects(client.projects.all(), (e: unknown) => {
        assert.ok(e instanceof ApiError);
        shownError('endless list', e, ['Retry']);
        return /did not end after 1,000 pages/.test(e.message);
      });
      note(`endless next links: stopped at the total after ${withTotal} pages; without a total, refused after ${served} pages`);
      assert.ok(served <= 1_000);
    } finally {
      api.handler = (_req, url) => (url.pathname.replace(/\/+$/, '') === '/v2/tasks' ? tasks(url.searchParams) : { status: 404, body: {} });
    }
  });

  it('a redirect to another host is not followed: the other host never sees the token', async () => {
    const statuses = [301, 302, 303, 307, 308];
    for (const status of statuses) {
      tasks = () => ({ status, headers: { Location: `${foreign.baseUrl}/tasks?stolen=1` }, body: '' });
      const { tree: model } = tree();
      const nodes = await model.getChildren();
      const message = messagesOf(nodes);
      assert.ok(message, `${status}: a message`);
      shown(`redirect ${status}`, message.text, message.actions);
      assert.deepStrictEqual(foreign.requests.map((r) => `${r.method} ${r.url} token=${r.headers['x-sbg-auth-token'] === TOKEN}`), [], `${status}: nothing reached the other host`);
    }
    note(`redirects ${statuses.join(', ')} to ${foreign.host}: not followed, ${foreign.requests.length} requests there`);
  });

  it('copy jobs with unknown states and wrong types: followed without a crash, the unknown state shown as such', async () => {
    const [a, b, c] = ['70711174378885120', '70711174378885121', '70711174378885122'];
    let done = false;
    api.handler = (_req, url) => {
      const state = done ? 'FINISHED' : 'PAUSED';
      const result = done ? [{ resource: { id: 'f'.repeat(24), name: 'x' } }] : [];
      if (url.pathname === `/v2/async/files/copy/${a}`) return { body: { id: a, href: 'x', state, total_files: '5', completed_files: 'many', result: done ? result : { a: 1 } } };
      if (url.pathname === `/v2/async/files/copy/${b}`) return { body: { id: b, href: 'x', state, result } };
      if (url.pathname === `/v2/async/files/copy/${c}`) return { body: { id: c, href: 'x', state: 'FINISHED', result: [{ resource: null }, { error: 'boom' }, 7, null, { error: { message: 5 } }] } };
      if (url.pathname === '/v2/async/files') {
        return listReply([{ id: a, state: done ? 'FINISHED' : 42, total_files: '5' }, { id: b, state, completed_files: 'many', result }, { id: 7, state: 'RUNNING' }, null, { id: c, state: 'FINISHED', result: 'x' }]);
      }
      return { status: 404, body: {} };
    };
    const client = makeClient(api.baseUrl, { maxRetries: 1 });
    const store = recordedState();
    const tracker = new JobTracker(client.copyJobs, store, undefined, { firstDelayMs: 10, intervalMs: 20, maxIntervalMs: 40 });
    // A poll of three unfinished jobs lists them all: one GET /v2/async/files each.
    const polls = () => sent(client).count('GET', /^\/v2\/async\/files(\?|$)/);
    // What the status bar and the jobs list do on every change: render every job.
    const renderErrors: unknown[] = [];
    let renders = 0;
    const render = () => {
      try {
        renders++;
        const summary = statusSummary(tracker.all(), []);
        const texts = [summary.text, ...summary.tooltip];
        for (const job of tracker.all()) {
          const row = jobRow(job, Date.now());
          texts.push(jobProgress(job), jobOutcome(job), row.label, row.description, row.tooltip);
          job.items.forEach((_, i) => {
            const item = itemRow(job, i);
            texts.push(item.label, item.description, item.tooltip);
          });
        }
        for (const text of texts) assertClean(text, 'job texts');
        return texts;
      } catch (error) {
        renderErrors.push(error);
        return [];
      }
    };
    tracker.onDidChange(render);
    try {
      const destination = { label: 'dest', project: 'a/b' };
      const item = (ch: string) => ({ file: ch.repeat(24), project: 'a/b' });
      tracker.add({ id: a, href: 'x', state: 'SUBMITTED' }, { items: [item('a')], destination });
      tracker.add({ id: b, href: 'x', state: 'SUBMITTED' }, { items: [item('b')], destination });
      tracker.add({ id: c, href: 'x', state: 'RUNNING' }, { items: [item('c'), item('d'), item('e'), item('f'), item('1')], destination });
      await waitFor('a few polls', () => polls() >= 4, 10_000);
      const texts = render();
      assert.deepStrictEqual(renderErrors, [], 'every render went through');
      for (const id of [a, b, c]) assert.strictEqual(typeof tracker.get(id)!.state, 'string', `job ${id}: the state stays text`);
      assert.match(jobProgress(tracker.get(b)!), /^paused$/, 'the unknown state is shown as such');
      const paused = jobProgress(tracker.get(b)!);
      done = true;
      await waitFor('the jobs to finish', () => [a, b].every((id) => tracker.get(id)!.state === 'FINISHED'), 10_000);
      render();
      assert.deepStrictEqual(renderErrors, [], 'every render went through');
      note(`job states PAUSED and 42, counters as strings, results as an object and with null entries: ${polls()} polls, ${renders} renders, ` +
        `the unknown state shown as "${paused}", e.g. "${texts[0]}"`);
    } finally {
      tracker.dispose();
    }
  });

  it('a copy answer without a job id is reported as "may have been submitted", not as not sent', async () => {
    let posts = 0;
    let lookups = 0;
    api.handler = (req, url) => {
      if (req.method === 'POST') {
        posts++;
        return { body: { href: 'x', type: 'COPY', result: [] } };
      }
      if (url.pathname === '/v2/async/files') {
        lookups++;
        // A job the platform made since, without results yet: it cannot be told apart, so nothing is resent.
        return listReply(lookups > 1 ? [{ id: '70711174378885120', type: 'COPY', state: 'SUBMITTED', result: [] }] : []);
      }
      return { status: 404, body: {} };
    };
    const client = makeClient(api.baseUrl, { maxRetries: 1 });
    const credentials = { endpoint: api.baseUrl, token: TOKEN };
    const window = new CopyWindow(client, memoryState(), async () => ({ key: 'hostile#me', credentials }), () => 'hostile#me');
    try {
      const destination = { label: 'dest', project: 'a/b' };
      const sent = await window.send([[{ file: 'a'.repeat(24), project: 'a/b' }]], destination, 'copy answer without id');
      assert.strictEqual(posts, 1);
      assert.deepStrictEqual(sent.left.map((r) => r.state), ['unsure'], 'the platform answered 200: the copy may exist');
      assert.match(sent.tellings[0].text, /did not answer the copy of .+\. The platform sent an answer that cannot be read \(the copy job in the answer has no id or state\)\. Checking whether it arrived/);
      await waitFor('a lookup of the job list', () => lookups > 0);
      assert.strictEqual(posts, 1, 'not sent again while it cannot be told apart');
    } finally {
      window.dispose();
    }
  });
});
