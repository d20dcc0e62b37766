/** Kills what the harness started when the harness itself exits or is interrupted (Ctrl-C). */
type Hook = () => void;
const hooks = new Set<Hook>();
let installed = false;

function runAll(): void {
  for (const hook of [...hooks]) {
    try {
      hook();
    } catch {
      /* keep going */
    }
  }
  hooks.clear();
}

/** Registers a synchronous last-chance cleanup; returns its removal. */
export function onExit(hook: Hook): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', runAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        runAll();
        process.exit(signal === 'SIGINT' ? 130 : 143);
      });
    }
  }
  hooks.add(hook);
  return () => hooks.delete(hook);
}
