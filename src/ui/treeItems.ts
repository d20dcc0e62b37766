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
  item.tooltip = view.tooltip;
  item.iconPath = themeIcon(view.icon);
  item.contextValue = view.contextValue;
  item.accessibilityInformation = { label: view.ariaLabel };
  return item;
}
