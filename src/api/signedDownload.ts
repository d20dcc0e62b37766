import * as l10n from '@vscode/l10n';
import { StorageClient, StorageError, type StorageOptions } from './storage';

/**
 * A job's log as text, from the signed URL `download_info` gave (through the storage client: no token, the URL's
 * signature never logged): its last part, or the whole of it.
 */

export interface DownloadOptions extends Pick<StorageOptions, 'fetch' | 'onRequest' | 'clock'> {
  signal?: AbortSignal;
}

export interface DownloadedText {
  text: string;
  /** The whole file's size in bytes, when the storage said. */
  size: number | undefined;
  /** Bytes of the file held in `text` (a tail: its last ones). */
  received: number;
  /** True when only the end of the file was received. */
  partial: boolean;
}

/**
 * The last `maxBytes` of the file (HTTP Range), or the whole file when it is smaller. A storage that ignores Range
 * sends the whole file: it is read through, and only its last `maxBytes` are held, never more.
 */
export function downloadTail(url: string, maxBytes: number, options: DownloadOptions = {}): Promise<DownloadedText> {
  return download(url, { tail: maxBytes }, options);
}

export function downloadWhole(url: string, options: DownloadOptions = {}): Promise<DownloadedText> {
  return download(url, undefined, options);
}

async function download(url: string, range: { tail: number } | undefined, options: DownloadOptions): Promise<DownloadedText> {
  const storage = new StorageClient({ fetch: options.fetch, onRequest: options.onRequest, clock: options.clock });
  let read;
  try {
    read = await storage.read(url, range, options.signal);
  } catch (error) {
    if (error instanceof StorageError && error.linkRefused) throw error.with({ message: l10n.t('{0} The link may have expired: open the log again.', error.message) });
    throw error;
  }
  const { bytes, received } = await lastBytes(read.body, range?.tail ?? Infinity);
  const partial = read.start > 0 || received > bytes.length;
  let text = bytes.toString('utf8');
  // A tail starts anywhere, maybe inside a line or a character: start at the next whole line.
  if (partial) {
    const newline = text.indexOf('\n');
    if (newline >= 0) text = text.slice(newline + 1);
  }
  return { text, size: read.status === 416 ? 0 : (read.size ?? received), received: bytes.length, partial };
}

/** The last `limit` bytes of a body, and how many it had: what comes before them is let go as the rest arrives. */
async function lastBytes(body: AsyncIterable<Buffer>, limit: number): Promise<{ bytes: Buffer; received: number }> {
  const chunks: Buffer[] = [];
  let held = 0;
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    chunks.push(chunk);
    held += chunk.length;
    while (chunks.length > 1 && held - chunks[0].length >= limit) held -= chunks.shift()!.length;
  }
  const bytes = Buffer.concat(chunks);
  return { bytes: bytes.length > limit ? bytes.subarray(bytes.length - limit) : bytes, received };
}
