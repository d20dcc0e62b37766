/** The emulator's file search (platform-api.md §10.2): the query subset, paging by cont_token, and a platform without it. */
import * as assert from 'assert';
import { startEmulator, type Emulator, type FileRec } from '../../emulator';
import { caller, type Json } from './call';

describe('emulator: POST /v2/files/search', function () {
  this.timeout(20_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;

  before(async () => {
    emu = await startEmulator({ tasks: 50, files: 1500 });
    call = caller(emu);
  });
  after(() => emu.close());

  const project = () => emu.data.projects[1];
  const loc = (p = project()) => `"/Projects/${p.id}"`;
  const subtree = (p = project()): FileRec[] => emu.data.files.filter((f) => f.project === p.id && f.parent !== null);
  const sortIds = (list: readonly { id?: unknown }[]) => list.map((f) => String(f.id)).sort();

  /** Every record a query finds, page by page through cont_token; checks each page's count. */
  async function searchAll(q: string, limit = 7): Promise<Json[]> {
    const out: Json[] = [];
    let token: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const r = await call('POST', `/files/search?limit=${limit}${token ? `&cont_token=${encodeURIComponent(token)}` : ''}`, { query: q });
      assert.strictEqual(r.status, 200, `${q}: ${r.text}`);
      assert.deepStrictEqual(Object.keys(r.body).sort(), ['cont_token', 'count', 'result_set']);
      assert.strictEqual(r.body.count, r.body.result_set.length);
      assert.ok(r.body.result_set.length <= limit);
      out.push(...r.body.result_set);
      token = r.body.cont_token;
      if (token === null) return out;
    }
    throw new Error('no end');
  }

  it('IN a project: its root entries; RECURSIVE: everything below, each once, in pages', async () => {
    const root = await searchAll(`IN ${loc()}`);
    assert.deepStrictEqual(root.map((f) => f.id), emu.data.children(project().root_folder).map((f) => f.id));
    const all = await searchAll(`IN ${loc()} RECURSIVE`, 100);
    assert.deepStrictEqual(sortIds(all), sortIds(subtree()));
    assert.ok(all.every((f) => f.type === 'FILE' || f.type === 'FOLDER'), 'type in capitals');
    const folder = all.find((f) => f.type === 'FOLDER')!;
    assert.strictEqual(folder.size, undefined);
    assert.ok(all.some((f) => f.tags.length > 0) && all.some((f) => Object.keys(f.metadata).length > 0), 'the seed has tags and metadata to find');
  });

  it('WHERE name = (exact), LIKE (partial, case-insensitive, the emulator\'s pick), type, tags, metadata, AND / OR / NOT', async () => {
    const files = subtree().filter((f) => f.type === 'file');
    const target = files[5];
    const q = (where: string) => searchAll(`IN ${loc()} WHERE ${where} RECURSIVE`);
    assert.deepStrictEqual(sortIds(await q(`name = "${target.name}"`)), sortIds(files.filter((f) => f.name === target.name)));
    const part = target.name.slice(2, 8);
    assert.deepStrictEqual(sortIds(await q(`name LIKE "%${part.toUpperCase()}%"`)), sortIds(subtree().filter((f) => f.name.toLowerCase().includes(part.toLowerCase()))));
    assert.deepStrictEqual(sortIds(await q('type = "folder"')), sortIds(subtree().filter((f) => f.type === 'folder')));
    const tagged = files.filter((f) => f.tags.includes('tumor') || f.tags.includes('normal'));
    assert.ok(tagged.length > 0);
    assert.deepStrictEqual(sortIds(await q('tags IN ("tumor", "normal")')), sortIds(tagged));
    assert.deepStrictEqual(sortIds(await q('tags = "tumor" AND NOT metadata.platform = "PacBio"')), sortIds(files.filter((f) => f.tags.includes('tumor') && f.metadata.platform !== 'PacBio')));
    const sample = files.find((f) => f.metadata.sample_id)!.metadata.sample_id;
    assert.deepStrictEqual(
      sortIds(await q(`(metadata.sample_id = "${sample}" OR tags = "qc-passed") and type = "FILE"`)),
      sortIds(files.filter((f) => f.metadata.sample_id === sample || f.tags.includes('qc-passed'))),
    );
    assert.deepStrictEqual(sortIds(await q('file_extension IN ("bam", "BAI")')), sortIds(files.filter((f) => /\.(bam|bai)$/.test(f.name))));
    assert.deepStrictEqual(sortIds(await q('size >= 1000000000')), sortIds(files.filter((f) => f.size! >= 1e9)));
    assert.deepStrictEqual(await q(`name = "${target.name.toUpperCase()}x"`), []);
  });

  it('a folder as location, several projects, ORDER BY, LIMIT and TOKEN in the query', async () => {
    const folder = emu.data.children(project().root_folder).find((f) => f.type === 'folder' && emu.data.children(f.id).length > 1)!;
    const inFolder = await searchAll(`IN "/Projects/${project().id}/${folder.name}"`);
    assert.deepStrictEqual(inFolder.map((f) => f.id), emu.data.children(folder.id).map((f) => f.id));
    const two = await searchAll(`in ${loc()}, ${loc(emu.data.projects[2])} where type = "FILE"`, 100);
    assert.deepStrictEqual(sortIds(two), sortIds([project(), emu.data.projects[2]].flatMap((p) => emu.data.children(p.root_folder).filter((f) => f.type === 'file'))));
    const ordered = await searchAll(`IN ${loc()} ORDER BY name DESC RECURSIVE`, 100);
    const names = ordered.map((f) => f.name as string);
    assert.deepStrictEqual(names, [...names].sort().reverse());
    const first = await call('POST', '/files/search', { query: `IN ${loc()} RECURSIVE LIMIT 3` });
    assert.strictEqual(first.body.count, 3);
    const second = await call('POST', '/files/search', { query: `IN ${loc()} RECURSIVE LIMIT 3 TOKEN "${first.body.cont_token}"` });
    assert.deepStrictEqual(sortIds([...first.body.result_set, ...second.body.result_set]).length, 6);
    assert.ok(!second.body.result_set.some((f: Json) => first.body.result_set.some((g: Json) => g.id === f.id)));
  });

  it('refuses a syntax error, an unknown field or location, a token of another query, a limit over 100', async () => {
    const first = await call('POST', '/files/search?limit=2', { query: `IN ${loc()}` });
    for (const [q, status, says] of [
      ['WHERE name = "x"', 400, /expected IN/],
      [`IN ${loc()} WHERE name = `, 400, /expected a value/],
      [`IN ${loc()} WHERE colour = "red"`, 400, /unknown field 'colour'/],
      [`IN ${loc()} WHERE name = "x`, 400, /not closed/],
      [`IN ${loc()} WHERE name > "x"`, 400, /compares numbers/],
      [`IN ${loc()} LIMIT 3 LIMIT 4`, 400, /twice/],
      ['IN "/Projects/nobody/nothing"', 400, /does not exist/],
      [`IN "/Projects/${project().id}/no-such-folder"`, 400, /no folder/],
      ['IN "/Datasets/x"', 400, /projects only/],
      [`IN ${loc(emu.data.projects[2])} TOKEN "${first.body.cont_token}"`, 400, /cont_token/],
      [`IN ${loc()} TOKEN "garbage"`, 400, /cont_token/],
      [`IN ${loc()} LIMIT 101`, 400, /100/],
    ] as [string, number, RegExp][]) {
      const r = await call('POST', '/files/search', { query: q });
      assert.strictEqual(r.status, status, q);
      assert.match(r.body.message, says, q);
    }
    assert.strictEqual((await call('POST', '/files/search?limit=0', { query: `IN ${loc()}` })).status, 400);
    assert.strictEqual((await call('POST', '/files/search', { q: 'x' })).status, 400);
  });

  it('a platform without the search: 404 as an unknown route, or 403; and back', async () => {
    emu.searchSettings.mode = 'absent';
    const absent = await call('POST', '/files/search', { query: `IN ${loc()}` });
    const unknown = await call('POST', '/files/no-such-call', { query: `IN ${loc()}` });
    assert.deepStrictEqual([absent.status, absent.body.code], [404, unknown.body.code]);
    emu.searchSettings.mode = 'forbidden';
    const forbidden = await call('POST', '/files/search', { query: `IN ${loc()}` });
    assert.deepStrictEqual([forbidden.status, forbidden.body.code], [403, 90002]);
    emu.searchSettings.mode = 'available';
    assert.strictEqual((await call('POST', '/files/search', { query: `IN ${loc()}` })).status, 200);
    const off = await startEmulator({ tasks: 10, files: 50, search: 'absent' });
    try {
      assert.strictEqual((await caller(off)('POST', '/files/search', { query: 'IN "/Projects/rfranklin/my-project"' })).status, 404);
    } finally {
      await off.close();
    }
  });

  it('a search only reads: it is not a write, and it counts against the rate limit', async () => {
    const writes = emu.writes.length;
    const r = await call('POST', '/files/search', { query: `IN ${loc()}` });
    const again = await call('POST', '/files/search', { query: `IN ${loc()}` });
    assert.strictEqual(Number(again.headers.get('x-ratelimit-remaining')), Number(r.headers.get('x-ratelimit-remaining')) - 1);
    assert.strictEqual(emu.writes.length, writes);
  });
});
