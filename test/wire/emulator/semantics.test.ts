/** The emulator's own semantics: what a strict client written against the documentation may rely on. */
import * as assert from 'assert';
import { type Emulator, startEmulator } from '../../emulator';

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HEX24 = /^[0-9a-f]{24}$/;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Reply {
  status: number;
  headers: Headers;
  body: Json;
}

function client(emu: Emulator, token: string | null = emu.token) {
  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (token !== null) {
      headers['X-SBG-Auth-Token'] = token;
    }
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const url = path.startsWith('http') ? path : emu.baseUrl + path;
    const r = await fetch(url, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, headers: r.headers, body: JSON.parse(text) as Json };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
  };
}

function q(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

async function allPages(get: (p: string) => Promise<Reply>, first: string): Promise<Json[]> {
  const out: Json[] = [];
  let next: string | undefined = first;
  while (next) {
    const r = await get(next);
    assert.strictEqual(r.status, 200);
    out.push(...(r.body.items as Json[]));
    next = (r.body.links as Json[]).find((l) => l.rel === 'next')?.href as string | undefined;
  }
  return out;
}

describe('platform emulator', function () {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  /** The emulator's clock: it moves when a test moves it. */
  let time = Date.UTC(2026, 0, 1);

  before(async () => {
    emu = await startEmulator({ copyStepMs: 20, now: () => time });
    api = client(emu);
  });
  after(async () => {
    await emu.close();
  });

  describe('envelope, headers, auth', () => {
    it('answers a list with {href, items, links}, absolute hrefs and the counting headers', async () => {
      const r = await api.get('/tasks?limit=5');
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual(Object.keys(r.body).sort(), ['href', 'items', 'links']);
      assert.strictEqual(r.body.href, `${emu.baseUrl}/tasks?limit=5`);
      assert.strictEqual(r.body.items.length, 5);
      assert.strictEqual(r.headers.get('x-total-matching-query'), String(emu.data.tasks.length));
      assert.ok(r.headers.get('x-request-id'));
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        assert.match(r.headers.get(h) ?? '', /^\d+$/, h);
      }
      for (const item of r.body.items as Json[]) {
        assert.strictEqual(item.href, `${emu.baseUrl}/tasks/${item.id}`);
      }
    });

    it('accepts trailing slashes', async () => {
      assert.strictEqual((await api.get('/tasks/?limit=1')).status, 200);
      assert.strictEqual((await api.get('/user/')).body.username, 'rfranklin');
    });

    it('refuses a missing or wrong token with 401 code 90001', async () => {
      for (const token of [null, 'wrong']) {
        const r = await client(emu, token).get('/user');
        assert.strictEqual(r.status, 401);
        assert.deepStrictEqual(Object.keys(r.body).sort(), ['code', 'message', 'more_info', 'status']);
        assert.strictEqual(r.body.code, 90001);
        assert.ok(r.headers.get('x-ratelimit-limit'));
      }
    });

    it('answers an unknown route with a 404 error body', async () => {
      const r = await api.get('/no/such/thing');
      assert.strictEqual(r.status, 404);
      assert.strictEqual(r.body.status, 404);
      assert.strictEqual(typeof r.body.code, 'number');
    });
  });

  describe('paging', () => {
    it('walks every page through next links, carrying the query forward', async () => {
      const expected = emu.data.tasks.filter((t) => t.status === 'COMPLETED').map((t) => t.id).sort();
      const first = await api.get('/tasks?status=COMPLETED&limit=30');
      assert.ok(!(first.body.links as Json[]).some((l) => l.rel === 'prev'), 'no prev on first page');
      const next = (first.body.links as Json[]).find((l) => l.rel === 'next');
      assert.ok(next && next.href.startsWith(emu.baseUrl) && next.href.includes('status=COMPLETED') && next.method === 'GET');
      const items = await allPages(api.get, '/tasks?status=COMPLETED&limit=30');
      assert.deepStrictEqual(items.map((i) => i.id).sort(), expected);
      const lastOffset = Math.floor((expected.length - 1) / 30) * 30;
      const last = await api.get(`/tasks?status=COMPLETED&limit=30&offset=${lastOffset}`);
      assert.ok(!(last.body.links as Json[]).some((l) => l.rel === 'next'), 'no next on last page');
      assert.ok((last.body.links as Json[]).some((l) => l.rel === 'prev'));
    });

    it('defaults to 25, allows 1..100 and refuses anything else with 400', async () => {
      assert.strictEqual((await api.get('/tasks')).body.items.length, 25);
      assert.strictEqual((await api.get('/tasks?limit=100')).body.items.length, 100);
      assert.strictEqual((await api.get('/tasks?limit=1')).body.items.length, 1);
      for (const bad of ['limit=101', 'limit=0', 'limit=abc', 'offset=-1']) {
        const r = await api.get(`/tasks?${bad}`);
        assert.strictEqual(r.status, 400, bad);
        assert.strictEqual(r.body.status, 400);
      }
    });
  });

  describe('fields', () => {
    it('gives tasks href, id, name, project by default and everything with _all', async () => {
      const d = await api.get('/tasks?limit=3');
      for (const i of d.body.items as Json[]) {
        assert.deepStrictEqual(Object.keys(i).sort(), ['href', 'id', 'name', 'project']);
      }
      const all = await api.get('/tasks?limit=3&fields=_all');
      for (const i of all.body.items as Json[]) {
        assert.ok('status' in i && 'execution_status' in i && 'created_time' in i);
      }
      const p = await api.get('/projects');
      assert.deepStrictEqual(Object.keys(p.body.items[0] as Json).sort(), ['href', 'id', 'name']);
    });

    it('selects comma lists and dotted paths, and excludes with !', async () => {
      const r = await api.get(`/tasks?limit=5&${q({ fields: 'id,execution_status.message' })}`);
      for (const i of r.body.items as Json[]) {
        assert.deepStrictEqual(Object.keys(i).sort(), ['execution_status', 'id']);
        assert.deepStrictEqual(Object.keys(i.execution_status as Json), ['message']);
      }
      const ex = await api.get(`/tasks?limit=5&${q({ fields: '_all,!inputs,!execution_status.duration' })}`);
      for (const i of ex.body.items as Json[]) {
        assert.ok(!('inputs' in i) && 'outputs' in i && !('duration' in (i.execution_status as Json)));
      }
      const one = await api.get(`/tasks/${emu.data.tasks[0].id}?fields=id,status`);
      assert.deepStrictEqual(Object.keys(one.body).sort(), ['id', 'status']);
    });
  });

  describe('seed data', () => {
    it('has the documented identifier and timestamp formats and consistent task times', () => {
      const d = emu.data;
      assert.strictEqual(d.tasks.length, 400 + 41, 'the 400 tasks drawn, then the batch at scale: a parent and its 40 children');
      for (const s of ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED', 'CREATING', 'ABORTING']) {
        assert.ok(d.tasks.some((t) => t.status === s), s);
      }
      for (const t of d.tasks) {
        assert.match(t.id, UUID);
        assert.match(t.created_time, TS);
        const terminal = ['COMPLETED', 'FAILED', 'ABORTED'].includes(t.status);
        assert.strictEqual(t.end_time !== undefined, terminal, `${t.status} end_time`);
        if (['DRAFT', 'QUEUED', 'CREATING'].includes(t.status)) {
          assert.strictEqual(t.start_time, undefined);
        }
        if (t.start_time) {
          assert.match(t.start_time, TS);
          assert.ok(t.start_time >= t.created_time);
        }
        if (t.end_time) {
          assert.ok(t.end_time >= t.start_time!);
        }
        assert.ok(Number.isInteger(t.execution_status.queued));
        for (const v of Object.values(t.outputs).flat()) {
          if (v) {
            const f = d.fileById.get(v.path);
            assert.ok(f && f.project === t.project, 'output file exists in the project');
          }
        }
      }
      for (const f of d.files) {
        assert.match(f.id, HEX24);
        assert.strictEqual(f.type === 'file', f.size !== undefined);
      }
      const parent = d.batchParents.find((p) => p.status === 'COMPLETED')!;
      const kids = d.tasks.filter((t) => t.parent === parent.id);
      assert.ok(kids.length > 0 && kids.every((k) => k.batch_group));
      assert.strictEqual(parent.execution_status.completed, kids.filter((k) => k.status === 'COMPLETED').length);
    });

    // How fast it starts is a benchmark figure (scripts/bench), not a timed test.
    it('is deterministic for a seed at benchmark size', async () => {
      const big = await startEmulator({ tasks: 10000, files: 10000, seed: 7 });
      const again = await startEmulator({ tasks: 10000, files: 10000, seed: 7, now: () => big.data.startedAt });
      try {
        assert.strictEqual(big.data.tasks.length, 10000 + 41);
        assert.ok(big.data.files.length >= 10000);
        assert.deepStrictEqual(again.data.tasks.map((t) => t.id), big.data.tasks.map((t) => t.id));
        assert.deepStrictEqual(again.data.files.map((f) => f.id), big.data.files.map((f) => f.id));
      } finally {
        await big.close();
        await again.close();
      }
    });
  });

  describe('task filters', () => {
    it('refuses an unknown status with 400 code 7006 (CREATING and ABORTING included)', async () => {
      for (const s of ['BOGUS', 'CREATING', 'ABORTING', 'running']) {
        const r = await api.get(`/tasks?status=${s}`);
        assert.strictEqual(r.status, 400);
        assert.strictEqual(r.body.code, 7006);
      }
    });

    it('refuses a malformed project and malformed timestamps with 400', async () => {
      assert.strictEqual((await api.get('/tasks?project=noslash')).status, 400);
      for (const bad of ['2026-01-01T10:00:00Z', '2026-01-01T10:00', '2026-1-01', '01/02/2026', '2026-02-30', '2026-01-01 10:00:00']) {
        const r = await api.get(`/tasks?${q({ created_from: bad })}`);
        assert.strictEqual(r.status, 400, bad);
      }
    });

    it('accepts exactly the three timestamp forms, the offset form converted to UTC', async () => {
      const sorted = emu.data.tasks.map((t) => t.created_time).sort();
      const mid = sorted[Math.floor(sorted.length / 2)];
      const utc = mid.slice(0, 19);
      const expected = emu.data.tasks.filter((t) => t.created_time >= mid).length;
      const asUtc = await api.get(`/tasks?${q({ created_from: utc, limit: 1 })}`);
      assert.strictEqual(asUtc.headers.get('x-total-matching-query'), String(expected));
      const shifted = new Date(Date.parse(mid) + 3600_000).toISOString().slice(0, 19) + '+01:00';
      const asOffset = await api.get(`/tasks?${q({ created_from: shifted, limit: 1 })}`);
      assert.strictEqual(asOffset.headers.get('x-total-matching-query'), String(expected));
      const day = mid.slice(0, 10);
      const asDay = await api.get(`/tasks?${q({ created_to: day, limit: 1 })}`);
      const dayMs = Date.parse(`${day}T00:00:00Z`);
      assert.strictEqual(asDay.headers.get('x-total-matching-query'), String(emu.data.tasks.filter((t) => Date.parse(t.created_time) <= dayMs).length));
    });

    it('combines status, project, parent and time filters with AND', async () => {
      const d = emu.data;
      const from = '2026-01-01';
      const expected = d.tasks.filter((t) => t.status === 'FAILED' && t.project === 'rfranklin/variant-calling' && t.created_time >= '2026-01-01T00:00:00Z');
      const items = await allPages(api.get, `/tasks?${q({ status: 'FAILED', project: 'rfranklin/variant-calling', created_from: from, limit: 100 })}`);
      assert.deepStrictEqual(items.map((i) => i.id).sort(), expected.map((t) => t.id).sort());
      const parent = d.batchParents[0];
      const kids = await allPages(api.get, `/tasks?parent=${parent.id}&fields=_all`);
      assert.ok(kids.length > 0);
      assert.ok(kids.every((k) => k.parent === parent.id));
      const ran = await allPages(api.get, `/tasks?${q({ started_from: '2026-01-01', ended_to: '2026-12-31T23:59:59', limit: 100 })}`);
      assert.strictEqual(ran.length, d.tasks.filter((t) => t.start_time && t.end_time && t.start_time >= '2026-01-01' && t.end_time <= '2026-12-31T23:59:59Z').length);
    });

    it('orders by one column, asc or desc, and refuses order without order_by', async () => {
      const asc = await api.get('/tasks?order_by=name&order=asc&limit=100&fields=name');
      const names = (asc.body.items as Json[]).map((i) => i.name as string);
      assert.deepStrictEqual(names, [...names].sort());
      const desc = await api.get('/tasks?order_by=created_time&order=desc&limit=50&fields=created_time');
      const times = (desc.body.items as Json[]).map((i) => i.created_time as string);
      assert.deepStrictEqual(times, [...times].sort().reverse());
      assert.strictEqual((await api.get('/tasks?order=asc')).status, 400);
      assert.strictEqual((await api.get('/tasks?order_by=price')).status, 400);
    });

    it('returns one task in full and 404 for an unknown ID', async () => {
      const t = emu.data.tasks[3];
      const r = await api.get(`/tasks/${t.id}`);
      assert.strictEqual(r.body.id, t.id);
      assert.strictEqual(r.body.href, `${emu.baseUrl}/tasks/${t.id}`);
      assert.ok('execution_status' in r.body && 'inputs' in r.body);
      assert.strictEqual((await api.get('/tasks/00000000-0000-4000-8000-000000000000')).status, 404);
    });
  });

  describe('projects and files', () => {
    it('lists projects with partial name match and returns one by owner/name', async () => {
      const r = await api.get('/projects?name=seq&fields=_all');
      assert.deepStrictEqual((r.body.items as Json[]).map((p) => p.id), ['rfranklin/rna-seq-analysis']);
      const p = await api.get('/projects/rfranklin/my-project');
      assert.strictEqual(p.body.id, 'rfranklin/my-project');
      assert.match(p.body.root_folder as string, HEX24);
      assert.strictEqual((await api.get('/projects/rfranklin/nope')).status, 404);
    });

    it('lists one level of a project or folder, needs exactly one of project/parent, filters by name', async () => {
      const p = emu.data.projects[0];
      const root = await allPages(api.get, `/files?${q({ project: p.id, fields: '_all', limit: 100 })}`);
      assert.deepStrictEqual(root.map((f) => f.id), emu.data.children(p.root_folder).map((f) => f.id));
      assert.ok(root.every((f) => f.parent === p.root_folder));
      const folder = root.find((f) => f.type === 'folder')!;
      const sub = await allPages(api.get, `/files?parent=${folder.id}&limit=100`);
      assert.deepStrictEqual(sub.map((f) => f.id), emu.data.children(folder.id as string).map((f) => f.id));
      assert.strictEqual((await api.get('/files')).status, 400);
      assert.strictEqual((await api.get(`/files?${q({ project: p.id, parent: folder.id })}`)).status, 400);
      const named = await api.get(`/files?${q({ project: p.id, name: folder.name })}`);
      assert.deepStrictEqual((named.body.items as Json[]).map((f) => f.id), [folder.id]);
      const missing = await api.get('/files/ffffffffffffffffffffffff');
      assert.strictEqual(missing.status, 404);
      assert.strictEqual(missing.body.code, 5002);
    });
  });

  describe('copy jobs', () => {
    async function waitFinished(id: string): Promise<Json[]> {
      const seen: Json[] = [];
      for (let i = 0; i < 200; i++) {
        const r = await api.get(`/async/files/copy/${id}`);
        assert.strictEqual(r.status, 200);
        seen.push(r.body);
        if (r.body.state === 'FINISHED') {
          return seen;
        }
        time += 5;
      }
      throw new Error('job did not finish');
    }

    it('goes SUBMITTED → RESOLVING → RUNNING → FINISHED and the copies appear in the listings', async () => {
      const src = emu.data.projects[0];
      const dest = emu.data.projects[2];
      const file = emu.data.children(src.root_folder).find((f) => f.type === 'file')!;
      const folder = emu.data.children(src.root_folder).find((f) => f.type === 'folder')!;
      const before = emu.copyRequests.length;
      const r = await api.post('/async/files/copy', { items: [{ file: file.id, project: dest.id, parent: '' }, { file: folder.id, parent: dest.root_folder }, { file: file.id + 'x', project: dest.id }] });
      assert.strictEqual(r.status, 200);
      assert.match(r.body.id as string, /^\d+$/);
      assert.strictEqual(r.body.state, 'SUBMITTED');
      assert.strictEqual(r.body.href, `${emu.baseUrl}/async/files/copy/${r.body.id}`);
      assert.deepStrictEqual(emu.copyRequests.slice(before).map((c) => [c.jobId, c.status]), [[r.body.id, 200]]);
      const seen = await waitFinished(r.body.id as string);
      const order = ['SUBMITTED', 'RESOLVING', 'RUNNING', 'FINISHED'];
      const idx = seen.map((s) => order.indexOf(s.state as string));
      assert.deepStrictEqual(idx, [...idx].sort());
      const done = seen[seen.length - 1];
      assert.strictEqual(done.completed_files + done.failed_files, done.total_files);
      assert.strictEqual(done.failed_files, 1);
      assert.match(done.started_on as string, TS);
      assert.match(done.finished_on as string, TS);
      assert.strictEqual(done.result.length, 3);
      assert.strictEqual(done.result[0].resource.name, file.name);
      assert.strictEqual(done.result[1].resource.type, 'folder');
      assert.strictEqual(done.result[2].error.code, 10225);
      const listing = await allPages(api.get, `/files?${q({ project: dest.id, limit: 100 })}`);
      assert.ok(listing.some((f) => f.id === done.result[0].resource.id));
      const copiedFolder = await allPages(api.get, `/files?parent=${done.result[1].resource.id}&limit=100`);
      assert.strictEqual(copiedFolder.length, emu.data.children(folder.id).length);

      // Copy the same file again: the name exists, so it becomes 1_<name>, then 2_<name>.
      const again = await api.post('/async/files/copy', { items: [{ file: file.id, project: dest.id }] });
      const d2 = (await waitFinished(again.body.id as string)).pop()!;
      assert.strictEqual(d2.result[0].resource.name, `1_${file.name}`);
      const third = await api.post('/async/files/copy', { items: [{ file: file.id, project: dest.id }] });
      assert.strictEqual((await waitFinished(third.body.id as string)).pop()!.result[0].resource.name, `2_${file.name}`);
      // A folder whose name exists is merged.
      const merged = await api.post('/async/files/copy', { items: [{ file: folder.id, parent: dest.root_folder }] });
      const d4 = (await waitFinished(merged.body.id as string)).pop()!;
      assert.strictEqual(d4.result[0].resource.id, done.result[1].resource.id);
    });

    it('reports per-item errors in request order', async () => {
      const p = emu.data.projects[0];
      const folder = emu.data.children(p.root_folder).find((f) => f.type === 'folder')!;
      const [file, file2] = emu.data.files.filter((f) => f.type === 'file' && f.project === p.id);
      const sub = emu.data.children(folder.id).find((f) => f.type === 'folder');
      const readOnly = emu.data.projects.find((x) => !x.permissions.write)!;
      const items = [
        { file: file.id, parent: folder.id, project: p.id },
        { file: file.id },
        { file: 'aaaaaaaaaaaaaaaaaaaaaaaa', project: p.id },
        { file: p.root_folder, project: emu.data.projects[1].id },
        { file: folder.id, parent: sub ? sub.id : folder.id },
        { file: folder.id, parent: file.id },
        { file: file.id, parent: 'bbbbbbbbbbbbbbbbbbbbbbbb' },
        { file: file.id, project: readOnly.id },
        { file: folder.id, project: 'rfranklin/no-such-project', name: '' },
        { file: file2.id, project: readOnly.id },
      ];
      const r = await api.post('/async/files/copy', { items });
      const done = (await waitFinished(r.body.id as string)).pop()!;
      const codes = (done.result as Json[]).map((x) => x.error?.code ?? 'ok');
      assert.strictEqual(codes[0], 5031);
      assert.strictEqual(codes[1], 5029);
      assert.strictEqual(codes[2], 10225);
      assert.notStrictEqual(codes[3], 'ok');
      assert.strictEqual(codes[4], 10229);
      assert.strictEqual(codes[5], 10231); // same source as item 4
      assert.strictEqual(codes[6], 10228); // first valid use of file.id: the destination is missing
      assert.strictEqual(codes[7], 10231);
      assert.strictEqual(codes[8], 10231);
      assert.strictEqual(done.result[9].error.status, 403); // no write permission on the destination
      const r2 = await api.post('/async/files/copy', { items: [{ file: file.id, parent: file.id }, { file: folder.id, parent: 'cccccccccccccccccccccccc' }] });
      const d2 = (await waitFinished(r2.body.id as string)).pop()!;
      assert.deepStrictEqual((d2.result as Json[]).map((x) => x.error.code), [10227, 10228]);
    });

    it('refuses empty items (10230) and malformed bodies (400) as a whole, and records them', async () => {
      const before = emu.copyRequests.length;
      const empty = await api.post('/async/files/copy', { items: [] });
      assert.strictEqual(empty.status, 400);
      assert.strictEqual(empty.body.code, 10230);
      const bad = await api.post('/async/files/copy', '{"items": [');
      assert.strictEqual(bad.status, 400);
      const noItems = await api.post('/async/files/copy', { files: [] });
      assert.strictEqual(noItems.status, 400);
      const rec = emu.copyRequests.slice(before);
      assert.deepStrictEqual(rec.map((x) => [x.status, x.jobId]), [[400, undefined], [400, undefined], [400, undefined]]);
    });

    it('404s an unknown job with code 10211 and lists the caller\'s jobs newest first', async () => {
      const r = await api.get('/async/files/copy/123');
      assert.strictEqual(r.status, 404);
      assert.strictEqual(r.body.code, 10211);
      const list = await allPages(api.get, '/async/files?limit=2');
      assert.strictEqual(list.length, emu.data.jobs.length);
      assert.deepStrictEqual(list.map((j) => j.id), [...emu.data.jobs].reverse().map((j) => j.id));
    });
  });
});

