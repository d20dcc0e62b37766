// How a write that makes a task finds it after a lost answer (ARCHITECTURE.md, "Writes"): by difference. The
// project's tasks are read newest first (`order_by=created_time`, documented) down to the newest a snapshot taken
// before the send had; the task is one not in the snapshot, that the write's own test matches (a re-run: the
// original's name and app; a new task: its name, app and inputs), claimed by no other write, and made no earlier
// than the send on the platform's clock (a snapshot serves the sends of 10 s: a task made by hand meanwhile is not
// this one's; one read ahead while a task document is open, those of a minute). No clock of this machine is compared
// with the platform's. Re-run, Re-run Failed, Run Task and a sample sheet's tasks share it. No `vscode`.
import * as l10n from '@vscode/l10n';
import { systemClock, type Clock } from '../api/clock';
import type { TaskListQuery } from '../api/tasks';
import type { Credentials } from '../api/transport';
import type { Page, Task } from '../api/types';
import { appearedSince, type Identity, type Lookup } from '../write/kinds';
import type { WriteRecord } from '../write/records';

export interface TaskListApi {
  list(query: TaskListQuery, page: { offset?: number; limit?: number; credentials?: Credentials }): Promise<Page<Task>>;
}

/** The newest tasks of the project just before a write that makes a task was sent. */
export interface CloneSnapshot {
  before: string[];
  /** The newest `created_time` among them: a task created since is not older. */
  newest?: string;
  /**
   * The platform's time (its clock as estimated from its `Date` header, epoch ms) when this very write was sent: its
   * task was made no earlier. Absent while the platform's clock is not known yet.
   */
  sentAt?: number;
}

/** A snapshot read back (it may be damaged). */
export function isCloneSnapshot(value: unknown): value is CloneSnapshot {
  const s = value as Partial<CloneSnapshot> | null;
  return (
    !!s &&
    typeof s === 'object' &&
    Array.isArray(s.before) &&
    s.before.every((id) => typeof id === 'string') &&
    (s.newest === undefined || typeof s.newest === 'string') &&
    (s.sentAt === undefined || (typeof s.sentAt === 'number' && Number.isFinite(s.sentAt)))
  );
}

const TASK_PAGE = 100;
/** Pages of the project's tasks (newest first) a lookup reads, down to the snapshot's newest. */
const LOOKUP_PAGES = 10;
/** A snapshot this recent serves the next write in the project (of a bulk re-run, of a sheet): what those made is claimed. */
const SNAPSHOT_REUSE_MS = 10_000;
/**
 * A snapshot read ahead (`prepare`: a task document open, with no problem) serves a send this long, once the
 * platform's time of the send is known: what appeared since, made before the send, is not its task (`madeSince`).
 * Longer, and a lookup may have more pages to read down to it.
 */
const PREPARED_REUSE_MS = 60_000;
/** A read ahead is made again once the one before is this old: a send in the next half minute still finds one that serves. */
const PREPARE_AGAIN_MS = 30_000;
/**
 * A task made by a send shows a `created_time` no earlier than this before the send's time as estimated: the estimate
 * is the `Date` header of an earlier answer (whole seconds, so behind the platform's time, never ahead), a
 * `created_time` is rounded down to its second, and the platform's machines may differ by a second.
 */
const SEND_TIME_MARGIN_MS = 2_000;

/** A snapshot kept for the sends after it: when it was asked (this machine's monotonic time, the platform's), and how. */
interface Kept {
  at: number;
  serverAt: number | undefined;
  snapshot: Promise<CloneSnapshot>;
  /** Read ahead (`prepare`), not by a send. */
  prepared: boolean;
  failed: boolean;
}

export interface NewTaskRule<P> {
  /** The project the task is made in (none: nothing can be looked for). */
  project(payload: P): string | undefined;
  /** The fields of the listed tasks `matches` reads, beside id, created_time. */
  fields: string;
  /** Whether a task that appeared since the snapshot is this write's. */
  matches(task: Task, payload: P): boolean;
  /** Words: nothing shows in the project. */
  absent: () => string;
}

/**
 * The difference identity of a write that makes one task. `serverNow`: the platform's time as estimated, undefined
 * until known.
 */
