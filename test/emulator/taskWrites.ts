/**
 * Making and changing tasks (platform-api.md §11): POST /v2/tasks[?action=run][&batch=false], PATCH /v2/tasks/{id},
 * PATCH /v2/tasks/{id}/inputs and DELETE /v2/tasks/{id}. The input checks are taskRules.ts's, batches batchTasks.ts's.
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - request errors make nothing: a body that is not an object, no `project`, or `inputs` that is not an object 400/90000;
 *   no `app` 400/7015; a project that does not exist 404/3002, one without execute permission 403/90002; an app or
 *   revision that does not exist 404/6002; the batch fields' 7023, 7018, 7020, 7019 (batchTasks.ts); `?batch=false`
 *   without `?action=run` 400/7021;
 * - every input value is taken and checked against the app's CWL: a DRAFT is made with its problems in `errors` and
 *   `warnings` (taskRules.ts), and with `?action=run` it stays DRAFT with them (201 either way);
 * - the record's `app` carries its revision: an app named without one is its latest revision at creation;
 * - `?action=` is read case-insensitively (run, Run, RUN); `?batch=false` with action=run runs one task, keeping the
 *   batch fields in the record with `batch: false`;
 * - PATCH of a DRAFT: inputs are merged (keys sent replace theirs, `null` removes one), `batch: false` or both batch
 *   fields null turns batching off, the batch fields change together; `errors` and `warnings` are recomputed; a field a
 *   task cannot change (status, project, app, …) is 400, unknown ones are ignored; a task that is not a DRAFT is
 *   400/7026, but a RUNNING or COMPLETED one may be renamed (`{name}` alone); PATCH …/inputs follows the same rules;
 * - DELETE answers 204 for a DRAFT (afterwards 404/7002), 400/7010 for any other status.
 */
import { ApiError, badRequest } from './errors';
import { type Ctx, type Result, boolParam, objectBody } from './common';
import { runName, type TaskRec } from './data';
import type { ExecutionEngine } from './execution';
import { isoZ } from './prng';
import { appInputs, runRequested } from './taskRules';
import { taskOrThrow, taskRecord } from './tasks';
import { findApp } from './apps';
import { stepIds } from './cwl';
import { readBatchFields } from './batchTasks';

type Inputs = TaskRec['inputs'];
const READ_ONLY = ['id', 'href', 'status', 'project', 'app', 'type', 'created_by', 'executed_by', 'created_time', 'start_time', 'end_time',
  'parent', 'execution_status', 'price', 'errors', 'warnings', 'outputs', 'origin'];

export function createTask(ctx: Ctx, execution: ExecutionEngine): Result {
  const body = objectBody(ctx, "with 'project', 'app' and 'inputs'");
  const run = runRequested(ctx.query);
  const batching = boolParam(ctx.query, 'batch', true);
  if (!batching && !run) throw new ApiError(400, 7021, 'Batching can only be disabled if the task is submitted for execution (with action=run).');
  const { store } = ctx;
  if (typeof body.project !== 'string' || body.project === '') throw badRequest("Give 'project', the project of the task (owner/project).");
  const project = store.projectById.get(body.project);
  if (!project || !store.projects.includes(project)) throw new ApiError(404, 3002, `Requested project or member does not exist: '${body.project}'.`);
  if (!project.permissions.execute) throw new ApiError(403, 90002, `No permission to run tasks in project '${project.id}'.`);
  if (typeof body.app !== 'string' || body.app === '') throw new ApiError(400, 7015, "App Id must not be null or an empty string: give 'app' (owner/project/app or owner/project/app/revision).");
  const { app, rev } = findApp(store, body.app);
  const inputs = body.inputs === undefined || body.inputs === null ? {} : checkInputs(body.inputs);
  const batch = readBatchFields(body, appInputs(store, `${app.id}/${rev.revision}`));
  const optional = optionalFields(body);
  const at = ctx.now();
  const steps = stepIds(rev.content).length || 1;
  const t: TaskRec = {
    id: store.rng.uuid(),
    name: body.name === undefined || body.name === null ? runName(typeof rev.content.label === 'string' ? rev.content.label : app.short, at) : checkTaskName(body.name),
    status: 'DRAFT',
    project: project.id,
    app: `${app.id}/${rev.revision}`,
    type: 'v2',
    created_by: ctx.user,
    executed_by: ctx.user,
    created_time: isoZ(at),
    batch: batch !== undefined && batching,
    parent: null,
    ...batch,
    execution_status: {
      message: 'Draft', steps_completed: 0, steps_total: steps, queued: 0, running: 0, completed: 0, failed: 0, aborted: 0,
      system_limit: false, account_limit: false,
    },
    errors: [],
    warnings: [],
    inputs,
    outputs: {},
    use_interruptible_instances: typeof body.use_interruptible_instances === 'boolean' ? body.use_interruptible_instances : project.settings.use_interruptible_instances,
    ...optional,
  };
  store.addTask(t);
  if (run) execution.runOrExplain(t);
  else execution.validate(t);
  return { status: 201, body: taskRecord(ctx.base, t) };
}

