// What an upload takes from the local disk: the files and folders given, folders walked whole, each file with its
// size and modification time (to tell later whether it changed), and what cannot be uploaded, with why. No `vscode`.
import * as l10n from '@vscode/l10n';
import { promises as fsp, type Stats } from 'fs';
import * as path from 'path';
import { MAX_UPLOAD_SIZE } from './partPlan';

export interface LocalFile {
  localPath: string;
  /** Where it goes under the destination, `/`-separated (`name`, or `folder/sub/name` for a folder's file). */
  relativePath: string;
  size: number;
  mtimeMs: number;
}

export interface LocalTree {
  /** Folders to create, `/`-separated relative paths, each after its parent. */
  folders: string[];
  files: LocalFile[];
  refused: { localPath: string; reason: string }[];
}

/** Lists the given paths (absolute): a file as itself, a folder with everything below it. Links to folders are not followed. */
export async function listLocal(sources: readonly string[]): Promise<LocalTree> {
  const tree: LocalTree = { folders: [], files: [], refused: [] };
  const walk = async (localPath: string, relativePath: string, stats: Stats): Promise<void> => {
    if (stats.isDirectory()) {
      tree.folders.push(relativePath);
      let names: string[];
      try {
        names = (await fsp.readdir(localPath)).sort();
      } catch (error) {
        tree.refused.push({ localPath, reason: l10n.t('Cannot read the folder: {0}', (error as Error).message) });
        return;
      }
      for (const name of names) {
        const child = path.join(localPath, name);
        const entry = await statOf(child, tree);
        if (entry) await walk(child, `${relativePath}/${name}`, entry);
      }
    } else if (stats.isFile()) {
      if (stats.size > MAX_UPLOAD_SIZE) tree.refused.push({ localPath, reason: l10n.t('The file is larger than 5 TiB, the most the platform takes.') });
      else tree.files.push({ localPath, relativePath, size: stats.size, mtimeMs: stats.mtimeMs });
    } else {
      tree.refused.push({ localPath, reason: l10n.t('Not a file nor a folder (a device, a socket or a pipe).') });
    }
  };
  for (const source of sources) {
    const stats = await statOf(source, tree);
    if (stats) await walk(source, path.basename(source), stats);
  }
  return tree;
}

/** A path's stats, a link followed when it leads to a file; undefined (and refused, with why) otherwise. */
async function statOf(localPath: string, tree: LocalTree): Promise<Stats | undefined> {
  try {
    const own = await fsp.lstat(localPath);
    if (!own.isSymbolicLink()) return own;
    const target = await fsp.stat(localPath);
    if (target.isDirectory()) {
      tree.refused.push({ localPath, reason: l10n.t('A link to a folder is not followed.') });
      return undefined;
    }
    return target;
  } catch (error) {
    tree.refused.push({ localPath, reason: cannotRead(error) });
    return undefined;
  }
}

/** Why a local file cannot be read, in words. */
export function cannotRead(error: unknown): string {
  return l10n.t('Cannot read it: {0}', error instanceof Error ? error.message : String(error));
}
