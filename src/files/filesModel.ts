// The Projects & Files tree's data: the caller's projects, their folders and files, each level loaded 100 at a
// time by the paged loader, and the rows shown in place of a blank view. No `vscode` import; the tree provider
// renders these nodes.

import * as l10n from '@vscode/l10n';
import { describeError } from '../api/errors';
import { fileListing, type FileLocation } from '../api/files';
import { PagedLoader, recordKey } from '../api/pagedLoader';
import type { FileRecord, Page, Project } from '../api/types';
import { errorRows, LoadMoreNode as ListingEnd, MessageNode as Message } from '../ui/rowView';
import { Emitter } from '../util/emitter';
import { COMMANDS } from '../keys/commands';

/** The part of the client the tree reads (SbClient, or a test double). */
export interface FilesSource {
  files: {
    list(location: FileLocation, page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<FileRecord>>;
    next(url: string, signal?: AbortSignal): Promise<Page<FileRecord>>;
  };
  projects: {
    list(page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<Project>>;
    next(url: string, signal?: AbortSignal): Promise<Page<Project>>;
  };
}

/** The top of the tree: the caller's projects. Not shown itself. */
export class FilesRoot {
  readonly kind = 'root';
  readonly id = 'root';
  readonly nodes = new Map<string, ProjectNode>();
  constructor(readonly listing: PagedLoader<Project>) {}
}

export class ProjectNode {
  readonly kind = 'project';
  /** The nodes of its entries, kept so that a redraw (after "Load more") keeps their loaded children. */
  readonly nodes = new Map<string, FolderNode | FileNode>();
  constructor(
    readonly project: Project,
    readonly listing: PagedLoader<FileRecord>,
  ) {}
  get id(): string {
    return this.project.id;
  }
  get name(): string {
    return this.project.name || this.project.id;
  }
}

export class FolderNode {
  readonly kind = 'folder';
  readonly nodes = new Map<string, FolderNode | FileNode>();
  constructor(
    readonly file: FileRecord,
    readonly parentNode: ProjectNode | FolderNode,
    readonly listing: PagedLoader<FileRecord>,
  ) {}
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

/** A node with entries loaded page by page. */
export type ListingNode = FilesRoot | ProjectNode | FolderNode;
export type LoadMoreNode = ListingEnd<ListingNode>;
export type MessageNode = Message<ListingNode>;
export type FilesNode = ProjectNode | FolderNode | FileNode | LoadMoreNode | MessageNode;

/** A file or folder node: what a copy is made of. */
export type ItemNode = FolderNode | FileNode;
export const isItemNode = (node: unknown): node is ItemNode => node instanceof FolderNode || node instanceof FileNode;


/**
 * Projects → folders → files, each level loaded 100 at a time with "Load more (N left)". A load redraws only
 * the node it belongs to. Empty, error and signed-out states are rows, never a blank view.
 */
export class FilesTreeModel {
  private root: FilesRoot;
  private readonly changed = new Emitter<FilesNode | undefined>();
  /** Fires with the node whose children changed, or undefined for the whole tree. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly source: FilesSource,
    private readonly signedIn: () => Promise<boolean>,
  ) {
    this.root = this.newRoot();
  }

  /** Reloads everything, or one project's or folder's entries. */
  refresh(node?: ProjectNode | FolderNode): void {
    if (node) {
      node.listing.reset();
      node.nodes.clear();
      this.changed.fire(node);
      return;
    }
    this.root.listing.reset();
    this.root = this.newRoot();
    this.changed.fire(undefined);
  }

  /** Loads the next page of a listing (or its failed first page again); redraws only that listing's node. */
  async loadMore(node: LoadMoreNode | MessageNode | ListingNode): Promise<void> {
    const owner = node.kind === 'loadMore' || node.kind === 'message' ? node.parent : node;
    // A row of a tree that was refreshed since: its listing is gone.
    if (!owner || (owner.kind === 'root' && owner !== this.root)) return this.refresh();
    const loading = owner.listing.loadMore();
    this.fireFor(owner);
    await loading;
    this.fireFor(owner);
  }

  getParent(node: FilesNode): FilesNode | undefined {
    if (node.kind === 'folder' || node.kind === 'file') return node.parentNode;
    if (node.kind === 'project') return undefined;
    return node.parent?.kind === 'root' ? undefined : node.parent;
  }

  async getChildren(node?: FilesNode): Promise<FilesNode[]> {
    if (!(await this.signedIn())) return [];
    if (!node) return this.childrenOf(this.root);
    if (node.kind === 'project' || node.kind === 'folder') return this.childrenOf(node);
    return [];
  }

  dispose(): void {
    this.root.listing.reset();
    this.changed.dispose();
  }

  private async childrenOf(owner: ListingNode): Promise<FilesNode[]> {
    const listing: PagedLoader<unknown> = owner.listing;
    if (!listing.loaded) await listing.ensureLoaded();
    const nodes: FilesNode[] = owner.kind === 'root' ? this.projectNodes(owner) : this.entryNodes(owner);
    if (listing.error !== undefined && !nodes.length) {
      // The root's retry builds it anew; a project's or a folder's loads its first page again.
      const title = l10n.t('Try Again');
      const retry = owner.kind === 'root' ? { title, command: COMMANDS.refreshFiles } : { title, command: COMMANDS.loadMoreFiles, args: [owner] };
      return errorRows(owner.id, owner, listing.error, retry, l10n.t('Could not load: {0}', describeError(listing.error)));
    }
    if (listing.hasMore || listing.error !== undefined) nodes.push(new ListingEnd<ListingNode>(owner));
    else if (!nodes.length) nodes.push(new Message<ListingNode>(`${owner.id}/empty`, owner, emptyText(owner), 'info'));
    return nodes;
  }

  private projectNodes(root: FilesRoot): ProjectNode[] {
    return root.listing.items.map((project) => reuse(root.nodes, project.id, () => new ProjectNode(project, fileListing(this.source.files, { project: project.id }))));
  }

  /** Folders first, as in the Explorer; otherwise the platform's order. */
  private entryNodes(owner: ProjectNode | FolderNode): (FolderNode | FileNode)[] {
    const entries = [...owner.listing.items].sort((a, b) => Number(b.type === 'folder') - Number(a.type === 'folder'));
    return entries.map((file) =>
      file.type === 'folder'
        ? reuse(owner.nodes, `d:${file.id}`, () => new FolderNode(file, owner, fileListing(this.source.files, { parent: file.id })))
        : reuse(owner.nodes, `f:${file.id}`, () => new FileNode(file, owner)),
    );
  }

  private newRoot(): FilesRoot {
    const projects = this.source.projects;
    return new FilesRoot(
      new PagedLoader<Project>(
        { page: (offset, limit, signal) => projects.list({ offset, limit, signal }), next: (url, signal) => projects.next(url, signal) },
        { key: recordKey },
      ),
    );
  }

  private fireFor(owner: ListingNode): void {
    this.changed.fire(owner.kind === 'root' ? undefined : owner);
  }
}


function reuse<N>(cache: Map<string, N>, key: string, make: () => N): N {
  let node = cache.get(key);
  if (!node) cache.set(key, (node = make()));
  return node;
}

function emptyText(owner: ListingNode): string {
  return owner.kind === 'root' ? l10n.t('No projects') : owner.kind === 'project' ? l10n.t('This project is empty') : l10n.t('This folder is empty');
}
