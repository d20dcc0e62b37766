// The rows of Projects & Files, each a kind plus its record: a project, a folder, a file (and the message and "Load
// more" rows every paged view has), with the facts the commands and menus read (where it is, whether the person may
// change it); and the two tops the listings hang under, not shown themselves: the projects, and what Find Files found.
// What each kind does is one table (ROW_KINDS, fileKinds.ts). No `vscode` import.

import type { FileRecord, Project } from '../api/types';
import type { PagedLoader } from '../api/pagedLoader';
import type { LoadMoreNode as ListingEnd, MessageNode as Message } from '../ui/rowView';
import { foundMessage, type Found } from './foundWords';

/** The top of the tree: the caller's projects. Not shown itself. */
export interface FilesRoot {
  readonly kind: 'root';
  readonly id: 'root';
  readonly listing: PagedLoader<Project>;
  readonly nodes: Map<string, ProjectNode>;
}

/** The top of the tree while it shows what Find Files found: a flat list of files and folders. Not shown itself. */
export interface FoundRoot {
  readonly kind: 'found';
  readonly id: 'found';
  readonly found: Found;
  readonly listing: PagedLoader<FileRecord>;
  readonly nodes: Map<string, ItemNode>;
  /** Each project's root folder, to tell a top-level entry's path. */
  readonly rootFolders: ReadonlyMap<string, string>;
  /** What the view said above the results when last drawn (foundMessage). */
  said: string;
}

export interface ProjectNode {
  readonly kind: 'project';
  readonly id: string;
  readonly name: string;
  readonly project: Project;
  /** The caller may change what is in it (not a read-only project; unknown: offered). */
  readonly writable: boolean;
  readonly listing: PagedLoader<FileRecord>;
  /** The rows of its entries, kept so that a redraw (after "Load more") keeps their loaded children. */
  readonly nodes: Map<string, ItemNode>;
}

/** What a file's or a folder's row knows of itself and of where it is. */
interface EntryFacts {
  readonly id: string;
  /** The record as its listing holds it now (a reload brings a renamed or re-tagged one), and its name. */
  file: FileRecord;
  name: string;
  /** The row it is listed under. */
  readonly parentNode: ProjectNode | FolderNode | FoundRoot;
  /** The project row it is under, and the folders from the project's root down to it; none for what Find Files found (a flat list). */
  readonly projectRow?: ProjectNode;
  readonly above: readonly FolderNode[];
  /** The results it is one of, when Find Files found it. */
  readonly foundIn?: FoundRoot;
  /** The caller may change it: its project is not read-only (unknown, or found: offered). */
  readonly writable: boolean;
}

export interface FolderNode extends EntryFacts {
  readonly kind: 'folder';
  readonly listing: PagedLoader<FileRecord>;
  readonly nodes: Map<string, ItemNode>;
}

export interface FileNode extends EntryFacts {
  readonly kind: 'file';
}

/** A node with entries loaded page by page. */
export type ListingNode = FilesRoot | FoundRoot | ProjectNode | FolderNode;
export type LoadMoreNode = ListingEnd<ListingNode>;
export type MessageNode = Message<ListingNode>;
export type FilesNode = ProjectNode | FolderNode | FileNode | LoadMoreNode | MessageNode;
/** A file or folder node: what a copy is made of. */
export type ItemNode = FolderNode | FileNode;
/** Where things are put: a project's root, or a folder of it. */
export interface Place {
  readonly project: ProjectNode;
  readonly folder?: FolderNode;
}

/** The tops made, to tell one given back by a command (a retry's argument) from anything else. */
const tops = new WeakSet<object>();
export const isTop = (value: unknown): value is FilesRoot | FoundRoot => typeof value === 'object' && value !== null && tops.has(value);

export function filesRoot(listing: PagedLoader<Project>): FilesRoot {
  const top: FilesRoot = { kind: 'root', id: 'root', listing, nodes: new Map() };
  tops.add(top);
  return top;
}

export function foundRoot(found: Found, rootFolders: ReadonlyMap<string, string>): FoundRoot {
  const top: FoundRoot = { kind: 'found', id: 'found', found, listing: found.listing, nodes: new Map(), rootFolders, said: foundMessage(found) };
  tops.add(top);
  return top;
}

/**
 * The project, folder and file rows made here: a command's argument of those kinds is one of them or nothing (an
 * object of a script's that only looks like one is no target, as no class instance was before).
 */
const made = new WeakSet<object>();
export const MADE_KINDS: ReadonlySet<string> = new Set(['project', 'folder', 'file']);
export const isMadeRow = (value: object): boolean => made.has(value);
function mark<R extends object>(row: R): R {
  made.add(row);
  return row;
}

export function projectNode(project: Project, listing: PagedLoader<FileRecord>): ProjectNode {
  return mark({ kind: 'project', id: project.id, name: project.name || project.id, project, writable: project.permissions?.write !== false, listing, nodes: new Map() });
}

export function folderNode(file: FileRecord, parentNode: ProjectNode | FolderNode | FoundRoot, listing: PagedLoader<FileRecord>): FolderNode {
  return mark<FolderNode>({ kind: 'folder', ...entryFacts(file, parentNode), listing, nodes: new Map() });
}

export function fileNode(file: FileRecord, parentNode: ProjectNode | FolderNode | FoundRoot): FileNode {
  return mark<FileNode>({ kind: 'file', ...entryFacts(file, parentNode) });
}

/** A row listed again: the record as listed now. */
export function relist(node: ItemNode, file: FileRecord): void {
  node.file = file;
  node.name = file.name || file.id;
}

/** Where an entry of a listing is: under which project and folders, found, and whether the caller may change it. */
function entryFacts(file: FileRecord, parentNode: ProjectNode | FolderNode | FoundRoot): EntryFacts {
  const facts = { id: file.id, file, name: file.name || file.id, parentNode };
  switch (parentNode.kind) {
    case 'project':
      return { ...facts, projectRow: parentNode, above: [], writable: parentNode.writable };
    case 'folder':
      return { ...facts, projectRow: parentNode.projectRow, above: parentNode.projectRow ? [...parentNode.above, parentNode] : [], writable: parentNode.writable };
    case 'found':
      return { ...facts, foundIn: parentNode, above: [], writable: true };
  }
}

