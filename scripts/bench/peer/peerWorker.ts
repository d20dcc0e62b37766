// Worker process: the product's side of one peer figure (works.ts), against an emulator started by the parent,
// in a heap of its own (run with --expose-gc). The same handshake as peer.py: it builds the client (and, when
// `warm`, sends one free `GET /v2/rate_limit`); then, `runs` times, it says `ready` and times the work from the
// parent's `go` to its end, so that the parent counts the emulator's requests and bytes of each run alone.
import type { SbClient } from '../../../src/api/client';
import { clientFor } from '../env';
import { startHeapProbe, startHeldProbe } from '../heap';
import { profiler } from '../profile';
import { TRANSFER_WORKS } from './transfers';
import { WORKS, type Json } from './works';

export interface PeerWorkerJob {
  work: string;
  baseUrl: string;
  token: string;
  username: string;
  args: Json;
  runs: number;
  /**
   * true: one request first (free of quota), as the figures of a client already in use. false: the first
   * request after start, once the product's start-up is done (`afterStart`).
   */
  warm: boolean;
  /** Without the host's heap the work asks for (hostHeapMb): the run that gives the heap figure. */
  bareHeap?: boolean;
}

export type PeerWorkerMessage =
  | { kind: 'ready' }
  | { kind: 'done'; ms: number; memoryMb: number; rssMb: number; result: Json; startedAt: number }
  | { kind: 'failed'; error: string };

const tell = (message: PeerWorkerMessage) => process.send?.(message);

/** What the product does right after it has started, before anyone asks for anything (main.ts). */
async function afterStart(client: SbClient): Promise<void> {
  await client.transport.warm();
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as PeerWorkerJob;
  const work = [...WORKS, ...TRANSFER_WORKS].find((w) => w.id === job.work);
  if (!work) throw new Error(`no work named ${job.work}`);
  const client = clientFor(job);
  const held = hostHeap(job.bareHeap ? 0 : (work.hostHeapMb ?? 0));
  const profile = profiler(`${job.work}-product`);
  if (job.warm) await client.rateLimit();
  else await afterStart(client);
  for (let run = 0; run < job.runs; run++) {
    const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
    tell({ kind: 'ready' });
    await go;
    await profile.start();
    // A timed run beside the host's heap takes no heap figure: its probe, a process.memoryUsage() every 5 ms, would
    // cost this side some 70 ms of a 2 s transfer that the official client's timed run does not pay. The bare
    // worker's run (runPair) gives what the work holds, sampled after collections.
    const heap = held.length ? { sample: () => undefined, stop: () => 0 } : job.bareHeap ? startHeldProbe(100, work.heapWithBuffers) : startHeapProbe(5, work.heapWithBuffers);
    const rssBefore = process.memoryUsage.rss();
    const startedAt = Date.now();
    const t0 = performance.now();
    const result = await work.ours({ client, emulator: job, heap }, job.args as never);
    const ms = performance.now() - t0;
    await profile.stop();
    // maxRSS is the process's peak so far (KB): a worker runs one work, and its start-up peaks below the work's.
    const rssMb = Math.max(0, process.resourceUsage().maxRSS * 1024 - rssBefore) / 2 ** 20;
    tell({ kind: 'done', ms, memoryMb: heap.stop(), rssMb, result, startedAt });
  }
  held.length = 0;
}

/** About `mb` MB of small records, as a host's heap holds: kept alive by the caller for as long as the runs last. */
function hostHeap(mb: number): { id: number; name: string; tags: string[] }[] {
  // A record of this shape takes some 130 bytes of the heap (measured: 419,430 of them, 54 MB).
  return Array.from({ length: Math.round((mb * 2 ** 20) / 130) }, (_, i) => ({ id: i, name: `record ${i}`, tags: [] }));
}

main().catch((error: unknown) => {
  tell({ kind: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
});
