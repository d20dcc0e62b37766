import * as l10n from '@vscode/l10n';
import { ApiBudget, type RateLimitState } from './budget';
import { ApiError, errorFromResponse, redact, redactValue } from './errors';
import { checkEndpoint, sameOrigin } from './endpoint';
import { type Clock, systemClock } from './clock';
import type { Page } from './types';
import { backoffWait } from '../util/backoff';

export interface Credentials {
  endpoint: string;
  token: string;
}

/** The part of a fetch response the transport reads (node-fetch's, or a test double). */
export interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; redirect?: 'manual' },
) => Promise<ResponseLike>;

/**
 * node-fetch (through Node's http, where VS Code applies the user's proxy), loaded once, after activation: by
 * `Transport.warm` right after the extension has started (main.ts), or by the first request if that comes first.
 * Activation loads neither it nor http, https, zlib and stream; the first request does not wait for them.
 */
let nodeFetch: Promise<FetchLike> | undefined;
const loadNodeFetch = (): Promise<FetchLike> => (nodeFetch ??= import('node-fetch').then((m) => m.default as unknown as FetchLike));
const nodeFetchOnFirstUse: FetchLike = async (url, init) => (await loadNodeFetch())(url, init);

/** One line of the request log. Never carries the token. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number | undefined;
  durationMs: number;
  requestId: string | undefined;
  attempt: number;
  error?: string;
}

export type { RateLimitState } from './budget';

export interface TransportOptions {
  /** Where to send requests and with which token; read on every request, so a sign-in takes effect at once. */
  credentials: () => Promise<Credentials | undefined>;
  fetch?: FetchLike;
  clock?: Clock;
  /** Where every answer's rate-limit headers are read into (a budget of its own by default). */
  budget?: ApiBudget;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Per attempt. */
  timeoutMs?: number;
  /** Longest wait for a rate-limit reset before giving up with the 429. */
  maxRateLimitWaitMs?: number;
  /** Repeats of an idempotent request after a transient fault (5xx, network, maintenance, unreadable body). */
  maxRetries?: number;
  /** First back-off delay; doubles each repeat. */
  backoffMs?: number;
  userAgent?: string;
}

/** A query parameter's value; a list repeats the parameter (`name=a&name=b`), as the file filters take it. */
export type QueryValue = string | number | undefined | readonly string[];

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Send with these and no others (a write bound to the account it was made for); default: ask `credentials`. */
  credentials?: Credentials;
  /** A POST that only reads (a bulk get) may be repeated after a transient fault like a GET. */
  idempotent?: boolean;
}

/** How one call is made: cancellable, and pinned to an account's credentials when given. */
export type Call = Pick<RequestOptions, 'signal' | 'credentials'>;

export interface Response<T> {
  body: T;
  status: number;
  headers: ResponseLike['headers'];
}

const RATE_LIMIT_SLACK_MS = 1_000;
/** The longest address sent: the official Python client's guard (many repeated `name=` filters could pass it). */
export const MAX_URL_LENGTH = 6_000;
/** Pages `all` reads at most (100,000 items). */
const MAX_LIST_PAGES = 1_000;

/**
 * Speaks HTTP to the platform: the auth header, JSON, timeouts and cancellation, error mapping, the
 * rate-limit headers, and repeats of idempotent requests. Only GET is ever repeated: a POST that may have
 * reached the server is reported with `maybeDelivered` instead, since repeating it could copy twice.
 */
export class Transport {
  private readonly fetch: FetchLike;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly maxRateLimitWaitMs: number;
  private readonly maxRetries: number;
  private readonly backoffMs: number;
  /** The API budget as the answers tell it (rate-limit resets are measured on the server's clock). */
  readonly budget: ApiBudget;

  constructor(private readonly options: TransportOptions) {
    this.fetch = options.fetch ?? nodeFetchOnFirstUse;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 5 * 60_000 + RATE_LIMIT_SLACK_MS;
    this.maxRetries = options.maxRetries ?? 4;
    this.backoffMs = options.backoffMs ?? 1_000;
    this.budget = options.budget ?? new ApiBudget(this.clock);
  }

