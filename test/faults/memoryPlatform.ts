// An in-memory stand-in for the platform's write calls on the fake clock, for the adversary's scenarios (09-adversary,
// 15-exactly-once-new-kinds): copy, move and delete jobs, task actions, files (folders, rename, tags, metadata, move,
// delete, the bulk edit) and multipart uploads. Every call takes its latency on the fake timers; a write call can be
// given a fault (its answer lost, the call dropped, acted on after the client gave up); lists can lag behind; the
// platform keeps its own clock (the true time), whatever this machine's reads; a colleague can change a file behind
// the product's back. `made` is the ground truth: every effect it processed, keyed by what was asked, against which
// the summary counts made once, doubled, lost and wrongly adopted.
import { randomUUID } from 'crypto';
import { ApiError } from '../../src/api/errors';
import type { Credentials } from '../../src/api/transport';
import type { FileLocation } from '../../src/api/files';
import type { AsyncJob, BulkFileChange, BulkFileItem, CopyItem, CopyItemResult, DraftChanges, FileJobKind, FileRecord, NewTask, Page, Task } from '../../src/api/types';
import type { TaskActionKind, TaskListQuery } from '../../src/api/tasks';
import type { PartTarget, Upload, UploadInit } from '../../src/api/uploads';
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

/** A file or folder the platform holds (the files calls' ground truth). */
interface FileRec extends FileRecord {
  /** When it shows in listings (they lag behind a write). */
  visibleAt: number;
  tags: string[];
  metadata: Record<string, string>;
}

/** A multipart upload begun and not completed. */
interface UploadRec {
  upload: Upload;
  parts: Map<number, string>;
}

interface TaskRec extends Task {
  visibleAt: number;
}

const CLIENT_TIMEOUT_MS = 30_000;

export class MemoryPlatform {
  readonly made: Made[] = [];
  readonly postFaults: PostFault[] = [];
  /** Every write call received (POST, PATCH, PUT, DELETE), processed or not. */
  posts = 0;
  /** What each write call received asked for (its key), processed or not. */
  readonly received: string[] = [];
  private readonly jobs: Job[] = [];
  private readonly tasks: TaskRec[] = [];
  private readonly files = new Map<string, string>();
  private readonly records = new Map<string, FileRec>();
  private readonly multipart = new Map<string, UploadRec>();
  private jobSeq = 70_711_174_378_900_000n;
  private fileSeq = 0;
  /** The next bulk edit applies to only this many of its files (a call the platform acts on in part). */
  private bulkAppliesTo: number | undefined;
  /** A seeded order for `jobOrder: 'shuffled'`: the list comes in another order on every call, the same in every run. */
  private shuffleSeed = 11;

