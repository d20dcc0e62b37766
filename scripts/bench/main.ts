// `npm run bench`: the figures of the extension against their ideals and the naive way, on this machine.
// Flags: --no-host (skip the parts in the real host: the activation and the waits), --no-readme (do not write README.md),
// --only=<tree|batches|watch|scale|search|latency|copy|follow|budget|import|sheet|completion|peer|transfer|waits|host> (one part, for a quick look; the README and
// bench-results.json are then left alone); with --only=peer, --works=counts,listing runs only those pieces of work
// beside the official client (works.ts ids), at both latencies, without the first-request runs; --merge then writes
// the part's figures over the same rows of the README's table and records of bench-results.json. With
// --only=transfer, --cases=upload_one,download_one (download_one, download_many, upload_one, upload_many) and
// --latencies=0,80 run only those transfer cases (e.g. to repeat one while working on it); --merge as above. With
// --only=waits (what a person waits for in the real host, waits/), --cases=signIn,openGroup (signIn, openGroup,
// openFile, download, findByTag, runTask) and --latencies=0,80 likewise.
// To look into a transfer: SB_BENCH_CPU=1 prints each side's CPU seconds and the emulator's; SB_BENCH_PROFILE=<dir>
// writes CPU profiles of the product's worker and of the emulator for each run (profile.ts).
import type { TaskFilter } from '../../src/tasks/filterModel';
import { budgetCopy, budgetFigures } from './budgetScenario';
import { officialVolumeImport, volumeImport, volumeImportFigures } from './volumeImportScenario';
import { officialSheetTasks, sheetFigures, sheetTasks } from './sheetScenario';
import { completeFiles, completionFigures } from './completionScenario';
import { batchFigures, collectThousand, rerunThousand } from './batchScenario';
import { bundleFigures } from './bundle';
import { copyFigures, extensionCopy, naiveCopy } from './copyScenario';
import { tallies } from './env';
import { markdownTable, passes, textTable, type Figure } from './figures';
import { extensionFollow, followFigures, naiveFollow } from './followScenario';
import { extensionOverLatency, latencyFigures } from './latencyScenario';
import { hugeFolder, SCALE_TASKS, scaleFigures, tasksAtScale } from './scaleScenario';
import { extensionLag, extensionLongRun, LAG_RUNNING_TIMES_MS, lagFigures, type LagResult } from './lagScenario';
import { hostActivationSeries, hostFigures } from './hostActivation';
import { describeMachine, machine, watchLoad } from './machine';
import { rateFigures } from './rateFigures';
import { findPeer, FIRST_REQUEST_RUNS, firstRequestFigure, pairFigures, runPair, runPeerWorks } from './peer/peerScenario';
import { runTransfers, transferFigures } from './peer/transfers';
import { countsWork } from './peer/works';
import { METHOD_NOTES, performanceSection } from './report';
import { mergeReadmeRows, writeReadme } from './readme';
import { mergeResults, writeResults } from './results';
import { runTree, treeFigures } from './treeScenario';
import { searchFigures, searchFiles } from './searchScenario';
import { watchFigures } from './watchScenario';
import { runWaits } from './waits/waitsScenario';
import { waitsFigures } from './waits/waitsFigures';

export const FILTER: TaskFilter = { statuses: ['COMPLETED', 'FAILED'], project: 'rfranklin/rna-seq-analysis', created: { preset: 'month' } };

function step(what: string): void {
  console.log(`bench: ${what}…`);
}

