// A storage provider in memory for the engines' unit tests: files by ID behind signed-looking URLs, `Range`, ETags,
// and faults on order (a body cut after some bytes, a status, a URL that expired, a body that never ends).
import { ApiError } from '../../../src/api/errors';
import { StorageError, type StorageClient, type StorageRead } from '../../../src/api/storage';

export class FakeStorage implements Pick<StorageClient, 'read'> {
  readonly files = new Map<string, { bytes: Buffer; etag: string }>();
  /** Every read: the file, the range asked for, and what came of it. */
  readonly reads: { fileId: string; start: number; end: number | undefined; outcome: string }[] = [];
  /** download_info calls, by file. */
  readonly infos: string[] = [];
  private readonly version = new Map<string, number>();
  private readonly faults: ({ kind: 'cut'; after: number } | { kind: 'status'; status: number; code: string } | { kind: 'hang' })[] = [];
  /** Bytes sent in bodies. */
  bytesSent = 0;
  /** Called for each chunk sent, with its length (a test moves its clock: time passes as bytes flow). */
  onChunk: (bytes: number) => void = () => undefined;
  /** The size of a body's chunks (a socket's reads). */
  chunkBytes = 64 * 1024;

  add(fileId: string, bytes: Buffer): void {
    this.files.set(fileId, { bytes, etag: `"etag-${fileId}-${bytes.length}"` });
  }

  /** `GET download_info`: a URL for the file's current version; a deleted file is a 404. */
  downloadInfo = async (fileId: string): Promise<string> => {
    this.infos.push(fileId);
    if (!this.files.has(fileId)) throw new ApiError({ kind: 'http', status: 404, code: 5002, message: 'Requested file does not exist.' });
    return `https://bucket.example/${fileId}?v=${this.version.get(fileId) ?? 0}&X-Amz-Signature=secret`;
  };

  /** Every URL handed out so far for the file is refused from now on (403, expired). */
  expire(fileId: string): void {
    this.version.set(fileId, (this.version.get(fileId) ?? 0) + 1);
  }

  /** The next read's body is cut after `after` bytes. */
  cutNext(after: number): void {
    this.faults.push({ kind: 'cut', after });
  }
  /** The next read is answered with this status. */
  failNext(status: number, code = 'SlowDown'): void {
    this.faults.push({ kind: 'status', status, code });
  }
  /** The next read's body sends nothing more after its first chunk until the request is aborted. */
  hangNext(): void {
    this.faults.push({ kind: 'hang' });
  }

  async read(url: string, range: { start: number; end?: number } | { tail: number } | undefined, signal?: AbortSignal): Promise<StorageRead> {
    const parsed = new URL(url);
    const fileId = parsed.pathname.slice(1);
    const start = range && 'start' in range ? range.start : 0;
    const end = range && 'start' in range ? range.end : undefined;
    const log = { fileId, start, end, outcome: 'ok' };
    this.reads.push(log);
    const file = this.files.get(fileId);
    if (!file) {
      log.outcome = '404';
      throw new StorageError(404, 'NoSuchKey', 'The file storage answered HTTP 404 (NoSuchKey).', parsed.host + parsed.pathname, 'GET');
    }
    if (Number(parsed.searchParams.get('v')) !== (this.version.get(fileId) ?? 0)) {
      log.outcome = 'expired';
      throw new StorageError(403, 'AccessDenied', 'The file storage answered HTTP 403 (AccessDenied).', parsed.host + parsed.pathname, 'GET');
    }
    const fault = this.faults.shift();
    if (fault?.kind === 'status') {
      log.outcome = String(fault.status);
      throw new StorageError(fault.status, fault.code, `The file storage answered HTTP ${fault.status} (${fault.code}).`, parsed.host + parsed.pathname, 'GET');
    }
    const last = Math.min(file.bytes.length - 1, end ?? Infinity);
    if (start >= file.bytes.length && file.bytes.length > 0) return { status: 416, start: 0, size: file.bytes.length, length: 0, etag: undefined, body: (async function* () {})() };
    const slice = file.bytes.subarray(start, last + 1);
    const sent = (bytes: number) => {
      this.bytesSent += bytes;
      this.onChunk(bytes);
    };
    const { chunkBytes } = this;
    async function* body(): AsyncGenerator<Buffer> {
      for (let at = 0; at < slice.length; at += chunkBytes) {
        if (signal?.aborted) throw new ApiError({ kind: 'cancelled', message: 'Cancelled' });
        let chunk = slice.subarray(at, at + chunkBytes);
        if (fault?.kind === 'cut' && at + chunk.length > fault.after) {
          chunk = chunk.subarray(0, fault.after - at);
          sent(chunk.length);
          if (chunk.length) yield chunk;
          log.outcome = `cut after ${fault.after}`;
          throw new ApiError({ kind: 'network', message: 'cannot reach the file storage bucket.example (ECONNRESET)' });
        }
        sent(chunk.length);
        yield chunk;
        await new Promise((r) => setImmediate(r));
        if (fault?.kind === 'hang') {
          log.outcome = 'hung';
          await new Promise<void>((_, reject) => signal?.addEventListener('abort', () => reject(new ApiError({ kind: 'cancelled', message: 'Cancelled' })), { once: true }));
        }
      }
    }
    return { status: range ? 206 : 200, start, size: file.bytes.length, length: slice.length, etag: file.etag, body: body() };
  }
}

/** Deterministic bytes of a given length. */
export function bytesOf(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let x = seed * 2654435761;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
