// Local names and local failures: where a remote file lands under the target folder, the "keep both" name, and what
// a file system error means to a person. No `vscode`.
import * as l10n from '@vscode/l10n';
import * as path from 'path';

/** Suffixes that belong to the extension before them: `sample.vcf.gz` keeps both when renamed. */
const SECOND_SUFFIXES = new Set(['gz', 'bgz', 'bz2', 'xz', 'zst', 'bai', 'crai', 'csi', 'tbi', 'fai', 'idx']);

/**
 * The `n`th "keep both" name: `name (1).ext`, with a compound extension kept whole (`reads (1).fastq.gz`,
 * `sample (1).bam.bai`); a name without an extension, or a dot file, gets ` (n)` at its end.
 */
export function keepBothName(name: string, n: number): string {
  const parts = /^(.+?)((?:\.[A-Za-z0-9]{1,8})?\.([A-Za-z0-9]{1,8}))$/.exec(name);
  if (!parts) return `${name} (${n})`;
  let [, base, extension] = parts;
  const last = parts[3].toLowerCase();
  // Keep two suffixes only when the last is a compression or an index; `my.data.v2.txt` keeps `.txt` alone.
  if (!SECOND_SUFFIXES.has(last) && extension.indexOf('.', 1) > 0) {
    base += extension.slice(0, extension.indexOf('.', 1));
    extension = extension.slice(extension.indexOf('.', 1));
  }
  return `${base} (${n})${extension}`;
}

/**
 * The absolute path of a remote file under the target folder, from its path relative to it (`/`-separated, as the
 * platform lays it out); undefined when that path would leave the folder or names nothing.
 */
export function targetPath(target: string, relative: string): string | undefined {
  const segments = relative.split('/');
  if (!segments.length || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0') || s.includes('\\'))) return undefined;
  const resolved = path.resolve(target, ...segments);
  const inside = path.relative(path.resolve(target), resolved);
  return inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? resolved : undefined;
}

/** A local file system failure in words: what happened to which path. */
export function describeLocalError(error: unknown, where: string): string {
  const code = (error as { code?: string } | undefined)?.code;
  switch (code) {
    case 'ENOSPC':
      return l10n.t('The disk is full: cannot write {0}.', where);
    case 'EDQUOT':
      return l10n.t('The disk quota is used up: cannot write {0}.', where);
    case 'EACCES':
    case 'EPERM':
      return l10n.t('Permission denied: cannot write {0}.', where);
    case 'EROFS':
      return l10n.t('The disk is read-only: cannot write {0}.', where);
    case 'ENOTDIR':
    case 'EEXIST':
      return l10n.t('A file is in the way of the folder for {0}.', where);
    case 'EISDIR':
      return l10n.t('A folder is in the way of {0}.', where);
    case 'ENAMETOOLONG':
      return l10n.t('The path is too long for this system: {0}.', where);
    case 'EINVAL':
      return l10n.t('The name is not allowed on this system: {0}.', where);
    case 'ENOENT':
      return l10n.t('The file or its folder is gone: {0}.', where);
    default:
      return l10n.t('Cannot write {0}: {1}', where, error instanceof Error ? error.message : String(error));
  }
}
