// The platform's files as the `sevenbridges:` file system reads them: a path to its record (the project's root, then
// one listing narrowed by name per folder), a file's path from its ID (its folders up to the root), a folder's whole
// listing (page by page), and a file's content (its preview, or the whole of it once asked). No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { FileLocation } from '../api/files';
import type { StorageClient } from '../api/storage';
import type { FileRecord, Page, Project } from '../api/types';
import { readContent, fileKind, type Content } from './preview';
import { formatRemotePath, parseRemotePath, type RemotePath } from './remotePath';

/** What the file system reads from the platform. */
export interface RemoteSource {
  list(location: FileLocation, page: { name?: string; offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<FileRecord>>;
  get(id: string, options?: { signal?: AbortSignal }): Promise<FileRecord>;
  project(id: string, signal?: AbortSignal): Promise<Project>;
  downloadInfo(id: string, signal?: AbortSignal): Promise<string>;
  storage: Pick<StorageClient, 'read'>;
}

/** A project's root, as a folder. */
export interface RootRecord {
  id: string;
  type: 'folder';
  name: string;
  project: string;
  root: true;
  size?: undefined;
}

export type RemoteEntry = FileRecord | RootRecord;

const PAGE = 100;
/** Folders walked up from a file to its project's root at most (the platform nests no deeper in practice). */
const MAX_DEPTH = 64;

const notAFolder = (name: string): string => l10n.t('{0} is a file, not a folder', name);

/** Not there: the path names no file (a 404 in words). */
export class NotFoundError extends Error {}

export class RemoteFiles {
  private readonly entries = new Map<string, Promise<RemoteEntry>>();
  private readonly contents = new Map<string, Promise<Content>>();

  constructor(private readonly source: RemoteSource) {}

  /** Keeps what a row already knows, so that opening it reads no listing. */
  remember(path: RemotePath, record: FileRecord): string {
    const key = formatRemotePath(path);
    this.entries.set(key, Promise.resolve(record));
    return key;
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
    // A failure is not kept: the next look tries again.
    found.catch(() => this.entries.get(path) === found && this.entries.delete(path));
    return found;
  }

  /** Everything in a folder (or a project's root), every page. */
  async list(path: string, signal?: AbortSignal): Promise<FileRecord[]> {
    const entry = await this.entry(path);
    if (entry.type !== 'folder') throw new NotFoundError(notAFolder(path));
    const location: FileLocation = 'root' in entry ? { project: entry.project } : { parent: entry.id };
    const all: FileRecord[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.source.list(location, { offset, limit: PAGE, signal });
      all.push(...page.items);
      if (page.items.length < PAGE || (page.total !== undefined && all.length >= page.total)) break;
    }
    for (const record of all) this.entries.set(`${path.replace(/\/$/, '')}/${record.name}`, Promise.resolve(record));
    return all;
  }

  /** What the file shows: its first 1 MB, or all of it (`whole`). Kept until `forget`. */
  content(path: string, whole: boolean, signal?: AbortSignal): Promise<Content> {
    const key = `${whole ? 'whole' : 'start'}:${path}`;
    const known = this.contents.get(key);
    if (known) return known;
    const read = (async () => {
      const entry = await this.entry(path);
      if (entry.type === 'folder') throw new NotFoundError(l10n.t('{0} is a folder', path));
      const url = await this.source.downloadInfo(entry.id, signal);
      return readContent((range, s) => this.source.storage.read(url, range, s), fileKind(entry.name), entry.size, whole, signal);
    })();
    this.contents.set(key, read);
    read.catch(() => this.contents.get(key) === read && this.contents.delete(key));
    return read;
  }

  /** Whether the start of the file shown is not all of it (known once it was read). */
  async isPartial(path: string): Promise<boolean> {
    const known = this.contents.get(`start:${path}`);
    return known ? (await known.catch(() => undefined))?.partial === true : false;
  }

  /** Forgets everything read (another sign-in, a refresh). */
  forget(): void {
    this.entries.clear();
    this.contents.clear();
  }

  private async find(path: string): Promise<RemoteEntry> {
    const place = parseRemotePath(path);
    if (!place) throw new NotFoundError(l10n.t('{0} names no project: a path reads /<owner>/<project>/<folder>/<name>', path));
    if (!place.names.length) {
      const project = await this.source.project(place.project);
      if (!project.root_folder) throw new ApiError({ kind: 'malformed', message: l10n.t('the platform did not give the root folder of {0}', project.id) });
      return { id: project.root_folder, type: 'folder', name: project.name || project.id, project: project.id, root: true };
    }
    const parent = await this.entry(formatRemotePath({ project: place.project, names: place.names.slice(0, -1) }));
    if (parent.type !== 'folder') throw new NotFoundError(notAFolder(parent.name));
    const name = place.names[place.names.length - 1];
    const location: FileLocation = 'root' in parent ? { project: parent.project } : { parent: parent.id };
    const page = await this.source.list(location, { name, limit: 1 });
    const record = page.items.find((r) => r.name === name);
    if (!record) throw new NotFoundError(l10n.t('{0} is not there (it may have been moved or deleted)', path));
    return record;
  }
}
