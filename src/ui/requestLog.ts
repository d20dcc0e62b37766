import type * as vscode from 'vscode';
import type { RequestLogEntry } from '../api/transport';

/** Writes each request to the log: method, path, status, duration, request ID. Entries never hold the token. */
export function requestLogger(log: vscode.LogOutputChannel): (entry: RequestLogEntry) => void {
  return (r) => {
    const outcome = r.status ?? `failed (${r.error})`;
    const line = `${r.method} ${r.path} → ${outcome} in ${r.durationMs} ms${r.requestId ? ` · request ${r.requestId}` : ''}${r.attempt > 1 ? ` · attempt ${r.attempt}` : ''}`;
    if (r.status !== undefined && r.status < 400) log.info(line);
    else log.warn(line);
  };
}
