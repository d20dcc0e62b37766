import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { systemClock, type Clock } from './clock';
import { rangeAnswer, type AskedRange } from './rangeAnswer';
import { unreadableAddress, type RequestLogEntry } from './transport';
import { isLocalError } from '../util/localError';
import { IdleTimer } from './idleTimer';
import { drain, isNodeStream, nothing, otherChunks, StreamChunks, type BodyCount } from './storageChunks';
import { nodeStorageFetch, type StorageBody, type StorageFetch, type StorageResponseLike } from './storageFetch';

/**
 * Speaks to the storage provider (S3, GCS) at the signed URLs the platform hands out: `download_info` to read a file,
 * a part URL to write one part of an upload. That is another origin, so a request carries no auth token and no
 * cookie, only what the storage needs; and a URL's query is its signature (a credential while it lives), so it is
 * never logged nor put in an error: only its host and path are. Bodies are streamed both ways, never held whole.
 */

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
