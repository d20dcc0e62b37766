import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import type { FileLocation } from '../../../src/api/files';
import type { FileFilters, FileRecord, Page, SearchPage } from '../../../src/api/types';
import { FileFinder, findProblem, findWay, listFilters, searchQueries, type FindClient } from '../../../src/files/find';
import { foundDescription, foundPath, type FindSpec } from '../../../src/files/foundWords';
import { FilesTreeModel } from '../../../src/files/filesModel';
import type { FileNode, MessageNode } from '../../../src/files/fileNodes';
import { FakeFiles, fileId } from '../../support/fakeFiles';

const TASK = '0b9f7c5e-1f2a-4c3b-9d8e-7a6b5c4d3e2f';
const file = (n: number, project = 'me/alpha', parent = fileId(1)): FileRecord => ({ href: '', id: fileId(n), name: `f${n}.bam`, type: 'file', project, parent, tags: ['tumor'] });

/**
 * A platform with the search (answering `pages` pages of 100 for every query, or refusing it with `searchStatus`) and
 * the list filters (answering `listed[project]` at the top level): every call recorded.
 */
function client(options: { pages?: number; searchStatus?: number; listed?: Record<string, number> } = {}) {
  const calls: string[] = [];
  const fake: FindClient = {
    search: {
      page: async (query, request = {}): Promise<SearchPage> => {
        calls.push(`search ${request.contToken ?? 'first'} ${query}`);
        if (options.searchStatus) throw new ApiError({ kind: 'http', status: options.searchStatus, message: 'no search' });
        const at = Number(request.contToken ?? 0);
        const pages = options.pages ?? 1;
        const results = Array.from({ length: 100 }, (_, i) => file(at * 100 + i + 10));
        return { results, contToken: at + 1 < pages ? String(at + 1) : undefined, count: 100 };
      },
    },
    files: {
      list: async (location: FileLocation, page: { offset?: number } & FileFilters): Promise<Page<FileRecord>> => {
        const where = 'project' in location ? location.project : location.parent;
        calls.push(`list ${where} ${JSON.stringify({ name: page.name, tag: page.tag, metadata: page.metadata, originTask: page.originTask })}`);
        const n = options.listed?.[where] ?? 0;
        const base = 500 + 10 * Object.keys(options.listed ?? {}).indexOf(where);
        return { items: Array.from({ length: n }, (_, i) => file(base + i, where)), total: n, next: undefined };
      },
      next: async () => Promise.reject(new Error('no next links here')),
    },
  };
  return { fake, calls };
}

const spec = (extra: Partial<FindSpec>): FindSpec => ({ projects: ['me/alpha'], ...extra });

