/** HTTP front: routing, auth, rate-limit and request-id headers, faults, error bodies. */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { ApiError, errorBody } from './errors';
import { Ctx, Result } from './common';
import { CopyEngine, ReceivedCopyRequest } from './copy';
import type { ExecutionEngine } from './execution';
import type { StorageServer } from './storage';
import type { Store } from './data';
import { Faults } from './faults';
import { RateLimiter } from './rateLimit';
import { getFile, getProject, getUser, listFiles, listProjects } from './files';
import { getTask, listTasks } from './tasks';

export interface ServerDeps {
  store: Store;
  token: string;
  /** Every accepted token and its account's username (the main token included). */
  accounts: Map<string, string>;
  faults: Faults;
  limiter: RateLimiter;
  copy: CopyEngine;
  execution: ExecutionEngine;
  storage: StorageServer;
  now: () => number;
}

export interface Stats {
  requests: number;
  byStatus: Record<number, number>;
  faultsInjected: number;
}

/** A request as it arrived: when (the emulator's clock), its method and path (`/v2/bulk/tasks/get`). */
export interface ReceivedRequest {
  at: number;
  method: string;
  path: string;
}

type Route = { method: string; re: RegExp; handle: (ctx: Ctx, m: RegExpExecArray) => Result };

export class EmulatorServer {
  readonly stats: Stats = { requests: 0, byStatus: {}, faultsInjected: 0 };
  /** Every request of the API origin, in the order it arrived. */
  readonly received: ReceivedRequest[] = [];
  private readonly server: http.Server;
  private base = '';
  private requestSeq = 0;
  private readonly routes: Route[];

