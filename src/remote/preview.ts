// What opening a remote file shows: its kind by name, and how much of it is read (the first 1 MB, or the whole file
// after a question beyond 50 MB), `.gz` text decompressed up to the same limits. No `vscode`.
import * as l10n from '@vscode/l10n';
import { Readable } from 'stream';
import * as zlib from 'zlib';
import type { StorageRead } from '../api/storage';

/** A text file up to this size opens whole; a larger one opens this much of its start. */
export const PREVIEW_BYTES = 1024 * 1024;
/** Loading a whole file larger than this asks first. */
export const ASK_BEYOND_BYTES = 50 * 1024 * 1024;

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

/** Whether opening it whole (`whole`) asks first: beyond 50 MB. */
export function asksBeforeWhole(size: number | undefined): boolean {
  return size !== undefined && size > ASK_BEYOND_BYTES;
}

/** Reads the file from a byte, to a byte (inclusive) or to its end. */
export type RangeRead = (range: { start: number; end?: number } | undefined, signal: AbortSignal) => Promise<Pick<StorageRead, 'status' | 'size' | 'body'>>;

export interface Content {
  bytes: Buffer;
  /** Only the start of the file (or of its decompressed text) is here. */
  partial: boolean;
  /** Bytes that came from the storage (compressed, for `.gz`). */
  received: number;
}

/**
 * The bytes to show: the whole file, or its first 1 MB (cut after its last whole line for text). `.gz` text is
 * decompressed as it arrives, and the reading stops once 1 MB of text is there. An image is read whole.
 */
export async function readContent(read: RangeRead, kind: FileKind, size: number | undefined, whole: boolean, signal?: AbortSignal): Promise<Content> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    if (kind === 'gzipText') return await gunzipped(read, whole ? Infinity : PREVIEW_BYTES, controller);
    const partial = !whole && kind !== 'image' && (size === undefined || size > PREVIEW_BYTES);
    const answer = await read(partial ? { start: 0, end: PREVIEW_BYTES - 1 } : undefined, controller.signal);
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of answer.body) {
      chunks.push(chunk);
      received += chunk.length;
    }
    const bytes = Buffer.concat(chunks);
    // A storage that ignores Range sends it all; a small file is whole anyway.
    const cut = partial && (answer.size ?? received) > received;
    return { bytes: cut && kind === 'text' ? toLastLine(bytes) : bytes, partial: cut, received };
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

async function gunzipped(read: RangeRead, limit: number, controller: AbortController): Promise<Content> {
  const answer = await read(undefined, controller.signal);
  let received = 0;
  const source = Readable.from(
    (async function* () {
      for await (const chunk of answer.body) {
        received += chunk.length;
        yield chunk;
      }
    })(),
  );
  const gunzip = zlib.createGunzip();
  // A failure of the reading (a cut connection) ends the text too; pipe() keeps to the pace of the reading.
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  const out: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      out.push(chunk);
      length += chunk.length;
      if (length >= limit) return { bytes: toLastLine(Buffer.concat(out).subarray(0, limit)), partial: true, received };
    }
    return { bytes: Buffer.concat(out), partial: false, received };
  } finally {
    // Enough text (or a failure): the rest of the file is not read.
    controller.abort();
    source.destroy();
  }
}

/** The bytes up to and including the last line break (all of them when there is none). */
function toLastLine(bytes: Buffer): Buffer {
  const end = bytes.lastIndexOf(0x0a);
  return end >= 0 ? bytes.subarray(0, end + 1) : bytes;
}