describe('Find Files: the query builder', () => {
  it('says what cannot be searched before anything is sent', () => {
    assert.strictEqual(findProblem(spec({})), 'Give a name, a tag, a metadata field or a task to find files by.');
    assert.strictEqual(findProblem(spec({ name: '  ' })), 'Give a name to find.');
    assert.strictEqual(findProblem(spec({ tag: '' })), 'Give a tag to find.');
    assert.strictEqual(findProblem(spec({ metadata: { field: '', value: 'x' } })), 'Give a metadata field and its value, as field=value.');
    assert.strictEqual(findProblem(spec({ task: 'nope' })), '"nope" is not a task ID (a UUID).');
    assert.strictEqual(findProblem(spec({ namePart: 'bam', task: TASK })), 'A part of a name cannot be combined with the task that produced the files: give the whole name.');
    assert.strictEqual(findProblem(spec({ namePart: 'bam', folder: { id: fileId(3), name: 'reads', project: 'me/alpha' } })), undefined, 'a folder is walked');
    assert.strictEqual(findProblem({ projects: [], tag: 'x' }), 'There is no project to search.');
    assert.strictEqual(findProblem(spec({ tag: 'a,b' })), undefined, 'a tag with a comma is one tag');
  });

  it('sends the search where it is offered, the list filters for a folder, a task, or when it is not', () => {
    assert.strictEqual(findWay(spec({ tag: 'x' }), true), 'search');
    assert.strictEqual(findWay(spec({ name: 'a.bam' }), true), 'search');
    assert.strictEqual(findWay(spec({ task: TASK }), true), 'list');
    assert.strictEqual(findWay(spec({ name: 'a.bam', folder: { id: fileId(3), name: 'reads', project: 'me/alpha' } }), true), 'list');
    assert.strictEqual(findWay(spec({ tag: 'x' }), false), 'list');
    assert.strictEqual(findWay(spec({ namePart: 'bam' }), true), 'search');
    assert.strictEqual(findWay(spec({ namePart: 'bam' }), false), 'walk');
    assert.strictEqual(findWay(spec({ namePart: 'bam', folder: { id: fileId(3), name: 'reads', project: 'me/alpha' } }), true), 'walk');
  });

  it('writes the list filters and one query per 10 projects', () => {
    assert.deepStrictEqual(listFilters(spec({ name: 'a.bam', tag: 't', metadata: { field: 'sample_id', value: 'S1' }, task: ` ${TASK}` })), {
      name: 'a.bam',
      tag: ['t'],
      metadata: { sample_id: 'S1' },
      originTask: TASK,
    });
    // A part of a name has no operator in the documented syntax: the other conditions only, the names compared here.
    assert.deepStrictEqual(searchQueries(spec({ namePart: 'chr"20', tag: 'tumor', metadata: { field: 'sample_id', value: 'S1' } })), [
      'IN "/Projects/me/alpha" WHERE tags IN ("tumor") AND metadata.sample_id = "S1" RECURSIVE',
    ]);
    assert.deepStrictEqual(searchQueries(spec({ name: 'a "b".bam' })), ['IN "/Projects/me/alpha" WHERE name = "a \\"b\\".bam" RECURSIVE']);
    const many = Array.from({ length: 23 }, (_, i) => `me/p${i}`);
    const queries = searchQueries({ projects: many, tag: 'x' });
    assert.strictEqual(queries.length, 3);
    assert.match(queries[0], /^IN "\/Projects\/me\/p0", .*"\/Projects\/me\/p9" WHERE tags IN \("x"\) RECURSIVE$/);
    assert.match(queries[2], /^IN "\/Projects\/me\/p20", "\/Projects\/me\/p21", "\/Projects\/me\/p22" WHERE/);
  });

  it('says what was found, where and by which way', () => {
    assert.strictEqual(foundDescription({ spec: spec({ tag: 'tumor' }), way: 'search' }), 'Found: tag "tumor" in me/alpha (server search)');
    const looked = (entries: number, folders: number, complete: boolean) => ({ entries, folders, complete });
    assert.strictEqual(
      foundDescription({ spec: { projects: ['a/b', 'c/d'], allProjects: true, namePart: 'bam' }, way: 'search', looked: looked(2_300, 0, false) }),
      'Found: name contains "bam" in all projects (server search of every entry, names compared here: 2,300 entries so far)',
    );
    assert.strictEqual(
      foundDescription({ spec: spec({ namePart: 'bam' }), way: 'walk', looked: looked(812, 14, true) }),
      'Found: name contains "bam" in me/alpha (every folder listed, names compared here: 812 entries in 14 folders)',
    );
    assert.strictEqual(foundDescription({ spec: spec({ name: 'a.bam', metadata: { field: 'sample_id', value: 'S1' } }), way: 'list' }), 'Found: name "a.bam" · sample_id = "S1" in me/alpha (list filter, top level only)');
    assert.strictEqual(foundDescription({ spec: spec({ task: TASK, folder: { id: fileId(3), name: 'reads', project: 'me/alpha' } }), way: 'list' }), 'Found: made by task 0b9f7c5e in the folder reads (list filter)');
  });

  it('tells each found file\'s place: the project, below its top level, or the folder searched', () => {
    const roots = new Map([['me/alpha', fileId(1)]]);
    assert.strictEqual(foundPath(file(10), spec({ tag: 'x' }), roots), 'me/alpha');
    assert.strictEqual(foundPath(file(10, 'me/alpha', fileId(7)), spec({ tag: 'x' }), roots), 'me/alpha/…');
    assert.strictEqual(foundPath(file(10, 'me/alpha', fileId(3)), spec({ tag: 'x', folder: { id: fileId(3), name: 'reads', project: 'me/alpha' } }), roots), 'me/alpha/…/reads');
  });
});

