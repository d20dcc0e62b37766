// How a project, a folder or a file looks in Projects & Files: label, description, tooltip, context value.
// No `vscode` import; the tree provider turns these into TreeItems.

import type { FileRecord, Project } from '../api/types';
import { tooltipLines, whenText, type RowView } from '../ui/rowView';
import { escapeMarkdown } from '../util/markdown';

export function projectView(project: Project, now: number): RowView {
  const name = project.name || project.id;
  return {
    label: name,
    description: project.id,
    tooltip: projectTooltip(project, now),
    markdownTooltip: true,
    ariaLabel: `${name}, project ${project.id}`,
    icon: { id: 'project' },
    contextValue: 'project',
    expandable: true,
  };
}

/** A folder (expandable) or a file (with its size). */
export function entryView(file: FileRecord, now: number): RowView {
  const folder = file.type === 'folder';
  const name = file.name || file.id;
  const description = folder ? '' : (formatSize(file.size) ?? '');
  return {
    label: name,
    description,
    tooltip: entryTooltip(file, now),
    markdownTooltip: true,
    ariaLabel: [name, folder ? 'folder' : 'file', description].filter(Boolean).join(', '),
    icon: { id: folder ? 'folder' : 'file' },
    contextValue: folder ? 'folder' : 'file',
    expandable: folder,
  };
}

export function formatSize(bytes: number | undefined): string | undefined {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return undefined;
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function entryTooltip(file: FileRecord, now: number): string {
  const size = file.type !== 'folder' && typeof file.size === 'number' ? `${formatSize(file.size)} (${file.size.toLocaleString('en-US')} bytes)` : undefined;
  return [
    `$(${file.type === 'folder' ? 'folder' : 'file'}) **${escapeMarkdown(file.name || file.id)}**`,
    '',
    ...tooltipLines([
      ['ID', `\`${file.id}\``],
      ['Size', size],
      ['Project', file.project ? escapeMarkdown(file.project) : undefined],
      ['Created', whenText(file.created_on, now)],
      ['Modified', whenText(file.modified_on, now)],
    ]),
  ].join('\n');
}

function projectTooltip(project: Project, now: number): string {
  const lines = [
    `$(project) **${escapeMarkdown(project.name || project.id)}**`,
    '',
    ...tooltipLines([
      ['ID', `\`${project.id}\``],
      ['Root folder', project.root_folder ? `\`${project.root_folder}\`` : undefined],
      ['Created by', project.created_by ? escapeMarkdown(project.created_by) : undefined],
      ['Created', whenText(project.created_on, now)],
      ['Modified', whenText(project.modified_on, now)],
    ]),
  ];
  if (project.permissions && project.permissions.write === false) lines.push('Read only: you cannot copy into it.  ');
  return lines.join('\n');
}
