import * as assert from 'assert';
import { ApiError } from '../../../src/api/errors';
import { PagedLoader } from '../../../src/api/pagedLoader';
import type { FileRecord, Page, Project } from '../../../src/api/types';
import { FarDownError, FilesTreeModel, NotFoundError, type FilesSource } from '../../../src/files/filesModel';
import type { FileNode, FilesNode, FolderNode, LoadMoreNode, MessageNode, ProjectNode } from '../../../src/files/fileNodes';
import { entryView, projectView } from '../../../src/files/fileRows';
import { dropPlaceOf, entryOf, opensOf, placeOf, projectRowOf } from '../../../src/files/fileKinds';
import { formatSize } from '../../../src/util/words';
import { FakeFiles, fileId } from '../../support/fakeFiles';
import { FAKE_CLOCK_START } from '../../support/fakeClock';


const NOW = Date.UTC(2026, 2, 7, 12, 0, 0);
const ALPHA_ROOT = fileId(1);
const folder = (n: number, name: string, parent: string): FileRecord => ({ href: '', id: fileId(n), name, type: 'folder', project: 'me/alpha', parent });
const file = (n: number, name: string, parent: string, project = 'me/alpha'): FileRecord => ({ href: '', id: fileId(n), name, type: 'file', project, parent, size: 1024 });

/** Two projects; in Alpha: two folders and two files at the root, 150 reads in one folder, a nested result, a big folder. */
function platform() {
  const projects: Project[] = [
    { href: '', id: 'me/alpha', name: 'Alpha', root_folder: ALPHA_ROOT },
    { href: '', id: 'me/beta', name: 'Beta', root_folder: fileId(2), permissions: { write: false } },
  ];
  const records: FileRecord[] = [
    file(10, 'a.bam', ALPHA_ROOT),
    folder(11, 'reads', ALPHA_ROOT),
    file(12, 'b.bam', ALPHA_ROOT),
    folder(13, 'results', ALPHA_ROOT),
    ...Array.from({ length: 150 }, (_, i) => file(1000 + i, `r${String(i).padStart(3, '0')}.fq`, fileId(11))),
    folder(20, '2026', fileId(13)),
    file(21, 'calls.vcf', fileId(20)),
    folder(22, 'empty', fileId(13)),
    folder(23, 'big', fileId(13)),
    ...Array.from({ length: 1_050 }, (_, i) => file(5000 + i, `part${i}.txt`, fileId(23))),
    file(30, 'c.bam', fileId(2), 'me/beta'),
    file(40, 'elsewhere.bam', fileId(41), 'other/gamma'),
  ];
  return new FakeFiles(projects, records);
}

function model(options: { signedIn?: boolean } = {}) {
  const source = platform();
  const tree = new FilesTreeModel(source, async () => options.signedIn ?? true, () => NOW);
  const changes: (FilesNode | undefined)[] = [];
  tree.onDidChange((node) => changes.push(node));
  return { tree, changes, calls: source.calls, source };
}

async function child<N extends FilesNode>(tree: FilesTreeModel, parent: FilesNode | undefined, id: string): Promise<N> {
  const found = (await tree.getChildren(parent)).find((n) => n.id === id);
  assert.ok(found, `${id} under ${parent?.id ?? 'the root'}`);
  return found as N;
}

