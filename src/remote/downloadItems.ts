// What Download… fetches: each file of the files and folders asked for (folders walked to their last file, every
// page), each with its place under the local folder, the remote layout kept (`<folder>/<sub>/<name>`, a task's outputs
// under `<task name>/`), each name one safe segment (transfer/localFiles.ts). The walk is bounded: a folder met twice
// (a folder listing itself, a cycle) is read once, a listing that repeats itself ends, and the walk stops with words at
// WALK_LIMITS. No `vscode`.
import * as l10n from '@vscode/l10n';
import { describeError } from '../api/errors';
import type { FileLocation } from '../api/files';
import type { FileRecord, Page } from '../api/types';
import type { DownloadItem } from '../transfer/downloadPlan';
import { diskKey, safeName, type NamePlatform } from '../transfer/localFiles';
import { count } from '../util/words';

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
  /** What could not be read (a folder's listing refused, a file gone), or where the walk stopped, with why. */
  problems: { name: string; reason: string }[];
}

export interface CollectOptions {
  signal?: AbortSignal;
  /** Whose names the local ones are (tests pass one in); default this machine's. */
  platform?: NamePlatform;
}

const PAGE = 100;

/**
 * The most one Download… walks: files and folders met, pages of listings read, and folders deep. Far beyond a
 * project's real layout (a task's outputs are a few levels deep; 100,000 files is more than a window can follow),
 * so that only a listing that does not end meets them.
 */
export const WALK_LIMITS = { entries: 100_000, pages: 2_000, depth: 64 };

const join = (under: string | undefined, name: string): string => (under ? `${under}/${name}` : name);

/** Every file under the refs, each once (the first place it is met), folders walked page by page, within WALK_LIMITS. */
export async function collectItems(source: ListingSource, refs: readonly DownloadRef[], options: CollectOptions = {}): Promise<CollectedItems> {
  const { signal, platform } = options;
  const local = (name: string) => safeName(name, platform);
  const items: DownloadItem[] = [];
  const problems: CollectedItems['problems'] = [];
  const seen = new Set<string>();
  const walked = new Set<string>();
  const met = { entries: 0, pages: 0 };
  /** Set once a bound is met: the walk ends there, what was found is kept. */
  let stopped = false;
  const stop = (where: string, reason: string) => {
    problems.push({ name: where, reason });
    stopped = true;
  };
  const add = (id: string, relativePath: string, size: number | undefined) => {
    if (seen.has(id.toLowerCase())) return;
    seen.add(id.toLowerCase());
    items.push({ fileId: id, relativePath, ...(size !== undefined ? { size } : {}) });
  };
  const walk = async (id: string, location: FileLocation, path: string, depth: number): Promise<void> => {
    if (walked.has(id.toLowerCase())) {
      // Asked for twice, or inside another folder asked for: read once, nothing to say. Met below itself: a cycle.
      if (depth > 1) problems.push({ name: path, reason: l10n.t('The folder is met again inside itself: it was read once.') });
      return;
    }
    walked.add(id.toLowerCase());
    if (depth > WALK_LIMITS.depth) {
      problems.push({ name: path, reason: l10n.t('Not read: it is more than {0} folders deep.', WALK_LIMITS.depth) });
      return;
    }
    const listed = new Set<string>();
    for (let offset = 0; !stopped; offset += PAGE) {
      signal?.throwIfAborted();
      if (++met.pages > WALK_LIMITS.pages) {
        return stop(path, l10n.t('Stopped after {0} pages of listings, the most one download reads: download the folders one by one.', count(WALK_LIMITS.pages)));
      }
      const page = await source.list(location, { offset, limit: PAGE, signal });
      let fresh = 0;
      for (const record of page.items) {
        if (listed.has(record.id.toLowerCase())) continue;
        listed.add(record.id.toLowerCase());
        fresh++;
        if (++met.entries > WALK_LIMITS.entries) {
          return stop(path, l10n.t('Stopped after {0} files and folders, the most one download reads: download the folders one by one.', count(WALK_LIMITS.entries)));
        }
        if (record.type === 'folder') await walk(record.id, { parent: record.id }, join(path, local(record.name)), depth + 1);
        else add(record.id, join(path, local(record.name)), record.size);
        if (stopped) return;
      }
      if (page.items.length < PAGE) return;
      // A full page with nothing new: the listing goes round in circles. What it listed is kept.
      if (!fresh) {
        problems.push({ name: path, reason: l10n.t('The platform listed the same files again: the folder was read up to there.') });
        return;
      }
    }
  };
  for (const ref of refs) {
    signal?.throwIfAborted();
    if (stopped) break;
    try {
      if (ref.wholeProject) {
        await walk(ref.id, { project: ref.id }, join(ref.under, local(ref.name ?? ref.id)), 1);
        continue;
      }
      let { name, folder, size } = ref;
      if (name === undefined || folder === undefined) {
        const record = await source.get(ref.id, { signal });
        ({ name, size } = record);
        folder = record.type === 'folder';
      }
      if (folder) await walk(ref.id, { parent: ref.id }, join(ref.under, local(name)), 1);
      else add(ref.id, join(ref.under, local(name)), size);
    } catch (error) {
      if (signal?.aborted) throw error;
      problems.push({ name: ref.name ?? ref.id, reason: describeError(error) });
    }
  }
  return { items, problems };
}

/** Tasks' outputs as refs, each task's under a folder of its name (two tasks of one name: the second's with its ID). */
export function taskOutputRefs(
  tasks: readonly { task: { name?: string; id: string }; outputs: readonly { id: string; name?: string; folder: boolean }[] }[],
  platform?: NamePlatform,
): DownloadRef[] {
  const taken = new Set<string>();
  return tasks.flatMap(({ task, outputs }) => {
    let under = safeName(task.name || task.id, platform);
    if (taken.has(diskKey(under))) under = `${under} (${task.id})`;
    taken.add(diskKey(under));
    return outputs.map((o) => ({ id: o.id, ...(o.name ? { name: o.name } : {}), folder: o.folder, under }));
  });
}
