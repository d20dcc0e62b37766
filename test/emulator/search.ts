/**
 * The server-side file search of platform-api.md §10.2, POST /v2/files/search?limit=&cont_token= with body {query}, for a
 * subset of the platform's query language:
 *
 *   IN "/Projects/<owner>/<project>[/<folder>/…]" [, …]   (at most 10 projects; "<owner>/<project>" alone too)
 *   [WHERE <condition>] [ORDER BY name|id|size|created_on|modified_on [ASC|DESC]] [LIMIT n] [OFFSET n]
 *   [TOKEN "<cont_token>"] [RECURSIVE] [STALE]
 *
 * A condition combines, with AND, OR, NOT and parentheses, comparisons of `name`, `type` ("FILE", "FOLDER"), `tags`,
 * `size`, `file_extension` and `metadata.<key>` with `=`, `!=`, `IN (…)`, `NOT IN (…)` (and `<`, `<=`, `>`, `>=` on
 * size). The partial-name operator is the emulator's pick (platform-api.md marks partial-name matching THIN):
 * `name LIKE "%part%"`, `%` standing for any run of characters and `_` for one, case-insensitive; `LIKE` works on
 * metadata values too. Keywords are case-insensitive; strings are double-quoted with `\"` and `\\` escapes.
 *
 * The answer is {count, cont_token, result_set}: `count` the number of records in this answer's `result_set`,
 * `cont_token` the token of the next page (null on the last), each record the file record with `type` in capitals.
 * Without RECURSIVE a location's own entries are searched, with it everything below it. Every refusal of a query
 * (its syntax, a location that does not exist, a token of another query) is 400, so that 404 and 403 say only that
 * the search is not there.
 */
import { createHash } from 'crypto';
import { ApiError, badRequest, notFound } from './errors';
import { type Ctx, type Result, objectBody, one } from './common';
import type { FileRec, Store } from './data';
import { fileRecord } from './files';

/** Whether the platform offers the search: `absent` answers 404 like any unknown route, `forbidden` 403. */
export type SearchMode = 'available' | 'absent' | 'forbidden';
export interface SearchSettings {
  mode: SearchMode;
}

export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_PROJECTS = 10;

type Token =
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'word'; value: string; at: number }
  | { kind: 'punct'; value: string; at: number };

type Value = string | number;
type Condition = (f: FileRec) => boolean;

interface Parsed {
  /** what a cont_token is bound to: the query without its TOKEN and LIMIT (a next page may ask for another size) */
  key: string;
  locations: string[];
  where: Condition | undefined;
  order: { field: string; dir: 1 | -1 } | undefined;
  limit: number | undefined;
  offset: number | undefined;
  token: string | undefined;
  recursive: boolean;
}

const KEYWORDS = ['IN', 'WHERE', 'AND', 'OR', 'NOT', 'ORDER', 'BY', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'TOKEN', 'RECURSIVE', 'STALE', 'LIKE', 'AS'];
const ORDER_FIELDS = ['name', 'id', 'size', 'created_on', 'modified_on'];
const FIELDS = 'name, type, tags, size, file_extension and metadata.<key>';

