// The adversary's world (09-adversary, 15-exactly-once-new-kinds): windows wired as the extension wires them (an
// Outbox with its default timings and every kind of write: copy, the task actions and Re-run Failed, the files' kinds,
// upload complete; a JobTracker), on one global state whose writes reach the other windows after a delay, over the
// in-memory platform, all on one fake clock. The person's part is played too: a write the outbox leaves to them (not
// found after the late window) is submitted again. At the end `account` counts, per kind of write, what the summary
// shows (made once, doubled, lost, wrongly adopted, stuck).
import type { Task } from '../../src/api/types';
import type { TaskActionKind } from '../../src/api/tasks';
import type { CopyPayload } from '../../src/jobs/copyRequests';
import { JobTracker, type JobDestination } from '../../src/jobs/tracker';
import { WRITE_KINDS } from '../../src/keys/writes';
import { TASK_ACTION_WRITES, type TaskActionPayload } from '../../src/tasks/actions';
import { Outbox, type Account, type FinishedWrite, type WriteRecord } from '../../src/write/outbox';
import { writeKinds } from '../../src/writeKinds';
import { FakeClock } from '../support/fakeClock';
import { SharedGlobalState, type WindowState } from '../support/sharedState';
import { createKey, MemoryPlatform } from './memoryPlatform';
import type { CreateTaskPayload } from '../../src/tasks/taskWrites';
import type { NewTask } from '../../src/api/types';
import { accountWrites, compareWrites, note, record } from './support';

export const TOKEN_HERE = 'sbadversary0123456789abcdef0123456789';
const ENDPOINT = 'https://api.example/v2';
export const ACCOUNT: Account = { key: `${ENDPOINT}#rfranklin`, credentials: { endpoint: ENDPOINT, token: TOKEN_HERE } };
export const DESTINATION: JobDestination = { label: 'dest', project: 'rfranklin/dest' };

/** No window owns a write for this long: stuck. */
const noApps = (): Promise<never> => Promise.reject(new Error('no apps on the in-memory platform'));
const STUCK_MS = 5 * 60_000;
const MONITOR_MS = 5_000;

/** The summary's name for a kind of write. */
export function kindLabel(kind: string, payload?: unknown): string {
  if (kind === WRITE_KINDS.copy) return 'copy';
  if (kind === WRITE_KINDS.createTask) return 'create task';
  if (kind === WRITE_KINDS.createSheetTask) return 'create tasks from a sheet';
  const action = kind.startsWith('taskAction.') ? kind.slice('taskAction.'.length) : (payload as TaskActionPayload | undefined)?.action;
  return action === 'rerun' ? 're-run' : (action ?? kind);
}

/** What a write asks for, as the platform's `made` keys it. */
export function writeKey(kind: string, payload: unknown): string {
  if (kind === WRITE_KINDS.copy) return `copy:${JSON.stringify((payload as CopyPayload).items)}`;
  if (kind === WRITE_KINDS.createTask || kind === WRITE_KINDS.createSheetTask) return createKey((payload as CreateTaskPayload).task);
  const { action, task } = payload as TaskActionPayload;
  return `${action}:${task.id}`;
}

export class MemoryWindow {
  readonly tracker: JobTracker;
  readonly outbox: Outbox;
  readonly finished: FinishedWrite[] = [];
  alive = true;

  constructor(
    readonly world: MemoryWorld,
    readonly state: WindowState,
  ) {
    const { platform, clock } = world;
    this.tracker = new JobTracker(platform.copyJobs, state, clock, { account: () => ACCOUNT.key });
    // The platform's clock as the transport estimates it (from its answers' Date header: whole seconds).
    const serverNow = () => Math.floor(platform.now() / 1000) * 1000;
    const client = {
      files: platform.filesApi,
      fileJobs: platform.fileJobs,
      bulkFiles: platform.bulkFilesApi,
      tasks: platform.tasksApi,
      uploads: platform.uploadsApi,
      // Apps are not part of the in-memory platform: their writes are tried against the emulator (17-app-revision).
      apps: { raw: noApps, createRevision: noApps, install: noApps },
      budget: { holdBulk: () => world.holdBulk(), serverClock: { now: serverNow, estimate: serverNow } },
    };
    // Every kind of write, from the extension's own table.
    this.outbox = new Outbox(state, async () => ACCOUNT, writeKinds(client, this.tracker, clock), clock);
    this.outbox.onDidFinish((f) => this.finished.push(f));
    this.outbox.start();
  }

