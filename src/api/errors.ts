import * as l10n from '@vscode/l10n';
import type { ApiErrorBody } from './types';

/**
 * What went wrong with a call, in one type:
 * - `http`: the platform answered with an error status (its code and message, when the body had them);
 * - `network`: no answer (connection refused, reset, DNS), `timeout`: no answer in time;
 * - `cancelled`: the caller aborted; `malformed`: an answer we cannot read;
 * - `signedOut`: no token for the endpoint; `config`: the endpoint itself is not acceptable;
 * - `invalid`: refused before sending, because the platform would reject it.
 */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'cancelled' | 'malformed' | 'signedOut' | 'config' | 'invalid';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  code?: number;
  moreInfo?: string;
  requestId?: string;
  method?: string;
  path?: string;
  /** For a POST: whether the request may have reached the server (so it may have taken effect). */
  maybeDelivered?: boolean;
  /** Unix seconds at which a rate limit resets, when known. */
  resetAt?: number;
  /** Milliseconds from when the error was made until the rate limit resets, measured on the server's clock. */
  untilResetMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: number | undefined;
  readonly moreInfo: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly maybeDelivered: boolean;
  readonly resetAt: number | undefined;
  readonly untilResetMs: number | undefined;
  private readonly init: ApiErrorInit;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.moreInfo = init.moreInfo;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.maybeDelivered = init.maybeDelivered ?? false;
    this.resetAt = init.resetAt;
    this.untilResetMs = init.untilResetMs;
    this.init = init;
  }

  /** The same error with some facts changed. */
  with(changes: Partial<ApiErrorInit>): ApiError {
    return new ApiError({ ...this.init, ...changes });
  }

  get isUnauthorized(): boolean {
    return this.kind === 'signedOut' || this.status === 401 || this.code === 90001;
  }
  get isRateLimited(): boolean {
    return this.status === 429 || this.code === 1000;
  }
  get isMaintenance(): boolean {
    return this.status === 503 && this.code === 0;
  }
  get isCancelled(): boolean {
    return this.kind === 'cancelled';
  }
  /** A fault worth trying again later, as opposed to a request the platform will keep refusing. */
  get isTransient(): boolean {
    return (
      this.kind === 'network' ||
      this.kind === 'timeout' ||
      this.isRateLimited ||
      (this.status !== undefined && this.status >= 500)
    );
  }
}

/** Builds the error for an HTTP error answer from its status and (possibly non-JSON) body text. */
export function errorFromResponse(
  status: number,
  text: string,
  context: { method: string; path: string; requestId?: string; resetAt?: number; untilResetMs?: number; maybeDelivered?: boolean; secrets?: readonly string[] },
): ApiError {
  const { secrets = [], ...facts } = context;
  // Decoded first, then redacted: JSON may spell the token with escapes (`\u0073…`, `\/`) that only decoding undoes.
  let body: ApiErrorBody | undefined;
  let rewritten: string | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const decoded = redactValue(parsed, secrets);
    if (decoded && typeof decoded === 'object') body = decoded as ApiErrorBody;
    // The token was in it once decoded (redactValue copies only what it changed): the raw text may spell it with
    // escapes, so show the decoded value instead.
    if (decoded !== parsed) rewritten = JSON.stringify(decoded);
  } catch {
    body = undefined;
  }
  const code = typeof body?.code === 'number' ? body.code : undefined;
  const platformMessage = typeof body?.message === 'string' && body.message ? body.message : undefined;
  const shown = rewritten ?? redact(text, secrets);
  const snippet = shown.trim().replace(/\s+/g, ' ').slice(0, 200);
  const message = platformMessage ?? `HTTP ${status}${snippet ? `: ${snippet}` : ''}`;
  return new ApiError({
    kind: 'http',
    message,
    status,
    code,
    moreInfo: typeof body?.more_info === 'string' ? body.more_info : undefined,
    ...facts,
  });
}

/**
 * The text with every secret (the token) replaced: an answer may echo the request's headers. Also the secret
 * as it reads percent-encoded (an echoed URL), so that the text decoded later cannot bring it back.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const mark = l10n.t({ message: '(the token)', comment: ['Put where the token was in a text shown to the user'] });
  return secrets.reduce((out, secret) => {
    if (!secret) return out;
    let result = out.split(secret).join(mark);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) result = result.split(encoded).join(mark);
    return result;
  }, text);
}

/**
 * A decoded value (an answer's JSON) with the secrets redacted from every string in it, keys included. What holds no
 * secret is given back as it is, not copied: every answer passes through here (a job list with its results is
 * thousands of strings), and a copy of each would be garbage the moment it is made.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  const needles = secrets.filter((s) => s).flatMap((s) => [s, encodeURIComponent(s)]);
  if (!needles.length) return value;
  const clean = (text: string): string => (needles.some((n) => text.includes(n)) ? redact(text, secrets) : text);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return clean(v);
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      v.forEach((x, i) => {
        const y = walk(x);
        if (y !== x) (copy ??= [...v])[i] = y;
      });
      return copy ?? v;
    }
    if (v && typeof v === 'object') {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      let entries: [string, unknown][] | undefined;
      keys.forEach((k, i) => {
        const [key, x] = [clean(k), walk(record[k])];
        // The first change: a copy of what came before it, then everything after (own properties, as JSON made them).
        if (!entries && (key !== k || x !== record[k])) entries = keys.slice(0, i).map((before) => [before, record[before]]);
        entries?.push([key, x]);
      });
      return entries ? Object.fromEntries(entries) : v;
    }
    return v;
  };
  return walk(value) as T;
}

/** Words for a person: what happened and what to do. Never contains the token. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.kind === 'signedOut') return l10n.t('You are not signed in. Set an authentication token to continue.');
  if (error.isUnauthorized) return l10n.t('The platform rejected the authentication token. Set a new token to continue.');
  if (error.isRateLimited) {
    return error.resetAt
      ? l10n.t("The platform's rate limit (1,000 requests per 5 minutes) is used up. It resets at {0}. Try again then.", new Date(error.resetAt * 1000).toLocaleTimeString())
      : l10n.t("The platform's rate limit (1,000 requests per 5 minutes) is used up. Try again then.");
  }
  if (error.isMaintenance) return l10n.t('The platform is under maintenance. Try again later.');
  switch (error.kind) {
    case 'network':
      // A reset came from the far end (the platform or a proxy): not the person's connection to check.
      if (/^(ECONNRESET|EPIPE)$|socket hang up/i.test(error.message)) return l10n.t('The connection to the platform was reset before it answered.');
      return l10n.t('Cannot reach the platform ({0}). Check your connection and the API endpoint.', error.message);
    case 'timeout':
      return l10n.t('The platform did not answer in time. Try again.');
    case 'cancelled':
      return l10n.t('Cancelled.');
    case 'malformed':
      return l10n.t('The platform sent an answer that cannot be read ({0}).', error.message);
    case 'config':
    case 'invalid':
      return error.message;
    default:
      return error.code !== undefined
        ? l10n.t({ message: '{0} (HTTP {1}, code {2}).', args: [error.message, error.status ?? '?', error.code], comment: ['{0}: the platform\'s own message; {1}: HTTP status; {2}: its error code'] })
        : l10n.t({ message: '{0} (HTTP {1}).', args: [error.message, error.status ?? '?'], comment: ['{0}: the platform\'s own message; {1}: HTTP status'] });
  }
}
