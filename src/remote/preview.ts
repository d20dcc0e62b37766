// Reading a remote file, each way bounded by what it promises: the file's own bytes, whole (what the file system says
// the file is); the first 1 MB of its text (what a click on a large file opens); a `.gz`'s text decompressed, up to a
// bound. Loaded on first use (dist/features.js), with the storage client. No `vscode`.
import * as l10n from '@vscode/l10n';
import { Readable } from 'stream';
import * as zlib from 'zlib';
import { StorageClient, type StorageOptions, type StorageRead } from '../api/storage';
import { formatSize } from '../util/words';
import { PREVIEW_BYTES, ReadRefused, WHOLE_LIMIT_BYTES, type FileKind } from './fileKinds';

/** Reads the file from a byte, to a byte (inclusive) or to its end. */
export type RangeRead = (range: { start: number; end?: number } | undefined, signal: AbortSignal) => Promise<Pick<StorageRead, 'status' | 'start' | 'size' | 'body'>>;

export interface Content {
  bytes: Buffer;
  /** Only the start of the file (or of its decompressed text) is here. */
  partial: boolean;
  /** Bytes that came from the storage (compressed, for `.gz`). */
  received: number;
}

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

/** The three ways of reading a file, and its bytes by range at a signed URL: what the `sevenbridges:` file system reads with. */
export interface ContentReader {
  head: typeof readHead;
  whole: typeof readWhole;
  inflated: typeof readInflated;
  range(url: string): RangeRead;
}

/** The readers over a storage client. */
export function contentReader(storage: Pick<StorageClient, 'read'>): ContentReader {
  return { head: readHead, whole: readWhole, inflated: readInflated, range: (url) => (range, signal) => storage.read(url, range, signal) };
}

/** The readers over a storage client of these options (the file system asks for them on its first read). */
export function storageContentReader(options: StorageOptions): ContentReader {
  return contentReader(new StorageClient(options));
}
