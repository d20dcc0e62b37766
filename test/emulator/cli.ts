/** Command line: run the emulator until SIGINT/SIGTERM. */
import { options } from '../support/args';
import { startEmulator } from './index';

function main(): void {
  const opts: Record<string, string | undefined> = options('port', 'token', 'seed', 'tasks', 'files', 'copy-step', 'rate-limit', 'latency', 'batches', 'batch-failures', 'search');
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
  // --batches 1000,1000 (sizes of the batches at scale; --batches 0 for none), --search absent|forbidden
  const sizes = opts.batches?.split(',').map((n) => Number(n.trim()));
  const batches = sizes?.filter((n) => n > 0);
  if (sizes?.some((n) => !Number.isInteger(n) || n < 0)) {
    console.error('--batches expects whole numbers separated by commas, e.g. --batches 1000,40');
    process.exit(2);
  }
  const search = opts.search;
  if (search !== undefined && search !== 'available' && search !== 'absent' && search !== 'forbidden') {
    console.error('--search expects available, absent or forbidden');
    process.exit(2);
  }
  startEmulator({
    port: num('port') ?? 0,
    token: opts.token,
    seed: num('seed'),
    tasks: num('tasks'),
    files: num('files'),
    copyStepMs: num('copy-step'),
    batches,
    batchFailures: num('batch-failures'),
    search,
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
