// The resource calls over a fake fetch: which request each call makes, and what it refuses before sending.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { TIME_BOUNDS, type TaskListQuery } from '../../../src/api/tasks';
import { ENDPOINT, FakeFetch, TOKEN, rejection, response, type Handler } from './fakes';
import { FakeClock } from '../../support/fakeClock';

const TASK = 'bd5e95d9-12b3-789c-45b6-34d8696571a9';
const FILE = '567890abc8a5639cc6722063';

function client(handler?: Handler) {
  const fake = new FakeFetch(
    handler ??
      ((call) => {
        const path = new URL(call.url).pathname;
        if (path.endsWith('/user')) return response(200, { href: `${ENDPOINT}/user`, username: 'rfranklin' });
        if (path.includes('/async/files/copy')) return response(200, { href: 'h', id: '70711174378885120', state: 'SUBMITTED', result: [] });
        if (/\/(tasks|files|projects)\/./.test(path)) return response(200, { href: 'h', id: 'x', name: 'n' });
        return response(200, { href: call.url, items: [{ id: 'x' }], links: [] }, { 'X-Total-Matching-Query': '1' });
      }),
  );
  const sb = new SbClient({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock: new FakeClock(), maxRetries: 0 });
  const last = () => {
    const url = new URL(fake.calls[fake.calls.length - 1].url);
    return { path: url.pathname, query: Object.fromEntries(url.searchParams), method: fake.calls[fake.calls.length - 1].method };
  };
  return { sb, fake, last };
}

describe('client calls: requests made', () => {
  it('user and rate_limit', async () => {
    const { sb, last } = client();
    assert.strictEqual((await sb.user()).username, 'rfranklin');
    assert.deepStrictEqual(last(), { path: '/v2/user', query: {}, method: 'GET' });
    await sb.rateLimit();
    assert.deepStrictEqual(last(), { path: '/v2/rate_limit', query: {}, method: 'GET' });
  });

  it('a user record without a username is malformed', async () => {
    const { sb } = client(() => response(200, { href: 'x' }));
    assert.strictEqual((await rejection(sb.user())).kind, 'malformed');
  });

  it('tasks.list sends every filter as given, with paging', async () => {
    const { sb, last } = client();
    const query: TaskListQuery = {
      status: 'FAILED',
      parent: TASK,
      project: 'rfranklin/my-project',
      created_from: '2016-04-01',
      created_to: '2016-04-02T00:00:00',
      started_from: '2016-04-01T14:25:50+01:00',
      started_to: '2016-04-03',
      ended_from: '2016-04-01',
      ended_to: '2016-05-01T00:00:00-05:00',
      order_by: 'created_time',
      order: 'desc',
      origin_id: 'abc',
      fields: '_all',
    };
    const page = await sb.tasks.list(query, { offset: 50, limit: 25 });
    assert.strictEqual(page.total, 1);
    assert.deepStrictEqual(last(), { path: '/v2/tasks', method: 'GET', query: { ...query, offset: '50', limit: '25' } });
  });

  it('tasks.count asks for one item and reads the total', async () => {
    const { sb, last } = client();
    assert.strictEqual(await sb.tasks.count({ status: 'RUNNING' }), 1);
    assert.deepStrictEqual(last().query, { status: 'RUNNING', fields: 'id', limit: '1' });
  });

  it('tasks.count without X-Total-Matching-Query is malformed', async () => {
    const { sb } = client(() => response(200, { items: [] }));
    assert.strictEqual((await rejection(sb.tasks.count({}))).kind, 'malformed');
  });

  it('tasks.get, files.get, projects.get, copyJobs.get', async () => {
    const { sb, last } = client();
    await sb.tasks.get(TASK);
    assert.strictEqual(last().path, `/v2/tasks/${TASK}`);
    await sb.files.get(FILE);
    assert.strictEqual(last().path, `/v2/files/${FILE}`);
    await sb.projects.get('rfranklin/my-project');
    assert.strictEqual(last().path, '/v2/projects/rfranklin/my-project');
    await sb.copyJobs.get('70711174378885120');
    assert.strictEqual(last().path, '/v2/async/files/copy/70711174378885120');
  });

  it('files.list: a project root or a folder, with the default fields', async () => {
    const { sb, last } = client();
    await sb.files.list({ project: 'rfranklin/my-project' }, { limit: 100 });
    assert.deepStrictEqual(last().query, { project: 'rfranklin/my-project', fields: 'href,id,name,type,size,project,parent,created_on,modified_on,origin,tags,metadata', limit: '100' });
    await sb.files.list({ parent: FILE }, { offset: 100, name: 'chr', fields: '_all' });
    assert.deepStrictEqual(last().query, { parent: FILE, name: 'chr', fields: '_all', offset: '100' });
  });

  it('projects.list and copyJobs.list', async () => {
    const { sb, last } = client();
    await sb.projects.list({ name: 'my', limit: 10 });
    assert.strictEqual(last().path, '/v2/projects');
    assert.strictEqual(last().query.name, 'my');
    assert.strictEqual(last().query.limit, '10');
    await sb.copyJobs.list({ offset: 0, limit: 100 });
    assert.deepStrictEqual(last(), { path: '/v2/async/files', method: 'GET', query: { offset: '0', limit: '100' } });
  });

  it('copyJobs.submit posts the items once and checks the job', async () => {
    const { sb, fake, last } = client();
    const job = await sb.copyJobs.submit([{ file: FILE, project: 'a/b', name: 'copy.txt' }]);
    assert.strictEqual(job.id, '70711174378885120');
    assert.deepStrictEqual(last(), { path: '/v2/async/files/copy', method: 'POST', query: {} });
    assert.deepStrictEqual(JSON.parse(fake.calls[0].body ?? ''), { items: [{ file: FILE, project: 'a/b', name: 'copy.txt' }] });
  });

  it('a copy answer without id or state is malformed', async () => {
    const { sb } = client(() => response(200, { href: 'x' }));
    assert.strictEqual((await rejection(sb.copyJobs.submit([{ file: FILE, project: 'a/b' }]))).kind, 'malformed');
    assert.strictEqual((await rejection(sb.copyJobs.get('1'))).kind, 'malformed');
  });
});

