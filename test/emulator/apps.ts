/**
 * Apps (platform-api.md §14): GET /v2/apps, GET /v2/apps/{owner}/{project}/{app}[/{revision}], their raw CWL
 * (GET …/raw, …/{revision}/raw), an install or a new revision (POST …/raw, …/{revision}/raw) and a copy
 * (POST /v2/apps/{id}/actions/copy). The seeded apps are in appSeeds.ts.
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - the raw CWL is answered as JSON only (platform-api.md documents JSON for GET …/raw; `Accept: application/yaml` is not
 *   honoured); a POST body is read as YAML when its Content-Type says yaml (application/yaml, application/x-yaml,
 *   text/yaml), else as JSON; one that does not decode is 400/90009;
 * - the server sets `sbg:id`, `sbg:revision`, `sbg:latestRevision`, `sbg:project`, `sbg:createdBy`, `sbg:createdOn`,
 *   `sbg:modifiedBy`, `sbg:modifiedOn` (epoch seconds), `sbg:revisionsInfo` (every revision of the app, oldest first),
 *   `sbg:revisionNotes` (the posted one, else ''), `sbg:validationErrors`, `sbg:contributors`, `sbg:content_hash` (the
 *   SHA-256 of the stored document, hex) and, on copies, `sbg:copyOf`, whatever was posted; the install answers 200;
 * - the app's short name: letters, digits, `-` and `_` (else 400/6011); writing needs write permission in the project
 *   (403/6001), a project that exists (404/3002); the public project cannot be written;
 * - a list item without `fields` is `href, id, name, project, revision` (the latest revision; `_all` adds `raw`); GET of
 *   one app answers the whole wrapper, `raw` included; lists are ordered by app ID; `id=` takes an app ID with or
 *   without its revision; `visibility` is read case-insensitively (public, private); `project` and `visibility` AND;
 *   an unknown but well-formed `project` gives an empty list, as the task list does;
 * - a copy answers 200 with the copy's wrapper (its latest revision); `clone` and `clone_direct` copy revisions 0 up to
 *   the one copied (the latest unless the ID names one), keeping numbers, authors and times; `direct` and `transient`
 *   copy that one revision as revision 0, made by the caller now; an unknown strategy is 400/90000; a copy's own
 *   revisions are made as any app's (the link is kept: there is no sync here).
 */
import { createHash } from 'crypto';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest } from './errors';
import { type Ctx, type Result, listResult, objectBody, one, paging } from './common';
import { applyFields } from './fields';
import { checkDocument, type Cwl } from './cwl';
import type { AppRec, AppRevision, Store } from './data';
import { PUBLIC_PROJECT } from './appSeeds';

const LIST_DEFAULTS = ['href', 'id', 'name', 'project', 'revision'];
const SHORT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const STRATEGIES = ['clone', 'direct', 'clone_direct', 'transient'] as const;
const SERVER_FIELDS = [
  'sbg:id', 'sbg:revision', 'sbg:latestRevision', 'sbg:project', 'sbg:createdBy', 'sbg:createdOn', 'sbg:modifiedBy', 'sbg:modifiedOn',
  'sbg:revisionsInfo', 'sbg:revisionNotes', 'sbg:validationErrors', 'sbg:contributors', 'sbg:content_hash', 'sbg:copyOf', 'sbg:latestRevisionId',
];

export const appMissing = (id: string): ApiError => new ApiError(404, 6002, `Requested app/revision does not exist: '${id}'.`);

/** `owner/project/app[/revision]` read, or 404/6002. */
export function findApp(store: Store, id: string): { app: AppRec; rev: AppRevision } {
  const parts = id.split('/');
  const app = parts.length === 3 || parts.length === 4 ? store.apps.get(parts.slice(0, 3).join('/')) : undefined;
  if (!app) throw appMissing(id);
  if (parts.length === 3) return { app, rev: app.revisions[app.revisions.length - 1] };
  const rev = /^\d+$/.test(parts[3]) ? app.revisions[Number(parts[3])] : undefined;
  if (!rev) throw appMissing(id);
  return { app, rev };
}

const latest = (app: AppRec): AppRevision => app.revisions[app.revisions.length - 1];
const labelOf = (app: AppRec, rev: AppRevision): string => (typeof rev.content.label === 'string' ? rev.content.label : app.short);

