// How a project, a folder or a file looks in Projects & Files: label, description, tooltip, context value.
// No `vscode` import; the tree provider turns these into TreeItems.

import * as l10n from '@vscode/l10n';
import type { FileRecord, Project } from '../api/types';
import { FIELD, tooltipLines, whenText, type RowView } from '../ui/rowView';
import { escapeMarkdown } from '../util/markdown';
import { formatSize } from '../util/words';

/** A project's row; `writable`: the caller may change what is in it (a read-only project's menus offer no changes). */
export function projectView(project: Project, now: number, writable = project.permissions?.write !== false): RowView {
  const name = project.name || project.id;
  return {
    label: name,
    description: project.id,
    tooltip: projectTooltip(project, now),
    markdownTooltip: true,
    ariaLabel: l10n.t({ message: '{0}, project {1}', args: [name, project.id], comment: ['What a screen reader says for a project row'] }),
    icon: { id: 'project' },
    contextValue: withWritable('project', writable),
    expandable: true,
  };
}

/**
 * A row's menu tokens: its kind, and `writable` when the caller may change what is in its project (a read-only
 * project's rows offer no New Folder, Rename, Move, Delete, Edit Tags, Edit Metadata or Upload).
 */
const withWritable = (kind: string, writable: boolean): string => (writable ? `${kind} writable` : kind);

/** A folder (expandable) or a file (with its size); `writable`: its project may be changed (unknown: offered). */
export function entryView(file: FileRecord, now: number, writable = true): RowView {
  const folder = file.type === 'folder';
  const name = file.name || file.id;
  const description = folder ? '' : (formatSize(file.size) ?? '');
  return {
    label: name,
    description,
    tooltip: entryTooltip(file, now),
    markdownTooltip: true,
    ariaLabel: [name, folder ? l10n.t({ message: 'folder', comment: ['What a screen reader says a row is'] }) : l10n.t({ message: 'file', comment: ['What a screen reader says a row is'] }), description].filter(Boolean).join(', '),
    icon: { id: folder ? 'folder' : 'file' },
    contextValue: withWritable(folder ? 'folder' : 'file', writable),
    expandable: folder,
  };
}

/** "1.2 MB (1,234,567 bytes)". */
function sizeWords(bytes: number): string {
  const exact = bytes.toLocaleString('en-US');
  return bytes === 1 ? l10n.t('{0} (1 byte)', formatSize(bytes)!) : l10n.t('{0} ({1} bytes)', formatSize(bytes)!, exact);
}

function entryTooltip(file: FileRecord, now: number): string {
  const size = file.type !== 'folder' && typeof file.size === 'number' ? sizeWords(file.size) : undefined;
  return [
    `$(${file.type === 'folder' ? 'folder' : 'file'}) **${escapeMarkdown(file.name || file.id)}**`,
    '',
    ...tooltipLines([
      [FIELD.id, `\`${file.id}\``],
      [FIELD.size, size],
      [FIELD.project, file.project ? escapeMarkdown(file.project) : undefined],
      [FIELD.created, whenText(file.created_on, now)],
      [FIELD.modified, whenText(file.modified_on, now)],
      [FIELD.tags, file.tags?.length ? file.tags.map((t) => `\`${escapeMarkdown(t)}\``).join(', ') : undefined],
      [FIELD.producedBy, file.origin?.task ? `\`${escapeMarkdown(file.origin.task)}\`` : undefined],
      [FIELD.metadata, metadataWords(file.metadata)],
    ]),
  ].join('\n');
}

/** Metadata shown in a tooltip at most. */
export const TOOLTIP_METADATA_FIELDS = 20;

/** "sample_id = s1; platform = Illumina" (the first 20 fields, then how many more). */
function metadataWords(metadata: Record<string, unknown> | undefined): string | undefined {
  const pairs = Object.entries(metadata ?? {}).filter(([, value]) => value !== null && value !== undefined && value !== '');
  if (!pairs.length) return undefined;
  const shown = pairs.slice(0, TOOLTIP_METADATA_FIELDS).map(([key, value]) => `${escapeMarkdown(key)} = ${escapeMarkdown(typeof value === 'string' ? value : JSON.stringify(value))}`);
  const more = pairs.length - shown.length;
  return [...shown, ...(more > 0 ? [l10n.t('and {0} more', more)] : [])].join('; ');
}

function projectTooltip(project: Project, now: number): string {
  const lines = [
    `$(project) **${escapeMarkdown(project.name || project.id)}**`,
    '',
    ...tooltipLines([
      [FIELD.id, `\`${project.id}\``],
      [FIELD.rootFolder, project.root_folder ? `\`${project.root_folder}\`` : undefined],
      [FIELD.createdBy, project.created_by ? escapeMarkdown(project.created_by) : undefined],
      [FIELD.created, whenText(project.created_on, now)],
      [FIELD.modified, whenText(project.modified_on, now)],
    ]),
  ];
  if (project.permissions && project.permissions.write === false) lines.push(`${l10n.t('Read only: you cannot copy into it.')}  `);
  return lines.join('\n');
}
