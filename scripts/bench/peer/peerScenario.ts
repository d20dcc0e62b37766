// The product beside the official Python client (sevenbridges-python, unmodified) in the same run, on the same
// emulator: each piece of work of works.ts on loopback and with an 80 ms round trip. Each side runs against a
// fresh emulator of the same data (its own quota), in a process of its own; the emulator counts the requests and
// the bytes of the answers' bodies between the side's `ready` and its result. The official client runs timed (in
// turns with the product for a work of several rounds: PeerWork.rounds), then once more under tracemalloc for its
// peak memory (tracing slows Python down), unless its memory is its resident set in the timed run.
import { fork, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createInterface } from 'readline';
import * as v8 from 'v8';
import type { Emulator } from '../../../test/emulator';
import { clientFor, freshEmulator, tally } from '../env';
import type { Figure, PeerValue } from '../figures';
import { profiler } from '../profile';
import type { PeerWorkerJob, PeerWorkerMessage } from './peerWorker';
import { WORKS, type Json, type PeerWork, type WorkIdeals, type WorkRun } from './works';

export const PEER_LATENCIES_MS = [0, 80];
/** Runs of a piece of work in each process, unless it says otherwise; the figures are their medians. */
const RUNS = 3;
const RUN_TIMEOUT_MS = 300_000;
const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const SCRIPT = path.join(REPO, 'scripts', 'bench', 'peer', 'peer.py');

export interface Peer {
  python: string;
  /** The folder that holds the `sevenbridges` package (on PYTHONPATH). */
  path: string;
}

/** The peer as this machine has it, or why it cannot run. `SB_PEER_PYTHON` and `SB_PEER_PATH` override the defaults. */
export function findPeer(): { peer: Peer } | { missing: string } {
  const python = process.env.SB_PEER_PYTHON ?? 'python3';
  let peerPath = process.env.SB_PEER_PATH;
  // Default: shared/peers/sevenbridges-python in a folder above the repository (../shared/peers from the main checkout).
  for (let dir = REPO; !peerPath && path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(path.dirname(dir), 'shared', 'peers', 'sevenbridges-python');
    if (fs.existsSync(path.join(candidate, 'sevenbridges'))) peerPath = candidate;
  }
  if (!peerPath) return { missing: 'sevenbridges-python not found (no shared/peers/sevenbridges-python above the repository; set SB_PEER_PATH)' };
  const check = spawnSync(python, ['-c', 'import requests, sevenbridges'], { env: { ...process.env, PYTHONPATH: peerPath }, encoding: 'utf8' });
  if (check.error) return { missing: `${python} cannot be run (${(check.error as NodeJS.ErrnoException).code ?? check.error.message})` };
  if (check.status !== 0) {
    const last = check.stderr.trim().split('\n').pop() ?? `exit ${check.status}`;
    return { missing: `${python} cannot import the official client or requests: ${last}` };
  }
  return { peer: { python, path: peerPath } };
}

/** What one side's process reported, before the emulator's counts are added. */
type Reported = { ms: number; memoryMb: number; rssMb: number; result: Json; startedAt: number };

/**
 * Counts the emulator's requests and body bytes between `start` (the side said ready) and `stop` (its result): the
 * API's, and the storage origin's (file bytes read and part bodies received).
 */
function meter(emulator: Emulator) {
  let requests = 0;
  let bytes = 0;
  let storageFrom = 0;
  return {
    start: () => ([requests, bytes, storageFrom] = [emulator.stats.requests, emulator.stats.bodyBytes, emulator.storageRequests.length]),
    stop: () => {
      const storage = emulator.storageRequests.slice(storageFrom);
      return {
        requests: emulator.stats.requests - requests,
        bytes: emulator.stats.bodyBytes - bytes,
        storageRequests: storage.length,
        storageBytes: storage.reduce((n, r) => n + r.bytes, 0),
      };
    },
  };
}

/** A side's process's CPU seconds so far, user and system (its threads' included, from /proc; NaN where there is none). */
function processCpuS(pid: number | undefined): { user: number; system: number } {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: NaN, system: NaN };
  }
}

/**
 * The CPU seconds each run spent in the side's process (a figure of the run). With SB_BENCH_CPU=1, also prints them
 * beside the emulator's (this process: the API and the storage origin) and the wall time.
 */