describe('client calls: bad values refused before sending', () => {
  const refusals: [string, (sb: SbClient) => Promise<unknown>, RegExp][] = [
    ['an unknown status', (sb) => sb.tasks.list({ status: 'DONE' as never }), /"DONE" is not a task status/],
    ['a lowercase status', (sb) => sb.tasks.list({ status: 'failed' as never }), /not a task status/],
    ['CREATING as a filter', (sb) => sb.tasks.list({ status: 'CREATING' as never }), /not a task status/],
    ['a parent that is not a UUID', (sb) => sb.tasks.list({ parent: 'abc' }), /"abc" is not a task ID/],
    ['a project without owner', (sb) => sb.tasks.list({ project: 'my-project' }), /not a project ID/],
    ['order without order_by', (sb) => sb.tasks.list({ order: 'asc' }), /order needs order_by/],
    ['an unknown order_by', (sb) => sb.tasks.list({ order_by: 'size' as never }), /order_by/],
    ['an unknown order', (sb) => sb.tasks.list({ order_by: 'name', order: 'up' as never }), /order/],
    ['a task ID that is not a UUID', (sb) => sb.tasks.get('123'), /not a task ID/],
    ['a task ID with a path in it', (sb) => sb.tasks.get(`${TASK}/../../user`), /not a task ID/],
    ['a file ID that is not 24 hex', (sb) => sb.files.get('../user'), /not a file ID/],
    ['a folder ID that is not 24 hex', (sb) => sb.files.list({ parent: 'root' }), /not a folder ID/],
    ['a files project without owner', (sb) => sb.files.list({ project: 'p' }), /not a project ID/],
    ['a project ID with extra slashes', (sb) => sb.projects.get('a/b/c'), /not a project ID/],
    ['a project ID that climbs out of /projects', (sb) => sb.projects.get('../..'), /not a project ID/],
    ['a job ID with letters', (sb) => sb.copyJobs.get('abc'), /not an async job ID/],
  ];
  for (const bound of TIME_BOUNDS) {
    refusals.push([`a bad ${bound}`, (sb) => sb.tasks.list({ [bound]: '2016-13-01' }), new RegExp(`^${bound}: Month 13 does not exist`)]);
  }
  for (const [what, call, reason] of refusals) {
    it(`refuses ${what}`, async () => {
      const { sb, fake } = client();
      const error = await rejection(call(sb));
      assert.strictEqual(error.kind, 'invalid');
      assert.match(error.message, reason);
      assert.strictEqual(fake.calls.length, 0, 'no request was sent');
    });
  }
});