  /** The person copies these files to the destination (one call); their names are known, as from the files view. */
  async copy(files: { id: string; name: string }[]): Promise<WriteRecord> {
    const payload: CopyPayload = {
      items: files.map((f) => ({ file: f.id, project: DESTINATION.project })),
      destination: DESTINATION,
      sourceNames: Object.fromEntries(files.map((f) => [f.id, f.name])),
    };
    return this.ask(WRITE_KINDS.copy, payload);
  }

  /** The person aborts, runs or re-runs a task. */
  async action(action: TaskActionKind, task: Task): Promise<WriteRecord> {
    const payload: TaskActionPayload = { action, task: { id: task.id, name: task.name, app: task.app, project: task.project, status: task.status } };
    return this.ask(TASK_ACTION_WRITES[action], payload);
  }

  /** The person runs a task document (Run Task), or saves it as a draft; `sheet`: one row of Run for Each Row…. */
  async create(task: NewTask, options: { run?: boolean; sheet?: boolean } = {}): Promise<WriteRecord> {
    const payload: CreateTaskPayload = { task, run: options.run ?? true };
    return this.ask(options.sheet ? WRITE_KINDS.createSheetTask : WRITE_KINDS.createTask, payload);
  }

  /** The person runs a sample sheet: one create per row, one group, sent in order and paced. */
  async createMany(tasks: NewTask[]): Promise<WriteRecord[]> {
    const payloads: CreateTaskPayload[] = tasks.map((task) => ({ task, run: true }));
    const recorded = await this.submit(WRITE_KINDS.createSheetTask, payloads);
    recorded.forEach((r, i) => this.world.requested.push({ label: kindLabel(r.kind), key: writeKey(r.kind, payloads[i]), id: r.id }));
    return recorded;
  }

  /** The person makes writes of any kind (one command): recorded, as `submit` resolves once global state has them. */
  async submit<P>(kind: string, payloads: P[]): Promise<WriteRecord[]> {
    let recorded: WriteRecord[] | undefined;
    void this.outbox.submit(kind, payloads, ACCOUNT).then((r) => (recorded = r));
    while (!recorded) await this.world.clock.tickAsync(10);
    return recorded;
  }

  /** The window's process dies: nothing it writes from now on reaches anyone. */
  kill(): void {
    this.alive = false;
    this.state.closed = true;
    this.outbox.dispose();
    this.tracker.dispose();
  }

  /** The window closes cleanly. */
  close(): void {
    this.alive = false;
    this.outbox.dispose();
    this.tracker.dispose();
    this.state.closed = true;
  }

  private async ask(kind: string, payload: unknown): Promise<WriteRecord> {
    // Recording it resolves once global state has it, which takes the propagation delay: the clock moves meanwhile.
    let recorded: WriteRecord[] | undefined;
    void this.outbox.submit(kind, [payload], ACCOUNT).then((r) => (recorded = r));
    while (!recorded) await this.world.clock.tickAsync(10);
    const [made] = recorded;
    this.world.requested.push({ label: kindLabel(kind, payload), key: writeKey(kind, payload), id: made.id });
    return made;
  }
}

export class MemoryWorld {
  readonly clock: FakeClock;
  readonly global: SharedGlobalState;
  readonly platform: MemoryPlatform;
  readonly windows: MemoryWindow[] = [];
  readonly requested: { label: string; key: string; id: string }[] = [];
  /** How often the person pressed Submit Again on a write not found after the late window. */
  userResubmits = 0;
  /** How long bulk work is held back before each send (the API budget's pacing); none by default. */
  holdBulk: () => number = () => 0;
  private readonly orphanedFor = new Map<string, number>();
  private readonly stuck = new Set<string>();

  constructor(options: { propagationMs?: number; platform?: ConstructorParameters<typeof MemoryPlatform>[1] } = {}) {
    this.clock = new FakeClock();
    this.global = new SharedGlobalState(options.propagationMs ?? 0, this.clock);
    this.platform = new MemoryPlatform(this.clock, { token: TOKEN_HERE, ...options.platform });
    const monitor = () => {
      this.watchOwners();
      this.clock.setTimeout(monitor, MONITOR_MS);
    };
    this.clock.setTimeout(monitor, MONITOR_MS);
  }

