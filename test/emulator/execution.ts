/**
 * What a task does once it is started: its jobs and their log files (GET /v2/tasks/{id}/execution_details), the
 * actions that move it (abort, run, clone), its lifecycle after them, and POST /v2/bulk/tasks/get.
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - jobs and logs are drawn from a PRNG seeded by the task ID and its status, so they are stable between calls;
 *   every task with a `start_time` has jobs; a FAILED task's last job failed and its `job.err.log` ends with the
 *   task's first error; about half of those logs are 1.2–3 MB (verbose tools), the rest 8–120 KB;
 * - log URLs are `<base>/files/<24 hex>/download_info` (answered by content.ts);
 * - jobs are the app's steps (a workflow's step ids, else its command), as its CWL says (apps.ts);
 * - abort: QUEUED and CREATING → ABORTED at once, RUNNING → ABORTING, then ABORTED one `taskStepMs` later (a batch
 *   parent's active children go with it); any other status is 400/9005;
 * - run (DRAFT only, else 400/7007; a draft whose inputs do not hold is 400/7024 and stays DRAFT with its `errors`;
 *   `?batch=false` runs a batch parent as one task): DRAFT → QUEUED, RUNNING one step later (`start_time`,
 *   `steps_completed` moving up each step), ended `runSteps` steps after that (COMPLETED unless `setRunOutcome` said
 *   FAILED), priced by its running time, a completed task's outputs made as files (taskOutputs.ts); a batch parent
 *   goes CREATING, then one step later RUNNING with its children made and started (batchTasks.ts), and ends when
 *   they all have; clone: a DRAFT copy (same app, inputs, name) created now, standing alone when its original is a
 *   batch child (no parent, no batch group); `?action=run` (any case) runs it, or leaves it DRAFT with `errors` when
 *   its inputs no longer hold (taskRules.ts);
 * - the children of a batch at scale (data.ts) write short logs (1–4 KB out, 2–12 KB err), so that 1,000 of them
 *   stay light;
 * - bulk get answers `{items: [{resource}|{error}]}` in request order, at most 100 IDs.
 */
import { ApiError, badRequest, notFound } from './errors';
import { type Ctx, type Result, boolParam } from './common';
import { priceOf, type Store, type TaskRec, type TaskStatus } from './data';
import { Prng, isoZ, seedOf } from './prng';
import { appInputs, checkTask, runRequested } from './taskRules';
import { taskMissing, taskOrThrow, taskRecord } from './tasks';
import { findApp } from './apps';
import { nonNull, stepIds } from './cwl';
import { batchProblems, makeChildren, refreshParent } from './batchTasks';
import { makeOutputs } from './taskOutputs';

export interface LogFile {
  id: string;
  name: string;
  taskId: string;
  content: Buffer;
}

export interface JobRecord {
  name: string;
  start_time: string;
  end_time?: string;
  status: 'RUNNING' | 'COMPLETED' | 'FAILED' | 'ABORTED';
  command_line: string;
  retried: boolean;
  instance: { id: string; type: string; provider: string; disk: { size: number; unit: string; type: string } };
  docker: { checksum: string };
  logs: Record<string, string>;
}

export interface ReceivedAction {
  at: number;
  taskId: string;
  action: 'abort' | 'run' | 'clone';
  status: number;
  /** the new task of a clone */
  newTaskId?: string;
  responseLost?: boolean;
}

interface Pending {
  at: number;
  apply: () => void;
}

const INSTANCES = ['c5.2xlarge', 'c5.4xlarge', 'm5.4xlarge', 'r5.2xlarge', 'c5.9xlarge', 'm5.12xlarge'];
const MB = 1024 * 1024;

