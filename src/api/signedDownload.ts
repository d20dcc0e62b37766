import { systemClock, type Clock } from './clock';
import * as l10n from '@vscode/l10n';
import nodeFetch from 'node-fetch';
import { ApiError } from './errors';
import { unreadableAddress, type RequestLogEntry } from './transport';

/**
 * Fetches a file's bytes from the signed URL `download_info` gave: another origin (the storage provider), so the
 * request carries no auth token, and the URL's query is its signature, so it is never logged or put in an error:
 * only the host and path are.
 */

export interface BinaryResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}
export type BinaryFetchLike = (url: string, init: { method: string; headers: Record<string, string>; signal: AbortSignal }) => Promise<BinaryResponseLike>;

export interface DownloadOptions {
  fetch?: BinaryFetchLike;
  onRequest?: (entry: RequestLogEntry) => void;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The extension's clock (its timeout, the duration logged); the system's by default. */
  clock?: Clock;
}

export interface DownloadedText {
  text: string;
  /** The whole file's size in bytes, when the storage said. */
  size: number | undefined;
  /** Bytes received. */
  received: number;
  /** True when only the end of the file was received. */
  partial: boolean;
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

/** The last `maxBytes` of the file (HTTP Range), or the whole file when it is smaller or the storage ignores Range. */
export function downloadTail(url: string, maxBytes: number, options: DownloadOptions = {}): Promise<DownloadedText> {
  return download(url, { Range: `bytes=-${Math.max(1, Math.floor(maxBytes))}` }, options);
}

export function downloadWhole(url: string, options: DownloadOptions = {}): Promise<DownloadedText> {
  return download(url, {}, options);
}

async function download(url: string, headers: Record<string, string>, options: DownloadOptions): Promise<DownloadedText> {
  const fetch = options.fetch ?? (nodeFetch as unknown as BinaryFetchLike);
  const where = safeLocation(url);
  if (!/^https?:\/\//i.test(url)) throw new ApiError({ kind: 'malformed', message: l10n.t('the download address is not a web address ({0})', where) });
  const timeout = new AbortController();
  const clock = options.clock ?? systemClock;
  const timer = clock.setTimeout(() => timeout.abort(), options.timeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  const started = clock.now();
  const log = (status: number | undefined, error?: string) =>
    options.onRequest?.({ method: 'GET', path: where, status, durationMs: clock.now() - started, requestId: undefined, attempt: 1, error });
  let response: BinaryResponseLike;
  let bytes: Buffer;
  try {
    // Only what the storage needs: no X-SBG-Auth-Token, no cookies.
    response = await fetch(url, { method: 'GET', headers: { ...headers, 'User-Agent': 'sevenbridges-vscode' }, signal });
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (cause) {
    const cancelled = options.signal?.aborted === true;
    const kind = cancelled ? 'cancelled' : timeout.signal.aborted ? 'timeout' : 'network';
    const code = (cause as { code?: string })?.code;
    const message =
      kind === 'cancelled'
        ? 'Cancelled'
        : kind === 'timeout'
          ? l10n.t('the file storage ({0}) did not answer in time', where)
          : code
            ? l10n.t({ message: 'cannot reach the file storage {0} ({1})', args: [new URL(url).host, code], comment: ['{1}: a system error code such as ECONNRESET'] })
            : l10n.t('cannot reach the file storage {0} (connection failed)', new URL(url).host);
    log(undefined, message);
    throw new ApiError({ kind, message, method: 'GET', path: where });
  } finally {
    clock.clearTimeout(timer);
  }
  log(response.status);
  if (response.status === 416) return { text: '', size: 0, received: 0, partial: false };
  if (response.status < 200 || response.status >= 300) {
    // Storage error bodies can repeat the request's signature (S3's SignatureDoesNotMatch does): show the code only.
    const code = /<Code>([A-Za-z]+)<\/Code>/.exec(bytes.toString('utf8', 0, 2000))?.[1];
    throw new ApiError({
      kind: 'http',
      status: response.status,
      message: storageRefusal(response.status, code),
      method: 'GET',
      path: where,
    });
  }
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range')?.trim() ?? '');
  const partial = response.status === 206 && !!range && Number(range[1]) > 0;
  const size = range ? (range[3] === '*' ? undefined : Number(range[3])) : bytes.length;
  let text = bytes.toString('utf8');
  // A tail starts anywhere, maybe inside a line or a character: start at the next whole line.
  if (partial) {
    const newline = text.indexOf('\n');
    if (newline >= 0) text = text.slice(newline + 1);
  }
  return { text, size, received: bytes.length, partial };
}

/** What the file storage's refusal says; a 403 is most often a signed link that expired. */
function storageRefusal(status: number, code: string | undefined): string {
  if (status === 403) {
    return code
      ? l10n.t('The file storage answered HTTP {0} ({1}). The link may have expired: open the log again.', status, code)
      : l10n.t('The file storage answered HTTP {0}. The link may have expired: open the log again.', status);
  }
  return code ? l10n.t('The file storage answered HTTP {0} ({1}).', status, code) : l10n.t('The file storage answered HTTP {0}.', status);
}
