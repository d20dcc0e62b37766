// The extension in the real host: starts code-server (test/harness) with the packaged .vsix (its activation event
// swapped for one only the probe fires, see PROBE_ACTIVATION_EVENT), the harness's test-runner extension, an
// empty extension and a startup marker, points the runner at out/scripts/bench/host (one probe,
// host/activation.test.ts) instead of the integration suite, starts the emulator in the host and signs the product
// in to it (SB_API_ENDPOINT + SB_AUTH_TOKEN, as the integration suite does), and opens a workbench so the
// extension host starts. No change to the harness: its env hooks suffice. (The product's "Activated in N ms" line
// is not read: in code-server the output channels of the remote extension host are kept by the web workbench.)
import * as fs from 'fs';
import * as path from 'path';
import { openBrowser, type RunningBrowser } from '../../test/harness/browser';
import { startCodeServer, type RunningCodeServer } from '../../test/harness/codeServer';
import { TEST_TOKEN } from '../../test/harness/emulator';
import { artifactsRoot, repoRoot, vsixPath } from '../../test/harness/paths';
import { freePort } from '../../test/harness/ports';
import { installHelperExtension, installRunnerExtension } from '../../test/harness/runnerExtension';
import { ENV, type RunnerRecord } from '../../test/integration/runner/protocol';
import type { Figure } from './figures';
import { realHost } from './realHost';
import { ACTIVATION_ORDER_ENV, ACTIVATION_OUT_ENV, EMPTY_EXTENSION_ID, EMPTY_EXTENSION_MAIN, PROBE_ACTIVATION_EVENT, WARM_UP_EXTENSION_ID, type ActivationProbe } from './probe';

const TIMEOUT_MS = 180_000;
const PRODUCT_ID = 'sbg-community.sevenbridges';
/** Declared bound for loading the bundle and activating, in the real host. */
export const ACTIVATION_LIMIT_MS = 1_000;
/** Goal: from activate() until the product has started (dist/main.js loaded and started), at most this. */
export const STARTED_LIMIT_MS = 30;
/** Goal: activating the product costs at most this many times what an empty extension's activation costs. */
export const ACTIVATION_RATIO_LIMIT = 1.5;

interface HostResult {
  probe?: ActivationProbe;
  error?: string;
}

const median = (xs: number[]): number | undefined => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : undefined;
};

export interface HostSeries {
  /** The last run's probe (versions, request counts). */
  probe?: ActivationProbe;
  error?: string;
  /** Cold activations of the product and of the empty extension, one of each per code-server run. */
  product: number[];
  empty: number[];
  /** From activate() called until the product had started (activation, then loading dist/main.js and starting). */
  ready: number[];
  /** Most requests any run saw while the product's activate() ran, and after it (first 3 s). */
  requestsDuring?: number;
  requestsAfter?: number;
}

/** `runs` code-servers, each activating the product and the empty extension once, in alternating order. */
export async function hostActivationSeries(runs = 3): Promise<HostSeries> {
  const series: HostSeries = { product: [], empty: [], ready: [] };
  for (let i = 0; i < runs; i++) {
    const r = await hostActivation(i % 2 === 0 ? 'empty-first' : 'product-first');
    if (r.error || !r.probe) return { ...series, error: r.error ?? 'no probe' };
    series.probe = r.probe;
    if (!r.probe.product.wasActive) series.product.push(r.probe.product.activateMs);
    if (!r.probe.product.wasActive && r.probe.product.readyMs !== undefined) series.ready.push(r.probe.product.readyMs);
    if (!r.probe.empty.wasActive) series.empty.push(r.probe.empty.activateMs);
    series.requestsDuring = Math.max(series.requestsDuring ?? 0, r.probe.requestsDuringActivate);
    series.requestsAfter = Math.max(series.requestsAfter ?? 0, r.probe.requestsAfterActivate);
  }
  return series;
}

