// The copy side of the fault suite: an emulator, a client whose next POST can be given a fault, and windows
// (tracker + outbox + the copy write, as `copy/register.ts` wires them) on one shared global state. What a
// person is told comes from the product's own words (`submissionTellings`), recorded with `shown`.
import nodeFetch from 'node-fetch';
import type { SbClient } from '../../src/api/client';
import type { FetchLike } from '../../src/api/transport';
import type { AsyncJob, CopyItem } from '../../src/api/types';
import { systemClock } from '../../src/api/clock';
import { copyWrite } from '../../src/copy/copyWrite';
import type { CopyPayload } from '../../src/jobs/copyRequests';
import { trackedJobs } from '../../src/jobs/jobWrite';
import { WRITE_KINDS } from '../../src/keys/writes';
import { submissionTellings, type Telling } from '../../src/copy/submissionWords';
import { JobTracker, type JobDestination, type TrackedJob } from '../../src/jobs/tracker';
import { Outbox, type Account, type OutboxOptions, type WriteRecord } from '../../src/write/outbox';
import { requestsOf, WRITES, type Emulator, type EmulatorOptions, type FileRec } from '../emulator';
import { SharedGlobalState, type WindowState } from '../support/sharedState';
import { accountWrites, compareWrites, makeClient, makeEmulator, record, shown, waitFor } from './support';

export type PostFault = 'error500' | 'drop' | 'burst429' | 'maintenance' | 'lose' | 'garble' | 'slowLose' | 'proxy503';

/**
 * Timings of a test window: settle outlasts two trips through global state (4 × 500 ms), stale outlasts it plus a
 * beat. The emulator acts on a call at once or never, so the late window is short here; calls acted on late are
 * tried in 09-adversary on the fake clock, with the default timings.
 */
export const TEST_OUTBOX: OutboxOptions = { heartbeatMs: 100, staleMs: 1_500, settleMs: 2_100, lookupDelayMs: 50, maxWaitMs: 400, lateWindowMs: 3_000 };
export const TEST_TRACKER = { firstDelayMs: 20, intervalMs: 40, maxIntervalMs: 200 };

/** A fetch that gives the next POSTs the faults queued in `postFaults`. */
export function faultyFetch(emu: Emulator, postFaults: PostFault[], onPost: (() => void)[] = []): FetchLike {
  return async (url, init) => {
    if (init.method === 'POST') onPost.shift()?.();
    const fault = init.method === 'POST' ? postFaults.shift() : undefined;
    if (!fault) return nodeFetch(url, init);
    if (fault === 'proxy503') {
      // A proxy in front of the platform answers 503 after passing the call on: it was processed.
      await nodeFetch(url, init);
      return { status: 503, headers: { get: () => null }, text: async () => '<html><body>503 Service Unavailable</body></html>' };
    }
    const saved = { ...emu.faults };
    if (fault === 'error500') Object.assign(emu.faults, { error500Rate: 1, dropRate: 0 });
    if (fault === 'drop') Object.assign(emu.faults, { dropRate: 1 });
    if (fault === 'garble') Object.assign(emu.faults, { error500Rate: 0, dropRate: 0, malformedRate: 1 });
    // Aimed at the copy's POST: the tracker's GETs run meanwhile, and on CI one of them took a 429 meant for any
    // request. The reset in 10 s leaves a busy machine time to tell the person before the copy goes out again.
    if (fault === 'burst429') emu.burst429(1, 10, requestsOf(WRITES.copy));
    if (fault === 'maintenance') emu.maintenance(60_000);
    if (fault === 'slowLose') Object.assign(emu.faults, { latencyMs: 300 });
    if (fault === 'lose' || fault === 'slowLose') {
      Object.assign(emu.faults, { error500Rate: 0, dropRate: 0 });
      emu.loseNextCopyResponse();
    }
    try {
      return await nodeFetch(url, init);
    } finally {
      Object.assign(emu.faults, saved);
      if (fault === 'maintenance') emu.maintenance(0);
    }
  };
}

