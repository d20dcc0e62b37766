import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { FileRecord, Project } from '../api/types';
import type { Services } from '../services';
import { errorActions, type MessageAction } from '../util/errorActions';
import { escapeMarkdown } from '../util/markdown';
import { formatUtc, relativeTime } from '../util/time';
import { Pager } from './pager';
import { COMMANDS } from '../keys/commands';

const PAGE_SIZE = 100;
export const FILES_VIEW = 'sevenbridges.files';

export type FilesNode = ProjectNode | FolderNode | FileNode | LoadMoreNode | MessageNode;

/** Nodes that have children loaded page by page. */
interface Parent {
  readonly pager: Pager<FileRecord> | Pager<Project>;
}

export class ProjectNode implements Parent {
  readonly kind = 'project';
  readonly pager: Pager<FileRecord>;
  constructor(
    readonly project: Project,
    client: Services['client'],
  ) {
    this.pager = new Pager(
      () => client.files.list({ project: project.id }, { limit: PAGE_SIZE }),
      (url) => client.files.next(url),
    );
  }
  get id(): string {
    return this.project.id;
  }
  get name(): string {
    return this.project.name || this.project.id;
  }
}

export class FolderNode implements Parent {
  readonly kind = 'folder';
  readonly pager: Pager<FileRecord>;
  constructor(
    readonly file: FileRecord,
    readonly parentNode: ProjectNode | FolderNode,
    client: Services['client'],
  ) {
    this.pager = new Pager(
      () => client.files.list({ parent: file.id }, { limit: PAGE_SIZE }),
      (url) => client.files.next(url),
    );
  }
  get id(): string {
    return this.file.id;
  }
  get name(): string {
    return this.file.name || this.file.id;
  }
}

export class FileNode {
  readonly kind = 'file';
  constructor(
    readonly file: FileRecord,
    readonly parentNode: ProjectNode | FolderNode,
  ) {}
  get id(): string {
    return this.file.id;
  }
  get name(): string {
    return this.file.name || this.file.id;
  }
}

export class LoadMoreNode {
  readonly kind = 'loadMore';
  constructor(readonly owner: Parent & { kind: string }) {}
}

export class MessageNode {
  readonly kind = 'message';
  constructor(
    readonly text: string,
    readonly owner: (Parent & { kind: string }) | undefined,
    readonly detail?: string,
    readonly isError = false,
    /** What a click does; a retry without `args` gets this node (and loads its owner again). */
    readonly action?: MessageAction,
  ) {}
}

/** A file or folder node: what a copy is made of. */
export type ItemNode = FolderNode | FileNode;
export const isItemNode = (node: unknown): node is ItemNode => node instanceof FolderNode || node instanceof FileNode;

/** The root of the tree: the caller's projects. */
class Root implements Parent {
  readonly kind = 'root';
  pager: Pager<Project>;
  constructor(client: Services['client']) {
    this.pager = new Pager(
      () => client.projects.list({ limit: PAGE_SIZE }),
      (url) => client.projects.next(url),
    );
  }
}

/**
 * Projects → folders → files, each level loaded 100 at a time with "Load more (N left)". A load refreshes
 * only the node it belongs to. Empty, error and signed-out states are rendered, never a blank view.
 */
