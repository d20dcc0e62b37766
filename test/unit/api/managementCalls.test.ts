// The file management, search and task-making calls over a fake fetch: the requests they make, answers they cannot
// read, and the platform's documented rules checked before sending.
import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { metadataProblem, nameProblem } from '../../../src/api/fileRules';
import { buildUrl, MAX_URL_LENGTH } from '../../../src/api/transport';
import { FakeClock } from '../../support/fakeClock';
import { ENDPOINT, FakeFetch, TOKEN, rejection, response, type Handler } from './fakes';

const FILE = '567890abc8a5639cc6722063';
const FOLDER = '567890abc4f3066bc3750174';
const TASK = 'bd5e95d9-12b3-789c-45b6-34d8696571a9';

function client(handler: Handler) {
  const fake = new FakeFetch(handler);
  const sb = new SbClient({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock: new FakeClock(), maxRetries: 0 });
  const last = () => {
    const call = fake.calls[fake.calls.length - 1];
    const url = new URL(call.url);
    return { method: call.method, path: url.pathname, query: [...url.searchParams], body: call.body === undefined ? undefined : (JSON.parse(call.body) as unknown) };
  };
  return { sb, fake, last };
}

const record = (extra: object = {}) => response(200, { href: 'h', id: FILE, name: 'n', ...extra });