  /**
   * Makes the first request as quick as the next, once the extension has started: loads the HTTP stack (when it is
   * the default one) and, when signed in, reads the budget with `GET /v2/rate_limit` (free of quota), which also
   * opens Node's HTTP client. One attempt; a failure only leaves the first request to do it.
   */
  async warm(): Promise<void> {
    try {
      if (this.fetch === nodeFetchOnFirstUse) await loadNodeFetch();
      const credentials = await this.options.credentials();
      const checked = credentials ? checkEndpoint(credentials.endpoint) : undefined;
      if (credentials && checked?.ok) await this.probeRateLimit(checked.endpoint, credentials);
    } catch {
      // Only a head start.
    }
  }

  /** The last rate-limit headers seen from the current endpoint. */
  get rateLimit(): RateLimitState | undefined {
    return this.budget.state();
  }

  /** Milliseconds from now (on this machine's clock) until a moment given in the server's Unix seconds. */
  untilServerTime(unixSeconds: number): number {
    return this.budget.untilServerTime(unixSeconds);
  }

  async get<T>(pathOrUrl: string, options: RequestOptions = {}): Promise<Response<T>> {
    return this.request<T>('GET', pathOrUrl, options);
  }

  async post<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<Response<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  /** One page of a list endpoint, by path and query or by a `next` link. */
  async page<T>(pathOrUrl: string, options: RequestOptions = {}): Promise<Page<T>> {
    const response = await this.get<unknown>(pathOrUrl, options);
    return readPage<T>(response, pathOrUrl);
  }

  /** Every item of a list, 100 at a time, following `next` links. */
  async *all<T>(path: string, options: RequestOptions = {}): AsyncGenerator<Page<T>> {
    let page = await this.page<T>(path, { ...options, query: { ...options.query, limit: 100 } });
    yield page;
    const seen = new Set<string>();
    let read = page.items.length;
    // A list ends at its last page; a platform gone wrong may link on forever: stop at the announced total or
    // an empty page, and refuse after MAX_LIST_PAGES rather than read without end.
    for (let pages = 1; page.next && !seen.has(page.next); pages++) {
      if (!page.items.length || (page.total !== undefined && read >= page.total)) return;
      if (pages >= MAX_LIST_PAGES) {
        throw new ApiError({ kind: 'malformed', message: l10n.t('the list at {0} did not end after {1} pages', displayPath(path), MAX_LIST_PAGES.toLocaleString('en-US')) });
      }
      seen.add(page.next);
      page = await this.page<T>(page.next, { signal: options.signal });
      read += page.items.length;
      yield page;
    }
  }

