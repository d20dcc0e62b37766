// Import 10,000 objects of a volume against the default budget (1,000 requests per 5 minutes), on the accelerated clock
// (test/support/fakeClock.ts; every request a real HTTP request to the emulator). The product's own parts: the import
// planned 100 items a call (volumes/transferPlan.ts), sent by the outbox as bulk import writes held back while a call
// would spend the budget's reserve, their jobs followed by the JobTracker, read 100 a call with the bulk get. Each call
// imports into a folder of its own (the emulator checks every name against its siblings). Part "import" of
// `npm run bench`; by itself: `node out/scripts/bench/volumeImportScenario.js`.
import { volumesOf } from '../../src/api/volumes';
import { JobTracker } from '../../src/jobs/tracker';
import { importKind, importPayloads } from '../../src/volumes/transferPlan';
import { volumeJobReaderFor, volumeJobWriting } from '../../src/volumes/volumeJobWrite';
import { volumeWrites } from '../../src/volumes/volumeWrites';
import { Outbox } from '../../src/write/outbox';
import { putObject } from '../../test/emulator/volumes';
import { memoryState } from '../../test/support/sharedState';
import { acceleratedPlatform } from './env';
import type { FileRec, Store } from '../../test/emulator/data';
import { startEmulator, type Emulator } from '../../test/emulator';
import type { Figure, PeerValue } from './figures';
import { findPeer, runPeer } from './peer/peerScenario';
import type { WorkRun } from './peer/works';

export const IMPORT_OBJECTS = 10_000;
const PER_CALL = 100;
const LIMIT = 1_000;
const WINDOW_MS = 5 * 60_000;
const GIVE_UP_MS = 60 * 60_000;
const SETTLE_LIMIT_MS = 120_000;
const VOLUME = 'rfranklin/sequencing_runs';
const PROJECT = 'rfranklin/my-project';

export interface VolumeImportResult {
  calls: number;
  requests: number;
  status429: number;
  jobs: { finished: number; completed: number };
  totalMs: number;
  left: number;
}

