// Worker process: runs one task-tree strategy against an emulator started by the parent and sends back
// its figures. Run with --expose-gc so the heap baseline is taken after a collection.
import type { TaskFilter } from '../../src/tasks/filterModel';
import { clientFor, sent } from './env';
import { extensionTree, naiveTree, type TreeResult } from './treeStrategies';

export interface TreeJob {
  strategy: 'extension' | 'naive';
  baseUrl: string;
  token: string;
  filter: TaskFilter;
}

export type TreeMessage = { ok: true; result: TreeResult } | { ok: false; error: string };

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as TreeJob;
  const client = clientFor(job);
  // Warm-up, untimed and free of quota (GET /v2/rate_limit): the first request of a process pays for loading
  // and compiling the client, which the ideals (timed later, warm) do not.
  await client.rateLimit();
  const warm = sent(client).requests;
  const result = job.strategy === 'extension' ? await extensionTree(client, job.filter) : await naiveTree(client, job.filter);
  // The figures count from after the warm-up.
  result.transport.requests -= warm;
  process.send?.({ ok: true, result } satisfies TreeMessage);
}

main().catch((error: unknown) => {
  process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies TreeMessage);
  process.exitCode = 1;
});
