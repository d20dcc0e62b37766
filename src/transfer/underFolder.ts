// The one way the product writes under a folder a person chose (downloads and their `.part` files, Collect Failure
// Logs): every folder between the chosen one and the file is a real folder, made one at a time if missing, never a
// link (a link to a folder elsewhere would take the bytes there); the file itself is opened without following a link
// (`O_NOFOLLOW`), and created with `O_EXCL` where it must be new. The chosen folder itself may be a link: the person
// picked it. No `vscode`.
import { constants, promises as fsp } from 'fs';
import * as path from 'path';
import { localError, type LocalError } from '../util/localError';
import { isInside } from './localFiles';

/** `new`: the file must not exist yet; `replace`: made or emptied; `update`: it exists, written in place. */
export type OpenHow = 'new' | 'replace' | 'update';

/** Not on Windows: there the file is looked at (lstat) before it is opened instead. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const FLAGS: Record<OpenHow, number> = {
  new: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  replace: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
  update: constants.O_RDWR,
};

/** A local error of `code` about `at` (the link or the file in the way, which its words name). */
function refusal(code: 'ELOOP' | 'ENOTDIR' | 'EACCES', at: string): LocalError {
  return localError(Object.assign(new Error(`${code}: ${at}`), { code, at }));
}

/**
 * Why files cannot go into `dir` below `root` without following a link: the first folder between them that is a link
 * (`ELOOP`) or a file (`ENOTDIR`), with its path; undefined when each is a real folder or is missing (to be made).
 */
export async function folderProblem(root: string, dir: string): Promise<{ code: 'ELOOP' | 'ENOTDIR'; path: string } | undefined> {
  for (const folder of between(root, dir)) {
    const stats = await fsp.lstat(folder).catch(() => undefined);
    if (!stats) return undefined;
    if (stats.isSymbolicLink()) return { code: 'ELOOP', path: folder };
    if (!stats.isDirectory()) return { code: 'ENOTDIR', path: folder };
  }
  return undefined;
}

/**
 * Makes the folders from `root` down to `dir` that are missing, one at a time; throws a local error at a link or a
 * file. The chosen folder itself is made too if missing (removed since it was picked, or named by a script), as
 * Collect Failure Logs does.
 */
export async function makeFolders(root: string, dir: string): Promise<void> {
  await fsp.mkdir(root, { recursive: true }).catch((error: unknown) => {
    throw localError(error);
  });
  for (const folder of between(root, dir)) {
    let stats = await fsp.lstat(folder).catch(() => undefined);
    if (!stats) {
      try {
        await fsp.mkdir(folder);
      } catch (error) {
        // Made meanwhile (another range of the same run): looked at below like any other.
        if ((error as { code?: string }).code !== 'EEXIST') throw localError(error);
      }
      stats = await fsp.lstat(folder);
    }
    if (stats.isSymbolicLink()) throw refusal('ELOOP', folder);
    if (!stats.isDirectory()) throw refusal('ENOTDIR', folder);
  }
}

/** Opens `file` (below `root`) for writing as `how` says, its folders made and checked, never through a link. */
export async function openUnder(root: string, file: string, how: OpenHow): Promise<fsp.FileHandle> {
  if (!isInside(root, file)) throw refusal('EACCES', file);
  await makeFolders(root, path.dirname(file));
  if (!NO_FOLLOW && (await fsp.lstat(file).catch(() => undefined))?.isSymbolicLink()) throw refusal('ELOOP', file);
  try {
    return await fsp.open(file, FLAGS[how] | NO_FOLLOW, 0o666);
  } catch (error) {
    throw localError(error);
  }
}

/** Renames a file below `root` to another name there, the folders between checked again (no link put in meanwhile). */
export async function renameUnder(root: string, from: string, to: string): Promise<void> {
  const problem = await folderProblem(root, path.dirname(to));
  if (problem) throw refusal(problem.code, problem.path);
  try {
    await fsp.rename(from, to);
  } catch (error) {
    throw localError(error);
  }
}

/** The folders from the one below `root` down to `dir`, in order; none when `dir` is not below `root`. */
function between(root: string, dir: string): string[] {
  const folders: string[] = [];
  for (let at = path.resolve(dir); isInside(root, at); at = path.dirname(at)) folders.unshift(at);
  return folders;
}
