/**
 * The synchronous bulk file calls of platform-api.md §9.3: POST /v2/bulk/files/get, /delete, /update, /edit. At most 100
 * items a call; the answer is `{items: [{resource} | {error}]}`, one per item in request order. An item's refusal
 * is its own error; the others go ahead.
 */
import { ApiError, badRequest, type ErrorBody } from './errors';
import { type Ctx, type Result, objectBody } from './common';
import { fileRecord } from './files';
import { applyEdit, deleteOne } from './fileEdits';
import { fileOrThrow } from './fileRules';

export const MAX_BULK_ITEMS = 100;

type Item = { resource: Record<string, unknown> } | { error: ErrorBody };

function each<T>(list: T[], work: (item: T) => Record<string, unknown>): Item[] {
  return list.map((item) => {
    try {
      return { resource: work(item) };
    } catch (e) {
      if (e instanceof ApiError) return { error: e.body() };
      throw e;
    }
  });
}

function listOf(ctx: Ctx, key: 'file_ids' | 'items'): unknown[] {
  const body = objectBody(ctx, key === 'file_ids' ? "with 'file_ids', a list of file IDs" : "with 'items', a list of {id, name, tags, metadata}");
  const list = body[key];
  if (!Array.isArray(list)) throw badRequest(`Give '${key}', a list.`);
  if (list.length === 0) throw badRequest(`'${key}' is empty: give at least one.`);
  if (list.length > MAX_BULK_ITEMS) throw badRequest(`At most ${MAX_BULK_ITEMS} items per bulk call (${list.length} given).`);
  return list;
}

function idOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw badRequest('An item needs a file ID (text).');
  return value;
}

export function bulkGet(ctx: Ctx): Result {
  const items = each(listOf(ctx, 'file_ids'), (id) => fileRecord(ctx.base, fileOrThrow(ctx.store, idOf(id))));
  return { status: 200, body: { items } };
}

/** Each ID as DELETE /v2/files/{id} would take it (a folder must be empty); the resource is the record as it was. */
export function bulkDelete(ctx: Ctx): Result {
  const items = each(listOf(ctx, 'file_ids'), (id) => {
    const f = fileOrThrow(ctx.store, idOf(id));
    const before = fileRecord(ctx.base, f);
    deleteOne(ctx.store, f);
    return before;
  });
  return { status: 200, body: { items } };
}

/**
 * `update` replaces: tags and metadata left out are erased (a name left out is kept: a file needs one);
 * `edit` merges: what is left out is kept, metadata keys are merged into the set, tags given replace the list.
 */
export function bulkChange(ctx: Ctx, mode: 'update' | 'edit'): Result {
  const items = each(listOf(ctx, 'items'), (raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('Every item must be an object with an id.');
    const item = raw as Record<string, unknown>;
    const f = fileOrThrow(ctx.store, idOf(item.id));
    const edit = mode === 'update' ? { name: item.name, tags: item.tags ?? [], metadata: item.metadata ?? {} } : item;
    applyEdit(ctx.store, f, edit, mode === 'update' ? 'replace' : 'merge', ctx.now());
    return fileRecord(ctx.base, f);
  });
  return { status: 200, body: { items } };
}