/** The objects of the volume, 100 a call, and a folder of the project for each call to import into (both sides'). */
function seedImport(store: Store): { folder: FileRec; prefix: string; first: number; locations: string[] }[] {
  const project = store.projectById.get(PROJECT)!;
  const stamp = new Date(store.startedAt).toISOString().slice(0, 19) + 'Z';
  return Array.from({ length: IMPORT_OBJECTS / PER_CALL }, (_, call) => {
    const folder = store.addFile({ id: store.newFileId(), name: `import_${String(call).padStart(3, '0')}`, project: PROJECT, parent: project.root_folder, type: 'folder', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
    const prefix = `bench/batch_${call}/`;
    const first = call * PER_CALL;
    const locations = Array.from({ length: PER_CALL }, (_, i) => `${prefix}${objectName(first + i)}`);
    for (const location of locations) putObject(store, VOLUME, location, 1_000_000, store.startedAt);
    return { folder, prefix, first, locations };
  });
}

/** As `work_bulk_import` of peer.py names them too. */
const objectName = (n: number): string => `obj_${String(n).padStart(5, '0')}.fastq.gz`;

/** The successful bulk import calls and the 429s the emulator answered, and the objects imported as files. */
function importCounts(emulator: Emulator): { calls: number; status429: number; imported: number } {
  return {
    calls: emulator.writes.filter((w) => w.method === 'POST' && w.path.startsWith('/bulk/storage/imports/create') && w.status === 200).length,
    status429: emulator.stats.byStatus[429] ?? 0,
    imported: emulator.data.files.filter((f) => f.project === PROJECT && f.type === 'file' && /^obj_\d{5}\.fastq\.gz$/.test(f.name)).length,
  };
}

export interface OfficialImportResult {
  run?: WorkRun;
  calls: number;
  status429: number;
  imported: number;
  /** Why it did not run, or did not end. */
  missing?: string;
}

/**
 * The official client's bulk import of the same objects into the same folders (`work_bulk_import` of peer.py: a
 * script's loop of `Import.bulk_submit`, then `Import.bulk_get` until every job has ended), against an emulator of the
 * same data and limit, on the real clock.
 */
export async function officialVolumeImport(): Promise<OfficialImportResult> {
  const found = findPeer();
  if ('missing' in found) return { calls: 0, status429: 0, imported: 0, missing: found.missing };
  const emulator = await startEmulator({ tasks: 10, files: 100, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  try {
    const calls = seedImport(emulator.data as Store).map((c) => ({ parent: c.folder.id, prefix: c.prefix, first: c.first, count: PER_CALL }));
    try {
      const run = await runPeer(found.peer, { id: 'bulk_import', timeoutMs: 2 * WINDOW_MS }, emulator, { volume: VOLUME, calls }, ['--warm'], 1);
      return { run, ...importCounts(emulator) };
    } catch (error) {
      return { ...importCounts(emulator), missing: error instanceof Error ? error.message : String(error) };
    }
  } finally {
    await emulator.close();
  }
}

export async function volumeImport(): Promise<VolumeImportResult> {
  const { clock, emulator, client, quiet, key, account } = await acceleratedPlatform({ tasks: 10, files: 100, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  const tracker = new JobTracker(client.copyJobs, memoryState(), clock, { account: () => key, budget: client.budget, readers: { import: volumeJobReaderFor(client, 'imports') } });
  const writing = volumeJobWriting(volumesOf(client), tracker);
  const outbox = new Outbox(memoryState(), async () => account, volumeWrites({ writing: async () => writing, budget: client.budget }), clock);
  try {
    const payloads = seedImport(emulator.data as Store).flatMap((call) =>
      importPayloads(call.locations.map((location) => ({ volume: VOLUME, location })), { project: PROJECT, parent: call.folder.id, label: call.folder.name }, { onClash: 'fail', keepFolders: true }),
    );
    await client.rateLimit();
    const before = emulator.stats.requests;
    const t0 = clock.now();
    let finished = 0;
    let completed = 0;
    let lastFinish = t0;
    tracker.onDidFinish((job) => {
      finished++;
      // COMPLETED on the platform: its one item's result is the file made (an import claims no file counts).
      if (job.result?.length === 1 && job.result[0].resource && !job.result[0].error) completed++;
      lastFinish = clock.now();
    });
    outbox.start();
    const sending = outbox.send(importKind(payloads), payloads, account);
    let done = false;
    void sending.finally(() => (done = true));
    while (!(done && finished >= IMPORT_OBJECTS && outbox.all().length === 0)) {
      if (clock.now() - t0 > GIVE_UP_MS) throw new Error(`after ${GIVE_UP_MS / 60_000} minutes: ${finished} of ${IMPORT_OBJECTS} jobs finished, ${outbox.all().length} calls in the outbox`);
      await clock.runUntil(clock.now() + 10_000, quiet, SETTLE_LIMIT_MS);
    }
    await sending;
    const { calls, status429 } = importCounts(emulator);
    return {
      calls,
      requests: emulator.stats.requests - before,
      status429,
      jobs: { finished, completed },
      totalMs: lastFinish - t0,
      left: outbox.all().length,
    };
  } finally {
    outbox.dispose();
    tracker.dispose();
    await emulator.close();
  }
}

/**
 * The figures: 100 bulk calls, no 429, every object imported, and the requests and time to every job done. Floors: a
 * POST and a read of each hundred jobs once done (200 requests), within one window of the budget.
 */
export function volumeImportFigures(r: VolumeImportResult, official: OfficialImportResult): Figure[] {
  const section = `Import ${IMPORT_OBJECTS.toLocaleString('en-US')} objects of a volume (1,000 requests per 5 min, accelerated clock)`;
  const calls = IMPORT_OBJECTS / PER_CALL;
  const all = r.jobs.finished === IMPORT_OBJECTS && r.jobs.completed === IMPORT_OBJECTS && r.left === 0;
  const ran = official.run;
  const peer = (value: (run: WorkRun) => number): PeerValue => (ran ? { value: value(ran) } : { value: undefined, note: official.missing ?? 'it did not run' });
  const peerNote = ran
    ? `official client: ${JSON.stringify(ran.result)}, ${official.imported.toLocaleString('en-US')} files made, ${(ran.ms / 1000).toFixed(1)} s on the real clock${official.missing ? ` (${official.missing})` : ''}`
    : undefined;
  return [
    { section, name: 'bulk import calls', unit: 'count', value: r.calls, ideal: calls, limit: calls, margin: 'exact', peer: peer(() => official.calls) },
    { section, name: '429 answers', unit: 'count', value: r.status429, ideal: 0, limit: 0, margin: 'ideal + 0', peer: peer(() => official.status429) },
    {
      section,
      name: 'objects imported: each job COMPLETED and followed to its end, no call left in the outbox',
      unit: 'count',
      value: all ? r.jobs.completed : NaN,
      ideal: IMPORT_OBJECTS,
      limit: IMPORT_OBJECTS,
      margin: 'exact',
      peer: peer(() => official.imported),
      note: peerNote,
    },
    {
      section,
      name: 'requests in all (the calls, the snapshots of the import list, the reads of the jobs while they run)',
      unit: 'req',
      value: r.requests,
      ideal: 2 * calls,
      limit: LIMIT,
      margin: 'within one window of the budget',
      peer: peer((run) => run.requests),
    },
    { section, name: 'time from the command to every job done', unit: 'ms', value: r.totalMs, ideal: undefined, limit: WINDOW_MS, margin: 'no wait for the budget\'s reset', peer: peer((run) => run.ms), note: 'the official client\'s on the real clock' },
  ];
}

if (require.main === module) {
  const started = process.hrtime.bigint();
  (async () => ({ product: await volumeImport(), official: await officialVolumeImport() }))().then(
    (r) => console.log(JSON.stringify({ ...r, realMs: Number((process.hrtime.bigint() - started) / 1_000_000n) })),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
