// What each kind of row of Projects & Files does, in one table: how it looks (fileRows.ts), what it opens into, where
// it hangs, and what it is to the commands (the file or folder it is, the place it stands for, where a drop onto it
// lands, the listing it loads). Commands read a row through these, never by asking what class it is. No `vscode` import.

import * as l10n from '@vscode/l10n';
import { commandTitles, COMMANDS } from '../keys/commands';
import { isRowOf, loadMoreView, messageView, type RowKind, type RowView } from '../ui/rowView';
import { projectView } from './fileRows';
import { foundPath } from './foundWords';
import { isMadeRow, isTop, MADE_KINDS, type FileNode, type FilesNode, type FolderNode, type ItemNode, type ListingNode, type Place, type ProjectNode } from './fileNodes';

/** What the table's entries read of the view's model (FilesTreeModel). */
export interface FilesRows {
  now(): number;
  /** A file's or folder's row (its tooltip from the whole record when at hand). */
  entryView(row: ItemNode): RowView;
  /** The rows of a project's or a folder's entries, `empty` said when there are none. */
  entryRows(owner: ProjectNode | FolderNode, empty: string): Promise<FilesNode[]>;
}

/** What one kind of row does: how it looks, what it opens into, where it hangs, and what the commands read of it. */
export interface FileRowKind<R extends FilesNode> extends RowKind<R, FilesNode, FilesRows> {
  /** The file or folder it is: what Open, Copy, Move, Delete, Download and a drag act on. */
  entry?(row: R): ItemNode;
  /** The project it is: Add to Workspace, Download of the whole project. */
  project?(row: R): ProjectNode;
  /** The place it stands for: where New Folder…, Upload… and Find Files… on it act (none for what Find Files found). */
  place?(row: R): Place | undefined;
  /** Where a drop onto it lands: its place; a file's is the folder it is in. */
  drop?(row: R): Place | undefined;
  /** The listing it opens into: what Refresh on it reads again. */
  opens?(row: R): ProjectNode | FolderNode;
  /** The listing Load more on it reads (a "Load more" row's, a retry row's, the row's own). */
  loads?(row: R): ListingNode | undefined;
}

/** Every kind of the view's rows, each with what it does. */
export type FileRowKinds = { readonly [K in FilesNode['kind']]: FileRowKind<Extract<FilesNode, { readonly kind: K }>> };

/** A folder's place, in its project's tree. */
const folderPlace = (row: FolderNode): Place | undefined => row.projectRow && { project: row.projectRow, folder: row };
/** The row a row hangs under in the view: its listing's, unless that is a top (not shown). */
const shownParent = (listing: ListingNode | undefined): FilesNode | undefined => (isFilesRow(listing) ? listing : undefined);

export const ROW_KINDS: FileRowKinds = {
  project: {
    view: (row, model) => projectView(row.project, model.now(), row.writable),
    children: (row, model) => model.entryRows(row, l10n.t('This project is empty')),
    project: (row) => row,
    place: (row) => ({ project: row }),
    drop: (row) => ({ project: row }),
    opens: (row) => row,
    loads: (row) => row,
  },
  folder: {
    view: (row, model) => ({ ...model.entryView(row), fileIcon: 'folder' }),
    children: (row, model) => model.entryRows(row, l10n.t('This folder is empty')),
    parent: (row) => shownParent(row.parentNode),
    entry: (row) => row,
    place: folderPlace,
    drop: folderPlace,
    opens: (row) => row,
    loads: (row) => row,
  },
  file: {
    view: (row, model) => fileView(row, model),
    parent: (row) => shownParent(row.parentNode),
    entry: (row) => row,
    drop: (row) => row.projectRow && { project: row.projectRow, folder: row.above.at(-1) },
  },
  message: { view: (row) => messageView(row), parent: (row) => shownParent(row.parent), loads: (row) => row.parent },
  loadMore: {
    view: (row) => loadMoreView(row.parent.listing, { command: COMMANDS.loadMoreFiles, title: commandTitles().loadMoreFiles, args: [row] }),
    parent: (row) => shownParent(row.parent),
    loads: (row) => row.parent,
  },
};

/** A file's row: a click opens it in the editor; found, it says where it is. */
function fileView(row: FileNode, model: FilesRows): RowView {
  const view: RowView = { ...model.entryView(row), fileIcon: 'file', command: { command: COMMANDS.openRemoteFile, title: commandTitles().openRemoteFile, args: [row] } };
  const path = row.foundIn && foundPath(row.file, row.foundIn.found.spec, row.foundIn.rootFolders);
  return path ? { ...view, description: [view.description, path].filter(Boolean).join(' · ') } : view;
}

/** Whether a value (a command's argument may be anything) is a row of Projects & Files (a project, folder or file row one it made). */
export const isFilesRow = (value: unknown): value is FilesNode => isRowOf(ROW_KINDS, value) && (!MADE_KINDS.has(value.kind) || isMadeRow(value));

/** The entry of a row's kind. */
export function filesKind<N extends FilesNode>(row: N): FileRowKind<N> {
  return (ROW_KINDS as unknown as Record<string, FileRowKind<N>>)[row.kind];
}

/** One fact of a value's kind, when the value is a row of Projects & Files. */
function fact<T>(value: unknown, read: (kind: FileRowKind<FilesNode>, row: FilesNode) => T | undefined): T | undefined {
  return isFilesRow(value) ? read(filesKind(value), value) : undefined;
}

/** The file or folder a value is, when it is such a row. */
export const entryOf = (value: unknown): ItemNode | undefined => fact(value, (kind, row) => kind.entry?.(row));
export const isItemNode = (value: unknown): value is ItemNode => entryOf(value) !== undefined;
/** The project a value is, when it is a project's row. */
export const projectRowOf = (value: unknown): ProjectNode | undefined => fact(value, (kind, row) => kind.project?.(row));
/** The place a project's or a folder's row stands for. */
export const placeOf = (value: unknown): Place | undefined => fact(value, (kind, row) => kind.place?.(row));
/** Where a drop onto a row lands. */
export const dropPlaceOf = (value: unknown): Place | undefined => fact(value, (kind, row) => kind.drop?.(row));
/** The listing a project's or a folder's row opens into. */
export const opensOf = (value: unknown): ProjectNode | FolderNode | undefined => fact(value, (kind, row) => kind.opens?.(row));

/** The listing Load more reads for a value: a row's (see `loads`), or a top's own (a retry of the projects or of a find). */
export function listingToLoad(value: unknown): ListingNode | undefined {
  return isFilesRow(value) ? filesKind(value).loads?.(value) : isTop(value) ? value : undefined;
}

/** The row a drop target is: a place's folder, else its project. */
export const placeRow = (place: Place): ProjectNode | FolderNode => place.folder ?? place.project;
