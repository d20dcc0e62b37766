// The product beside the official Python client (sevenbridges-python, unmodified) in the same run, on the same
// emulator: each piece of work of works.ts on loopback and with an 80 ms round trip. Each side runs against a
// fresh emulator of the same data (its own quota), in a process of its own; the emulator counts the requests and
// the bytes of the answers' bodies between the side's `ready` and its result. The official client runs twice:
// once timed, once under tracemalloc for its peak memory (tracing slows Python down).
import { fork, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createInterface } from 'readline';
import type { Emulator } from '../../../test/emulator';
import { clientFor, freshEmulator, tally } from '../env';
import type { Figure, PeerValue } from '../figures';
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
type Reported = { ms: number; memoryMb: number; result: Json; startedAt: number };

/** Counts the emulator's requests and body bytes between `start` (the side said ready) and `stop` (its result). */
function meter(emulator: Emulator) {
  let requests = 0;
  let bytes = 0;
  return {
    start: () => ([requests, bytes] = [emulator.stats.requests, emulator.stats.bodyBytes]),
    stop: () => ({ requests: emulator.stats.requests - requests, bytes: emulator.stats.bodyBytes - bytes }),
  };
}

function withTimeout<T>(what: string, promise: Promise<T>, kill: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      kill();
      reject(new Error(`${what}: no result within ${RUN_TIMEOUT_MS / 1000} s`));
    }, RUN_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The median of each figure over the runs (their results must agree). */
function medianRun(runs: WorkRun[]): WorkRun {
  const median = (pick: (r: WorkRun) => number) => runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const results = new Set(runs.map((r) => JSON.stringify(r.result)));
  return {
    ms: median((r) => r.ms),
    requests: median((r) => r.requests),
    bytes: median((r) => r.bytes),
    memoryMb: median((r) => r.memoryMb),
    result: results.size === 1 ? runs[0].result : { differ: [...results] },
    startedAt: runs[0].startedAt,
  };
}

/**
 * Runs a side's process: at each `ready` it counts the emulator's requests and bytes from there, says go, and at
 * each result takes the counts; resolves with the median of the runs.
 */
function handshake(what: string, emulator: Emulator, runs: number, io: { go(): void; kill(): void }, listen: (ready: () => void, done: (r: Reported) => void, fail: (e: Error) => void) => void): Promise<WorkRun> {
  const counts = meter(emulator);
  const done: WorkRun[] = [];
  const all = new Promise<WorkRun>((resolve, reject) =>
    listen(
      () => {
        counts.start();
        io.go();
      },
      (reported) => {
        done.push({ ...reported, ...counts.stop() });
        if (done.length === runs) resolve(medianRun(done));
      },
      reject,
    ),
  );
  return withTimeout(what, all, io.kill).finally(io.kill);
}

/** The product's side, in a worker process. */
function runOurs(work: PeerWork, emulator: Emulator, warm: boolean, runs: number): Promise<WorkRun> {
  const job: PeerWorkerJob = { work: work.id, baseUrl: emulator.baseUrl, token: emulator.token, username: emulator.username, args: work.args(emulator), warm, runs };
  const child = fork(path.join(__dirname, 'peerWorker.js'), [JSON.stringify(job)], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  return handshake(`${work.id} (product)`, emulator, runs, { go: () => child.send('go'), kill: () => child.kill() }, (ready, done, fail) => {
    child.on('message', (m: PeerWorkerMessage) => {
      if (m.kind === 'ready') ready();
      else if (m.kind === 'done') done({ ms: m.ms, memoryMb: m.memoryMb, result: m.result, startedAt: m.startedAt });
      else fail(new Error(`${work.id}: ${m.error}`));
    });
    child.once('exit', (code) => fail(new Error(`${work.id}: the worker exited (${code}) before its last result`)));
  });
}

/** The official client's side: peer.py in a process of its own. */
function runPeer(peer: Peer, work: PeerWork, emulator: Emulator, flags: string[], runs: number): Promise<WorkRun> {
  const args = [SCRIPT, work.id, emulator.baseUrl, emulator.token, JSON.stringify(work.args(emulator)), `--runs=${runs}`, ...flags];
  const child = spawn(peer.python, args, { env: { ...process.env, PYTHONPATH: peer.path }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return handshake(`${work.id} (official client)`, emulator, runs, { go: () => child.stdin.write('go\n'), kill: () => child.kill() }, (ready, done, fail) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') return ready();
      try {
        const out = JSON.parse(line) as { ms: number; result: Json; peak_bytes: number | null };
        done({ ms: out.ms, memoryMb: (out.peak_bytes ?? NaN) / 2 ** 20, result: out.result, startedAt: NaN });
      } catch {
        fail(new Error(`${work.id} (official client): unexpected output: ${line}`));
      }
    });
    child.once('exit', (code) => fail(new Error(`${work.id} (official client) exited (${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`)));
  });
}

