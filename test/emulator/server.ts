/** HTTP front: routing, auth, rate-limit and request-id headers, faults, error bodies, the record of every write. */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { ApiError, errorBody } from './errors';
import type { Ctx, Result } from './common';
import type { AsyncJobEngine, JobKind } from './asyncJobs';
import { bulkChange, bulkDelete, bulkGet as bulkGetFiles } from './bulkFiles';
import type { ExecutionEngine } from './execution';
import type { FileContents } from './content';
import type { UploadEngine } from './uploads';
import type { Store } from './data';
import type { Faults } from './faults';
import { createFolder, deleteFile, getMetadata, listFolder, moveFile, patchFile, putTags, writeMetadata } from './fileEdits';
import type { RateLimiter } from './rateLimit';
import { getFile, getProject, getUser, listFiles, listProjects } from './files';
import { searchFiles, type SearchSettings } from './search';
import { createTask, deleteTask, patchInputs, patchTask } from './taskWrites';
import { getTask, listTasks } from './tasks';
import { copyApp, getApp, getRaw, installRaw, listApps } from './apps';
import { getObject, getVolume, listObjects, listVolumes } from './volumes';
import type { VolumeJobEngine } from './volumeJobs';

export interface ServerDeps {
  store: Store;
  token: string;
  /** Every accepted token and its account's username (the main token included). */
  accounts: Map<string, string>;
  faults: Faults;
  limiter: RateLimiter;
  jobs: AsyncJobEngine;
  volumeJobs: VolumeJobEngine;
  execution: ExecutionEngine;
  contents: FileContents;
  uploads: UploadEngine;
  search: SearchSettings;
  now: () => number;
}

/** A write that reached processing (any status), or one stopped before it (`notProcessed` says why). */
export interface ReceivedWrite {
  /** epoch ms */
  at: number;
  method: string;
  /** below /v2, with the query: `/async/files/move`, `/files/<id>?…` */
  path: string;
  /** the parsed JSON body, or the raw text when it is not JSON */
  body: unknown;
  /** the status decided on; 0 when the connection was dropped before processing */
  status: number;
  responseLost?: boolean;
  responseMalformed?: boolean;
  notProcessed?: string;
}

/** What a handler may hand back besides its result: a record of its own to mark when the answer is lost or garbled. */
type Handled = Result | { result: Result; record: NonNullable<ApiError['received']> };

export interface Stats {
  requests: number;
  byStatus: Record<number, number>;
  faultsInjected: number;
  /** Bytes of the answers' bodies sent (the bench's "bytes received" of a client). */
  bodyBytes: number;
}

/** A request as it arrived: when (the emulator's clock), its method and path (`/v2/bulk/tasks/get`). */
export interface ReceivedRequest {
  at: number;
  method: string;
  path: string;
  /** The query, as sent (`?…`, or empty). */
  search: string;
}

/** `reads`: a POST that only reads (bulk get, search), not recorded as a write and never lost as one. */
type Route = { method: string; re: RegExp; handle: (ctx: Ctx, m: RegExpExecArray) => Handled; reads?: true };

export class EmulatorServer {
  readonly stats: Stats = { requests: 0, byStatus: {}, faultsInjected: 0, bodyBytes: 0 };
  /** Every request of the API origin, in the order it arrived. */
  readonly received: ReceivedRequest[] = [];
  /** The last 2,000 requests as `GET /v2/tasks?status=FAILED&fields=price`, oldest first: what a test asks was sent. */
  readonly requestLines: string[] = [];
  /** every write that reached processing, in order */
  readonly writes: ReceivedWrite[] = [];
  /** writes stopped before processing (fault, bad token, rate limit) */
  readonly unprocessedWrites: ReceivedWrite[] = [];
  private readonly server: http.Server;
  private base = '';
  private requestSeq = 0;
  private readonly routes: Route[];

