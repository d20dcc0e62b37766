// A storage answer's body, taken chunk by chunk as it arrives: from a Node stream paused while a chunk waits (its
// next bytes left in the socket), or from any other iterable (a test's double); never more bytes than the answer said
// it holds, nor fewer; each chunk keeps the request's idle timer alive. storage.ts reads its answers through it.
import type { ApiError } from './errors';
import type { IdleTimer } from './idleTimer';
import type { StorageResponseLike } from './storageFetch';

/** An empty body (a 416: nothing at that offset). */
export async function* nothing(): AsyncGenerator<Buffer> {}

/** The bytes a body said it holds (when it said), and the errors for a body longer or shorter than that. */
export interface BodyCount {
  length: number | undefined;
  tooLong(): ApiError;
  tooShort(received: number): ApiError;
}

/** A body that is not a Node stream (a test's double): its own iterator. */
export async function* otherChunks(body: AsyncIterable<Uint8Array> | null, idle: IdleTimer, fail: (cause: unknown) => ApiError, count: BodyCount): AsyncGenerator<Buffer> {
  let received = 0;
  try {
    for await (const chunk of body ?? []) {
      idle.touch();
      received += chunk.length;
      if (count.length !== undefined && received > count.length) throw count.tooLong();
      yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    }
  } catch (cause) {
    throw fail(cause);
  } finally {
    idle.stop();
  }
  if (count.length !== undefined && received < count.length) throw count.tooShort(received);
}

interface StreamControl {
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

export function isNodeStream(body: unknown): body is NodeJS.ReadableStream & StreamControl {
  const stream = body as Partial<StreamControl & { on: unknown }> | null;
  return !!stream && typeof stream.on === 'function' && typeof stream.pause === 'function' && typeof stream.destroy === 'function';
}

/**
 * The chunks of a Node stream (the response itself), each as it arrived, by its 'data' events. While a chunk waits
 * to be taken, the stream is paused: what comes next waits in the socket's buffer, in the kernel, not in chunks
 * held here. A chunk held a while outlives the young generation and then only a full collection frees it: for
 * 1 GiB at loopback speed, the stream's own async iterator (which also joins the chunks that waited into one new
 * buffer) costs twice the CPU, most of it the collector's. Ended early (a `break`, a throw in the loop), it
 * destroys the stream, as that iterator does. A cut connection ends it with an error once the chunks received
 * before are taken.
 */
export class StreamChunks implements AsyncIterator<Buffer> {
  private readonly queue: Buffer[] = [];
  private head = 0;
  private received = 0;
  private paused = false;
  private ended = false;
  private error: ApiError | undefined;
  private waiting: { resolve(result: IteratorResult<Buffer>): void; reject(error: unknown): void } | undefined;
  private readonly onData = (chunk: Buffer | Uint8Array | string) => {
    this.idle.touch();
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    this.received += buffer.length;
    if (this.count.length !== undefined && this.received > this.count.length) {
      this.finish(this.count.tooLong());
      this.stream.destroy();
      return;
    }
    if (this.waiting) return this.settle({ value: buffer, done: false });
    this.queue.push(buffer);
    if (!this.paused) {
      this.paused = true;
      this.stream.pause();
    }
  };
  private readonly onEnd = () => this.finish(this.count.length !== undefined && this.received < this.count.length ? this.count.tooShort(this.received) : undefined);
  private readonly onError = (cause: unknown) => this.finish(this.fail(cause));
  private readonly onClose = () => {
    if (!this.ended) this.finish(this.fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
  };

  constructor(
    private readonly stream: NodeJS.ReadableStream & StreamControl,
    private readonly idle: IdleTimer,
    private readonly fail: (cause: unknown) => ApiError,
    private readonly count: BodyCount,
  ) {
    stream.on('data', this.onData);
    stream.on('end', this.onEnd);
    stream.on('error', this.onError);
    stream.on('close', this.onClose);
  }

  next(): Promise<IteratorResult<Buffer>> {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head];
      this.queue[this.head++] = undefined as never;
      if (this.head === this.queue.length) {
        [this.queue.length, this.head] = [0, 0];
        if (this.paused && !this.ended) {
          this.paused = false;
          this.stream.resume();
        }
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.error) return Promise.reject(this.error);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<Buffer>> {
    if (!this.ended) {
      this.finish();
      this.stream.destroy();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  private settle(result: IteratorResult<Buffer>, error?: ApiError): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (error) waiting?.reject(error);
    else waiting?.resolve(result);
  }

  private finish(error?: ApiError): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.idle.stop();
    this.stream.removeListener('data', this.onData);
    this.stream.removeListener('end', this.onEnd);
    this.stream.removeListener('close', this.onClose);
    // An error after the end (a socket torn down) must not go unhandled.
    this.stream.removeListener('error', this.onError);
    this.stream.on('error', () => undefined);
    if (this.waiting) this.settle({ value: undefined, done: true }, error);
  }
}

/** Reads a body to its end, its bytes dropped (its connection let go). */
export async function drain(response: StorageResponseLike): Promise<void> {
  for await (const chunk of response.body ?? []) void chunk;
}
