// Test doubles for the transport: a scripted fetch (the clock is test/support/fakeClock.ts).
import { ApiError } from '../../../src/api/errors';
import type { FetchLike, ResponseLike } from '../../../src/api/transport';

export const TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
export const ENDPOINT = 'https://api.sbgenomics.com/v2';

export interface FakeCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
}

/** What a scripted answer may be: a response, an error to reject with, or 'hang' (wait until aborted). */
export type Scripted = ResponseLike | Error | 'hang';
export type Handler = (call: FakeCall, index: number) => Scripted | Promise<Scripted>;

export function response(status: number, body: unknown, headers: Record<string, string> = {}): ResponseLike {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    headers: { get: (name: string) => lower.get(name.toLowerCase()) ?? null },
    text: async () => text,
  };
}

export function netError(code: string): Error {
  return Object.assign(new Error(`request failed, reason: ${code}`), { code });
}

function abortError(): Error {
  return Object.assign(new Error('The user aborted a request.'), { name: 'AbortError', type: 'aborted' });
}

/** A fetch that answers from a handler (or a list of answers, the last one repeated) and records every call. */
export class FakeFetch {
  readonly calls: FakeCall[] = [];
  private readonly handler: Handler;

  constructor(script: Handler | Scripted[], private readonly events?: string[]) {
    this.handler = Array.isArray(script) ? (_call, i) => script[Math.min(i, script.length - 1)] : script;
  }

  readonly fetch: FetchLike = async (url, init) => {
    const call: FakeCall = { url, method: init.method, headers: { ...init.headers }, body: init.body, signal: init.signal };
    const index = this.calls.length;
    this.calls.push(call);
    this.events?.push(`fetch ${init.method} ${new URL(url).pathname}`);
    if (init.signal.aborted) throw abortError();
    const answer = await this.handler(call, index);
    if (answer === 'hang') {
      return new Promise<ResponseLike>((_resolve, reject) => {
        if (init.signal.aborted) return reject(abortError());
        init.signal.addEventListener('abort', () => reject(abortError()), { once: true });
      });
    }
    if (answer instanceof Error) throw answer;
    return answer;
  };
}

/** Runs a promise that must reject with an ApiError, and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`);
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Headers with a rate-limit state. */
export function rateHeaders(remaining: number, reset: number, limit = 1000): Record<string, string> {
  return { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(reset) };
}
