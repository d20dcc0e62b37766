// Local names and places, one rule for all that the product writes under a folder a person chose (downloads, Collect
// Failure Logs): a remote name made a safe local name, where it lands (inside the folder, or refused), when two names
// are one on a case-insensitive disk, the "keep both" name, and what a file system error means to a person. No `vscode`.
import * as l10n from '@vscode/l10n';
import * as path from 'path';

/** The platform whose file names are made: `win32` has rules of its own; every other is POSIX. Tests pass one in. */
export type NamePlatform = NodeJS.Platform;

/** Suffixes that belong to the extension before them: `sample.vcf.gz` keeps both when renamed. */
const SECOND_SUFFIXES = new Set(['gz', 'bgz', 'bz2', 'xz', 'zst', 'bai', 'crai', 'csi', 'tbi', 'fai', 'idx']);

/** Control characters: legal in a POSIX name, refused by Windows, and a trap in a terminal everywhere. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
/** What Windows refuses in a name: its separators, `:` (which would name an NTFS stream: `a.txt:stream`) and wildcards. */
const WINDOWS_RESERVED = /[<>:"/\\|?*]/g;
/** Names Windows keeps for devices, whatever extension follows: `CON`, `aux.txt`, `com1.log`, `NUL .tar.gz`. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)\s*(\..*)?$/i;
/** The longest name most file systems take (ext4, APFS: bytes of UTF-8). */
const MAX_NAME_BYTES = 255;

/**
 * A name made safe as one segment of a local path on `platform`: control characters and `/` become `_` everywhere; on
 * Windows also `<>:"\|?*`, trailing dots and spaces are dropped (Windows drops them itself, so `a.` would be `a`) and
 * a device name gets a `_` before it (`_CON`, `_aux.txt`); cut to 255 bytes. Nothing else changes: `..notes.txt`,
 * `...` and `a:b` (on Linux and macOS) are names like any other. `fallback` stands for a name left empty, `.` or `..`.
 */
export function safeName(name: string, platform: NamePlatform = process.platform, fallback = '_'): string {
  let out = name.replace(CONTROL, '_').replace(/\//g, '_');
  if (platform === 'win32') out = out.replace(WINDOWS_RESERVED, '_');
  out = cutToBytes(out, MAX_NAME_BYTES);
  if (platform === 'win32') {
    out = out.replace(/[. ]+$/, '');
    if (WINDOWS_DEVICE.test(out)) out = `_${out}`;
  }
  return out === '' || out === '.' || out === '..' ? fallback : out;
}

/** The longest start of `text` of at most `bytes` bytes of UTF-8, whole characters only. */
function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > bytes) break;
    out += char;
  }
  return out;
}

const pathOf = (platform: NamePlatform): path.PlatformPath => (platform === 'win32' ? path.win32 : path.posix);

/**
 * The absolute path of a remote file under the target folder, from its path relative to it (`/`-separated, as the
 * platform lays it out), each segment made a safe name (`safeName`); undefined when a segment is empty, `.` or `..`,
 * or the path would leave the folder.
 */
export function targetPath(target: string, relative: string, platform: NamePlatform = process.platform): string | undefined {
  const segments = relative.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  const resolved = pathOf(platform).resolve(target, ...segments.map((s) => safeName(s, platform)));
  return isInside(target, resolved, platform) ? resolved : undefined;
}

/** Whether `file` is below `folder` (not the folder itself), by whole path segments: `..notes.txt` is inside. */
export function isInside(folder: string, file: string, platform: NamePlatform = process.platform): boolean {
  const p = pathOf(platform);
  const relative = p.relative(p.resolve(folder), p.resolve(file));
  return relative !== '' && !p.isAbsolute(relative) && relative.split(p.sep)[0] !== '..';
}

/**
 * What tells two local paths apart on the disks people use: case-insensitive ones (Windows, macOS by default) take
 * `Sample.VCF` and `sample.vcf` as one file, and macOS takes a name's composed and decomposed accents as one. Two
 * paths with the same key are planned as one place, whatever this disk is: a run's names then never collide, and a
 * folder copied to another disk keeps them apart.
 */
export function diskKey(file: string): string {
  return file.normalize('NFC').toLowerCase();
}

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

/** A local file system failure in words: what happened to which path, writing it (the default) or reading it. */
export function describeLocalError(error: unknown, where: string, doing: 'write' | 'read' = 'write'): string {
  const code = (error as { code?: string } | undefined)?.code;
  const reading = doing === 'read';
  switch (code) {
    case 'ENOSPC':
      return l10n.t('The disk is full: cannot write {0}.', where);
    case 'EDQUOT':
      return l10n.t('The disk quota is used up: cannot write {0}.', where);
    case 'EACCES':
    case 'EPERM':
      return reading ? l10n.t('Permission denied: cannot read {0}.', where) : l10n.t('Permission denied: cannot write {0}.', where);
    case 'EROFS':
      return l10n.t('The disk is read-only: cannot write {0}.', where);
    case 'EIO':
      return reading
        ? l10n.t('The disk failed while reading {0} (an input/output error). Check the disk, then try again.', where)
        : l10n.t('The disk failed while writing {0} (an input/output error). Check the disk, then try again.', where);
    case 'ELOOP':
      return l10n.t('{0} is a link: nothing is written through a link the extension did not make. Remove the link or choose another folder.', (error as { at?: string }).at ?? where);
    case 'ENOTDIR':
      return l10n.t('A file is in the way of the folder for {0}.', where);
    case 'EEXIST':
      return l10n.t('Something else is already at {0}: it was left as it is.', where);
    case 'EISDIR':
      return l10n.t('A folder is in the way of {0}.', where);
    case 'ENAMETOOLONG':
      return l10n.t('The path is too long for this system: {0}.', where);
    case 'EINVAL':
      return l10n.t('The name is not allowed on this system: {0}.', where);
    case 'ENOENT':
      return reading ? l10n.t('The file is no longer there: {0}. It was moved or deleted.', where) : l10n.t('The file or its folder is gone: {0}.', where);
    default:
      return reading
        ? l10n.t('Cannot read {0}: {1}', where, error instanceof Error ? error.message : String(error))
        : l10n.t('Cannot write {0}: {1}', where, error instanceof Error ? error.message : String(error));
  }
}
