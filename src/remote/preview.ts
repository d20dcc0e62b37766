// Reading a remote file, each way bounded by what it promises: the file's own bytes, whole (what the file system says
// the file is); the first 1 MB of its text (what a click on a large file opens); a `.gz`'s text decompressed, up to a
// bound. Its kind by name, or by its first bytes. No `vscode`.
import * as l10n from '@vscode/l10n';
import { Readable } from 'stream';
import * as zlib from 'zlib';
import type { StorageRead } from '../api/storage';
import { formatSize } from '../util/words';

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

/** Reads the file from a byte, to a byte (inclusive) or to its end. */
export type RangeRead = (range: { start: number; end?: number } | undefined, signal: AbortSignal) => Promise<Pick<StorageRead, 'status' | 'start' | 'size' | 'body'>>;

export interface Content {
  bytes: Buffer;
  /** Only the start of the file (or of its decompressed text) is here. */
  partial: boolean;
  /** Bytes that came from the storage (compressed, for `.gz`). */
  received: number;
}

/** A read refused rather than cut: the file is larger than the read may hold, or the storage sent other bytes. */
export class ReadRefused extends Error {}

const sizeWords = (bytes: number): string => formatSize(bytes)!;

/**
 * The file's own bytes, whole, or a refusal: larger than `limit` (said before reading when the storage tells the
 * size), or not what the storage said it sent (fewer bytes, or from another offset). Never a cut file.
 */
export async function readWhole(read: RangeRead, name: string, signal?: AbortSignal, limit = WHOLE_LIMIT_BYTES): Promise<Content> {
  return withStop(signal, async (stop) => {
    const answer = await read(undefined, stop);
    if (answer.start !== 0) throw new ReadRefused(l10n.t('The file storage sent {0} from byte {1}, not from its start: nothing was read.', name, answer.start));
    const expected = answer.size;
    if (expected !== undefined && expected > limit) throw tooLarge(name, expected, limit);
    // The size told: one buffer of it, filled as the bytes arrive.
    const whole = expected !== undefined ? Buffer.allocUnsafe(expected) : undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of answer.body) {
      if (received + chunk.length > (expected ?? limit)) {
        throw expected === undefined ? tooLarge(name, undefined, limit) : new ReadRefused(l10n.t('The file storage sent more of {0} than the {1} it said: nothing was kept.', name, sizeWords(expected)));
      }
      if (whole) chunk.copy(whole, received);
      else chunks.push(chunk);
      received += chunk.length;
    }
    if (expected !== undefined && received !== expected) throw new ReadRefused(l10n.t('The file storage sent {0} of the {1} of {2}: nothing was kept. Try again.', sizeWords(received), sizeWords(expected), name));
    return { bytes: whole ?? Buffer.concat(chunks), partial: false, received };
  });
}

/**
 * What opens first: the first 1 MB of the file (its text cut after its last whole line), asked for by one `Range`;
 * a `.gz`'s text decompressed up to 1 MB. Never more is held or read than a chunk past that, whatever the storage
 * sends (one that ignores `Range` answers with the whole file: the reading stops at 1 MB and the connection closes).
 */
export async function readHead(read: RangeRead, kind: FileKind, size: number | undefined, signal?: AbortSignal): Promise<Content> {
  if (kind === 'gzipText') return readInflated(read, PREVIEW_BYTES, signal);
  return withStop(signal, async (stop) => {
    const answer = await read(size !== undefined && size <= PREVIEW_BYTES ? undefined : { start: 0, end: PREVIEW_BYTES - 1 }, stop);
    if (answer.start !== 0) throw new ReadRefused(l10n.t('The file storage sent the file from byte {0}, not from its start: nothing was shown.', answer.start));
    const { kept, received, more } = await upTo(answer.body, PREVIEW_BYTES);
    const partial = more || (answer.size !== undefined && answer.size > kept.length);
    return { bytes: partial && kind === 'text' ? toLastLine(kept) : kept, partial, received };
  });
}

/**
 * A `.gz`'s text, decompressed as it arrives (BGZF's many members too), up to `limit` bytes of text: `partial` when
 * there is more, and the reading stops there (a small file that inflates to gigabytes costs `limit`, no more).
 */
export async function readInflated(read: RangeRead, limit: number, signal?: AbortSignal): Promise<Content> {
  return withStop(signal, async (stop) => {
    const answer = await read(undefined, stop);
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
    try {
      const { kept, more } = await upTo(gunzip as AsyncIterable<Buffer>, limit);
      return { bytes: more ? toLastLine(kept) : kept, partial: more, received };
    } finally {
      // Enough text (or a failure): the rest of the file is not read.
      source.destroy();
      gunzip.destroy();
    }
  });
}

/** The first `limit` bytes of a stream, and whether it had more; stops taking chunks once it knows. */
async function upTo(chunks: AsyncIterable<Buffer>, limit: number): Promise<{ kept: Buffer; received: number; more: boolean }> {
  const kept: Buffer[] = [];
  let held = 0;
  let received = 0;
  for await (const chunk of chunks) {
    received += chunk.length;
    if (held + chunk.length > limit) {
      kept.push(chunk.subarray(0, limit - held));
      // Leaving the loop closes the stream: the connection, or the decompression.
      return { kept: Buffer.concat(kept), received, more: true };
    }
    kept.push(chunk);
    held += chunk.length;
  }
  return { kept: Buffer.concat(kept), received, more: false };
}

/** Runs a read with a signal of its own, aborted when it ends (whatever it left unread stops) or when `signal` is. */
async function withStop<T>(signal: AbortSignal | undefined, run: (stop: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    signal?.removeEventListener('abort', stop);
    controller.abort();
  }
}

/** A file larger than a read may hold: its size when the storage told it, else the bound the reading stopped at. */
export function tooLarge(name: string, size: number | undefined, limit: number): ReadRefused {
  return new ReadRefused(
    size !== undefined
      ? l10n.t('{0} is {1}, more than the {2} the editor reads of one file: nothing was read. Use Download… to save it.', name, sizeWords(size), sizeWords(limit))
      : l10n.t('{0} is more than the {1} the editor reads of one file: the reading stopped there. Use Download… to save it.', name, sizeWords(limit)),
  );
}

/** The bytes up to and including the last line break (all of them when there is none). */
function toLastLine(bytes: Buffer): Buffer {
  const end = bytes.lastIndexOf(0x0a);
  return end >= 0 ? bytes.subarray(0, end + 1) : bytes;
}
