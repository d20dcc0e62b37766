import * as vscode from 'vscode';
import type { Services } from '../services';
import { loadMoreView, messageView } from '../ui/rowView';
import { collapsibleState, rowItem, withProgressBar } from '../ui/treeItems';
import { entryView, projectView } from './fileRows';
import { FilesTreeModel, type FilesNode, type FolderNode, type ListingNode, type LoadMoreNode, type MessageNode, type ProjectNode } from './filesModel';
import { COMMANDS } from '../keys/commands';

export const FILES_VIEW = 'sevenbridges.files';

/** Renders the files tree model; shows a progress bar in the view while a listing loads. */
export class FilesTreeProvider implements vscode.TreeDataProvider<FilesNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<FilesNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly model: FilesTreeModel;
  private readonly disposables: { dispose(): void }[] = [];

  constructor(services: Services) {
    // Reads the token if the session has not yet (the first render may come before it is loaded).
    this.model = new FilesTreeModel(services.client, async () => !!(await services.session.credentials()));
    this.disposables.push(
      this.changed,
      this.model,
      this.model.onDidChange((node) => this.changed.fire(node)),
      services.session.onDidChange(() => this.model.refresh()),
    );
  }

  /** Reloads everything (or one node's children). */
  refresh(node?: ProjectNode | FolderNode): void {
    this.model.refresh(node);
  }

  /** Loads the next page under the owner of a "Load more" row (or a failed listing again). */
  loadMore(node: LoadMoreNode | MessageNode | ListingNode): Promise<void> {
    return this.model.loadMore(node);
  }

  getParent(node: FilesNode): FilesNode | undefined {
    return this.model.getParent(node);
  }

  getChildren(node?: FilesNode): Thenable<FilesNode[]> {
    return withProgressBar(FILES_VIEW, this.model.getChildren(node));
  }

  getTreeItem(node: FilesNode): vscode.TreeItem {
    const now = Date.now();
    switch (node.kind) {
      case 'project':
        return rowItem(`project:${node.id}`, projectView(node.project, now), collapsibleState(true));
      case 'folder':
      case 'file': {
        const view = entryView(node.file, now);
        const item = rowItem(`${node.kind}:${node.id}`, view, collapsibleState(view.expandable));
        // The file icon theme's icons, chosen by name.
        item.iconPath = node.kind === 'folder' ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File;
        item.resourceUri = vscode.Uri.from({ scheme: 'sevenbridges-file', path: `/${node.name}` });
        return item;
      }
      case 'loadMore':
        return rowItem(node.id, loadMoreView(node.parent.listing, { command: COMMANDS.loadMoreFiles, title: vscode.l10n.t('Load More Files'), args: [node] }), collapsibleState(false));
      case 'message':
        return rowItem(node.id, messageView(node), collapsibleState(false));
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
