/** The emulator's file management (platform-api.md §9): folders, rename, tags, metadata, single move, delete, bulk calls. */
import * as assert from 'assert';
import { startEmulator, type Emulator, type FileRec } from '../../emulator';
import { caller, query, type Json } from './call';

const HEX24 = /^[0-9a-f]{24}$/;

describe('emulator: file management', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;
  const project = () => emu.data.projects[0];
  const readOnly = () => emu.data.projects.find((p) => !p.permissions.write)!;
  const rootFiles = (p = project()) => emu.data.children(p.root_folder).filter((f) => f.type === 'file');
  const rootFolders = (p = project()) => emu.data.children(p.root_folder).filter((f) => f.type === 'folder');
  const names = (folderId: string) => emu.data.children(folderId).map((f) => f.name);

  const NOW = Date.parse('2026-11-20T12:00:00Z');

  beforeEach(async () => {
    emu = await startEmulator({ tasks: 30, files: 400, batches: [], now: () => NOW });
    call = caller(emu);
  });
  afterEach(() => emu.close());

  describe('POST /v2/files: a folder', () => {
    it('in a project root or a folder, 201 with the folder record, listed at once', async () => {
      const r = await call('POST', '/files', { name: 'my new folder', type: 'folder', project: project().id });
      assert.strictEqual(r.status, 201);
      assert.match(r.body.id, HEX24);
      assert.strictEqual(r.body.type, 'folder');
      assert.strictEqual(r.body.parent, project().root_folder);
      assert.strictEqual(r.body.href, `${emu.baseUrl}/files/${r.body.id}`);
      assert.strictEqual(r.body.size, undefined);
      const inner = await call('POST', '/files', { name: 'inner', type: 'FOLDER', parent: r.body.id });
      assert.strictEqual(inner.status, 201, 'FOLDER in capitals, as the R client sends it');
      assert.strictEqual(inner.body.project, project().id);
      const listed = await call('GET', `/files/${r.body.id}/list`);
      assert.deepStrictEqual(listed.body.items.map((f: Json) => f.id), [inner.body.id]);
      assert.strictEqual(listed.headers.get('x-total-matching-query'), '1');
      const byName = await call('GET', `/files?${query([['project', project().id], ['name', 'my new folder']])}`);
      assert.deepStrictEqual(byName.body.items.map((f: Json) => f.id), [r.body.id]);
    });

    it('refuses what the platform refuses, with its codes, and makes nothing', async () => {
      const taken = rootFolders()[0];
      const takenFile = rootFiles()[0];
      const before = emu.data.files.length;
      const cases: [unknown, number, number | undefined][] = [
        [{ name: 'x', type: 'folder' }, 400, 5029],
        [{ name: 'x', type: 'folder', project: project().id, parent: taken.id }, 400, 5031],
        [{ name: 'x', type: 'folder', project: project().id, parent: '' }, 201, undefined],
        [{ name: '__hidden', type: 'folder', project: project().id }, 400, 90000],
        [{ name: 'a/b', type: 'folder', project: project().id }, 400, 90000],
        [{ name: '', type: 'folder', project: project().id }, 400, 90000],
        [{ name: '   ', type: 'folder', project: project().id }, 400, 90000],
        [{ name: 'x'.repeat(256), type: 'folder', project: project().id }, 400, 90000],
        [{ name: 'y', type: 'file', project: project().id }, 400, 90000],
        [{ name: taken.name, type: 'folder', project: project().id }, 409, 10224],
        [{ name: takenFile.name, type: 'folder', project: project().id }, 409, 10223],
        [{ name: 'x2', type: 'folder', parent: 'ffffffffffffffffffffffff' }, 404, 5026],
        [{ name: 'x3', type: 'folder', parent: takenFile.id }, 400, 5022],
        [{ name: 'x4', type: 'folder', project: 'nobody/nothing' }, 404, 90003],
        [{ name: 'x5', type: 'folder', project: readOnly().id }, 403, 90002],
        ['{"name": ', 400, 90000],
      ];
      for (const [body, status, code] of cases) {
        const r = await call('POST', '/files', body);
        assert.strictEqual(r.status, status, JSON.stringify(body).slice(0, 80));
        if (code !== undefined) {
          assert.strictEqual(r.body.code, code, JSON.stringify(body).slice(0, 80));
          assert.ok(typeof r.body.message === 'string' && r.body.message.length > 10, r.body.message);
        }
      }
      assert.strictEqual(emu.data.files.length, before + 1, 'only the one with an empty parent (read as absent) was made');
      assert.strictEqual(emu.data.children(project().root_folder).filter((f) => f.name === 'x').length, 1);
    });

    it('a name that differs in case only is another name', async () => {
      const taken = rootFolders()[0];
      assert.strictEqual((await call('POST', '/files', { name: taken.name.toUpperCase(), type: 'folder', project: project().id })).status, 201);
    });
  });

  describe('GET /v2/files/{id}/list', () => {
    it('pages a folder like GET /v2/files?parent=, and refuses a file or a missing ID', async () => {
      const folder = emu.data.files.filter((f) => f.type === 'folder').sort((a, b) => emu.data.children(b.id).length - emu.data.children(a.id).length)[0];
      const expected = emu.data.children(folder.id).map((f) => f.id);
      assert.ok(expected.length > 3);
      const got: string[] = [];
      let next: string | undefined = `/files/${folder.id}/list?limit=3&fields=_all`;
      while (next) {
        const r = await call('GET', next);
        assert.strictEqual(r.status, 200);
        got.push(...r.body.items.map((f: Json) => f.id));
        assert.ok(r.body.items.every((f: Json) => f.type === 'file' || f.type === 'folder'));
        next = r.body.links.find((l: Json) => l.rel === 'next')?.href;
      }
      assert.deepStrictEqual(got, expected);
      assert.strictEqual((await call('GET', `/files/${rootFiles()[0].id}/list`)).body.code, 5022);
      assert.strictEqual((await call('GET', '/files/ffffffffffffffffffffffff/list')).status, 404);
    });
  });

  describe('PATCH /v2/files/{id}', () => {
    it('renames, and replaces tags and metadata', async () => {
      const f = rootFiles()[0];
      const r = await call('PATCH', `/files/${f.id}`, { name: 'renamed.bam', tags: ['b', 'a', 'b'], metadata: { sample_id: 's9', gone: null } });
      assert.strictEqual(r.status, 200);
      assert.strictEqual(r.body.id, f.id);
      assert.strictEqual(r.body.name, 'renamed.bam');
      assert.deepStrictEqual(r.body.tags, ['b', 'a']);
      assert.deepStrictEqual(r.body.metadata, { sample_id: 's9' }, 'the whole set replaced; a null value ignored');
      assert.strictEqual(r.body.modified_on, '2026-11-20T12:00:00Z');
      const again = await call('PATCH', `/files/${f.id}`, { tags: [] });
      assert.deepStrictEqual(again.body.tags, []);
      assert.strictEqual(again.body.name, 'renamed.bam', 'what is left out stays');
      assert.deepStrictEqual(again.body.metadata, { sample_id: 's9' });
    });

    it('refuses a taken name (409), a bad name, a read-only field, the root and a read-only project; nothing changes', async () => {
      const [a, b] = rootFiles();
      const folder = rootFolders()[0];
      const snapshot = JSON.stringify(a);
      for (const [body, status, code] of [
        [{ name: b.name }, 409, 10223],
        [{ name: folder.name }, 409, 10224],
        [{ name: 'ok.txt', metadata: { k: 1 } }, 400, 90000],
        [{ name: 'x/y' }, 400, 90000],
        [{ name: 'ok.txt', parent: folder.id }, 400, 90000],
        [{ size: 1 }, 400, 90000],
        [{ tags: 'one' }, 400, 90000],
        [{ tags: [''] }, 400, 90000],
      ] as [Json, number, number][]) {
        const r = await call('PATCH', `/files/${a.id}`, body);
        assert.deepStrictEqual([r.status, r.body.code], [status, code], JSON.stringify(body));
      }
      assert.strictEqual(JSON.stringify(a), snapshot, 'nothing changed');
      assert.strictEqual((await call('PATCH', `/files/${a.id}`, { name: a.name })).status, 200, 'its own name is not a clash');
      assert.strictEqual((await call('PATCH', `/files/${project().root_folder}`, { name: 'root2' })).status, 400);
      const ro = emu.data.children(readOnly().root_folder)[0];
      assert.strictEqual((await call('PATCH', `/files/${ro.id}`, { tags: ['x'] })).status, 403);
      assert.strictEqual((await call('PATCH', '/files/ffffffffffffffffffffffff', { tags: ['x'] })).body.code, 5002);
    });
  });

  describe('PUT /v2/files/{id}/tags', () => {
    it('replaces the tags and answers them; refuses what is not a list of texts', async () => {
      const f = rootFiles()[0];
      const r = await call('PUT', `/files/${f.id}/tags`, ['tumor', 'with,comma']);
      assert.deepStrictEqual([r.status, r.body], [200, ['tumor', 'with,comma']]);
      assert.deepStrictEqual(f.tags, ['tumor', 'with,comma']);
      for (const bad of [{ tags: ['x'] }, [1], [null], 'x']) {
        assert.strictEqual((await call('PUT', `/files/${f.id}/tags`, bad)).status, 400, JSON.stringify(bad));
      }
      assert.deepStrictEqual(f.tags, ['tumor', 'with,comma']);
    });
  });

  describe('metadata', () => {
    it('GET answers the set; PATCH merges; PUT replaces; keys are case-sensitive; null is ignored', async () => {
      const f = rootFiles()[0];
      assert.deepStrictEqual((await call('GET', `/files/${f.id}/metadata`)).body, f.metadata);
      await call('PUT', `/files/${f.id}/metadata`, { Sample: 'A', sample: 'a' });
      const merged = await call('PATCH', `/files/${f.id}/metadata`, { sample: 'b', extra: 'e', Sample: null });
      assert.deepStrictEqual([merged.status, merged.body], [200, { Sample: 'A', sample: 'b', extra: 'e' }]);
      const replaced = await call('PUT', `/files/${f.id}/metadata`, { only: 'this' });
      assert.deepStrictEqual(replaced.body, { only: 'this' });
      assert.deepStrictEqual((await call('GET', `/files/${f.id}`)).body.metadata, { only: 'this' });
    });

    it('the limits: 1000 pairs, a key of 100 bytes, a value of 300 bytes (UTF-8); a refusal says which and changes nothing', async () => {
      const f = rootFiles()[0];
      const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
      assert.strictEqual((await call('PUT', `/files/${f.id}/metadata`, pairs(1000))).status, 200);
      const over = await call('PATCH', `/files/${f.id}/metadata`, { one_more: 'v' });
      assert.strictEqual(over.status, 400);
      assert.match(over.body.message, /1000/);
      assert.strictEqual(Object.keys(f.metadata).length, 1000);
      assert.strictEqual((await call('PUT', `/files/${f.id}/metadata`, pairs(1001))).status, 400);
      const ok = { ['é'.repeat(50)]: 'ü'.repeat(150), ['k'.repeat(100)]: 'v'.repeat(300) };
      assert.strictEqual((await call('PUT', `/files/${f.id}/metadata`, ok)).status, 200, '100-byte key, 300-byte values');
      for (const [bad, says] of [
        [{ ['é'.repeat(50) + 'x']: 'v' }, /101 bytes/],
        [{ k: 'ü'.repeat(150) + 'x' }, /301 bytes/],
        [{ '': 'v' }, /empty/],
        [{ k: 5 }, /text/],
        [{ k: { nested: 'v' } }, /text/],
        [['k', 'v'], /object/],
      ] as [unknown, RegExp][]) {
        const r = await call('PUT', `/files/${f.id}/metadata`, bad);
        assert.strictEqual(r.status, 400, JSON.stringify(bad).slice(0, 40));
        assert.match(r.body.message, says);
      }
      assert.deepStrictEqual(f.metadata, ok);
    });
  });

  describe('POST /v2/files/{id}/actions/move', () => {
    it('moves a file to another folder of its project (ID kept), optionally renamed', async () => {
      const f = rootFiles()[0];
      const dest = rootFolders()[0];
      const r = await call('POST', `/files/${f.id}/actions/move`, { parent: dest.id, name: 'moved.txt' });
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual([r.body.id, r.body.parent, r.body.name], [f.id, dest.id, 'moved.txt']);
      assert.ok(names(dest.id).includes('moved.txt'));
      assert.ok(!emu.data.children(project().root_folder).includes(f));
      const same = await call('POST', `/files/${f.id}/actions/move`, { parent: dest.id });
      assert.deepStrictEqual([same.status, same.body.name], [200, 'moved.txt'], 'where it is already: nothing changes');
    });

    it('refuses a folder, another project, a taken name, a missing or non-folder parent, a read-only project', async () => {
      const [f, other] = rootFiles();
      const folder = rootFolders()[0];
      const elsewhere = emu.data.projects[1].root_folder;
      for (const [id, body, status, code] of [
        [folder.id, { parent: project().root_folder }, 400, 90000],
        [f.id, { parent: elsewhere }, 400, 90000],
        [f.id, { parent: project().root_folder, name: other.name }, 409, 10223],
        [f.id, {}, 400, 5029],
        [f.id, { parent: 'ffffffffffffffffffffffff' }, 404, 5026],
        [f.id, { parent: other.id }, 400, 5022],
        ['ffffffffffffffffffffffff', { parent: folder.id }, 404, 5002],
      ] as [string, Json, number, number][]) {
        const r = await call('POST', `/files/${id}/actions/move`, body);
        assert.deepStrictEqual([r.status, r.body.code], [status, code], JSON.stringify(body));
      }
      assert.strictEqual(f.parent, project().root_folder);
      const roFiles = emu.data.children(readOnly().root_folder).filter((x) => x.type === 'file');
      const roFolder = emu.data.children(readOnly().root_folder).find((x) => x.type === 'folder');
      if (roFolder) assert.strictEqual((await call('POST', `/files/${roFiles[0].id}/actions/move`, { parent: roFolder.id })).status, 403);
    });
  });

  describe('DELETE /v2/files/{id}', () => {
    it('204 without a body; the file is gone; an empty folder goes too', async () => {
      const f = rootFiles()[0];
      const r = await call('DELETE', `/files/${f.id}`);
      assert.deepStrictEqual([r.status, r.text], [204, '']);
      assert.ok(r.headers.get('x-ratelimit-remaining'));
      assert.strictEqual((await call('GET', `/files/${f.id}`)).status, 404);
      assert.strictEqual((await call('DELETE', `/files/${f.id}`)).body.code, 5002, 'deleted twice: 404');
      const empty = await call('POST', '/files', { name: 'empty', type: 'folder', project: project().id });
      assert.strictEqual((await call('DELETE', `/files/${empty.body.id}`)).status, 204);
    });

    it('refuses a folder that is not empty, a root folder and a read-only project', async () => {
      const full = rootFolders().find((f) => emu.data.children(f.id).length > 0)!;
      const r = await call('DELETE', `/files/${full.id}`);
      assert.strictEqual(r.status, 400);
      assert.match(r.body.message, /not empty.*asynchronous delete/);
      assert.ok(emu.data.fileById.has(full.id));
      assert.strictEqual((await call('DELETE', `/files/${project().root_folder}`)).status, 400);
      assert.strictEqual((await call('DELETE', `/files/${emu.data.children(readOnly().root_folder)[0].id}`)).status, 403);
    });
  });

  describe('bulk calls', () => {
    it('get: one entry per ID in request order, an error for a missing one', async () => {
      const [a, b] = rootFiles();
      const r = await call('POST', '/bulk/files/get', { file_ids: [b.id, 'ffffffffffffffffffffffff', a.id] });
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual(r.body.items.map((i: Json) => i.resource?.id ?? i.error.code), [b.id, 5002, a.id]);
      assert.strictEqual(r.body.items[0].resource.name, b.name);
    });

    it('update replaces (what is left out is erased); edit merges (what is left out is kept)', async () => {
      const [a, b] = rootFiles();
      await call('PUT', `/files/${a.id}/metadata`, { keep: '1' });
      await call('PUT', `/files/${b.id}/metadata`, { keep: '1' });
      await call('PUT', `/files/${a.id}/tags`, ['t']);
      await call('PUT', `/files/${b.id}/tags`, ['t']);
      const u = await call('POST', '/bulk/files/update', { items: [{ id: a.id, metadata: { added: '2' } }] });
      assert.deepStrictEqual([u.body.items[0].resource.metadata, u.body.items[0].resource.tags, u.body.items[0].resource.name], [{ added: '2' }, [], a.name]);
      const e = await call('POST', '/bulk/files/edit', { items: [{ id: b.id, metadata: { added: '2' }, name: 'edited.txt' }] });
      assert.deepStrictEqual([e.body.items[0].resource.metadata, e.body.items[0].resource.tags, e.body.items[0].resource.name], [{ keep: '1', added: '2' }, ['t'], 'edited.txt']);
    });

    it("an item's refusal is its own; the others go ahead", async () => {
      const [a, b, c] = rootFiles();
      const r = await call('POST', '/bulk/files/edit', {
        items: [{ id: a.id, name: b.name }, { id: b.id, tags: ['ok'] }, { id: c.id, metadata: { k: 'v'.repeat(301) } }, { name: 'no id' }, { id: 'ffffffffffffffffffffffff', tags: [] }],
      });
      assert.deepStrictEqual(r.body.items.map((i: Json) => i.error?.status ?? 'ok'), [409, 'ok', 400, 400, 404]);
      assert.deepStrictEqual(b.tags, ['ok']);
      assert.strictEqual(a.name !== b.name, true);
    });

    it('delete: each as DELETE would (a full folder refused), the record as it was', async () => {
      const [a] = rootFiles();
      const full = rootFolders().find((f) => emu.data.children(f.id).length > 0)!;
      const r = await call('POST', '/bulk/files/delete', { file_ids: [a.id, full.id, a.id] });
      assert.deepStrictEqual(r.body.items.map((i: Json) => i.resource?.id ?? i.error.status), [a.id, 400, 404]);
      assert.strictEqual(r.body.items[0].resource.name, a.name);
      assert.ok(!emu.data.fileById.has(a.id));
      assert.ok(emu.data.fileById.has(full.id));
    });

    it('at most 100 items, at least 1, and the body named as platform-api.md says', async () => {
      const ids = emu.data.files.slice(0, 101).map((f) => f.id);
      for (const path of ['/bulk/files/get', '/bulk/files/delete']) {
        const r = await call('POST', path, { file_ids: ids });
        assert.strictEqual(r.status, 400, path);
        assert.match(r.body.message, /100/);
        assert.strictEqual((await call('POST', path, { file_ids: [] })).status, 400);
        assert.strictEqual((await call('POST', path, { ids: ids.slice(0, 2) })).status, 400);
      }
      assert.strictEqual((await call('POST', '/bulk/files/get', { file_ids: ids.slice(0, 100) })).body.items.length, 100);
      for (const path of ['/bulk/files/update', '/bulk/files/edit']) {
        assert.strictEqual((await call('POST', path, { items: ids.map((id) => ({ id })) })).status, 400, path);
      }
      assert.ok(emu.data.fileById.has(ids[0]), 'nothing deleted by a refused call');
    });
  });

  describe('GET /v2/files filters', () => {
    /** Every item of a listing, through its next links. */
    async function all(first: string): Promise<Json[]> {
      const out: Json[] = [];
      let next: string | undefined = first;
      while (next) {
        const r = await call('GET', next);
        assert.strictEqual(r.status, 200, r.text);
        out.push(...r.body.items);
        next = r.body.links.find((l: Json) => l.rel === 'next')?.href;
      }
      return out;
    }
    const busiest = (): FileRec => {
      const folders = emu.data.files.filter((f) => f.type === 'folder');
      return folders.sort((a, b) => emu.data.children(b.id).length - emu.data.children(a.id).length)[0];
    };

    it('name is exact and repeatable (OR); the next link carries every value', async () => {
      const folder = busiest();
      const kids = emu.data.children(folder.id);
      const wanted = kids.slice(0, 3).map((f) => f.name);
      const got = await all(`/files?${query([['parent', folder.id], ['limit', 2], ...wanted.map((n): [string, string] => ['name', n]), ['name', 'no-such-name']])}`);
      assert.deepStrictEqual(got.map((f) => f.name), wanted);
      const partial = await all(`/files?${query([['parent', folder.id], ['name', wanted[0].slice(0, 4)]])}`);
      assert.deepStrictEqual(partial, [], 'a part of a name matches nothing');
    });

    it('tag, metadata.<field> (repeatable, OR) and origin.task; different parameters AND', async () => {
      const p = emu.data.projects[0];
      const kids = emu.data.children(p.root_folder).filter((f) => f.type === 'file');
      const [a, b, c] = kids;
      await call('PUT', `/files/${a.id}/tags`, ['x1']);
      await call('PUT', `/files/${b.id}/tags`, ['x2', 'x1']);
      await call('PUT', `/files/${c.id}/tags`, ['x3']);
      await call('PUT', `/files/${a.id}/metadata`, { lane: '1', kind: 'tumor' });
      await call('PUT', `/files/${b.id}/metadata`, { lane: '2', kind: 'normal' });
      await call('PUT', `/files/${c.id}/metadata`, { lane: '3', kind: 'tumor' });
      const ids = async (params: [string, string][]) => (await all(`/files?${query([['project', p.id], ...params])}`)).map((f) => f.id).sort();
      assert.deepStrictEqual(await ids([['tag', 'x1']]), [a.id, b.id].sort());
      assert.deepStrictEqual(await ids([['tag', 'x2'], ['tag', 'x3']]), [b.id, c.id].sort());
      assert.deepStrictEqual(await ids([['metadata.lane', '1'], ['metadata.lane', '3']]), [a.id, c.id].sort());
      assert.deepStrictEqual(await ids([['metadata.lane', '1'], ['metadata.lane', '3'], ['metadata.kind', 'normal']]), [], 'AND across fields');
      assert.deepStrictEqual(await ids([['metadata.kind', 'tumor'], ['tag', 'x1']]), [a.id]);
      assert.deepStrictEqual(await ids([['metadata.Lane', '1']]), [], 'keys are case-sensitive');
      const output = emu.data.files.find((f) => f.origin.task && f.parent)!;
      const byTask = await all(`/files?${query([['parent', output.parent!], ['origin.task', output.origin.task!]])}`);
      assert.ok(byTask.length >= 1 && byTask.some((f) => f.id === output.id));
      assert.ok(byTask.every((f) => emu.data.fileById.get(f.id)!.origin.task === output.origin.task));
    });

    it('still refuses a repeated parameter that is not a filter', async () => {
      for (const params of [[['project', project().id], ['project', project().id]], [['project', project().id], ['limit', 5], ['limit', 6]], [['project', project().id], ['fields', 'id'], ['fields', 'name']]] as [string, string][][]) {
        assert.strictEqual((await call('GET', `/files?${query(params)}`)).status, 400, JSON.stringify(params));
      }
      assert.strictEqual((await call('GET', `/tasks?${query([['status', 'FAILED'], ['status', 'RUNNING']])}`)).status, 400);
    });
  });
});
