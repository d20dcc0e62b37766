// Find Files: what to look for and where, which of the platform's two ways answers it — the list filters of
// `GET /v2/files` (platform-api.md §10.1: one level, exact values) or the server-side search (`POST /v2/files/search`, §10.2:
// everything below a project's root, a part of a name too) — and the answers as one paged listing, one request a page.
// Nothing is found by loading folders and looking through them here. No `vscode` import.

import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import { searchQuery, searchUnavailable, MAX_SEARCH_PROJECTS, type SearchRequest } from '../api/fileSearch';
import type { FileLocation } from '../api/files';
import { isTaskId, notTaskId } from '../api/ids';
import { PAGE_SIZE, PagedLoader, recordKey, type PageSource } from '../api/pagedLoader';
import type { PageRequest } from '../api/tasks';
import type { FileFilters, FileRecord, Page, SearchPage } from '../api/types';

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
  /** a part of the name (the server search only) */
  namePart?: string;
  tag?: string;
  metadata?: { field: string; value: string };
  /** the task that produced the files */
  task?: string;
}

/** Who answers: the list filters of `GET /v2/files`, or the server-side search. */
export type FindWay = 'list' | 'search';

/** The part of the client Find Files uses. */
export interface FindClient {
  files: {
    list(location: FileLocation, page: PageRequest & FileFilters): Promise<Page<FileRecord>>;
    next(url: string, signal?: AbortSignal): Promise<Page<FileRecord>>;
  };
  search: { page(query: string, request?: SearchRequest): Promise<SearchPage> };
}

/** Why the spec cannot be searched, in words; undefined when it can. */
export function findProblem(spec: FindSpec): string | undefined {
  const blank = (v: string | undefined) => v !== undefined && v.trim() === '';
  if (blank(spec.name) || blank(spec.namePart)) return l10n.t('Give a name to find.');
  if (blank(spec.tag)) return l10n.t('Give a tag to find.');
  if (spec.metadata && (spec.metadata.field.trim() === '' || spec.metadata.value === '')) return l10n.t('Give a metadata field and its value, as field=value.');
  if (spec.task !== undefined && !isTaskId(spec.task.trim())) return notTaskId(spec.task);
  if (spec.name === undefined && spec.namePart === undefined && spec.tag === undefined && !spec.metadata && spec.task === undefined) {
    return l10n.t('Give a name, a tag, a metadata field or a task to find files by.');
  }
  if (!spec.folder && !spec.projects.length) return l10n.t('There is no project to search.');
  if (spec.namePart !== undefined && (spec.folder || spec.task !== undefined)) {
    return spec.folder
      ? l10n.t('A part of a name is found by the server search, which searches whole projects: find it in the project, or give the whole name.')
      : l10n.t('A part of a name cannot be combined with the task that produced the files: give the whole name.');
  }
  return undefined;
}

/**
 * Which way answers: the list filters for a folder's entries and for a task's files (the search has no condition on
 * where a file came from); else the server search, which looks below the projects' roots, while the platform offers
 * it; else the list filters (the projects' top levels), except for a part of a name, which only the search can find.
 */
export function findWay(spec: FindSpec, searchOffered: boolean): FindWay | undefined {
  if (spec.folder || spec.task !== undefined) return 'list';
  if (searchOffered) return 'search';
  return spec.namePart !== undefined ? undefined : 'list';
}

/** The list filters of a spec (`GET /v2/files`). */
export function listFilters(spec: FindSpec): FileFilters {
  return {
    ...(spec.name !== undefined ? { name: spec.name } : {}),
    ...(spec.tag !== undefined ? { tag: [spec.tag] } : {}),
    ...(spec.metadata ? { metadata: { [spec.metadata.field]: spec.metadata.value } } : {}),
    ...(spec.task !== undefined ? { originTask: spec.task.trim() } : {}),
  };
}

/** The search queries of a spec: one for each 10 projects (the most one query covers). */
export function searchQueries(spec: FindSpec): string[] {
  const queries: string[] = [];
  for (let i = 0; i < spec.projects.length; i += MAX_SEARCH_PROJECTS) {
    queries.push(
      searchQuery({
        projects: spec.projects.slice(i, i + MAX_SEARCH_PROJECTS),
        ...(spec.name !== undefined ? { name: spec.name } : {}),
        ...(spec.namePart !== undefined ? { namePart: spec.namePart } : {}),
        ...(spec.tag !== undefined ? { tags: [spec.tag] } : {}),
        ...(spec.metadata ? { metadata: { [spec.metadata.field]: spec.metadata.value } } : {}),
      }),
    );
  }
  return queries;
}

/** The pages of one listing or one query. */
function listSource(client: FindClient, location: FileLocation, filters: FileFilters): PageSource<FileRecord> {
  return {
    page: (offset, limit, signal) => client.files.list(location, { ...filters, offset, limit, signal }),
    next: (url, signal) => client.files.next(url, signal),
  };
}