export interface Sent {
  group: string;
  records: WriteRecord[];
  /** Jobs of this send that reached the tracker by the time it settled. */
  jobs: TrackedJob[];
  /** Calls still in the outbox when it settled, and what the person is told about them. */
  left: WriteRecord[];
  tellings: Telling[];
}

/** One VS Code window: its client, its view of global state, its tracker and outbox. */
export class CopyWindow {
  readonly tracker: JobTracker;
  readonly outbox: Outbox;
  readonly finished: { record: WriteRecord; job: AsyncJob; found: boolean }[] = [];

  constructor(
    readonly client: SbClient,
    readonly store: WindowState,
    readonly account: () => Promise<Account | undefined>,
    accountKey: () => string | undefined,
    outboxOptions: OutboxOptions = TEST_OUTBOX,
    /** Every copy call the person asks for in any window of the setup, for the summary's table of writes. */
    requested: string[] = [],
  ) {
    this.tracker = new JobTracker(client.copyJobs, store, undefined, { ...TEST_TRACKER, account: accountKey });
    // The copy write not paced to the API budget (no budget given): the faults come from the tests.
    const copy = copyWrite({ jobs: client.fileJobs, files: client.files, tracker: this.tracker, clock: systemClock, serverNow: () => client.budget.serverClock.now() });
    this.outbox = new Outbox(store, account, [copy], undefined, outboxOptions);
    this.outbox.onDidFinish(({ record, outcome, found }) => this.finished.push({ record, job: outcome as AsyncJob, found }));
    const submit = this.outbox.submit.bind(this.outbox);
    this.outbox.submit = async (kind, payloads, account) => {
      if (kind === WRITE_KINDS.copy) requested.push(...payloads.map((p) => callKey((p as CopyPayload).items)));
      return submit(kind, payloads, account);
    };
    this.outbox.start();
  }

  /** What the copy command does (`CopyFlow.submit`): records the calls, waits until they settle, tells what is left. */
  async send(batches: CopyItem[][], destination: JobDestination, where = 'copy'): Promise<Sent> {
    const account = await this.account();
    if (!account) throw new Error('not signed in');
    const payloads: CopyPayload[] = batches.map((items) => ({ items, destination }));
    const { records, finished, left } = await this.outbox.send(WRITE_KINDS.copy, payloads, account);
    const jobs = trackedJobs(this.tracker, finished);
    const tellings = submissionTellings(left as WriteRecord<CopyPayload>[], destination.label, Date.now());
    for (const t of tellings) shown(`${where}: ${t.severity}`, t.text, t.actions);
    return { group: records[0].group, records, jobs, left, tellings };
  }

  /**
   * Waits until none of the group's calls is left in any window's view of the outbox. A call not found on the
   * platform after the late window waits for the person: here they read "Not found on the platform… Submit
   * again?" and press Submit Again (counted in `userResubmits`).
   */
  async drained(group: string, what: string, timeoutMs = 20_000): Promise<void> {
    await waitFor(
      `${what}: every call of the copy reached the platform`,
      async () => {
        const left = this.outbox.all().filter((r) => r.group === group);
        if (left.some((r) => r.state === 'notFound' && this.outbox.owns(r))) {
          this.userResubmits++;
          shown(`${what}: not found`, left.find((r) => r.state === 'notFound')!.note!, ['Submit Again']);
          await this.outbox.resubmit(group);
        }
        return !left.length;
      },
      timeoutMs,
    );
  }

  /** How often the person pressed Submit Again on a call not found after the late window. */
  userResubmits = 0;

  /** The window closes: its last writes (the heartbeat's removal) still reach the others. */
  dispose(): void {
    this.outbox.dispose();
    this.tracker.dispose();
    this.store.closed = true;
  }

  /** The window's process dies: nothing it writes from now on reaches anyone (its heartbeat goes stale). */
  kill(): void {
    this.store.closed = true;
    this.outbox.dispose();
    this.tracker.dispose();
  }
}

export interface CopySetupOptions extends EmulatorOptions {
  /** Propagation delay of global state between windows (ms). */
  propagationMs?: number;
}