export function patchTask(ctx: Ctx, id: string, execution: ExecutionEngine): Result {
  const t = taskOrThrow(ctx.store, id);
  const body = objectBody(ctx, 'with the fields to change');
  if (t.status !== 'DRAFT') {
    if (!(['RUNNING', 'COMPLETED'].includes(t.status) && Object.keys(body).every((k) => k === 'name'))) throw notDraft(t);
    t.name = checkTaskName(body.name);
    return { status: 200, body: taskRecord(ctx.base, t) };
  }
  const readOnly = Object.keys(body).find((k) => READ_ONLY.includes(k));
  if (readOnly) throw badRequest(`'${readOnly}' cannot be changed.`);
  const inputs = body.inputs === undefined ? undefined : body.inputs === null ? {} : checkInputs(body.inputs);
  const off = body.batch === false || ('batch_input' in body && 'batch_by' in body && body.batch_input === null && body.batch_by === null);
  const batch = off ? undefined : readBatchFields(body, appInputs(ctx.store, t.app));
  if (body.batch === true && !batch && !(t.batch_input && t.batch_by)) throw new ApiError(400, 7023, 'Missing batch_by or batch_input fields. These fields must be included together.');
  const name = body.name === undefined ? undefined : checkTaskName(body.name);
  const optional = optionalFields(body);
  if (name !== undefined) t.name = name;
  if (inputs !== undefined) t.inputs = merged(t.inputs, inputs);
  if (typeof body.use_interruptible_instances === 'boolean') t.use_interruptible_instances = body.use_interruptible_instances;
  Object.assign(t, optional);
  if (off) Object.assign(t, { batch: false, batch_input: undefined, batch_by: undefined });
  else if (batch) Object.assign(t, batch, { batch: true });
  else if (body.batch === true) t.batch = true;
  execution.validate(t);
  return { status: 200, body: taskRecord(ctx.base, t) };
}

/** PATCH /v2/tasks/{id}/inputs: merged as a PATCH's inputs; the answer is the whole inputs map. */
export function patchInputs(ctx: Ctx, id: string, execution: ExecutionEngine): Result {
  const t = taskOrThrow(ctx.store, id);
  if (t.status !== 'DRAFT') throw notDraft(t);
  t.inputs = merged(t.inputs, checkInputs(objectBody(ctx, 'mapping input names to values')));
  execution.validate(t);
  return { status: 200, body: t.inputs };
}

/** DELETE /v2/tasks/{id}: drafts only. */
export function deleteTask(ctx: Ctx, id: string): Result {
  const t = taskOrThrow(ctx.store, id);
  if (t.status !== 'DRAFT') throw new ApiError(400, 7010, `Task '${t.name}' is ${t.status}: only DRAFT tasks can be deleted.`);
  ctx.store.removeTask(t);
  return { status: 204, body: undefined };
}

const notDraft = (t: TaskRec): ApiError =>
  new ApiError(400, 7026, `Task '${t.name}' is ${t.status}: editing is available only for draft tasks; RUNNING and COMPLETED tasks can only be renamed.`);

/** Keys sent replace theirs; a null value removes its key. */
function merged(current: Inputs, given: Inputs): Inputs {
  const out: Inputs = { ...current, ...given };
  for (const [k, v] of Object.entries(given)) if (v === null) delete out[k];
  return out;
}

function checkTaskName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest("'name' must be a non-empty text.");
  if (name.length > 255) throw badRequest(`'name' is at most 255 characters (${name.length} given).`);
  return name;
}

/** An inputs map: an object; its values are checked against the app by taskRules.ts. */
function checkInputs(inputs: unknown): Inputs {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) throw badRequest("'inputs' must be an object mapping input names to values.");
  return inputs as Inputs;
}

/** The optional fields a task keeps as given (each checked for its type). */
function optionalFields(body: Record<string, unknown>): Partial<TaskRec> {
  const out: Partial<TaskRec> = {};
  if (body.description !== undefined && body.description !== null) {
    if (typeof body.description !== 'string') throw badRequest("'description' must be a text.");
    out.description = body.description;
  }
  for (const key of ['execution_settings', 'output_location'] as const) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`'${key}' must be an object.`);
    out[key] = v as Record<string, unknown>;
  }
  return out;
}
