// Rows of Projects & Files as the sources of a copy.
import type { CopySources } from '../copy/flow';
import { projectNodeOf } from './dragAndDrop';
import { FolderNode, isItemNode, type FilesNode } from './filesModel';

/** Whether a command's argument is a row of this view (VS Code passes the clicked row, then the selected rows). */
export function isFilesNode(value: unknown): value is FilesNode {
  return typeof value === 'object' && value !== null && 'kind' in value && typeof (value as { kind: unknown }).kind === 'string';
}

/** The files and folders among `nodes`, with what the view knows of them: names, projects, which are folders. */
export function copySourcesOf(nodes: readonly FilesNode[]): CopySources | undefined {
  const items = nodes.filter(isItemNode);
  if (!items.length) return undefined;
  const names: Record<string, string> = {};
  const projects = new Set<string>();
  for (const node of items) {
    names[node.file.id.toLowerCase()] = node.file.name;
    // The view's own record of a file may be partial: the project row above it knows.
    projects.add(node.file.project ?? projectNodeOf(node).project.id);
  }
  const folders = items.filter((n) => n instanceof FolderNode).map((n) => n.file.id);
  return { ids: items.map((n) => n.file.id), names, projects: [...projects], trusted: true, folders };
}
