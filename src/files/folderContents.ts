// What a folder holds, counted before a question that is about it (Delete… of one folder): its files, the folders
// below it and their bytes, read page by page (`GET /v2/files?parent=`, 100 a request), at most MAX_COUNTED entries.
// No `vscode` import.
import * as l10n from '@vscode/l10n';
import type { FileLocation } from '../api/files';
import type { FileRecord, Page } from '../api/types';
import { count, fileCount, folderCount, formatSize } from '../util/words';

/** Entries read at most to count a folder (10 requests): past that, "more than" is said. */
export const MAX_COUNTED = 1_000;

export interface FolderContents {
  files: number;
  folders: number;
  bytes: number;
  /** False when the count stopped at MAX_COUNTED entries. */
  complete: boolean;
}

export interface ListingPages {
  list(location: FileLocation, page: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<Page<FileRecord>>;
}

/** Counts everything below a folder, folders listed one after another, up to `max` entries. */
export async function folderContents(source: ListingPages, folderId: string, max = MAX_COUNTED, signal?: AbortSignal): Promise<FolderContents> {
  const found: FolderContents = { files: 0, folders: 0, bytes: 0, complete: true };
  const queue = [folderId];
  let read = 0;
  while (queue.length) {
    const parent = queue.shift()!;
    for (let offset = 0; ; ) {
      if (read >= max) return { ...found, complete: false };
      const page = await source.list({ parent }, { offset, limit: 100, signal });
      for (const entry of page.items) {
        if (entry.type === 'folder') {
          found.folders++;
          queue.push(entry.id);
        } else {
          found.files++;
          found.bytes += typeof entry.size === 'number' ? entry.size : 0;
        }
      }
      read += page.items.length;
      offset += page.items.length;
      if (!page.items.length || (page.total !== undefined ? offset >= page.total : page.items.length < 100)) break;
    }
  }
  return found;
}

/** "214 files in 12 folders, 38 GB", "2 files, 2.0 KB", "nothing", "more than 1,000 files and folders". */
export function contentsWords(inside: FolderContents): string {
  if (!inside.complete) return l10n.t('more than {0} files and folders', count(MAX_COUNTED));
  if (!inside.files && !inside.folders) return l10n.t('nothing');
  const files = inside.folders ? l10n.t('{0} in {1}', fileCount(inside.files), folderCount(inside.folders)) : fileCount(inside.files);
  const size = inside.bytes > 0 ? formatSize(inside.bytes) : undefined;
  return size ? `${files}, ${size}` : files;
}