describe('platform emulator: rate limit and faults', () => {
  it('answers 429 code 1000 past the limit, and /rate_limit does not count', async () => {
    const emu = await startEmulator({ tasks: 20, files: 50, rateLimit: { limit: 3, windowMs: 60_000 } });
    const api = client(emu);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await api.get('/user')).status);
      }
      assert.deepStrictEqual(statuses, [200, 200, 200, 429]);
      const rl = await api.get('/rate_limit');
      assert.strictEqual(rl.status, 200);
      assert.deepStrictEqual(rl.body.rate.limit, 3);
      assert.deepStrictEqual(rl.body.rate.remaining, 0);
      const blocked = await api.get('/user');
      assert.strictEqual(blocked.body.code, 1000);
      assert.strictEqual(blocked.headers.get('x-ratelimit-remaining'), '0');
    } finally {
      await emu.close();
    }
  });

  it('resets the window on the injected clock', async () => {
    let now = Date.parse('2026-06-01T00:00:00Z');
    const emu = await startEmulator({ tasks: 20, files: 50, rateLimit: { limit: 1, windowMs: 1000 }, now: () => now });
    const api = client(emu);
    try {
      assert.strictEqual((await api.get('/user')).status, 200);
      assert.strictEqual((await api.get('/user')).status, 429);
      now += 1000;
      assert.strictEqual((await api.get('/user')).status, 200);
    } finally {
      await emu.close();
    }
  });

  it('injects 429 bursts, maintenance, 500s, drops and malformed bodies', async () => {
    const emu = await startEmulator({ tasks: 20, files: 50 });
    const api = client(emu);
    try {
      emu.burst429(2, 5);
      const a = await api.get('/user');
      const b = await api.get('/user');
      assert.deepStrictEqual([a.status, b.status, a.body.code], [429, 429, 1000]);
      assert.ok(Number(a.headers.get('x-ratelimit-reset')) >= Math.floor(Date.now() / 1000) + 4);
      assert.strictEqual((await api.get('/user')).status, 200);

      emu.maintenance(60_000);
      const m = await api.get('/user');
      assert.deepStrictEqual([m.status, m.body.code], [503, 0]);
      emu.maintenance(0);

      emu.faults.error500Rate = 1;
      assert.strictEqual((await api.get('/user')).status, 500);
      emu.faults.error500Rate = 0;

      emu.faults.dropRate = 1;
      await assert.rejects(fetch(`${emu.baseUrl}/user`, { headers: { 'X-SBG-Auth-Token': emu.token } }));
      emu.faults.dropRate = 0;

      emu.faults.malformedRate = 1;
      const text = await (await fetch(`${emu.baseUrl}/user`, { headers: { 'X-SBG-Auth-Token': emu.token } })).text();
      assert.throws(() => JSON.parse(text));
      emu.faults.malformedRate = 0;
      assert.ok(emu.stats.faultsInjected >= 6);
      assert.strictEqual((await api.get('/user')).status, 200);
    } finally {
      await emu.close();
    }
  });

  it('loses the response of the next copy POST after processing it', async () => {
    const emu = await startEmulator({ tasks: 20, files: 50, copyStepMs: 10 });
    const api = client(emu);
    try {
      const p = emu.data.projects[0];
      const file = emu.data.files.find((f) => f.type === 'file' && f.project === p.id)!;
      emu.loseNextCopyResponse();
      await assert.rejects(api.post('/async/files/copy', { items: [{ file: file.id, project: p.id }] }));
      assert.strictEqual(emu.copyRequests.length, 1);
      const lost = emu.copyRequests[0];
      assert.ok(lost.jobId && lost.responseLost);
      const jobs = await api.get('/async/files');
      assert.strictEqual(jobs.body.items[0].id, lost.jobId);
      // The next one goes through normally.
      const ok = await api.post('/async/files/copy', { items: [{ file: file.id, project: p.id }] });
      assert.strictEqual(ok.status, 200);
      // A POST stopped by a fault before processing is recorded without a job.
      emu.faults.error500Rate = 1;
      assert.strictEqual((await api.post('/async/files/copy', { items: [{ file: file.id, project: p.id }] })).status, 500);
      emu.faults.error500Rate = 0;
      assert.deepStrictEqual(emu.copyRequests.map((c) => [c.status, c.jobId !== undefined]), [[200, true], [200, true]]);
      assert.deepStrictEqual(emu.unprocessedCopyRequests.map((c) => [c.status, c.notProcessed]), [[500, 'fault: error500']]);
    } finally {
      await emu.close();
    }
  });

  it('draws faults deterministically from the seed', async () => {
    const run = async (): Promise<number[]> => {
      const emu = await startEmulator({ tasks: 20, files: 50, seed: 42, faults: { error500Rate: 0.5 } });
      const api = client(emu);
      try {
        const out: number[] = [];
        for (let i = 0; i < 20; i++) {
          out.push((await api.get('/user')).status);
        }
        return out;
      } finally {
        await emu.close();
      }
    };
    const first = await run();
    assert.ok(first.includes(500) && first.includes(200));
    assert.deepStrictEqual(await run(), first);
  });
});
