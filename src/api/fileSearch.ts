import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { isProjectId, notProjectId } from './ids';
import type { Call, Transport } from './transport';
import type { FileRecord, SearchPage } from './types';

/** Pages `pages` reads at most. */
const MAX_SEARCH_PAGES = 1_000;

export interface SearchRequest extends Call {
  /** records per page (the platform's query LIMIT); the platform's default when left out */
  limit?: number;
  /** the token of the page before; left out for the first page */
  contToken?: string;
}

/**
 * The server-side file search (platform-api.md §10.2): `POST /v2/files/search` with a query in the platform's query language,
 * paged by `cont_token`. It only reads, so it is repeated after a transient fault like a GET. A platform may not offer
 * it (`searchUnavailable`): fall back to the list filters of `GET /v2/files` then.
 */
export class FileSearchApi {
  constructor(private readonly transport: Transport) {}

  async page(query: string, request: SearchRequest = {}): Promise<SearchPage> {
    if (query.trim() === '') throw new ApiError({ kind: 'invalid', message: l10n.t('A search needs a query.') });
    const { limit, contToken, ...call } = request;
    const body = (await this.transport.request<Record<string, unknown>>('POST', 'files/search', {
      ...call,
      body: { query },
      query: { limit, cont_token: contToken },
      idempotent: true,
    })).body;
    if (!body || typeof body !== 'object' || !Array.isArray(body.result_set)) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('the search answer has no result_set list') });
    }
    const results = (body.result_set as unknown[])
      .filter((r): r is FileRecord => !!r && typeof r === 'object' && typeof (r as FileRecord).id === 'string')
      .map((r) => ({ ...r, name: typeof r.name === 'string' ? r.name : r.id, ...(typeof r.type === 'string' ? { type: r.type.toLowerCase() } : {}) }));
    const token = typeof body.cont_token === 'string' && body.cont_token !== '' ? body.cont_token : undefined;
    return { results, contToken: token, count: typeof body.count === 'number' ? body.count : undefined };
  }

  /** Every page of a search, one request each, until the platform gives no further token. */
  async *pages(query: string, request: Omit<SearchRequest, 'contToken'> = {}): AsyncGenerator<SearchPage> {
    const seen = new Set<string>();
    let page = await this.page(query, request);
    yield page;
    for (let pages = 1; page.contToken !== undefined; pages++) {
      if (seen.has(page.contToken) || pages >= MAX_SEARCH_PAGES) {
        throw new ApiError({ kind: 'malformed', message: l10n.t('the search did not end after {0} pages', pages.toLocaleString('en-US')) });
      }
      seen.add(page.contToken);
      page = await this.page(query, { ...request, contToken: page.contToken });
      yield page;
    }
  }
}

/** Whether an error says the platform has no file search for this account (the call unknown, forbidden or not allowed). */
export function searchUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && [403, 404, 405, 501].includes(error.status ?? 0);
}

/** What to search for; each condition given narrows the search (AND). */
export interface SearchSpec {
  /** projects (`owner/project`), at most 10 */
  projects: readonly string[];
  /** everything below the projects' roots (default), or their root entries only */
  recursive?: boolean;
  /** the whole name, exactly (the query language documents no operator for a part of a name: see files/find.ts) */
  name?: string;
  /** any of these tags */
  tags?: readonly string[];
  type?: 'file' | 'folder';
  /** each field has this value */
  metadata?: Readonly<Record<string, string>>;
}

export const MAX_SEARCH_PROJECTS = 10;

/** A query in the platform's query language (SBdocs/query-syntax) for the spec; every value quoted. */
export function searchQuery(spec: SearchSpec): string {
  if (spec.projects.length === 0) throw new ApiError({ kind: 'invalid', message: l10n.t('A search needs at least one project.') });
  if (spec.projects.length > MAX_SEARCH_PROJECTS) {
    throw new ApiError({ kind: 'invalid', message: l10n.t('A search covers at most {0} projects ({1} given).', MAX_SEARCH_PROJECTS, spec.projects.length) });
  }
  const bad = spec.projects.find((p) => !isProjectId(p));
  if (bad !== undefined) throw new ApiError({ kind: 'invalid', message: notProjectId(bad) });
  const where: string[] = [];
  if (spec.name !== undefined) where.push(`name = ${quote(spec.name)}`);
  if (spec.tags?.length) where.push(`tags IN (${spec.tags.map(quote).join(', ')})`);
  if (spec.type !== undefined) where.push(`type = ${quote(spec.type.toUpperCase())}`);
  for (const [field, value] of Object.entries(spec.metadata ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(field)) {
      throw new ApiError({ kind: 'invalid', message: l10n.t('The metadata field "{0}" cannot be searched: use letters, digits, "_", "-" and ".".', field) });
    }
    where.push(`metadata.${field} = ${quote(value)}`);
  }
  return [
    `IN ${spec.projects.map((p) => quote(`/Projects/${p}`)).join(', ')}`,
    ...(where.length ? [`WHERE ${where.join(' AND ')}`] : []),
    ...(spec.recursive === false ? [] : ['RECURSIVE']),
  ].join(' ');
}

/** A string of the query language: in double quotes, `"` and `\` escaped. */
export function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