describe('file management calls: requests made', () => {
  it('a query value that is a list repeats its parameter; an empty list sends nothing', () => {
    const url = new URL(buildUrl(ENDPOINT, 'files', { project: 'a/b', name: ['x y', 'z&w'], tag: [], limit: 5 }));
    assert.deepStrictEqual([...url.searchParams], [['project', 'a/b'], ['name', 'x y'], ['name', 'z&w'], ['limit', '5']]);
  });

  it('files.list sends every filter: name (repeated), tag, metadata.<field>, origin.task', async () => {
    const { sb, last } = client(() => response(200, { items: [], links: [] }, { 'X-Total-Matching-Query': '0' }));
    await sb.files.list({ parent: FOLDER }, { name: ['a.bam', 'b.bam'], tag: ['tumor', 'normal'], metadata: { sample_id: ['s1', 's2'], platform: 'ONT' }, originTask: TASK, limit: 100 });
    assert.deepStrictEqual(last().query, [
      ['parent', FOLDER],
      ['name', 'a.bam'],
      ['name', 'b.bam'],
      ['tag', 'tumor'],
      ['tag', 'normal'],
      ['metadata.sample_id', 's1'],
      ['metadata.sample_id', 's2'],
      ['metadata.platform', 'ONT'],
      ['origin.task', TASK],
      ['fields', 'href,id,name,type,size,project,parent,created_on,modified_on,origin,tags,metadata'],
      ['limit', '100'],
    ]);
    await sb.files.list({ project: 'a/b' }, { name: 'one' });
    assert.deepStrictEqual(last().query.filter(([k]) => k === 'name'), [['name', 'one']]);
  });

  it('an address longer than 6,000 characters is refused before sending', async () => {
    const { sb, fake } = client(() => response(200, { items: [] }));
    const names = Array.from({ length: 300 }, (_, i) => `sample_${String(i).padStart(3, '0')}_R1.fastq.gz`);
    const error = await rejection(sb.files.list({ project: 'a/b' }, { name: names }));
    assert.strictEqual(error.kind, 'invalid');
    assert.match(error.message, new RegExp(`at most ${MAX_URL_LENGTH.toLocaleString('en-US')}`));
    assert.strictEqual(fake.calls.length, 0);
  });

  it('the single writes: method, path and body', async () => {
    const { sb, last } = client((call) => {
      const path = new URL(call.url).pathname;
      if (path.endsWith('/tags')) return response(200, ['a']);
      if (path.endsWith('/metadata')) return response(200, { k: 'v' });
      if (call.method === 'DELETE') return response(204, '');
      return record();
    });
    await sb.files.createFolder('my new folder', { parent: FOLDER });
    assert.deepStrictEqual(last(), { method: 'POST', path: '/v2/files', query: [], body: { name: 'my new folder', type: 'folder', parent: FOLDER } });
    await sb.files.update(FILE, { name: 'n.bam', tags: ['t'] });
    assert.deepStrictEqual(last(), { method: 'PATCH', path: `/v2/files/${FILE}`, query: [], body: { name: 'n.bam', tags: ['t'] } });
    assert.deepStrictEqual(await sb.files.setTags(FILE, ['a']), ['a']);
    assert.deepStrictEqual(last(), { method: 'PUT', path: `/v2/files/${FILE}/tags`, query: [], body: ['a'] });
    await sb.files.patchMetadata(FILE, { k: 'v', gone: null });
    assert.deepStrictEqual(last(), { method: 'PATCH', path: `/v2/files/${FILE}/metadata`, query: [], body: { k: 'v', gone: null } });
    await sb.files.replaceMetadata(FILE, { k: 'v' });
    assert.strictEqual(last().method, 'PUT');
    await sb.files.move(FILE, { parent: FOLDER, name: 'x' });
    assert.deepStrictEqual(last(), { method: 'POST', path: `/v2/files/${FILE}/actions/move`, query: [], body: { parent: FOLDER, name: 'x' } });
    assert.strictEqual(await sb.files.delete(FILE), undefined);
    assert.deepStrictEqual(last(), { method: 'DELETE', path: `/v2/files/${FILE}`, query: [], body: undefined });
  });

  it('an unreadable answer to a write: malformed, and it may have been delivered', async () => {
    const { sb } = client(() => response(200, { nothing: true }));
    for (const call of [
      () => sb.files.createFolder('x', { project: 'a/b' }),
      () => sb.files.update(FILE, { name: 'x' }),
      () => sb.files.setTags(FILE, ['x']),
      () => sb.files.move(FILE, { parent: FOLDER }),
      () => sb.fileJobs.submit('move', [{ file: FILE, parent: FOLDER }]),
      () => sb.tasks.create({ project: 'a/b', app: 'a/b/c' }),
      () => sb.tasks.clone(TASK, { run: true }),
      () => sb.bulkFiles.edit([{ id: FILE, tags: [] }]),
    ]) {
      const error = await rejection(call());
      assert.deepStrictEqual([error.kind, error.maybeDelivered], ['malformed', true], error.message);
    }
    const read = await rejection(sb.bulkFiles.get([FILE]));
    assert.deepStrictEqual([read.kind, read.maybeDelivered], ['malformed', false]);
  });

  it('async jobs: each kind its own path; the job read per kind', async () => {
    const { sb, last } = client((call) => response(200, { href: 'h', id: '70711174378885120', state: 'SUBMITTED', type: call.url.includes('delete') ? 'DELETE' : 'MOVE', result: [{ resource: { id: FILE } }, {}] }));
    const job = await sb.fileJobs.submit('delete', [{ file: FILE }]);
    assert.deepStrictEqual(last(), { method: 'POST', path: '/v2/async/files/delete', query: [], body: { items: [{ file: FILE }] } });
    assert.deepStrictEqual(job.result, [{ resource: { id: FILE, name: FILE } }, { error: { message: 'The platform gave no readable result for this item.' } }]);
    await sb.fileJobs.get('move', '70711174378885120');
    assert.strictEqual(last().path, '/v2/async/files/move/70711174378885120');
    await sb.copyJobs.get('70711174378885120');
    assert.strictEqual(last().path, '/v2/async/files/copy/70711174378885120');
  });

  it('bulk calls: the body each takes; an answer without one entry per item is malformed', async () => {
    const { sb, last } = client((call) => response(200, { items: (JSON.parse(call.body!).file_ids ?? JSON.parse(call.body!).items).map(() => ({ resource: { id: FILE, name: 'n' } })) }));
    await sb.bulkFiles.get([FILE, FOLDER]);
    assert.deepStrictEqual(last(), { method: 'POST', path: '/v2/bulk/files/get', query: [], body: { file_ids: [FILE, FOLDER] } });
    await sb.bulkFiles.update([{ id: FILE, name: 'a', tags: [], metadata: {} }]);
    assert.deepStrictEqual(last().body, { items: [{ id: FILE, name: 'a', tags: [], metadata: {} }] });
    await sb.bulkFiles.edit([{ id: FILE, metadata: { k: 'v' } }]);
    assert.strictEqual(last().path, '/v2/bulk/files/edit');
    const short = client(() => response(200, { items: [] }));
    assert.strictEqual((await rejection(short.sb.bulkFiles.delete([FILE]))).kind, 'malformed');
  });

  it('search: the query in the body, limit and cont_token in the address; a token-less answer is the last page', async () => {
    const { sb, last } = client((call) => {
      const token = new URL(call.url).searchParams.get('cont_token');
      return response(200, { count: 1, cont_token: token ? null : 'next-page', result_set: [{ id: token ? FOLDER : FILE, name: 'x', type: token ? 'FOLDER' : 'FILE' }, null] });
    });
    const pages = [];
    for await (const page of sb.search.pages('IN "/Projects/a/b"', { limit: 1 })) pages.push(page);
    assert.deepStrictEqual(pages.map((p) => [p.results.map((r) => [r.id, r.type]), p.contToken, p.count]), [
      [[[FILE, 'file']], 'next-page', 1],
      [[[FOLDER, 'folder']], undefined, 1],
    ]);
    assert.deepStrictEqual(last(), { method: 'POST', path: '/v2/files/search', query: [['limit', '1'], ['cont_token', 'next-page']], body: { query: 'IN "/Projects/a/b"' } });
    const endless = client(() => response(200, { cont_token: 'same', result_set: [] }));
    const error = await rejection((async () => {
      for await (const page of endless.sb.search.pages('IN "/Projects/a/b"')) void page;
    })());
    assert.strictEqual(error.kind, 'malformed', 'a token given twice is a search that would not end');
  });

  it('search: an empty continuation token ("") ends the search: no request more, the first page never read twice', async () => {
    const { sb, fake } = client((call) => {
      const token = new URL(call.url).searchParams.get('cont_token');
      return response(200, { count: 1, cont_token: token ? '' : 'next-page', result_set: [{ id: token ? FOLDER : FILE, name: 'x', type: 'FILE' }] });
    });
    const pages = [];
    for await (const page of sb.search.pages('IN "/Projects/a/b"')) pages.push(page);
    assert.deepStrictEqual(pages.map((p) => [p.results.map((r) => r.id), p.contToken]), [
      [[FILE], 'next-page'],
      [[FOLDER], undefined],
    ]);
    assert.strictEqual(fake.calls.length, 2);
  });

  it('tasks: create and clone send action=run when asked; updateDraft is a PATCH', async () => {
    const { sb, last } = client(() => response(201, { href: 'h', id: TASK, name: 'n', status: 'QUEUED' }));
    await sb.tasks.create({ project: 'a/b', app: 'a/b/bwa/3', inputs: { reads: { class: 'File', path: FILE } } }, { run: true });
    assert.deepStrictEqual(last(), { method: 'POST', path: '/v2/tasks', query: [['action', 'run']], body: { project: 'a/b', app: 'a/b/bwa/3', inputs: { reads: { class: 'File', path: FILE } } } });
    await sb.tasks.create({ project: 'a/b', app: 'a/b/bwa' });
    assert.deepStrictEqual(last().query, []);
    await sb.tasks.clone(TASK);
    assert.deepStrictEqual([last().path, last().query], [`/v2/tasks/${TASK}/actions/clone`, []]);
    await sb.tasks.clone(TASK, { run: true });
    assert.deepStrictEqual(last().query, [['action', 'run']]);
    await sb.tasks.updateDraft(TASK, { name: 'x', inputs: {} });
    assert.deepStrictEqual(last(), { method: 'PATCH', path: `/v2/tasks/${TASK}`, query: [], body: { name: 'x', inputs: {} } });
  });
});

