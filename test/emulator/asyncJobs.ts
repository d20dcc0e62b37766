/**
 * The bulk asynchronous file jobs (platform-api.md §4, §9.2): POST /v2/async/files/{copy,move,delete}, a job's lifecycle,
 * GET /v2/async/files/{copy,move,delete}/{id} and the list of the caller's jobs, GET /v2/async/files.
 */
import { ApiError, badRequest, errorBody, type ErrorBody } from './errors';
import { type Ctx, type Result, listResult, paging } from './common';
import type { CopyItem, FileRec, JobRec, JobResult, Store } from './data';
import { fileRecord } from './files';
import { countFiles, freeName, removeTree, sibling } from './fileRules';
import { isoZ } from './prng';

export type JobKind = 'copy' | 'move' | 'delete';
export const JOB_KINDS: readonly JobKind[] = ['copy', 'move', 'delete'];

/** Items per call of every kind: platform-api.md leaves it open (THIN); 100 like the other bulk calls. */
export const MAX_JOB_ITEMS = 100;

export interface ReceivedJobRequest {
  /** epoch ms when received */
  at: number;
  /** the parsed `items`, or undefined when the body was not usable */
  items: unknown;
  /** the created job's id when the POST created one */
  jobId?: string;
  /** HTTP status the emulator decided on */
  status: number;
  /** the error body when the request was refused as a whole */
  error?: unknown;
  /** true when the response was deliberately lost (socket destroyed after processing) */
  responseLost?: boolean;
  /** true when the response body was deliberately garbled (the job exists all the same) */
  responseMalformed?: boolean;
  /** set when a fault, the token or the rate limit stopped the POST before it was processed */
  notProcessed?: string;
}

export type ReceivedCopyRequest = ReceivedJobRequest;

/** What an item resolved to: its source and, for a copy or a move, where it goes (the delete has no destination). */
type Outcome =
  | { ok: true; source: FileRec; destFolder: FileRec | undefined; name: string | null; files: number }
  | { ok: false; error: ErrorBody };

/** How the job list is ordered: the API documents no order, so clients must cope with any. */
export type JobOrder = 'newest' | 'oldest' | 'shuffled';

export interface CopySettings {
  /** time per job state step */
  stepMs: number;
  jobOrder: JobOrder;
  /** fill `result` in request order while a job runs (platform-api.md allows results before FINISHED) */
  progressiveResults: boolean;
  /**
   * The share (0..1) of small jobs (at most SMALL_JOB_ITEMS items) whose POST answer already carries every result
   * (the copies made at once, the state still SUBMITTED): platform-api.md says the answer may carry them.
   */
  immediateResults: number;
}

/** Jobs of at most this many items may be answered with their results (`immediateResults`). */
export const SMALL_JOB_ITEMS = 10;

interface Plan {
  kind: JobKind;
  job: JobRec;
  items: CopyItem[];
  submittedAt: number;
  finishAt: number;
  outcomes: Outcome[];
  okFiles: number;
  failFiles: number;
  /** outcomes already executed (their copies made, their results in `job.result`) */
  executed: number;
  /** resolved (and executed) when the POST was answered */
  early?: boolean;
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

export class AsyncJobEngine {
  /** every POST of each kind that reached processing (job created or refused as a whole) */
  readonly requests: Record<JobKind, ReceivedJobRequest[]> = { copy: [], move: [], delete: [] };
  /** copy POSTs stopped before processing by a fault, a bad token or the rate limit */
  readonly unprocessed: ReceivedJobRequest[] = [];
  /** copy jobs submitted by someone else in an account (the web page, a script, another machine) */
  readonly foreign: ReceivedJobRequest[] = [];
  private readonly plans = new Map<string, Plan>();
  /** accumulates `immediateResults` per small job: a job is answered with its results each time it reaches 1 */
  private immediateCredit = 0;
  private nextId = 70711174378900000n;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    readonly settings: CopySettings,
  ) {}

  private get stepMs(): number {
    return this.settings.stepMs;
  }

  /** A copy submitted elsewhere in an account (the caller's by default): its job appears in that account's list. */
  submitForeign(items: CopyItem[], owner?: string): string {
    const job = this.createJob('copy', items, owner);
    this.foreign.push({ at: this.now(), items, jobId: job.id, status: 200 });
    return job.id;
  }

