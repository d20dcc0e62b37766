// What a remote file is, by its name or its first bytes, and how much of it the editor reads: what opening a file
// decides before any byte is read (dist/main.js). The reading itself is preview.ts, loaded on first use. No `vscode`.
import * as l10n from '@vscode/l10n';

/** A text file up to this size opens whole; a larger one opens this much of its start. */
export const PREVIEW_BYTES = 1024 * 1024;
/** Loading a whole file larger than this asks first (a `.gz`: its text). */
export const ASK_BEYOND_BYTES = 50 * 1024 * 1024;
/**
 * The most of one file read into memory (a file read whole, a `.gz`'s text): beyond it a read is refused, never cut.
 * VS Code itself asks before opening a file over 1 GB on the desktop.
 */
export const WHOLE_LIMIT_BYTES = 1024 * 1024 * 1024;

export type FileKind = 'text' | 'gzipText' | 'image' | 'binary';

const IMAGES = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp', 'svg', 'ico']);
const bigWig = (): string => l10n.t('a bigWig file');
const hdf5 = (): string => l10n.t('an HDF5 file');
const tarball = (): string => l10n.t('a compressed tar archive');

/** Binary formats of the field (and common archives), with what they are. */
const BINARIES: Record<string, () => string> = {
  bam: () => l10n.t('a BAM alignment file'),
  cram: () => l10n.t('a CRAM alignment file'),
  bai: () => l10n.t('a BAM index'),
  crai: () => l10n.t('a CRAM index'),
  csi: () => l10n.t('a coordinate-sorted index'),
  tbi: () => l10n.t('a tabix index'),
  bcf: () => l10n.t('a BCF variant file'),
  sra: () => l10n.t('an SRA archive'),
  bw: bigWig,
  bigwig: bigWig,
  bb: () => l10n.t('a bigBed file'),
  h5: hdf5,
  hdf5,
  rds: () => l10n.t('an R data file'),
  pdf: () => l10n.t('a PDF document'),
  zip: () => l10n.t('a zip archive'),
  tar: () => l10n.t('a tar archive'),
  tgz: tarball,
  bz2: () => l10n.t('a bzip2-compressed file'),
  xz: () => l10n.t('an xz-compressed file'),
  '2bit': () => l10n.t('a 2bit sequence file'),
};

const extension = (name: string): string => /\.([^.]+)$/.exec(name.toLowerCase())?.[1] ?? '';

/** How a file opens, by its name: text, gzipped text (decompressed), an image (the image preview), or binary. */
export function fileKind(name: string): FileKind {
  const ext = extension(name);
  if (ext === 'gz' || ext === 'bgz') return name.toLowerCase().endsWith('.tar.gz') ? 'binary' : 'gzipText';
  if (IMAGES.has(ext)) return 'image';
  return ext in BINARIES ? 'binary' : 'text';
}

/** What a binary file is, in words ("a BAM alignment file"). */
export function binaryWhat(name: string): string {
  const ext = extension(name);
  return BINARIES[ext]?.() ?? (name.toLowerCase().endsWith('.tar.gz') ? tarball() : l10n.t('a binary file'));
}

/** The name a decompressed `.gz` shows under, so that its language is the inner file's (`a.vcf.gz` → `a.vcf`). */
export function shownName(name: string): string {
  return fileKind(name) === 'gzipText' ? name.replace(/\.b?gz$/i, '') : name;
}

/** Bytes VS Code looks at to tell a binary file (its `ZERO_BYTE_DETECTION_BUFFER_MAX_LEN`). */
const SNIFF_BYTES = 512;

/**
 * Whether the start of a file is binary, as VS Code tells it: a zero byte in its first 512 bytes, unless the zero
 * bytes fall as UTF-16's do (every other byte) or it starts with UTF-16's byte order mark. Such a file does not open
 * as text ("File seems to be binary").
 */
export function seemsBinary(start: Uint8Array): boolean {
  if ((start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff)) return false;
  let zero = false;
  let utf16le = true;
  let utf16be = true;
  for (let i = 0; i < Math.min(start.length, SNIFF_BYTES); i++) {
    const isZero = start[i] === 0;
    const odd = i % 2 === 1;
    zero ||= isZero;
    if (odd !== isZero) utf16le = false;
    if (odd === isZero) utf16be = false;
  }
  return zero && !utf16le && !utf16be;
}

/** Whether opening it whole asks first: beyond 50 MB. */
export function asksBeforeWhole(size: number | undefined): boolean {
  return size !== undefined && size > ASK_BEYOND_BYTES;
}

/** A read refused rather than cut: the file is larger than the read may hold, or the storage sent other bytes. */
export class ReadRefused extends Error {}
