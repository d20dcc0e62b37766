import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { systemClock, type Clock } from './clock';
import type * as http from 'http';
import { rangeAnswer, type AskedRange } from './rangeAnswer';
import { unreadableAddress, type RequestLogEntry } from './transport';
import { isLocalError } from '../util/localError';

/**
 * Speaks to the storage provider (S3, GCS) at the signed URLs the platform hands out: `download_info` to read a file,
 * a part URL to write one part of an upload. That is another origin, so a request carries no auth token and no
 * cookie, only what the storage needs; and a URL's query is its signature (a credential while it lives), so it is
 * never logged nor put in an error: only its host and path are. Bodies are streamed both ways, never held whole.
 */

/** The part of a fetch response read here (node-fetch's, or a test double). */
export interface StorageResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  /** The body as a stream of chunks. */
  body: AsyncIterable<Uint8Array> | null;
}
/**
 * A request body: what is piped into the request, telling of its bytes (`data`) and of a failure to read them (`error`):
 * a stream, or a stretch of a local file (an upload part, transfer/fileSpanBody.ts).
 */
export interface StorageBody {
  pipe<T extends NodeJS.WritableStream>(out: T): T;
  on(event: 'data', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
export interface StorageRequestInit {
  method: 'GET' | 'PUT';
  headers: Record<string, string>;
  body?: StorageBody;
  signal: AbortSignal;
}
export type StorageFetch = (url: string, init: StorageRequestInit) => Promise<StorageResponseLike>;

/**
 * One request through Node's http or https (where VS Code applies the user's proxy, as for node-fetch, which sits on
 * the same modules): its body is the response stream itself, so a connection cut in the middle of a body ends the
 * read with an error (node-fetch hands on a copy that would wait instead), and nothing is decompressed (a byte range
 * of a gzip file must arrive as the bytes it is). Redirects are not followed.
 */
export const nodeStorageFetch: StorageFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    // Loaded with the first transfer, not with the extension (as the transport does with node-fetch).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const transport = (target.protocol === 'https:' ? require('https') : require('http')) as typeof http;
    const request = transport.request(target, { method: init.method, headers: init.headers, signal: init.signal }, (response) => {
      resolve({
        status: response.statusCode ?? 0,
        headers: {
          get: (name) => {
            const value = response.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          },
        },
        body: response,
      });
    });
    request.on('error', reject);
    if (!init.body) {
      request.end();
      return;
    }
    init.body.on('error', (error: Error) => request.destroy(error));
    init.body.pipe(request);
  });

export interface StorageOptions {
  fetch?: StorageFetch;
  clock?: Clock;
  onRequest?: (entry: RequestLogEntry) => void;
  /** No byte moving for this long ends the request (a stalled connection). */
  idleTimeoutMs?: number;
}

/** What a storage refusal said: its HTTP status and S3's error code (`AccessDenied`, `NoSuchKey`, …). */
export class StorageError extends ApiError {
  constructor(
    status: number,
    readonly storageCode: string | undefined,
    message: string,
    path: string,
    method: string,
  ) {
    super({ kind: 'http', status, message, method, path });
  }

  /** A 403 is most often a signed URL that expired: a new one may work. */
  get linkRefused(): boolean {
    return this.status === 403;
  }
  /** The object is not there (any more): the file was deleted. */
  get gone(): boolean {
    return this.status === 404 || this.storageCode === 'NoSuchKey' || this.storageCode === 'NoSuchUpload';
  }
}

/**
 * An answer of the storage that is not what was asked (another range, more bytes than it said it holds): it is not
 * used. A reader may ask again; the same answer again means the storage cannot serve that file as asked.
 */
export class StorageAnswerError extends ApiError {
  constructor(message: string, path: string, method: string) {
    super({ kind: 'malformed', message, method, path });
  }
}

/** A response to a read: where its body starts in the file, the file's size, and the body as a stream. */
export interface StorageRead {
  status: number;
  /** The first byte of the body, in the file. */
  start: number;
  /** The file's size, when the storage said. */
  size: number | undefined;
  /** Bytes the body holds, when the storage said. */
  length: number | undefined;
  etag: string | undefined;
  /** The body's chunks; cut short by a dropped connection, it throws a network error. */
  body: AsyncIterable<Buffer>;
}