function searchSource(client: FindClient, query: string): PageSource<FileRecord> {
  const page = (answer: SearchPage): Page<FileRecord> => ({ items: answer.results, total: undefined, next: answer.contToken });
  return {
    page: async (_offset, limit, signal) => page(await client.search.page(query, { limit, signal })),
    next: async (token, signal) => page(await client.search.page(query, { limit: PAGE_SIZE, contToken: token, signal })),
  };
}

/**
 * Several listings read one after the other as one: a `next` names the listing and its own next page. A listing that
 * ends is followed by the first page of the next one in the same call, so a page is never empty before the end.
 */
export function chainPages(sources: readonly PageSource<FileRecord>[]): PageSource<FileRecord> {
  const from = async (index: number, first: Page<FileRecord>, signal: AbortSignal): Promise<Page<FileRecord>> => {
    let at = index;
    let page = first;
    while (!page.next && !page.items.length && at + 1 < sources.length) page = await sources[++at].page(0, PAGE_SIZE, signal);
    const next = page.next ? `${at} ${page.next}` : at + 1 < sources.length ? `${at + 1} ` : undefined;
    return { items: page.items, total: undefined, next };
  };
  return {
    page: async (_offset, limit, signal) => from(0, await sources[0].page(0, limit, signal), signal),
    next: async (link, signal) => {
      const space = link.indexOf(' ');
      const index = Number(link.slice(0, space));
      const rest = link.slice(space + 1);
      return from(index, rest ? await sources[index].next(rest, signal) : await sources[index].page(0, PAGE_SIZE, signal), signal);
    },
  };
}

/** The results of one Find Files, with who answered them. */
export interface Found {
  readonly spec: FindSpec;
  readonly listing: PagedLoader<FileRecord>;
  /** Who answered; it turns from the search to the list filters once when the platform has no search. */
  readonly way: FindWay;
}

/**
 * Finds files: the results of a spec as one paged listing. Remembers, for as long as it lives (one sign-in), when the
 * platform answered that it offers no search, so that later finds go to the list filters at once.
 */
export class FileFinder {
  private searchOffered = true;

  constructor(private readonly client: FindClient) {}

  /** The results' listing (nothing is asked until its first page is loaded). Throws an ApiError for a spec that cannot be searched. */
  find(spec: FindSpec): Found {
    const problem = findProblem(spec);
    if (problem) throw new ApiError({ kind: 'invalid', message: problem });
    const way = findWay(spec, this.searchOffered);
    if (!way) throw new ApiError({ kind: 'invalid', message: noSearch() });
    const found = { spec, way, listing: undefined as unknown as PagedLoader<FileRecord> };
    const listed = () => chainPages(spec.folder ? [listSource(this.client, { parent: spec.folder.id }, listFilters(spec))] : spec.projects.map((p) => listSource(this.client, { project: p }, listFilters(spec))));
    let source = way === 'search' ? chainPages(searchQueries(spec).map((q) => searchSource(this.client, q))) : listed();
    found.listing = new PagedLoader<FileRecord>(
      {
        page: async (offset, limit, signal) => {
          try {
            return await source.page(offset, limit, signal);
          } catch (error) {
            if (found.way !== 'search' || !searchUnavailable(error)) throw error;
            // The platform has no search for this account: the list filters answer, when they can.
            this.searchOffered = false;
            if (findWay(spec, false) !== 'list') throw new ApiError({ kind: 'invalid', message: noSearch() });
            found.way = 'list';
            source = listed();
            return source.page(offset, limit, signal);
          }
        },
        next: (url, signal) => source.next(url, signal),
      },
      { key: recordKey },
    );
    return found;
  }
}

const noSearch = (): string => l10n.t('This platform does not offer the server-side search, which a part of a name needs: give the whole name.');

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

/** The view's description while it shows results: what was looked for, where, and who answered. */
export function foundDescription(found: Pick<Found, 'spec' | 'way'>): string {
  const { spec } = found;
  const where = spec.folder
    ? l10n.t('in the folder {0}', spec.folder.name)
    : spec.allProjects
      ? l10n.t('in all projects')
      : spec.projects.length === 1
        ? l10n.t('in {0}', spec.projects[0])
        : l10n.t('in {0} projects', spec.projects.length);
  const by = found.way === 'search' ? l10n.t('server search') : spec.folder ? l10n.t('list filter') : l10n.t('list filter, top level only');
  return l10n.t({ message: 'Found: {0} {1} ({2})', args: [conditionWords(spec), where, by], comment: ['{0}: the conditions, {1}: where, {2}: which of the platform\'s ways answered'] });
}

/** Where a found file is: "owner/project", "owner/project/…" below the top level, or "owner/project/…/folder". */
export function foundPath(file: FileRecord, spec: FindSpec, rootFolders: ReadonlyMap<string, string>): string | undefined {
  const project = file.project ?? spec.folder?.project;
  if (!project) return undefined;
  if (spec.folder && file.parent === spec.folder.id) return `${project}/…/${spec.folder.name}`;
  return file.parent && rootFolders.get(project) === file.parent ? project : `${project}/…`;
}