export function searchFiles(ctx: Ctx, settings: SearchSettings): Result {
  if (settings.mode === 'absent') throw notFound(`No such resource: POST /v2/files/search`);
  if (settings.mode === 'forbidden') throw new ApiError(403, 90002, 'File search is not enabled for this account.');
  const body = objectBody(ctx, "with 'query', a query in the platform's query language");
  if (typeof body.query !== 'string' || body.query.trim() === '') throw badRequest("Give 'query', a query in the platform's query language.");
  const parsed = parse(body.query);
  const limitParam = one(ctx.query, 'limit');
  const limit = limitParam !== null ? count(limitParam, 'limit', 1, MAX_SEARCH_LIMIT) : parsed.limit ?? DEFAULT_SEARCH_LIMIT;
  if (limit > MAX_SEARCH_LIMIT) throw badRequest(`LIMIT is at most ${MAX_SEARCH_LIMIT} (${limit} given).`);
  const token = one(ctx.query, 'cont_token') ?? parsed.token;
  const start = token !== undefined && token !== '' ? readToken(token, parsed.key) : parsed.offset ?? 0;

  const roots = parsed.locations.map((loc) => locate(ctx.store, loc));
  const projects = new Set(roots.map((f) => f.project));
  if (projects.size > MAX_SEARCH_PROJECTS) throw badRequest(`A query searches at most ${MAX_SEARCH_PROJECTS} projects (${projects.size} given).`);
  const seen = new Set<string>();
  const found: FileRec[] = [];
  const visit = (folder: FileRec): void => {
    for (const f of ctx.store.children(folder.id)) {
      if (!seen.has(f.id) && (!parsed.where || parsed.where(f))) {
        seen.add(f.id);
        found.push(f);
      }
      if (parsed.recursive && f.type === 'folder') visit(f);
    }
  };
  roots.forEach(visit);
  if (parsed.order) {
    const { field, dir } = parsed.order;
    const key = (f: FileRec): string | number => (f as unknown as Record<string, string | number | undefined>)[field] ?? '';
    found.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : 0));
  }
  const page = found.slice(start, start + limit);
  const next = start + limit < found.length ? writeToken(start + limit, parsed.key) : null;
  return {
    status: 200,
    body: { count: page.length, cont_token: next, result_set: page.map((f) => ({ ...fileRecord(ctx.base, f), type: f.type.toUpperCase() })) },
  };
}

function count(raw: string, what: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw badRequest(`Invalid value '${raw}' for ${what}: a whole number from ${min} to ${max}.`);
  return Number(raw);
}

function writeToken(offset: number, queryKey: string): string {
  return Buffer.from(JSON.stringify({ o: offset, q: queryKey })).toString('base64url');
}

function readToken(token: string, queryKey: string): number {
  let parsed: { o?: unknown; q?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; q?: unknown };
  } catch {
    throw badRequest('Invalid cont_token: give the token of an earlier answer to the same query.');
  }
  if (typeof parsed?.o !== 'number' || parsed.q !== queryKey) throw badRequest('Invalid cont_token: give the token of an earlier answer to the same query.');
  return parsed.o;
}

