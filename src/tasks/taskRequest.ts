// What a task document asks of the platform, and a task read back as a document: the body of `POST /v2/tasks`
// (contract §11), the changes of `PATCH /v2/tasks/{id}` that make a draft what its document says, and a draft's
// document. The one place a document's values become the API's (`{class: File, path: <id>}`) and back. No `vscode`.
import { isFileId } from '../api/ids';
import type { BatchBy, DraftChanges, NewTask, Task } from '../api/types';
import { fileKind, type AppInput } from '../apps/cwlInputs';
import type { BatchSetting, ExecutionSettings, TaskDocument } from './taskDocument';
import { draftStateLike, type DraftState } from './taskWrites';

/** The body of `POST /v2/tasks` a document makes (it names its app and project: checked before). */
export function taskRequest(doc: TaskDocument, inputs: readonly AppInput[]): NewTask {
  return {
    project: doc.project ?? '',
    app: doc.app ?? '',
    ...(doc.name !== undefined ? { name: doc.name } : {}),
    ...(doc.description !== undefined ? { description: doc.description } : {}),
    inputs: apiInputs(doc.inputs, inputs),
    ...(doc.batch ? batchFields(doc.batch) : {}),
    ...(doc.execution && Object.keys(doc.execution).length ? { execution_settings: { ...doc.execution } } : {}),
    ...(doc.interruptible !== undefined ? { use_interruptible_instances: doc.interruptible } : {}),
  };
}

/** The inputs as the API takes them: file and folder IDs as `{class, path}`; an input left empty is left out. */
export function apiInputs(values: Record<string, unknown>, inputs: readonly AppInput[]): Record<string, unknown> {
  const byId = new Map(inputs.map((i) => [i.id, i]));
  const out: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue;
    const kind = byId.get(id) ? fileKind(byId.get(id)!.type) : undefined;
    const wrap = (v: unknown) => (kind && typeof v === 'string' && isFileId(v) ? { class: kind.kind, path: v.toLowerCase() } : v);
    out[id] = Array.isArray(value) ? value.map(wrap) : wrap(value);
  }
  return out;
}

function batchFields(batch: BatchSetting): { batch_input: string; batch_by: BatchBy } {
  return { batch_input: batch.input, batch_by: batch.by === 'file' ? { type: 'ITEM' } : { type: 'CRITERIA', criteria: [...batch.by.criteria] } };
}

/**
 * The changes that make a draft what its document says. The platform merges inputs (a key sent replaces its value,
 * `null` removes it), so each input the draft has and the document does not is sent as `null`; batching the draft has
 * and the document does not is turned off.
 */
export function draftChanges(doc: TaskDocument, inputs: readonly AppInput[], draft: Pick<Task, 'inputs' | 'batch_input' | 'batch_by' | 'batch'>): DraftChanges {
  const wanted = apiInputs(doc.inputs, inputs);
  const removed = Object.keys(draft.inputs ?? {}).filter((id) => !(id in wanted));
  const changes: DraftChanges = {
    name: doc.name,
    description: doc.description,
    inputs: { ...wanted, ...Object.fromEntries(removed.map((id) => [id, null])) },
    execution_settings: doc.execution ? { ...doc.execution } : undefined,
    use_interruptible_instances: doc.interruptible,
  };
  if (doc.batch) Object.assign(changes, batchFields(doc.batch));
  else if (draft.batch || draft.batch_input) Object.assign(changes, { batch: false });
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as DraftChanges;
}

/** A file value of the API (`{class: File, path}`), its ID; other values as they are. */
function fromApi(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromApi);
  if (typeof value === 'object' && value !== null && typeof (value as { path?: unknown }).path === 'string' && ['File', 'Directory'].includes(String((value as { class?: unknown }).class))) {
    return (value as { path: string }).path;
  }
  return value;
}

/** The names of the files a task's inputs carry (`name` may ride along with a file value), by ID. */
export function inputFileNames(task: Pick<Task, 'inputs'>): Map<string, string> {
  const names = new Map<string, string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    const v = value as { path?: unknown; name?: unknown } | null;
    if (v && typeof v === 'object' && typeof v.path === 'string' && typeof v.name === 'string') names.set(v.path, v.name);
  };
  Object.values(task.inputs ?? {}).forEach(visit);
  return names;
}

/** A task (a draft) as a document: its app and revision, project, name, inputs, batch and execution settings. */
export function documentOfTask(task: Task): TaskDocument {
  const doc: TaskDocument = {
    app: task.app,
    project: task.project,
    name: task.name,
    ...(task.description ? { description: task.description } : {}),
    draft: task.id,
    inputs: Object.fromEntries(Object.entries(task.inputs ?? {}).map(([id, v]) => [id, fromApi(v)])),
  };
  if (task.batch_input && task.batch_by) {
    const by = String(task.batch_by.type).toUpperCase() === 'CRITERIA' && task.batch_by.criteria?.length ? { criteria: [...task.batch_by.criteria] } : 'file';
    doc.batch = { input: task.batch_input, by };
  }
  const settings = task.execution_settings ?? {};
  const execution: ExecutionSettings = {};
  if (typeof settings.instance_type === 'string') execution.instance_type = settings.instance_type;
  if (typeof settings.max_parallel_instances === 'number') execution.max_parallel_instances = settings.max_parallel_instances;
  if (typeof settings.use_memoization === 'boolean') execution.use_memoization = settings.use_memoization;
  if (typeof settings.use_elastic_disk === 'boolean') execution.use_elastic_disk = settings.use_elastic_disk;
  if (Object.keys(execution).length) doc.execution = execution;
  if (typeof task.use_interruptible_instances === 'boolean') doc.interruptible = task.use_interruptible_instances;
  return doc;
}

/** The fields of a draft a save sets (and its status: a draft run since is someone else's change). */
const DRAFT_FIELDS = ['status', 'name', 'description', 'execution_settings', 'use_interruptible_instances', 'batch_input', 'batch_by'];

/** A draft's state as a save compares it. */
export function draftState(task: Task): DraftState {
  return draftStateLike(task, { ...Object.fromEntries(DRAFT_FIELDS.map((k) => [k, null])), inputs: {} });
}

/** The state a PATCH makes of a draft (inputs merged: a key sent replaces its value, `null` removes it). */
export function stateAfter(before: DraftState, changes: DraftChanges): DraftState {
  const inputs = { ...before.inputs, ...(changes.inputs ?? {}) };
  const after: DraftState = { ...before, inputs: Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== null && v !== undefined)) };
  if (changes.name !== undefined) after.name = changes.name;
  if (changes.description !== undefined) after.description = changes.description || null;
  if (changes.execution_settings !== undefined) after.execution_settings = { ...(before.execution_settings as object | null), ...changes.execution_settings };
  if (changes.use_interruptible_instances !== undefined) after.use_interruptible_instances = changes.use_interruptible_instances;
  if (changes.batch === false) Object.assign(after, { batch_input: null, batch_by: null });
  if (changes.batch_input !== undefined) Object.assign(after, { batch_input: changes.batch_input, batch_by: changes.batch_by ?? null });
  return after;
}
