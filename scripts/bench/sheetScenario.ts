// Run for Each Row… at scale (issue 39): 1,000 tasks from a sample sheet against the default budget (1,000 requests per
// 5 minutes), on the accelerated clock (test/support/fakeClock.ts: the emulator, the client and the outbox share it;
// every request is a real HTTP request to the emulator and takes no time on that clock). The product's own parts: the
// sheet read (util/delimited.ts), its file names found in the project (tasks/sheetFiles.ts, before the person
// confirms), the rows planned and checked (tasks/sampleSheet.ts), then what the command does once confirmed: one
// `task.createFromSheet` write per row through the outbox built from the product's table of write kinds
// (writeKinds.ts), held back while a create would spend the budget's reserve. One answer in 100 is lost (the emulator
// makes the task and drops the connection): the outbox finds each such task in the project by difference.
//
// Beside it, the official client (peer.py `work_create_tasks`) makes the same 1,000 tasks in its loop
// (`api.tasks.create` per row) against an emulator of the same data and the same limit, on the real clock.
//
// Part "sheet" of `npm run bench`; by itself: `node out/scripts/bench/sheetScenario.js`.
import { appInputs, type AppInput } from '../../src/apps/cwlInputs';
import { JobTracker } from '../../src/jobs/tracker';
import { WRITE_KINDS } from '../../src/keys/writes';
import { planSheet, sheetColumns, sheetFileCells, sheetPayloads, type FoundFiles } from '../../src/tasks/sampleSheet';
import { findSheetFiles } from '../../src/tasks/sheetFiles';
import { bulkPace } from '../../src/tasks/paced';
import type { CreateTaskPayload } from '../../src/tasks/taskWrites';
import { delimiterOf, readDelimited, type TableRow } from '../../src/util/delimited';
import { writeKinds } from '../../src/writeKinds';
import { Outbox } from '../../src/write/outbox';
import { startEmulator, type Emulator } from '../../test/emulator';
import type { Store } from '../../test/emulator/data';
import type { RawApp } from '../../src/api/apps';
import { WRITES } from '../../test/emulator/faults';
import { memoryState } from '../../test/support/sharedState';
import { acceleratedPlatform, tally } from './env';
import type { Figure, PeerValue } from './figures';
import { startHeapProbe } from './heap';
import { findPeer, runPeer } from './peer/peerScenario';
import type { Json, WorkRun } from './peer/works';

export const SHEET_ROWS = 1_000;
const LIMIT = 1_000;
const WINDOW_MS = 5 * 60_000;
/** One answer in this many is lost: the task is made, the connection dropped before the answer. */
const LOSE_EVERY = 100;
const GIVE_UP_MS = 60 * 60_000;
const SETTLE_LIMIT_MS = 120_000;
const PROJECT = 'rfranklin/my-project';
const APP = `${PROJECT}/fastqc/12`;
const SHEET = 'samples.csv';

/** The sheet: a header naming the app's input and the task's name, a row per sample naming its file. */
export function sampleSheet(rows = SHEET_ROWS): string {
  const lines = ['input_fastq,name'];
  for (let i = 0; i < rows; i++) lines.push(`${sampleFile(i)},FastQC ${sampleName(i)}`);
  return `${lines.join('\n')}\n`;
}

const sampleName = (i: number) => `sample_${String(i).padStart(4, '0')}`;
const sampleFile = (i: number) => `${sampleName(i)}.fastq.gz`;