async function main(): Promise<number> {
  const flags = new Set(process.argv.slice(2));
  const figures: Figure[] = [];
  const load = watchLoad();

  const only = [...flags].find((f) => f.startsWith('--only='))?.slice('--only='.length);
  const list = (flag: string) => [...flags].find((f) => f.startsWith(`--${flag}=`))?.slice(`--${flag}=`.length).split(',');
  const runs = (part: string) => only === undefined || only === part;
  /** Runs one part of the bench; a part that throws is a failed figure of its own, and the others still run. */
  const part = async (name: string, measure: () => Promise<void>): Promise<void> => {
    if (!runs(name)) return;
    try {
      await measure();
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      console.error(`bench: the part "${name}" failed: ${error instanceof Error ? (error.stack ?? why) : why}`);
      figures.push({ section: 'Bench', name: `the part "${name}" failed: ${why}`, unit: 'count', value: NaN, limit: 0, margin: 'its figures are missing' });
    }
  };

  // The transfers run first, while this process (the emulator's, shared by both sides) holds nothing of the other
  // parts: a GiB on loopback is bound by the emulator's CPU on two cores. Their rows keep their place in the table.
  const transferRows: Figure[] = [];
  await part('transfer', async () => {
    const cases = list('cases');
    const latencies = list('latencies')?.map(Number);
    transferRows.push(...(await runTransfers(step, { cases, latencies })).flatMap(transferFigures));
  });

  await part('tree', async () => {
    step('task tree, 10,000 tasks');
    // Six status groups and the unfiltered count that tells how many tasks are in other statuses (ABORTING, CREATING).
    figures.push(...treeFigures('Task tree', await runTree('task tree', {}), 7));
    step('filtering');
    figures.push(...treeFigures('Filtering', await runTree('filtering', FILTER), FILTER.statuses!.length));
  });

  await part('batches', async () => {
    step('batches at scale: re-run 1,000 failed children, collect 1,000 failure logs');
    figures.push(...batchFigures(await rerunThousand(), await collectThousand()));
  });

  await part('watch', async () => {
    step('watching 50 tasks');
    figures.push(...(await watchFigures()));
  });

  await part('scale', async () => {
    step('scale: 10,000 and 100,000 tasks, a folder of 20,000 files');
    const atScale = [];
    for (const tasks of SCALE_TASKS) atScale.push({ tasks, r: await tasksAtScale(tasks) });
    figures.push(...scaleFigures(atScale, await hugeFolder()));
  });

  await part('search', async () => {
    step('Find Files in a project of 50,000 files');
    figures.push(...searchFigures(await searchFiles()));
  });

  await part('latency', async () => {
    step('task tree over an 80 ms round trip');
    figures.push(...latencyFigures(await extensionOverLatency()));
  });

  await part('copy', async () => {
    step('copying 1,000 items (real clock)');
    const copyExt = await extensionCopy();
    const copyNaive = await naiveCopy();
    figures.push(...copyFigures(copyExt, copyNaive));
  });

  await part('follow', async () => {
    step('following 1 job for a minute (accelerated clock)');
    const oneJob = await extensionFollow(1);
    figures.push(...followFigures(oneJob, await naiveFollow(1)));
    step('following 20 jobs for a minute (accelerated clock)');
    figures.push(...followFigures(await extensionFollow(20), await naiveFollow(20), oneJob));
    step('how soon a finished job is seen, and a 1-hour job minute by minute (accelerated clock)');
    const lags: LagResult[] = [];
    for (const runningMs of LAG_RUNNING_TIMES_MS) lags.push(await extensionLag(runningMs));
    figures.push(...lagFigures(lags, await extensionLongRun()));
  });
  await part('budget', async () => {
    step('copying 100,000 items within the API budget (accelerated clock)');
    figures.push(...budgetFigures(await budgetCopy()));
  });
  await part('import', async () => {
    step('importing 10,000 objects of a volume within the API budget (accelerated clock)');
    figures.push(...volumeImportFigures(await volumeImport(), await officialVolumeImport()));
  });
  await part('sheet', async () => {
    step('1,000 tasks from a sample sheet within the API budget (accelerated clock), and the official client\'s loop');
    figures.push(...sheetFigures(await sheetTasks(), await officialSheetTasks()));
  });
  await part('completion', async () => {
    step('completion of a file input in a task document, a project of 20,000 files');
    figures.push(...completionFigures(await completeFiles()));
  });

  const works = [...flags].find((f) => f.startsWith('--works='))?.slice('--works='.length).split(',');
  await part('peer', async () => {
    figures.push(...(await runPeerWorks(step, works)).flatMap((pair) => pairFigures(pair)));
    if (works) return;
    step('beside sevenbridges-python: the first requests after start, loopback');
    const found = findPeer();
    const firsts = [];
    for (let i = 0; i < FIRST_REQUEST_RUNS; i++) firsts.push(await runPair(countsWork, 0, found, 'first'));
    figures.push(firstRequestFigure(firsts));
  });
  figures.push(...transferRows);
  if (only === undefined) figures.push(...rateFigures(tallies));

  await part('waits', async () => {
    if (flags.has('--no-host')) return;
    const { results, pending } = await runWaits(step, { cases: list('cases'), latencies: list('latencies')?.map(Number) });
    for (const c of pending) console.log(`bench: waits: "${c.title}" is not measured: ${c.pending}`);
    figures.push(...waitsFigures(results));
  });

  await part('host', async () => {
    figures.push(...bundleFigures());
    if (!flags.has('--no-host')) {
      step('activation in the real host (code-server), 5 runs');
      figures.push(...hostFigures(await hostActivationSeries(5)));
    }
  });

  const m = machine(load.stop());
  console.log('');
  console.log(`Machine: ${describeMachine(m)}`);
  console.log('');
  console.log(textTable(figures));
  for (const f of figures.filter((x) => x.note)) console.log(`  note — ${f.section}: ${f.name}: ${f.note}`);
  for (const f of figures.filter((x) => x.peer?.note)) console.log(`  official client — ${f.section}: ${f.name}: ${f.peer!.note}`);
  const failed = figures.filter((f) => !passes(f));
  console.log('');
  console.log(failed.length ? `bench: ${failed.length} figure(s) over the limit` : 'bench: every figure within its limit');

  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  if (only === undefined) {
    writeResults(figures, m, date);
    console.log('bench: bench-results.json written');
  }
  if (!flags.has('--no-readme') && only === undefined) {
    writeReadme(performanceSection({ figures, machine: m, date, notes: METHOD_NOTES }));
    console.log('bench: README.md "## Performance" written');
  }
  if (only !== undefined && flags.has('--merge')) {
    // A partial run's figures replace those of the same names; the rest stay as the last whole run measured them.
    mergeResults(figures);
    const rows = markdownTable(figures).split('\n').slice(2);
    const narrowed = [...flags].filter((f) => /^--(works|cases|latencies)=/.test(f));
    mergeReadmeRows(
      rows,
      `Partial run: the rows of ${[only, ...(works ?? [])].join(', ')} measured ${date} (\`--only=${only}${narrowed.map((f) => ` ${f}`).join('')} --merge\`) on ${describeMachine(m)}.`,
      METHOD_NOTES,
    );
    console.log('bench: bench-results.json and README.md rows of this part replaced');
  }
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
