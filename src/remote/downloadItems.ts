// What Download… fetches: each file of the files and folders asked for (folders walked to their last file, every
// page), each with its place under the local folder, the remote layout kept (`<folder>/<sub>/<name>`, a task's outputs
// under `<task name>/`). No `vscode`.
import { describeError } from '../api/errors';
import type { FileLocation } from '../api/files';
import type { FileRecord, Page } from '../api/types';
import type { DownloadItem } from '../transfer/download';

export interface ListingSource {
  list(location: FileLocation, page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<FileRecord>>;
  get(id: string, options?: { signal?: AbortSignal }): Promise<FileRecord>;
}

/** A file or folder to download, with what its row knew, and the folder it goes under (`under`, `/`-separated). */
export interface DownloadRef {
  id: string;
  name?: string;
  folder?: boolean;
  size?: number;
  under?: string;
  /** The ID is a project's: all of it, under a folder of its name. */
  wholeProject?: boolean;
}

export interface CollectedItems {
  items: DownloadItem[];
  /** What could not be read (a folder's listing refused, a file gone), with why. */
  problems: { name: string; reason: string }[];
}

const PAGE = 100;

/** A name as a local folder's: the characters no file system takes replaced (a task's name may hold `/`). */
export function localName(name: string): string {
  const printable = [...name].map((c) => (c.charCodeAt(0) < 32 ? '_' : c)).join('');
  const cleaned = printable.replace(/[\\/:*?"<>|]/g, '_').replace(/[. ]+$/, '').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

const join = (under: string | undefined, name: string): string => (under ? `${under}/${name}` : name);

/** Every file under the refs, each once (the first place it is met), folders walked page by page. */
export async function collectItems(source: ListingSource, refs: readonly DownloadRef[], signal?: AbortSignal): Promise<CollectedItems> {
  const items: DownloadItem[] = [];
  const problems: CollectedItems['problems'] = [];
  const seen = new Set<string>();
  const add = (id: string, relativePath: string, size: number | undefined) => {
    if (seen.has(id.toLowerCase())) return;
    seen.add(id.toLowerCase());
    items.push({ fileId: id, relativePath, ...(size !== undefined ? { size } : {}) });
  };
  const walk = async (location: FileLocation, path: string): Promise<void> => {
    for (let offset = 0; ; offset += PAGE) {
      signal?.throwIfAborted();
      const page = await source.list(location, { offset, limit: PAGE, signal });
      for (const record of page.items) {
        if (record.type === 'folder') await walk({ parent: record.id }, join(path, record.name));
        else add(record.id, join(path, record.name), record.size);
      }
      if (page.items.length < PAGE) break;
    }
  };
  for (const ref of refs) {
    signal?.throwIfAborted();
    try {
      if (ref.wholeProject) {
        await walk({ project: ref.id }, join(ref.under, localName(ref.name ?? ref.id)));
        continue;
      }
      let { name, folder, size } = ref;
      if (name === undefined || folder === undefined) {
        const record = await source.get(ref.id, { signal });
        ({ name, size } = record);
        folder = record.type === 'folder';
      }
      if (folder) await walk({ parent: ref.id }, join(ref.under, name));
      else add(ref.id, join(ref.under, name), size);
    } catch (error) {
      if (signal?.aborted) throw error;
      problems.push({ name: ref.name ?? ref.id, reason: describeError(error) });
    }
  }
  return { items, problems };
}

/** Tasks' outputs as refs, each task's under a folder of its name (two tasks of one name: the second's with its ID). */
export function taskOutputRefs(tasks: readonly { task: { name?: string; id: string }; outputs: readonly { id: string; name?: string; folder: boolean }[] }[]): DownloadRef[] {
  const taken = new Set<string>();
  return tasks.flatMap(({ task, outputs }) => {
    let under = localName(task.name || task.id);
    if (taken.has(under.toLowerCase())) under = `${under} (${task.id})`;
    taken.add(under.toLowerCase());
    return outputs.map((o) => ({ id: o.id, ...(o.name ? { name: o.name } : {}), folder: o.folder, under }));
  });
}
