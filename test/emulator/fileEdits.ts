/**
 * The single-item file calls of platform-api.md §9.1: create a folder (POST /v2/files), list a folder
 * (GET /v2/files/{id}/list), change a file (PATCH /v2/files/{id}), its tags (PUT …/tags), its metadata
 * (GET, PATCH, PUT …/metadata), move a file (POST …/actions/move) and delete (DELETE /v2/files/{id}).
 */
import { ApiError, badRequest, notFound } from './errors';
import { type Ctx, type Result, listResult, objectBody, one, paging, jsonBody } from './common';
import type { FileRec, Store } from './data';
import { applyFields } from './fields';
import { fileRecord } from './files';
import {
  checkFree,
  checkMetadata,
  checkName,
  checkNotRoot,
  checkPairCount,
  checkTags,
  checkWrite,
  fileOrThrow,
} from './fileRules';
import { isoZ } from './prng';

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const LIST_DEFAULTS = ['href', 'id', 'name'];
/** What PATCH /v2/files/{id} changes; anything else a file record has is refused there. */
const EDITABLE = ['name', 'tags', 'metadata'];
const READ_ONLY = ['id', 'href', 'type', 'size', 'project', 'parent', 'created_on', 'modified_on', 'origin', 'storage'];

export function createFolder(ctx: Ctx): Result {
  const body = objectBody(ctx, "with 'name', 'type': 'folder' and one of 'parent' or 'project'");
  const { store } = ctx;
  if (typeof body.type !== 'string' || body.type.toLowerCase() !== 'folder') {
    throw badRequest("Only folders are created with this call: give 'type': 'folder' (files are uploaded).");
  }
  if (present(body.parent) && present(body.project)) throw new ApiError(400, 5031, "Give either 'parent' or 'project', not both.");
  if (!present(body.parent) && !present(body.project)) throw new ApiError(400, 5029, "Give either 'parent' or 'project'.");
  const parent = present(body.parent) ? folderOf(store, body.parent) : rootOf(store, body.project);
  checkWrite(store, parent.project, 'create folders');
  const name = checkName(body.name, 'folder');
  checkFree(store, parent.id, name);
  const at = isoZ(ctx.now());
  const folder = store.addFile({
    id: store.newFileId(), name, project: parent.project, parent: parent.id, type: 'folder',
    created_on: at, modified_on: at, origin: {}, tags: [], metadata: {},
  });
  return { status: 201, body: fileRecord(ctx.base, folder) };
}

export function listFolder(ctx: Ctx, id: string): Result {
  const page = paging(ctx.query);
  const fields = one(ctx.query, 'fields');
  const folder = fileOrThrow(ctx.store, id);
  if (folder.type !== 'folder') throw new ApiError(400, 5022, 'The file is not a folder.');
  return listResult(ctx, ctx.store.children(folder.id), page, (f: FileRec) => applyFields(fileRecord(ctx.base, f), fields, LIST_DEFAULTS));
}

/** PATCH /v2/files/{id}: `name` renames, `tags` and `metadata` replace the whole set. */
export function patchFile(ctx: Ctx, id: string): Result {
  const body = objectBody(ctx, "with any of 'name', 'tags' and 'metadata'");
  const f = fileOrThrow(ctx.store, id);
  const readOnly = Object.keys(body).find((k) => READ_ONLY.includes(k));
  if (readOnly) throw badRequest(`'${readOnly}' cannot be changed with this call (${EDITABLE.join(', ')} can; a move changes the parent).`);
  applyEdit(ctx.store, f, body, 'replace', ctx.now());
  return { status: 200, body: fileRecord(ctx.base, f) };
}

/**
 * Changes a file's name, tags and metadata after checking all of them (nothing changes when one is refused).
 * `replace`: given tags and metadata replace the sets (PATCH, bulk update erases what is left out: the caller says so);
 * `merge`: metadata keys are merged into the set (bulk edit).
 */
