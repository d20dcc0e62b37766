// What an import or an export sends, planned before anything is sent: the choices asked once (with what each means),
// the items split 100 a call, and for an export what cannot be exported, refused with why. No `vscode`.
import * as l10n from '@vscode/l10n';
import { MAX_VOLUME_BULK, type ExportRequest, type ImportRequest, type Volume } from '../api/volumes';
import type { JobChoices } from '../keys/state';
import { WRITE_KINDS, type WriteKindName } from '../keys/writes';
import { isActive, isReadWrite } from './volumesModel';
import type { ExportPayload, ImportPayload } from './volumeWrites';

/** What to do when a name is taken where an item goes. */
export type OnClash = NonNullable<JobChoices['onClash']>;

export interface ImportChoices {
  onClash: OnClash;
  /** A prefix imported as one folder holding its tree (else its files land directly in the destination). */
  keepFolders: boolean;
}

/** Where an import goes: a project's root, or a folder of it. */
export interface ImportDestination {
  project: string;
  /** The folder's ID; none: the project's root. */
  parent?: string;
  /** The folder's name (or the project's), as shown. */
  label: string;
}

/** The choices of a name taken, each with what it means, as the question shows them. */
export function clashChoices(): { value: OnClash; label: string; detail: string }[] {
  return [
    { value: 'autorename', label: l10n.t('Keep both'), detail: l10n.t('An imported file whose name is taken gets a new one: "_1_sample.bam".') },
    { value: 'overwrite', label: l10n.t({ message: 'Overwrite', comment: ['An import\'s choice when a name is taken in the destination'] }), detail: l10n.t('The file in the way is deleted and the imported one takes its place (a folder is never overwritten).') },
    { value: 'fail', label: l10n.t('Skip it'), detail: l10n.t('An item whose name is taken fails, with why, in Data Jobs; the others are imported.') },
  ];
}

/** The choices for a prefix, each with what it means. */
export function folderChoices(): { value: boolean; label: string; detail: string }[] {
  return [
    { value: true, label: l10n.t('Keep the folder structure'), detail: l10n.t('Each prefix becomes one folder named after it, its subfolders kept.') },
    { value: false, label: l10n.t('Only the files'), detail: l10n.t('The files under each prefix land directly in the destination folder, without subfolders.') },
  ];
}

/** The sources as the platform names them: an object's location, or a prefix's (ending with `/`). */
export interface ImportSourceRef {
  volume: string;
  location: string;
}

/** The writes of an import: 100 items a call, each with the choices made once. */
export function importPayloads(sources: readonly ImportSourceRef[], to: ImportDestination, choices: ImportChoices): ImportPayload[] {
  const unique = [...new Map(sources.map((s) => [`${s.volume}/${s.location}`, s])).values()];
  const items = unique.map((s) => importRequest(s, to, choices));
  return chunks(items).map((part) => ({ items: part, to: to.label, project: to.project }));
}

/**
 * One item of an import, with the choices made (Retry Failed Items sends a failed one again with its job's; a job of
 * an older version has none: the platform's defaults).
 */
export function importRequest(s: ImportSourceRef, to: Pick<ImportDestination, 'project' | 'parent'>, choices: JobChoices = {}): ImportRequest {
  return {
    source: { volume: s.volume, location: s.location },
    destination: to.parent ? { parent: to.parent } : { project: to.project },
    ...(choices.onClash === 'overwrite' ? { overwrite: true } : choices.onClash === 'autorename' ? { autorename: true } : {}),
    // The platform's default keeps folders; it is said only for a prefix ("should not be used" for a file).
    ...(s.location.endsWith('/') && choices.keepFolders !== undefined ? { preserve_folder_structure: choices.keepFolders } : {}),
  };
}

/** The choices an item of an import was sent with, as its job keeps them (`importRequest` read back). */
export function importChoicesOf(request: ImportRequest): JobChoices {
  return {
    onClash: request.overwrite ? 'overwrite' : request.autorename ? 'autorename' : 'fail',
    ...(request.preserve_folder_structure !== undefined ? { keepFolders: request.preserve_folder_structure } : {}),
  };
}

/** A file (or folder) asked to be exported, as its record shows it. */
export interface ExportFile {
  id: string;
  name: string;
  project?: string;
  type?: string;
  storage?: { type?: string };
}

/** The project public files are in (platform-api.md §13.3: they cannot be exported). */
const PUBLIC_PROJECT = 'admin/sbg-public-data';

export interface ExportPlan {
  payloads: ExportPayload[];
  /** What is not sent, each with why. */
  refused: { name: string; why: string }[];
}

/**
 * The writes of an export to `volume` under `prefix` (each file at `<prefix><name>`), 100 a call, and what is refused
 * before sending: everything when the volume is read-only or inactive; a folder, a public file, a file that is a link
 * to a volume already, a second file bound for the same location.
 */
export function exportPlan(files: readonly ExportFile[], volume: Volume, prefix: string, copyOnly: boolean): ExportPlan {
  const refused: ExportPlan['refused'] = [];
  const whole = !isActive(volume)
    ? l10n.t('The volume {0} is inactive: its owner must activate it again before anything is exported to it.', volume.id)
    : !isReadWrite(volume)
      ? l10n.t('The volume {0} is read-only: export to a read-write volume.', volume.id)
      : undefined;
  const base = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  const seen = new Set<string>();
  const items: ExportRequest[] = [];
  for (const file of files) {
    const location = `${base}${file.name}`;
    const why = whole
      ?? (file.type === 'folder' ? l10n.t('It is a folder: its files are exported, not the folder.') : undefined)
      ?? (file.project === PUBLIC_PROJECT ? l10n.t('It is a public file: public files cannot be exported.') : undefined)
      ?? (file.storage?.type === 'VOLUME' ? l10n.t('It is a link to a volume already: only files stored on the platform can be exported.') : undefined)
      ?? (seen.has(location) ? l10n.t('Another file of this name goes to {0}.', location) : undefined);
    if (why) {
      refused.push({ name: file.name, why });
      continue;
    }
    seen.add(location);
    items.push({ source: { file: file.id }, destination: { volume: volume.id, location } });
  }
  const names = Object.fromEntries(files.map((f) => [f.id, f.name]));
  const projects = Object.fromEntries(files.map((f) => [f.id, f.project ?? '']));
  const payloads = chunks(items).map((part): ExportPayload => ({
    items: part,
    copyOnly,
    names: Object.fromEntries(part.map((i) => [i.source.file, names[i.source.file]])),
    projects: Object.fromEntries(part.map((i) => [i.source.file, projects[i.source.file]])),
  }));
  return { payloads, refused };
}

/** Said before an export that is not copy-only is sent. */
export const linkWarning = (): string =>
  l10n.t('Without "copy only", each exported file on the platform becomes a link to its object in the bucket: the platform\'s copy is deleted, and the file cannot be exported again.');

/** The kind that sends the payloads: one item alone, or bulk calls (each of at most 100). */
export function importKind(payloads: readonly ImportPayload[]): WriteKindName {
  return single(payloads) ? WRITE_KINDS.volumeImport : WRITE_KINDS.volumeBulkImport;
}

export function exportKind(payloads: readonly ExportPayload[]): WriteKindName {
  return single(payloads) ? WRITE_KINDS.volumeExport : WRITE_KINDS.volumeBulkExport;
}

const single = (payloads: readonly { items: unknown[] }[]): boolean => payloads.length === 1 && payloads[0].items.length === 1;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += MAX_VOLUME_BULK) out.push(items.slice(i, i + MAX_VOLUME_BULK));
  return out;
}
