// A failure of this machine's disk (a file that cannot be read or written), told apart from a failure of the network
// or of the platform: it is said at once, in its own words, and never tried again with back-off. No `vscode`.

export interface LocalError extends Error {
  /** The system's code: `EACCES`, `EIO`, `ENOENT`, `ENOSPC`, … */
  code: string;
  local: true;
}

/** The error as a local one, its code kept (`EIO` when it has none). */
export function localError(error: unknown): LocalError {
  if (isLocalError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  return Object.assign(new Error(message, { cause: error }), { code: typeof code === 'string' ? code : 'EIO', local: true as const });
}

export function isLocalError(error: unknown): error is LocalError {
  return (error as { local?: unknown } | undefined)?.local === true;
}
