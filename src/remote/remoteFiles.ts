// The platform's files as the `sevenbridges:` file system reads them: a path to its record (the project's root, then
// one listing narrowed by name per folder), a file's path from its ID (its folders up to the root), a folder's whole
// listing (page by page, bounded, loops left out), and a file's content in the form asked (its bytes whole, the first
// 1 MB of its text, a `.gz`'s text), what was read kept up to a size. No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { FileLocation } from '../api/files';
import type { FileRecord, Page, Project } from '../api/types';
import { ByteCache } from '../util/byteCache';
import { count, formatSize } from '../util/words';
import { fileKind, ReadRefused, WHOLE_LIMIT_BYTES, PREVIEW_BYTES } from './fileKinds';
import type { Content, ContentReader, RangeRead } from './preview';
import { formatRemotePath, parseRemotePath, type ReadForm, type RemotePath } from './remotePath';

/** What the file system reads from the platform. */
export interface RemoteSource {
  list(location: FileLocation, page: { name?: string; offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<FileRecord>>;
  get(id: string, options?: { signal?: AbortSignal }): Promise<FileRecord>;
  project(id: string, signal?: AbortSignal): Promise<Project>;
  downloadInfo(id: string, signal?: AbortSignal): Promise<string>;
  /** How bytes are read (the storage client and the readers, loaded on the first read). */
  reader(): Promise<ContentReader>;
}

/** A project's root, as a folder. */
export interface RootRecord {
  id: string;
  type: 'folder';
  name: string;
  project: string;
  root: true;
  size?: undefined;
  /** false: the caller may only read the project */
  writable: boolean;
}

export type RemoteEntry = FileRecord | RootRecord;

const PAGE = 100;
/** Folders below a project's root at most, walking down a path or up from a file (the platform nests no deeper in practice). */
export const MAX_DEPTH = 64;
/** The entries of one folder read at most (100 requests): a listing that goes on past it is refused, with words. */
export const MAX_FOLDER_ENTRIES = 10_000;
/** What is kept of the files read, in all; the least recently read goes first. */
export const CONTENT_CACHE_BYTES = 64 * 1024 * 1024;

export const notAFolder = (name: string): string => l10n.t('{0} is a file, not a folder', name);
export const isAFolder = (path: string): string => l10n.t('{0} is a folder', path);
export const notThere = (path: string): string => l10n.t('{0} is not there (it may have been moved or deleted)', path);
const noProject = (path: string): string => l10n.t('{0} names no project: a path reads /<owner>/<project>/<folder>/<name>', path);
/** Where a form of a file is kept. */
const contentKey = (form: ReadForm, path: string): string => `${form}:${path}`;

/** Why a change cannot be sent while signed out. */
export const signInToChange = (): string => l10n.t('Sign in to change files on the platform.');

/** "me/p is read only: nothing in it can be changed." */
export const readOnlyProject = (project: string): string => l10n.t('{0} is read only: nothing in it can be changed.', project);

/** Not there: the path names no file (a 404 in words). */
export class NotFoundError extends Error {}

export interface RemoteFilesOptions {
  /** Words when a walk leaves something out (a folder listed inside itself): once per folder. */
  onWalkStopped?: (words: string) => void;
  /** What is kept of the files read, in all (bytes). */
  cacheBytes?: number;
  /** The time (the Clock's), which says how old what was read of a file is (`current`). */
  now?: () => number;
}

/** What tells two versions of a file apart: its ID (a save with overwrite makes a new file), size, modification time. */
export function sameVersion(a: RemoteEntry, b: RemoteEntry): boolean {
  return a.id.toLowerCase() === b.id.toLowerCase() && a.size === b.size && ('root' in a || 'root' in b || a.modified_on === b.modified_on);
}

export class RemoteFiles {
  private readonly entries = new Map<string, Promise<RemoteEntry>>();
  private readonly contents: ByteCache<Content>;
  /** Reads under way, so that two asking at once read once. */
  private readonly reading = new Map<string, Promise<Content>>();
  private readonly told = new Set<string>();
  /** When each path's record was read (the Clock's time). */
  private readonly readAt = new Map<string, number>();

  constructor(
    private readonly source: RemoteSource,
    private readonly options: RemoteFilesOptions = {},
  ) {
    this.contents = new ByteCache(options.cacheBytes ?? CONTENT_CACHE_BYTES);
  }

  /** The bytes kept of the files read. */
  get cachedBytes(): number {
    return this.contents.bytes;
  }

  /** Keeps what a row already knows, so that opening it reads no listing. */
  remember(path: RemotePath, record: FileRecord): string {
    const key = formatRemotePath(path);
    this.keepEntry(key, record);
    return key;
  }

  /**
   * The record of a path read no longer than `maxAgeMs` ago, else read again (`refresh`): what the editor is told of a
   * file it may save (its size and modification time) is the platform's of a moment ago.
   */
  async current(path: string, maxAgeMs: number): Promise<RemoteEntry> {
    const at = this.readAt.get(path);
    if (at !== undefined && this.entries.has(path) && this.clockNow() - at <= maxAgeMs) return this.entry(path);
    return (await this.refresh(path)).now;
  }

  /**
   * The record of a path read again from the platform, and the one read before (if any): another version drops what
   * was read of the file, so that the next read is of the new one. Rejects `NotFoundError` when it is gone.
   */
  async refresh(path: string): Promise<{ now: RemoteEntry; before?: RemoteEntry }> {
    const before = await this.entries.get(path)?.catch(() => undefined);
    this.entries.delete(path);
    try {
      const now = await this.entry(path);
      if (before && !sameVersion(before, now)) this.dropContent(path);
      return { now, before };
    } catch (error) {
      if (error instanceof NotFoundError) this.drop(path);
      throw error;
    }
  }

  /** Whether the caller may change what is in the project of a path (its permissions say so). */
  async writable(path: string): Promise<boolean> {
    const place = parseRemotePath(path);
    if (!place) throw new NotFoundError(noProject(path));
    const root = await this.entry(formatRemotePath({ project: place.project, names: [] }));
    return 'root' in root ? root.writable : true;
  }

  /** A file written by this window: its record and its bytes, as the next read would find them. */
  saved(path: string, record: FileRecord, bytes: Uint8Array): void {
    this.dropContent(path);
    this.keepEntry(path, record);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.keep(contentKey('file', path), { bytes: buffer, partial: false, received: buffer.length });
  }

  /** Forgets what was read of a path and of everything below it (it was deleted, moved or renamed). */
  drop(path: string): void {
    const below = `${path.replace(/\/$/, '')}/`;
    for (const key of [...this.entries.keys()]) {
      if (key !== path && !key.startsWith(below)) continue;
      this.entries.delete(key);
      this.readAt.delete(key);
      this.dropContent(key);
    }
  }

  /**
   * The paths read so far of these files or folders, or of what is in these folders: what a change made elsewhere
   * (Projects & Files, a job) touched, forgotten here so that the next look reads them again.
   */
  async forgetHolding(ids: readonly string[]): Promise<string[]> {
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    const touched: string[] = [];
    for (const [path, entry] of [...this.entries]) {
      const record = await entry.catch(() => undefined);
      if (!record || !(wanted.has(record.id.toLowerCase()) || ('parent' in record && record.parent && wanted.has(record.parent.toLowerCase())))) continue;
      touched.push(path);
    }
    for (const path of touched) this.drop(path);
    return touched;
  }

  /** The path of a file or folder from its ID: its record, then each folder up to its project's root. */
  async pathOf(id: string, signal?: AbortSignal): Promise<RemotePath> {
    const record = await this.source.get(id, { signal });
    if (!record.project) throw new ApiError({ kind: 'malformed', message: l10n.t('the platform did not say which project holds {0}', record.name || id) });
    const root = (await this.source.project(record.project, signal)).root_folder?.toLowerCase();
    const names = [record.name];
    let parent = record.parent;
    for (let depth = 0; parent && parent.toLowerCase() !== root; depth++) {
      if (depth >= MAX_DEPTH) throw new ApiError({ kind: 'malformed', message: l10n.t('the folders above {0} go deeper than {1}', record.name, MAX_DEPTH) });
      const folder = await this.source.get(parent, { signal });
      names.unshift(folder.name);
      parent = folder.parent;
    }
    const path = { project: record.project, names };
    this.remember(path, record);
    return path;
  }

  /** The record a path names (a project's root for a path with no names). */
  entry(path: string): Promise<RemoteEntry> {
    const known = this.entries.get(path);
    if (known) return known;
    const found = this.find(path);
    this.entries.set(path, found);
    this.readAt.set(path, this.clockNow());
    // A failure is not kept: the next look tries again.
    found.catch(() => this.entries.get(path) === found && this.entries.delete(path));
    return found;
  }

  /**
   * Everything in a folder (or a project's root), every page: each entry once, those that would make a loop (the
   * folder itself, or a folder above it, listed inside it) left out with words; refused past 10,000 entries, or when
   * a page brings nothing new (a listing that repeats itself), rather than shown cut.
   */
  async list(path: string, signal?: AbortSignal): Promise<FileRecord[]> {
    const above = await this.chain(path);
    const entry = await this.entry(path);
    if (entry.type !== 'folder') throw new NotFoundError(notAFolder(path));
    const location: FileLocation = 'root' in entry ? { project: entry.project } : { parent: entry.id };
    const seen = new Set<string>();
    const all: FileRecord[] = [];
    const looping: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.source.list(location, { offset, limit: PAGE, signal });
      let fresh = 0;
      for (const record of page.items) {
        const id = record.id?.toLowerCase();
        if (!id || seen.has(id)) continue;
        seen.add(id);
        fresh++;
        if (above.has(id)) looping.push(record.name);
        else all.push(record);
      }
      const ended = page.items.length < PAGE || (page.total !== undefined && offset + page.items.length >= page.total);
      if (seen.size > MAX_FOLDER_ENTRIES || (!ended && seen.size >= MAX_FOLDER_ENTRIES)) {
        throw new ReadRefused(l10n.t('{0} lists more than {1} entries: the editor reads no more of one folder. Open it in Projects & Files, or Download… it.', path, count(MAX_FOLDER_ENTRIES)));
      }
      if (ended) break;
      if (!fresh) throw new ReadRefused(l10n.t('The platform listed the same entries of {0} again after {1}: its listing is not read further. Try again later.', path, count(seen.size)));
    }
    if (looping.length) this.tell(path, l10n.t('{0} lists {1} inside itself (a loop on the platform): left out there.', path, looping.join(', ')));
    for (const record of all) this.keepEntry(`${path.replace(/\/$/, '')}/${record.name}`, record);
    return all;
  }

  /**
   * The file in a form: its bytes, whole (`file`); the first 1 MB of its text (`head`); a `.gz`'s text (`inflated`;
   * another file's bytes). Kept for the next look while the cache has room; two asking at once read once. A head
   * that held the whole file is kept as the whole file too.
   */
  content(path: string, form: ReadForm, signal?: AbortSignal): Promise<Content> {
    const key = contentKey(form, path);
    const known = this.contents.get(key);
    if (known) return Promise.resolve(known);
    const under = this.reading.get(key);
    if (under) return under;
    const read = (async () => {
      const { entry, range, reader } = await this.opened(path, signal);
      const kind = fileKind(entry.name);
      let content: Content;
      if (form === 'head') content = await reader.head(range, kind, entry.size, signal);
      else if (form === 'inflated' && kind === 'gzipText') {
        content = await reader.inflated(range, WHOLE_LIMIT_BYTES, signal);
        if (content.partial) throw new ReadRefused(l10n.t('{0} decompresses to more than {1}, the most the editor reads of one file. Use Download… to save it.', entry.name, formatSize(WHOLE_LIMIT_BYTES)!));
      } else content = await reader.whole(range, entry.name, signal);
      this.keep(key, content);
      if (form === 'head' && !content.partial) this.keep(contentKey(kind === 'gzipText' ? 'inflated' : 'file', path), content);
      return content;
    })();
    this.reading.set(key, read);
    const done = () => this.reading.get(key) === read && this.reading.delete(key);
    read.then(done, done);
    return read;
  }

  /**
   * Whether a `.gz`'s text is longer than `bound` (Load Whole File asks first then): decompressed only that far. A
   * text within it is kept as the file's `inflated` form, so opening it reads nothing more.
   */
  async inflatesBeyond(path: string, bound: number, signal?: AbortSignal): Promise<boolean> {
    const known = this.contents.get(contentKey('inflated', path));
    if (known) return known.bytes.length > bound;
    const { range, reader } = await this.opened(path, signal);
    const content = await reader.inflated(range, bound, signal);
    if (!content.partial) this.keep(contentKey('inflated', path), content);
    return content.partial;
  }

  /** The size a form of the file has: what was read of it, else the listed size (the head: at most 1 MB). */
  async sizeOf(path: string, form: ReadForm): Promise<number> {
    const read = this.contents.get(contentKey(form, path));
    if (read) return read.bytes.length;
    const size = (await this.entry(path)).size ?? 0;
    return form === 'head' ? Math.min(size, PREVIEW_BYTES) : size;
  }

  /** Forgets everything read (another sign-in, a refresh). */
  forget(): void {
    this.entries.clear();
    this.readAt.clear();
    this.contents.clear();
    this.reading.clear();
    this.told.clear();
  }

  /** A file's record and how its bytes are read (through a signed URL asked for now). */
  private async opened(path: string, signal?: AbortSignal): Promise<{ entry: FileRecord; range: RangeRead; reader: ContentReader }> {
    const entry = await this.entry(path);
    if (entry.type === 'folder' || 'root' in entry) throw new NotFoundError(isAFolder(path));
    const [url, reader] = await Promise.all([this.source.downloadInfo(entry.id, signal), this.source.reader()]);
    return { entry, range: reader.range(url), reader };
  }

  private clockNow(): number {
    return this.options.now?.() ?? 0;
  }

  private keepEntry(path: string, record: FileRecord): void {
    this.entries.set(path, Promise.resolve(record));
    this.readAt.set(path, this.clockNow());
  }

  private dropContent(path: string): void {
    for (const form of ['file', 'head', 'inflated'] as const) this.contents.delete(contentKey(form, path));
  }

  private keep(key: string, content: Content): void {
    this.contents.set(key, content, content.bytes.length);
  }

  private tell(path: string, words: string): void {
    if (this.told.has(path)) return;
    this.told.add(path);
    this.options.onWalkStopped?.(words);
  }

  /** The IDs of the folders a path goes through, its project's root first and itself last. */
  private async chain(path: string): Promise<Set<string>> {
    const place = parseRemotePath(path);
    if (!place) throw new NotFoundError(noProject(path));
    const ids = new Set<string>();
    for (let depth = 0; depth <= place.names.length; depth++) {
      ids.add((await this.entry(formatRemotePath({ project: place.project, names: place.names.slice(0, depth) }))).id.toLowerCase());
    }
    return ids;
  }

  private async find(path: string): Promise<RemoteEntry> {
    const place = parseRemotePath(path);
    if (!place) throw new NotFoundError(noProject(path));
    if (place.names.length > MAX_DEPTH) throw new NotFoundError(l10n.t('{0} goes deeper than {1} folders: it is not followed.', path, MAX_DEPTH));
    if (!place.names.length) {
      const project = await this.source.project(place.project);
      if (!project.root_folder) throw new ApiError({ kind: 'malformed', message: l10n.t('the platform did not give the root folder of {0}', project.id) });
      return { id: project.root_folder, type: 'folder', name: project.name || project.id, project: project.id, root: true, writable: project.permissions?.write !== false };
    }
    const parent = await this.entry(formatRemotePath({ project: place.project, names: place.names.slice(0, -1) }));
    if (parent.type !== 'folder') throw new NotFoundError(notAFolder(parent.name));
    const name = place.names[place.names.length - 1];
    const location: FileLocation = 'root' in parent ? { project: parent.project } : { parent: parent.id };
    const page = await this.source.list(location, { name, limit: 1 });
    const record = page.items.find((r) => r.name === name);
    if (!record) throw new NotFoundError(notThere(path));
    const parentPath = formatRemotePath({ project: place.project, names: place.names.slice(0, -1) });
    if ((await this.chain(parentPath)).has(record.id.toLowerCase())) throw new NotFoundError(l10n.t('{0} is a folder above it again (a loop on the platform): it is not followed.', path));
    return record;
  }
}
