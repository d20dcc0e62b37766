// The one row view: draws any RowModel (ui/rowView.ts) as a VS Code tree view. Every tree of the extension is one of
// these; a new kind of row is a new kind in a model, never a new provider.
import * as vscode from 'vscode';
import type { Clock } from '../api/clock';
import { Poller } from '../util/poller';
import { rowLook, type IconSpec, type Row, type RowModel, type RowView } from './rowView';

export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}

/** The TreeItem of a row. */
export function rowItem(id: string, view: RowView): vscode.TreeItem {
  const state = !view.expandable
    ? vscode.TreeItemCollapsibleState.None
    : view.expanded
      ? vscode.TreeItemCollapsibleState.Expanded
      : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(view.label, state);
  item.id = id;
  item.description = view.description;
  // Left undefined, it is asked of resolveTreeItem when the row is hovered.
  if (!view.tooltipOnHover) item.tooltip = view.markdownTooltip ? markdown(view.tooltip) : view.tooltip;
  item.contextValue = view.contextValue;
  item.accessibilityInformation = { label: view.ariaLabel };
  if (view.fileIcon) {
    // The file icon theme's icon, chosen by name.
    item.iconPath = view.fileIcon === 'folder' ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File;
    item.resourceUri = vscode.Uri.from({ scheme: 'sevenbridges-file', path: `/${view.label}` });
  } else {
    item.iconPath = themeIcon(view.icon);
  }
  if (view.command) item.command = { command: view.command.command, title: view.command.title, arguments: view.command.args ?? [] };
  return item;
}

function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, true);
  md.isTrusted = false;
  return md;
}

const PROGRESS_DELAY_MS = 100;

/** Shows the view's progress bar until the work settles (only when it does not settle at once). */
export function withProgressBar<T>(viewId: string, work: Promise<T>, clock: Clock): Promise<T> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  // Answers from memory settle within a few ticks; only real waits get the bar, so it does not flicker.
  clock.setTimeout(() => {
    if (settled) return;
    void vscode.window.withProgress({ location: { viewId } }, () => work.catch(() => undefined));
  }, PROGRESS_DELAY_MS);
  return work;
}

/**
 * Draws a RowModel: every tree view's TreeDataProvider. A row drawn again has its children fetched again, and until
 * they are, VS Code cannot tell a menu opened on one of them which row it was: so a redraw draws again only the rows
 * whose look changed, never the whole view.
 */
export class RowTree<N extends Row> implements vscode.TreeDataProvider<N>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<N | N[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];
  /** The rows VS Code was given, by ID, with how each looked then. */
  private readonly drawn = new Map<string, { row: N; look: string }>();

  constructor(
    readonly viewId: string,
    readonly model: RowModel<N>,
    private readonly clock: Clock,
  ) {
    this.subscriptions = [
      model.onDidChange((row) => {
        // The whole view is fetched again: what is drawn is told again by getTreeItem.
        if (row === undefined) {
          this.drawn.clear();
          this.childIds.clear();
        }
        this.changed.fire(row);
      }),
      ...(model.onDidRedraw ? [model.onDidRedraw(() => this.redraw())] : []),
    ];
  }

  /**
   * Draws again, from what the model holds and without a request, the rows whose look changed (relative times such as
   * "5 min ago" move on, a menu changes): the others keep their place, selection, focus and open menus.
   */
  redraw(): void {
    const changed: N[] = [];
    for (const entry of this.drawn.values()) {
      const now = rowLook(this.model.rowView(entry.row));
      if (now !== entry.look) changed.push(entry.row);
    }
    if (changed.length) this.changed.fire(changed);
  }

  getTreeItem(row: N): vscode.TreeItem {
    const view = this.model.rowView(row);
    this.drawn.set(row.id, { row, look: rowLook(view) });
    return rowItem(row.id, view);
  }

  /** A row's tooltip that needs a request, read when it is hovered (VS Code asks only for an undefined tooltip). */
  async resolveTreeItem(item: vscode.TreeItem, row: N, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (item.tooltip !== undefined || !this.model.resolveTooltip) return item;
    const controller = new AbortController();
    const cancelled = token.onCancellationRequested(() => controller.abort());
    try {
      const text = await this.model.resolveTooltip(row, controller.signal);
      if (text !== undefined) item.tooltip = this.model.rowView(row).markdownTooltip ? markdown(text) : text;
    } catch {
      // A hover that found nothing shows no tooltip; the next hover asks again.
    } finally {
      cancelled.dispose();
    }
    return item;
  }

  /** A row's TreeItem with its tooltip read as a hover reads it (for the tests). */
  resolvedItem(row: N): Promise<vscode.TreeItem> {
    const source = new vscode.CancellationTokenSource();
    return Promise.resolve(this.resolveTreeItem(this.getTreeItem(row), row, source.token)).finally(() => source.dispose());
  }

  getChildren(row?: N): Thenable<N[]> {
    const children = this.model.getChildren(row);
    void children.then(
      (rows) => this.forgetGone(row?.id ?? '', rows),
      () => undefined,
    );
    return withProgressBar(this.viewId, children, this.clock);
  }

  /** The rows under `parent` VS Code was given, kept to forget those it no longer holds. */
  private readonly childIds = new Map<string, string[]>();

  private forgetGone(parent: string, rows: readonly N[]): void {
    const now = new Set(rows.map((r) => r.id));
    for (const id of this.childIds.get(parent) ?? []) if (!now.has(id)) this.drawn.delete(id);
    this.childIds.set(parent, [...now]);
  }

  getParent(row: N): N | undefined {
    return this.model.getParent(row);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.drawn.clear();
    this.changed.dispose();
  }
}

export interface RowViewOptions<N> {
  clock: Clock;
  canSelectMany?: boolean;
  dragAndDropController?: vscode.TreeDragAndDropController<N>;
  /** Redraws this often while the view is visible and the window focused, so that ages ("5 minutes ago") stay true. */
  redrawEveryMs?: number;
}

export interface ShownRows<N extends Row> {
  readonly view: vscode.TreeView<N>;
  readonly rows: RowTree<N>;
  readonly disposables: vscode.Disposable[];
}

/** A tree view of `model`, with the collapse-all button; its redraws run on the one poller while it is shown. */
export function showRows<N extends Row>(viewId: string, model: RowModel<N>, options: RowViewOptions<N>): ShownRows<N> {
  const rows = new RowTree(viewId, model, options.clock);
  const view = vscode.window.createTreeView(viewId, {
    treeDataProvider: rows,
    showCollapseAll: true,
    canSelectMany: options.canSelectMany,
    dragAndDropController: options.dragAndDropController,
  });
  const disposables: vscode.Disposable[] = [rows, view];
  const every = options.redrawEveryMs;
  if (every) {
    const ticks = new Poller({ poll: async () => rows.redraw(), hasWork: () => true, interval: () => every, visible: view.visible, clock: options.clock });
    ticks.setFocused(vscode.window.state.focused);
    ticks.schedule();
    disposables.push(
      { dispose: () => ticks.dispose() },
      view.onDidChangeVisibility((e) => ticks.setVisible(e.visible)),
      vscode.window.onDidChangeWindowState((e) => ticks.setFocused(e.focused)),
    );
  }
  return { view, rows, disposables };
}
