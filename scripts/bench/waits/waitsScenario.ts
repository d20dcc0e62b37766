// What a person waits for, in the real host: code-server (test/harness) with the packaged .vsix and the drawing-floor
// helper, Chromium driven by Playwright as the e2e suite drives it, the emulator in this process (signed out at start,
// as a person's first run is). Per latency (the emulator's API and storage origin answering every request that late),
// per case, run by run: the drawing floor, the requests it needs sent bare, the product, each timed in the page.
import { performance } from 'perf_hooks';
import { Workbench } from '../../../test/e2e/workbench';
import { openBrowser, type RunningBrowser } from '../../../test/harness/browser';
import { startCodeServer, type RunningCodeServer } from '../../../test/harness/codeServer';
import { pointAt, startHarnessEmulator, type Emulator } from '../../../test/harness/emulator';
import { vsixPath } from '../../../test/harness/paths';
import { clientFor, TASKS } from '../env';
import { latencyLabel } from '../peer/peerScenario';
import { realHost } from '../realHost';
import { installFloorExtension } from './floorExtension';
import { FLOORS } from './floors';
import { CASES, type WaitCase } from './waitsCases';
import { WAIT_LATENCIES_MS, WAIT_RUNS, type CaseResult, type WaitsContext } from './waitsContext';
import { addWaitsData } from './waitsData';

export interface WaitsRun {
  results: CaseResult[];
  /** The cases chosen that are not built yet: listed, not measured. */
  pending: WaitCase[];
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function timed(what: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await what();
  return performance.now() - started;
}

/** Runs the chosen cases (all by default) at the chosen latencies (0 and 80 ms by default). */
export async function runWaits(step: (what: string) => void, options: { cases?: string[]; latencies?: number[] } = {}): Promise<WaitsRun> {
  const unknown = options.cases?.filter((id) => !CASES.some((c) => c.id === id));
  if (unknown?.length) throw new Error(`no such case: ${unknown.join(', ')} (the cases: ${CASES.map((c) => c.id).join(', ')})`);
  const chosen = CASES.filter((c) => !options.cases || options.cases.includes(c.id));
  const pending = chosen.filter((c) => c.pending);
  const active = chosen.filter((c) => !c.pending);
  const latencies = options.latencies ?? WAIT_LATENCIES_MS;
  const results: CaseResult[] = [];
  if (!active.length) return { results, pending };

  let emulator: Emulator | undefined;
  let server: RunningCodeServer | undefined;
  let browser: RunningBrowser | undefined;
  try {
    const host = realHost();
    // The platform's budget raised: 5 downloads of 200 files at two latencies alone are some 4,000 requests.
    emulator = await startHarnessEmulator({ tasks: TASKS, files: 100, rateLimit: { limit: 1_000_000, windowMs: 300_000 } });
    const data = await addWaitsData(emulator, latencies, WAIT_RUNS);
    const target = pointAt(emulator, false);
    server = await startCodeServer({
      name: 'bench-waits',
      host,
      vsix: vsixPath,
      settings: target.settings,
      env: target.env,
      beforeStart: (dirs) => installFloorExtension(dirs.extensionsDir, latencies.length * WAIT_RUNS),
    });
    browser = await openBrowser(server.url);
    const wb = new Workbench(browser.page);
    await wb.waitReady('Seven Bridges', 90_000);
    const hostName = `code-server, VS Code ${host.vscodeVersion}`;
    const client = clientFor(emulator);
    for (const [pass, latencyMs] of latencies.entries()) {
      emulator.faults.latencyMs = latencyMs;
      emulator.storageFaults.settings.latencyMs = latencyMs;
      const ctx: WaitsContext = { wb, emulator, data, workspace: server.workspace, latencyMs, pass, runs: WAIT_RUNS, client };
      for (const c of active) {
        step(`waits: ${c.title}, ${latencyLabel(latencyMs)}`);
        const result: CaseResult = { id: c.id, latencyMs, runs: [], floor: [], network: [], host: hostName };
        results.push(result);
        let doing = 'its drawing floor';
        try {
          // In turn, run by run, so that the three see the same moments of a machine shared with others: the drawing
          // floor, the requests it needs sent bare, the product.
          for (let run = 1; run <= WAIT_RUNS; run++) {
            doing = `its drawing floor (${FLOORS[c.floor].what})`;
            await FLOORS[c.floor].before(ctx);
            result.floor.push(sum(await FLOORS[c.floor].run(ctx, run)));
            doing = 'the requests it needs, sent bare';
            result.network.push(await timed(() => c.network!(ctx, run)));
            doing = 'the product';
            await c.before?.(ctx);
            result.runs.push(await c.run!(ctx, run));
          }
        } catch (error) {
          result.error = `${doing}: ${error instanceof Error ? error.message : String(error)}`;
          console.error(`bench: waits: ${c.id} at ${latencyLabel(latencyMs)} failed: ${error instanceof Error ? (error.stack ?? result.error) : result.error}`);
          await wb.screenshot(`bench-waits-FAILED-${c.id}-${latencyMs}ms`).catch(() => undefined);
          await browser.page.keyboard.press('Escape').catch(() => undefined);
        }
      }
    }
    return { results, pending };
  } finally {
    await browser?.close();
    await server?.close();
    await emulator?.close();
  }
}
