// Find Files: what to look for and where, which of the platform's ways answers it — the list filters of
// `GET /v2/files` (platform-api.md §10.1: one level, exact values) or the server-side search (`POST /v2/files/search`, §10.2:
// everything below a project's root) — and the answers as one paged listing, one request a page. A part of a name has
// no operator in the documented query language (platform-api.md §10.2, THIN): its answer is the search of every entry below the
// projects' roots (the other conditions kept), or where the platform has no search the folders listed one by one,
// each name compared here, as far as the person asks (1,000 entries a load), saying how far it looked.
// No `vscode` import.

import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import { searchQuery, searchUnavailable, MAX_SEARCH_PROJECTS, type SearchRequest } from '../api/fileSearch';
import type { FileLocation } from '../api/files';
import { isTaskId, notTaskId } from '../api/ids';
import { PAGE_SIZE, PagedLoader, recordKey, type PageSource } from '../api/pagedLoader';
import type { PageRequest } from '../api/tasks';
import type { FileFilters, FileRecord, Page, SearchPage } from '../api/types';
import type { FindSpec, FindWay, Found, Looked } from './foundWords';

/** Entries a part-of-a-name find reads at most per page it shows (10 requests): "Load more" reads on. */
export const LOOK_PER_LOAD = 1_000;

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
  if (spec.namePart !== undefined && spec.task !== undefined) {
    return l10n.t('A part of a name cannot be combined with the task that produced the files: give the whole name.');
  }
  return undefined;
}

/**
 * Which way answers: the list filters for a folder's entries and for a task's files (the search has no condition on
 * where a file came from); else the server search, which looks below the projects' roots, while the platform offers
 * it; else the list filters (the projects' top levels). A part of a name is compared here: on every entry the search
 * gives, or without it (or in a folder) on the entries of the folders listed one by one.
 */
export function findWay(spec: FindSpec, searchOffered: boolean): FindWay {
  if (spec.namePart !== undefined) return searchOffered && !spec.folder ? 'search' : 'walk';
  if (spec.folder || spec.task !== undefined) return 'list';
  return searchOffered ? 'search' : 'list';
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

/**
 * The entries of `source` whose name holds `part` (any case), read on until a page holds one, the source ends, or
 * LOOK_PER_LOAD entries were looked through: each page shown costs at most 10 requests, "Load more" reads on.
 */
export function namesHolding(source: PageSource<FileRecord>, part: string, looked: Looked): PageSource<FileRecord> {
  const wanted = part.toLocaleLowerCase();
  const holds = (file: FileRecord) => (file.name ?? '').toLocaleLowerCase().includes(wanted);
  const read = async (first: Promise<Page<FileRecord>>, signal: AbortSignal): Promise<Page<FileRecord>> => {
    const items: FileRecord[] = [];
    let page = await first;
    for (let seen = 0; ; page = await source.next(page.next!, signal)) {
      seen += page.items.length;
      looked.entries += page.items.length;
      items.push(...page.items.filter(holds));
      if (!page.next) looked.complete = true;
      if (!page.next || items.length || seen >= LOOK_PER_LOAD) return { items, total: undefined, next: page.next };
    }
  };
  return {
    page: (offset, limit, signal) => {
      Object.assign(looked, { entries: 0, folders: 0, complete: false });
      return read(source.page(offset, limit, signal), signal);
    },
    next: (link, signal) => read(source.next(link, signal), signal),
  };
}

/**
 * Every entry below `roots`, one folder's listing after another (`GET /v2/files`, 100 a request, by offset), as pages
 * of what each request read; the folders found are listed after those before them. Counts the folders in `looked`.
 */
export function folderWalk(client: FindClient, roots: readonly FileLocation[], looked: Looked): PageSource<FileRecord> {
  let queue: { location: FileLocation; offset: number }[] = [];
  const step = async (signal: AbortSignal): Promise<Page<FileRecord>> => {
    const at = queue[0];
    if (!at) return { items: [], total: undefined, next: undefined };
    if (at.offset === 0) looked.folders++;
    const page = await client.files.list(at.location, { offset: at.offset, limit: PAGE_SIZE, signal });
    at.offset += page.items.length;
    const more = page.items.length > 0 && (page.total === undefined ? page.items.length >= PAGE_SIZE : at.offset < page.total);
    if (!more) queue.shift();
    for (const entry of page.items) if (entry.type === 'folder') queue.push({ location: { parent: entry.id }, offset: 0 });
    return { items: page.items, total: undefined, next: queue.length ? 'walk' : undefined };
  };
  return {
    page: (_offset, _limit, signal) => {
      queue = roots.map((location) => ({ location, offset: 0 }));
      return step(signal);
    },
    next: (_link, signal) => step(signal),
  };
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
    const looked: Looked | undefined = spec.namePart !== undefined ? { entries: 0, folders: 0, complete: false } : undefined;
    const found = { spec, way: findWay(spec, this.searchOffered), looked, listing: undefined as unknown as PagedLoader<FileRecord> };
    const sourceFor = (way: FindWay): PageSource<FileRecord> => {
      const source = this.source(spec, way, looked);
      return looked && spec.namePart !== undefined ? namesHolding(source, spec.namePart, looked) : source;
    };
    let source = sourceFor(found.way);
    found.listing = new PagedLoader<FileRecord>(
      {
        page: async (offset, limit, signal) => {
          try {
            return await source.page(offset, limit, signal);
          } catch (error) {
            if (found.way !== 'search' || !searchUnavailable(error)) throw error;
            // The platform has no search for this account: the list filters answer, or the folders listed one by one.
            this.searchOffered = false;
            found.way = findWay(spec, false);
            source = sourceFor(found.way);
            return source.page(offset, limit, signal);
          }
        },
        next: (url, signal) => source.next(url, signal),
      },
      { key: recordKey },
    );
    return found;
  }

  /** The pages a way reads for a spec (a part of a name: every entry it gives, the names compared by the caller). */
  private source(spec: FindSpec, way: FindWay, looked: Looked | undefined): PageSource<FileRecord> {
    const locations: FileLocation[] = spec.folder ? [{ parent: spec.folder.id }] : spec.projects.map((project) => ({ project }));
    if (way === 'search') return chainPages(searchQueries(spec).map((q) => searchSource(this.client, q)));
    if (way === 'walk') return folderWalk(this.client, locations, looked ?? { entries: 0, folders: 0, complete: false });
    return chainPages(locations.map((location) => listSource(this.client, location, listFilters(spec))));
  }
}
