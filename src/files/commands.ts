// The commands of Projects & Files: one table, each entry what it acts on and what it does (see ui/commands.ts).
import * as vscode from 'vscode';
import type { CopyCommandArgs } from '../copy/flow';
import type { CopyFeature } from '../copy/register';
import { copySourcesPrompt } from '../copy/sources';
import type { TrackedJob } from '../jobs/tracker';
import type { Services } from '../services';
import { onMany, onOne, plain, type Command, type CommandOptions } from '../ui/commands';
import { isOptions, type TargetType } from '../ui/targets';
import { pickProject } from '../ui/projectPick';
import { withProgressBar, type RowTree } from '../ui/rowTree';
import { count } from '../util/words';
import { dropDestination, type DropTarget } from './dragAndDrop';
import type { CopyDestination } from '../copy/request';
import { FarDownError, type FilesTreeModel } from './filesModel';
import type { FilesNode, ItemNode } from './fileNodes';
import { opensOf, placeOf, placeRow, projectRowOf } from './fileKinds';
import { download } from '../remote/download';
import type { DownloadRef } from '../remote/downloadItems';
import { uploadCommand } from '../remote/upload';
import { loadWholeFile, openRemote, remoteUri, type RemoteParts } from '../remote/open';
import { FileFinder } from './find';
import type { FindSpec } from './foundWords';
import { askConditions, askWhere, namedConditions } from './findPrompt';
import { deleteItems, editTags, newFolder, rename } from './manageCommands';
import type { JobTracker } from '../jobs/tracker';
import { editMetadata } from './metadataDocument';
import { moveTo } from './moveCommand';
import { copySources, fileTarget, filesListingTarget, idTarget, projectTarget, readFile, type FileAsk, type FileRef, type IdRef } from './targets';

export interface FilesParts {
  readonly services: Services;
  readonly model: FilesTreeModel;
  readonly rows: RowTree<FilesNode>;
  readonly view: vscode.TreeView<FilesNode>;
  readonly copy: CopyFeature;
  readonly remote: RemoteParts;
  /** The data jobs' tracker: the async delete's jobs are followed there. */
  readonly tracker: JobTracker;
  /** Made on the first Find of a sign-in (it remembers whether the platform offers the search); forgotten at a new one. */
  finder?: FileFinder;
}

/** Download… takes a project's row too: the whole project, under a folder of its name. */
function downloadable(files: TargetType<FileRef, FileAsk>): TargetType<DownloadRef, FileAsk> {
  return {
    read: (value) => {
      const project = projectRowOf(value);
      return project ? { id: project.id, name: project.name, wholeProject: true } : files.read(value);
    },
    key: (ref) => ref.id.toLowerCase(),
    pick: files.pick,
  };
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
    onOne('openRemoteFile', { type: files, fits: (f) => !f.folder, ask: { prompt: () => vscode.l10n.t('The ID of the file to open') } }, (file) => openFile(parts, file)),
    plain('loadWholeFile', (uri, options) => loadWholeFile(parts.remote, uri, (options ?? {}) as { confirm?: unknown })),
    onMany('downloadFiles', { type: downloadable(files), named, ask: { prompt: () => vscode.l10n.t('The IDs of the files and folders to download') } }, (refs, options) =>
      download(parts.services, refs, options as { target?: string; confirm?: boolean }),
    ),
    plain('uploadFiles', (first, second) => uploadCommand(parts.services, uploadTarget(first) ?? first, second)),
    onOne('addProjectToWorkspace', { type: projectTarget, orElse: () => addPickedProject(parts) }, (project) => addToWorkspace(project.id, project.name)),
    plain('findFiles', (first) => findFiles(parts, first)),
    plain('clearFind', () => parts.model.showFound(undefined)),
    plain('newFolder', (where, options) => newFolder(parts, where, isOptions(where) ? where : isOptions(options) ? options : {})),
    onOne('renameFile', { type: files, ask: { prompt: () => vscode.l10n.t('The ID of the file or folder to rename') } }, (ref, options) => rename(parts, ref, options)),
    onMany('moveTo', { type: files, named, ask: { prompt: () => vscode.l10n.t('The IDs of the files and folders to move') } }, (refs, options) => moveTo(parts, refs, options)),
    onMany('deleteFiles', { type: files, named, ask: { prompt: () => vscode.l10n.t('The IDs of the files and folders to delete') } }, (refs, options) => deleteItems(parts, refs, options)),
    // Given by its ID alone (the palette, a script): its name is read, so that the tab says it.
    onOne<FileRef, FileAsk>('editMetadata', { type: files, fits: (f) => !f.folder, ask: { prompt: () => vscode.l10n.t('The ID of the file whose metadata to edit') } }, async (ref) => editMetadata(ref.name ? ref : { ...ref, name: (await parts.services.client.files.get(ref.id)).name })),
    onMany<FileRef, FileAsk>('editTags', { type: files, named, fits: (f) => !f.folder, ask: { prompt: () => vscode.l10n.t('The IDs of the files to tag') } }, (refs, options) => editTags(parts, refs, options)),
    onOne('revealInFiles', { type: files, ask: { prompt: () => vscode.l10n.t('The ID of the file or folder to show') } }, (file) => reveal(parts, file)),
  ];
}


