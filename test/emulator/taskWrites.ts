/**
 * Making and changing tasks (contract §11): POST /v2/tasks[?action=run], PATCH /v2/tasks/{id} (drafts) and
 * PATCH /v2/tasks/{id}/inputs, and the input checks a run makes (also on clone?action=run).
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - an app is `<owner>/<project>/<app>[/<revision>]` with `<app>` one of the seeded apps (bwa-mem, fastqc, …) in a
 *   project that exists; anything else is 404; the project needs execute permission (403 otherwise);
 * - a body the platform cannot take (not an object, no project or app, an input value that is not a value) is
 *   refused with 400 and no task is made; problems with the inputs themselves (a required input not set, a file
 *   that does not exist or is of the wrong class) are validation errors: the draft is made, and with
 *   `?action=run` it stays DRAFT with `errors` [{status: 400, code: 90000, message}] (201 either way);
 * - `?action=` is read case-insensitively (run, Run, RUN); `?batch=false` turns batching off;
 * - batch tasks (batch_input with batch_by, batching on) are refused with 400: the emulator runs single tasks only;
 * - PATCH of a task that is not a DRAFT is 400; it replaces the inputs map (PATCH …/inputs merges into it), clears
 *   the draft's `errors`, refuses fields a task cannot change (status, project, app, …) and ignores unknown ones.
 */
import { ApiError, badRequest, notFound } from './errors';
import { Ctx, Result, objectBody, one } from './common';
import { APPS, runName, type Store, type TaskRec } from './data';
import type { ExecutionEngine } from './execution';
import { isoZ } from './prng';
import { isFileValue, runRequested } from './taskRules';
import { taskRecord } from './tasks';

type Inputs = TaskRec['inputs'];
const READ_ONLY = ['id', 'href', 'status', 'project', 'app', 'type', 'created_by', 'executed_by', 'created_time', 'start_time', 'end_time',
  'parent', 'execution_status', 'price', 'errors', 'warnings', 'outputs', 'origin'];

export function createTask(ctx: Ctx, execution: ExecutionEngine): Result {
  const body = objectBody(ctx, "with 'project', 'app' and 'inputs'");
  const run = runRequested(ctx.query);
  const { store } = ctx;
  if (typeof body.project !== 'string' || body.project === '') throw badRequest("Give 'project', the project of the task (owner/project).");
  const project = store.projectById.get(body.project);
  if (!project) throw notFound(`Project '${body.project}' does not exist.`);
  if (!project.permissions.execute) throw new ApiError(403, 90002, `No permission to run tasks in project '${project.id}'.`);
  const app = appOf(store, body.app);
  const inputs = body.inputs === undefined || body.inputs === null ? {} : checkInputs(body.inputs);
  checkBatch(body, ctx.query);
  const optional = optionalFields(body);
  const at = ctx.now();
  const t: TaskRec = {
    id: store.rng.uuid(),
    name: body.name === undefined || body.name === null ? runName(app.label, at) : checkTaskName(body.name),
    status: 'DRAFT',
    project: project.id,
    app: body.app as string,
    type: 'v2',
    created_by: ctx.user,
    executed_by: ctx.user,
    created_time: isoZ(at),
    batch: false,
    parent: null,
    execution_status: {
      message: 'Draft', steps_completed: 0, steps_total: 1, queued: 0, running: 0, completed: 0, failed: 0, aborted: 0,
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
  return { status: 201, body: taskRecord(ctx.base, t) };
}

export function patchTask(ctx: Ctx, id: string): Result {
  const t = draft(ctx.store, id);
  const body = objectBody(ctx, 'with the fields to change');
  const readOnly = Object.keys(body).find((k) => READ_ONLY.includes(k));
  if (readOnly) throw badRequest(`'${readOnly}' cannot be changed.`);
  const inputs = body.inputs === undefined ? undefined : body.inputs === null ? {} : checkInputs(body.inputs);
  checkBatch(body, ctx.query);
  const name = body.name === undefined ? undefined : checkTaskName(body.name);
  const optional = optionalFields(body);
  if (name !== undefined) t.name = name;
  if (inputs !== undefined) t.inputs = inputs;
  if (typeof body.use_interruptible_instances === 'boolean') t.use_interruptible_instances = body.use_interruptible_instances;
  Object.assign(t, optional);
  t.errors = [];
  return { status: 200, body: taskRecord(ctx.base, t) };
}

/** PATCH /v2/tasks/{id}/inputs: the given ports replace theirs; the answer is the whole inputs map. */
export function patchInputs(ctx: Ctx, id: string): Result {
  const t = draft(ctx.store, id);
  t.inputs = { ...t.inputs, ...checkInputs(objectBody(ctx, 'mapping input names to values')) };
  t.errors = [];
  return { status: 200, body: t.inputs };
}

function draft(store: Store, id: string): TaskRec {
  const t = store.taskById.get(id);
  if (!t) throw notFound(`Task '${id}' does not exist.`);
  if (t.status !== 'DRAFT') throw new ApiError(400, 9007, `Task '${t.name}' cannot be changed: it is ${t.status}, and only draft tasks can be.`);
  return t;
}

function appOf(store: Store, app: unknown): (typeof APPS)[number] {
  if (typeof app !== 'string' || app === '') throw badRequest("Give 'app', the app to run (owner/project/app or owner/project/app/revision).");
  const parts = app.split('/');
  const known = APPS.find((a) => a.id === parts[2]);
  if (!(parts.length === 3 || (parts.length === 4 && /^\d+$/.test(parts[3]))) || !known || !store.projectById.has(`${parts[0]}/${parts[1]}`)) {
    throw notFound(`App '${app}' does not exist.`);
  }
  return known;
}

function checkTaskName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest("'name' must be a non-empty text.");
  if (name.length > 255) throw badRequest(`'name' is at most 255 characters (${name.length} given).`);
  return name;
}

/** An inputs map of values the platform takes: null, text, numbers, booleans, {class, path} and lists of them. */
function checkInputs(inputs: unknown): Inputs {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) throw badRequest("'inputs' must be an object mapping input names to values.");
  const out: Inputs = {};
  const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  for (const [port, v] of Object.entries(inputs as Record<string, unknown>)) {
    const ok = (x: unknown): boolean => scalar(x) || (isFileValue(x) && typeof x.path === 'string' && x.path !== '');
    if (!(Array.isArray(v) ? v.every(ok) : ok(v))) {
      throw badRequest(`Input '${port}' is not a value a task takes (text, a number, true or false, {"class": "File", "path": "<file id>"}, or a list of those).`);
    }
    out[port] = v as Inputs[string];
  }
  return out;
}

function checkBatch(body: Record<string, unknown>, q: URLSearchParams): void {
  const batching = (body.batch === true || (body.batch_input != null && body.batch_by != null)) && body.batch !== false && one(q, 'batch') !== 'false';
  if (batching) throw badRequest('The emulator runs single tasks only: leave out batch_input and batch_by, or send batch=false.');
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
  if (typeof body.batch_input === 'string') out.batch_input = body.batch_input;
  return out;
}
