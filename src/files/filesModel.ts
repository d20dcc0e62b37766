// The Projects & Files tree's data: the caller's projects, their folders and files, each level loaded 100 at a
// time by the paged loader, and the rows shown in place of a blank view; and the way down to a file or folder given
// by ID (Reveal in Projects & Files). Rows are a kind plus their record (fileNodes.ts); what each kind does is one
// table (ROW_KINDS, fileKinds.ts). No `vscode` import; ui/rowTree.ts draws it.

import * as l10n from '@vscode/l10n';
import { describeError } from '../api/errors';
import { FILE_ROW_FIELDS, fileListing, type FileLocation } from '../api/files';
import { PAGE_SIZE, PagedLoader, recordKey } from '../api/pagedLoader';
import type { FileRecord, Page, Project } from '../api/types';
import { actionRows, errorRows, LoadMoreNode as ListingEnd, MessageNode as Message, type RowModel, type RowView, unreadTooltipLine } from '../ui/rowView';
import { entryView } from './fileRows';
import { foundMessage, type Found } from './foundWords';
import { count } from '../util/words';
import { retryTitle } from '../ui/errorActions';
import { Emitter } from '../util/emitter';
import { commandTitles, COMMANDS } from '../keys/commands';
import { fileNode, filesRoot, folderNode, foundRoot, projectNode, relist, type FilesNode, type FilesRoot, type FolderNode, type FoundRoot, type ItemNode, type ListingNode, type LoadMoreNode, type MessageNode, type ProjectNode } from './fileNodes';
import { filesKind, isFilesRow, listingToLoad, opensOf, type FilesRows } from './fileKinds';

/** The part of the client the tree reads (SbClient, or a test double). */
export interface FilesSource {
  files: {
    list(location: FileLocation, page: { offset?: number; limit?: number; signal?: AbortSignal; fields?: string }): Promise<Page<FileRecord>>;
    next(url: string, signal?: AbortSignal): Promise<Page<FileRecord>>;
    get(id: string): Promise<FileRecord>;
  };
  projects: {
    list(page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<Project>>;
    next(url: string, signal?: AbortSignal): Promise<Page<Project>>;
  };
}

/** Pages of one listing read at most while looking for a row to reveal (1,000 entries). */
export const REVEAL_MAX_PAGES = 10;
/** Folders above a file followed at most while looking for it. */
const REVEAL_MAX_DEPTH = 100;

/** Why a file could not be revealed, in words. */
export class NotFoundError extends Error {}

/**
 * A file or folder past the first entries a listing above it is read for (REVEAL_MAX_PAGES): where it is, so that it
 * can be shown on its own (its name looked up in its folder) instead.
 */
export class FarDownError extends NotFoundError {
  constructor(
    message: string,
    readonly record: FileRecord,
    /** Its project, and its folder when not the project's root. */
    readonly place: { project: string; folder?: { id: string; name: string } },
  ) {
    super(message);
  }
}

/**
 * Projects → folders → files, each level loaded 100 at a time with "Load more (N left)". A load redraws only
 * the node it belongs to. Empty, error and signed-out states are rows, never a blank view.
 */
export class FilesTreeModel implements RowModel<FilesNode>, FilesRows {
  private root: FilesRoot;
  private foundRoot: FoundRoot | undefined;
  private readonly changed = new Emitter<FilesNode | undefined>();
  /** Fires with the node whose children changed, or undefined for the whole tree. */
  readonly onDidChange = this.changed.event;
  private readonly touched = new Emitter<readonly string[]>();
  /** The IDs of files and folders changed on the platform by the product (a write of this view, a job that ended). */
  readonly onDidTouch = this.touched.event;
  private readonly foundChanged = new Emitter<void>();
  /** Fires when what is said above the results of a find changed (foundMessage), as its pages load. */
  readonly onDidChangeFound = this.foundChanged.event;
  /** Whole records read for tooltips, by ID, each kept while its `modified_on` is the listed one. */
  private readonly wholeFiles = new Map<string, FileRecord>();

  constructor(
    private readonly source: FilesSource,
    private readonly signedIn: () => Promise<boolean>,
    readonly now: () => number,
  ) {
    this.root = this.newRoot();
  }

  /** How a row looks. */
  rowView(node: FilesNode): RowView {
    return filesKind(node).view(node, this);
  }

  /** A file's or folder's row: its tooltip drawn from the whole record when at hand, else read on hover. */
  entryView(node: ItemNode): RowView {
    const file = node.file;
    const whole = this.wholeFile(file);
    const view = entryView(whole ?? file, this.now(), node.writable);
    return whole || hasTooltipFields(file) ? view : { ...view, tooltipOnHover: true };
  }