describe('files tree model', () => {
  it('lists the projects, then a project\'s entries, folders first as in the Explorer', async () => {
    const { tree, calls } = model();
    assert.deepStrictEqual((await tree.getChildren()).map((n) => n.id), ['me/alpha', 'me/beta']);
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    assert.deepStrictEqual((await tree.getChildren(alpha)).map((n) => [n.kind, n.id]), [
      ['folder', fileId(11)],
      ['folder', fileId(13)],
      ['file', fileId(10)],
      ['file', fileId(12)],
    ]);
    assert.deepStrictEqual(calls, ['projects 0+100', 'files me/alpha 0+100']);
  });

  it('lists a folder 100 entries at a time with "Load more (50 left)"; a double click loads the next page once, and redraws only that folder', async () => {
    const { tree, changes, calls } = model();
    const reads = await child<FolderNode>(tree, await child(tree, undefined, 'me/alpha'), fileId(11));
    const first = await tree.getChildren(reads);
    assert.strictEqual(first.length, 101);
    const more = first[100] as LoadMoreNode;
    const view = tree.rowView(more);
    assert.deepStrictEqual([more.kind, view.label, view.command?.command, view.command?.title], ['loadMore', 'Load more (50 left)', 'sevenbridges.files.loadMore', 'Load More Files']);
    assert.strictEqual(view.command?.args?.[0], more);
    changes.length = 0;
    calls.length = 0;
    await Promise.all([tree.loadMore(more), tree.loadMore(more)]);
    assert.deepStrictEqual(calls, [`files ${fileId(11)} 100+100`]);
    assert.deepStrictEqual(changes, [reads, reads, reads, reads], "each click redraws the folder when it starts and when the page is in; nothing else");
    const second = await tree.getChildren(reads);
    assert.deepStrictEqual([second.length, second[149].id, second.some((n) => n.kind === 'loadMore')], [150, fileId(1149), false]);
    assert.ok(first.slice(0, 100).every((n, i) => second[i] === n), 'the rows shown before are the same objects');
  });

  it('knows every row\'s parent, and a refresh of one folder reloads only its entries', async () => {
    const { tree, calls } = model();
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    const results = await child<FolderNode>(tree, alpha, fileId(13));
    const year = await child<FolderNode>(tree, results, fileId(20));
    const calls_ = await child(tree, year, fileId(21));
    assert.deepStrictEqual([tree.getParent(calls_), tree.getParent(year), tree.getParent(results), tree.getParent(alpha)], [year, results, alpha, undefined]);
    calls.length = 0;
    void tree.refresh(results);
    await tree.getChildren(results);
    await tree.getChildren(alpha);
    assert.deepStrictEqual(calls, [`files ${fileId(13)} 0+100`]);
  });

  it('a refreshed folder draws each entry as the platform lists it now: a renamed, re-tagged file is not drawn from its old row', async () => {
    const { tree, source } = model();
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    const before = await child<FileNode>(tree, alpha, fileId(10));
    assert.strictEqual(tree.rowView(before).label, 'a.bam');
    const at = source.records.findIndex((f) => f.id === fileId(10));
    source.records[at] = { ...source.records[at], name: 'renamed.bam', tags: ['done'], modified_on: '2026-03-07T11:00:00Z' };
    await tree.refresh(alpha);
    const after = await child<FileNode>(tree, alpha, fileId(10));
    assert.deepStrictEqual([tree.rowView(after).label, after.file.tags], ['renamed.bam', ['done']]);
  });

  it('a refresh of a folder keeps every page shown (300 entries stay 300), and Reveal draws the entries it read again as they are now', async () => {
    const { tree, source, calls } = model();
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    const results = await child<FolderNode>(tree, alpha, fileId(13));
    const big = await child<FolderNode>(tree, results, fileId(23));
    await tree.getChildren(big);
    await tree.loadMore(big);
    await tree.loadMore(big);
    calls.length = 0;
    await tree.refresh(big);
    assert.deepStrictEqual(calls, [0, 100, 200].map((o) => `files ${fileId(23)} ${o}+100`));
    assert.strictEqual((await tree.getChildren(big)).filter((n) => n.kind === 'file').length, 300);
    // A copy arrives in Alpha's root and a file there is renamed: revealing the copy reads the root again.
    source.records.push(file(50, 'copy.bam', ALPHA_ROOT));
    const at = source.records.findIndex((f) => f.id === fileId(12));
    source.records[at] = { ...source.records[at], name: 'b-renamed.bam' };
    await tree.locate(fileId(50));
    assert.strictEqual(tree.rowView(await child<FileNode>(tree, alpha, fileId(12))).label, 'b-renamed.bam');
  });

  it('says a folder is empty rather than showing nothing; shows nothing while signed out (the welcome view shows instead)', async () => {
    const { tree } = model();
    const results = await child<FolderNode>(tree, await child(tree, undefined, 'me/alpha'), fileId(13));
    const empty = await child<FolderNode>(tree, results, fileId(22));
    assert.deepStrictEqual((await tree.getChildren(empty)).map((r) => [r.kind, (r as MessageNode).text, (r as MessageNode).severity]), [['message', 'This folder is empty', 'info']]);
    const signedOut = model({ signedIn: false });
    assert.deepStrictEqual([await signedOut.tree.getChildren(), signedOut.calls], [[], []]);
  });

  it('draws each row from its record: a file and a folder with the file icon theme\'s icons, a project with its own', async () => {
    const { tree } = model();
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    const [reads, , a] = await tree.getChildren(alpha);
    assert.deepStrictEqual(
      [tree.rowView(alpha), tree.rowView(reads), tree.rowView(a)].map((v) => [v.label, v.description, v.ariaLabel, v.contextValue, v.expandable, v.fileIcon ?? v.icon.id]),
      [
        ['Alpha', 'me/alpha', 'Alpha, project me/alpha', 'project writable', true, 'project'],
        ['reads', '', 'reads, folder', 'folder writable', true, 'folder'],
        ['a.bam', '1.0 KB', 'a.bam, file, 1.0 KB', 'file writable', false, 'file'],
      ],
    );
  });

  it('a project the caller may only read: it and its rows have no "writable" token, so they offer no change (New Folder, Rename, Move, Delete, tags, metadata, Upload)', async () => {
    const { tree } = model();
    const beta = await child<ProjectNode>(tree, undefined, 'me/beta');
    const [c] = await tree.getChildren(beta);
    assert.deepStrictEqual([tree.rowView(beta).contextValue, tree.rowView(c).contextValue], ['project', 'file']);
  });
});

