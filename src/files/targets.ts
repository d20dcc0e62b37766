// What the file commands act on (see ui/commands.ts): a platform file or folder — a row of Projects & Files, a task's
// input or output, a copied item of a copy job, a record or an ID — and, for Copy ID, a project too.
import * as vscode from 'vscode';
import { isFileId } from '../api/ids';
import type { Services } from '../services';
import { askForFileIds } from '../copy/sources';
import { signInToCopy, type CopySources } from '../copy/flow';
import { setTokenAction } from '../ui/errorActions';
import { COMMANDS } from '../keys/commands';
import type { TargetType } from '../ui/commands';
import { projectNodeOf } from './dragAndDrop';
import { FileNode, FolderNode, ProjectNode, type ListingNode, type LoadMoreNode, type MessageNode } from './filesModel';

/** A platform file or folder, with what the row it came from knows of it. */
export interface FileRef {
  id: string;
  name?: string;
  project?: string;
  folder?: boolean;
  size?: number;
  /** It came from inside a project (a row), so it is not a project's root folder. */
  listed?: boolean;
}

/** What a file commands asks of the box that asks for IDs. */
export interface FileAsk {
  prompt: () => string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The file or folder a row, a record or an ID stands for. */
export function readFile(value: unknown): FileRef | undefined {
  if (typeof value === 'string') return isFileId(value) ? { id: value.toLowerCase() } : undefined;
  if (value instanceof FileNode || value instanceof FolderNode) {
    // The view's own record of a file may be partial: the project row above it knows.
    const size = typeof value.file.size === 'number' ? { size: value.file.size } : {};
    return { id: value.file.id, name: value.file.name, project: value.file.project ?? projectNodeOf(value)?.id, folder: value instanceof FolderNode, listed: true, ...size };
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
  };
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
  read: (value) => (value instanceof ProjectNode || value instanceof FolderNode || value instanceof FileNode ? { id: value.id } : undefined),
  key: (ref) => ref.id,
};

/** A listing of Projects & Files to load more of: its "Load more" row, or the project or folder its retry row names. */
export const filesListingTarget: TargetType<LoadMoreNode | MessageNode | ListingNode> = {
  read: (value) => {
    const kind = (value as { kind?: unknown } | undefined)?.kind;
    return kind === 'loadMore' || kind === 'message' || kind === 'project' || kind === 'folder' || kind === 'root' || kind === 'found' ? (value as LoadMoreNode | MessageNode | ListingNode) : undefined;
  },
  key: (node) => node.id,
};
