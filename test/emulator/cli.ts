/** Command line: run the emulator until SIGINT/SIGTERM. */
import { options } from '../support/args';
import { startEmulator } from './index';

function main(): void {
  const opts: Record<string, string | undefined> = options('port', 'token', 'seed', 'tasks', 'files', 'copy-step', 'rate-limit', 'latency');
  const num = (k: string): number | undefined => {
    if (opts[k] === undefined) {
      return undefined;
    }
    const n = Number(opts[k]);
    if (!Number.isFinite(n)) {
      console.error(`--${k} expects a number`);
      process.exit(2);
    }
    return n;
  };
  const rate = num('rate-limit');
  startEmulator({
    port: num('port') ?? 0,
    token: opts.token,
    seed: num('seed'),
    tasks: num('tasks'),
    files: num('files'),
    copyStepMs: num('copy-step'),
    rateLimit: rate !== undefined ? { limit: rate, windowMs: 300_000 } : undefined,
    faults: { latencyMs: num('latency') ?? 0 },
    storageFaults: { latencyMs: num('latency') ?? 0 },
  }).then(
    (emu) => {
      console.log(`API base URL: ${emu.baseUrl}`);
      console.log(`Token: ${emu.token}`);
      const stop = (): void => {
        void emu.close().then(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    },
    (e: unknown) => {
      console.error(`Emulator failed to start: ${String(e)}`);
      process.exit(1);
    },
  );
}

main();
