// An in-memory stand-in for the platform's write calls (copy jobs, task actions) on the fake clock, for the
// adversary's scenarios (09-adversary): every call takes its latency on the fake timers; a POST can be given a
// fault (its answer lost, the call dropped, acted on after the client gave up); lists can lag behind; the platform
// keeps its own clock (the true time), whatever this machine's reads. `made` is the ground truth: every effect it
// processed, keyed by what was asked, against which the summary counts made once, doubled, lost and wrongly adopted.
import { randomUUID } from 'crypto';
import { ApiError } from '../../src/api/errors';
import type { Credentials } from '../../src/api/transport';
import type { AsyncJob, CopyItem, CopyItemResult, FileRecord, Page, Task } from '../../src/api/types';
import type { TaskActionKind, TaskListQuery } from '../../src/api/tasks';
import type { FakeClock } from '../support/fakeClock';

export type PostFault =
  /** Processed; the answer is lost on its way back (a reset after the request was read). */
  | 'lose'
  /** Not processed; the connection drops after the request left (ambiguous to the client). */
  | 'drop'
  /** Not processed; the client's own code fails after the request left (not an ApiError). */
  | 'bug'
  /** The client gives up after its 30 s timeout; the platform acts on it `late` ms after it was sent. */
  | { late: number }
  /** Processed at once; the answer arrives `after` ms later. */
  | { answerAfter: number }
  /** Processed at once; the answer never arrives (the window dies meanwhile). */
  | 'hang'
  /** Processed; the answer echoes the token (in `href`, and in a result). */
  | 'echo'
  /** Refused with this error (not processed). */
  | { refuse: ApiError };

/** One effect the platform processed: what was asked (`key`) and what it made (a job, a task, an abort). */
export interface Made {
  key: string;
  id: string;
  at: number;
}

interface Job extends AsyncJob {
  /** When it shows in the job list (the list lags behind a POST). */
  visibleAt: number;
  createdAt: number;
  items: CopyItem[];
}

interface TaskRec extends Task {
  visibleAt: number;
}

const CLIENT_TIMEOUT_MS = 30_000;

export class MemoryPlatform {
  readonly made: Made[] = [];
  readonly postFaults: PostFault[] = [];
  /** Every POST received, processed or not. */
  posts = 0;
  private readonly jobs: Job[] = [];
  private readonly tasks: TaskRec[] = [];
  private readonly files = new Map<string, string>();
  private jobSeq = 70_711_174_378_900_000n;

  constructor(
    private readonly clock: FakeClock,
    readonly options: {
      latencyMs?: number;
      /** The job list's order: oldest first (the list is not documented as newest first). */
      jobOrder?: 'newest' | 'oldest';
      /** How long a new job or task takes to show in the lists. */
      listLagMs?: number;
      copyStepMs?: number;
      token?: string;
    } = {},
  ) {}

  /** The platform's clock: the true time, whatever this machine's wall clock says. */
  now(): number {
    return this.clock.trueNow();
  }

  // ---- seeding ----

  sourceFiles(count: number): { id: string; name: string }[] {
    return Array.from({ length: count }, (_, i) => {
      const id = (0x5f00_0000 + this.files.size + i).toString(16).padStart(24, 'a');
      return { id, name: `sample_${this.files.size + i}.bam` };
    }).map((f) => {
      this.files.set(f.id, f.name);
      return f;
    });
  }

  /** A job another client made (the web page, a script), now or `agoMs` ago. */
  foreignJob(items: CopyItem[], agoMs = 0): string {
    return this.makeJob(items, this.now() - agoMs, 'foreign').id;
  }

  /** A task in the project, as if made `agoMs` ago. */
  seedTask(over: Partial<Task> & { status: Task['status'] }, agoMs = 3_600_000): TaskRec {
    const at = this.now() - agoMs;
    const task: TaskRec = { href: '', id: randomUUID(), name: 'BWA-MEM run', app: 'rfranklin/dest/bwa/3', project: 'rfranklin/dest', created_time: iso(at), visibleAt: at, ...over };
    this.tasks.push(task);
    return task;
  }

