import * as vscode from 'vscode';
import type { IconSpec, RowView } from './rowView';

export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}

/** The TreeItem of a row: every tree's providers draw their rows this way. */
export function rowItem(id: string, view: RowView, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const item = new vscode.TreeItem(view.label, state);
  item.id = id;
  item.description = view.description;
  item.tooltip = view.markdownTooltip ? markdown(view.tooltip) : view.tooltip;
  item.iconPath = themeIcon(view.icon);
  item.contextValue = view.contextValue;
  item.accessibilityInformation = { label: view.ariaLabel };
  if (view.command) item.command = { command: view.command.command, title: view.command.title, arguments: view.command.args ?? [] };
  return item;
}

/** Collapsed or expanded as last left, or a leaf. */
export function collapsibleState(expandable: boolean, expanded = false): vscode.TreeItemCollapsibleState {
  if (!expandable) return vscode.TreeItemCollapsibleState.None;
  return expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
}

function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, true);
  md.isTrusted = false;
  return md;
}

const PROGRESS_DELAY_MS = 100;

/** Shows the view's progress bar until the work settles (only when it does not settle at once). */
export function withProgressBar<T>(viewId: string, work: Promise<T>): Promise<T> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  // Answers from memory settle within a few ticks; only real waits get the bar, so it does not flicker.
  setTimeout(() => {
    if (settled) return;
    void vscode.window.withProgress({ location: { viewId } }, () => work.catch(() => undefined));
  }, PROGRESS_DELAY_MS);
  return work;
}