describe('files tree model: what the commands read of a row (its kind\'s entry in ROW_KINDS)', () => {
  it('a project and a folder are places; a drop onto a file lands in its folder; a file or folder is an entry; other values are none of these', async () => {
    const { tree } = model();
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    const results = await child<FolderNode>(tree, alpha, fileId(13));
    const year = await child<FolderNode>(tree, results, fileId(20));
    const calls = await child<FileNode>(tree, year, fileId(21));
    assert.deepStrictEqual(placeOf(alpha), { project: alpha });
    assert.deepStrictEqual(placeOf(year), { project: alpha, folder: year });
    assert.strictEqual(placeOf(calls), undefined, 'New Folder, Upload and Find do not act on a file');
    assert.deepStrictEqual(dropPlaceOf(calls), { project: alpha, folder: year });
    assert.deepStrictEqual([entryOf(calls), entryOf(year), entryOf(alpha)], [calls, year, undefined]);
    assert.deepStrictEqual([projectRowOf(alpha), projectRowOf(year)], [alpha, undefined]);
    assert.deepStrictEqual([opensOf(year), opensOf(calls)], [year, undefined]);
    assert.deepStrictEqual(year.above, [results], 'the folders from the project\'s root down to it');
    assert.deepStrictEqual([placeOf('me/alpha'), entryOf(undefined), entryOf({ kind: 'item', id: 'x' })], [undefined, undefined, undefined], 'what is not a row of the view is none of these');
    // An object that only looks like a row (a script's argument to a public command) is none either: never read as one.
    const lookalikes = [{ kind: 'file', id: 'x' }, { kind: 'folder', id: 'y' }, { kind: 'project', id: 'me/alpha' }];
    assert.deepStrictEqual(lookalikes.map((v) => [entryOf(v), projectRowOf(v), placeOf(v), dropPlaceOf(v), opensOf(v)]).flat(), Array(15).fill(undefined));
  });

  it('a folder Find Files found is not a place (its place in its project is not known from the rows), and a drop onto a found file lands nowhere', async () => {
    const { tree } = model();
    const pages: Page<FileRecord>[] = [{ items: [folder(13, 'results', ALPHA_ROOT), file(10, 'a.bam', ALPHA_ROOT)], total: 2, next: undefined }];
    const listing = new PagedLoader<FileRecord>({ page: async () => pages[0], next: async () => pages[0] }, { key: (r) => r.id });
    tree.showFound({ spec: { projects: ['me/alpha'], name: 'x' }, way: 'list', listing });
    const [results, a] = (await tree.getChildren()) as [FolderNode, FileNode];
    assert.deepStrictEqual([placeOf(results), dropPlaceOf(a), results.writable, tree.getParent(a)], [undefined, undefined, true, undefined]);
    assert.strictEqual(opensOf(results), results, 'Refresh on it still reads its entries again');
  });
});

