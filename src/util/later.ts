// A part of the extension loaded on first use (dist/features.js: src/features.ts, scripts/bundles.cjs), by whatever
// needs it first: a command, a drop, a notification's button. main.ts makes the one `Later` of it and hands it out.

/** Loads on the first call; every call gets the same promise. */
export interface Later<T> {
  (): Promise<T>;
  /** Whether it was asked for (then it is loaded, or on its way). Before that, nothing of it has run. */
  readonly asked: boolean;
}

/** A `Later` of what `load` gives; `load` runs once, on the first call. */
export function later<T>(load: () => Promise<T>): Later<T> {
  let loading: Promise<T> | undefined;
  const get = () => (loading ??= load());
  return Object.defineProperty(get, 'asked', { get: () => loading !== undefined }) as Later<T>;
}