  task(id: string): TaskRec | undefined {
    return this.tasks.find((t) => t.id === id);
  }

  /** How many effects of this key the platform made. */
  count(key: string): number {
    return this.made.filter((m) => m.key === key).length;
  }

  // ---- the API the product's writes call ----

  readonly copyJobs = {
    submit: async (items: CopyItem[], options: { credentials?: Credentials } = {}): Promise<AsyncJob> => {
      void options;
      return this.post(`copy:${JSON.stringify(items)}`, () => this.answer(this.makeJob(items, this.now(), `copy:${JSON.stringify(items)}`)));
    },
    list: async (page: { offset?: number; limit?: number } = {}): Promise<Page<AsyncJob>> => {
      await this.latency();
      const visible = this.jobs.filter((j) => j.visibleAt <= this.now());
      const ordered = this.options.jobOrder === 'oldest' ? visible : [...visible].reverse();
      return this.page(ordered.map((j) => this.answer(j)), page);
    },
    get: async (id: string): Promise<AsyncJob> => {
      await this.latency();
      const job = this.jobs.find((j) => j.id === id);
      if (!job) throw new ApiError({ kind: 'http', status: 404, code: 10211, message: 'Async job not found.' });
      return this.answer(job);
    },
  };

  readonly filesApi = {
    get: async (id: string): Promise<FileRecord> => {
      await this.latency();
      const name = this.files.get(id);
      if (!name) throw new ApiError({ kind: 'http', status: 404, code: 5002, message: 'Requested file does not exist.' });
      return { href: '', id, name, type: 'file' };
    },
  };

  readonly tasksApi = {
    action: async (kind: TaskActionKind, id: string): Promise<Task> =>
      this.post(`${kind}:${id}`, () => {
        const task = this.task(id);
        if (!task) throw new ApiError({ kind: 'http', status: 404, code: 5002, message: 'Task not found.' });
        if (kind === 'abort') {
          if (task.status !== 'RUNNING' && task.status !== 'QUEUED') throw new ApiError({ kind: 'http', status: 400, code: 9100, message: `A task ${task.status} cannot be aborted.` });
          task.status = 'ABORTING';
          this.later(1_000, () => (task.status = 'ABORTED'));
          return strip(task);
        }
        if (kind === 'run') {
          if (task.status !== 'DRAFT') throw new ApiError({ kind: 'http', status: 400, code: 9100, message: 'Only a draft can be run.' });
          task.status = 'QUEUED';
          return strip(task);
        }
        const at = this.now();
        const clone: TaskRec = { ...task, id: randomUUID(), status: 'QUEUED', created_time: iso(at), visibleAt: at + (this.options.listLagMs ?? 0) };
        this.tasks.push(clone);
        return strip(clone);
      }),
    get: async (id: string): Promise<Task> => {
      await this.latency();
      const task = this.task(id);
      if (!task) throw new ApiError({ kind: 'http', status: 404, code: 5002, message: 'Task not found.' });
      return strip(task);
    },
    list: async (query: TaskListQuery, page: { offset?: number; limit?: number } = {}): Promise<Page<Task>> => {
      await this.latency();
      const from = query.created_from ? Date.parse(query.created_from.endsWith('Z') || /[+-]\d\d:\d\d$/.test(query.created_from) ? query.created_from : `${query.created_from}Z`) : -Infinity;
      let tasks = this.tasks.filter((t) => t.visibleAt <= this.now() && (!query.project || t.project === query.project) && Date.parse(t.created_time!) >= from);
      if (query.order_by === 'created_time') {
        tasks = [...tasks].sort((a, b) => a.created_time!.localeCompare(b.created_time!));
        if (query.order === 'desc') tasks.reverse();
      }
      return this.page(tasks.map(strip), page);
    },
  };

