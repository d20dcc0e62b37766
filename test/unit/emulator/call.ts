// Plain HTTP to the emulator, as a strict client written against the documentation would speak it.
import type { Emulator } from '../../emulator';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Reply {
  status: number;
  headers: Headers;
  /** the parsed JSON body; undefined for an empty body */
  body: Json;
  text: string;
}

/** `call(method, path, body)`: path below /v2 (or an absolute URL); a string body is sent as it is. */
export function caller(emu: Emulator, token: string | null = emu.token) {
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (token !== null) headers['X-SBG-Auth-Token'] = token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const url = path.startsWith('http') ? path : emu.baseUrl + path;
    const r = await fetch(url, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, headers: r.headers, body: (text ? JSON.parse(text) : undefined) as Json, text };
  };
}

export function query(params: [string, string | number][]): string {
  return new URLSearchParams(params.map(([k, v]): [string, string] => [k, String(v)])).toString();
}
