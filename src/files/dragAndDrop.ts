import * as vscode from 'vscode';
import type { CopyDestination } from '../copy/request';
import type { FilesNode, FolderNode, ItemNode, Place, ProjectNode } from './fileNodes';
import { dropPlaceOf, isItemNode, placeOf, placeRow } from './fileKinds';
import { FILES_DRAG_MIME, treeMime, VIEWS } from '../keys/views';
import { dropChoices, uriListEntries, type DropChoice } from './dropChoice';

/** Rows of the Volumes view (objects, prefixes): imported where they are dropped. */
const VOLUMES_MIME = treeMime(VIEWS.volumes);

/** Where a drop lands: the folder or project dropped onto (a file stands for the folder it is in), in the projects' tree. */
export type DropTarget = ProjectNode | FolderNode;

export function dropTarget(node: FilesNode | undefined): DropTarget | undefined {
  // A found folder's place in its project is not known: not a target.
  const place = dropPlaceOf(node);
  return place && placeRow(place);
}

/** The place a drop target stands for (a target is in the projects' tree: see dropTarget). */
const placeOfTarget = (target: DropTarget): Place => placeOf(target)!;

/** The folders from a place's project's root down to it. */
const foldersDownTo = (place: Place): FolderNode[] => (place.folder ? [...place.folder.above, place.folder] : []);

/** "Nothing was copied (moved): … already in …": one item (by name) or several, in a folder or at a project's root. */
function alreadyThere(one: string | undefined, where: { root: string } | { folder: string }, verb: DropChoice): string {
  if (verb === 'move') {
    if ('root' in where) {
      return one !== undefined
        ? vscode.l10n.t('Nothing was moved: "{0}" is already in the root of {1}. Drop onto another folder or project to move it.', one, where.root)
        : vscode.l10n.t('Nothing was moved: they are already in the root of {0}. Drop onto another folder or project to move them.', where.root);
    }
    return one !== undefined
      ? vscode.l10n.t('Nothing was moved: "{0}" is already in "{1}". Drop onto another folder or project to move it.', one, where.folder)
      : vscode.l10n.t('Nothing was moved: they are already in "{0}". Drop onto another folder or project to move them.', where.folder);
  }
  if ('root' in where) {
    return one !== undefined
      ? vscode.l10n.t('Nothing was copied: "{0}" is already in the root of {1}. Drop onto another folder or project to copy.', one, where.root)
      : vscode.l10n.t('Nothing was copied: they are already in the root of {0}. Drop onto another folder or project to copy.', where.root);
  }
  return one !== undefined
    ? vscode.l10n.t('Nothing was copied: "{0}" is already in "{1}". Drop onto another folder or project to copy.', one, where.folder)
    : vscode.l10n.t('Nothing was copied: they are already in "{0}". Drop onto another folder or project to copy.', where.folder);
}

/**
 * Why a drop cannot be copied (or moved), before anything is sent: onto the folder the items are already in, or a
 * folder into itself or its own subtree, or into a project the user cannot write to. Undefined when it can.
 */
export function dropRefusal(target: DropTarget, items: readonly ItemNode[], verb: DropChoice = 'copy'): string | undefined {
  const moving = verb === 'move';
  if (!items.length) return vscode.l10n.t('Only files and folders can be dropped to copy them.');
  const place = placeOfTarget(target);
  const project = place.project;
  if (!target.writable) {
    return moving ? vscode.l10n.t('Nothing was moved: you cannot write to {0} (read only).', project.id) : vscode.l10n.t('Nothing was copied: you cannot write to {0} (read only).', project.id);
  }
  const atRoot = !place.folder;
  // Only a folder can be the target or above it.
  const ancestors = new Set(foldersDownTo(place).map((folder) => folder.id));
  for (const item of items) {
    if (ancestors.has(item.id)) {
      if (moving) {
        return item.id === target.id
          ? vscode.l10n.t('Nothing was moved: the folder "{0}" cannot be moved into itself.', item.name)
          : vscode.l10n.t('Nothing was moved: the folder "{0}" cannot be moved into its own subfolder "{1}".', item.name, target.name);
      }
      return item.id === target.id
        ? vscode.l10n.t('Nothing was copied: the folder "{0}" cannot be copied into itself.', item.name)
        : vscode.l10n.t('Nothing was copied: the folder "{0}" cannot be copied into its own subfolder "{1}".', item.name, target.name);
    }
  }
  const already = items.filter((item) => item.parentNode.id === target.id);
  if (already.length === items.length) {
    return alreadyThere(items.length === 1 ? items[0].name : undefined, atRoot ? { root: target.id } : { folder: target.name }, verb);
  }
  return undefined;
}

/** The copy destination a drop target stands for, as the pickers would have made it. */
export function dropDestination(target: DropTarget, sourceProjects: readonly string[]): CopyDestination {
  const { project, folder } = placeOfTarget(target);
  if (!folder) return { kind: 'projectRoot', project: project.id, rootFolder: project.project.root_folder };
  const path = foldersDownTo({ project, folder }).map((f) => f.name);
  const same = sourceProjects.length > 0 && sourceProjects.every((p) => p === project.id);
  return { kind: same ? 'sameProjectFolder' : 'otherProjectFolder', project: project.id, folder: folder.id, path };
}

