// Starting the extension right after activation instead of inside it, without losing a command run meanwhile.
// No `vscode` import: extension.ts hands in the few calls it needs, so this is unit-tested on plain Node.

export interface Disposable {
  dispose(): void;
}

export interface LazyStartHost<T> {
  /** The commands the manifest contributes: each gets a stand-in until the extension has started. */
  commandIds: readonly string[];
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable;
  executeCommand(id: string, ...args: unknown[]): Thenable<unknown>;
  /** Loads and starts the extension; it registers the real commands (the stand-ins are gone by then). */
  start(): Promise<T>;
  /** Runs `fn` in a later turn of the event loop (setImmediate), once activation has returned. */
  later(fn: () => void): void;
}

/** The part of a `LazyStartHost` that puts stand-ins behind commands until what registers the real ones is loaded. */
export type StandInHost<T> = Omit<LazyStartHost<T>, 'later'>;

/**
 * Registers a stand-in for every command of `host.commandIds`. The first stand-in run disposes them all, starts
 * (`host.start`, which registers the real commands), then runs the real command with the same arguments; so does each
 * stand-in run meanwhile. Returns the start, to call without waiting for a command: the same promise however started.
 * main.ts uses it as well, for the command tables of dist/features.js.
 */
export function onFirstRun<T>(host: StandInHost<T>): () => Promise<T> {
  let starting: Promise<T> | undefined;
  const standIns: Disposable[] = [];
  const start = (): Promise<T> =>
    (starting ??= Promise.resolve().then(() => {
      for (const standIn of standIns.splice(0)) standIn.dispose();
      return host.start();
    }));
  for (const id of host.commandIds) {
    standIns.push(
      host.registerCommand(id, async (...args: unknown[]) => {
        await start();
        return host.executeCommand(id, ...args);
      }),
    );
  }
  return start;
}

/**
 * Registers a stand-in for every contributed command and schedules the start for the next turn of the event loop.
 * A stand-in run before then starts the extension at once, then runs the real command with the same arguments.
 * Returns the promise of the started extension (the same one however it was started).
 */
export function startSoon<T>(host: LazyStartHost<T>): Promise<T> {
  const start = onFirstRun(host);
  let release: () => void = () => undefined;
  const turn = new Promise<void>((resolve) => (release = resolve));
  host.later(() => release());
  return turn.then(start);
}