/** Refresh: the row given (a project or a folder), else everything, the project list included. */
function refreshFiles(parts: FilesParts, node: unknown): Promise<void> {
  parts.services.projects.clear();
  return parts.model.refresh(opensOf(node));
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

/**
 * Find Files…: on the project or folder its menu was opened on, else in a project (or all) asked for; by the conditions
 * a script names in its options (`{ project | all, name, namePart, tag, metadata, task }`), else asked for. The results
 * replace the projects in the view until Clear Find.
 */
async function findFiles(parts: FilesParts, first: unknown): Promise<void> {
  // A script's options are a plain object; a row (the view's title action passes the selected row) is not: its name
  // is not a condition.
  const options: CommandOptions = isOptions(first) ? first : {};
  const conditions = namedConditions(options) ?? (await askConditions());
  if (!conditions) return;
  const projects = parts.services.projects;
  let spec: FindSpec;
  const place = placeOf(first);
  if (place?.folder) {
    spec = { ...conditions, projects: [], folder: { id: place.folder.id, name: place.folder.name, project: place.project.id } };
  } else if (place || typeof options.project === 'string') {
    spec = { ...conditions, projects: [place ? place.project.id : (options.project as string)] };
  } else {
    const where = options.all === true ? 'all' : await askWhere(projects);
    if (!where) return;
    spec = where === 'all' ? { ...conditions, projects: (await projects.all()).map((p) => p.id), allProjects: true } : { ...conditions, projects: [where.id] };
  }
  const found = (parts.finder ??= new FileFinder(parts.services.client)).find(spec);
  parts.model.showFound(found, await rootFolders(parts));
  await vscode.commands.executeCommand(`${parts.rows.viewId}.focus`);
}

/** Each project's root folder, from the list the pickers read (none when it cannot be listed: paths say "…" then). */
async function rootFolders(parts: FilesParts): Promise<Map<string, string>> {
  try {
    return new Map((await parts.services.projects.all()).filter((p) => p.root_folder).map((p) => [p.id, p.root_folder!]));
  } catch {
    return new Map();
  }
}

/** Reveal in Projects & Files: the file's project and folders opened down to it, its row selected (the projects shown again after a find). */
async function reveal(parts: FilesParts, file: FileRef): Promise<void> {
  parts.model.showFound(undefined);
  await vscode.commands.executeCommand(`${parts.rows.viewId}.focus`);
  const node = await withProgressBar(parts.rows.viewId, locateOrFind(parts, file.id), parts.services.clock);
  await parts.view.reveal(node, { select: true, focus: true, expand: false });
  // A listing drawn again as the reveal runs (the projects in place of a find's results, a folder whose pages were
  // read on the way) may swallow it: once more if it did not land.
  if (!parts.view.selection.includes(node)) await parts.view.reveal(node, { select: true, focus: true, expand: false });
}

/**
 * The row to reveal: down the file's project and folders, or, when a listing on the way is longer than Reveal reads,
 * the file on its own: found by its name in its folder (one list call), in place of the projects until Clear Find.
 */
async function locateOrFind(parts: FilesParts, id: string): Promise<ItemNode> {
  try {
    return await parts.model.locate(id);
  } catch (error) {
    if (!(error instanceof FarDownError) || !error.record.name) throw error;
    const { record, place } = error;
    const spec: FindSpec = place.folder
      ? { projects: [], folder: { ...place.folder, project: place.project }, name: record.name }
      : { projects: [place.project], name: record.name };
    parts.model.showFound((parts.finder ??= new FileFinder(parts.services.client)).find(spec), await rootFolders(parts));
    const node = await parts.model.locateFound(id);
    if (!node) throw error;
    vscode.window.setStatusBarMessage(vscode.l10n.t('{0} Shown on its own: Clear Find shows the projects again.', error.message), 10_000);
    return node;
  }
}

/** Opens a file in the editor: its path from its row, else read from the platform (its folders up to the root). */
async function openFile(parts: FilesParts, file: FileRef): Promise<vscode.Uri> {
  const path = file.path && file.record ? file.path : await parts.remote.files.pathOf(file.id);
  if (file.path && file.record) parts.remote.files.remember(path, file.record);
  return openRemote(parts.remote, path, () => download(parts.services, [file]), file.listed === true);
}

/** Add Project to Workspace: the project, read-only, as a folder of the Explorer (its folders read as they open). */
function addToWorkspace(id: string, name: string | undefined): boolean {
  const uri = remoteUri({ project: id, names: [] });
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.some((f) => f.uri.toString() === uri.toString())) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is already in the workspace.', name || id));
    return false;
  }
  return vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri, name: vscode.l10n.t('{0} (Seven Bridges)', name || id) });
}

async function addPickedProject(parts: FilesParts): Promise<void> {
  const project = await pickProject(parts.services.projects, { title: vscode.l10n.t('Seven Bridges: Add which project to the workspace?'), allowReadOnly: true });
  if (project && project !== 'none') addToWorkspace(project.id, project.name);
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

/** A project or folder row Upload… was run on: the destination as the pickers would have made it (so named alike). */
function uploadTarget(row: unknown): { destination: CopyDestination } | undefined {
  const place = placeOf(row);
  return place && { destination: dropDestination(placeRow(place), []) };
}