/** What a drop does once its target and items are known (the copy flow, its confirmation included; the move). */
export type DropHandler = (target: DropTarget, items: ItemNode[]) => Promise<unknown>;

export interface DropHandlers {
  copy: DropHandler;
  move: DropHandler;
  /** Local files and folders (the Explorer, the OS): the upload flow to the target. */
  upload: (target: DropTarget, paths: string[]) => Promise<unknown>;
  /** Objects and prefixes of a volume: imported into the target. */
  fromVolume: (target: DropTarget | undefined, rows: unknown[]) => Promise<unknown>;
}

/** Asks Move here / Copy here, the default first; undefined when dismissed. */
export async function askDropChoice(order: readonly DropChoice[], target: DropTarget): Promise<DropChoice | undefined> {
  const place = placeOfTarget(target);
  const where = place.folder?.name ?? place.project.id;
  const items = order.map((choice) => ({
    choice,
    label: choice === 'move' ? `$(arrow-right) ${vscode.l10n.t('Move here')}` : `$(copy) ${vscode.l10n.t('Copy here')}`,
    description: where,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Drop onto {0}', where), placeHolder: vscode.l10n.t('Move or copy?'), ignoreFocusOut: true });
  return chosen?.choice;
}

/** The local files and folders a drop carries: `text/uri-list` (the Explorer) and the OS's `files`. */
async function localPaths(dataTransfer: vscode.DataTransfer): Promise<string[]> {
  const paths = new Set<string>();
  const list = await dataTransfer.get('text/uri-list')?.asString();
  for (const entry of uriListEntries(list ?? '')) {
    try {
      const uri = vscode.Uri.parse(entry, true);
      if (uri.scheme === 'file') paths.add(uri.fsPath);
    } catch {
      // Not a URI: nothing to upload from it.
    }
  }
  dataTransfer.forEach((item) => {
    const file = item.asFile();
    if (file?.uri?.scheme === 'file') paths.add(file.uri.fsPath);
  });
  return [...paths];
}

/**
 * Drag files and folders in Projects & Files onto a folder or a project: asked Move here / Copy here (Move first
 * within one project, Copy first across projects). Local files and folders dropped there are uploaded to it.
 */
export class FilesDragAndDrop implements vscode.TreeDragAndDropController<FilesNode> {
  readonly dragMimeTypes = [FILES_DRAG_MIME, 'text/plain'];
  readonly dropMimeTypes = [FILES_DRAG_MIME, VOLUMES_MIME, 'text/uri-list', 'files'];

  constructor(
    private readonly handlers: DropHandlers,
    private readonly choose: (order: readonly DropChoice[], target: DropTarget) => Promise<DropChoice | undefined> = askDropChoice,
  ) {}

  handleDrag(source: readonly FilesNode[], dataTransfer: vscode.DataTransfer): void {
    const items = source.filter(isItemNode);
    if (!items.length) return;
    dataTransfer.set(FILES_DRAG_MIME, new vscode.DataTransferItem(items));
    // Dropped into an editor: the IDs, one a line (what the copy command reads from a selection).
    dataTransfer.set('text/plain', new vscode.DataTransferItem(items.map((n) => n.id).join('\n')));
  }

  async handleDrop(target: FilesNode | undefined, dataTransfer: vscode.DataTransfer, token?: vscode.CancellationToken): Promise<void> {
    const dropped = dataTransfer.get(FILES_DRAG_MIME)?.value as unknown;
    const items = Array.isArray(dropped) ? dropped.filter(isItemNode) : [];
    if (token?.isCancellationRequested) return;
    const where = dropTarget(target);
    const fromVolume = dataTransfer.get(VOLUMES_MIME)?.value as unknown;
    if (Array.isArray(fromVolume) && fromVolume.length) {
      // Dropped beside the projects: the import asks where.
      await this.run(() => this.handlers.fromVolume(where, fromVolume));
      return;
    }
    if (!items.length) {
      const paths = await localPaths(dataTransfer);
      if (!paths.length || token?.isCancellationRequested) return;
      if (!where) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Drop local files and folders onto a folder or a project to upload them there.'));
        return;
      }
      await this.run(() => this.handlers.upload(where, paths));
      return;
    }
    if (!where) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Drop files and folders onto a folder or a project to move or copy them there.'));
      return;
    }
    const order = dropChoices(items.map((item) => item.file.project ?? item.projectRow?.id), placeOfTarget(where).project.id);
    const refusal = dropRefusal(where, items, order[0]);
    if (refusal) {
      void vscode.window.showWarningMessage(refusal);
      return;
    }
    const choice = await this.choose(order, where);
    if (!choice || token?.isCancellationRequested) return;
    await this.run(() => this.handlers[choice](where, items));
  }

  /** A drop has no command wrapper around it: what goes wrong is said here. */
  private async run(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      void vscode.window.showWarningMessage(error instanceof Error ? error.message : String(error));
    }
  }
}