export class FilesTreeProvider implements vscode.TreeDataProvider<FilesNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<FilesNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private root: Root;
  private readonly parents = new WeakMap<object, FilesNode | undefined>();
  private readonly nodes = new WeakMap<object, Map<string, FilesNode>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly services: Services) {
    this.root = new Root(services.client);
    this.disposables.push(
      this.changed,
      services.session.onDidChange(() => this.refresh()),
    );
  }

  /** Reloads everything (or one node's children). */
  refresh(node?: ProjectNode | FolderNode): void {
    if (node) {
      node.pager.reset();
      this.nodes.delete(node);
      this.changed.fire(node);
      return;
    }
    this.root = new Root(this.services.client);
    this.changed.fire(undefined);
  }

  /** Loads the next page under the owner of a "Load more" node; refreshes only that owner. */
  async loadMore(node: LoadMoreNode | MessageNode): Promise<void> {
    const owner = node.owner;
    if (!owner) return this.refresh();
    const promise = owner.pager.loadMore();
    this.changed.fire(owner instanceof Root ? undefined : (owner as FilesNode));
    await promise;
    this.changed.fire(owner instanceof Root ? undefined : (owner as FilesNode));
  }

  getParent(node: FilesNode): FilesNode | undefined {
    if (node instanceof FolderNode || node instanceof FileNode) return node.parentNode;
    return this.parents.get(node);
  }

  async getChildren(node?: FilesNode): Promise<FilesNode[]> {
    // Reads the token if the session has not yet (the first render may come before it is loaded).
    if (!(await this.services.session.credentials())) return [];
    if (!node) return this.childrenOf(this.root);
    if (node instanceof ProjectNode || node instanceof FolderNode) return this.childrenOf(node);
    return [];
  }

  private async childrenOf(owner: Root | ProjectNode | FolderNode): Promise<FilesNode[]> {
    if (!owner.pager.isStarted || owner.pager.isLoading) {
      await vscode.window.withProgress({ location: { viewId: FILES_VIEW } }, () => owner.pager.ensureFirst());
    }
    // Nodes are kept per owner, so that a refresh of the owner (after "Load more") keeps their loaded children.
    let cache = this.nodes.get(owner);
    if (!cache) this.nodes.set(owner, (cache = new Map()));
    const reuse = <N extends FilesNode>(key: string, make: () => N): N => {
      let node = cache.get(key) as N | undefined;
      if (!node) cache.set(key, (node = make()));
      return node;
    };
    const nodes: FilesNode[] = [];
    if (owner instanceof Root) {
      for (const project of owner.pager.items) nodes.push(reuse(`p:${project.id}`, () => new ProjectNode(project, this.services.client)));
    } else {
      // Folders first, as in the Explorer; otherwise the platform's order.
      const items = [...owner.pager.items].sort((a, b) => Number(b.type === 'folder') - Number(a.type === 'folder'));
      for (const file of items) {
        nodes.push(
          file.type === 'folder'
            ? reuse(`d:${file.id}`, () => new FolderNode(file, owner, this.services.client))
            : reuse(`f:${file.id}`, () => new FileNode(file, owner)),
        );
      }
    }
    const pager = owner.pager as Pager<unknown>;
    const ownerNode = owner instanceof Root ? undefined : owner;
    if (pager.error) {
      // A refused token offers a new one (as the task tree does), anything else a retry (and the log when it helps).
      const retry: MessageAction = { title: 'Try Again', command: COMMANDS.loadMoreFiles };
      const [first, ...others] = errorActions(pager.error, retry);
      const hint = first === retry ? 'Click to try again' : `Click to ${first.title.toLowerCase()}`;
      nodes.push(new MessageNode(`Could not load: ${describeError(pager.error)}`, owner, hint, true, first));
      for (const action of others) nodes.push(new MessageNode(action.title, owner, undefined, false, action));
    } else if (pager.hasMore) {
      nodes.push(new LoadMoreNode(owner));
    } else if (!nodes.length) {
      nodes.push(new MessageNode(owner instanceof Root ? 'No projects' : owner instanceof ProjectNode ? 'This project is empty' : 'This folder is empty', undefined));
    }
    for (const child of nodes) if (!(child instanceof FolderNode || child instanceof FileNode)) this.parents.set(child, ownerNode);
    return nodes;
  }

  getTreeItem(node: FilesNode): vscode.TreeItem {
    if (node instanceof ProjectNode) {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `project:${node.project.id}`;
      item.description = node.project.id;
      item.iconPath = new vscode.ThemeIcon('project');
      item.contextValue = 'project';
      item.tooltip = projectTooltip(node.project);
      item.accessibilityInformation = { label: `${node.name}, project ${node.project.id}` };
      return item;
    }
    if (node instanceof FolderNode || node instanceof FileNode) {
      const folder = node instanceof FolderNode;
      const item = new vscode.TreeItem(node.name, folder ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `${folder ? 'folder' : 'file'}:${node.file.id}`;
      item.iconPath = folder ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File;
      item.resourceUri = vscode.Uri.from({ scheme: 'sevenbridges-file', path: `/${node.name}` });
      item.description = folder ? undefined : formatSize(node.file.size);
      item.contextValue = folder ? 'folder' : 'file';
      item.tooltip = fileTooltip(node.file);
      item.accessibilityInformation = { label: [node.name, folder ? 'folder' : 'file', item.description].filter(Boolean).join(', ') };
      return item;
    }
    if (node instanceof LoadMoreNode) {
      const pager = node.owner.pager as Pager<unknown>;
      const left = pager.remaining;
      const item = new vscode.TreeItem(
        pager.isLoading ? 'Loading…' : left !== undefined ? `Load more (${left.toLocaleString('en-US')} left)` : 'Load more',
        vscode.TreeItemCollapsibleState.None,
      );
      item.iconPath = new vscode.ThemeIcon(pager.isLoading ? 'loading~spin' : 'ellipsis');
      item.contextValue = 'loadMore';
      item.command = { command: COMMANDS.loadMoreFiles, title: 'Load More Files', arguments: [node] };
      return item;
    }
    const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(node.isError ? 'error' : node.action ? actionIcon(node.action.command) : 'info');
    item.description = node.detail;
    item.contextValue = node.isError ? 'message error' : 'message';
    if (node.action) {
      const retry = node.action.command === COMMANDS.loadMoreFiles;
      item.command = { command: node.action.command, title: node.action.title, arguments: node.action.args ?? (retry ? [node] : []) };
    }
    return item;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function actionIcon(command: string): string {
  if (command === COMMANDS.setToken) return 'key';
  if (command === COMMANDS.showLog) return 'output';
  return 'refresh';
}

export function formatSize(bytes: number | undefined): string | undefined {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return undefined;
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function dateLine(label: string, value: string | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${label}: ${formatUtc(date)} (${relativeTime(date)})  \n`;
}

function fileTooltip(file: FileRecord): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`$(${file.type === 'folder' ? 'folder' : 'file'}) **${escapeMarkdown(file.name || file.id)}**\n\n`);
  md.appendMarkdown(`ID: \`${file.id}\`  \n`);
  if (file.type !== 'folder' && typeof file.size === 'number') md.appendMarkdown(`Size: ${formatSize(file.size)} (${file.size.toLocaleString('en-US')} bytes)  \n`);
  if (file.project) md.appendMarkdown(`Project: ${escapeMarkdown(file.project)}  \n`);
  md.appendMarkdown(dateLine('Created', file.created_on));
  md.appendMarkdown(dateLine('Modified', file.modified_on));
  return md;
}

function projectTooltip(project: Project): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`$(project) **${escapeMarkdown(project.name || project.id)}**\n\n`);
  md.appendMarkdown(`ID: \`${project.id}\`  \n`);
  if (project.root_folder) md.appendMarkdown(`Root folder: \`${project.root_folder}\`  \n`);
  if (project.created_by) md.appendMarkdown(`Created by: ${escapeMarkdown(project.created_by)}  \n`);
  md.appendMarkdown(dateLine('Created', project.created_on));
  md.appendMarkdown(dateLine('Modified', project.modified_on));
  if (project.permissions && project.permissions.write === false) md.appendMarkdown('Read only: you cannot copy into it.  \n');
  return md;
}
