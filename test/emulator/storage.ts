/**
 * The storage provider behind `download_info` and the upload part URLs: a second loopback origin that serves file
 * bytes at signed URLs and takes part uploads, as S3 or GCS would. It knows nothing of the platform's token: a
 * request that carries `X-SBG-Auth-Token` is answered 400 (and counted, so a test can prove the token never reached
 * it). It refuses a bad signature (403 SignatureDoesNotMatch) and an expired URL (403 AccessDenied, "Request has
 * expired"), with S3's XML error body.
 *
 * - `GET` (and `HEAD`): the file's bytes, streamed; `Range` (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answers 206 with
 *   `Content-Range`; every answer carries the file's `ETag`; a file deleted since the URL was signed is 404 NoSuchKey.
 * - `PUT` of an upload part: the body is stored by uploads.ts (on disk), the answer is 200 with an `ETag` of 32 hex
 *   digits, new for each PUT and not the MD5 of the body: S3 gives such ETags to objects encrypted with SSE-KMS or
 *   SSE-C, and no client checks it (platform-api.md §8). Hashing every byte received would spend this machine's CPU on work
 *   a real storage does on its own, and slow both sides of the bench (about 1.3 s of a core per GiB).
 * - Faults, settable while a test runs (`StorageFaults`): a connection dropped in the middle of a body (either way),
 *   a 5xx on a part or a read, every URL signed so far expired at once, a slow link (a cap in bytes per second shared
 *   by every connection), latency before each answer, and a storage that ignores `Range` (every GET a 200 with the
 *   whole file, as some servers and proxies answer).
 *
 * Every request is recorded without its query (the signature), with the body bytes it moved.
 */
import { createHmac, randomBytes } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Blob } from './content';
import { Prng } from './prng';
import { drainedOrClosed } from '../support/drained';

export interface StorageRequest {
  method: string;
  /** the path only: the query holds the signature */
  path: string;
  range?: string;
  /** 0 while a PUT body is still arriving; 499 when the client went away in the middle of it */
  status: number;
  carriedToken: boolean;
  /** body bytes sent (GET) or received (PUT) so far */
  bytes: number;
  /** the connection was cut in the middle of the body (a fault) */
  dropped?: boolean;
}

export interface StorageFaultSettings {
  /** share of GET bodies cut off halfway */
  dropDownloadRate: number;
  /** share of part PUTs cut off halfway through their body */
  dropUploadRate: number;
  /** share of part PUTs answered 503 */
  partErrorRate: number;
  /** share of GETs answered 503 */
  getErrorRate: number;
  /** the link's speed for every connection together, bytes per second; 0: no cap */
  bytesPerSecond: number;
  /** before each answer */
  latencyMs: number;
  /** every GET answered 200 with the whole file, its `Range` ignored */
  ignoreRange: boolean;
}

/** Where part uploads go (uploads.ts): `undefined` when there is no such upload (any more). */
export type PartSink = (uploadId: string, partNumber: number) => PartWriter | undefined;
export interface PartWriter {
  write(chunk: Buffer): Promise<void>;
  /** The body arrived whole: keep it as the part; returns its ETag. */
  finish(): Promise<string>;
  /** The body did not arrive whole: forget it. */
  discard(): Promise<void>;
}

const XML = { 'Content-Type': 'application/xml' };
const xml = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export class StorageFaults {
  readonly settings: StorageFaultSettings;
  private dropDownloads = 0;
  private dropUploads = 0;
  private failParts = 0;
  private failGets = 0;
  private expireAtGet = 0;
  private expireReusedOnly = false;
  private readonly rng: Prng;
  /** Faults injected so far, by kind. */
  readonly injected = { droppedDownloads: 0, droppedUploads: 0, partErrors: 0, getErrors: 0, expiredRefusals: 0, rangesIgnored: 0 };

  constructor(seed: number, initial?: Partial<StorageFaultSettings>) {
    this.rng = new Prng(seed * 31 + 5);
    this.settings = { dropDownloadRate: 0, dropUploadRate: 0, partErrorRate: 0, getErrorRate: 0, bytesPerSecond: 0, latencyMs: 0, ignoreRange: false, ...initial };
  }

  /** The next `count` GET bodies are cut off halfway. */
  dropNextDownloads(count = 1): void {
    this.dropDownloads += count;
  }
  /** The next `count` part PUTs are cut off halfway through their body. */
  dropNextUploads(count = 1): void {
    this.dropUploads += count;
  }
  /** The next `count` part PUTs are answered 503. */
  failNextParts(count = 1): void {
    this.failParts += count;
  }
  /** The next `count` GETs are answered 503. */
  failNextGets(count = 1): void {
    this.failGets += count;
  }
  /**
   * The `nth` GET from now (of those with a URL a GET used before, with `reused`) expires every URL signed so far as
   * it arrives, its own included: an expiry in the middle of a transfer at a point the test knows, whatever the
   * machine's speed.
   */
  expireUrlsAtGet(nth: number, which: { reused?: boolean } = {}): void {
    this.expireAtGet = nth;
    this.expireReusedOnly = which.reused ?? false;
  }

  /** @internal Whether this GET (its URL used by a GET before or not) is the one that expires every URL signed so far. */
  expiresAtThisGet(reused: boolean): boolean {
    if (this.expireAtGet <= 0 || (this.expireReusedOnly && !reused)) return false;
    return --this.expireAtGet === 0;
  }

  /** @internal */
  take(kind: 'dropDownload' | 'dropUpload' | 'failPart' | 'failGet'): boolean {
    const draw = this.rng.next();
    const [counter, rate] = {
      dropDownload: ['dropDownloads', this.settings.dropDownloadRate],
      dropUpload: ['dropUploads', this.settings.dropUploadRate],
      failPart: ['failParts', this.settings.partErrorRate],
      failGet: ['failGets', this.settings.getErrorRate],
    }[kind] as ['dropDownloads' | 'dropUploads' | 'failParts' | 'failGets', number];
    if (this[counter] > 0) {
      this[counter]--;
      return true;
    }
    return draw < rate;
  }
}