  open(): MemoryWindow {
    const state = this.global.window();
    record.stores.push(state);
    const window = new MemoryWindow(this, state);
    this.windows.push(window);
    return window;
  }

  /**
   * Lets `ms` of fake time pass, a second at a time. The person acts as the product asks them to: a write not found
   * after the late window is submitted again (`submitAgain`), as they would after reading why.
   */
  async run(ms: number, options: { submitAgain?: boolean } = {}): Promise<void> {
    for (let t = 0; t < ms; t += 1_000) {
      await this.clock.tickAsync(Math.min(1_000, ms - t));
      if (options.submitAgain === false) continue;
      for (const w of this.windows.filter((x) => x.alive)) {
        for (const r of w.outbox.all().filter((x) => x.state === 'notFound' && w.outbox.owns(x))) {
          this.userResubmits++;
          // Not awaited: it resolves once global state has it, while the clock moves on.
          void w.outbox.resubmit(r.group);
        }
      }
    }
  }

  /** The writes not finished, as the main process holds them. */
  pending(): WriteRecord[] {
    return this.global
      .keys()
      .filter((k) => k.startsWith('sevenbridges.write.'))
      .map((k) => this.global.get(k) as WriteRecord)
      .filter((r) => r && r.state !== ('done' as string));
  }

  /**
   * Counts the scenario into the summary, per kind: the person's requests against what the platform made, every
   * adoption against what made it, and the writes no window owned for 5 minutes. Returns the figures per kind.
   * `row`: the case's own row of the table (under its kind), else the kind's.
   */
  account(what: string, row?: string): Record<string, ReturnType<typeof compareWrites> & { wronglyAdopted: number; stuck: number }> {
    const figures: Record<string, ReturnType<typeof compareWrites> & { wronglyAdopted: number; stuck: number }> = {};
    const labels = new Set(this.requested.map((r) => r.label));
    const finished = this.windows.flatMap((w) => w.finished);
    for (const label of labels) {
      const asked = this.requested.filter((r) => r.label === label);
      const keys = new Set(asked.map((r) => r.key));
      const made = this.platform.made.filter((m) => keys.has(m.key)).map((m) => m.key);
      const compared = compareWrites(asked.map((r) => r.key), made);
      let wronglyAdopted = 0;
      const taker = new Map<string, string>();
      for (const f of finished.filter((x) => kindLabel(x.record.kind, x.record.payload) === label)) {
        const key = writeKey(f.record.kind, f.record.payload);
        const id = (f.outcome as { id?: string } | undefined)?.id ?? '';
        const effect = label === 'abort' || label === 'run' ? this.platform.made.find((m) => m.key === key) : this.platform.made.find((m) => m.id === id);
        if (f.found && (!effect || effect.key !== key)) wronglyAdopted++;
        // One thing the platform made answers for one write only.
        if (label === 'copy' || label === 're-run' || label.startsWith('create task')) {
          if (taker.has(id) && taker.get(id) !== f.record.id) wronglyAdopted++;
          taker.set(id, f.record.id);
        }
      }
      const stuck = [...this.stuck].filter((id) => asked.some((r) => r.id === id)).length;
      figures[label] = { ...compared, wronglyAdopted, stuck };
      accountWrites(label, figures[label], row);
    }
    note(`${what}: ${Object.entries(figures).map(([k, f]) => `${k} requested ${f.requested}, made once ${f.once}, doubled ${f.doubled}, lost ${f.lost}, wrongly adopted ${f.wronglyAdopted}, stuck ${f.stuck}`).join('; ')}${this.userResubmits ? `; Submit Again pressed ${this.userResubmits}×` : ''}`);
    return figures;
  }

  /** The writes (by ID) no live window owned for 5 minutes on end. */
  stuckIds(): string[] {
    return [...this.stuck];
  }

  dispose(): void {
    for (const w of this.windows) if (w.alive) w.close();
  }

  /** A write that no live window owns, for 5 minutes on end, is stuck. */
  private watchOwners(): void {
    const alive = this.windows.filter((w) => w.alive);
    for (const r of this.pending()) {
      if (!r || typeof r !== 'object' || (r as { problem?: string }).problem) continue;
      const owned = alive.some((w) => w.outbox.owns(r));
      const since = owned ? 0 : (this.orphanedFor.get(r.id) ?? 0) + MONITOR_MS;
      this.orphanedFor.set(r.id, since);
      if (since >= STUCK_MS) this.stuck.add(r.id);
    }
  }
}