function cpuMeter(what: string, pid: number | undefined) {
  let [side, emulator, wall] = [{ user: 0, system: 0 }, process.cpuUsage(), 0];
  const print = process.env.SB_BENCH_CPU === '1';
  const profile = profiler(`${what.replace(/[^a-z_]+/g, '-')}emulator`);
  return {
    start: () => {
      void profile.start();
      [side, emulator, wall] = [processCpuS(pid), process.cpuUsage(), performance.now()];
    },
    /** The side's CPU seconds since `start`. */
    stop: (): number => {
      void profile.stop();
      const now = processCpuS(pid);
      const [user, system] = [now.user - side.user, now.system - side.system];
      if (print) {
        const used = process.cpuUsage(emulator);
        console.log(`bench: cpu ${what}: side ${(user + system).toFixed(2)} s (user ${user.toFixed(2)}), emulator ${((used.user + used.system) / 1e6).toFixed(2)} s (user ${(used.user / 1e6).toFixed(2)}), wall ${((performance.now() - wall) / 1000).toFixed(2)} s`);
      }
      return user + system;
    },
  };
}

function withTimeout<T>(what: string, timeoutMs: number, promise: Promise<T>, kill: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      kill();
      reject(new Error(`${what}: no result within ${timeoutMs / 1000} s`));
    }, timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The kernel's page cache emptied (`/proc/sys/vm/drop_caches`, where the bench may write it: as root), after `sync`,
 * for work that writes a GiB (`emptyPageCache`): each side's run then writes into pages the run before it freed.
 * These machines are Firecracker VMs, where the host faults in each page of memory the first time it is touched since
 * the machine started: a GiB downloaded into pages never touched wrote 64 KiB at 160–300 µs a call instead of 20 µs
 * (2026-11-29), up to 2 s more of system CPU for whichever side met them (touching 20 GiB once took 68 s of system
 * time).
 */
function emptyPageCache(): void {
  try {
    fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
  } catch (error) {
    if (pageCacheKept) return;
    pageCacheKept = true;
    console.log(`bench: the page cache cannot be emptied before a run (${(error as NodeJS.ErrnoException).code ?? error}): each run takes the kernel's pages as they come`);
  }
}
/** emptyPageCache failed once (and said so). */
let pageCacheKept = false;

/** The median of each figure over the runs (their results must agree). */
function medianRun(runs: WorkRun[]): WorkRun {
  const median = (pick: (r: WorkRun) => number) => runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const results = new Set(runs.map((r) => JSON.stringify(r.result)));
  return {
    ms: median((r) => r.ms),
    requests: median((r) => r.requests),
    bytes: median((r) => r.bytes),
    memoryMb: median((r) => r.memoryMb),
    rssMb: median((r) => r.rssMb),
    storageRequests: median((r) => r.storageRequests),
    storageBytes: median((r) => r.storageBytes),
    cpuS: median((r) => r.cpuS),
    result: results.size === 1 ? runs[0].result : { differ: [...results] },
    startedAt: runs[0].startedAt,
  };
}

/** A side's rounds (PeerWork.rounds): the median of each figure, but the peak memory of them all. */
function roundsRun(rounds: WorkRun[]): WorkRun {
  return { ...medianRun(rounds), memoryMb: Math.max(...rounds.map((r) => r.memoryMb)), rssMb: Math.max(...rounds.map((r) => r.rssMb)) };
}

/**
 * Runs a side's process: at each `ready` it counts the emulator's requests and bytes from there, says go, and at
 * each result takes the counts; resolves with the median of the runs.
 */
function handshake(what: string, emulator: Emulator, runs: number, work: Pick<PeerWork, 'timeoutMs' | 'emptyPageCache'>, io: { go(): void; kill(): void; pid?: number }, listen: (ready: () => void, done: (r: Reported) => void, fail: (e: Error) => void) => void): Promise<WorkRun> {
  const counts = meter(emulator);
  const cpu = cpuMeter(what, io.pid);
  const done: WorkRun[] = [];
  const all = new Promise<WorkRun>((resolve, reject) =>
    listen(
      () => {
        // The disk's pending writes flushed first: no run pays for the bench's own files (the 1 GiB written to upload)
        // or for the side before it (a download's GiB), which the kernel writes back meanwhile.
        spawnSync('sync');
        if (work.emptyPageCache) emptyPageCache();
        // And the emulator's heap (this process's) collected: no run pays for the garbage of the runs before it.
        (globalThis as { gc?: () => void }).gc?.();
        counts.start();
        cpu.start();
        io.go();
      },
      (reported) => {
        const cpuS = cpu.stop();
        done.push({ ...reported, ...counts.stop(), cpuS });
        if (done.length === runs) resolve(medianRun(done));
      },
      reject,
    ),
  );
  return withTimeout(what, work.timeoutMs ?? RUN_TIMEOUT_MS, all, io.kill).finally(io.kill);
}