export class ExecutionEngine {
  readonly logs = new Map<string, LogFile>();
  readonly actions: ReceivedAction[] = [];
  private readonly details = new Map<string, JobRecord[]>();
  private readonly outcomes = new Map<string, 'COMPLETED' | 'FAILED'>();
  private pending: Pending[] = [];
  /** while a due step is applied, the time it was due: what it does happens then, not when a request noticed it */
  private applying: number | undefined;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    readonly taskStepMs: number,
    readonly runSteps: number,
  ) {}

  setRunOutcome(taskId: string, outcome: 'COMPLETED' | 'FAILED'): void {
    this.outcomes.set(taskId, outcome);
  }

  /** The lifecycle steps still to come. */
  get pendingSteps(): number {
    return this.pending.length;
  }

  /** Applies the lifecycle steps that are due (called before every request, like the copy jobs). */
  advance(): void {
    // A step may schedule another that is already due (a task run long ago): apply until none is.
    for (;;) {
      const now = this.now();
      const due = this.pending.filter((p) => p.at <= now).sort((a, b) => a.at - b.at);
      if (!due.length) return;
      this.pending = this.pending.filter((p) => p.at > now);
      for (const p of due) {
        this.applying = p.at;
        try {
          p.apply();
        } finally {
          this.applying = undefined;
        }
      }
    }
  }

  executionDetails(ctx: Ctx, id: string): Result {
    const t = this.task(id);
    const jobs = t.start_time ? this.jobsOf(ctx.base, t) : [];
    return {
      status: 200,
      body: {
        href: `${ctx.base}/tasks/${t.id}/execution_details`,
        start_time: t.start_time ?? null,
        end_time: t.end_time ?? null,
        status: t.status,
        message: t.execution_status.message,
        jobs,
      },
    };
  }

  bulkGet(ctx: Ctx): Result {
    let body: unknown;
    try {
      body = JSON.parse(ctx.rawBody || 'null');
    } catch {
      throw badRequest('The request body is not valid JSON.');
    }
    const ids = (body as { task_ids?: unknown } | null)?.task_ids;
    if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string')) throw badRequest("Give 'task_ids', a list of task IDs.");
    if (ids.length > 100) throw badRequest(`At most 100 task IDs per request (${ids.length} given).`);
    const items = (ids as string[]).map((id) => {
      const t = this.store.taskById.get(id);
      return t ? { resource: taskRecord(ctx.base, t) } : { error: taskMissing(id).body() };
    });
    return { status: 200, body: { items } };
  }

  action(ctx: Ctx, id: string, action: string): { result: Result; record: ReceivedAction } {
    const record: ReceivedAction = { at: this.now(), taskId: id, action: action as ReceivedAction['action'], status: 0 };
    try {
      const result = this.perform(ctx, id, action, record);
      record.status = result.status;
      this.actions.push(record);
      return { result, record };
    } catch (e) {
      if (e instanceof ApiError) {
        record.status = e.status;
        e.received = record;
      }
      this.actions.push(record);
      throw e;
    }
  }

  private perform(ctx: Ctx, id: string, action: string, record: ReceivedAction): Result {
    const t = this.task(id);
    if (action === 'abort') {
      if (t.status !== 'RUNNING' && t.status !== 'QUEUED' && t.status !== 'CREATING') {
        throw new ApiError(400, 9005, `Task '${t.name}' cannot be aborted: it is ${t.status}, and only running, queued or creating tasks can be.`);
      }
      this.abort(t);
      return { status: 200, body: taskRecord(ctx.base, t) };
    }
    if (action === 'run') {
      if (t.status !== 'DRAFT') throw new ApiError(400, 7007, `Task '${t.name}' cannot be run: it is ${t.status}, and this action is only available for DRAFT tasks.`);
      if (!boolParam(ctx.query, 'batch', true)) t.batch = false;
      if (!this.runOrExplain(t)) throw new ApiError(400, 7024, `Task can not be started due to validation errors: ${t.errors.map((e) => e.message).join(' ')}`);
      return { status: 200, body: taskRecord(ctx.base, t) };
    }
    if (action === 'clone') {
      const runIt = runRequested(ctx.query);
      const copy = this.clone(t);
      record.newTaskId = copy.id;
      if (runIt) this.runOrExplain(copy);
      return { status: 201, body: taskRecord(ctx.base, copy) };
    }
    throw notFound(`No such task action: ${action}`);
  }

  private task(id: string): TaskRec {
    return taskOrThrow(this.store, id);
  }

  private set(t: TaskRec, status: TaskStatus, message: string): void {
    t.status = status;
    t.execution_status.message = message;
  }

  /** The time now for the lifecycle: the due time of the step being applied, else the clock's. */
  private time(): number {
    return this.applying ?? this.now();
  }

  private at(delay: number, apply: () => void): void {
    this.pending.push({ at: this.time() + delay, apply });
  }

  /** Ends a task now, as its run would (its end time, duration, price; a failure's error). */
  end(taskId: string, status: 'COMPLETED' | 'FAILED' | 'ABORTED'): void {
    this.finish(this.task(taskId), status);
  }

  private finish(t: TaskRec, status: 'COMPLETED' | 'FAILED' | 'ABORTED'): void {
    const now = this.time();
    this.set(t, status, status === 'COMPLETED' ? 'Completed' : status === 'FAILED' ? 'Failed' : 'Aborted');
    t.end_time = isoZ(now);
    if (t.start_time) {
      t.execution_status.duration = Math.max(1, Math.round((now - Date.parse(t.start_time)) / 1000));
      t.price = priceOf(Math.round(t.execution_status.duration * 0.05) / 100, t.id);
    }
    if (status === 'FAILED') t.errors = [{ status: 400, code: 0, message: 'Job failed with exit code 1. Check the job log for details.' }];
    if (status === 'COMPLETED') t.execution_status.steps_completed = t.execution_status.steps_total;
    if (status === 'COMPLETED' && !t.batch) makeOutputs(this.store, t, now);
    const parent = t.parent === null ? undefined : this.store.taskById.get(t.parent);
    if (parent) refreshParent(this.store, parent, now);
  }

  private abort(t: TaskRec): void {
    if (t.status === 'QUEUED' || t.status === 'CREATING') {
      this.finish(t, 'ABORTED');
    } else {
      this.set(t, 'ABORTING', 'Aborting');
      this.at(this.taskStepMs, () => {
        if (t.status === 'ABORTING') this.finish(t, 'ABORTED');
      });
    }
    if (t.batch) {
      for (const c of this.store.tasks) {
        if (c.parent === t.id && (c.status === 'RUNNING' || c.status === 'QUEUED')) this.finish(c, 'ABORTED');
      }
    }
  }

  /** Checks a draft's inputs against its app (`errors`, `warnings`): true when it can run. */
  validate(t: TaskRec): boolean {
    const { errors, warnings } = checkTask(this.store, t);
    t.errors = [...errors, ...batchProblems(t, appInputs(this.store, t.app))];
    t.warnings = warnings;
    return t.errors.length === 0;
  }

  /** Runs a draft, or leaves it DRAFT with the reasons it cannot run in `errors` (create, clone and run); true when it runs. */
  runOrExplain(t: TaskRec): boolean {
    if (!this.validate(t)) return false;
    if (t.batch) this.startBatch(t);
    else this.start(t);
    return true;
  }

  /** DRAFT → QUEUED now, RUNNING a step later (its steps done one by one), ended `runSteps` steps after that. */
  private start(t: TaskRec): void {
    this.set(t, 'QUEUED', 'In queue');
    t.errors = [];
    this.at(this.taskStepMs, () => {
      if (t.status !== 'QUEUED') return;
      this.set(t, 'RUNNING', 'Running');
      t.start_time = isoZ(this.time());
      const es = t.execution_status;
      for (let i = 1; i < this.runSteps; i++) {
        this.at(this.taskStepMs * i, () => {
          if (t.status === 'RUNNING') es.steps_completed = Math.floor((es.steps_total * i) / this.runSteps);
        });
      }
      this.at(this.taskStepMs * this.runSteps, () => {
        if (t.status === 'RUNNING') this.finish(t, this.outcomes.get(t.id) ?? 'COMPLETED');
      });
    });
  }

  /** A batch parent: CREATING now; a step later its children are made and started and it is RUNNING. */
  private startBatch(t: TaskRec): void {
    this.set(t, 'CREATING', 'Creating batch children');
    t.errors = [];
    this.at(this.taskStepMs, () => {
      if (t.status !== 'CREATING') return;
      const port = appInputs(this.store, t.app).get(t.batch_input ?? '');
      const children = makeChildren(this.store, t, port !== undefined && nonNull(port.type).k === 'array', this.time());
      this.set(t, 'RUNNING', 'Running');
      t.start_time = isoZ(this.time());
      for (const c of children) {
        const outcome = this.outcomes.get(t.id);
        if (outcome) this.outcomes.set(c.id, outcome);
        this.start(c);
      }
      refreshParent(this.store, t, this.time());
    });
  }

  private clone(t: TaskRec): TaskRec {
    const id = this.store.rng.uuid();
    const copy: TaskRec = {
      ...t,
      id,
      ...(t.parent !== null ? { parent: null, batch_group: undefined } : {}),
      status: 'DRAFT',
      created_time: isoZ(this.now()),
      start_time: undefined,
      end_time: undefined,
      execution_status: {
        message: 'Draft', steps_completed: 0, steps_total: t.execution_status.steps_total, queued: 0, running: 0, completed: 0,
        failed: 0, aborted: 0, system_limit: false, account_limit: false,
      },
      price: undefined,
      errors: [],
      warnings: [],
      inputs: JSON.parse(JSON.stringify(t.inputs)) as TaskRec['inputs'],
      outputs: {},
    };
    this.store.addTask(copy);
    const outcome = this.outcomes.get(t.id);
    if (outcome) this.outcomes.set(id, outcome);
    return copy;
  }

  /** The task's jobs for its current status, drawn once and kept (so log IDs stay valid). */
  private jobsOf(base: string, t: TaskRec): JobRecord[] {
    const key = `${t.id}:${t.status}`;
    let jobs = this.details.get(key);
    if (!jobs) {
      jobs = this.drawJobs(base, t);
      this.details.set(key, jobs);
    }
    return jobs;
  }

  private drawJobs(base: string, t: TaskRec): JobRecord[] {
    const rng = new Prng(seedOf(`${t.id}:${t.status}`));
    const tools = jobNames(this.store, t);
    const start = Date.parse(t.start_time!);
    const end = t.end_time ? Date.parse(t.end_time) : this.now();
    const span = Math.max(tools.length * 1000, end - start);
    const failedAt = t.status === 'FAILED' ? rng.int(0, tools.length - 1) : t.status === 'ABORTED' || t.status === 'ABORTING' ? rng.int(0, tools.length - 1) : -1;
    const runningAt = t.status === 'RUNNING' ? rng.int(0, tools.length - 1) : -1;
    const last = failedAt >= 0 ? failedAt : runningAt >= 0 ? runningAt : tools.length - 1;
    const jobs: JobRecord[] = [];
    for (let i = 0; i <= last; i++) {
      const name = tools[i];
      const jStart = start + Math.floor((span * i) / tools.length);
      let jEnd: number | undefined = start + Math.floor((span * (i + 1)) / tools.length);
      let status: JobRecord['status'] = 'COMPLETED';
      if (i === last && t.status === 'FAILED') status = 'FAILED';
      else if (i === last && t.status === 'ABORTED') status = 'ABORTED';
      else if (i === last && (t.status === 'RUNNING' || t.status === 'ABORTING')) {
        status = 'RUNNING';
        jEnd = undefined;
      }
      if (i === last && t.end_time) jEnd = end;
      const retried = rng.chance(0.12);
      if (retried) {
        // The first attempt, cut short by a spot instance reclaim; its retry follows.
        jobs.push(this.job(base, t, rng, `${name}`, jStart, jStart + Math.floor(((jEnd ?? this.now()) - jStart) / 3), 'FAILED', true, 'Spot instance was reclaimed by the provider.'));
      }
      const error = status === 'FAILED' ? firstError(t) : undefined;
      jobs.push(this.job(base, t, rng, name, jStart, jEnd, status, false, error));
    }
    return jobs;
  }

  private job(
    base: string,
    t: TaskRec,
    rng: Prng,
    name: string,
    start: number,
    end: number | undefined,
    status: JobRecord['status'],
    retried: boolean,
    error: string | undefined,
  ): JobRecord {
    const type = rng.pick(INSTANCES);
    const logs: Record<string, string> = {};
    const add = (logName: string, content: Buffer): void => {
      const id = this.store.newFileId();
      this.logs.set(id, { id, name: logName, taskId: t.id, content });
      logs[logName] = `${base}/files/${id}/download_info`;
    };
    const cmd = `${name.replace(/_/g, ' ')} --threads 8 --input /sbgenomics/workspace/input --output /sbgenomics/workspace/out`;
    const light = t.parent !== null && this.store.scaleBatches.some((p) => p.id === t.parent);
    add('cmd.log', Buffer.from(`${cmd}\n`));
    add('job.out.log', logText(rng, name, start, (light ? rng.int(1, 4) : rng.int(2, 40)) * 1024, undefined));
    const big = !light && status === 'FAILED' && !retried && rng.chance(0.5);
    const errSize = big ? rng.int(Math.round(1.2 * MB), 3 * MB) : (light ? rng.int(2, 12) : rng.int(8, 120)) * 1024;
    add('job.err.log', logText(rng, name, start, errSize, error));
    return {
      name,
      start_time: isoZ(start),
      ...(end !== undefined ? { end_time: isoZ(end) } : {}),
      status,
      command_line: cmd,
      retried,
      instance: { id: `i-${rng.hex(17)}`, type, provider: 'AWS', disk: { size: 1024, unit: 'GB', type: 'gp3' } },
      docker: { checksum: `sha256:${rng.hex(64)}` },
      logs,
    };
  }
}