  async request<T>(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<Response<T>> {
    const credentials = options.credentials ?? (await this.options.credentials());
    if (!credentials) throw new ApiError({ kind: 'signedOut', message: l10n.t('Not signed in: no authentication token is set.') });
    const checked = checkEndpoint(credentials.endpoint);
    if (!checked.ok) throw new ApiError({ kind: 'config', message: checked.reason });
    const endpoint = checked.endpoint;
    const url = buildUrl(endpoint, pathOrUrl, options.query);
    if (url.length > MAX_URL_LENGTH) {
      throw new ApiError({
        kind: 'invalid',
        message: l10n.t('The request is too long to send ({0} characters in its address, at most {1}): ask for fewer names or values at once.', url.length.toLocaleString('en-US'), MAX_URL_LENGTH.toLocaleString('en-US')),
      });
    }
    const path = displayPath(url);
    const idempotent = method === 'GET' || options.idempotent === true;

    for (let attempt = 1; ; attempt++) {
      await this.waitForRateLimit(endpoint, credentials, method, path, options.signal);
      try {
        return await this.attempt<T>(method, url, path, attempt, credentials.token, endpoint, options);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const delay = idempotent ? this.retryDelay(error, attempt) : undefined;
        if (delay === undefined) throw error;
        await this.clock.sleep(delay, options.signal);
      }
    }
  }

  private async attempt<T>(
    method: string,
    url: string,
    path: string,
    attempt: number,
    token: string,
    endpoint: string,
    options: RequestOptions,
  ): Promise<Response<T>> {
    const started = this.clock.now();
    const timeout = new AbortController();
    const timer = this.clock.setTimeout(() => timeout.abort(), this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    const headers: Record<string, string> = {
      'X-SBG-Auth-Token': token,
      Accept: 'application/json',
      'User-Agent': this.options.userAgent ?? 'sevenbridges-vscode',
    };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const log = (status: number | undefined, requestId: string | undefined, error?: string) =>
      this.options.onRequest?.({ method, path, status, durationMs: this.clock.now() - started, requestId, attempt, error });

    let response: ResponseLike;
    let text: string;
    try {
      // Redirects are not followed: node-fetch would resend every header, the token included, to wherever they point.
      response = await this.fetch(url, { method, headers, body, signal, redirect: 'manual' });
      text = await response.text();
    } catch (cause) {
      const error = transportFailure(cause, { method, path, cancelled: options.signal?.aborted === true, timedOut: timeout.signal.aborted, token });
      log(undefined, undefined, error.message);
      throw error;
    } finally {
      this.clock.clearTimeout(timer);
    }

    const requestId = response.headers.get('x-request-id') ?? undefined;
    this.budget.observe(endpoint, response.headers);
    log(response.status, requestId);

    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      throw new ApiError({
        kind: 'http',
        message: location
          ? l10n.t('The platform answered with a redirect to {0}, which is not followed. Check the API endpoint', safeHost(location))
          : l10n.t('The platform answered with a redirect, which is not followed. Check the API endpoint'),
        status: response.status,
        requestId,
        method,
        path,
        maybeDelivered: method !== 'GET',
      });
    }
    if (response.status >= 400) {
      const resetAt = this.budget.state(endpoint)?.reset;
      const untilResetMs = resetAt === undefined ? undefined : Math.max(0, this.untilServerTime(resetAt));
      const error = errorFromResponse(response.status, text, { method, path, requestId, resetAt, untilResetMs, secrets: [token] });
      // Only a 4xx, a 429 and maintenance (503 with code 0) prove a POST was not processed; any other 5xx (a
      // proxy's plain 503 included) may come after the server acted on it.
      if (method === 'GET' || response.status < 500 || error.isMaintenance) throw error;
      throw error.with({ maybeDelivered: true });
    }
    let parsed: unknown;
    try {
      // Redacted once decoded: an answer may echo the token, escaped (`\u0073…`) so that the raw text hides it.
      parsed = text ? redactValue(JSON.parse(text), [token]) : undefined;
    } catch {
      throw new ApiError({
        kind: 'malformed',
        message: l10n.t({ message: 'the answer to {0} {1} is not JSON', args: [method, path], comment: ['{0}: HTTP method; {1}: the path called'] }),
        status: response.status,
        requestId,
        method,
        path,
        maybeDelivered: method !== 'GET',
      });
    }
    return { body: parsed as T, status: response.status, headers: response.headers };
  }

  /** How long to wait before repeating an idempotent request, or undefined to give up. */
  private retryDelay(error: ApiError, attempt: number): number | undefined {
    if (error.isRateLimited) {
      const wait = this.untilServerTime(error.resetAt ?? 0) + RATE_LIMIT_SLACK_MS;
      if (attempt > this.maxRetries + 1 || wait > this.maxRateLimitWaitMs) return undefined;
      return Math.max(wait, this.backoffMs);
    }
    const transient =
      error.isMaintenance ||
      error.kind === 'network' ||
      error.kind === 'timeout' ||
      error.kind === 'malformed' ||
      (error.status !== undefined && error.status >= 500);
    if (!transient || attempt > this.maxRetries) return undefined;
    // Maintenance lasts longer than a fault: its waits start four times as long.
    return backoffWait({ firstMs: this.backoffMs * (error.isMaintenance ? 4 : 1), factor: 2, capMs: Infinity, spreadMs: this.backoffMs * 0.25 }, attempt);
  }

  /**
   * When the last answer said nothing is left before the reset, asks `GET /v2/rate_limit` (free) whether that
   * still holds. If it does, a GET waits for the reset (measured on the server's clock, at most
   * `maxRateLimitWaitMs`) and anything else is refused at once, as not sent: a write is never held waiting after
   * its owner marked it as on its way.
   */
  private async waitForRateLimit(endpoint: string, credentials: Credentials, method: string, path: string, signal?: AbortSignal): Promise<void> {
    const exhausted = () => {
      const state = this.budget.state(endpoint);
      return state && state.remaining <= 0 && this.untilServerTime(state.reset) > 0 ? state : undefined;
    };
    if (!exhausted()) return;
    await this.probeRateLimit(endpoint, credentials, signal);
    const state = exhausted();
    if (!state) return;
    const wait = this.untilServerTime(state.reset) + RATE_LIMIT_SLACK_MS;
    if (method !== 'GET' || wait > this.maxRateLimitWaitMs) {
      throw new ApiError({ kind: 'http', status: 429, code: 1000, message: 'Rate limit exceeded', method, path, resetAt: state.reset, untilResetMs: Math.max(0, this.untilServerTime(state.reset)) });
    }
    await this.clock.sleep(wait, signal);
    state.remaining = Math.max(state.remaining, 1);
  }

  /** Reads the rate-limit state from `GET /v2/rate_limit`, which does not count against it; a failure changes nothing. */
  private async probeRateLimit(endpoint: string, credentials: Credentials, signal?: AbortSignal): Promise<void> {
    const url = buildUrl(endpoint, 'rate_limit');
    try {
      const { body } = await this.attempt<{ rate?: Partial<RateLimitState> }>('GET', url, displayPath(url), 1, credentials.token, endpoint, { signal });
      const rate = body?.rate;
      if (rate && Number.isInteger(rate.limit) && Number.isInteger(rate.remaining) && Number.isInteger(rate.reset)) {
        this.budget.set(endpoint, { limit: rate.limit!, remaining: rate.remaining!, reset: rate.reset! });
      }
    } catch {
      // Only a hope of not waiting: the state already known decides.
    }
  }
}

/** The absolute URL for a path under the endpoint, or a `next` link checked to stay on the endpoint's origin. */
export function buildUrl(endpoint: string, pathOrUrl: string, query?: RequestOptions['query']): string {
  let url: URL;
  if (/^https?:\/\//i.test(pathOrUrl)) {
    if (!sameOrigin(pathOrUrl, endpoint)) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('refused to follow a link to another host ({0})', safeHost(pathOrUrl)) });
    }
    url = new URL(pathOrUrl);
  } else {
    url = new URL(endpoint.replace(/\/+$/, '') + '/' + pathOrUrl.replace(/^\/+/, ''));
  }
  for (const [key, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) {
      url.searchParams.delete(key);
      for (const v of value as readonly string[]) url.searchParams.append(key, v);
    } else if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function readPage<T>(response: Response<unknown>, source: string): Page<T> {
  const body = response.body as { items?: unknown; links?: unknown } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.items)) {
    throw new ApiError({ kind: 'malformed', message: l10n.t('the list at {0} has no items array', displayPath(source)) });
  }
  const totalHeader = response.headers.get('x-total-matching-query');
  const total = totalHeader !== null && /^\d+$/.test(totalHeader.trim()) ? Number(totalHeader) : undefined;
  const links = Array.isArray(body.links) ? (body.links as { rel?: unknown; href?: unknown }[]) : [];
  const next = links.find((link) => link && link.rel === 'next' && typeof link.href === 'string')?.href as string | undefined;
  const items = (body.items as unknown[]).filter((item): item is T => item !== null && typeof item === 'object');
  return { items, total, next };
}