  /** The whole record read for a listed entry, if it is still the listed one (the same `modified_on`). */
  private wholeFile(file: FileRecord): FileRecord | undefined {
    const whole = this.wholeFiles.get(file.id);
    return whole && whole.modified_on === file.modified_on ? { ...whole, ...file } : undefined;
  }

  /** A file's or folder's tooltip: its tags, metadata and origin need its whole record, one GET per entry while it is current. */
  async resolveTooltip(node: FilesNode): Promise<string | undefined> {
    const listed = filesKind(node).entry?.(node).file;
    if (!listed) return undefined;
    let whole = this.wholeFile(listed);
    if (!whole) {
      try {
        const read = await this.source.files.get(listed.id);
        this.wholeFiles.set(listed.id, read);
        whole = { ...read, ...listed };
      } catch (error) {
        return `${entryView(listed, this.now()).tooltip}\n\n${unreadTooltipLine(error)}`;
      }
    }
    return entryView(whole, this.now()).tooltip;
  }

  /**
   * The row of a file or folder given by ID, its project's and folders' listings loaded down to it (so the view can
   * reveal it): one request for the record, one per folder above it, and the pages each listing needs to show the
   * next one. Throws a NotFoundError saying why when it is not in the caller's projects or too far down a listing.
   */
  async locate(id: string): Promise<ItemNode> {
    const record = await this.source.files.get(id);
    const name = record.name || id;
    if (!record.project) throw new NotFoundError(l10n.t('The platform does not say which project {0} is in.', name));
    // The root as it is now: a refresh during the reveal makes another, whose pages these are not.
    const root = this.root;
    const project = await this.find(root, record.project, () => this.projectNodes(root));
    if (!project) throw new NotFoundError(l10n.t('{0} is in {1}, which is not among your projects.', name, record.project));
    const above: FileRecord[] = [];
    for (let at = record; at.parent && at.parent !== project.project.root_folder; ) {
      if (above.length >= REVEAL_MAX_DEPTH) throw new NotFoundError(l10n.t('{0} is more than {1} folders deep.', name, REVEAL_MAX_DEPTH));
      at = await this.source.files.get(at.parent);
      above.unshift(at);
    }
    let owner: ProjectNode | FolderNode = project;
    for (const step of [...above, record]) {
      const at = owner;
      const found = await this.find(at, step.id, () => this.entryNodes(at));
      if (!found) {
        const folder = above.at(-1);
        throw new FarDownError(
          l10n.t('{0} is not among the first {1} entries of {2}.', step.name || step.id, count(REVEAL_MAX_PAGES * PAGE_SIZE), owner.name),
          record,
          { project: project.id, folder: folder && { id: folder.id, name: folder.name } },
        );
      }
      if (step === record) return found;
      const folder = opensOf(found);
      if (!folder) throw new NotFoundError(l10n.t('{0} is not a folder.', found.name));
      owner = folder;
    }
    throw new NotFoundError(l10n.t('{0} was not found.', name));
  }

  /** The row of `id` among what Find Files found (its pages loaded as `locate` loads a folder's), if it is there. */
  async locateFound(id: string): Promise<ItemNode | undefined> {
    const top = this.foundRoot;
    return top && this.find(top, id, () => this.entryNodes(top));
  }

  /**
   * The row of `id` in a listing, its pages loaded (at most REVEAL_MAX_PAGES) until it shows; a listing loaded before
   * is read again once when it does not show it (a copy that arrived since). The listing's row is redrawn.
   */
  private async find<N extends ProjectNode | ItemNode>(owner: ListingNode, id: string, rows: () => N[]): Promise<N | undefined> {
    const listing: PagedLoader<unknown> = owner.listing;
    let fresh = !listing.loaded;
    await listing.ensureLoaded();
    for (;;) {
      const found = rows().find((node) => node.id === id);
      if (found) {
        this.fireFor(owner);
        return found;
      }
      if (listing.error !== undefined) throw listing.error;
      if (listing.hasMore && listing.items.length < REVEAL_MAX_PAGES * PAGE_SIZE) {
        await listing.loadMore();
      } else if (!fresh) {
        fresh = true;
        await listing.reload(REVEAL_MAX_PAGES);
      } else {
        return undefined;
      }
    }
  }

  /** What Find Files found, shown in place of the projects (none: the projects again). */
  showFound(found: Found | undefined, rootFolders: ReadonlyMap<string, string> = new Map()): void {
    this.foundRoot?.listing.reset();
    this.foundRoot = found ? foundRoot(found, rootFolders) : undefined;
    this.changed.fire(undefined);
  }

