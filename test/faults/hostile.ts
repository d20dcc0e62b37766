// A small hostile platform of the suite's own, on loopback: it answers whatever a test tells it to (bad JSON,
// missing fields, wrong types, huge pages, unknown states, links and redirects to another host) and records
// every request it gets, headers included, so a test can tell whether the token went anywhere it should not.
import * as http from 'http';
import type { AddressInfo } from 'net';
import { record } from './support';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HostileReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Close the connection without an answer. */
  drop?: boolean;
}

export type Handler = (req: SeenRequest, url: URL) => HostileReply;

export interface HostileServer {
  readonly origin: string;
  readonly baseUrl: string;
  readonly host: string;
  readonly requests: SeenRequest[];
  handler: Handler;
  close(): Promise<void>;
}

export async function startHostile(handler: Handler = () => ({ status: 404, body: {} }), host = '127.0.0.1'): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      record.hostileRequests++;
      let reply: HostileReply;
      try {
        reply = api.handler(seen, new URL(seen.url, api.origin));
      } catch (e) {
        reply = { status: 599, body: `handler failed: ${String(e)}` };
      }
      record.hostileFaults++;
      if (reply.drop) {
        req.socket.destroy();
        return;
      }
      const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;
  const api: HostileServer = {
    origin,
    baseUrl: `${origin}/v2`,
    host,
    requests,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return api;
}

/** Another host on loopback: 127.0.0.2 where it can be bound (Linux routes all of 127/8 to lo), else another port. */
export async function startForeign(): Promise<HostileServer> {
  try {
    return await startHostile(() => ({ status: 200, body: { items: [], links: [] }, headers: { 'X-Total-Matching-Query': '0' } }), '127.0.0.2');
  } catch {
    return startHostile(() => ({ status: 200, body: { items: [], links: [] }, headers: { 'X-Total-Matching-Query': '0' } }));
  }
}

/** A list answer: items, the total header (unless told otherwise) and the links. */
export function listReply(items: unknown, options: { total?: string | null; links?: unknown; status?: number } = {}): HostileReply {
  const total = options.total === undefined ? String(Array.isArray(items) ? items.length : 0) : options.total;
  return {
    status: options.status ?? 200,
    headers: total === null ? {} : { 'X-Total-Matching-Query': total },
    body: { href: 'ignored', items, links: options.links ?? [] },
  };
}
