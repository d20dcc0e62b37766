// The commands of Projects & Files: one table, each entry what it acts on and what it does (see ui/commands.ts).
import * as vscode from 'vscode';
import type { CopyCommandArgs } from '../copy/flow';
import type { CopyFeature } from '../copy/register';
import { copySourcesPrompt } from '../copy/sources';
import type { TrackedJob } from '../jobs/tracker';
import type { Services } from '../services';
import { onMany, onOne, plain, type Command, type CommandOptions } from '../ui/commands';
import { pickProject } from '../ui/projectPick';
import { withProgressBar, type RowTree } from '../ui/rowTree';
import { count } from '../util/words';
import { dropDestination, type DropTarget } from './dragAndDrop';
import { FolderNode, ProjectNode, type FilesNode, type FilesTreeModel, type ItemNode } from './filesModel';
import { copySources, fileTarget, filesListingTarget, idTarget, readFile, type FileRef, type IdRef } from './targets';

export interface FilesParts {
  readonly services: Services;
  readonly model: FilesTreeModel;
  readonly rows: RowTree<FilesNode>;
  readonly view: vscode.TreeView<FilesNode>;
  readonly copy: CopyFeature;
}

/** Every command of Projects & Files. */
export function filesCommands(parts: FilesParts): Command[] {
  const files = fileTarget(parts.services);
  const copyTo = (refs: FileRef[], options: CommandOptions) => parts.copy.flow.run(copySources(refs), options as CopyCommandArgs);
  // A script names its sources in the options: `{ ids, destination, confirm }`.
  const named = (options: CommandOptions) => (Array.isArray(options.ids) ? options.ids.filter((id): id is string => typeof id === 'string').map((id) => ({ id })) : undefined);
  return [
    plain('refreshFiles', (node) => refreshFiles(parts, node)),
    onOne('loadMoreFiles', { type: filesListingTarget, from: 'argument' }, (node) => parts.model.loadMore(node)),
    onMany('copyFileId', { type: idTarget, orElse: () => copyProjectId(parts) }, copyIds),
    onMany('copy', { type: files, named, ask: { prompt: copySourcesPrompt } }, copyTo),
    onMany('copyTo', { type: files, named, ask: { prompt: copySourcesPrompt } }, copyTo),
    onOne('revealInFiles', { type: files, ask: { prompt: () => vscode.l10n.t('The ID of the file or folder to show') } }, (file) => reveal(parts, file)),
  ];
}

/** Refresh: the row given (a project or a folder), else everything, the project list included. */
function refreshFiles(parts: FilesParts, node: unknown): void {
  parts.services.projects.clear();
  parts.model.refresh(node instanceof ProjectNode || node instanceof FolderNode ? node : undefined);
}

async function copyIds(refs: IdRef[]): Promise<void> {
  await vscode.env.clipboard.writeText(refs.map((r) => r.id).join('\n'));
  vscode.window.setStatusBarMessage(refs.length === 1 ? copiedId(refs[0].id) : vscode.l10n.t('Copied {0} IDs', count(refs.length)), 3_000);
}

/** Copy ID from the palette with no row at hand: of a project picked from the list. */
async function copyProjectId(parts: FilesParts): Promise<void> {
  const project = await pickProject(parts.services.projects, { title: vscode.l10n.t('Seven Bridges: Copy the ID of which project?'), allowReadOnly: true });
  if (project && project !== 'none') await copyIds([{ id: project.id }]);
}

/** Reveal in Projects & Files: the file's project and folders opened down to it, its row selected. */
async function reveal(parts: FilesParts, file: FileRef): Promise<void> {
  await vscode.commands.executeCommand(`${parts.rows.viewId}.focus`);
  const node = await withProgressBar(parts.rows.viewId, parts.model.locate(file.id), parts.services.clock);
  await parts.view.reveal(node, { select: true, focus: true, expand: false });
}

/** What a drop does: the copy flow to the target, its confirmation included (`args` as the copy commands take). */
export function dropCopy(parts: Pick<FilesParts, 'copy'>, target: DropTarget, items: ItemNode[], args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
  const refs = items.map(readFile).filter((f): f is FileRef => f !== undefined);
  if (!refs.length) return Promise.resolve([]);
  const sources = copySources(refs);
  // The destination is the drop's; a single item keeps its name (no rename question after a drag).
  return parts.copy.flow.run(sources, { newName: '', ...args, destination: dropDestination(target, sources.projects ?? []) });
}

const copiedId = (id: string): string => vscode.l10n.t('Copied {0}', id);