describe('file rules checked before sending', () => {
  it('names: empty, "/", over 255 characters, a folder starting with "__"', () => {
    assert.strictEqual(nameProblem('sample 1.bam', 'file'), undefined);
    assert.strictEqual(nameProblem('__init__.py', 'file'), undefined, 'a file may start with __');
    assert.strictEqual(nameProblem('x'.repeat(255), 'folder'), undefined);
    assert.match(nameProblem('  ', 'file')!, /empty/);
    assert.match(nameProblem('a/b', 'folder')!, /"\/"/);
    assert.match(nameProblem('x'.repeat(256), 'file')!, /255 characters \(256 given\)/);
    assert.match(nameProblem('__tmp', 'folder')!, /"__"/);
  });

  it('metadata: 1,000 fields, a name of 100 bytes and a value of 300 bytes (UTF-8); null values do not count', () => {
    const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    assert.strictEqual(metadataProblem(pairs(1000)), undefined);
    assert.strictEqual(metadataProblem({ ...pairs(1000), extra: null }), undefined);
    assert.match(metadataProblem(pairs(1001))!, /at most 1,000 metadata fields \(1,001 given\)/);
    assert.strictEqual(metadataProblem({ ['é'.repeat(50)]: 'ü'.repeat(150) }), undefined);
    assert.match(metadataProblem({ ['é'.repeat(50) + 'x']: 'v' })!, /101 bytes long; at most 100/);
    assert.match(metadataProblem({ k: 'ü'.repeat(150) + 'x' })!, /301 bytes long; at most 300/);
    assert.match(metadataProblem({ '': 'v' })!, /needs a name/);
  });
});
