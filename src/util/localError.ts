// A failure of this machine's disk (a file that cannot be read or written), told apart from a failure of the network
// or of the platform: it is said at once, in its own words, and never tried again with back-off. No `vscode`.

export interface LocalError extends Error {
  /** The system's code: `EACCES`, `EIO`, `ENOENT`, `ENOSPC`, … */
  code: string;
  local: true;
  /** Where on the way to the file it failed, when that is not the file itself (a link in the way). */
  at?: string;
}

/** The error as a local one, its code kept (`EIO` when it has none). */
export function localError(error: unknown): LocalError {
  if (isLocalError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const at = (error as { at?: unknown } | undefined)?.at;
  return Object.assign(new Error(message, { cause: error }), { code: typeof code === 'string' ? code : 'EIO', local: true as const, ...(typeof at === 'string' ? { at } : {}) });
}

export function isLocalError(error: unknown): error is LocalError {
  return (error as { local?: unknown } | undefined)?.local === true;
}
