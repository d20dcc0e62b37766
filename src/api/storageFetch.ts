// How a request reaches the storage provider at a signed URL: the part of a response read (a test hands in its
// double) and the one fetch used outside tests, on Node's http and https. storage.ts speaks to the storage over it.
import type * as http from 'http';

/** The part of a fetch response the storage client reads (node-fetch's, or a test double). */
export interface StorageResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  /** The body as a stream of chunks. */
  body: AsyncIterable<Uint8Array> | null;
}
/**
 * A request body: what is piped into the request, telling of its bytes (`data`) and of a failure to read them (`error`):
 * a stream, or a stretch of a local file (an upload part, transfer/fileSpanBody.ts).
 */
export interface StorageBody {
  pipe<T extends NodeJS.WritableStream>(out: T): T;
  on(event: 'data', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
export interface StorageRequestInit {
  method: 'GET' | 'PUT';
  headers: Record<string, string>;
  body?: StorageBody;
  signal: AbortSignal;
}
export type StorageFetch = (url: string, init: StorageRequestInit) => Promise<StorageResponseLike>;

/**
 * One request through Node's http or https (where VS Code applies the user's proxy, as for node-fetch, which sits on
 * the same modules): its body is the response stream itself, so a connection cut in the middle of a body ends the
 * read with an error (node-fetch hands on a copy that would wait instead), and nothing is decompressed (a byte range
 * of a gzip file must arrive as the bytes it is). Redirects are not followed.
 */
export const nodeStorageFetch: StorageFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    // Loaded with the first transfer, not with the extension (as the transport does with node-fetch).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const transport = (target.protocol === 'https:' ? require('https') : require('http')) as typeof http;
    const request = transport.request(target, { method: init.method, headers: init.headers, signal: init.signal }, (response) => {
      resolve({
        status: response.statusCode ?? 0,
        headers: {
          get: (name) => {
            const value = response.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          },
        },
        body: response,
      });
    });
    request.on('error', reject);
    if (!init.body) {
      request.end();
      return;
    }
    init.body.on('error', (error: Error) => request.destroy(error));
    init.body.pipe(request);
  });