/** The samples' files at the project's top level, as a sequencer's upload leaves them. */
function addSampleFiles(emulator: Emulator, rows = SHEET_ROWS): void {
  const store = emulator.data as Store;
  const project = store.projectById.get(PROJECT)!;
  const stamp = new Date(store.startedAt).toISOString().slice(0, 19) + 'Z';
  for (let i = 0; i < rows; i++) {
    store.addFile({ id: store.newFileId(), name: sampleFile(i), size: 2_000_000_000, project: PROJECT, parent: project.root_folder, type: 'file', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
  }
}

/** The rows planned and checked as Run for Each Row… does, and what it sends once confirmed: every row ready. */
function plannedSheet(rows: TableRow[], inputs: AppInput[], found: FoundFiles, count: number) {
  const plan = planSheet({ rows, template: { app: APP, project: PROJECT, inputs: { threads: 4 } }, inputs, found });
  const payloads = sheetPayloads(plan, inputs);
  if (payloads.length !== count) throw new Error(`${payloads.length} of ${count} rows are ready: ${plan.tasks.find((t) => t.problems.length)?.problems.join(' ')}`);
  return { plan, payloads };
}

/** Whether each row's task is in the project once: the names the sheet gives, counted among the emulator's tasks. */
function madeOnce(emulator: Emulator, names: readonly string[]): { made: number; doubled: number; missing: number } {
  const counts = new Map<string, number>();
  for (const t of emulator.data.tasks) if (t.project === PROJECT && t.app === APP) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  return {
    made: names.filter((n) => counts.get(n) === 1).length,
    doubled: names.filter((n) => (counts.get(n) ?? 0) > 1).length,
    missing: names.filter((n) => !counts.has(n)).length,
  };
}

export interface SheetResult {
  /** Requests before the confirmation: the app's CWL and the file names' lookups. */
  before: { requests: number; nameLookups: number };
  /** After it, to the last task made. */
  creates: number;
  /** Reads of the project's tasks, newest first: the snapshots taken before sends, and the lookups of lost answers. */
  listings: number;
  lost: number;
  foundByLookup: number;
  requests: number;
  status429: number;
  totalMs: number;
  /** Real time the run took (the accelerated clock skips the waits for the budget). */
  realMs: number;
  heapMb: number;
  tasks: ReturnType<typeof madeOnce>;
  holds: number[];
  left: number;
}

export async function sheetTasks(count = SHEET_ROWS): Promise<SheetResult> {
  const { clock, emulator, client, quiet, key, account } = await acceleratedPlatform({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  const tracker = new JobTracker(client.copyJobs, memoryState(), clock, { account: () => key, budget: client.budget });
  const outbox = new Outbox(memoryState(), async () => account, writeKinds(client, tracker, clock), clock);
  try {
    addSampleFiles(emulator, count);
    const realStart = performance.now();
    await client.rateLimit();
    const first = emulator.stats.requests;
    // Before the confirmation (sheetCommands.ts): the template's app, the sheet read, its names found, every row checked.
    const inputs = appInputs(await client.apps.raw(APP));
    const text = sampleSheet(count);
    const rows = readDelimited(text, delimiterOf(SHEET, text));
    const names = sheetFileCells(rows.slice(1), sheetColumns(rows[0].cells, inputs)).names;
    const pace = bulkPace(client.budget, clock);
    const lookups = emulator.stats.requests;
    const found = await findSheetFiles(client, PROJECT, names, { pace });
    const nameLookups = emulator.stats.requests - lookups;
    const { plan, payloads } = plannedSheet(rows, inputs, found, count);
    const before = { requests: emulator.stats.requests - first, nameLookups };

    // Confirmed: the writes, to the last task made.
    const heap = startHeapProbe();
    const t0 = clock.now();
    const confirmed = emulator.stats.requests;
    const writesFrom = emulator.writes.length;
    const holds: number[] = [];
    client.budget.onDidHold((hold) => {
      if (!holds.some((at) => Math.abs(at - (hold.until - t0)) < 2_000)) holds.push(hold.until - t0);
    });
    let lost = 0;
    const lose = new Set<number>();
    outbox.start();
    const sending = outbox.send<unknown, CreateTaskPayload>(WRITE_KINDS.createSheetTask, payloads, account, {
      until: 'end',
      onProgress: (made) => {
        heap.sample();
        // The answer of the create after every hundredth made is lost.
        if (made % LOSE_EVERY === LOSE_EVERY / 2 && !lose.has(made)) {
          lose.add(made);
          lost++;
          emulator.loseNextWriteResponse(WRITES.createTask);
        }
      },
    });
    let done = false;
    let lastMade = t0;
    void sending.finally(() => ((done = true), (lastMade = clock.now())));
    while (!done) {
      if (clock.now() - t0 > GIVE_UP_MS) throw new Error(`after ${GIVE_UP_MS / 60_000} minutes: ${outbox.all().length} writes in the outbox`);
      await clock.runUntil(clock.now() + 1_000, quiet, SETTLE_LIMIT_MS);
    }
    const { finished, left } = await sending;
    const heapMb = heap.stop();
    const writes = emulator.writes.slice(writesFrom);
    const requests = emulator.stats.requests - confirmed;
    // Every request after the confirmation is a create or a read of the project's tasks (counted as the rest).
    const creates = writes.filter((w) => w.method === 'POST' && /^\/tasks(\?|$)/.test(w.path)).length;
    const result: SheetResult = {
      before,
      creates,
      listings: requests - creates,
      lost,
      foundByLookup: finished.filter((f) => f.found).length,
      requests,
      status429: emulator.stats.byStatus[429] ?? 0,
      totalMs: lastMade - t0,
      realMs: performance.now() - realStart,
      heapMb,
      tasks: madeOnce(emulator, plan.tasks.map((t) => t.document.name!)),
      holds,
      left: left.length + outbox.all().length,
    };
    tally(`${SHEET_ROWS} tasks from a sample sheet`, 'extension', emulator, client).requests = Math.min(LIMIT, requests);
    return result;
  } finally {
    outbox.dispose();
    tracker.dispose();
    await emulator.close();
  }
}

/** The official client's loop over the same rows, against an emulator of the same data and limit, on the real clock. */
export interface OfficialSheetResult {
  run?: WorkRun;
  status429: number;
  tasks: ReturnType<typeof madeOnce>;
  /** Why it could not run. */
  missing?: string;
}

export async function officialSheetTasks(count = SHEET_ROWS): Promise<OfficialSheetResult> {
  const found = findPeer();
  const none = { made: 0, doubled: 0, missing: count };
  if ('missing' in found) return { status429: 0, tasks: none, missing: found.missing };
  const emulator = await startEmulator({ tasks: 100, files: 1_000, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  try {
    addSampleFiles(emulator, count);
    // The same request bodies as the product's: the rows planned by its code, the names found in the emulator's data.
    const inputs = appInputs(emulator.data.apps.get(APP.slice(0, APP.lastIndexOf('/')))!.revisions[12].content as RawApp);
    const text = sampleSheet(count);
    const rows = readDelimited(text, delimiterOf(SHEET, text));
    const names = new Set(sheetFileCells(rows.slice(1), sheetColumns(rows[0].cells, inputs)).names);
    const byName: FoundFiles = new Map(emulator.data.files.filter((f) => f.project === PROJECT && names.has(f.name)).map((f) => [f.name, [{ id: f.id, name: f.name, type: 'file' as const, project: PROJECT }]]));
    const { plan, payloads } = plannedSheet(rows, inputs, byName, count);
    const args = { project: PROJECT, app: APP, rows: payloads.map((p) => ({ name: p.task.name!, inputs: p.task.inputs as Json })) };
    try {
      const run = await runPeer(found.peer, { id: 'create_tasks', timeoutMs: 3 * WINDOW_MS }, emulator, args, ['--warm'], 1);
      return { run, status429: emulator.stats.byStatus[429] ?? 0, tasks: madeOnce(emulator, plan.tasks.map((t) => t.document.name!)) };
    } catch (error) {
      return { status429: emulator.stats.byStatus[429] ?? 0, tasks: madeOnce(emulator, plan.tasks.map((t) => t.document.name!)), missing: error instanceof Error ? error.message : String(error) };
    }
  } finally {
    await emulator.close();
  }
}

/**
 * The figures: before the confirmation, the file names' lookups (50 names a request); after it, the requests (the
 * creates, and the reads of the project's tasks: a snapshot before the sends of each 10 s, the lookups of the lost
 * answers), no 429, every task made once, the time against the budget's floor, the peak heap. The official client's
 * beside them.
 */
export function sheetFigures(r: SheetResult, official: OfficialSheetResult): Figure[] {
  const section = `Run for Each Row: ${SHEET_ROWS.toLocaleString('en-US')} tasks from a sample sheet (1,000 requests per 5 min, accelerated clock; 1 answer in ${LOSE_EVERY} lost)`;
  const peer = (pick: (o: OfficialSheetResult & { run: WorkRun }) => number): PeerValue =>
    official.run ? { value: pick(official as OfficialSheetResult & { run: WorkRun }) } : { value: undefined, note: official.missing ?? 'it did not run' };
  const once = (t: SheetResult['tasks']) => (t.doubled === 0 && t.missing === 0 ? t.made : NaN);
  const ideal = SHEET_ROWS + r.lost;
  const floorMs = (Math.ceil(ideal / LIMIT) - 1) * WINDOW_MS;
  const holds = r.holds.map((ms) => `${(ms / 1000).toFixed(0)} s`).join(', ') || 'none';
  const peerNote = official.run ? `official client: ${JSON.stringify(official.run.result)}, ${official.tasks.doubled} doubled, ${official.tasks.missing} missing, ${(official.run.ms / 1000).toFixed(1)} s on the real clock` : undefined;
  return [
    {
      section,
      name: "before the confirmation: requests to find the sheet's file names (50 names a request)",
      unit: 'req',
      value: r.before.nameLookups,
      ideal: Math.ceil(SHEET_ROWS / 50),
      limit: Math.ceil(SHEET_ROWS / 50),
      margin: 'exact',
      note: `and ${r.before.requests - r.before.nameLookups} read of the app's CWL`,
    },
    {
      section,
      name: "requests from the confirmation to the last task made (the creates, and the reads of the project's tasks: the snapshots before the sends, the lookups of the lost answers)",
      unit: 'req',
      value: r.requests,
      ideal,
      limit: Math.ceil(ideal * 1.1),
      margin: 'ideal + 10 % (a snapshot at most every 10 s)',
      note: `${r.creates.toLocaleString('en-US')} creates and ${r.listings} reads of the project's tasks; ${r.lost} answers lost, ${r.foundByLookup} found by lookup; ideal: a create per row and a page of the project's tasks per lost answer`,
      peer: peer((o) => o.run.requests),
    },
    { section, name: '429 answers', unit: 'count', value: r.status429, ideal: 0, limit: 0, margin: 'ideal + 0', peer: peer((o) => o.status429) },
    {
      section,
      name: 'tasks made exactly once (counted in the emulator by name: none doubled, none missing, no write left in the outbox)',
      unit: 'count',
      value: r.left === 0 ? once(r.tasks) : NaN,
      ideal: SHEET_ROWS,
      limit: SHEET_ROWS,
      margin: 'exact',
      peer: peer((o) => once(o.tasks)),
      note: peerNote,
    },
    {
      section,
      name: 'time from the confirmation to the last task made, against the floor the budget allows',
      unit: 'ms',
      value: r.totalMs,
      ideal: floorMs,
      limit: 1.1 * floorMs,
      margin: 'floor + 10 %',
      note: `held back until the reset at ${holds}; floor: the ideal ${ideal.toLocaleString('en-US')} requests at ${LIMIT.toLocaleString('en-US')} per 5 min need ${Math.ceil(ideal / LIMIT)} windows, (${Math.ceil(ideal / LIMIT)} − 1) × 5 min; the product keeps 10 % of each window for the person; real time of the run ${(r.realMs / 1000).toFixed(0)} s; the official client's time is on the real clock`,
      peer: peer((o) => o.run.ms),
    },
    { section, name: "peak heap (the bench's process: the outbox's records and the emulator's new tasks)", unit: 'MB', value: Math.round(r.heapMb * 10) / 10, limit: 100, margin: '≤ 100 MB' },
  ];
}

if (require.main === module) {
  const count = Number(process.env.SB_SHEET_ROWS ?? SHEET_ROWS);
  (async () => ({ product: await sheetTasks(count), official: await officialSheetTasks(count) }))().then(
    (r) => console.log(JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
