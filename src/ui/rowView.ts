// What a tree row shows, worked out without `vscode`: every tree's rows (tasks, copy jobs) are described this way,
// and their providers turn it into a TreeItem.

export interface IconSpec {
  /** A codicon id, e.g. `sync~spin`. */
  id: string;
  /** A theme colour id, e.g. `testing.iconPassed`. */
  color?: string;
}

export interface RowView {
  label: string;
  description: string;
  tooltip: string;
  /** What a screen reader says for the row: plain words, no Markdown. */
  ariaLabel: string;
  icon: IconSpec;
  contextValue: string;
  expandable: boolean;
}