/** The product's side, in a worker process. */
function runOurs(work: PeerWork, emulator: Emulator, args: Json, warm: boolean, runs: number, bareHeap = false): Promise<WorkRun> {
  const job: PeerWorkerJob = { work: work.id, baseUrl: emulator.baseUrl, token: emulator.token, username: emulator.username, args, warm, runs, bareHeap };
  const child = fork(path.join(__dirname, 'peerWorker.js'), [JSON.stringify(job)], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  return handshake(`${work.id} (product)`, emulator, runs, work, { go: () => child.send('go'), kill: () => child.kill(), pid: child.pid }, (ready, done, fail) => {
    child.on('message', (m: PeerWorkerMessage) => {
      if (m.kind === 'ready') ready();
      else if (m.kind === 'done') done({ ms: m.ms, memoryMb: m.memoryMb, rssMb: m.rssMb, result: m.result, startedAt: m.startedAt });
      else fail(new Error(`${work.id}: ${m.error}`));
    });
    child.once('exit', (code) => fail(new Error(`${work.id}: the worker exited (${code}) before its last result`)));
  });
}

/** The official client's side: peer.py in a process of its own (`work.id`: its `work_<id>`). */
export function runPeer(peer: Peer, work: Pick<PeerWork, 'id' | 'timeoutMs' | 'emptyPageCache'>, emulator: Emulator, workArgs: Json, flags: string[], runs: number): Promise<WorkRun> {
  const args = [SCRIPT, work.id, emulator.baseUrl, emulator.token, JSON.stringify(workArgs), `--runs=${runs}`, ...flags];
  const child = spawn(peer.python, args, { env: { ...process.env, PYTHONPATH: peer.path }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return handshake(`${work.id} (official client)`, emulator, runs, work, { go: () => child.stdin.write('go\n'), kill: () => child.kill(), pid: child.pid }, (ready, done, fail) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') return ready();
      try {
        const out = JSON.parse(line) as { ms: number; result: Json; peak_bytes: number | null; peak_rss_bytes: number };
        done({ ms: out.ms, memoryMb: (out.peak_bytes ?? NaN) / 2 ** 20, rssMb: out.peak_rss_bytes / 2 ** 20, result: out.result, startedAt: NaN });
      } catch {
        fail(new Error(`${work.id} (official client): unexpected output: ${line}`));
      }
    });
    child.once('exit', (code) => fail(new Error(`${work.id} (official client) exited (${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`)));
  });
}

/**
 * While a side runs, V8 in this process (the emulator's) sets its heap limit at twice the heap left by each full
 * collection. Left to itself, serving a GiB over a steady 37 MB heap, it chose the smallest growth, which left no
 * more room than its young generation: it marked the whole heap every 50–80 ms, and the emulator spent 1.5–1.9 s of
 * CPU per GiB served instead of 0.5 s, on the two cores the side runs on, in every run after the process's first.
 */
const EMULATOR_HEAP_GROWING_PERCENT = 100;

/** A fresh emulator of the work's data, the round trip added by the API and the storage origin alike. */
async function onFreshEmulator<T>(work: PeerWork, latencyMs: number, run: (emulator: Emulator, args: Json) => Promise<T>): Promise<T> {
  const emulator = await freshEmulator({ ...work.emulator, faults: { ...work.emulator?.faults, latencyMs }, storageFaults: { latencyMs } });
  v8.setFlagsFromString(`--heap-growing-percent=${EMULATOR_HEAP_GROWING_PERCENT}`);
  try {
    work.prepare?.(emulator);
    return await run(emulator, work.args(emulator));
  } finally {
    // V8's own choice again for the rest of the bench (its heap figures are taken in this process).
    v8.setFlagsFromString('--heap-growing-percent=0');
    await emulator.close();
  }
}