/** The raw CWL of a revision as the platform serves it: what was posted, then the fields the server sets. */
export function rawOf(app: AppRec, rev: AppRevision): Cwl {
  const raw: Cwl = JSON.parse(JSON.stringify(rev.content)) as Cwl;
  for (const k of SERVER_FIELDS) delete raw[k];
  const last = latest(app);
  Object.assign(raw, {
    'sbg:id': `${app.id}/${rev.revision}`,
    'sbg:revision': rev.revision,
    'sbg:latestRevision': last.revision,
    'sbg:project': app.project,
    'sbg:createdBy': app.createdBy,
    'sbg:createdOn': app.createdOn,
    'sbg:modifiedBy': rev.by,
    'sbg:modifiedOn': rev.at,
    'sbg:revisionNotes': rev.notes,
    'sbg:revisionsInfo': app.revisions.map((r) => ({ 'sbg:revision': r.revision, 'sbg:modifiedBy': r.by, 'sbg:modifiedOn': r.at, 'sbg:revisionNotes': r.notes })),
    'sbg:validationErrors': rev.validationErrors,
    'sbg:contributors': [...new Set(app.revisions.map((r) => r.by))],
    'sbg:content_hash': createHash('sha256').update(JSON.stringify(rev.content)).digest('hex'),
    ...(app.copyOf ? { 'sbg:copyOf': app.copyOf } : {}),
  });
  return raw;
}

function wrapper(base: string, app: AppRec, rev: AppRevision): Record<string, unknown> {
  return { href: `${base}/apps/${app.id}/${rev.revision}`, id: `${app.id}/${rev.revision}`, project: app.project, name: labelOf(app, rev), revision: rev.revision, raw: rawOf(app, rev) };
}

export function listApps(ctx: Ctx): Result {
  const q = ctx.query;
  const page = paging(q);
  const fields = one(q, 'fields');
  const visibility = one(q, 'visibility')?.toLowerCase() ?? null;
  if (visibility !== null && visibility !== 'public' && visibility !== 'private') {
    throw new ApiError(400, 6012, 'Invalid visibility query parameter. Allowed values: [PUBLIC, PRIVATE].');
  }
  const project = one(q, 'project');
  const id = one(q, 'id');
  const terms = q.getAll('q').map((t) => t.toLowerCase()).filter((t) => t !== '');
  const member = new Set(ctx.store.projects.map((p) => p.id));
  const matches = [...ctx.store.apps.values()].filter((app) => {
    const isPublic = app.project === PUBLIC_PROJECT;
    if (visibility === 'public' ? !isPublic : !member.has(app.project) && project === null) return false;
    if (visibility === 'private' && isPublic) return false;
    if (project !== null && app.project !== project) return false;
    if (id !== null && app.id !== id.split('/').slice(0, 3).join('/')) return false;
    const c = latest(app).content;
    const text = [labelOf(app, latest(app)), app.id, c.doc, c.description, c['sbg:toolkit'], ...(Array.isArray(c['sbg:categories']) ? c['sbg:categories'] : [])]
      .filter((v) => typeof v === 'string').join('\n').toLowerCase();
    return terms.every((t) => text.includes(t));
  });
  matches.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return listResult(ctx, matches, page, (app: AppRec) => {
    const rev = id !== null && id.split('/').length === 4 ? findApp(ctx.store, id).rev : latest(app);
    return applyFields(wrapper(ctx.base, app, rev), fields, LIST_DEFAULTS);
  });
}

export function getApp(ctx: Ctx, id: string): Result {
  const { app, rev } = findApp(ctx.store, id);
  return { status: 200, body: applyFields(wrapper(ctx.base, app, rev), one(ctx.query, 'fields'), null) };
}

export function getRaw(ctx: Ctx, id: string): Result {
  const { app, rev } = findApp(ctx.store, id);
  return { status: 200, body: rawOf(app, rev) };
}

/** The CWL posted, by its Content-Type (YAML or JSON); 400/90009 when it does not decode. */
function decodeCwl(ctx: Ctx): unknown {
  const undecodable = (why: string) => new ApiError(400, 90009, `An error occurred during the decoding of the request content: ${why}`);
  if (ctx.rawBody.trim() === '') throw undecodable('the body is empty.');
  try {
    return /yaml/.test(ctx.contentType) ? (parseYaml(ctx.rawBody) as unknown) : (JSON.parse(ctx.rawBody) as unknown);
  } catch (e) {
    throw undecodable(e instanceof Error ? e.message.split('\n')[0] : String(e));
  }
}

