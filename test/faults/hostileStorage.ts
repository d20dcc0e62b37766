// A hostile storage provider of the suite's own (issue 36), on loopback: it serves files at signed-looking URLs as S3
// would, or as a test tells it to misbehave per file: a `Content-Range` shifted or cut short, a 200 to a Range request,
// a body shorter or longer than it says, sizes no file has, connections cut after some bytes. It records every request
// (its `Range` header) and the body bytes it wrote, so a test can count what was asked and what was sent.
import * as http from 'http';
import type { AddressInfo } from 'net';
import { drainedOrClosed } from '../support/drained';
import { record } from './support';

/** What was asked of a file: bytes `start` to `end` (inclusive, or to the end), the last `tail`, or all of it. */
export type Asked = { start: number; end?: number } | { tail: number } | undefined;

export interface StorageReply {
  status: number;
  headers?: Record<string, string>;
  body: Buffer;
  /** Sent without Content-Length (chunked), so that the body may end anywhere without the connection failing. */
  chunked?: boolean;
  /** The connection is cut after this many body bytes. */
  cutAfter?: number;
}

/** How a file answers the `n`th request for it (from 0): a test's rule, or `honest`. */
export type Serve = (asked: Asked, bytes: Buffer, n: number) => StorageReply;

export interface StoredRequest {
  id: string;
  range: string | undefined;
  status: number;
  /** Body bytes written to the connection. */
  sent: number;
}

export interface HostileStorage {
  readonly origin: string;
  readonly files: Map<string, { bytes: Buffer; serve?: Serve }>;
  readonly requests: StoredRequest[];
  /** The signed URL of a file (a query the client must never log). */
  url(id: string): string;
  /** Bytes written for a file's bodies, all requests together. */
  sentFor(id: string): number;
  close(): Promise<void>;
}

const etagOf = (bytes: Buffer) => `"${bytes.length.toString(16)}-${bytes.subarray(0, 16).toString('hex')}"`;

/** The answer S3 gives: a 206 of the bytes asked with its Content-Range, a 200 of the whole file, a 416 past the end. */
export function honest(asked: Asked, bytes: Buffer): StorageReply {
  const size = bytes.length;
  const base = { ETag: etagOf(bytes), 'Accept-Ranges': 'bytes' };
  if (!asked) return { status: 200, headers: base, body: bytes };
  const [start, end] = 'tail' in asked ? [Math.max(0, size - asked.tail), size - 1] : [asked.start, Math.min(size - 1, asked.end ?? size - 1)];
  if (start >= size || start > end) return { status: 416, headers: { 'Content-Range': `bytes */${size}` }, body: Buffer.alloc(0) };
  return { status: 206, headers: { ...base, 'Content-Range': `bytes ${start}-${end}/${size}` }, body: bytes.subarray(start, end + 1) };
}

function parseRange(header: string | undefined): Asked {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') return { tail: Number(m[2]) };
  return { start: Number(m[1]), ...(m[2] === '' ? {} : { end: Number(m[2]) }) };
}

export async function startHostileStorage(): Promise<HostileStorage> {
  const files = new Map<string, { bytes: Buffer; serve?: Serve }>();
  const requests: StoredRequest[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const id = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '');
    const seen: StoredRequest = { id, range: typeof req.headers.range === 'string' ? req.headers.range : undefined, status: 0, sent: 0 };
    requests.push(seen);
    record.hostileRequests++;
    req.resume();
    const file = files.get(id);
    if (!file) {
      seen.status = 404;
      res.writeHead(404, { 'Content-Type': 'application/xml' });
      res.end('<Error><Code>NoSuchKey</Code></Error>');
      return;
    }
    const n = counts.get(id) ?? 0;
    counts.set(id, n + 1);
    if (file.serve) record.hostileFaults++;
    const reply = (file.serve ?? honest)(parseRange(seen.range), file.bytes, n);
    seen.status = reply.status;
    res.writeHead(reply.status, { ...(reply.chunked ? {} : { 'Content-Length': String(reply.body.length) }), ...reply.headers });
    void (async () => {
      const body = reply.cutAfter === undefined ? reply.body : reply.body.subarray(0, reply.cutAfter);
      for (let at = 0; at < body.length && !res.destroyed; at += 64 * 1024) {
        const chunk = body.subarray(at, at + 64 * 1024);
        const flushed = res.write(chunk);
        seen.sent += chunk.length;
        if (!flushed) await drainedOrClosed(res);
      }
      if (reply.cutAfter !== undefined) {
        // The bytes written so far leave before the connection is cut, as a proxy dying mid-body would.
        await new Promise((resolve) => setTimeout(resolve, 5));
        res.socket?.destroy();
        return;
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    files,
    requests,
    url: (id) => `${origin}/bucket/${encodeURIComponent(id)}?X-Amz-Signature=hostile-signature`,
    sentFor: (id) => requests.filter((r) => r.id === id).reduce((n, r) => n + r.sent, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
