// What the file commands act on (see ui/commands.ts): a platform file or folder — a row of Projects & Files, a task's
// input or output, a copied item of a copy job, a record or an ID — and, for Copy ID, a project too.
import * as vscode from 'vscode';
import { isFileId } from '../api/ids';
import type { Services } from '../services';
import { askForFileIds } from '../copy/sources';
import { signInToCopy, type CopySources } from '../copy/flow';
import { setTokenAction } from '../ui/errorActions';
import { COMMANDS } from '../keys/commands';
import type { FileRecord } from '../api/types';
import type { RemotePath } from '../remote/remotePath';
import type { TargetType } from '../ui/commands';
import type { ItemNode, ListingNode, LoadMoreNode, MessageNode } from './fileNodes';
import { entryOf, listingToLoad, projectRowOf } from './fileKinds';

/** A platform file or folder, with what the row it came from knows of it. */
export interface FileRef {
  id: string;
  name?: string;
  project?: string;
  folder?: boolean;
  /** It came from inside a project (a row), so it is not a project's root folder. */
  listed?: boolean;
  /** Where it is, when its row knows (a row of Projects & Files): its project and the names down to it. */
  path?: RemotePath;
  /** Its size in bytes, when its row knows. */
  size?: number;
  /** Its record, when its row has it (a row of Projects & Files). */
  record?: FileRecord;
}

/** What a file commands asks of the box that asks for IDs. */
export interface FileAsk {
  prompt: () => string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The file or folder a row, a record or an ID stands for. */
export function readFile(value: unknown): FileRef | undefined {
  if (typeof value === 'string') return isFileId(value) ? { id: value.toLowerCase() } : undefined;
  const entry = entryOf(value);
  if (entry) {
    // The view's own record of a file may be partial: the project row above it knows.
    const project = entry.file.project ?? entry.projectRow?.id;
    const names = namesDownTo(entry);
    const path = project && names ? { path: { project, names } } : {};
    return { id: entry.file.id, name: entry.file.name, project, folder: entry.file.type === 'folder', listed: true, ...path, size: entry.file.size, record: entry.file };
  }
  if (!isObject(value)) return undefined;
  // Another view's row carries the file it stands for (a task's output, a copied item); a record is one.
  const row = 'kind' in value;
  const file = row ? value.file : value;
  if (!isObject(file) || typeof file.id !== 'string' || !isFileId(file.id)) return undefined;
  return {
    id: file.id,
    ...(typeof file.name === 'string' ? { name: file.name } : {}),
    ...(typeof file.project === 'string' ? { project: file.project } : {}),
    folder: file.folder === true || file.type === 'folder',
    ...(typeof file.size === 'number' ? { size: file.size } : {}),
    listed: row,
    ...(typeof file.size === 'number' ? { size: file.size } : {}),
  };
}

/** The names of the folders from the project's root down to a row, its own last. */
function namesDownTo(node: ItemNode): string[] | undefined {
  // A found file's row hangs under the find's results, not its folders: its place is not known from the rows.
  return node.projectRow && [...node.above, node].map((n) => n.file.name);
}

/** A file or folder; when none is at hand, the IDs in the editor's selection or typed in a box. */
export function fileTarget(services: Services): TargetType<FileRef, FileAsk> {
  return {
    read: readFile,
    key: (file) => file.id.toLowerCase(),
    pick: async ({ title, ask }) => {
      if (!(await services.session.credentials())) {
        const chosen = await vscode.window.showWarningMessage(signInToCopy(), setTokenAction());
        if (chosen) await vscode.commands.executeCommand(COMMANDS.setToken);
        return [];
      }
      const ids = await askForFileIds(title, ask?.prompt() ?? '');
      return (ids ?? []).map((id) => ({ id }));
    },
  };
}

/** A copy's sources: the files and folders with what their rows knew (names, projects, which are folders). */
export function copySources(files: readonly FileRef[]): CopySources {
  const names: Record<string, string> = {};
  const projects = new Set<string>();
  for (const file of files) {
    if (file.name) names[file.id.toLowerCase()] = file.name;
    if (file.project) projects.add(file.project);
  }
  const listed = files.every((f) => f.listed);
  return {
    ids: files.map((f) => f.id),
    ...(Object.keys(names).length ? { names } : {}),
    ...(listed && projects.size ? { projects: [...projects] } : {}),
    ...(listed ? { trusted: true, folders: files.filter((f) => f.folder).map((f) => f.id) } : {}),
  };
}

/** What Copy ID copies: a file's, a folder's or a project's ID, with its name. */
export interface IdRef {
  id: string;
}

/** A row of Projects & Files with an ID: a project, a folder or a file. */
export const idTarget: TargetType<IdRef> = {
  read: (value) => {
    const row = entryOf(value) ?? projectRowOf(value);
    return row && { id: row.id };
  },
  key: (ref) => ref.id,
};

/** A project: its row in Projects & Files. */
export const projectTarget: TargetType<{ id: string; name?: string }> = {
  read: (value) => {
    const project = projectRowOf(value);
    return project && { id: project.id, name: project.project.name };
  },
  key: (ref) => ref.id,
};

/** A listing of Projects & Files to load more of: its "Load more" row, or the project or folder its retry row names. */
export const filesListingTarget: TargetType<LoadMoreNode | MessageNode | ListingNode> = {
  read: (value) => (listingToLoad(value) ? (value as LoadMoreNode | MessageNode | ListingNode) : undefined),
  key: (node) => node.id,
};