/** 404/3002 for a project that does not exist, 403/6001 without write permission (the public project included). */
function writableProject(store: Store, project: string): void {
  const p = store.projectById.get(project);
  if (!p) throw new ApiError(404, 3002, `Requested project or member does not exist: '${project}'.`);
  if (!p.permissions.write) throw new ApiError(403, 6001, `Insufficient privileges to write apps in project '${project}'.`);
}

/**
 * POST …/{app}/raw (`revision` null): a new app (revision 0) or the next revision of one; POST …/{app}/{revision}/raw:
 * exactly the next revision (an existing one 409/6003, a gap 400, an app that does not exist 404/6002).
 */
export function installRaw(ctx: Ctx, project: string, short: string, revision: string | null): Result {
  const { store } = ctx;
  writableProject(store, project);
  if (!SHORT_NAME.test(short)) throw new ApiError(400, 6011, `Malformed app id '${project}/${short}': an app's name takes letters, digits, '-' and '_'.`);
  const id = `${project}/${short}`;
  const existing = store.apps.get(id);
  const next = existing ? existing.revisions.length : 0;
  if (revision !== null) {
    if (!existing) throw appMissing(id);
    const asked = Number(revision);
    if (asked < next) throw new ApiError(409, 6003, `Requested app/revision already exists: '${id}/${asked}'.`);
    if (asked > next) throw badRequest(`Revision ${asked} cannot be made: the next revision of '${id}' is ${next}.`);
  }
  const doc = decodeCwl(ctx);
  const problems = checkDocument(doc);
  const content = doc as Cwl;
  const at = Math.floor(ctx.now() / 1000);
  const rev: AppRevision = {
    revision: next, content, by: ctx.user, at, validationErrors: problems,
    notes: typeof content['sbg:revisionNotes'] === 'string' ? content['sbg:revisionNotes'] : '',
  };
  const app: AppRec = existing ?? { id, project, short, createdBy: ctx.user, createdOn: at, revisions: [] };
  app.revisions.push(rev);
  store.apps.set(id, app);
  return { status: 200, body: rawOf(app, rev) };
}

/** POST /v2/apps/{id}/actions/copy: `{project, name?, strategy?}`. */
export function copyApp(ctx: Ctx, id: string): Result {
  const { store } = ctx;
  const { app: source, rev } = findApp(store, id);
  const body = objectBody(ctx, "with 'project' and optionally 'name' and 'strategy'");
  if (typeof body.project !== 'string' || body.project === '') throw new ApiError(400, 6009, 'Destination project must not be null or an empty string.');
  const strategy = body.strategy === undefined || body.strategy === null ? 'clone' : body.strategy;
  if (!(STRATEGIES as readonly unknown[]).includes(strategy)) throw badRequest(`Unknown strategy ${JSON.stringify(strategy)}: use one of ${STRATEGIES.join(', ')}.`);
  writableProject(store, body.project);
  const short = body.name === undefined || body.name === null || body.name === '' ? source.short : body.name;
  if (typeof short !== 'string' || !SHORT_NAME.test(short)) throw new ApiError(400, 6011, `Malformed app name ${JSON.stringify(short)}: letters, digits, '-' and '_'.`);
  const copyId = `${body.project}/${short}`;
  if (store.apps.has(copyId)) throw new ApiError(409, 6003, `Requested app/revision already exists: '${copyId}'.`);
  const at = Math.floor(ctx.now() / 1000);
  const all = strategy === 'clone' || strategy === 'clone_direct';
  const revisions = all ? source.revisions.slice(0, rev.revision + 1).map((r) => ({ ...r })) : [{ ...rev, revision: 0, by: ctx.user, at }];
  const copy: AppRec = {
    id: copyId, project: body.project, short, createdBy: ctx.user, createdOn: at, revisions, copyOf: `${source.id}/${rev.revision}`,
    ...(strategy === 'clone' || strategy === 'transient' ? { follows: source.id } : {}),
  };
  store.apps.set(copyId, copy);
  return { status: 200, body: wrapper(ctx.base, copy, latest(copy)) };
}