  private createJob(kind: JobKind, items: unknown[], owner: string | undefined): JobRec {
    const at = this.now();
    const submitted = JOB_KINDS.reduce((n, k) => n + this.requests[k].length, 0) + this.foreign.length;
    this.nextId += BigInt(1 + (submitted * 7919) % 97);
    const job: JobRec = {
      id: this.nextId.toString(),
      type: kind.toUpperCase() as JobRec['type'],
      state: 'SUBMITTED',
      result: [],
      total_files: 0,
      failed_files: 0,
      completed_files: 0,
      started_on: isoZ(at),
      ...(owner && owner !== this.store.user.username ? { owner } : {}),
    };
    this.store.jobs.push(job);
    this.plans.set(job.id, {
      kind, job, items: JSON.parse(JSON.stringify(items)) as CopyItem[], submittedAt: at, finishAt: Infinity, outcomes: [], okFiles: 0, failFiles: 0, executed: 0,
    });
    return job;
  }

  private visible(ctx: Ctx, job: JobRec): boolean {
    return (job.owner ?? this.store.user.username) === ctx.user;
  }

  /** Record a copy POST that never reached processing (fault, bad token, rate limit); status 0 = dropped. */
  recordUnprocessed(rawBody: string, status: number, reason: string): void {
    let items: unknown;
    try {
      items = (JSON.parse(rawBody) as { items?: unknown }).items;
    } catch {
      items = undefined;
    }
    this.unprocessed.push({ at: this.now(), items, status, notProcessed: reason });
  }