/** A cap in bytes per second shared by every connection (a token bucket refilled as time passes). */
class Link {
  private available = 0;
  private last = Date.now();
  constructor(private readonly settings: StorageFaultSettings) {}

  async take(bytes: number): Promise<void> {
    for (;;) {
      const rate = this.settings.bytesPerSecond;
      if (rate <= 0) return;
      const now = Date.now();
      this.available = Math.min(rate, this.available + ((now - this.last) / 1000) * rate);
      this.last = now;
      if (this.available >= Math.min(bytes, rate)) {
        this.available -= bytes;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.max(5, ((Math.min(bytes, rate) - this.available) / rate) * 1000)));
    }
  }
}

export class StorageServer {
  readonly requests: StorageRequest[] = [];
  readonly faults: StorageFaults;
  private readonly secret = randomBytes(16).toString('hex');
  private readonly server: http.Server;
  private readonly link: Link;
  private origin = '';
  /** URLs signed in an earlier generation are expired (`expireIssuedUrls`). */
  private generation = 0;
  /** The signed queries GETs have used (for `expireUrlsAtGet`'s `reused`). */
  private readonly urlsRead = new Set<string>();

  constructor(
    private readonly blob: (id: string) => Blob | undefined,
    private readonly parts: PartSink,
    private readonly now: () => number,
    seed = 1,
    faults?: Partial<StorageFaultSettings>,
    /** how long a signed URL lives */
    public ttlMs = 15 * 60_000,
  ) {
    this.faults = new StorageFaults(seed, faults);
    this.link = new Link(this.faults.settings);
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy());
    });
  }

  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
        resolve(this.origin);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Every URL signed so far is expired from now on (a storage 403 for each of them). */
  expireIssuedUrls(): void {
    this.generation++;
  }

  /** A URL to read a file, valid for `ttlMs`, signed like a pre-signed S3 URL. */
  signedUrl(where: { prefix: string; id: string; name: string }): string {
    return this.sign(`/sbg-main-bucket/${encodeURIComponent(where.prefix)}/${where.id}/${encodeURIComponent(where.name)}`);
  }

  /** A URL to PUT one part of an upload, valid for `ttlMs`; with its expiry (ms). */
  partUrl(uploadId: string, partNumber: number): { url: string; expires: number } {
    const expires = this.now() + this.ttlMs;
    return { url: this.sign(`/sbg-upload-bucket/${uploadId}/${partNumber}`), expires };
  }

  private sign(path: string): string {
    const credential = `emulator/${this.generation}`;
    const expires = Math.floor((this.now() + this.ttlMs) / 1000);
    return `${this.origin}${path}?X-Amz-Credential=${encodeURIComponent(credential)}&X-Amz-Expires=${expires}&X-Amz-Signature=${this.signature(path, credential, expires)}`;
  }

  private signature(path: string, credential: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${credential}\n${expires}`).digest('hex');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
    const record: StorageRequest = { method, path: url.pathname, range, status: 0, carriedToken: req.headers['x-sbg-auth-token'] !== undefined, bytes: 0 };
    this.requests.push(record);
    const answer = (status: number, body: string, headers: Record<string, string> = {}): void => {
      record.status = status;
      req.resume();
      res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
      res.end(method === 'HEAD' ? undefined : body);
    };
    if (this.faults.settings.latencyMs > 0) await new Promise((r) => setTimeout(r, this.faults.settings.latencyMs));
    if (record.carriedToken) return answer(400, xml('InvalidArgument', 'Unsupported header X-SBG-Auth-Token received.'), XML);
    if (method === 'GET') {
      const reused = this.urlsRead.has(url.search);
      this.urlsRead.add(url.search);
      if (this.faults.expiresAtThisGet(reused)) this.expireIssuedUrls();
    }
    const credential = url.searchParams.get('X-Amz-Credential') ?? '';
    const expires = Number(url.searchParams.get('X-Amz-Expires'));
    const signature = url.searchParams.get('X-Amz-Signature') ?? '';
    if (!Number.isFinite(expires) || signature !== this.signature(url.pathname, credential, expires)) {
      return answer(403, xml('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.'), XML);
    }
    const revoked = credential !== `emulator/${this.generation}`;
    if (expires * 1000 < this.now() || revoked) {
      if (revoked) this.faults.injected.expiredRefusals++;
      return answer(403, xml('AccessDenied', 'Request has expired'), XML);
    }
    const segments = url.pathname.split('/');
    if (segments[1] === 'sbg-upload-bucket') {
      if (method !== 'PUT') return answer(405, xml('MethodNotAllowed', 'The specified method is not allowed against this resource.'), XML);
      return this.receivePart(req, record, segments[2] ?? '', Number(segments[3]), answer);
    }
    if (method !== 'GET' && method !== 'HEAD') return answer(405, xml('MethodNotAllowed', 'The specified method is not allowed against this resource.'), XML);
    const blob = this.blob(segments[3] ?? '');
    if (!blob) return answer(404, xml('NoSuchKey', 'The specified key does not exist.'), XML);
    if (method === 'GET' && this.faults.take('failGet')) {
      this.faults.injected.getErrors++;
      return answer(503, xml('SlowDown', 'Please reduce your request rate.'), XML);
    }
    return this.send(res, record, blob, range, method === 'HEAD', answer);
  }

  private async send(
    res: http.ServerResponse,
    record: StorageRequest,
    blob: Blob,
    range: string | undefined,
    head: boolean,
    answer: (status: number, body: string, headers?: Record<string, string>) => void,
  ): Promise<void> {
    const size = blob.size;
    const base = { 'Content-Type': blob.contentType, 'Accept-Ranges': 'bytes', ETag: blob.etag };
    let [start, end, status] = [0, size - 1, 200];
    if (range && this.faults.settings.ignoreRange) this.faults.injected.rangesIgnored++;
    const m = range && !this.faults.settings.ignoreRange ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
    if (m && !(m[1] === '' && m[2] === '')) {
      if (m[1] === '') {
        start = Math.max(0, size - Number(m[2]));
      } else {
        start = Number(m[1]);
        end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
      }
      if (start >= size || start > end) {
        return answer(416, xml('InvalidRange', 'The requested range is not satisfiable.'), { ...XML, 'Content-Range': `bytes */${size}` });
      }
      status = 206;
    }
    const length = size === 0 ? 0 : end - start + 1;
    record.status = status;
    res.writeHead(status, { ...base, 'Content-Length': String(length), ...(status === 206 ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}) });
    if (head || length === 0) {
      res.end();
      return;
    }
    const cutAt = this.faults.take('dropDownload') ? Math.floor(length / 2) : undefined;
    for await (const piece of blob.read(start, end)) {
      let chunk = piece;
      if (cutAt !== undefined && record.bytes + chunk.length > cutAt) chunk = chunk.subarray(0, cutAt - record.bytes);
      await this.link.take(chunk.length);
      if (res.destroyed) return;
      record.bytes += chunk.length;
      // A reader that lets go of the body (its read is bounded) closes the connection: no drain comes then.
      if (!res.write(chunk)) await drainedOrClosed(res);
      if (cutAt !== undefined && record.bytes >= cutAt) {
        this.faults.injected.droppedDownloads++;
        record.dropped = true;
        // Let the bytes written so far leave before the connection is cut, as a proxy dying mid-body would.
        await new Promise((r) => setTimeout(r, 10));
        res.socket?.destroy();
        return;
      }
    }
    res.end();
  }

  private async receivePart(
    req: http.IncomingMessage,
    record: StorageRequest,
    uploadId: string,
    partNumber: number,
    answer: (status: number, body: string, headers?: Record<string, string>) => void,
  ): Promise<void> {
    const writer = this.parts(uploadId, partNumber);
    if (!writer) return answer(404, xml('NoSuchUpload', 'The specified multipart upload does not exist.'), XML);
    const expected = Number(req.headers['content-length']);
    if (!Number.isInteger(expected)) {
      await writer.discard();
      return answer(411, xml('MissingContentLength', 'You must provide the Content-Length HTTP header.'), XML);
    }
    const cutAt = this.faults.take('dropUpload') ? Math.floor(expected / 2) : undefined;
    const fail = cutAt === undefined && this.faults.take('failPart');
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        await this.link.take(chunk.length);
        record.bytes += chunk.length;
        if (cutAt !== undefined && record.bytes >= cutAt) {
          this.faults.injected.droppedUploads++;
          record.dropped = true;
          await writer.discard();
          req.socket.destroy();
          return;
        }
        if (!fail) await writer.write(chunk);
      }
    } catch {
      // The client went away in the middle of the body (nginx's 499: client closed the request).
      record.status = 499;
      await writer.discard();
      return;
    }
    if (fail) {
      this.faults.injected.partErrors++;
      await writer.discard();
      return answer(503, xml('ServiceUnavailable', 'Please reduce your request rate.'), XML);
    }
    if (record.bytes !== expected) {
      await writer.discard();
      return answer(400, xml('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.'), XML);
    }
    const md5 = await writer.finish();
    answer(200, '', { ETag: `"${md5}"` });
  }
}