describe('files tree model: the way down to a file (Reveal in Projects & Files)', () => {
  it('opens the project and each folder above the file, one record read per folder, and returns the file\'s own row', async () => {
    const { tree, calls } = model();
    const node = await tree.locate(fileId(21));
    assert.deepStrictEqual(calls, ['get ' + fileId(21), 'projects 0+100', 'get ' + fileId(20), 'get ' + fileId(13), 'files me/alpha 0+100', `files ${fileId(13)} 0+100`, `files ${fileId(20)} 0+100`]);
    const path: string[] = [];
    for (let at: FilesNode | undefined = node; at; at = tree.getParent(at)) path.unshift(at.id);
    assert.deepStrictEqual(path, ['me/alpha', fileId(13), fileId(20), fileId(21)]);
    const shown = await tree.getChildren(tree.getParent(node));
    assert.ok(shown.includes(node), 'the row the view shows, so that it can be revealed');
  });

  it('loads the pages of a listing until the file shows', async () => {
    const { tree, calls } = model();
    const node = await tree.locate(fileId(1120));
    assert.deepStrictEqual(calls.filter((c) => c.startsWith('files')), ['files me/alpha 0+100', `files ${fileId(11)} 0+100`, `files ${fileId(11)} 100+100`]);
    assert.strictEqual(node.name, 'r120.fq');
  });

  it('reads a folder listed before again when it does not show the file (a copy that arrived since)', async () => {
    const source = platform();
    const tree = new FilesTreeModel(source, async () => true, () => NOW);
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    await tree.getChildren(alpha);
    source.records.push(file(60, 'copied.bam', ALPHA_ROOT));
    source.calls.length = 0;
    const node = await tree.locate(fileId(60));
    assert.deepStrictEqual(source.calls, [`get ${fileId(60)}`, 'files me/alpha 0+100']);
    assert.deepStrictEqual([node.name, tree.getParent(node)], ['copied.bam', alpha]);
  });

  it('says why it cannot: not among the caller\'s projects, or past the first 1,000 entries of a folder', async () => {
    const { tree } = model();
    await assert.rejects(tree.locate(fileId(40)), (e: unknown) => e instanceof NotFoundError && e.message === 'elsewhere.bam is in other/gamma, which is not among your projects.');
    await assert.rejects(
      tree.locate(fileId(5000 + 1_020)),
      (e: unknown) =>
        e instanceof FarDownError &&
        e.message === 'part1020.txt is not among the first 1,000 entries of big.' &&
        e.record.id === fileId(5000 + 1_020) &&
        JSON.stringify(e.place) === JSON.stringify({ project: 'me/alpha', folder: { id: fileId(23), name: 'big' } }),
      'where it is, to be shown on its own',
    );
    await assert.rejects(tree.locate(fileId(99)), (e: unknown) => e instanceof ApiError && e.status === 404, 'a file the platform does not know: its error');
  });
});

describe('files tree model: a file shown on its own (Reveal past the first 1,000 entries)', () => {
  it('finds its row among what a find shows, its pages read as a folder\'s are; none when the find does not list it', async () => {
    const { tree } = model();
    const far = file(5000 + 1_020, 'part1020.txt', fileId(23));
    const pages: Page<FileRecord>[] = [
      { items: [file(10, 'a.bam', ALPHA_ROOT)], total: 2, next: 'page 2' },
      { items: [far], total: 2, next: undefined },
    ];
    const listing = new PagedLoader<FileRecord>({ page: async () => pages[0], next: async () => pages[1] }, { key: (r) => r.id });
    assert.strictEqual(await tree.locateFound(far.id), undefined, 'no find shown');
    tree.showFound({ spec: { projects: [], folder: { id: fileId(23), name: 'big', project: 'me/alpha' }, name: far.name }, way: 'list', listing });
    const node = await tree.locateFound(far.id);
    assert.deepStrictEqual([node?.id, node?.name], [far.id, 'part1020.txt']);
    assert.ok((await tree.getChildren()).includes(node!), 'the row the view shows, so that it can be revealed');
    assert.strictEqual(await tree.locateFound(fileId(12)), undefined);
  });
});