export function applyEdit(store: Store, f: FileRec, edit: Record<string, unknown>, mode: 'replace' | 'merge', now: number): void {
  checkWrite(store, f.project, 'change files');
  let name: string | undefined;
  if (edit.name !== undefined && edit.name !== f.name) {
    checkNotRoot(f, 'renamed');
    name = checkName(edit.name, f.type);
    checkFree(store, f.parent!, name, f);
  }
  const tags = edit.tags !== undefined && edit.tags !== null ? checkTags(edit.tags) : undefined;
  let metadata: Record<string, string> | undefined;
  if (edit.metadata !== undefined && edit.metadata !== null) {
    const given = checkMetadata(edit.metadata);
    metadata = checkPairCount(mode === 'merge' ? { ...f.metadata, ...given } : given);
  }
  if (name !== undefined) f.name = name;
  if (tags !== undefined) f.tags = tags;
  if (metadata !== undefined) f.metadata = metadata;
  if (name !== undefined || tags !== undefined || metadata !== undefined) f.modified_on = isoZ(now);
}

export function putTags(ctx: Ctx, id: string): Result {
  const f = fileOrThrow(ctx.store, id);
  const tags = checkTags(jsonBody(ctx));
  checkWrite(ctx.store, f.project, 'tag files');
  f.tags = tags;
  f.modified_on = isoZ(ctx.now());
  return { status: 200, body: f.tags };
}

export function getMetadata(ctx: Ctx, id: string): Result {
  return { status: 200, body: fileOrThrow(ctx.store, id).metadata };
}

/** PATCH merges the given keys into the set; PUT replaces the whole set (keys left out are gone). */
export function writeMetadata(ctx: Ctx, id: string, mode: 'merge' | 'replace'): Result {
  const f = fileOrThrow(ctx.store, id);
  const given = checkMetadata(jsonBody(ctx));
  checkWrite(ctx.store, f.project, 'change metadata');
  f.metadata = checkPairCount(mode === 'merge' ? { ...f.metadata, ...given } : given);
  f.modified_on = isoZ(ctx.now());
  return { status: 200, body: f.metadata };
}

/** POST /v2/files/{id}/actions/move: a file (never a folder) to another folder of its project, optionally renamed. */
export function moveFile(ctx: Ctx, id: string): Result {
  const body = objectBody(ctx, "with 'parent' and optionally 'name'");
  const { store } = ctx;
  const f = fileOrThrow(store, id);
  if (f.type === 'folder') throw badRequest('Moving folders is not supported with this call: use the asynchronous move (POST /v2/async/files/move).');
  if (!present(body.parent)) throw new ApiError(400, 5029, "Give 'parent', the folder to move the file to.");
  const dest = folderOf(store, body.parent);
  if (dest.project !== f.project) {
    throw badRequest('This call moves a file within its project: use the asynchronous move (POST /v2/async/files/move) to move it to another project.');
  }
  checkWrite(store, f.project, 'move files');
  const name = present(body.name) ? checkName(body.name, 'file') : f.name;
  if (dest.id === f.parent && name === f.name) return { status: 200, body: fileRecord(ctx.base, f) };
  checkFree(store, dest.id, name, f);
  if (dest.id !== f.parent) store.reparent(f, dest);
  f.name = name;
  f.modified_on = isoZ(ctx.now());
  return { status: 200, body: fileRecord(ctx.base, f) };
}

/** DELETE /v2/files/{id}: 204. A folder must be empty (the emulator's pick: the async delete takes whole folders). */
export function deleteFile(ctx: Ctx, id: string): Result {
  const f = fileOrThrow(ctx.store, id);
  deleteOne(ctx.store, f);
  return { status: 204, body: undefined };
}

/** The rules of a synchronous delete (single and bulk), then the delete. */
export function deleteOne(store: Store, f: FileRec): void {
  checkNotRoot(f, 'deleted');
  checkWrite(store, f.project, 'delete files');
  if (f.type === 'folder' && store.children(f.id).length > 0) {
    throw badRequest(`The folder '${f.name}' is not empty: delete what is in it first, or use the asynchronous delete (POST /v2/async/files/delete), which takes whole folders.`);
  }
  store.removeFile(f);
}

function folderOf(store: Store, id: unknown): FileRec {
  const f = typeof id === 'string' ? store.fileById.get(id) : undefined;
  if (!f) throw new ApiError(404, 5026, `Destination folder '${String(id)}' does not exist.`);
  if (f.type !== 'folder') throw new ApiError(400, 5022, 'The parent is not a folder.');
  return f;
}

function rootOf(store: Store, project: unknown): FileRec {
  const p = typeof project === 'string' ? store.projectById.get(project) : undefined;
  if (!p) throw notFound(`Project '${String(project)}' does not exist.`);
  return store.fileById.get(p.root_folder)!;
}
