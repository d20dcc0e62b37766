import * as assert from 'assert';
import { SbClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import type { FileRecord, Page } from '../../../src/api/types';
import { FilesTreeModel, type FilesNode, type FilesSource, type FolderNode, type LoadMoreNode, type MessageNode, type ProjectNode } from '../../../src/files/filesModel';
import { entryView, formatSize, projectView } from '../../../src/files/fileRows';
import { startEmulator, type Emulator } from '../../emulator';
import { FAKE_CLOCK_START } from '../../support/fakeClock';

const kinds = (nodes: FilesNode[]) => nodes.map((n) => n.kind);

describe('files tree model (against the emulator)', function () {
  let emu: Emulator;
  let requests: string[];

  before(async () => {
    emu = await startEmulator({ files: 3000 });
  });
  after(() => emu.close());

  function model(options: { token?: string; signedIn?: boolean } = {}) {
    requests = [];
    const client = new SbClient({
      credentials: async () => ({ endpoint: emu.baseUrl, token: options.token ?? emu.token }),
      maxRetries: 0,
      onRequest: (entry) => requests.push(entry.path),
    });
    const tree = new FilesTreeModel(client, async () => options.signedIn ?? true, () => FAKE_CLOCK_START);
    const changes: (FilesNode | undefined)[] = [];
    tree.onDidChange((node) => changes.push(node));
    return { tree, changes };
  }

  /** The project whose root holds the most entries (more than a page in the default data set). */
  function biggestProject() {
    return [...emu.data.projects].sort((a, b) => emu.data.children(b.root_folder).length - emu.data.children(a.root_folder).length)[0];
  }

  async function projectNode(tree: FilesTreeModel, id: string): Promise<ProjectNode> {
    const roots = await tree.getChildren();
    return roots.find((n): n is ProjectNode => n.kind === 'project' && n.id === id)!;
  }

  it('lists the projects, then a project 100 entries at a time, folders first, with "Load more (N left)"', async () => {
    const { tree, changes } = model();
    const roots = await tree.getChildren();
    assert.deepStrictEqual(roots.filter((n) => n.kind === 'project').map((n) => n.id).sort(), emu.data.projects.map((p) => p.id).sort());
    const project = biggestProject();
    const all = emu.data.children(project.root_folder);
    assert.ok(all.length > 100, `a project with more than a page at its root (${all.length})`);
    const node = await projectNode(tree, project.id);
    const first = await tree.getChildren(node);
    const entries = first.filter((n) => n.kind === 'folder' || n.kind === 'file');
    assert.strictEqual(entries.length, 100);
    const folderEnd = kinds(entries).lastIndexOf('folder');
    assert.ok(kinds(entries).slice(0, folderEnd + 1).every((k) => k === 'folder'), 'folders first');
    const more = first[first.length - 1] as LoadMoreNode;
    assert.strictEqual(more.kind, 'loadMore');
    assert.strictEqual(more.parent.listing.left, all.length - 100);

    changes.length = 0;
    const sent = requests.length;
    await Promise.all([tree.loadMore(more), tree.loadMore(more)]);
    assert.strictEqual(requests.length - sent, 1, 'a double click loads the page once');
    assert.ok(changes.length > 0 && changes.every((c) => c === node), 'only the project is redrawn');
    const second = await tree.getChildren(node);
    const ids = second.filter((n) => n.kind !== 'loadMore').map((n) => n.id);
    assert.strictEqual(ids.length, Math.min(200, all.length));
    assert.strictEqual(new Set(ids).size, ids.length);
    assert.ok(second.slice(0, 100).every((n, i) => n === first[i] || first.indexOf(n) >= 0), 'the nodes shown before are kept');
  });

  it('knows every node\'s parent, and a refresh of one folder reloads only its entries', async () => {
    const { tree } = model();
    const project = biggestProject();
    const node = await projectNode(tree, project.id);
    const folder = (await tree.getChildren(node)).find((n): n is FolderNode => n.kind === 'folder')!;
    const inside = await tree.getChildren(folder);
    assert.strictEqual(inside.length > 0, true);
    for (const child of inside) assert.strictEqual(tree.getParent(child), folder);
    assert.strictEqual(tree.getParent(folder), node);
    assert.strictEqual(tree.getParent(node), undefined);

    const sent = requests.length;
    tree.refresh(folder);
    await tree.getChildren(folder);
    await tree.getChildren(node);
    assert.deepStrictEqual(requests.slice(sent).map((p) => new URL(p, 'http://x').searchParams.get('parent')), [folder.id]);
  });

  it('says a folder is empty rather than showing nothing', async () => {
    const { tree } = model();
    const project = [...emu.data.projects].sort((a, b) => emu.data.children(a.root_folder).length - emu.data.children(b.root_folder).length)[0];
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const empty = emu.data.addFile({ id: emu.data.newFileId(), name: 'nothing-here', project: project.id, parent: project.root_folder, type: 'folder', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
    const kids = await tree.getChildren(await projectNode(tree, project.id));
    const node = kids.find((k): k is FolderNode => k.kind === 'folder' && k.id === empty.id)!;
    assert.ok(node, 'the new folder is listed on the first page');
    const rows = (await tree.getChildren(node)) as MessageNode[];
    assert.deepStrictEqual(rows.map((r) => [r.kind, r.text, r.severity]), [['message', 'This folder is empty', 'info']]);
  });

  it('a refused token: one error row and "Set Authentication Token" in place of the projects', async () => {
    const { tree } = model({ token: 'not-the-token' });
    const rows = (await tree.getChildren()) as MessageNode[];
    assert.deepStrictEqual(kinds(rows), ['message', 'message']);
    assert.match(rows[0].text, /^Could not load: /);
    assert.strictEqual(rows[0].severity, 'error');
    assert.deepStrictEqual(rows[1].action, { title: 'Set Authentication Token', command: 'sevenbridges.setToken' });
  });

  it('shows nothing while signed out (the welcome view shows instead)', async () => {
    const { tree } = model({ signedIn: false });
    assert.deepStrictEqual(await tree.getChildren(), []);
    assert.deepStrictEqual(requests, []);
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

  it('a project whose first page failed shows the error and "Try Again", which loads it', async () => {
    const tree = flaky({ first: 1 });
    const [project] = (await tree.getChildren()) as ProjectNode[];
    const rows = (await tree.getChildren(project)) as MessageNode[];
    assert.match(rows[0].text, /^Could not load: .*maintenance/);
    const retry = rows.find((r) => r.action?.title === 'Try Again')!;
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

  it('the root\'s "Try Again" builds the tree anew', async () => {
    const tree = flaky({ projects: 1 });
    const rows = (await tree.getChildren()) as MessageNode[];
    const retry = rows.find((r) => r.action?.title === 'Try Again')!;
    assert.strictEqual(retry.action!.command, 'sevenbridges.files.refresh');
    tree.refresh();
    assert.deepStrictEqual((await tree.getChildren()).map((n) => n.id), ['me/p']);
  });
});

describe('files rows', () => {
  const NOW = Date.UTC(2026, 2, 7, 12, 0, 0);

  it('a file: its size beside it, its record in the tooltip; a folder opens', () => {
    const view = entryView({ href: '', id: '567890abc8a5639cc6722063', name: 'chr20.intervals', type: 'file', size: 5 * 1024 * 1024, project: 'me/p', created_on: '2026-03-07T11:00:00Z' }, NOW);
    assert.strictEqual(view.description, '5.0 MB');
    assert.strictEqual(view.ariaLabel, 'chr20.intervals, file, 5.0 MB');
    assert.strictEqual(view.expandable, false);
    assert.match(view.tooltip, /Size: 5\.0 MB \(5,242,880 bytes\) {2}\n/);
    assert.match(view.tooltip, /Created: 2026-03-07 11:00 UTC \(1 hour ago\) {2}/);
    assert.doesNotMatch(view.tooltip, /Modified/);
    const folder = entryView({ href: '', id: 'f', name: 'reads', type: 'folder' }, NOW);
    assert.deepStrictEqual([folder.description, folder.contextValue, folder.expandable], ['', 'folder', true]);
  });

  it('a read-only project says so; names are escaped for Markdown', () => {
    const view = projectView({ href: '', id: 'me/p', name: 'a*b', permissions: { write: false } }, NOW);
    assert.match(view.tooltip, /^\$\(project\) \*\*a\\\*b\*\*/);
    assert.match(view.tooltip, /Read only: you cannot copy into it\./);
    assert.strictEqual(view.description, 'me/p');
  });

  it('formats sizes in binary units', () => {
    assert.deepStrictEqual([0, 1023, 1024, 15 * 1024 ** 3, undefined].map(formatSize), ['0 B', '1023 B', '1.0 KB', '15 GB', undefined]);
  });
});