  constructor(private readonly deps: ServerDeps) {
    const copy = deps.copy;
    const execution = deps.execution;
    this.routes = [
      { method: 'GET', re: /^\/user$/, handle: (c) => getUser(c) },
      { method: 'GET', re: /^\/projects$/, handle: (c) => listProjects(c) },
      { method: 'GET', re: /^\/projects\/([^/]+\/[^/]+)$/, handle: (c, m) => getProject(c, m[1]) },
      { method: 'GET', re: /^\/files$/, handle: (c) => listFiles(c) },
      { method: 'GET', re: /^\/files\/([^/]+)$/, handle: (c, m) => getFile(c, m[1]) },
      { method: 'GET', re: /^\/tasks$/, handle: (c) => listTasks(c) },
      { method: 'GET', re: /^\/tasks\/([^/]+)$/, handle: (c, m) => getTask(c, m[1]) },
      { method: 'GET', re: /^\/files\/([^/]+)\/download_info$/, handle: (c, m) => execution.downloadInfo(c, m[1], (log) => deps.storage.signedUrl(log)) },
      { method: 'GET', re: /^\/tasks\/([^/]+)\/execution_details$/, handle: (c, m) => execution.executionDetails(c, m[1]) },
      { method: 'POST', re: /^\/bulk\/tasks\/get$/, handle: (c) => execution.bulkGet(c) },
      { method: 'GET', re: /^\/async\/files$/, handle: (c) => copy.listJobs(c) },
      { method: 'GET', re: /^\/async\/files\/copy\/([^/]+)$/, handle: (c, m) => copy.getJob(c, m[1]) },
    ];
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        // Last resort: never leave a request hanging.
        this.send(res, '', { status: 500, body: errorBody(500, 90004, `Emulator failure: ${String(e)}`) });
      });
    });
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        const p = (this.server.address() as AddressInfo).port;
        this.base = `http://127.0.0.1:${p}/v2`;
        resolve(p);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private count(status: number): void {
    this.stats.byStatus[status] = (this.stats.byStatus[status] ?? 0) + 1;
  }

  private rateHeaders(token: string): Record<string, string> {
    const s = this.deps.limiter.state(token);
    return { 'X-RateLimit-Limit': String(s.limit), 'X-RateLimit-Remaining': String(s.remaining), 'X-RateLimit-Reset': String(s.reset) };
  }

  private send(res: http.ServerResponse, token: string, r: Result, garble = false): void {
    if (res.headersSent || res.destroyed) {
      return;
    }
    this.count(r.status);
    let text = JSON.stringify(r.body);
    if (garble) {
      text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    }
    const headers: Record<string, string> = {
      // The emulator's own clock, as a platform's Date header is its clock (rate-limit resets are measured on it).
      Date: new Date(this.deps.now()).toUTCString(),
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': `emu-${(++this.requestSeq).toString(16).padStart(8, '0')}`,
      ...this.rateHeaders(token),
      ...r.headers,
    };
    headers['Content-Length'] = String(Buffer.byteLength(text));
    res.writeHead(r.status, headers);
    res.end(text);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.stats.requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const { faults, limiter, now } = this.deps;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = url.pathname;
    if (path.length > 1 && path.endsWith('/')) {
      path = path.slice(0, -1);
    }
    const method = req.method ?? 'GET';
    this.received.push({ at: now(), method, path });
    if (faults.settings.latencyMs > 0) {
      await new Promise((r) => setTimeout(r, faults.settings.latencyMs));
    }
    await faults.waitIfHeld(method, path);
    const tokenHeader = req.headers['x-sbg-auth-token'];
    const token = typeof tokenHeader === 'string' ? tokenHeader : '';
    const decision = faults.before();
    const isCopyPost = method === 'POST' && path === '/v2/async/files/copy';
    const unprocessed = (status: number, reason: string): void => {
      if (isCopyPost) {
        this.deps.copy.recordUnprocessed(rawBody, status, reason);
      }
    };
    if (decision.kind !== 'none') {
      unprocessed(
        { drop: 0, maintenance: 503, burst429: 429, error500: 500 }[decision.kind],
        `fault: ${decision.kind}`,
      );
    }
    if (decision.kind === 'drop') {
      this.stats.faultsInjected++;
      this.count(0);
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'maintenance') {
      this.stats.faultsInjected++;
      return this.send(res, token, { status: 503, body: errorBody(503, 0, 'The platform is under maintenance. Please try again later.') });
    }
    if (decision.kind === 'burst429') {
      this.stats.faultsInjected++;
      const s = limiter.state(token);
      return this.send(res, token, {
        status: 429,
        body: errorBody(429, 1000, 'Rate limit exceeded! Please wait a while before trying again.'),
        headers: { 'X-RateLimit-Limit': String(s.limit), 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(decision.reset) },
      });
    }
    if (decision.kind === 'error500') {
      this.stats.faultsInjected++;
      return this.send(res, token, { status: 500, body: errorBody(500, 90004, 'An unexpected error occurred.') });
    }
    const user = this.deps.accounts.get(token);
    if (user === undefined) {
      unprocessed(401, 'unauthorized');
      return this.send(res, token, { status: 401, body: errorBody(401, 90001, 'Unauthorized: the authentication token is missing or invalid.') });
    }
    if (!path.startsWith('/v2/') && path !== '/v2') {
      return this.send(res, token, { status: 404, body: errorBody(404, 90003, `No such resource: ${url.pathname}`) });
    }
    const sub = path.slice(3);
    if (method === 'GET' && sub === '/rate_limit') {
      const s = limiter.state(token);
      return this.send(res, token, {
        status: 200,
        body: { href: `${this.base}/rate_limit`, rate: { limit: s.limit, remaining: s.remaining, reset: s.reset }, instance_limit: { limit: -1, remaining: 0 } },
      });
    }
    if (!limiter.take(token)) {
      unprocessed(429, 'rate limit');
      return this.send(res, token, { status: 429, body: errorBody(429, 1000, 'Rate limit exceeded! Please wait a while before trying again.') });
    }
    const ctx: Ctx = { store: this.deps.store, base: this.base, now, method, path: sub, query: url.searchParams, rawBody, user };
    this.deps.copy.advance(this.base);
    this.deps.execution.advance();
    const action = method === 'POST' ? /^\/tasks\/([^/]+)\/actions\/([^/]+)$/.exec(sub) : null;
    if (action) {
      let result: Result;
      let lose = false;
      try {
        const out = this.deps.execution.action(ctx, action[1], action[2]);
        result = out.result;
        // Lost after processing, like a copy answer: the task moved, the client never hears of it.
        lose = this.deps.execution.takeLoseAction();
        if (lose) out.record.responseLost = true;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        result = { status: e.status, body: e.body() };
      }
      if (lose) {
        this.stats.faultsInjected++;
        this.count(0);
        req.socket.destroy();
        return;
      }
      return this.respond(res, token, result);
    }
    if (method === 'POST' && sub === '/async/files/copy') {
      let record: ReceivedCopyRequest | undefined;
      let result: Result;
      try {
        const out = this.deps.copy.submit(ctx);
        record = out.record;
        result = out.result;
      } catch (e) {
        if (e instanceof ApiError) {
          record = (e as ApiError & { copyRecord?: ReceivedCopyRequest }).copyRecord;
          result = { status: e.status, body: e.body() };
        } else {
          throw e;
        }
      }
      if (faults.takeLoseCopy()) {
        this.stats.faultsInjected++;
        if (record) {
          record.responseLost = true;
        }
        this.count(0);
        req.socket.destroy();
        return;
      }
      return this.respond(res, token, result, record);
    }
    for (const route of this.routes) {
      const m = route.method === method ? route.re.exec(sub) : null;
      if (m) {
        let result: Result;
        try {
          result = route.handle(ctx, m);
        } catch (e) {
          if (e instanceof ApiError) {
            result = { status: e.status, body: e.body() };
          } else {
            throw e;
          }
        }
        return this.respond(res, token, result);
      }
    }
    return this.send(res, token, { status: 404, body: errorBody(404, 90003, `No such resource: ${method} ${url.pathname}`) });
  }

  private respond(res: http.ServerResponse, token: string, result: Result, copyRecord?: ReceivedCopyRequest): void {
    const garble = result.status < 300 && this.deps.faults.malformed();
    if (garble) {
      this.stats.faultsInjected++;
      if (copyRecord) {
        copyRecord.responseMalformed = true;
      }
    }
    this.send(res, token, result, garble);
  }
}
