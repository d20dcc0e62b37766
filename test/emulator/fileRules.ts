/**
 * The platform's rules on files and folders, shared by the single calls, the bulk calls and the async jobs: names,
 * tags, metadata (platform-api.md §9.1), write permission, name clashes and numbered names.
 */
import { ApiError, badRequest } from './errors';
import type { FileRec, Store } from './data';

export const MAX_NAME = 255;
export const MAX_METADATA_PAIRS = 1000;
export const MAX_METADATA_KEY_BYTES = 100;
export const MAX_METADATA_VALUE_BYTES = 300;

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const shown = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** Why a name is refused (a folder's may not start with `__`), or undefined when it is acceptable. */
export function nameProblem(name: unknown, type: 'file' | 'folder'): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'A name must be a non-empty text.';
  if (name.includes('/')) return `Invalid name '${shown(name)}': a name cannot contain '/'.`;
  if (name === '.' || name === '..') return `Invalid name '${name}'.`;
  if (name.length > MAX_NAME) return `Invalid name '${shown(name)}': at most ${MAX_NAME} characters (${name.length} given).`;
  if (type === 'folder' && name.startsWith('__')) return `Invalid folder name '${shown(name)}': a folder name cannot start with '__'.`;
  return undefined;
}

export function checkName(name: unknown, type: 'file' | 'folder'): string {
  const problem = nameProblem(name, type);
  if (problem) throw badRequest(problem);
  return name as string;
}

/** A list of tags: non-empty texts, each kept once in the order given. */
export function checkTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) throw badRequest("'tags' must be a list of texts.");
  const bad = tags.find((t) => typeof t !== 'string' || t.trim() === '');
  if (bad !== undefined) throw badRequest(`Invalid tag ${JSON.stringify(bad)}: a tag must be a non-empty text.`);
  return [...new Set(tags as string[])];
}

/**
 * A metadata object as the platform takes it: texts only, a null key or value ignored, at most 1000 pairs, a key
 * at most 100 bytes and a value at most 300 bytes in UTF-8, keys case-sensitive. Returns the pairs kept.
 */
export function checkMetadata(metadata: unknown): Record<string, string> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw badRequest("'metadata' must be an object of keys and text values.");
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
    if (value === null) continue;
    if (key === '') throw badRequest('A metadata key cannot be empty.');
    if (bytes(key) > MAX_METADATA_KEY_BYTES) {
      throw badRequest(`Metadata key '${shown(key)}' is ${bytes(key)} bytes long: at most ${MAX_METADATA_KEY_BYTES} bytes (UTF-8).`);
    }
    if (typeof value !== 'string') throw badRequest(`The value of metadata key '${shown(key)}' must be a text (${JSON.stringify(value).slice(0, 40)} given).`);
    if (bytes(value) > MAX_METADATA_VALUE_BYTES) {
      throw badRequest(`The value of metadata key '${shown(key)}' is ${bytes(value)} bytes long: at most ${MAX_METADATA_VALUE_BYTES} bytes (UTF-8).`);
    }
    kept[key] = value;
  }
  return kept;
}

/** Refuses a file set of more than 1000 pairs. */
export function checkPairCount(metadata: Record<string, string>): Record<string, string> {
  const n = Object.keys(metadata).length;
  if (n > MAX_METADATA_PAIRS) throw badRequest(`A file can have at most ${MAX_METADATA_PAIRS} metadata pairs (${n} given).`);
  return metadata;
}

export function fileOrThrow(store: Store, id: string): FileRec {
  const f = store.fileById.get(id);
  if (!f) throw new ApiError(404, 5002, 'Requested file does not exist.');
  return f;
}

/** 403 unless the caller may write in the project. */
export function checkWrite(store: Store, project: string, what = 'change files'): void {
  if (!store.projectById.get(project)?.permissions.write) throw new ApiError(403, 90002, `No write permission in project '${project}': you cannot ${what} there.`);
}

export function checkNotRoot(f: FileRec, what: string): void {
  if (f.parent === null) throw badRequest(`The root folder of a project cannot be ${what}.`);
}

/** The entry of that exact name in a folder (names are case-sensitive), other than `except`. */
export function sibling(store: Store, folderId: string, name: string, except?: FileRec): FileRec | undefined {
  return store.children(folderId).find((s) => s.name === name && s !== except);
}

/** 409 when the name is taken in the folder: 10224 when a folder holds it, 10223 when a file does. */
export function checkFree(store: Store, folderId: string, name: string, except?: FileRec): void {
  const taken = sibling(store, folderId, name, except);
  if (taken) {
    throw taken.type === 'folder'
      ? new ApiError(409, 10224, `A folder named '${shown(name)}' already exists there.`)
      : new ApiError(409, 10223, `A file named '${shown(name)}' already exists there.`);
  }
}

/** `name`, or `1_name`, `2_name`, … : the first that no entry of the folder has (what copies and moves do on a clash). */
export function freeName(store: Store, folderId: string, name: string, except?: FileRec): string {
  let candidate = name;
  for (let i = 1; sibling(store, folderId, candidate, except); i++) candidate = `${i}_${name}`;
  return candidate;
}

/** Files in a subtree (a file counts 1, a folder the files below it). */
export function countFiles(store: Store, f: FileRec): number {
  return f.type === 'file' ? 1 : store.children(f.id).reduce((n, c) => n + countFiles(store, c), 0);
}

/** Removes a file, or a folder with everything below it. */
export function removeTree(store: Store, f: FileRec): void {
  for (const c of [...store.children(f.id)]) removeTree(store, c);
  store.removeFile(f);
}

/** `name`, or `_1_name`, `_2_name`, … : the first that no entry of the folder has (what imports with autorename and task outputs do on a clash). */
export function autoName(store: Store, folderId: string, name: string): string {
  let candidate = name;
  for (let i = 1; sibling(store, folderId, candidate); i++) candidate = `_${i}_${name}`;
  return candidate;
}