describe('Find Files: the finder', () => {
  it('costs one request a result page: 5 pages of the search, 5 requests', async () => {
    const { fake, calls } = client({ pages: 5 });
    const found = new FileFinder(fake).find(spec({ tag: 'tumor' }));
    assert.strictEqual(calls.length, 0, 'nothing is asked before the view loads it');
    await found.listing.ensureLoaded();
    while (found.listing.hasMore) await found.listing.loadMore();
    assert.strictEqual(found.listing.items.length, 500);
    assert.strictEqual(calls.length, 5);
    assert.deepStrictEqual(calls.map((c) => c.split(' ')[1]), ['first', '1', '2', '3', '4']);
    assert.strictEqual(found.way, 'search');
  });

  it('goes to the list filters when the platform has no search, says so, and asks the search no more', async () => {
    const { fake, calls } = client({ searchStatus: 404, listed: { 'me/alpha': 3 } });
    const finder = new FileFinder(fake);
    const found = finder.find(spec({ tag: 'tumor' }));
    await found.listing.ensureLoaded();
    assert.strictEqual(found.way, 'list');
    assert.strictEqual(found.listing.items.length, 3);
    assert.deepStrictEqual(calls.map((c) => c.split(' ')[0]), ['search', 'list']);
    const again = finder.find(spec({ name: 'a.bam' }));
    assert.strictEqual(again.way, 'list');
    assert.strictEqual(finder.find(spec({ namePart: 'bam' })).way, 'walk');
  });

  it('a part of a name: every entry the search gives, the names compared here (any case), 1,000 entries a load at most, how far it looked said', async () => {
    const { fake, calls } = client({ pages: 25 });
    // f10.bam … f2509.bam: "F24" is in f24.bam, f240–f249 and f2400–f2499.
    const found = new FileFinder(fake).find(spec({ namePart: 'F24' }));
    await found.listing.ensureLoaded();
    assert.deepStrictEqual(found.listing.items.map((f) => f.name), ['f24.bam']);
    assert.deepStrictEqual([calls.length, found.looked], [1, { entries: 100, folders: 0, complete: false }], 'the first page held one: shown at once');
    assert.ok(calls.every((c) => !/LIKE|name/.test(c)), calls[0]);
    await found.listing.loadMore();
    assert.deepStrictEqual(found.listing.items.map((f) => f.name), ['f24.bam', ...Array.from({ length: 10 }, (_, i) => `f24${i}.bam`)]);
    assert.deepStrictEqual([calls.length, found.looked?.entries], [3, 300], 'read on until a page held some');
    await found.listing.loadMore();
    assert.deepStrictEqual([calls.length, found.listing.items.length, found.looked?.entries], [13, 11, 1_300], 'no match in the next 1,000 entries: a load stops there');
    while (found.listing.hasMore) await found.listing.loadMore();
    assert.deepStrictEqual([found.listing.items.length, found.looked], [111, { entries: 2_500, folders: 0, complete: true }]);
    assert.match(foundDescription(found), /server search of every entry, names compared here: 2,500 entries\)$/);
  });

  it('a part of a name without the search: the folders listed one by one, each name compared here; the same answer, and how far it looked', async () => {
    const root = fileId(1);
    const folder = (n: number, parent: string): FileRecord => ({ href: '', id: fileId(n), name: `dir${n}`, type: 'folder', project: 'me/alpha', parent });
    const entries: FileRecord[] = [
      folder(2, root),
      { ...file(3), name: 'sample_R1.fq' },
      folder(4, fileId(2)),
      ...Array.from({ length: 150 }, (_, i) => ({ ...file(100 + i, 'me/alpha', fileId(2)), name: `r${i}.fq` })),
      { ...file(5, 'me/alpha', fileId(4)), name: 'deep_r1.FQ' },
    ];
    const calls: string[] = [];
    const walkable: FindClient = {
      search: { page: async () => Promise.reject(new ApiError({ kind: 'http', status: 404, message: 'No such resource' })) },
      files: {
        list: async (location, page) => {
          const parent = 'project' in location ? root : location.parent;
          calls.push(`list ${parent} ${page.offset}`);
          const all = entries.filter((f) => f.parent === parent);
          return { items: all.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? 100)), total: all.length, next: undefined };
        },
        next: async () => Promise.reject(new Error('no next links here')),
      },
    };
    const found = new FileFinder(walkable).find(spec({ namePart: 'r1' }));
    await found.listing.ensureLoaded();
    while (found.listing.hasMore) await found.listing.loadMore();
    assert.strictEqual(found.way, 'walk');
    assert.deepStrictEqual(found.listing.items.map((f) => f.name), ['sample_R1.fq', 'r1.fq', ...Array.from({ length: 10 }, (_, i) => `r1${i}.fq`), ...Array.from({ length: 50 }, (_, i) => `r1${String(i).padStart(2, '0')}.fq`), 'deep_r1.FQ']);
    assert.deepStrictEqual(calls, [`list ${root} 0`, `list ${fileId(2)} 0`, `list ${fileId(2)} 100`, `list ${fileId(4)} 0`]);
    assert.deepStrictEqual(found.looked, { entries: 154, folders: 3, complete: true });
    assert.strictEqual(foundDescription(found), 'Found: name contains "r1" in me/alpha (every folder listed, names compared here: 154 entries in 3 folders)');
  });

  it('a search the platform refused is said once, in words, with what was looked for; the rows offer Retry and Clear Find', async () => {
    const { fake } = client({ searchStatus: 400 });
    const found = new FileFinder(fake).find(spec({ namePart: 'reads' }));
    const tree = new FilesTreeModel(new FakeFiles([], []), async () => true, () => 0);
    tree.showFound(found);
    const rows = (await tree.getChildren()) as MessageNode[];
    assert.strictEqual(tree.foundSaid, 'Could not find name contains "reads" in me/alpha: the platform refused the search ("no search"). Change what you look for, or look in a project.');
    assert.deepStrictEqual(rows.map((r) => [r.text, r.action?.command]), [['Retry', 'sevenbridges.files.loadMore'], ['Clear Find', 'sevenbridges.files.clearFind']]);
  });

  it('a search refused for another reason is that error, not a fallback', async () => {
    const { fake, calls } = client({ searchStatus: 400 });
    const found = new FileFinder(fake).find(spec({ tag: 'x' }));
    await found.listing.ensureLoaded();
    assert.strictEqual((found.listing.error as ApiError).status, 400);
    assert.strictEqual(found.way, 'search');
    assert.strictEqual(calls.length, 1);
  });

  it('all projects by the list filters: one listing each, the empty ones passed over in the same load', async () => {
    const { fake, calls } = client({ listed: { 'me/a': 0, 'me/b': 2, 'me/c': 0, 'me/d': 1 } });
    const found = new FileFinder(fake).find({ projects: ['me/a', 'me/b', 'me/c', 'me/d'], allProjects: true, task: TASK });
    await found.listing.ensureLoaded();
    assert.deepStrictEqual(found.listing.items.map((f) => f.project), ['me/b', 'me/b']);
    await found.listing.loadMore();
    assert.deepStrictEqual(found.listing.items.map((f) => f.project), ['me/b', 'me/b', 'me/d']);
    assert.strictEqual(found.listing.hasMore, false);
    assert.deepStrictEqual(calls.map((c) => c.split(' ')[1]), ['me/a', 'me/b', 'me/c', 'me/d']);
    assert.match(calls[0], /"originTask":"0b9f7c5e-1f2a-4c3b-9d8e-7a6b5c4d3e2f"/);
  });
});

