// The files a sample sheet names, found in the task's project: first at its top level, up to 50 names a request (the
// list filter `name`, exact, repeated for OR: contract §10.1); the names not there looked for everywhere below it by
// the platform's file search, one request a name (§10.2), while the platform offers it. Each request paced to the
// API budget. The cells that are IDs are read 100 a call (the bulk get): a file of another project, a folder for a
// file, or an ID the platform does not know is said before anything is made. No `vscode` import.
import { MAX_BULK_FILES } from '../api/bulkFiles';
import type { FileLocation } from '../api/files';
import { searchQuery, searchUnavailable, type SearchRequest } from '../api/fileSearch';
import type { PageRequest } from '../api/tasks';
import type { BulkFileItem, FileFilters, FileRecord, Page, SearchPage } from '../api/types';
import type { Call } from '../api/transport';
import type { FoundFiles, KnownIds } from './sampleSheet';
import type { FileFacts } from './taskValidation';

export interface SheetFilesClient {
  files: { list(location: FileLocation, page: PageRequest & FileFilters & { fields?: string }): Promise<Page<FileRecord>> };
  search: { page(query: string, request?: SearchRequest): Promise<SearchPage> };
}

/** Names a list request carries at most, and their length together (the URL stays far below the 6,000 characters clients allow). */
const NAMES_PER_REQUEST = 50;
const NAME_CHARS_PER_REQUEST = 3_000;
const FIELDS = 'id,name,type,project';

/** Consecutive runs of names, each within a request's bounds. */
export function nameChunks(names: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const name of names) {
    if (chunk.length && (chunk.length === NAMES_PER_REQUEST || chars + name.length > NAME_CHARS_PER_REQUEST)) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(name);
    chars += name.length;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

const facts = (f: FileRecord): FileFacts => ({ id: f.id, name: f.name, type: f.type === 'folder' ? 'folder' : 'file', project: f.project });

export async function findSheetFiles(client: SheetFilesClient, project: string, names: readonly string[], options: { pace?: () => Promise<void>; signal?: AbortSignal } = {}): Promise<FoundFiles> {
  const found = new Map<string, FileFacts[]>();
  const asked = new Set(names);
  const add = (f: FileRecord) => {
    if (!asked.has(f.name)) return;
    const held = found.get(f.name) ?? [];
    if (!held.some((h) => h.id === f.id)) found.set(f.name, [...held, facts(f)]);
  };
  for (const chunk of nameChunks(names)) {
    await options.pace?.();
    // Names are unique within a folder: a chunk's matches fit in one page.
    const page = await client.files.list({ project }, { name: chunk, limit: 100, fields: FIELDS, signal: options.signal });
    page.items.forEach(add);
  }
  for (const name of names.filter((n) => !found.has(n))) {
    await options.pace?.();
    try {
      const answer = await client.search.page(searchQuery({ projects: [project], name }), { limit: 100, signal: options.signal });
      answer.results.forEach((f) => add({ ...f, project: f.project ?? project }));
    } catch (error) {
      if (searchUnavailable(error)) break;
      throw error;
    }
  }
  return found;
}

/** The files of the cells that are IDs, read 100 a call: each one's facts, or "missing" (not there, or not the caller's to see). */
export async function readSheetIds(client: { bulkFiles: { get(ids: readonly string[], options?: Call): Promise<BulkFileItem[]> } }, ids: readonly string[], options: { pace?: () => Promise<void>; signal?: AbortSignal } = {}): Promise<KnownIds> {
  const known = new Map<string, FileFacts | 'missing'>();
  for (let i = 0; i < ids.length; i += MAX_BULK_FILES) {
    const chunk = ids.slice(i, i + MAX_BULK_FILES);
    await options.pace?.();
    const items = await client.bulkFiles.get(chunk, { signal: options.signal });
    // The answer's items are in the order asked; one with an error (404, 403) names no file.
    chunk.forEach((id, at) => {
      const record = items[at]?.resource;
      known.set(id.toLowerCase(), record && record.id.toLowerCase() === id.toLowerCase() ? facts(record) : 'missing');
    });
  }
  return known;
}
