// The one wait of the integration and end-to-end suites: polls a condition of the world outside the test (a real
// VS Code, a browser, the emulator's own timers) until it holds. Unit tests do not poll: they move the fake clock
// (test/support/fakeClock.ts) or wait on the promise that says the work is done.

/** Polls `check` until it returns a truthy value (returned), or throws after `timeoutMs` saying what was awaited. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000, intervalMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