describe('Find Files: the results in Projects & Files', () => {
  it('shows a flat list with each file\'s place, no parent row above, and Clear brings the projects back', async () => {
    const projects = [{ href: '', id: 'me/alpha', name: 'Alpha', root_folder: fileId(1) }];
    const tree = new FilesTreeModel(new FakeFiles(projects, []), async () => true, () => 0);
    const { fake } = client({ pages: 1 });
    const found = new FileFinder(fake).find(spec({ tag: 'tumor' }));
    tree.showFound(found, new Map([['me/alpha', fileId(1)]]));
    const rows = await tree.getChildren();
    assert.strictEqual(rows.length, 100);
    const first = rows[0] as FileNode;
    assert.strictEqual(first.kind, 'file');
    assert.strictEqual(tree.getParent(first), undefined);
    assert.strictEqual(tree.rowView(first).label, 'f10.bam');
    assert.strictEqual(tree.rowView(first).description, 'me/alpha');
    assert.match(tree.rowView(first).tooltip, /Tags: `tumor`/);
    tree.showFound(undefined);
    assert.deepStrictEqual((await tree.getChildren()).map((n) => n.id), ['me/alpha']);
  });

  it('nothing found: a row that says so, with Clear Find', async () => {
    const tree = new FilesTreeModel(new FakeFiles([], []), async () => true, () => 0);
    const { fake } = client({ listed: {} });
    tree.showFound(new FileFinder(fake).find(spec({ task: TASK })));
    const [row] = (await tree.getChildren()) as MessageNode[];
    assert.strictEqual(row.text, 'No files or folders match');
    assert.strictEqual(row.action?.command, 'sevenbridges.files.clearFind');
  });
});