/** The jobs a task runs: its app's workflow steps, else the tool's command (`samtools view` → samtools_view). */
function jobNames(store: Store, t: TaskRec): string[] {
  let content;
  try {
    content = findApp(store, t.app).rev.content;
  } catch {
    return ['main'];
  }
  const steps = stepIds(content);
  if (steps.length) return steps;
  const command = Array.isArray(content.baseCommand) ? content.baseCommand.filter((c): c is string => typeof c === 'string' && !c.startsWith('-')) : [];
  return [command.length ? command.join('_') : t.app.split('/')[2].replace(/-/g, '_')];
}

function firstError(t: TaskRec): string {
  return t.errors[0]?.message ?? 'Job failed with exit code 1.';
}

const LINES = [
  'INFO  Reading input chunk %d',
  'INFO  Processed %d reads',
  'DEBUG buffer flushed (%d records)',
  'INFO  wrote chunk %d to the output',
  'WARN  low base quality in %d positions, continuing',
];

/** A log of about `size` bytes of timestamped lines; with `error`, its last lines say why the job failed. */
function logText(rng: Prng, tool: string, start: number, size: number, error: string | undefined): Buffer {
  const parts: string[] = [`${isoZ(start)} INFO  ${tool} starting`];
  let length = parts[0].length + 1;
  let t = start;
  let n = 0;
  while (length < size) {
    t += rng.int(0, 3) * 1000;
    const line = `${isoZ(t)} ${rng.pick(LINES).replace('%d', String(++n * 1000 + rng.int(0, 999)))}`;
    parts.push(line);
    length += line.length + 1;
  }
  if (error) {
    parts.push(`${isoZ(t + 1000)} ERROR ${tool} stopped`, `${isoZ(t + 1000)} ERROR ${error}`);
  } else {
    parts.push(`${isoZ(t + 1000)} INFO  ${tool} done`);
  }
  return Buffer.from(parts.join('\n') + '\n');
}
