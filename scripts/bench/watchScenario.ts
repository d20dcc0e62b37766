// Watching 50 tasks: the requests one refresh round costs (the watcher's one bulk get for up to 100 tasks), against
// the naive way (one GET per watched task per round). Real emulator, real client; 5 rounds each.
import { SbClient } from '../../src/api/client';
import { memoryState } from '../../test/support/sharedState';
import { TaskWatcher } from '../../src/tasks/watcher';
import { startEmulator } from '../../test/emulator';
import type { Figure } from './figures';

const WATCHED = 50;
const ROUNDS = 5;

export async function watchFigures(): Promise<Figure[]> {
  const emulator = await startEmulator({ tasks: 2000, files: 200, taskStepMs: 3_600_000 });
  try {
    const client = new SbClient({ credentials: async () => ({ endpoint: emulator.baseUrl, token: emulator.token }) });
    const active = emulator.data.tasks.filter((t) => t.status === 'RUNNING' || t.status === 'QUEUED').slice(0, WATCHED);
    if (active.length < WATCHED) throw new Error(`only ${active.length} active tasks to watch`);
    const watcher = new TaskWatcher(client.tasks, memoryState(), () => emulator.baseUrl);
    for (const t of active) await watcher.watch(t);
    let before = emulator.stats.requests;
    for (let i = 0; i < ROUNDS; i++) await watcher.poll();
    const perRound = (emulator.stats.requests - before) / ROUNDS;
    before = emulator.stats.requests;
    for (let i = 0; i < ROUNDS; i++) await Promise.all(active.map((t) => client.tasks.get(t.id)));
    const naive = (emulator.stats.requests - before) / ROUNDS;
    return [
      {
        section: 'Watching',
        name: `requests per refresh round, ${WATCHED} watched tasks (POST /v2/bulk/tasks/get, ${ROUNDS} rounds)`,
        unit: 'req',
        value: perRound,
        ideal: 1,
        limit: 1,
        margin: 'ideal + 0',
        naive,
        note: 'naive: one GET /v2/tasks/{id} per watched task per round',
      },
    ];
  } finally {
    await emulator.close();
  }
}