describe('files tree model (failures)', () => {
  const file = (id: string, type: 'file' | 'folder' = 'file'): FileRecord => ({ href: '', id, name: `${id}.txt`, type });
  const down = () => new ApiError({ kind: 'http', status: 503, code: 0, message: 'maintenance' });

  function flaky(failures: { projects?: number; first?: number; next?: number }) {
    const left = { ...failures };
    const fail = (key: keyof typeof left) => {
      if ((left[key] ?? 0) > 0) {
        left[key]!--;
        throw down();
      }
    };
    const source: FilesSource = {
      projects: {
        list: async () => {
          fail('projects');
          return { items: [{ href: '', id: 'me/p', name: 'P' }], total: 1, next: undefined };
        },
        next: async () => ({ items: [], total: 1, next: undefined }),
      },
      files: {
        list: async (): Promise<Page<FileRecord>> => {
          fail('first');
          return { items: [file('a'), file('d', 'folder')], total: 3, next: 'next-page' };
        },
        next: async (): Promise<Page<FileRecord>> => {
          fail('next');
          return { items: [file('c')], total: 3, next: undefined };
        },
        get: async (id: string) => file(id),
      },
    };
    return new FilesTreeModel(source, async () => true, () => FAKE_CLOCK_START);
  }

  it('a project whose first page failed shows the error and "Retry", which loads it', async () => {
    const tree = flaky({ first: 1 });
    const [project] = (await tree.getChildren()) as ProjectNode[];
    const rows = (await tree.getChildren(project)) as MessageNode[];
    assert.match(rows[0].text, /^Could not load: .*maintenance/);
    const retry = rows.find((r) => r.action?.title === 'Retry')!;
    assert.deepStrictEqual(retry.action!.args, [project]);
    await tree.loadMore(retry.action!.args![0] as ProjectNode);
    assert.deepStrictEqual((await tree.getChildren(project)).map((n) => n.id), ['d', 'a', 'me/p/more']);
  });

  it('a failed next page keeps the entries shown and offers "Load more" again', async () => {
    const tree = flaky({ next: 1 });
    const [project] = (await tree.getChildren()) as ProjectNode[];
    const first = await tree.getChildren(project);
    await tree.loadMore(first[first.length - 1] as LoadMoreNode);
    const failed = await tree.getChildren(project);
    assert.deepStrictEqual(failed.map((n) => n.id), ['d', 'a', 'me/p/more']);
    assert.ok(project.listing.error instanceof ApiError);
    await tree.loadMore(failed[2] as LoadMoreNode);
    assert.deepStrictEqual((await tree.getChildren(project)).map((n) => n.id), ['d', 'a', 'c']);
  });

  it('the root\'s "Retry" builds the tree anew', async () => {
    const tree = flaky({ projects: 1 });
    const rows = (await tree.getChildren()) as MessageNode[];
    const retry = rows.find((r) => r.action?.title === 'Retry')!;
    assert.strictEqual(retry.action!.command, 'sevenbridges.files.refresh');
    void tree.refresh();
    assert.deepStrictEqual((await tree.getChildren()).map((n) => n.id), ['me/p']);
  });
});