  /** A POST of a job; refused as a whole (an ApiError carrying its record) when its body is not a list of items. */
  submit(ctx: Ctx, kind: JobKind): { result: Result; record: ReceivedJobRequest } {
    const at = this.now();
    const refuse = (items: unknown, e: ApiError) => this.refuse(kind, at, items, e);
    let parsed: unknown;
    try {
      parsed = JSON.parse(ctx.rawBody);
    } catch {
      return refuse(undefined, badRequest('The request body is not valid JSON.'));
    }
    const items = (parsed as { items?: unknown } | null)?.items;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Array.isArray(items)) {
      return refuse(items, badRequest("The request body must be an object with an 'items' array."));
    }
    if (items.length === 0) {
      return refuse(items, new ApiError(400, 10230, 'The list of sources is empty.'));
    }
    if (items.length > MAX_JOB_ITEMS) {
      return refuse(items, badRequest(`At most ${MAX_JOB_ITEMS} items can be sent in one ${kind} call (${items.length} given): split them into several calls.`));
    }
    if (items.some((i) => typeof i !== 'object' || i === null || Array.isArray(i))) {
      return refuse(items, badRequest('Every item must be an object.'));
    }
    const job = this.createJob(kind, items, ctx.user);
    if (items.length <= SMALL_JOB_ITEMS && this.settings.immediateResults > 0) {
      this.immediateCredit += this.settings.immediateResults;
      if (this.immediateCredit >= 1) {
        this.immediateCredit -= 1;
        const plan = this.plans.get(job.id)!;
        this.resolve(plan);
        this.execute(plan, ctx.base);
        plan.early = true;
      }
    }
    const record: ReceivedJobRequest = { at, items, jobId: job.id, status: 200 };
    this.requests[kind].push(record);
    return { result: { status: 200, body: this.jobRecord(ctx.base, job, false) }, record };
  }

  private refuse(kind: JobKind, at: number, items: unknown, e: ApiError): never {
    const record: ReceivedJobRequest = { at, items, status: e.status, error: e.body() };
    this.requests[kind].push(record);
    e.received = record;
    throw e;
  }

  jobRecord(base: string, job: JobRec, details = true): Record<string, unknown> {
    const { started_on, finished_on, ...rest } = job;
    const out: Record<string, unknown> = { href: `${base}/async/files/${job.type.toLowerCase()}/${job.id}`, ...rest };
    if (details) {
      out.started_on = started_on;
      if (finished_on) {
        out.finished_on = finished_on;
      }
    }
    return out;
  }

  getJob(ctx: Ctx, kind: JobKind, id: string): Result {
    this.advance(ctx.base);
    const job = this.store.jobs.find((j) => j.id === id && j.type === kind.toUpperCase() && this.visible(ctx, j));
    if (!job) {
      throw new ApiError(404, 10211, `Async job '${id}' does not exist.`);
    }
    return { status: 200, body: this.jobRecord(ctx.base, job) };
  }

  listJobs(ctx: Ctx): Result {
    this.advance(ctx.base);
    const page = paging(ctx.query);
    const mine = this.store.jobs.filter((j) => this.visible(ctx, j));
    const ordered = this.settings.jobOrder === 'oldest' ? mine : this.settings.jobOrder === 'newest' ? mine.reverse() : shuffled(mine);
    return listResult(ctx, ordered, page, (j: JobRec) => this.jobRecord(ctx.base, j));
  }

  /** Move every job along its timeline up to now; copies, moves and deletes are made when a job finishes. */
  advance(base: string): void {
    const now = this.now();
    for (const plan of this.plans.values()) {
      const job = plan.job;
      if (job.state === 'FINISHED') {
        continue;
      }
      const s = this.stepMs;
      if (job.state === 'SUBMITTED' && now >= plan.submittedAt + s) {
        job.state = 'RESOLVING';
      }
      if (job.state === 'RESOLVING' && now >= plan.submittedAt + 2 * s) {
        if (!plan.early) this.resolve(plan);
        job.state = 'RUNNING';
        const runSteps = Math.max(1, Math.ceil(job.total_files / 25));
        plan.finishAt = plan.submittedAt + (2 + runSteps) * s;
      }
      if (job.state === 'RUNNING') {
        if (now >= plan.finishAt) {
          this.execute(plan, base);
          job.completed_files = plan.okFiles;
          job.failed_files = plan.failFiles;
          job.state = 'FINISHED';
          job.finished_on = isoZ(plan.finishAt);
        } else {
          const runStart = plan.submittedAt + 2 * s;
          const frac = Math.min(1, Math.max(0, (now - runStart) / (plan.finishAt - runStart)));
          job.completed_files = Math.floor(frac * plan.okFiles);
          job.failed_files = Math.floor(frac * plan.failFiles);
          if (this.settings.progressiveResults) this.execute(plan, base, Math.floor(frac * plan.outcomes.length));
        }
      }
    }
  }

  private itemError(status: number, code: number, message: string): Outcome {
    return { ok: false, error: errorBody(status, code, message) };
  }

  private resolve(plan: Plan): void {
    const seen = new Set<string>();
    plan.outcomes = plan.items.map((item): Outcome => this.resolveItem(plan.kind, item, seen));
    plan.okFiles = plan.outcomes.reduce((n, o) => n + (o.ok ? o.files : 0), 0);
    plan.failFiles = plan.outcomes.filter((o) => !o.ok).length;
    plan.job.total_files = plan.okFiles + plan.failFiles;
  }

  /** One item's checks, in the order the platform is taken to make them; `seen` holds the valid sources so far. */
  private resolveItem(kind: JobKind, item: CopyItem, seen: Set<string>): Outcome {
    const store = this.store;
    const { file, parent, project, name } = item;
    if (!present(file) || typeof file !== 'string') {
      return this.itemError(400, 90000, "The item's 'file' is required.");
    }
    if (kind !== 'delete') {
      if (present(parent) && present(project)) {
        return this.itemError(400, 5031, "Give either 'parent' or 'project', not both.");
      }
      if (!present(parent) && !present(project)) {
        return this.itemError(400, 5029, "Give either 'parent' or 'project'.");
      }
      if (present(name) && (typeof name !== 'string' || name.includes('/') || name.trim() === '')) {
        return this.itemError(400, 90000, `Invalid name '${String(name)}'.`);
      }
    }
    const source = store.fileById.get(file);
    if (!source) {
      return this.itemError(404, 10225, `Source '${file}' does not exist.`);
    }
    if (source.parent === null) {
      return this.itemError(400, 90000, `The root folder of a project cannot be ${kind === 'copy' ? 'copied' : kind === 'move' ? 'moved' : 'deleted'}.`);
    }
    if (seen.has(file)) {
      return this.itemError(400, 10231, `Source '${file}' is listed more than once.`);
    }
    seen.add(file);
    if (kind !== 'copy' && !store.projectById.get(source.project)?.permissions.write) {
      return this.itemError(403, 10226, `No write permission in project '${source.project}', where '${source.name}' is.`);
    }
    if (kind === 'delete') {
      return { ok: true, source, destFolder: undefined, name: null, files: countFiles(store, source) };
    }
    let dest: FileRec | undefined;
    if (present(parent)) {
      dest = typeof parent === 'string' ? store.fileById.get(parent) : undefined;
      if (!dest) {
        return this.itemError(400, 10228, `Destination folder '${String(parent)}' does not exist.`);
      }
      if (dest.type !== 'folder') {
        return this.itemError(400, 10227, 'The destination must be a folder.');
      }
    } else {
      const p = typeof project === 'string' ? store.projectById.get(project) : undefined;
      if (!p) {
        return this.itemError(400, 10228, `Destination project '${String(project)}' does not exist.`);
      }
      dest = store.fileById.get(p.root_folder)!;
    }
    if (!store.projectById.get(dest.project)?.permissions.write) {
      return this.itemError(403, 90002, `No write permission in project '${dest.project}'.`);
    }
    if (source.type === 'folder' && store.isWithin(dest.id, source.id)) {
      return this.itemError(400, 10229, `A folder cannot be ${kind === 'copy' ? 'copied' : 'moved'} into itself or its own subfolders.`);
    }
    return { ok: true, source, destFolder: dest, name: present(name) ? (name as string) : null, files: countFiles(store, source) };
  }

  /** Carries out the outcomes up to `upTo` (all by default) and adds their results, in request order. */
  private execute(plan: Plan, base: string, upTo = plan.outcomes.length): void {
    const at = isoZ(Math.min(plan.finishAt, this.now()));
    for (; plan.executed < upTo; plan.executed++) {
      const o = plan.outcomes[plan.executed];
      const result: JobResult = o.ok ? this.carryOut(plan.kind, o, base, at) : { error: o.error };
      if (o.ok && 'error' in result) {
        // It failed when carried out: it counts as one failed item, like a refusal.
        plan.okFiles -= o.files;
        plan.failFiles += 1;
        plan.job.total_files = plan.okFiles + plan.failFiles;
      }
      plan.job.result = [...plan.job.result, result];
    }
  }

  private carryOut(kind: JobKind, o: Extract<Outcome, { ok: true }>, base: string, at: string): JobResult {
    const store = this.store;
    // Between submission and now the source or the destination may have gone (another job, a delete).
    if (store.fileById.get(o.source.id) !== o.source) return { error: errorBody(404, 10225, `Source '${o.source.id}' does not exist.`) };
    if (o.destFolder && store.fileById.get(o.destFolder.id) !== o.destFolder) {
      return { error: errorBody(400, 10228, `Destination folder '${o.destFolder.id}' does not exist.`) };
    }
    if (kind === 'delete') {
      const before = fileRecord(base, o.source);
      removeTree(store, o.source);
      return { resource: before };
    }
    const name = o.name ?? o.source.name;
    const node = kind === 'copy' ? this.copyNode(o.source, o.destFolder!, name, at) : this.moveNode(o.source, o.destFolder!, name, at);
    return { resource: fileRecord(base, node) };
  }

  private copyNode(src: FileRec, dest: FileRec, name: string, at: string): FileRec {
    const existing = sibling(this.store, dest.id, name);
    if (src.type === 'folder' && existing?.type === 'folder') {
      const kids = [...this.store.children(src.id)];
      for (const k of kids) {
        this.copyNode(k, existing, k.name, at);
      }
      return existing;
    }
    const kids = src.type === 'folder' ? [...this.store.children(src.id)] : [];
    const copy = this.store.addFile({
      ...JSON.parse(JSON.stringify(src)) as FileRec,
      id: this.store.newFileId(),
      name: freeName(this.store, dest.id, name),
      project: dest.project,
      parent: dest.id,
      created_on: at,
      modified_on: at,
    });
    if (src.type === 'file') this.store.contentSource.set(copy.id, this.store.contentSource.get(src.id) ?? { id: src.id, name: src.name });
    for (const k of kids) {
      this.copyNode(k, copy, k.name, at);
    }
    return copy;
  }

  /**
   * A file keeps its record and ID (renamed `1_<name>`, … on a clash); a folder is made anew at its place (a new ID)
   * with its contents moved into it, or merged into a folder of the same name there; the source folder is gone.
   * An item moved to where it already is, under its own name, stays as it is.
   */
  private moveNode(src: FileRec, dest: FileRec, name: string, at: string): FileRec {
    const store = this.store;
    if (src.parent === dest.id && src.name === name) return src;
    const existing = sibling(store, dest.id, name, src);
    if (src.type === 'folder' && existing?.type === 'folder') {
      for (const k of [...store.children(src.id)]) this.moveNode(k, existing, k.name, at);
      store.removeFile(src);
      return existing;
    }
    const finalName = freeName(store, dest.id, name, src);
    if (src.type === 'file') {
      if (src.parent !== dest.id) store.reparent(src, dest);
      src.name = finalName;
      src.modified_on = at;
      return src;
    }
    const moved = store.addFile({
      ...JSON.parse(JSON.stringify(src)) as FileRec,
      id: store.newFileId(),
      name: finalName,
      project: dest.project,
      parent: dest.id,
      modified_on: at,
    });
    for (const k of [...store.children(src.id)]) this.moveNode(k, moved, k.name, at);
    store.removeFile(src);
    return moved;
  }
}

/** A fresh random order on every call: nothing may be read into the list's order. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
