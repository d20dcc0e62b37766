// What Find Files looked for and what it found, in words: the spec, who answered (and how far it looked), the line
// above the results, where a found file is. Held apart from the finder (find.ts, loaded on first use): the view
// shows these. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { ApiError, describeError } from '../api/errors';
import type { PagedLoader } from '../api/pagedLoader';
import type { FileRecord } from '../api/types';
import { count } from '../util/words';

/** What to find, and where: each condition given narrows the search (AND). */
export interface FindSpec {
  /** the projects searched (`owner/project`): one, or every project of the caller */
  projects: readonly string[];
  /** every project of the caller (for the words only: `projects` lists them) */
  allProjects?: boolean;
  /** a folder's own entries in place of the projects' */
  folder?: { id: string; name: string; project: string };
  /** the whole name, exactly */
  name?: string;
  /** a part of the name, any case (compared here: see the top of this file) */
  namePart?: string;
  tag?: string;
  metadata?: { field: string; value: string };
  /** the task that produced the files */
  task?: string;
}

/**
 * Who answers: the list filters of `GET /v2/files`, the server-side search, or (a part of a name, without a search)
 * the folders listed one by one.
 */
export type FindWay = 'list' | 'search' | 'walk';

/** How far a find that compares names here has looked: entries read, folders listed (walking), whether it read them all. */
export interface Looked {
  entries: number;
  folders: number;
  complete: boolean;
}

/** The results of one Find Files, with who answered them. */
export interface Found {
  readonly spec: FindSpec;
  readonly listing: PagedLoader<FileRecord>;
  /** Who answered; it turns from the search to the list filters (or the folders listed) once when the platform has no search. */
  readonly way: FindWay;
  /** How far a part of a name was looked for (the names compared here); undefined for the other conditions. */
  readonly looked?: Looked;
}

/** "name contains "x" · tag "t"": the conditions of a spec, in words. */
export function conditionWords(spec: FindSpec): string {
  return [
    spec.name !== undefined ? l10n.t('name "{0}"', spec.name) : undefined,
    spec.namePart !== undefined ? l10n.t('name contains "{0}"', spec.namePart) : undefined,
    spec.tag !== undefined ? l10n.t('tag "{0}"', spec.tag) : undefined,
    spec.metadata ? l10n.t('{0} = "{1}"', spec.metadata.field, spec.metadata.value) : undefined,
    spec.task !== undefined ? l10n.t('made by task {0}', spec.task.trim().slice(0, 8)) : undefined,
  ]
    .filter((w): w is string => w !== undefined)
    .join(' · ');
}

/** "in rfranklin/omega", "in all projects", "in the folder reads": where a spec looks. */
function whereWords(spec: FindSpec): string {
  return spec.folder
    ? l10n.t('in the folder {0}', spec.folder.name)
    : spec.allProjects
      ? l10n.t('in all projects')
      : spec.projects.length === 1
        ? l10n.t('in {0}', spec.projects[0])
        : l10n.t('in {0} projects', spec.projects.length);
}

/** Who answered, in words; for a part of a name, how far it looked too. */
function wayWords(found: Pick<Found, 'spec' | 'way' | 'looked'>): string {
  const { spec, way, looked } = found;
  if (!looked) return way === 'search' ? l10n.t('server search') : spec.folder ? l10n.t('list filter') : l10n.t('list filter, top level only');
  const entries = count(looked.entries);
  const how =
    way === 'walk'
      ? looked.complete
        ? l10n.t('every folder listed, names compared here: {0} entries in {1} folders', entries, count(looked.folders))
        : l10n.t('folders listed one by one, names compared here: {0} entries in {1} folders so far', entries, count(looked.folders))
      : looked.complete
        ? l10n.t('server search of every entry, names compared here: {0} entries', entries)
        : l10n.t('server search of every entry, names compared here: {0} entries so far', entries);
  return how;
}

/** What the view says above the results: what was looked for, where, and who answered (how far, for a part of a name). */
export function foundDescription(found: Pick<Found, 'spec' | 'way' | 'looked'>): string {
  return l10n.t({ message: 'Found: {0} {1} ({2})', args: [conditionWords(found.spec), whereWords(found.spec), wayWords(found)], comment: ['{0}: the conditions, {1}: where, {2}: which of the platform\'s ways answered'] });
}

/**
 * What the view says above a find: what was found, or, when the platform refused it before anything was found, that
 * once, in words, with what was looked for (the rows below offer Retry and Clear Find).
 */
export function foundMessage(found: Found): string {
  const { listing } = found;
  if (listing.error === undefined || listing.items.length) return foundDescription(found);
  return l10n.t({
    message: 'Could not find {0} {1}: {2}',
    args: [conditionWords(found.spec), whereWords(found.spec), refusalWords(listing.error)],
    comment: ['{0}: the conditions, {1}: where, {2}: why, in words'],
  });
}

/** Why a find failed, in words: the platform's own text when it refused the query itself. */
function refusalWords(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'http' && error.status === 400) {
    return l10n.t('the platform refused the search ("{0}"). Change what you look for, or look in a project.', error.message.trim().replace(/\.+$/, ''));
  }
  return describeError(error);
}

/** Where a found file is: "owner/project", "owner/project/…" below the top level, or "owner/project/…/folder". */
export function foundPath(file: FileRecord, spec: FindSpec, rootFolders: ReadonlyMap<string, string>): string | undefined {
  const project = file.project ?? spec.folder?.project;
  if (!project) return undefined;
  if (spec.folder && file.parent === spec.folder.id) return `${project}/…/${spec.folder.name}`;
  return file.parent && rootFolders.get(project) === file.parent ? project : `${project}/…`;
}
