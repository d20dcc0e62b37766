import { EventEmitter } from 'events';
import { promises as fsp, type Stats } from 'fs';
import { localError } from '../util/localError';

/** Bytes read from disk at a time, in each of a body's two buffers. */
export const FILE_BODY_CHUNK = 1024 * 1024;

/**
 * A request body that is a stretch of a local file (an upload part): bytes `start` to `end - 1` of `path`, read into
 * two buffers of FILE_BODY_CHUNK used in turn (one read from disk while the other is written), each written again
 * only once the connection has taken its bytes. So a part costs two buffers whatever its size, and no new buffer a
 * chunk: a stream of the file allocates one a chunk, and the garbage collector then runs a full collection every
 * 64 MB or so (36 of them for a 1 GiB upload, half a second of the process's CPU, measured).
 *
 * Emits `data` after each chunk was written (the chunk is lent for the call only: read its length, keep no
 * reference), and `error` when the file cannot be read or is shorter than the stretch: then a local error
 * (util/localError.ts), so that the disk's failure is not taken for the network's. With `isVersion`, the file opened
 * is checked before a byte is read: another version (`isVersion` false) is a local error of code `ECHANGED`.
 */
export class FileSpanBody extends EventEmitter {
  constructor(
    readonly path: string,
    readonly start: number,
    readonly end: number,
    private readonly chunk = FILE_BODY_CHUNK,
    /** Opens the file for reading (a test may hand in a disk that fails). */
    private readonly open: (path: string) => Promise<ReadableFile> = (p) => fsp.open(p, 'r'),
    /** Whether the file opened is the version meant (its handle's stats): checked before its bytes are read. */
    private readonly isVersion?: (stats: Stats) => boolean,
  ) {
    super();
  }

  get length(): number {
    return this.end - this.start;
  }

  /** Writes the stretch to `out`, then ends it; on a failure, `error` is emitted and `out` destroyed with it. */
  pipe<T extends NodeJS.WritableStream>(out: T): T {
    this.writeTo(out as unknown as WritableLike).then(
      () => out.end(),
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        (out as unknown as WritableLike).destroy?.(failure);
        if (this.listenerCount('error')) this.emit('error', failure);
      },
    );
    return out;
  }

  private async writeTo(out: WritableLike): Promise<void> {
    if (this.length <= 0) return;
    const handle = await this.open(this.path).catch((error: unknown) => {
      throw localError(error);
    });
    try {
      if (this.isVersion && handle.stat) {
        const stats = await handle.stat().catch((error: unknown) => {
          throw localError(error);
        });
        if (!this.isVersion(stats)) throw localError(Object.assign(new Error(`${this.path} is not the version of the file planned`), { code: 'ECHANGED' }));
      }
      const size = Math.min(this.chunk, this.length);
      const buffers = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
      // The write of the buffer not being filled: awaited before the next write (then that buffer is free again).
      let writing: Promise<void> = Promise.resolve();
      for (let at = this.start, turn = 0; at < this.end; turn ^= 1) {
        const buffer = buffers[turn];
        const { bytesRead } = await handle.read(buffer, 0, Math.min(size, this.end - at), at).catch((error: unknown) => {
          throw localError(error);
        });
        if (bytesRead === 0) throw localError(Object.assign(new Error(`${this.path}: the file ended at byte ${at}, before byte ${this.end}`), { code: 'ESHORT' }));
        at += bytesRead;
        await writing;
        writing = written(out, buffer.subarray(0, bytesRead)).then(() => void this.emit('data', buffer.subarray(0, bytesRead)));
        // A failed write is awaited on the next turn (or below); it must not be an unhandled rejection meanwhile.
        writing.catch(() => undefined);
      }
      await writing;
    } finally {
      await handle.close();
    }
  }
}

/** A local file opened for reading, as a body reads it (a FileHandle of `fs/promises`). */
export interface ReadableFile {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
  /** The open file's stats (a disk handed in by a test may have none: then no version is checked). */
  stat?(): Promise<Stats>;
}

/** What is used of the destination: an http.ClientRequest (or any Writable). */
interface WritableLike {
  write(chunk: Buffer, callback: (error?: Error | null) => void): boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
  destroyed?: boolean;
  destroy?(error?: Error): unknown;
}

/** Resolves once `out` has taken `chunk` (its write callback): the buffer may then be filled again. */
function written(out: WritableLike, chunk: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (out.destroyed) return reject(new Error('the connection closed before the body was sent'));
    // A connection closed while a write waits may never call it back.
    const closed = () => reject(new Error('the connection closed before the body was sent'));
    out.once('close', closed);
    out.write(chunk, (error) => {
      out.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}