/** One side's run, and what its emulator holds afterwards checked (`verify`): both are its result. */
async function checked(work: PeerWork, emulator: Emulator, args: Json, run: Promise<WorkRun>): Promise<WorkRun> {
  const done = await run;
  return work.verify ? { ...done, result: { done: done.result, check: await work.verify(emulator, args as never) } } : done;
}

export interface PairResult {
  work: PeerWork;
  latencyMs: number;
  /** 'warm': after one request; 'first': the first request after start. */
  start: 'warm' | 'first';
  ours: WorkRun;
  /** Those of works.ts; transfers set theirs in transfers.ts. */
  ideals?: WorkIdeals;
  /** `traced`: the run under tracemalloc (none for a work measured by RSS, `peerMemory: 'rss'`). */
  peer: { timed: WorkRun; traced?: WorkRun } | { missing: string };
  /** Processes spinning beside both sides while they ran (transfers.ts `underLoad`); none when unset. */
  busyCores?: number;
}

/** One piece of work on both sides at one latency. */
export async function runPair(work: PeerWork, latencyMs: number, found: ReturnType<typeof findPeer>, start: PairResult['start'] = 'warm'): Promise<PairResult> {
  const warm = start === 'warm';
  // The first requests after start: one run per process.
  const runs = warm ? (work.runs ?? RUNS) : 1;
  const { ours: first, ideals } = await onFreshEmulator(work, latencyMs, async (emulator, args) => {
    const ours = await checked(work, emulator, args, runOurs(work, emulator, args, warm, runs));
    // A work on a budget of its own (the transfers' raised one) is none of the rate-limit rows' scenarios.
    if (!work.emulator?.rateLimit) tally(`beside the official client: ${work.title}, ${latencyLabel(latencyMs)}`, 'extension', emulator);
    if (!work.ideals) return { ours, ideals: undefined };
    const client = clientFor(emulator);
    await client.rateLimit();
    return { ours, ideals: await work.ideals({ args: args as never, latencyMs, ours, emulator, client }) };
  });
  const oursRun = () => onFreshEmulator(work, latencyMs, (emulator, args) => checked(work, emulator, args, runOurs(work, emulator, args, warm, runs)));
  const flags = warm ? ['--warm'] : [];
  const peerRun = (peer: Peer, extra: string[]) =>
    onFreshEmulator(work, latencyMs, (emulator, args) => checked(work, emulator, args, runPeer(peer, work, emulator, args, [...flags, ...extra], runs)));
  const oursRuns = [first];
  const peerRuns: WorkRun[] = [];
  let peerFailed: string | undefined;
  for (let round = 0; round < (work.rounds ?? 1); round++) {
    if (round > 0) oursRuns.push(await oursRun());
    if ('missing' in found || peerFailed !== undefined) continue;
    try {
      peerRuns.push(await peerRun(found.peer, []));
    } catch (error) {
      peerFailed = error instanceof Error ? error.message : String(error);
    }
  }
  const ours = roundsRun(oursRuns);
  // A worker holding a host's heap (hostHeapMb) lets tens of MB of garbage wait between collections: the heap figure
  // is taken from a run of its own in a bare worker, of what the work holds (startHeldProbe: after collections).
  if (work.hostHeapMb) {
    const bare = await onFreshEmulator(work, latencyMs, (emulator, args) => checked(work, emulator, args, runOurs(work, emulator, args, warm, 1, true)));
    ours.memoryMb = bare.memoryMb;
  }
  if ('missing' in found) return { work, latencyMs, start, ours, ideals, peer: found };
  if (peerFailed !== undefined) return { work, latencyMs, start, ours, ideals, peer: { missing: peerFailed } };
  try {
    const traced = work.peerMemory === 'rss' ? undefined : await peerRun(found.peer, ['--tracemalloc']);
    return { work, latencyMs, start, ours, ideals, peer: { timed: roundsRun(peerRuns), traced } };
  } catch (error) {
    return { work, latencyMs, start, ours, ideals, peer: { missing: error instanceof Error ? error.message : String(error) } };
  }
}

/** Every piece of work (or those of `only`, by id) at every latency. */
export async function runPeerWorks(step: (what: string) => void, only?: readonly string[]): Promise<PairResult[]> {
  const found = findPeer();
  if ('missing' in found) console.log(`bench: the official client cannot run: ${found.missing}; its figures fail`);
  const results: PairResult[] = [];
  for (const latencyMs of PEER_LATENCIES_MS) {
    for (const work of WORKS.filter((w) => !only || only.includes(w.id))) {
      step(`beside sevenbridges-python: ${work.title}, ${latencyLabel(latencyMs)}`);
      results.push(await runPair(work, latencyMs, found));
    }
  }
  return results;
}