  // ---- inside ----

  /** A POST: processed (or not) and answered (or not) as the next fault says. */
  private async post<T>(key: string, act: () => T): Promise<T> {
    this.posts++;
    const fault = this.postFaults.shift();
    await this.latency();
    const process = (): T => {
      const result = act();
      const id = (result as { id?: string }).id ?? key;
      this.made.push({ key, id, at: this.now() });
      return result;
    };
    if (fault === 'drop') throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
    if (fault && typeof fault === 'object' && 'refuse' in fault) throw fault.refuse;
    if (fault === 'bug') throw new TypeError('a bug after the request left');
    if (fault && typeof fault === 'object' && 'late' in fault) {
      this.later(fault.late - (this.options.latencyMs ?? 50), () => {
        try {
          process();
        } catch {
          // Refused when it came: nothing made.
        }
      });
      await this.wait(CLIENT_TIMEOUT_MS - (this.options.latencyMs ?? 50));
      throw new ApiError({ kind: 'timeout', message: 'POST timed out', maybeDelivered: true });
    }
    const result = process();
    if (fault === 'lose') throw new ApiError({ kind: 'network', message: 'ECONNRESET', maybeDelivered: true });
    if (fault === 'hang') return new Promise<T>(() => undefined);
    if (fault && typeof fault === 'object' && 'answerAfter' in fault) await this.wait(fault.answerAfter);
    if (fault === 'echo') {
      const token = this.options.token ?? '';
      const echoed = { ...(result as object), href: `https://api.example/v2/async/files/copy/x?token=${token}` } as { result?: CopyItemResult[] };
      if (echoed.result?.[0]?.resource) echoed.result = [{ resource: { ...echoed.result[0].resource, href: `https://api.example/v2/files?t=${token}` } }, ...echoed.result.slice(1)];
      return echoed as T;
    }
    return result;
  }

  private makeJob(items: CopyItem[], at: number, why: string): Job {
    void why;
    this.jobSeq += 1n;
    const job: Job = { id: String(this.jobSeq), type: 'COPY', state: 'SUBMITTED', items, result: [], started_on: iso(at), createdAt: at, visibleAt: at + (this.options.listLagMs ?? 0) };
    this.jobs.push(job);
    this.later(this.options.copyStepMs ?? 2_000, () => {
      job.state = 'FINISHED';
      job.finished_on = iso(this.now());
      job.result = items.map((item) => ({ resource: { href: '', id: randomUUID().replace(/-/g, '').slice(0, 24), name: item.name ?? this.files.get(item.file) ?? item.file, project: item.project, parent: item.parent, type: 'file' } }));
      job.total_files = items.length;
      job.completed_files = items.length;
      job.failed_files = 0;
    });
    return job;
  }

  private answer(job: Job): AsyncJob {
    const { id, type, state, result, started_on, finished_on, total_files, completed_files, failed_files } = job;
    return JSON.parse(JSON.stringify({ href: `https://api.example/v2/async/files/copy/${id}`, id, type, state, result, started_on, finished_on, total_files, completed_files, failed_files }));
  }

  private page<T>(items: T[], page: { offset?: number; limit?: number }): Page<T> {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? 25;
    const slice = items.slice(offset, offset + limit);
    return { items: slice, total: items.length, next: offset + limit < items.length ? `next?offset=${offset + limit}` : undefined };
  }

  private latency(): Promise<void> {
    return this.wait(this.options.latencyMs ?? 50);
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, Math.max(0, ms)));
  }

  private later(ms: number, fn: () => void): void {
    this.clock.setTimeout(fn, Math.max(0, ms));
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function strip(task: TaskRec): Task {
  const { visibleAt, ...rest } = task;
  void visibleAt;
  return JSON.parse(JSON.stringify(rest)) as Task;
}
