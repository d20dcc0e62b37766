import * as vscode from 'vscode';
import type { CopyCommandArgs } from '../copy/flow';
import type { CopyFeature } from '../copy/register';
import type { TrackedJob } from '../jobs/tracker';
import { COMMANDS } from '../keys/commands';
import type { Services } from '../services';
import { copyFromView, copyIds, dropCopy, refreshFiles, type FilesParts } from './commands';
import { FilesDragAndDrop, type DropTarget } from './dragAndDrop';
import { FILES_VIEW, FilesTreeProvider } from './tree';
import type { FilesNode, ItemNode, LoadMoreNode, MessageNode } from './filesModel';

/** The running Projects & Files view, for the integration tests. */
export interface FilesFeature {
  readonly tree: FilesTreeProvider;
  readonly view: vscode.TreeView<FilesNode>;
  /** Drag and drop in Projects & Files. */
  readonly dragAndDrop: FilesDragAndDrop;
  /** What a drop does: the copy flow to the target, its confirmation included (`args` as the copy commands take). */
  dropCopy(target: DropTarget, items: ItemNode[], args?: CopyCommandArgs): Promise<TrackedJob[]>;
}

/** Projects & Files: the view, dragging to copy, and its commands (the copy commands among them). */
export function registerFiles(services: Services, copy: CopyFeature): FilesFeature {
  const tree = new FilesTreeProvider(services);
  const dragAndDrop = new FilesDragAndDrop((target, items) => dropCopy({ copy }, target, items));
  const view = vscode.window.createTreeView(FILES_VIEW, { treeDataProvider: tree, canSelectMany: true, showCollapseAll: true, dragAndDropController: dragAndDrop });
  const parts: FilesParts = { tree, copy, selection: () => view.selection };
  type CopyArgs = [arg?: CopyCommandArgs | FilesNode, nodes?: FilesNode[], extra?: CopyCommandArgs];
  services.context.subscriptions.push(
    tree,
    view,
    vscode.commands.registerCommand(COMMANDS.refreshFiles, (node?: FilesNode) => refreshFiles(parts, node)),
    vscode.commands.registerCommand(COMMANDS.loadMoreFiles, (node?: LoadMoreNode | MessageNode) => (node ? tree.loadMore(node) : undefined)),
    vscode.commands.registerCommand(COMMANDS.copyFileId, (node?: FilesNode, nodes?: FilesNode[]) => copyIds(parts, node, nodes)),
    vscode.commands.registerCommand(COMMANDS.copy, (...args: CopyArgs) => copyFromView(parts, ...args)),
    vscode.commands.registerCommand(COMMANDS.copyTo, (...args: CopyArgs) => copyFromView(parts, ...args)),
  );
  return { tree, view, dragAndDrop, dropCopy: (target, items, args) => dropCopy(parts, target, items, args) };
}