export const latencyLabel = (ms: number): string => (ms ? `${ms} ms round trip` : 'loopback');

const same = (a: Json, b: Json): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The official client's figure of a pair, if it ran and did the same work as the product (the same results). */
export function peerFigure(r: PairResult, pick: (run: WorkRun) => number, traced = false): PeerValue {
  if ('missing' in r.peer) return { value: undefined, note: r.peer.missing };
  const runs = [r.peer.timed, ...(r.peer.traced ? [r.peer.traced] : [])];
  const differs = runs.find((run) => !same(run.result, r.ours.result));
  if (differs) return { value: undefined, note: `not the same work: the official client's result ${JSON.stringify(differs.result)}, the product's ${JSON.stringify(r.ours.result)}` };
  const run = traced ? r.peer.traced : r.peer.timed;
  return { value: run ? pick(run) : undefined, note: run ? undefined : 'no run under tracemalloc' };
}

/** The four figures of a pair: time, requests, bytes received, peak memory; each with the official client's beside it. */
export function pairFigures(r: PairResult, section = `Beside sevenbridges-python, ${latencyLabel(r.latencyMs)}`): Figure[] {
  const { ours, work } = r;
  const ideals = r.ideals;
  if (!ideals) throw new Error(`${work.id}: no ideals (a transfer: see transfers.ts)`);
  const peerValue = (pick: (run: WorkRun) => number, note?: string): PeerValue => peerFigure(r, pick, note === 'traced');
  const name = (what: string) => `${work.title}: ${what}`;
  const bytes = peerValue((p) => p.bytes / 1024);
  const time = peerValue((p) => p.ms);
  /** A goal of issue 27 §2: the product's figure over the official client's, at most `share`. */
  const goal = (what: string, share: number | undefined, ours: number, peer: PeerValue): Figure[] =>
    share === undefined
      ? []
      : [{ section, name: name(`${what} over the official client's (#27 goal)`), unit: '×', value: peer.value ? ours / peer.value : NaN, limit: share, margin: `goal: ≤ ${share} × the official client's` }];
  return [
    { section, name: name('time'), unit: 'ms', value: ours.ms, ...ideals.ms, peer: time },
    ...goal('time', ideals.goals?.ms, ours.ms, time),
    { section, name: name('requests'), unit: 'req', value: ours.requests, ...ideals.requests, peer: peerValue((p) => p.requests) },
    {
      section,
      name: name("bytes received (the answers' bodies)"),
      unit: 'KB',
      value: ours.bytes / 1024,
      ideal: ideals.bytes.ideal,
      ...(ideals.bytes.bound ?? { limit: 'missing' in r.peer ? NaN : (1.1 * r.peer.timed.bytes) / 1024, margin: "bound: the official client's + 10 %" }),
      peer: bytes,
      note: ideals.bytes.note,
    },
    ...goal('bytes received', ideals.goals?.bytes, ours.bytes / 1024, bytes),
    {
      section,
      name: name('peak memory (product: heap above its baseline; official client: tracemalloc peak, a run of its own)'),
      unit: 'MB',
      value: ours.memoryMb,
      ...ideals.memoryMb,
      peer: peerValue((p) => p.memoryMb, 'traced'),
    },
  ];
}

export const FIRST_REQUEST_RUNS = 5;

/**
 * The first requests after start: the six counts on loopback from a process just started, no request before
 * (median of FIRST_REQUEST_RUNS fresh processes each). The product has started and warmed its HTTP stack (as
 * main.ts does a second after starting); the official client has imported its package and made its `Api`.
 */
export function firstRequestFigure(runs: PairResult[]): Figure {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [time] = pairFigures(runs[0]);
  const peers = runs.map((r) => ('missing' in r.peer ? undefined : r.peer.timed.ms));
  const peerMs = peers.every((ms) => ms !== undefined) ? median(peers as number[]) : undefined;
  return {
    ...time,
    name: `${runs[0].work.title}, the first requests after start: time (median of ${runs.length} fresh processes each; before #27: 62–71 ms, node-fetch loaded by the first request)`,
    value: median(runs.map((r) => r.ours.ms)),
    peer: peerMs === undefined ? time.peer : { value: peerMs },
  };
}