export function newTaskIdentity<P>(api: TaskListApi, rule: NewTaskRule<P>, clock: Pick<Clock, 'monotonic'> = systemClock, serverNow: () => number | undefined = () => undefined): Identity<P, CloneSnapshot, Task> {
  /** By account and project, the last snapshot read (or on its way: a send awaits a read ahead still under way). */
  const recent = new Map<string, Kept>();
  const newestFirst = (project: string, offset: number, credentials: Credentials) =>
    api.list({ project, order_by: 'created_time', order: 'desc', fields: `id,created_time,${rule.fields}` }, { offset, limit: TASK_PAGE, credentials });
  /** The project's newest tasks now, kept under `key` for the sends after (its age counted from when it was asked). */
  const read = (key: string, project: string, credentials: Credentials, prepared: boolean): Promise<CloneSnapshot> => {
    const snapshot = (async (): Promise<CloneSnapshot> => {
      const page = project ? await newestFirst(project, 0, credentials) : { items: [] };
      return { before: page.items.map((t) => t.id), newest: newestTime(page.items) };
    })();
    const kept: Kept = { at: clock.monotonic(), serverAt: serverNow(), snapshot, prepared, failed: false };
    recent.set(key, kept);
    // A read that failed serves no send, and is kept so that a read ahead is not asked again at once.
    snapshot.catch(() => (kept.failed = true));
    return snapshot;
  };
  /**
   * Whether what is kept serves a send now: a snapshot of the last 10 s; a read ahead of the last minute once the
   * platform's time is known. Its age by both clocks where both are known (this machine's monotonic one may stand
   * still while it sleeps).
   */
  const serves = (kept: Kept | undefined): kept is Kept => {
    if (!kept || kept.failed) return false;
    const now = serverNow();
    const age = Math.max(clock.monotonic() - kept.at, now !== undefined && kept.serverAt !== undefined ? now - kept.serverAt : 0);
    return age < SNAPSHOT_REUSE_MS || (kept.prepared && now !== undefined && age < PREPARED_REUSE_MS);
  };
  return {
    by: 'difference',
    async snapshot(record, credentials) {
      const project = rule.project(record.payload) ?? '';
      const key = `${record.account}|${project}`;
      const kept = recent.get(key);
      const snapshot = serves(kept) ? await kept.snapshot.catch(() => read(key, project, credentials, false)) : await read(key, project, credentials, false);
      // Taken just before this very send: what appeared between a reused snapshot and it is not its task.
      const sentAt = serverNow();
      return sentAt === undefined ? snapshot : { ...snapshot, sentAt };
    },
    async prepare(write, credentials) {
      const project = rule.project(write.payload);
      if (!project) return;
      const key = `${write.account}|${project}`;
      const kept = recent.get(key);
      // Read again once the last read ahead is half a minute old (failed or not), or a send's own snapshot serves no more.
      if (kept && clock.monotonic() - kept.at < (kept.prepared ? PREPARE_AGAIN_MS : SNAPSHOT_REUSE_MS)) return;
      await read(key, project, credentials, true);
    },
    isSnapshot: isCloneSnapshot,
    async find(record: WriteRecord<P, CloneSnapshot, Task> & { snapshot: CloneSnapshot }, credentials, taken): Promise<Lookup<Task>> {
      const project = rule.project(record.payload);
      const snapshot = record.snapshot;
      if (!project) return { unknown: l10n.t('The task has no project to look for it in.') };
      const before = new Set(snapshot.before);
      const floor = snapshot.newest ? Date.parse(snapshot.newest) : NaN;
      const listed: Task[] = [];
      let complete = false;
      for (let n = 0; n < LOOKUP_PAGES && !complete; n++) {
        const page = await newestFirst(project, n * TASK_PAGE, credentials);
        listed.push(...page.items);
        const last = page.items[page.items.length - 1];
        // Newest first: past a task older than the snapshot's newest, every task was there before the send.
        complete = !page.next || page.items.length < TASK_PAGE || (last?.created_time !== undefined && Date.parse(last.created_time) < floor);
      }
      const made = appearedSince(listed, before, taken, (t) => t.id)
        .filter((t) => rule.matches(t, record.payload) && madeSince(t, snapshot.sentAt))
        .sort((a, b) => (a.created_time ?? '').localeCompare(b.created_time ?? '') || a.id.localeCompare(b.id));
      // Several (writes alike whose answers were all lost): each write takes the first not claimed by another.
      if (made.length) return { found: made[0] };
      if (!complete) return { unknown: l10n.t('Too many tasks were made in the project since to check them all.') };
      return { absent: rule.absent() };
    },
    madeId: (made) => made.id,
  };
}

/** Whether the task was made no earlier than the send (on the platform's clock), as far as can be told. */
function madeSince(task: Task, sentAt: number | undefined): boolean {
  const made = task.created_time ? Date.parse(task.created_time) : NaN;
  return sentAt === undefined || Number.isNaN(made) || made >= sentAt - SEND_TIME_MARGIN_MS;
}

function newestTime(tasks: readonly Task[]): string | undefined {
  const times = tasks.map((t) => t.created_time).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
  return times.sort((a, b) => Date.parse(b) - Date.parse(a))[0];
}