  /** What the view shows found, if it does. */
  get found(): Found | undefined {
    return this.foundRoot?.found;
  }

  /** What the view says above what it found (undefined when it shows the projects). */
  get foundSaid(): string | undefined {
    return this.foundRoot?.said;
  }

  /**
   * Reloads the listings that show these files or folders (after a change made to them): each project or folder
   * loaded so far that lists one, and the results of a find that lists one. Said to `onDidTouch` unless `echo` is
   * false (a change the file system made, which it has said already).
   */
  refreshHolding(ids: readonly string[], options: { echo?: boolean } = {}): void {
    if (options.echo !== false) this.touched.fire(ids);
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    const holds = (owner: { nodes: Map<string, ItemNode> }) => [...owner.nodes.values()].some((n) => wanted.has(n.id.toLowerCase()));
    const owners: (ProjectNode | FolderNode)[] = [];
    const visit = (owner: ProjectNode | FolderNode) => {
      if (holds(owner)) owners.push(owner);
      for (const node of owner.nodes.values()) visitListing(node, visit);
    };
    for (const project of this.root.nodes.values()) visit(project);
    if (this.foundRoot && holds(this.foundRoot)) {
      this.foundRoot.listing.reset();
      this.foundRoot.nodes.clear();
      this.changed.fire(undefined);
    }
    for (const owner of owners) void this.refresh(owner);
  }

  /** Reloads the entries of the projects and folders loaded so far whose ID is one of these (a move's or a copy's destination). */
  refreshListings(ids: readonly string[], options: { echo?: boolean } = {}): void {
    if (options.echo !== false) this.touched.fire(ids);
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    const owners: (ProjectNode | FolderNode)[] = [];
    const visit = (owner: ProjectNode | FolderNode) => {
      if (wanted.has(owner.id.toLowerCase())) owners.push(owner);
      for (const node of owner.nodes.values()) visitListing(node, visit);
    };
    for (const project of this.root.nodes.values()) visit(project);
    for (const owner of owners) void this.refresh(owner);
  }

  /**
   * Reloads everything, or one project's or folder's entries: as many pages as are shown (300 entries stay 300),
   * drawn when the answer is in (a listing never loaded, or failed, is read from its first page when next shown).
   */
  async refresh(node?: ProjectNode | FolderNode): Promise<void> {
    if (node) {
      if (node.listing.loaded && !node.listing.error && !node.listing.loading) {
        await node.listing.reload();
      } else {
        node.listing.reset();
        node.nodes.clear();
      }
      this.changed.fire(node);
      return;
    }
    this.root.listing.reset();
    this.root = this.newRoot();
    if (this.foundRoot) {
      this.foundRoot.listing.reset();
      this.foundRoot.nodes.clear();
    }
    this.changed.fire(undefined);
  }

  /** Loads the next page of a listing (or its failed first page again); redraws only that listing's node. */
  async loadMore(node: LoadMoreNode | MessageNode | ListingNode): Promise<void> {
    const owner = listingToLoad(node);
    // A row of a tree that was refreshed since: its listing is gone.
    if (!owner || (!isFilesRow(owner) && owner !== this.root && owner !== this.foundRoot)) return this.refresh();
    const loading = owner.listing.loadMore();
    this.fireFor(owner);
    await loading;
    this.fireFor(owner);
  }

  getParent(node: FilesNode): FilesNode | undefined {
    return filesKind(node).parent?.(node, this);
  }

  async getChildren(node?: FilesNode): Promise<FilesNode[]> {
    if (!(await this.signedIn())) return [];
    if (!node) return this.foundRoot ? this.foundRows(this.foundRoot) : this.projectRows(this.root);
    return (await filesKind(node).children?.(node, this)) ?? [];
  }

  dispose(): void {
    this.root.listing.reset();
    this.foundRoot?.listing.reset();
    this.changed.dispose();
    this.foundChanged.dispose();
  }

  /** The projects' rows; the retry of a list that failed builds it anew. */
  private projectRows(root: FilesRoot): Promise<FilesNode[]> {
    return this.listed(root, () => this.projectNodes(root), (error) => errorRows(root.id, root, error, { title: retryTitle(), command: COMMANDS.refreshFiles }, couldNotLoad(error)), l10n.t('No projects'));
  }

  /** The rows of a project's or a folder's entries; a retry loads its first page again. */
  entryRows(owner: ProjectNode | FolderNode, empty: string): Promise<FilesNode[]> {
    return this.listed(owner, () => this.entryNodes(owner), (error) => errorRows(owner.id, owner, error, { title: retryTitle(), command: COMMANDS.loadMoreFiles, args: [owner] }, couldNotLoad(error)), empty);
  }