describe('files rows', () => {

  it('a file: its size beside it, its record in the tooltip; a folder opens', () => {
    const view = entryView({ href: '', id: '567890abc8a5639cc6722063', name: 'chr20.intervals', type: 'file', size: 5 * 1024 * 1024, project: 'me/p', created_on: '2026-03-07T11:00:00Z' }, NOW);
    assert.strictEqual(view.description, '5.0 MB');
    assert.strictEqual(view.ariaLabel, 'chr20.intervals, file, 5.0 MB');
    assert.strictEqual(view.expandable, false);
    assert.match(view.tooltip, /Size: 5\.0 MB \(5,242,880 bytes\) {2}\n/);
    assert.match(view.tooltip, /Created: 2026-03-07 11:00 UTC \(1 hour ago\) {2}/);
    assert.doesNotMatch(view.tooltip, /Modified/);
    const folder = entryView({ href: '', id: 'f', name: 'reads', type: 'folder' }, NOW);
    assert.deepStrictEqual([folder.description, folder.contextValue, folder.expandable], ['', 'folder writable', true]);
  });

  it('a file\'s tags, the task that produced it and its metadata are in its tooltip (the first 20 fields, then how many more)', () => {
    const metadata: Record<string, string> = { sample_id: 'S_1', platform: 'Illumina' };
    const view = entryView({ href: '', id: fileId(9), name: 'a.bam', type: 'file', tags: ['tumor', 'qc*passed'], origin: { task: 'b0a1' }, metadata }, NOW);
    assert.match(view.tooltip, /Tags: `tumor`, `qc\\\*passed` {2}\n/);
    assert.match(view.tooltip, /Produced by task: `b0a1` {2}\n/);
    assert.match(view.tooltip, /Metadata: sample\\_id = S\\_1; platform = Illumina {2}$/);
    const many = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`k${i}`, `v${i}`]));
    assert.match(entryView({ href: '', id: fileId(9), name: 'a.bam', metadata: many }, NOW).tooltip, /k19 = v19; and 3 more {2}$/);
    assert.doesNotMatch(entryView({ href: '', id: fileId(9), name: 'a.bam', tags: [], metadata: {} }, NOW).tooltip, /Tags|Metadata/);
  });

  it('a read-only project says so; names are escaped for Markdown', () => {
    const view = projectView({ href: '', id: 'me/p', name: 'a*b', permissions: { write: false } }, NOW);
    assert.match(view.tooltip, /^\$\(project\) \*\*a\\\*b\*\*/);
    assert.match(view.tooltip, /Read only: you cannot copy into it\./);
    assert.strictEqual(view.description, 'me/p');
  });

  it("lists a level with a row's fields only; a file's tooltip (tags, origin, metadata) is read on hover, once while it is unchanged", async () => {
    const source = platform();
    const asked: (string | undefined)[] = [];
    const list = source.files.list;
    source.files.list = (location, page: { offset?: number; limit?: number; fields?: string }) => {
      asked.push(page.fields);
      return list(location, page);
    };
    const tagged = { ...file(10, 'a.bam', ALPHA_ROOT), tags: ['tumor'], origin: { task: 'b0a1' }, metadata: { sample_id: 'S1' } };
    const get = source.files.get;
    source.files.get = async (id) => (id === tagged.id ? (source.calls.push(`get ${id}`), tagged) : get(id));
    const tree = new FilesTreeModel(source, async () => true, () => NOW);
    const alpha = await child<ProjectNode>(tree, undefined, 'me/alpha');
    const row = (await tree.getChildren(alpha)).find((n) => n.kind === 'file' && n.file.id === fileId(10))!;
    assert.deepStrictEqual(asked, ['href,id,name,type,size,project,parent,created_on,modified_on']);
    const view = tree.rowView(row);
    assert.strictEqual(view.tooltipOnHover, true);
    source.calls.length = 0;
    const tooltip = (await tree.resolveTooltip(row))!;
    assert.match(tooltip, /Tags: `tumor`/);
    assert.match(tooltip, /Produced by task: `b0a1`/);
    assert.match(tooltip, /Metadata: sample\\_id = S1/);
    assert.strictEqual(tooltip, entryView(tagged, NOW).tooltip);
    await tree.resolveTooltip(row);
    assert.deepStrictEqual(source.calls, [`get ${fileId(10)}`], 'the second hover costs nothing');
    // Read once, the row draws it at once; every field a row draws is the same as from the whole record.
    const drawn = tree.rowView(row);
    assert.ok(!drawn.tooltipOnHover);
    const rowParts = (v: typeof view) => ({ ...v, tooltip: undefined, tooltipOnHover: undefined });
    assert.deepStrictEqual(rowParts(view), rowParts(drawn));
  });

  it('formats sizes in binary units', () => {
    assert.deepStrictEqual([0, 1023, 1024, 15 * 1024 ** 3, undefined].map(formatSize), ['0 B', '1023 B', '1.0 KB', '15 GB', undefined]);
  });
});