function transportFailure(cause: unknown, context: { method: string; path: string; cancelled: boolean; timedOut: boolean; token: string }): ApiError {
  const { method, path } = context;
  if (context.cancelled) return new ApiError({ kind: 'cancelled', message: 'Cancelled', method, path, maybeDelivered: method !== 'GET', cause });
  if (context.timedOut) return new ApiError({ kind: 'timeout', message: l10n.t({ message: '{0} {1} timed out', args: [method, path], comment: ['{0}: HTTP method; {1}: the path called'] }), method, path, maybeDelivered: method !== 'GET', cause });
  const code = (cause as { code?: string })?.code;
  // A refused connection or an unknown host never reached the server; anything later may have.
  const neverSent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  // A header node-fetch refuses is named with its value ("<token> is not a legal HTTP header value"): never repeat it.
  const raw = code ?? (cause instanceof Error ? cause.message : String(cause));
  const detail = redact(raw, [context.token]);
  return new ApiError({ kind: 'network', message: `${detail}`, method, path, maybeDelivered: method !== 'GET' && !neverSent, cause: detail === raw ? cause : undefined });
}

function displayPath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return unreadableAddress();
  }
}

/** Stands for a host or URL that cannot be parsed. */
export function unreadableAddress(): string {
  return l10n.t('an unreadable address');
}