  constructor(
    private readonly clock: FakeClock,
    readonly options: {
      latencyMs?: number;
      /** The job list's order: oldest first (the list is not documented as newest first), or another on every call. */
      jobOrder?: 'newest' | 'oldest' | 'shuffled';
      /** How long a new job or task takes to show in the lists. */
      listLagMs?: number;
      copyStepMs?: number;
      /** How long a part's bytes take to reach the storage. */
      storageMs?: number;
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

  /** A file in the project's root (or a folder), there since `agoMs` ago. */
  addFile(name: string, over: Partial<FileRec> = {}, agoMs = 3_600_000): FileRec {
    const at = this.now() - agoMs;
    const id = `f${(++this.fileSeq).toString(16).padStart(23, '0')}`;
    const record: FileRec = { href: '', id, name, type: 'file', size: 1, project: PROJECT, parent: rootOf(PROJECT), created_on: iso(at), visibleAt: at, tags: [], metadata: {}, ...over };
    this.records.set(id, record);
    return record;
  }

  /** A file as the platform holds it now (whatever the listings show). */
  file(id: string): FileRec | undefined {
    return this.records.get(id);
  }

  /** The files and folders of that name in a place, as the platform holds them. */
  named(where: FileLocation, name: string): FileRec[] {
    return [...this.records.values()].filter((f) => f.parent === parentOf(where) && f.name === name);
  }

  /** A colleague changes a file from the web page (not a write of the product's: nothing in `made`). */
  colleague(id: string, change: { name?: string; tags?: string[]; metadata?: Record<string, string> }): void {
    Object.assign(this.records.get(id)!, JSON.parse(JSON.stringify(change)));
  }

  /** A person re-runs a task from the web page: a clone the product's writes did not make. */
  rerunByHand(id: string): TaskRec {
    const task = this.task(id)!;
    const at = this.now();
    const clone: TaskRec = { ...task, id: randomUUID(), status: 'QUEUED', created_time: iso(at), visibleAt: at + (this.options.listLagMs ?? 0) };
    this.tasks.push(clone);
    return clone;
  }

  /** The next bulk edit is applied to its first `n` files only. */
  applyNextBulkTo(n: number): void {
    this.bulkAppliesTo = n;
  }

  /** The uploads begun and not completed. */
  get uploadsOpen(): number {
    return this.multipart.size;
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
      const ordered = this.options.jobOrder === 'oldest' ? visible : this.options.jobOrder === 'shuffled' ? this.shuffled(visible) : [...visible].reverse();
      return this.page(ordered.map((j) => this.answer(j)), page);
    },
    get: async (id: string): Promise<AsyncJob> => {
      await this.latency();
      const job = this.jobs.find((j) => j.id === id);
      if (!job) throw new ApiError({ kind: 'http', status: 404, code: 10211, message: 'Async job not found.' });
      return this.answer(job);
    },
  };

  /** The async file jobs (`/v2/async/files/{copy|move|delete}`): one list for every type. */
  readonly fileJobs = {
    submit: async (kind: FileJobKind, items: CopyItem[], options: { credentials?: Credentials } = {}): Promise<AsyncJob> => {
      void options;
      const key = `${kind}:${JSON.stringify(items)}`;
      return this.post(key, () => this.answer(this.makeJob(items, this.now(), key, kind.toUpperCase())));
    },
    get: async (kind: FileJobKind, id: string): Promise<AsyncJob> => {
      void kind;
      return this.copyJobs.get(id);
    },
    list: (page: { offset?: number; limit?: number } = {}): Promise<Page<AsyncJob>> => this.copyJobs.list(page),
  };

  readonly filesApi = {
    get: async (id: string): Promise<FileRecord> => {
      await this.latency();
      const record = this.records.get(id);
      if (record) return shown(record);
      const name = this.files.get(id);
      if (!name) throw notFound();
      return { href: '', id, name, type: 'file' };
    },
    list: async (where: FileLocation, page: { offset?: number; limit?: number; name?: string | readonly string[] } = {}): Promise<Page<FileRecord>> => {
      await this.latency();
      const names = page.name === undefined ? undefined : [page.name].flat();
      const listed = [...this.records.values()].filter((f) => f.visibleAt <= this.now() && f.parent === parentOf(where) && (!names || names.includes(f.name)));
      return this.page(listed.map(shown), page);
    },
    createFolder: async (name: string, where: FileLocation): Promise<FileRecord> =>
      this.post(`folder:${parentOf(where)}/${name}`, () => {
        if (this.named(where, name).length) throw new ApiError({ kind: 'http', status: 409, code: 5012, message: 'A file or folder of that name is already there.' });
        const at = this.now();
        return shown(this.addFile(name, { type: 'folder', size: undefined, parent: parentOf(where), created_on: iso(at), visibleAt: at + (this.options.listLagMs ?? 0) }, 0));
      }),
    update: async (id: string, changes: { name?: string }): Promise<FileRecord> =>
      this.post(`rename:${id}:${changes.name}`, () => {
        const record = this.existing(id);
        if (changes.name !== undefined) record.name = changes.name;
        return shown(record);
      }),
    setTags: async (id: string, tags: readonly string[]): Promise<string[]> =>
      this.post(`tags:${id}:${tagKey(tags)}`, () => {
        const record = this.existing(id);
        record.tags = [...tags];
        return [...record.tags];
      }),
    metadata: async (id: string): Promise<Record<string, unknown>> => {
      await this.latency();
      return { ...this.existingOr404(id).metadata };
    },
    replaceMetadata: async (id: string, metadata: Record<string, string>): Promise<Record<string, unknown>> =>
      this.post(`metadata:${id}:${JSON.stringify(metadata)}`, () => {
        const record = this.existing(id);
        record.metadata = { ...metadata };
        return { ...record.metadata };
      }),
    delete: async (id: string): Promise<void> =>
      this.post(`delete:${id}`, () => {
        this.existing(id);
        this.records.delete(id);
        return { id };
      }).then(() => undefined),
    move: async (id: string, to: { parent: string }): Promise<FileRecord> =>
      this.post(`move:${id}:${to.parent}`, () => {
        const record = this.existing(id);
        record.parent = to.parent;
        return shown(record);
      }),
  };

  readonly bulkFilesApi = {
    get: async (ids: readonly string[]): Promise<BulkFileItem[]> => {
      await this.latency();
      return ids.map((id) => (this.records.has(id) ? { resource: shown(this.records.get(id)!) } : { error: { status: 404, code: 5002, message: 'Requested file does not exist.' } }));
    },
    records: async (ids: readonly string[]): Promise<FileRecord[]> => (await this.bulkFilesApi.get(ids)).flatMap((r) => (r.resource ? [r.resource] : [])),
    edit: async (items: readonly BulkFileChange[]): Promise<BulkFileItem[]> =>
      this.post(`bulkTags:${items.map((i) => i.id).join(',')}`, () => {
        const applied = this.bulkAppliesTo ?? items.length;
        this.bulkAppliesTo = undefined;
        return items.map((item, i) => {
          const record = this.records.get(item.id);
          if (!record) return { error: { status: 404, code: 5002, message: 'Requested file does not exist.' } };
          if (i < applied && item.tags) {
            record.tags = [...item.tags];
            this.made.push({ key: `tags:${item.id}:${tagKey(item.tags)}`, id: item.id, at: this.now() });
          }
          return { resource: shown(record) };
        });
      }),
  };

  /** Multipart uploads: init, parts and their reports on the fake timers; `complete` is a write call (faults apply). */
  readonly uploadsApi = {
    init: async (init: UploadInit): Promise<Upload> => {
      await this.latency();
      if (!init.overwrite && this.named(init.destination, init.name).length) throw new ApiError({ kind: 'http', status: 409, code: 5012, message: 'A file of that name is already there.' });
      const upload: Upload = { upload_id: randomUUID(), name: init.name, size: init.size, part_size: Math.max(init.partSize ?? 0, 5 * 1024 * 1024), initiated: iso(this.now()), ...('project' in init.destination ? { project: init.destination.project } : { parent: init.destination.parent }) };
      this.multipart.set(upload.upload_id, { upload, parts: new Map() });
      return { ...upload };
    },
    partTarget: async (uploadId: string, part: number): Promise<PartTarget> => {
      await this.latency();
      this.upload(uploadId);
      return { url: `https://storage.example/${uploadId}/${part}`, method: 'PUT', headers: {}, successCodes: [200], reportHeaders: ['ETag'] };
    },
    reportPart: async (uploadId: string, part: number, etag: string): Promise<void> => {
      await this.latency();
      this.upload(uploadId).parts.set(part, etag);
    },
    info: async (uploadId: string): Promise<Upload> => {
      await this.latency();
      const { upload, parts } = this.upload(uploadId);
      return { ...upload, parts: [...parts].map(([n, etag]) => ({ part_number: n, response: { headers: { ETag: etag } } })) };
    },
    abort: async (uploadId: string): Promise<void> => {
      await this.latency();
      this.upload(uploadId);
      this.multipart.delete(uploadId);
    },
    list: async (): Promise<Page<Upload>> => {
      await this.latency();
      return { items: [...this.multipart.values()].map((u) => ({ ...u.upload })), total: this.multipart.size, next: undefined };
    },
    complete: async (uploadId: string): Promise<FileRecord> => {
      const name = this.multipart.get(uploadId)?.upload.name;
      return this.post(`file:${name}`, () => {
        const { upload } = this.upload(uploadId);
        this.multipart.delete(uploadId);
        const where: FileLocation = upload.parent ? { parent: upload.parent } : { project: upload.project! };
        for (const old of this.named(where, upload.name!)) this.records.delete(old.id);
        return shown(this.addFile(upload.name!, { size: upload.size ?? 0, parent: parentOf(where), created_on: iso(this.now()) }, 0));
      });
    },
  };

  /** The storage a part's bytes go to: they are not read (a part body reads its file only when piped; tested elsewhere). */
  readonly storage = {
    put: async (url: string): Promise<string> => {
      await this.wait(this.options.storageMs ?? 200);
      return `"etag-${url.split('/').slice(-2).join('-')}"`;
    },
  };

  readonly tasksApi = {
    /** POST /v2/tasks: a task made (a DRAFT, or QUEUED with `run`); keyed by what was asked. */
    create: async (asked: NewTask, options: { run?: boolean } = {}): Promise<Task> =>
      this.post(createKey(asked), () => {
        const at = this.now();
        const task: TaskRec = {
          href: '', id: randomUUID(), name: asked.name ?? `${asked.app.split('/')[2]} run`, app: asked.app, project: asked.project,
          status: options.run ? 'QUEUED' : 'DRAFT', inputs: asked.inputs, created_time: iso(at), visibleAt: at + (this.options.listLagMs ?? 0),
        };
        this.tasks.push(task);
        return strip(task);
      }),
    /** PATCH /v2/tasks/{id} of a draft: inputs merged (null removes one), the other fields set. */
    updateDraft: async (id: string, changes: DraftChanges): Promise<Task> =>
      this.post(`saveDraft:${id}:${JSON.stringify(changes)}`, () => {
        const task = this.task(id);
        if (!task) throw new ApiError({ kind: 'http', status: 404, code: 7002, message: 'Task not found.' });
        if (task.status !== 'DRAFT') throw new ApiError({ kind: 'http', status: 400, code: 7026, message: 'Only a draft can be edited.' });
        const { inputs, ...rest } = changes;
        Object.assign(task, rest);
        if (inputs) task.inputs = Object.fromEntries(Object.entries({ ...task.inputs, ...inputs }).filter(([, v]) => v !== null));
        return strip(task);
      }),
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
    this.received.push(key);
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

  private makeJob(items: CopyItem[], at: number, why: string, type = 'COPY'): Job {
    void why;
    this.jobSeq += 1n;
    const job: Job = { id: String(this.jobSeq), type, state: 'SUBMITTED', items, result: [], started_on: iso(at), createdAt: at, visibleAt: at + (this.options.listLagMs ?? 0) };
    this.jobs.push(job);
    this.later(this.options.copyStepMs ?? 2_000, () => {
      job.state = 'FINISHED';
      job.finished_on = iso(this.now());
      job.result =
        type === 'DELETE'
          ? items.map((item) => {
              const gone = this.records.get(item.file);
              if (!gone) return { error: { status: 404, code: 5002, message: 'Requested file does not exist.' } };
              this.records.delete(item.file);
              this.made.push({ key: `delete:${item.file}`, id: item.file, at: this.now() });
              return { resource: shown(gone) };
            })
          : items.map((item) => ({ resource: { href: '', id: randomUUID().replace(/-/g, '').slice(0, 24), name: item.name ?? this.files.get(item.file) ?? item.file, project: item.project, parent: item.parent, type: 'file' } }));
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

  private existing(id: string): FileRec {
    return this.existingOr404(id);
  }

  private existingOr404(id: string): FileRec {
    const record = this.records.get(id);
    if (!record) throw notFound();
    return record;
  }

  private upload(id: string): UploadRec {
    const upload = this.multipart.get(id);
    if (!upload) throw new ApiError({ kind: 'http', status: 404, code: 10101, message: 'Upload not found.' });
    return upload;
  }

  private shuffled<T>(items: T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      this.shuffleSeed = (this.shuffleSeed * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = this.shuffleSeed % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
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

const PROJECT = 'rfranklin/dest';
const rootOf = (project: string) => `root-${project}`;
const parentOf = (where: FileLocation): string => ('parent' in where ? where.parent : rootOf(where.project));
const tagKey = (tags: readonly string[]) => JSON.stringify([...tags].sort());
const notFound = () => new ApiError({ kind: 'http', status: 404, code: 5002, message: 'Requested file does not exist.' });

/** A file's record as an answer gives it: a copy, without what only the platform knows. */
function shown(record: FileRec): FileRecord {
  const { visibleAt, ...rest } = record;
  void visibleAt;
  return JSON.parse(JSON.stringify(rest)) as FileRecord;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What a task create asks, as `made` keys it. */
export function createKey(task: NewTask): string {
  return `create:${JSON.stringify({ project: task.project, app: task.app, name: task.name, inputs: task.inputs })}`;
}

function strip(task: TaskRec): Task {
  const { visibleAt, ...rest } = task;
  void visibleAt;
  return JSON.parse(JSON.stringify(rest)) as Task;
}