export class StorageClient {
  private readonly fetch: StorageFetch;
  private readonly clock: Clock;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: StorageOptions = {}) {
    this.fetch = options.fetch ?? nodeStorageFetch;
    this.clock = options.clock ?? systemClock;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  /**
   * Reads the file at a signed URL from `range.start` (to `range.end`, inclusive, or to its end); with `tail`, its
   * last `tail` bytes. Any range is sent as a `Range` header, from byte 0 too. A 206 is checked against what was asked
   * (rangeAnswer.ts) and its body against the length it said: another range, or more bytes, is a StorageAnswerError,
   * fewer a network error. A 200 is the whole file from byte 0 (`status` tells). A 416 (nothing at that offset) is an
   * empty body, not an error.
   */
  async read(url: string, range: AskedRange | undefined, signal?: AbortSignal): Promise<StorageRead> {
    const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
    if (range && 'tail' in range) headers.Range = `bytes=-${Math.max(1, Math.floor(range.tail))}`;
    else if (range) headers.Range = `bytes=${range.start}-${range.end ?? ''}`;
    const request = this.open(url, 'GET', headers, undefined, signal);
    const { response, where, idle, log } = await request;
    if (response.status === 416) {
      idle.stop();
      const size = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
      return { status: 416, start: 0, size: size === undefined ? undefined : Number(size), length: 0, etag: undefined, body: nothing() };
    }
    if (response.status < 200 || response.status >= 300) throw await this.refusal(response, where, 'GET', idle);
    const answer = rangeAnswer(range, response.status, response.headers.get('content-range'), response.headers.get('content-length'));
    if ('wrong' in answer) {
      await this.discard(response, idle);
      const error = new StorageAnswerError(answer.wrong, where, 'GET');
      log(response.status, undefined, error.message);
      throw error;
    }
    return {
      status: response.status,
      start: answer.start,
      size: answer.size,
      length: answer.length,
      etag: response.headers.get('etag') ?? undefined,
      body: this.chunks(response, idle, log, where, 'GET', answer.length),
    };
  }

  /**
   * PUTs one part's bytes, streamed from `body`, to a signed URL; `length` is sent as Content-Length, as a pre-signed
   * PUT requires. Returns the ETag the storage answered, quotes stripped.
   */
  async put(
    url: string,
    body: StorageBody,
    length: number,
    options: { headers?: Record<string, string>; successCodes?: readonly number[]; signal?: AbortSignal } = {},
  ): Promise<string> {
    const { response, where, idle } = await this.open(url, 'PUT', { ...options.headers, 'Content-Length': String(length) }, body, options.signal);
    const ok = options.successCodes?.length ? options.successCodes.includes(response.status) : response.status === 200;
    if (!ok) throw await this.refusal(response, where, 'PUT', idle);
    await drain(response);
    idle.stop();
    const etag = response.headers.get('etag')?.replace(/"/g, '').trim();
    if (!etag) throw new ApiError({ kind: 'malformed', message: l10n.t('the file storage ({0}) accepted a part without an ETag', where), method: 'PUT', path: where });
    return etag;
  }

  private async open(url: string, method: 'GET' | 'PUT', headers: Record<string, string>, body: StorageBody | undefined, signal: AbortSignal | undefined) {
    const where = safeLocation(url);
    if (!/^https?:\/\//i.test(url)) throw new ApiError({ kind: 'malformed', message: l10n.t('the storage address is not a web address ({0})', where) });
    const started = this.clock.now();
    const idle = new IdleTimer(this.clock, this.idleTimeoutMs, signal);
    const log = (status: number | undefined, requestId: string | undefined, error?: string) =>
      this.options.onRequest?.({ method, path: where, status, durationMs: this.clock.now() - started, requestId, attempt: 1, error });
    // A byte of the request body moving counts as life too.
    body?.on('data', () => idle.touch());
    let response: StorageResponseLike;
    try {
      // Only what the storage needs: no X-SBG-Auth-Token, no cookies.
      response = await this.fetch(url, { method, headers: { ...headers, 'User-Agent': 'sevenbridges-vscode' }, body, signal: idle.signal });
    } catch (cause) {
      idle.stop();
      // The body could not be read from this machine's disk (an upload part): the disk's failure, not the network's.
      if (isLocalError(cause)) {
        log(undefined, undefined, cause.message);
        throw cause;
      }
      const error = failure(cause, idle, where, method);
      log(undefined, undefined, error.message);
      throw error;
    }
    log(response.status, response.headers.get('x-amz-request-id') ?? response.headers.get('x-guploader-uploadid') ?? undefined);
    return { response, where, idle, log };
  }

  /** The body's chunks; with `length`, no more than that many bytes are taken (more is an error), nor fewer. */
  private chunks(
    response: StorageResponseLike,
    idle: IdleTimer,
    log: (status: number | undefined, requestId: string | undefined, error?: string) => void,
    where: string,
    method: string,
    length?: number,
  ): AsyncIterable<Buffer> {
    const fail = (cause: unknown) => {
      const error = failure(cause, idle, where, method);
      log(undefined, undefined, error.message);
      return error;
    };
    const count: BodyCount = {
      length,
      tooLong: () => fail(new StorageAnswerError(l10n.t('the file storage sent more than the {0} bytes it said', length ?? 0), where, method)),
      tooShort: (received) => fail(new ApiError({ kind: 'network', message: l10n.t('the file storage ended the answer after {0} of {1} bytes', received, length ?? 0), method, path: where })),
    };
    const body = response.body;
    if (isNodeStream(body)) return { [Symbol.asyncIterator]: () => new StreamChunks(body, idle, fail, count) };
    return otherChunks(body, idle, fail, count);
  }

  /** A body not to be used: its connection is let go (a Node stream destroyed, another drained). */
  private async discard(response: StorageResponseLike, idle: IdleTimer): Promise<void> {
    idle.stop();
    const body = response.body;
    if (isNodeStream(body)) body.destroy();
    else await drain(response).catch(() => undefined);
  }

  private async refusal(response: StorageResponseLike, where: string, method: string, idle: IdleTimer): Promise<StorageError> {
    let text = '';
    try {
      for await (const chunk of response.body ?? []) {
        if (text.length < 4000) text += Buffer.from(chunk).toString('utf8');
      }
    } catch {
      // The refusal's body is only a detail.
    } finally {
      idle.stop();
    }
    // Storage error bodies can repeat the request's signature (S3's SignatureDoesNotMatch does): keep the code only.
    const code = /<Code>([A-Za-z]+)<\/Code>/.exec(text)?.[1];
    const message = code
      ? l10n.t('The file storage answered HTTP {0} ({1}).', response.status, code)
      : l10n.t('The file storage answered HTTP {0}.', response.status);
    return new StorageError(response.status, code, message, where, method);
  }
}

async function* nothing(): AsyncGenerator<Buffer> {}

/** The bytes a body said it holds (when it said), and the errors for a body longer or shorter than that. */
interface BodyCount {
  length: number | undefined;
  tooLong(): ApiError;
  tooShort(received: number): ApiError;
}

/** A body that is not a Node stream (a test's double): its own iterator. */
async function* otherChunks(body: AsyncIterable<Uint8Array> | null, idle: IdleTimer, fail: (cause: unknown) => ApiError, count: BodyCount): AsyncGenerator<Buffer> {
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

function isNodeStream(body: unknown): body is NodeJS.ReadableStream & StreamControl {
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
class StreamChunks implements AsyncIterator<Buffer> {
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

async function drain(response: StorageResponseLike): Promise<void> {
  for await (const chunk of response.body ?? []) void chunk;
}

/**
 * Aborts a request when nothing moved for `ms`, or when the caller's signal aborts. A byte moving only notes the
 * time (a chunk arrives every few microseconds on a fast link): the one timer, when it fires, looks at how long it
 * has been and waits again for the rest if something moved meanwhile.
 */
class IdleTimer {
  private readonly controller = new AbortController();
  private handle: unknown;
  private stopped = false;
  private lastMoved: number;
  timedOut = false;
  readonly signal: AbortSignal;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    readonly caller: AbortSignal | undefined,
  ) {
    this.signal = caller ? AbortSignal.any([caller, this.controller.signal]) : this.controller.signal;
    this.lastMoved = clock.monotonic();
    this.arm(ms);
  }

  touch(): void {
    this.lastMoved = this.clock.monotonic();
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
  }

  private arm(ms: number): void {
    this.handle = this.clock.setTimeout(() => {
      if (this.stopped) return;
      const still = this.clock.monotonic() - this.lastMoved;
      if (still < this.ms) return this.arm(this.ms - still);
      this.timedOut = true;
      this.controller.abort();
    }, ms);
  }
}

function failure(cause: unknown, idle: IdleTimer, where: string, method: string): ApiError {
  if (cause instanceof ApiError) return cause;
  if (idle.caller?.aborted) return new ApiError({ kind: 'cancelled', message: 'Cancelled', method, path: where });
  if (idle.timedOut) return new ApiError({ kind: 'timeout', message: l10n.t('the file storage ({0}) stopped answering', where), method, path: where });
  const code = (cause as { code?: string })?.code;
  const host = where.split('/')[0];
  const message = code
    ? l10n.t({ message: 'cannot reach the file storage {0} ({1})', args: [host, code], comment: ['{1}: a system error code such as ECONNRESET'] })
    : l10n.t('cannot reach the file storage {0} (connection failed)', host);
  return new ApiError({ kind: 'network', message, method, path: where });
}

/** `host/path` of a URL, without its query (the signature) or fragment. */
export function safeLocation(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return unreadableAddress();
  }
}
