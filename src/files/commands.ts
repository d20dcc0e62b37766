// What the commands of Projects & Files do; files/register.ts binds them to their IDs.
import * as vscode from 'vscode';
import type { CopyCommandArgs } from '../copy/flow';
import { pickProject } from '../copy/pickers';
import { count } from '../util/words';
import type { CopyFeature } from '../copy/register';
import type { TrackedJob } from '../jobs/tracker';
import { dropDestination, type DropTarget } from './dragAndDrop';
import { copySourcesOf, isFilesNode } from './selection';
import { FolderNode, isItemNode, ProjectNode, type FilesNode, type ItemNode } from './filesModel';
import type { FilesTreeProvider } from './tree';

export interface FilesParts {
  readonly tree: FilesTreeProvider;
  /** The view's selection (a keyboard user's focus, or what the palette's commands act on). */
  readonly selection: () => readonly FilesNode[];
  readonly copy: CopyFeature;
}

/** Refresh: the row given (a project or a folder), else everything, the project list included. */
export function refreshFiles(parts: FilesParts, node?: FilesNode): void {
  parts.copy.projects.clear();
  parts.tree.refresh(node instanceof ProjectNode || node instanceof FolderNode ? node : undefined);
}

/** Copy ID: of the rows given or selected, else of a project picked from the list. */
export async function copyIds(parts: FilesParts, node?: FilesNode, nodes?: FilesNode[]): Promise<void> {
  const chosen = (nodes?.length ? nodes : node ? [node] : [...parts.selection()]).filter((n): n is ItemNode | ProjectNode => isItemNode(n) || n instanceof ProjectNode);
  if (!chosen.length) {
    const project = await pickProject(parts.copy.projects, { title: vscode.l10n.t('Seven Bridges: Copy the ID of which project?'), allowReadOnly: true });
    if (!project) return;
    await vscode.env.clipboard.writeText(project.id);
    vscode.window.setStatusBarMessage(copiedId(project.id), 3_000);
    return;
  }
  await vscode.env.clipboard.writeText(chosen.map((n) => n.id).join('\n'));
  vscode.window.setStatusBarMessage(chosen.length === 1 ? copiedId(chosen[0].id) : vscode.l10n.t('Copied {0} IDs', count(chosen.length)), 3_000);
}

/**
 * "Copy Files and Folders…" and "Copy To…": (args) from a script, (row, rows) from a context menu; the rows given,
 * else the view's selection, are the sources (a context menu's rows that hold no file or folder copy nothing).
 */
export function copyFromView(parts: FilesParts, arg?: CopyCommandArgs | FilesNode, nodes?: FilesNode[], extra?: CopyCommandArgs): Promise<TrackedJob[]> {
  const fromMenu = isFilesNode(arg);
  const args: CopyCommandArgs = arg && !fromMenu ? arg : (extra ?? {});
  const rows = fromMenu ? (nodes?.length ? nodes : [arg]) : parts.selection();
  const selected = copySourcesOf(rows);
  if (fromMenu && !selected && !args.ids) return Promise.resolve([]);
  return parts.copy.copyFiles(selected, args);
}

/** What a drop does: the copy flow to the target, its confirmation included (`args` as the copy commands take). */
export function dropCopy(parts: Pick<FilesParts, 'copy'>, target: DropTarget, items: ItemNode[], args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
  const sources = copySourcesOf(items);
  if (!sources) return Promise.resolve([]);
  // The destination is the drop's; a single item keeps its name (no rename question after a drag).
  return parts.copy.flow.run(sources, { newName: '', ...args, destination: dropDestination(target, sources.projects ?? []) });
}

const copiedId = (id: string): string => vscode.l10n.t('Copied {0}', id);
