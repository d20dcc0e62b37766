/** What every handler shares: the request context, results, query parsing and the list envelope. */
import { badRequest } from './errors';
import type { Store } from './data';

export interface Ctx {
  readonly store: Store;
  /** 'http://127.0.0.1:<port>/v2' */
  readonly base: string;
  readonly now: () => number;
  readonly method: string;
  /** path below /v2, without trailing slash, e.g. '/tasks' */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly rawBody: string;
  /** the request's `Content-Type` without its parameters, lower case; '' when there is none */
  readonly contentType: string;
  /** The caller's username (the token's account). */
  readonly user: string;
}

export interface Result {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Processed, then the connection dropped before any answer (a lost answer). */
  lost?: boolean;
}

/** One value of a query parameter; a repeated parameter is refused. */
export function one(q: URLSearchParams, name: string): string | null {
  const all = q.getAll(name);
  if (all.length > 1) {
    throw badRequest(`Parameter '${name}' must be given at most once.`);
  }
  return all.length === 1 ? all[0] : null;
}

/** The request body as JSON; a body that is not JSON is refused with 400. An empty body reads as `undefined`. */
export function jsonBody(ctx: Ctx): unknown {
  if (ctx.rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(ctx.rawBody) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}

/** A JSON object body, or 400 saying what was expected. */
export function objectBody(ctx: Ctx, what: string): Record<string, unknown> {
  const body = jsonBody(ctx);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`The request body must be a JSON object ${what}.`);
  return body as Record<string, unknown>;
}

function intParam(q: URLSearchParams, name: string, dflt: number, min: number, max: number): number {
  const raw = one(q, name);
  if (raw === null) {
    return dflt;
  }
  if (!/^\d+$/.test(raw)) {
    throw badRequest(`Invalid value '${raw}' for parameter '${name}': must be an integer.`);
  }
  const n = Number(raw);
  if (n < min || n > max) {
    throw badRequest(`Invalid value '${raw}' for parameter '${name}': must be between ${min} and ${max}.`);
  }
  return n;
}

export interface Paging {
  offset: number;
  limit: number;
}

/** `offset` and `limit` (1–100; 25 unless a call documents another default). */
export function paging(q: URLSearchParams, defaultLimit = 25): Paging {
  return {
    offset: intParam(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: intParam(q, 'limit', defaultLimit, 1, 100),
  };
}

/** `limit` alone (1–100), for the calls paged by a token. */
export function limitParam(q: URLSearchParams, defaultLimit: number): number {
  return intParam(q, 'limit', defaultLimit, 1, 100);
}

/** A query parameter read as a boolean (`true`/`false`, any case); `dflt` when absent. */
export function boolParam(q: URLSearchParams, name: string, dflt: boolean): boolean {
  const raw = one(q, name);
  if (raw === null) return dflt;
  if (!/^(true|false)$/i.test(raw)) throw badRequest(`Invalid value '${raw}' for parameter '${name}': use true or false.`);
  return raw.toLowerCase() === 'true';
}

/** The list envelope with absolute href, next/prev links and X-Total-Matching-Query. */
export function listResult(ctx: Ctx, all: readonly unknown[], page: Paging, render: (item: never) => unknown): Result {
  const slice = all.slice(page.offset, page.offset + page.limit);
  const url = (offset: number | null): string => {
    const q = new URLSearchParams(ctx.query);
    if (offset !== null) {
      q.set('offset', String(offset));
      q.set('limit', String(page.limit));
    }
    const s = q.toString();
    return `${ctx.base}${ctx.path}${s ? `?${s}` : ''}`;
  };
  const links: { href: string; rel: string; method: string }[] = [];
  if (page.offset + page.limit < all.length) {
    links.push({ href: url(page.offset + page.limit), rel: 'next', method: 'GET' });
  }
  if (page.offset > 0) {
    links.push({ href: url(Math.max(0, page.offset - page.limit)), rel: 'prev', method: 'GET' });
  }
  return {
    status: 200,
    body: { href: url(null), items: slice.map((i) => render(i as never)), links },
    headers: { 'X-Total-Matching-Query': String(all.length) },
  };
}