async function onFreshEmulator<T>(work: PeerWork, latencyMs: number, run: (emulator: Emulator) => Promise<T>): Promise<T> {
  const emulator = await freshEmulator({ ...work.emulator, faults: { latencyMs } });
  try {
    return await run(emulator);
  } finally {
    await emulator.close();
  }
}

export interface PairResult {
  work: PeerWork;
  latencyMs: number;
  /** 'warm': after one request; 'first': the first request after start. */
  start: 'warm' | 'first';
  ours: WorkRun;
  ideals: WorkIdeals;
  peer: { timed: WorkRun; traced: WorkRun } | { missing: string };
}

/** One piece of work on both sides at one latency. */
export async function runPair(work: PeerWork, latencyMs: number, found: ReturnType<typeof findPeer>, start: PairResult['start'] = 'warm'): Promise<PairResult> {
  const warm = start === 'warm';
  // The first requests after start: one run per process.
  const runs = warm ? (work.runs ?? RUNS) : 1;
  const { ours, ideals } = await onFreshEmulator(work, latencyMs, async (emulator) => {
    const ours = await runOurs(work, emulator, warm, runs);
    tally(`beside the official client: ${work.title}, ${latencyLabel(latencyMs)}`, 'extension', emulator);
    const client = clientFor(emulator);
    await client.rateLimit();
    return { ours, ideals: await work.ideals({ args: work.args(emulator) as never, latencyMs, ours, emulator, client }) };
  });
  if ('missing' in found) return { work, latencyMs, start, ours, ideals, peer: found };
  const flags = warm ? ['--warm'] : [];
  try {
    const timed = await onFreshEmulator(work, latencyMs, (emulator) => runPeer(found.peer, work, emulator, flags, runs));
    const traced = await onFreshEmulator(work, latencyMs, (emulator) => runPeer(found.peer, work, emulator, [...flags, '--tracemalloc'], runs));
    return { work, latencyMs, start, ours, ideals, peer: { timed, traced } };
  } catch (error) {
    return { work, latencyMs, start, ours, ideals, peer: { missing: error instanceof Error ? error.message : String(error) } };
  }
}

/** Every piece of work at every latency. */
export async function runPeerWorks(step: (what: string) => void): Promise<PairResult[]> {
  const found = findPeer();
  if ('missing' in found) console.log(`bench: the official client cannot run: ${found.missing}; its figures fail`);
  const results: PairResult[] = [];
  for (const latencyMs of PEER_LATENCIES_MS) {
    for (const work of WORKS) {
      step(`beside sevenbridges-python: ${work.title}, ${latencyLabel(latencyMs)}`);
      results.push(await runPair(work, latencyMs, found));
    }
  }
  return results;
}

export const latencyLabel = (ms: number): string => (ms ? `${ms} ms round trip` : 'loopback');

const same = (a: Json, b: Json): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The four figures of a pair: time, requests, bytes received, peak memory; each with the official client's beside it. */
export function pairFigures(r: PairResult, section = `Beside sevenbridges-python, ${latencyLabel(r.latencyMs)}`): Figure[] {
  const { ours, ideals, work } = r;
  const peerValue = (pick: (run: WorkRun) => number, note?: string): PeerValue => {
    if ('missing' in r.peer) return { value: undefined, note: r.peer.missing };
    const { timed, traced } = r.peer;
    if (!same(timed.result, ours.result) || !same(traced.result, ours.result)) {
      return { value: undefined, note: `not the same work: the official client's result ${JSON.stringify(timed.result)}, the product's ${JSON.stringify(ours.result)}` };
    }
    return { value: pick(note === 'traced' ? traced : timed) };
  };
  const name = (what: string) => `${work.title}: ${what}`;
  const bytes = peerValue((p) => p.bytes / 1024);
  return [
    { section, name: name('time'), unit: 'ms', value: ours.ms, ...ideals.ms, peer: peerValue((p) => p.ms) },
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
