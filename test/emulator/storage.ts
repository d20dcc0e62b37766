/**
 * The storage provider behind `download_info`: a second loopback origin that serves file bytes at signed URLs,
 * as S3 or GCS would. It knows nothing of the platform's token: a request that carries `X-SBG-Auth-Token` is
 * answered 400 (and counted, so a test can prove the token never reached it). It honours `Range` (206 with
 * `Content-Range`; `bytes=a-b`, `bytes=a-`, `bytes=-n`), refuses a bad or expired signature with 403, and
 * records every request it saw without its query (the signature).
 */
import { createHmac, randomBytes } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { LogFile } from './execution';

export interface StorageRequest {
  method: string;
  /** the path only: the query holds the signature */
  path: string;
  range?: string;
  status: number;
  carriedToken: boolean;
}

export class StorageServer {
  readonly requests: StorageRequest[] = [];
  private readonly secret = randomBytes(16).toString('hex');
  private readonly server: http.Server;
  private origin = '';

  constructor(
    private readonly blob: (id: string) => LogFile | undefined,
    private readonly now: () => number,
    private readonly ttlMs = 15 * 60_000,
  ) {
    this.server = http.createServer((req, res) => this.handle(req, res));
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

  /** A URL valid for `ttlMs`, signed like a pre-signed S3 URL. */
  signedUrl(file: LogFile): string {
    const expires = Math.floor((this.now() + this.ttlMs) / 1000);
    const path = `/sbg-main-bucket/${file.taskId}/${file.id}/${encodeURIComponent(file.name)}`;
    return `${this.origin}${path}?X-Amz-Expires=${expires}&X-Amz-Signature=${this.sign(path, expires)}`;
  }

  private sign(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const carriedToken = req.headers['x-sbg-auth-token'] !== undefined;
    const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
    const answer = (status: number, body: string | Buffer, headers: Record<string, string> = {}): void => {
      this.requests.push({ method: req.method ?? 'GET', path: url.pathname, range, status, carriedToken });
      res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const xml = (code: string, message: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
    if (carriedToken) {
      return answer(400, xml('InvalidArgument', 'Unsupported header X-SBG-Auth-Token received.'), { 'Content-Type': 'application/xml' });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, xml('MethodNotAllowed', 'Method not allowed.'));
    const expires = Number(url.searchParams.get('X-Amz-Expires'));
    const signature = url.searchParams.get('X-Amz-Signature') ?? '';
    if (!Number.isFinite(expires) || signature !== this.sign(url.pathname, expires)) {
      return answer(403, xml('SignatureDoesNotMatch', 'The request signature does not match.'), { 'Content-Type': 'application/xml' });
    }
    if (expires * 1000 < this.now()) return answer(403, xml('AccessDenied', 'Request has expired.'), { 'Content-Type': 'application/xml' });
    const id = url.pathname.split('/')[3] ?? '';
    const file = this.blob(id);
    if (!file) return answer(404, xml('NoSuchKey', 'The specified key does not exist.'), { 'Content-Type': 'application/xml' });
    const content = file.content;
    const base = { 'Content-Type': 'text/plain; charset=utf-8', 'Accept-Ranges': 'bytes' };
    if (!range) return answer(200, content, base);
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    const size = content.length;
    let start: number;
    let end: number;
    if (!m || (m[1] === '' && m[2] === '')) return answer(200, content, base);
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]));
      end = size - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
    }
    if (start >= size || start > end) {
      return answer(416, xml('InvalidRange', 'The requested range is not satisfiable.'), { 'Content-Range': `bytes */${size}` });
    }
    return answer(206, content.subarray(start, end + 1), { ...base, 'Content-Range': `bytes ${start}-${end}/${size}` });
  }
}