/** A copy setup: emulator, a client whose next POST can be given a fault, one window on a shared global state. */
export async function copySetup(options: CopySetupOptions = {}) {
  const { propagationMs = 0, ...emuOptions } = options;
  const emu = await makeEmulator({ copyStepMs: 30, ...emuOptions });
  const postFaults: PostFault[] = [];
  const global = new SharedGlobalState(propagationMs);
  const project = emu.data.projects.find((p) => p.permissions.write)!;
  const destination: JobDestination = { label: project.name, project: project.id };
  const sources = emu.data.files.filter((f: FileRec) => f.parent !== null && f.type === 'file');
  /** A window signed in with `token` (the emulator's own by default). */
  const onPost: (() => void)[] = [];
  const requested: string[] = [];
  const windows: CopyWindow[] = [];
  /** A window signed in with `token()` (the emulator's own by default; a function, so a test can switch accounts). */
  const openWindow = (token: () => string = () => emu.token, outboxOptions?: OutboxOptions) => {
    const client = makeClient(emu.baseUrl, { fetch: faultyFetch(emu, postFaults, onPost), token: null, credentials: async () => ({ endpoint: emu.baseUrl, token: token() }) });
    const store = global.window();
    record.stores.push(store);
    let known: { token: string; key: string } | undefined;
    // As the extension does: the username is learned for each token, and the tracker follows that account's jobs.
    const account = async (): Promise<Account | undefined> => {
      const credentials = { endpoint: emu.baseUrl, token: token() };
      if (known?.token !== credentials.token) {
        known = { token: credentials.token, key: `${emu.baseUrl}#${(await client.user({ credentials })).username}` };
        window.tracker.resume();
      }
      return { key: known.key, credentials };
    };
    const window: CopyWindow = new CopyWindow(client, store, account, () => (known?.token === token() ? known.key : undefined), outboxOptions, requested);
    windows.push(window);
    return window;
  };
  /**
   * Counts the setup's copy calls into the summary's table of writes: each call asked for against the calls the
   * emulator processed (a job made), and each job a window adopted against the call that made it.
   */
  const accountCalls = () => {
    const made = emu.copyRequests.filter((r) => r.jobId !== undefined && Array.isArray(r.items)).map((r) => callKey(r.items as CopyItem[]));
    let wronglyAdopted = 0;
    const taker = new Map<string, string>();
    for (const f of windows.flatMap((w) => w.finished)) {
      const made = emu.copyRequests.find((r) => r.jobId === f.job.id);
      if (f.found && (!made || callKey(made.items as CopyItem[]) !== callKey((f.record.payload as CopyPayload).items))) wronglyAdopted++;
      if (taker.has(f.job.id) && taker.get(f.job.id) !== f.record.id) wronglyAdopted++;
      taker.set(f.job.id, f.record.id);
    }
    // Every test here waits until no call is left in the outbox: none stays without an owner.
    const figures = { ...compareWrites(requested, made), wronglyAdopted, stuck: 0 };
    accountWrites('copy', figures);
    return figures;
  };
  const window = openWindow();
  await window.account();
  return { emu, global, postFaults, onPost, destination, sources, openWindow, window, client: window.client, tracker: window.tracker, outbox: window.outbox, accountCalls };
}

export type CopySetup = Awaited<ReturnType<typeof copySetup>>;

/** A copy call as the emulator records it and as the summary counts it: its items. */
function callKey(items: readonly CopyItem[]): string {
  return JSON.stringify(items);
}

export async function untilFinished(tracker: JobTracker, where: string): Promise<void> {
  await waitFor(`${where}: every job FINISHED with its results`, () => tracker.all().every((j) => j.state === 'FINISHED' && (j.result?.length ?? 0) === j.items.length), 30_000);
}

/** Requests the client logged since `mark`, as `METHOD /path`. */
/** A POST that writes (the bulk reads, `POST …/get` and the file search, are POSTs that read). */
export const isWritePost = (line: string): boolean => line.startsWith('POST') && !/\/get$|\/files\/search$/.test(line);

export function logSince(mark: number): string[] {
  return record.logEntries.slice(mark).map((e) => `${e.method} ${e.path.split('?')[0]}`);
}