  /** What a find found: what went wrong is said once, whole, above the rows (foundMessage), here what to do about it. */
  private foundRows(top: FoundRoot): Promise<FilesNode[]> {
    const rows = () => {
      if (top.said !== foundMessage(top.found)) {
        // Who answered (the list filters, when the platform had no search), how far it looked, or that it failed: said above the rows.
        top.said = foundMessage(top.found);
        this.foundChanged.fire();
      }
      return this.entryNodes(top);
    };
    const failed = (error: unknown) => [...actionRows(top.id, top, error, { title: retryTitle(), command: COMMANDS.loadMoreFiles, args: [top] }), this.clearFindRow(top)];
    return this.listed(top, rows, failed, l10n.t('No files or folders match'), (text) => this.clearFindRow(top, text));
  }

  /** A listing's rows, "Load more" after them while it has more; when it has none, what went wrong or that it is empty. */
  private async listed(owner: ListingNode, rows: () => FilesNode[], failed: (error: unknown) => FilesNode[], empty: string, emptyRow = (text: string): FilesNode => new Message<ListingNode>(`${owner.id}/empty`, owner, text, 'info')): Promise<FilesNode[]> {
    const listing: PagedLoader<unknown> = owner.listing;
    if (!listing.loaded) await listing.ensureLoaded();
    const nodes = rows();
    if (listing.error !== undefined && !nodes.length) return failed(listing.error);
    if (listing.hasMore || listing.error !== undefined) nodes.push(new ListingEnd<ListingNode>(owner));
    else if (!nodes.length) nodes.push(emptyRow(empty));
    return nodes;
  }

  /** A row that clears the find: "No files or folders match", or the command's own title. */
  private clearFindRow(owner: FoundRoot, text = commandTitles().clearFind): MessageNode {
    return new Message<ListingNode>(`${owner.id}/clear`, owner, text, 'info', undefined, { title: commandTitles().clearFind, command: COMMANDS.clearFind });
  }

  private projectNodes(root: FilesRoot): ProjectNode[] {
    return root.listing.items.map((project) => reuse(root.nodes, project.id, () => projectNode(project, fileListing(this.source.files, { project: project.id }, {}, FILE_ROW_FIELDS))));
  }

  /**
   * Folders first, as in the Explorer; otherwise the platform's order. A row listed before is the same node (its
   * children loaded, its place in the view kept) with the record as listed now; the nodes of entries gone are let go.
   */
  private entryNodes(owner: ProjectNode | FolderNode | FoundRoot): ItemNode[] {
    const entries = [...owner.listing.items].sort((a, b) => Number(b.type === 'folder') - Number(a.type === 'folder'));
    const nodes = entries.map((file) => {
      const node: ItemNode =
        file.type === 'folder'
          ? reuse(owner.nodes, `d:${file.id}`, () => folderNode(file, owner, fileListing(this.source.files, { parent: file.id }, {}, FILE_ROW_FIELDS)))
          : reuse(owner.nodes, `f:${file.id}`, () => fileNode(file, owner));
      relist(node, file);
      return node;
    });
    const listed = new Set(entries.map((file) => `${file.type === 'folder' ? 'd' : 'f'}:${file.id}`));
    for (const key of [...owner.nodes.keys()]) if (!listed.has(key)) owner.nodes.delete(key);
    return nodes;
  }

  private newRoot(): FilesRoot {
    const projects = this.source.projects;
    return filesRoot(
      new PagedLoader<Project>(
        { page: (offset, limit, signal) => projects.list({ offset, limit, signal }), next: (url, signal) => projects.next(url, signal) },
        { key: recordKey },
      ),
    );
  }

  private fireFor(owner: ListingNode): void {
    // The tops are not shown: the whole view is drawn again.
    this.changed.fire(isFilesRow(owner) ? owner : undefined);
  }
}


/** Whether a record carries what a tooltip shows beyond a row's fields (a search's answer does). */
function hasTooltipFields(file: FileRecord): boolean {
  return 'tags' in file || 'metadata' in file || 'origin' in file;
}

function reuse<N>(cache: Map<string, N>, key: string, make: () => N): N {
  let node = cache.get(key);
  if (!node) cache.set(key, (node = make()));
  return node;
}

const couldNotLoad = (error: unknown): string => l10n.t('Could not load: {0}', describeError(error));

/** A listing a row opens into (a folder's), to visit. */
function visitListing(node: ItemNode, visit: (owner: ProjectNode | FolderNode) => void): void {
  const listing = opensOf(node);
  if (listing) visit(listing);
}
