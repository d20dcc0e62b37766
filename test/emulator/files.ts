/** GET /v2/user, /v2/projects, /v2/projects/{owner}/{name}, /v2/files, /v2/files/{id}. */
import { applyFields } from './fields';
import { ApiError, badRequest, notFound } from './errors';
import { type Ctx, type Result, listResult, one, paging } from './common';
import type { FileRec, ProjectRec } from './data';

const DEFAULTS = ['href', 'id', 'name'];

export function fileRecord(base: string, f: FileRec): Record<string, unknown> {
  return { href: `${base}/files/${f.id}`, ...f };
}

export function projectRecord(base: string, p: ProjectRec): Record<string, unknown> {
  return { href: `${base}/projects/${p.id}`, ...p };
}

export function getUser(ctx: Ctx): Result {
  const u = ctx.user === ctx.store.user.username ? ctx.store.user : { ...ctx.store.user, username: ctx.user, email: `${ctx.user}@example.org` };
  return { status: 200, body: applyFields({ href: `${ctx.base}/users/${u.username}`, ...u }, one(ctx.query, 'fields'), null) };
}

export function listProjects(ctx: Ctx): Result {
  const page = paging(ctx.query);
  const fields = one(ctx.query, 'fields');
  const name = one(ctx.query, 'name');
  const needle = name?.toLowerCase() ?? '';
  const items = ctx.store.projects.filter((p) => p.name.toLowerCase().includes(needle));
  return listResult(ctx, items, page, (p: ProjectRec) => applyFields(projectRecord(ctx.base, p), fields, DEFAULTS));
}

export function getProject(ctx: Ctx, id: string): Result {
  const p = ctx.store.projectById.get(id);
  if (!p) {
    throw notFound(`Project '${id}' does not exist.`);
  }
  return { status: 200, body: applyFields(projectRecord(ctx.base, p), one(ctx.query, 'fields'), null) };
}

export function listFiles(ctx: Ctx): Result {
  const q = ctx.query;
  const page = paging(q);
  const fields = one(q, 'fields');
  const project = one(q, 'project');
  const parent = one(q, 'parent');
  if ((project === null) === (parent === null)) {
    throw badRequest("Give exactly one of the parameters 'project' and 'parent'.");
  }
  let folderId: string;
  if (project !== null) {
    const p = ctx.store.projectById.get(project);
    if (!p) {
      throw notFound(`Project '${project}' does not exist.`);
    }
    folderId = p.root_folder;
  } else {
    const f = ctx.store.fileById.get(parent!);
    if (!f) {
      throw new ApiError(404, 5002, 'Requested file does not exist.');
    }
    if (f.type !== 'folder') {
      throw new ApiError(400, 5022, 'The parent is not a folder.');
    }
    folderId = f.id;
  }
  const matches = fileFilters(q);
  const items = ctx.store.children(folderId).filter((f) => matches.every((m) => m(f)));
  return listResult(ctx, items, page, (f: FileRec) => applyFields(fileRecord(ctx.base, f), fields, DEFAULTS));
}

/**
 * The filters of GET /v2/files (platform-api.md §10.1): `name` (exact), `tag`, each `metadata.<field>` and each
 * `origin.<key>` (`origin.task`) may be repeated for OR; different parameters AND.
 */
function fileFilters(q: URLSearchParams): ((f: FileRec) => boolean)[] {
  const preds: ((f: FileRec) => boolean)[] = [];
  const names = q.getAll('name');
  if (names.length) preds.push((f) => names.includes(f.name));
  const tags = q.getAll('tag');
  if (tags.length) preds.push((f) => tags.some((t) => f.tags.includes(t)));
  for (const key of new Set(q.keys())) {
    const values = q.getAll(key);
    if (key.startsWith('metadata.')) {
      const field = key.slice('metadata.'.length);
      preds.push((f) => values.includes(f.metadata[field]));
    } else if (key.startsWith('origin.')) {
      const field = key.slice('origin.'.length);
      preds.push((f) => {
        const v = (f.origin as Record<string, string | undefined>)[field];
        return v !== undefined && values.includes(v);
      });
    }
  }
  return preds;
}

export function getFile(ctx: Ctx, id: string): Result {
  const f = ctx.store.fileById.get(id);
  if (!f) {
    throw new ApiError(404, 5002, 'Requested file does not exist.');
  }
  return { status: 200, body: applyFields(fileRecord(ctx.base, f), one(ctx.query, 'fields'), null) };
}