  constructor(private readonly deps: ServerDeps) {
    const jobs = deps.jobs;
    const execution = deps.execution;
    const kind = (m: RegExpExecArray) => m[1] as JobKind;
    const uploads = deps.uploads;
    const volumeJobs = deps.volumeJobs;
    const storageKind = (m: RegExpExecArray) => m[1] as 'imports' | 'exports';
    this.routes = [
      { method: 'GET', re: /^\/user$/, handle: (c) => getUser(c) },
      { method: 'GET', re: /^\/projects$/, handle: (c) => listProjects(c) },
      { method: 'GET', re: /^\/projects\/([^/]+\/[^/]+)$/, handle: (c, m) => getProject(c, m[1]) },
      { method: 'GET', re: /^\/files$/, handle: (c) => listFiles(c) },
      { method: 'GET', re: /^\/files\/([^/]+)$/, handle: (c, m) => getFile(c, m[1]) },
      { method: 'GET', re: /^\/tasks$/, handle: (c) => listTasks(c) },
      { method: 'GET', re: /^\/tasks\/([^/]+)$/, handle: (c, m) => getTask(c, m[1]) },
      { method: 'GET', re: /^\/files\/([^/]+)\/download_info$/, handle: (c, m) => deps.contents.downloadInfo(c, m[1]) },
      { method: 'POST', re: /^\/upload\/multipart$/, handle: (c) => uploads.init(c) },
      { method: 'GET', re: /^\/upload\/multipart$/, handle: (c) => uploads.list(c) },
      { method: 'GET', re: /^\/upload\/multipart\/([^/]+)$/, handle: (c, m) => uploads.info(c, m[1]) },
      { method: 'DELETE', re: /^\/upload\/multipart\/([^/]+)$/, handle: (c, m) => uploads.abort(c, m[1]) },
      { method: 'GET', re: /^\/upload\/multipart\/([^/]+)\/part\/([^/]+)$/, handle: (c, m) => uploads.partUrlOf(c, m[1], m[2]) },
      { method: 'POST', re: /^\/upload\/multipart\/([^/]+)\/part$/, handle: (c, m) => uploads.reportPart(c, m[1]) },
      { method: 'POST', re: /^\/upload\/multipart\/([^/]+)\/complete$/, handle: (c, m) => uploads.complete(c, m[1]) },
      { method: 'GET', re: /^\/tasks\/([^/]+)\/execution_details$/, handle: (c, m) => execution.executionDetails(c, m[1]) },
      { method: 'POST', re: /^\/bulk\/tasks\/get$/, handle: (c) => execution.bulkGet(c), reads: true },
      { method: 'POST', re: /^\/tasks\/([^/]+)\/actions\/([^/]+)$/, handle: (c, m) => execution.action(c, m[1], m[2]) },
      { method: 'POST', re: /^\/tasks$/, handle: (c) => createTask(c, execution) },
      { method: 'PATCH', re: /^\/tasks\/([^/]+)$/, handle: (c, m) => patchTask(c, m[1], execution) },
      { method: 'PATCH', re: /^\/tasks\/([^/]+)\/inputs$/, handle: (c, m) => patchInputs(c, m[1], execution) },
      { method: 'DELETE', re: /^\/tasks\/([^/]+)$/, handle: (c, m) => deleteTask(c, m[1]) },
      { method: 'GET', re: /^\/apps$/, handle: (c) => listApps(c) },
      { method: 'GET', re: /^\/apps\/([^/]+\/[^/]+\/[^/]+(?:\/\d+)?)\/raw$/, handle: (c, m) => getRaw(c, m[1]) },
      { method: 'GET', re: /^\/apps\/([^/]+\/[^/]+\/[^/]+(?:\/[^/]+)?)$/, handle: (c, m) => getApp(c, m[1]) },
      { method: 'POST', re: /^\/apps\/([^/]+\/[^/]+)\/([^/]+)\/raw$/, handle: (c, m) => installRaw(c, m[1], m[2], null) },
      { method: 'POST', re: /^\/apps\/([^/]+\/[^/]+)\/([^/]+)\/(\d+)\/raw$/, handle: (c, m) => installRaw(c, m[1], m[2], m[3]) },
      { method: 'POST', re: /^\/apps\/([^/]+\/[^/]+\/[^/]+(?:\/\d+)?)\/actions\/copy$/, handle: (c, m) => copyApp(c, m[1]) },
      { method: 'GET', re: /^\/storage\/volumes$/, handle: (c) => listVolumes(c) },
      { method: 'GET', re: /^\/storage\/volumes\/([^/]+\/[^/]+)$/, handle: (c, m) => getVolume(c, m[1]) },
      { method: 'GET', re: /^\/storage\/volumes\/([^/]+\/[^/]+)\/list$/, handle: (c, m) => listObjects(c, m[1]) },
      { method: 'GET', re: /^\/storage\/volumes\/([^/]+\/[^/]+)\/object$/, handle: (c, m) => getObject(c, m[1]) },
      { method: 'POST', re: /^\/storage\/imports$/, handle: (c) => volumeJobs.submitImport(c) },
      { method: 'POST', re: /^\/storage\/exports$/, handle: (c) => volumeJobs.submitExport(c) },
      { method: 'GET', re: /^\/storage\/(imports|exports)$/, handle: (c, m) => volumeJobs.list(c, storageKind(m)) },
      { method: 'GET', re: /^\/storage\/(imports|exports)\/([^/]+)$/, handle: (c, m) => volumeJobs.getJob(c, storageKind(m), m[2]) },
      { method: 'POST', re: /^\/bulk\/storage\/(imports|exports)\/create$/, handle: (c, m) => volumeJobs.bulkSubmit(c, storageKind(m)) },
      { method: 'POST', re: /^\/bulk\/storage\/(imports|exports)\/get$/, handle: (c, m) => volumeJobs.bulkGet(c, storageKind(m)), reads: true },
      { method: 'GET', re: /^\/async\/files$/, handle: (c) => jobs.listJobs(c) },
      { method: 'GET', re: /^\/async\/files\/(copy|move|delete)\/([^/]+)$/, handle: (c, m) => jobs.getJob(c, kind(m), m[2]) },
      { method: 'POST', re: /^\/async\/files\/(copy|move|delete)$/, handle: (c, m) => jobs.submit(c, kind(m)) },
      { method: 'POST', re: /^\/files$/, handle: (c) => createFolder(c) },
      { method: 'POST', re: /^\/files\/search$/, handle: (c) => searchFiles(c, deps.search), reads: true },
      { method: 'GET', re: /^\/files\/([^/]+)\/list$/, handle: (c, m) => listFolder(c, m[1]) },
      { method: 'PATCH', re: /^\/files\/([^/]+)$/, handle: (c, m) => patchFile(c, m[1]) },
      { method: 'DELETE', re: /^\/files\/([^/]+)$/, handle: (c, m) => deleteFile(c, m[1]) },
      { method: 'PUT', re: /^\/files\/([^/]+)\/tags$/, handle: (c, m) => putTags(c, m[1]) },
      { method: 'GET', re: /^\/files\/([^/]+)\/metadata$/, handle: (c, m) => getMetadata(c, m[1]) },
      { method: 'PATCH', re: /^\/files\/([^/]+)\/metadata$/, handle: (c, m) => writeMetadata(c, m[1], 'merge') },
      { method: 'PUT', re: /^\/files\/([^/]+)\/metadata$/, handle: (c, m) => writeMetadata(c, m[1], 'replace') },
      { method: 'POST', re: /^\/files\/([^/]+)\/actions\/move$/, handle: (c, m) => moveFile(c, m[1]) },
      { method: 'POST', re: /^\/bulk\/files\/get$/, handle: (c) => bulkGetFiles(c), reads: true },
      { method: 'POST', re: /^\/bulk\/files\/delete$/, handle: (c) => bulkDelete(c) },
      { method: 'POST', re: /^\/bulk\/files\/(update|edit)$/, handle: (c, m) => bulkChange(c, m[1] as 'update' | 'edit') },
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
    // A 204 has no body (a DELETE's answer).
    let text = r.status === 204 || r.body === undefined ? '' : JSON.stringify(r.body);
    if (garble) {
      text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    }
    const headers: Record<string, string> = {
      // The emulator's own clock, as a platform's Date header is its clock (rate-limit resets are measured on it).
      Date: new Date(this.deps.now()).toUTCString(),
      ...(r.status === 204 ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
      'X-Request-Id': `emu-${(++this.requestSeq).toString(16).padStart(8, '0')}`,
      ...this.rateHeaders(token),
      ...r.headers,
    };
    headers['Content-Length'] = String(Buffer.byteLength(text));
    this.stats.bodyBytes += Buffer.byteLength(text);
    res.writeHead(r.status, headers);
    res.end(text);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.stats.requests++;
    this.requestLines.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);
    if (this.requestLines.length > 2000) this.requestLines.shift();
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
    this.received.push({ at: now(), method, path, search: url.search });
    if (faults.settings.latencyMs > 0) {
      await new Promise((r) => setTimeout(r, faults.settings.latencyMs));
    }
    await faults.waitIfHeld(method, path);
    const tokenHeader = req.headers['x-sbg-auth-token'];
    const token = typeof tokenHeader === 'string' ? tokenHeader : '';
    const decision = faults.before(method, path);
    const sub = path.startsWith('/v2/') ? path.slice(3) : '';
    const found = this.route(method, sub);
    const isWrite = found !== undefined && method !== 'GET' && !found.route.reads;
    const isCopyPost = method === 'POST' && sub === '/async/files/copy';
    const unprocessed = (status: number, reason: string): void => {
      if (isCopyPost) {
        this.deps.jobs.recordUnprocessed(rawBody, status, reason);
      }
      if (isWrite) {
        this.unprocessedWrites.push({ at: now(), method, path: sub + url.search, body: readBody(rawBody), status, notProcessed: reason });
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
    if (method === 'GET' && sub === '/rate_limit') {
      const s = limiter.state(token);
      return this.send(res, token, {
        status: 200,
        body: { href: `${this.base}/rate_limit`, rate: { limit: s.limit, remaining: s.remaining, reset: s.reset }, instance_limit: { limit: -1, remaining: 999_999 } },
      });
    }
    if (!limiter.take(token)) {
      unprocessed(429, 'rate limit');
      return this.send(res, token, { status: 429, body: errorBody(429, 1000, 'Rate limit exceeded! Please wait a while before trying again.') });
    }
    if (!found) {
      return this.send(res, token, { status: 404, body: errorBody(404, 90003, `No such resource: ${method} ${url.pathname}`) });
    }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const ctx: Ctx = { store: this.deps.store, base: this.base, now, method, path: sub, query: url.searchParams, rawBody, contentType, user };
    this.deps.jobs.advance(this.base);
    this.deps.volumeJobs.advance(this.base);
    this.deps.execution.advance();
    let result: Result;
    let record: ApiError['received'];
    try {
      const handled = found.route.handle(ctx, found.m);
      ({ result, record } = 'result' in handled ? handled : { result: handled, record: undefined });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      result = { status: e.status, body: e.body() };
      record = e.received;
    }
    if (!isWrite) return this.respond(res, token, result);
    const write: ReceivedWrite = { at: now(), method, path: sub + url.search, body: readBody(rawBody), status: result.status };
    this.writes.push(write);
    // Processed, then the connection dropped before any answer: the client cannot tell whether it happened.
    if (result.lost || faults.takeLose(method, sub)) {
      this.stats.faultsInjected++;
      write.responseLost = true;
      if (record) record.responseLost = true;
      this.count(0);
      req.socket.destroy();
      return;
    }
    return this.respond(res, token, result, [write, record]);
  }

  private route(method: string, sub: string): { route: Route; m: RegExpExecArray } | undefined {
    for (const route of this.routes) {
      const m = route.method === method ? route.re.exec(sub) : null;
      if (m) return { route, m };
    }
    return undefined;
  }

  private respond(res: http.ServerResponse, token: string, result: Result, records: (ApiError['received'] | ReceivedWrite)[] = []): void {
    const garble = result.status < 300 && result.status !== 204 && this.deps.faults.malformed();
    if (garble) {
      this.stats.faultsInjected++;
      for (const r of records) if (r) r.responseMalformed = true;
    }
    this.send(res, token, result, garble);
  }
}

function readBody(raw: string): unknown {
  try {
    return raw === '' ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return raw;
  }
}