/** A location's folder: "/Projects/<owner>/<project>[/path…]" (or "<owner>/<project>"). */
function locate(store: Store, location: string): FileRec {
  if (/^\/Datasets\//i.test(location)) throw badRequest(`The emulator searches projects only, not '${location}'.`);
  const parts = location.replace(/^\/Projects\//i, '').split('/').filter((p) => p !== '');
  const project = parts.length >= 2 ? store.projectById.get(`${parts[0]}/${parts[1]}`) : undefined;
  if (!project) throw badRequest(`Location '${location}' does not exist: give "/Projects/<owner>/<project>" of a project you can see.`);
  let folder = store.fileById.get(project.root_folder)!;
  for (const name of parts.slice(2)) {
    const next = store.children(folder.id).find((f) => f.name === name && f.type === 'folder');
    if (!next) throw badRequest(`Location '${location}' does not exist: no folder '${name}' there.`);
    folder = next;
  }
  return folder;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      let value = '';
      const at = i++;
      for (;;) {
        if (i >= text.length) throw syntax(at, 'a string is not closed');
        const d = text[i++];
        if (d === '"') break;
        value += d === '\\' && i < text.length ? text[i++] : d;
      }
      tokens.push({ kind: 'string', value, at });
    } else if (/[0-9]/.test(c)) {
      const m = /^\d+(\.\d+)?/.exec(text.slice(i))!;
      tokens.push({ kind: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(text.slice(i))!;
      tokens.push({ kind: 'word', value: m[0], at: i });
      i += m[0].length;
    } else {
      const m = /^(!=|<=|>=|[=<>(),])/.exec(text.slice(i));
      if (!m) throw syntax(i, `unexpected '${c}'`);
      tokens.push({ kind: 'punct', value: m[0], at: i });
      i += m[0].length;
    }
  }
  return tokens;
}

function syntax(at: number, what: string): ApiError {
  return badRequest(`Query syntax error at character ${at + 1}: ${what}.`);
}

function parse(text: string): Parsed {
  const tokens = tokenize(text);
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const isWord = (w: string, t = peek()): boolean => t?.kind === 'word' && t.value.toUpperCase() === w;
  const isPunct = (p: string, t = peek()): boolean => t?.kind === 'punct' && t.value === p;
  const where = (): number => peek()?.at ?? text.length;
  const expectWord = (w: string): void => {
    if (!isWord(w)) throw syntax(where(), `expected ${w}`);
    i++;
  };
  const expectPunct = (p: string): void => {
    if (!isPunct(p)) throw syntax(where(), `expected '${p}'`);
    i++;
  };
  const string = (what: string): string => {
    const t = peek();
    if (t?.kind !== 'string') throw syntax(where(), `expected ${what} in double quotes`);
    i++;
    return t.value;
  };
  const number = (what: string): number => {
    const t = peek();
    if (t?.kind !== 'number' || !Number.isInteger(t.value)) throw syntax(where(), `expected ${what} (a whole number)`);
    i++;
    return t.value;
  };
  const value = (): Value => {
    const t = peek();
    if (t?.kind === 'string' || t?.kind === 'number') {
      i++;
      return t.value;
    }
    throw syntax(where(), 'expected a value (a string in double quotes, or a number)');
  };
  const values = (): Value[] => {
    expectPunct('(');
    const out = [value()];
    while (isPunct(',')) {
      i++;
      out.push(value());
    }
    expectPunct(')');
    return out;
  };

  const condition = (): Condition => {
    let left = conjunction();
    while (isWord('OR')) {
      i++;
      const a = left;
      const b = conjunction();
      left = (f) => a(f) || b(f);
    }
    return left;
  };
  const conjunction = (): Condition => {
    let left = unary();
    while (isWord('AND')) {
      i++;
      const a = left;
      const b = unary();
      left = (f) => a(f) && b(f);
    }
    return left;
  };
  const unary = (): Condition => {
    if (isWord('NOT')) {
      i++;
      const inner = unary();
      return (f) => !inner(f);
    }
    if (isPunct('(')) {
      i++;
      const inner = condition();
      expectPunct(')');
      return inner;
    }
    return comparison();
  };
  const comparison = (): Condition => {
    const t = peek();
    if (t?.kind !== 'word' || KEYWORDS.includes(t.value.toUpperCase())) throw syntax(where(), `expected a field (${FIELDS})`);
    i++;
    const { read, norm } = reader(t.value, t.at);
    const negated = isWord('NOT');
    if (negated) i++;
    if (isWord('IN')) {
      i++;
      const list = values().map(norm);
      const test: Condition = (f) => read(f).some((v) => list.includes(v));
      return negated ? (f) => !test(f) : test;
    }
    if (isWord('LIKE')) {
      i++;
      const pattern = like(string('a pattern'));
      const test: Condition = (f) => read(f).some((v) => typeof v === 'string' && pattern.test(v));
      return negated ? (f) => !test(f) : test;
    }
    if (negated) throw syntax(where(), 'expected IN or LIKE after NOT');
    const op = peek();
    if (op?.kind !== 'punct' || !['=', '!=', '<', '<=', '>', '>='].includes(op.value)) throw syntax(where(), 'expected =, !=, <, <=, >, >=, IN or LIKE');
    i++;
    const v = norm(value());
    switch (op.value) {
      case '=':
        return (f) => read(f).includes(v);
      case '!=':
        return (f) => !read(f).includes(v);
      default: {
        if (typeof v !== 'number') throw syntax(op.at, `${op.value} compares numbers (size)`);
        const cmp = { '<': (a: number) => a < v, '<=': (a: number) => a <= v, '>': (a: number) => a > v, '>=': (a: number) => a >= v }[op.value]!;
        return (f) => read(f).some((x) => typeof x === 'number' && cmp(x));
      }
    }
  };

  const paging = (t: Token | undefined): boolean => t?.kind === 'word' && ['TOKEN', 'LIMIT'].includes(t.value.toUpperCase());
  const kept = tokens.filter((t, k) => !paging(t) && !(k > 0 && paging(tokens[k - 1])));
  const key = createHash('sha256').update(JSON.stringify(kept.map((t) => [t.kind, t.kind === 'word' ? t.value.toUpperCase() : t.value]))).digest('hex').slice(0, 16);
  const parsed: Parsed = { key, locations: [], where: undefined, order: undefined, limit: undefined, offset: undefined, token: undefined, recursive: false };
  if (isWord('AS', tokens[1])) throw syntax(0, "'<field> AS <name>' is not supported by the emulator");
  expectWord('IN');
  parsed.locations.push(string('a location such as "/Projects/owner/project"'));
  while (isPunct(',')) {
    i++;
    parsed.locations.push(string('a location'));
  }
  const done = new Set<string>();
  while (i < tokens.length) {
    const t = peek()!;
    const clause = t.kind === 'word' ? t.value.toUpperCase() : '';
    if (!['WHERE', 'ORDER', 'LIMIT', 'OFFSET', 'TOKEN', 'RECURSIVE', 'STALE'].includes(clause)) throw syntax(t.at, `unexpected '${String(t.value)}'`);
    if (done.has(clause)) throw syntax(t.at, `${clause} is given twice`);
    done.add(clause);
    i++;
    if (clause === 'WHERE') parsed.where = condition();
    else if (clause === 'ORDER') {
      expectWord('BY');
      const field = peek();
      if (field?.kind !== 'word' || !ORDER_FIELDS.includes(field.value.toLowerCase())) throw syntax(where(), `expected one of ${ORDER_FIELDS.join(', ')} after ORDER BY`);
      i++;
      const dir: 1 | -1 = isWord('DESC') ? -1 : 1;
      if (isWord('ASC') || isWord('DESC')) i++;
      parsed.order = { field: field.value.toLowerCase(), dir };
    } else if (clause === 'LIMIT') parsed.limit = number('a limit');
    else if (clause === 'OFFSET') parsed.offset = number('an offset');
    else if (clause === 'TOKEN') parsed.token = string('a token');
    else if (clause === 'RECURSIVE') parsed.recursive = true;
  }
  return parsed;
}

/**
 * The values a field has in a record (tags: each tag; a field the record lacks: none), and how a value of the query
 * is read for it: `type` and `file_extension` compare in capitals, everything else exactly.
 */
function reader(field: string, at: number): { read: (f: FileRec) => Value[]; norm: (v: Value) => Value } {
  const exact = (v: Value): Value => v;
  const capitals = (v: Value): Value => (typeof v === 'string' ? v.toUpperCase() : v);
  const lower = field.toLowerCase();
  if (lower === 'name') return { read: (f) => [f.name], norm: exact };
  if (lower === 'type') return { read: (f) => [f.type.toUpperCase()], norm: capitals };
  if (lower === 'tags') return { read: (f) => f.tags, norm: exact };
  if (lower === 'size') return { read: (f) => (f.size === undefined ? [] : [f.size]), norm: exact };
  if (lower === 'file_extension') {
    return { read: (f) => (f.type === 'file' && f.name.includes('.') ? [f.name.slice(f.name.lastIndexOf('.') + 1).toUpperCase()] : []), norm: capitals };
  }
  if (lower.startsWith('metadata.') && field.length > 'metadata.'.length) {
    const key = field.slice('metadata.'.length);
    return { read: (f) => (f.metadata[key] === undefined ? [] : [f.metadata[key]]), norm: exact };
  }
  throw syntax(at, `unknown field '${field}' (the emulator knows ${FIELDS})`);
}

function like(pattern: string): RegExp {
  const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${body}$`, 'is');
}
