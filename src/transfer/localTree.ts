// What an upload takes from the local disk: the files and folders given, folders walked whole, each file with its
// version (to tell later whether it changed), the links inside a folder (not followed) and what cannot be uploaded,
// with why. No `vscode`.
import * as l10n from '@vscode/l10n';
import { promises as fsp, type Stats } from 'fs';
import * as path from 'path';
import { describeLocalError } from './localFiles';
import { MAX_UPLOAD_SIZE } from './partPlan';

/**
 * What tells one version of a local file from another. Size and modification time are not enough: a program sets the
 * modification time back as it likes (`cp -p`, `rsync -t`, a restore), so a file rewritten with the same size can
 * look the same. The change time (ctime) cannot be set: any write, or a file put in its place, moves it; a file put in
 * its place (renamed over it) also has another inode.
 */
export interface LocalVersion {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dev: number;
}

export interface LocalFile extends LocalVersion {
  localPath: string;
  /** Where it goes under the destination, `/`-separated (`name`, or `folder/sub/name` for a folder's file). */
  relativePath: string;
}

export interface LocalTree {
  /** Folders to create, `/`-separated relative paths, each after its parent. */
  folders: string[];
  files: LocalFile[];
  /** Links inside a folder, not followed (to a file or a folder): left out, and named in the summary. */
  links: string[];
  refused: { localPath: string; reason: string }[];
}

export function versionOf(stats: Pick<Stats, keyof LocalVersion>): LocalVersion {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, dev: stats.dev };
}

/** Whether two versions are the same file's same bytes, as far as the disk tells (a missing part: not the same). */
export function sameVersion(a: LocalVersion, b: LocalVersion): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.dev === b.dev;
}

/**
 * Lists the given paths (absolute): a file as itself, a folder with everything below it. A path given is taken as it
 * is, a link too (the person chose it); a link inside a folder is not followed, whether to a file or a folder (it may
 * lead anywhere, say to `~/.ssh/id_rsa`): it is left out, and the summary names it.
 */
export async function listLocal(sources: readonly string[]): Promise<LocalTree> {
  const tree: LocalTree = { folders: [], files: [], links: [], refused: [] };
  const walk = async (localPath: string, relativePath: string, stats: Stats): Promise<void> => {
    if (stats.isDirectory()) {
      tree.folders.push(relativePath);
      let names: string[];
      try {
        names = (await fsp.readdir(localPath)).sort();
      } catch (error) {
        tree.refused.push({ localPath, reason: describeLocalError(error, localPath, 'read') });
        return;
      }
      for (const name of names) {
        const child = path.join(localPath, name);
        const entry = await statOf(child, tree, fsp.lstat);
        if (entry?.isSymbolicLink()) tree.links.push(child);
        else if (entry) await walk(child, `${relativePath}/${name}`, entry);
      }
    } else if (stats.isFile()) {
      if (stats.size > MAX_UPLOAD_SIZE) tree.refused.push({ localPath, reason: l10n.t('The file is larger than 5 TiB, the most the platform takes.') });
      else tree.files.push({ localPath, relativePath, ...versionOf(stats) });
    } else {
      tree.refused.push({ localPath, reason: l10n.t('Not a file nor a folder (a device, a socket or a pipe).') });
    }
  };
  for (const source of sources) {
    const stats = await statOf(source, tree, fsp.stat);
    if (stats) await walk(source, path.basename(source), stats);
  }
  return tree;
}

/** A path's stats by `how` (`stat` follows a link, `lstat` does not); undefined (and refused, with why) when unreadable. */
async function statOf(localPath: string, tree: LocalTree, how: (p: string) => Promise<Stats>): Promise<Stats | undefined> {
  try {
    return await how(localPath);
  } catch (error) {
    tree.refused.push({ localPath, reason: describeLocalError(error, localPath, 'read') });
    return undefined;
  }
}