export async function hostActivation(order: ActivationProbe['order']): Promise<HostResult> {
  const resultsFile = path.join(artifactsRoot, 'bench-host-results.jsonl');
  const outFile = path.join(artifactsRoot, 'bench-activation.json');
  let server: RunningCodeServer | undefined;
  let browser: RunningBrowser | undefined;
  try {
    const host = realHost();
    fs.mkdirSync(artifactsRoot, { recursive: true });
    for (const f of [resultsFile, outFile]) fs.rmSync(f, { force: true });
    const emulatorPort = await freePort();
    const baseUrl = `http://127.0.0.1:${emulatorPort}/v2`;
    server = await startCodeServer({
      name: 'bench',
      host,
      vsix: vsixPath,
      beforeStart: (dirs) => {
        installRunnerExtension(dirs.extensionsDir);
        installHelperExtension(dirs.extensionsDir, { id: EMPTY_EXTENSION_ID, displayName: 'Empty extension (bench)', activationEvents: [PROBE_ACTIVATION_EVENT], main: EMPTY_EXTENSION_MAIN });
        installHelperExtension(dirs.extensionsDir, { id: WARM_UP_EXTENSION_ID, displayName: 'Startup marker (bench)', activationEvents: ['onStartupFinished'], main: EMPTY_EXTENSION_MAIN });
        activateOnlyOnProbe(dirs.extensionsDir);
      },
      settings: { 'sevenbridges.apiEndpoint': baseUrl },
      env: {
        SEVENBRIDGES_TEST_HOOKS: '1',
        SB_API_ENDPOINT: baseUrl,
        SB_AUTH_TOKEN: TEST_TOKEN,
        [ENV.results]: resultsFile,
        [ENV.emulatorPort]: String(emulatorPort),
        [ENV.suiteDir]: path.join(__dirname, 'host'),
        [ENV.repoRoot]: repoRoot,
        [ACTIVATION_OUT_ENV]: outFile,
        [ACTIVATION_ORDER_ENV]: order,
      },
    });
    browser = await openBrowser(server.url);
    const deadline = Date.now() + TIMEOUT_MS;
    let failure: string | undefined;
    while (!fs.existsSync(outFile) && !failure && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      if (!fs.existsSync(resultsFile)) continue;
      for (const line of fs.readFileSync(resultsFile, 'utf8').split('\n').filter(Boolean)) {
        const record = JSON.parse(line) as RunnerRecord;
        if (record.type === 'error') failure = record.message;
        if (record.type === 'test' && record.state === 'failed') failure = record.error ?? record.fullTitle;
      }
    }
    if (failure) return { error: failure };
    if (!fs.existsSync(outFile)) return { error: `no activation figure within ${TIMEOUT_MS / 1000} s` };
    const probe = JSON.parse(fs.readFileSync(outFile, 'utf8')) as ActivationProbe;
    return { probe };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await browser?.close();
    await server?.close();
  }
}

/** The installed product (from the .vsix) gets PROBE_ACTIVATION_EVENT for its activation events; nothing else changes. */
function activateOnlyOnProbe(extensionsDir: string): void {
  const folder = fs.readdirSync(extensionsDir).find((name) => name.startsWith(`${PRODUCT_ID}-`));
  if (!folder) throw new Error(`${PRODUCT_ID} is not installed in ${extensionsDir}`);
  const manifestFile = path.join(extensionsDir, folder, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { activationEvents?: string[] };
  manifest.activationEvents = [PROBE_ACTIVATION_EVENT];
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
}

export function hostFigures(r: HostSeries): Figure[] {
  const section = 'Extension';
  const product = median(r.product);
  const empty = median(r.empty);
  const host = `code-server${r.probe ? ` ${r.probe.vscodeVersion}` : ''}`;
  const samples = `product ${r.product.map((x) => x.toFixed(1)).join(', ')} ms; empty extension ${r.empty.map((x) => x.toFixed(1)).join(', ')} ms`;
  const ready = median(r.ready);
  return [
    {
      section,
      name: `activate() in the real host: load dist/extension.js, run activate (${host}, signed in, median of ${r.product.length})`,
      unit: 'ms',
      value: product,
      limit: ACTIVATION_LIMIT_MS,
      margin: `bound: ${ACTIVATION_LIMIT_MS} ms`,
      note: r.error ?? `samples: ${samples}`,
    },
    {
      section,
      name: `from activate() until started: activation, then dist/main.js loaded and started in the next turn (median of ${r.ready.length})`,
      unit: 'ms',
      value: ready,
      limit: STARTED_LIMIT_MS,
      margin: `goal: ${STARTED_LIMIT_MS} ms`,
      note: r.error ?? `samples: ${r.ready.map((x) => x.toFixed(1)).join(', ')} ms`,
    },
    {
      section,
      name: `activation against an empty extension activated the same way, same host runs (ratio of medians; empty: ${empty === undefined ? '—' : `${empty.toFixed(1)} ms`})`,
      unit: '×',
      value: product !== undefined && empty ? product / empty : undefined,
      ideal: 1,
      limit: ACTIVATION_RATIO_LIMIT,
      margin: `${ACTIVATION_RATIO_LIMIT} × the empty extension`,
      note: r.error,
    },
    {
      section,
      name: `requests sent until started (signed in; ${r.requestsAfter ?? '—'} in the 3 s after: startup's loads)`,
      unit: 'req',
      value: r.requestsDuring,
      ideal: 0,
      limit: 0,
      margin: 'ideal + 0',
      note: r.error,
    },
  ];
}
