/**
 * Batch tasks (platform-api.md §11.3): the request's batch fields, the groups a run makes children of, and a parent's
 * counts and end.
 *
 * Picks ([infer]): `batch_by.type` is read case-insensitively and kept in capitals, `criteria` are `metadata.<field>`
 * texts (another is 400/90000); an ITEM group is one file, its `value` the file's name and `fields` {}; a CRITERIA group
 * is every file with the same values, `fields` those values by field name ('' where a file has none), `value` the values
 * joined with ', ', groups in the order their first file comes; a child is named `<parent name> - <value>` and takes
 * the parent's inputs with the batch input replaced by its group (one File for a File input, the list for a File[]
 * input; CRITERIA needs a list input, else the parent has an INVALID_VALUE error); the parent's
 * `execution_status` counts its children (a DRAFT child as queued), `steps_total` their number, `steps_completed` those
 * ended.
 */
import { ApiError, badRequest } from './errors';
import { sumPrices, type FileValue, type Store, type TaskRec } from './data';
import { isFileValue, type TaskProblem } from './taskRules';
import { nonNull, type Port } from './cwl';
import { isoZ } from './prng';

export interface BatchFields {
  batch_input: string;
  batch_by: { type: 'ITEM' | 'CRITERIA'; criteria: string[] };
}

const given = (v: unknown): boolean => v !== undefined && v !== null;

/** The batch fields of a create or a PATCH, checked (7023, 7018, 7020, 7019); undefined when neither is given. */
export function readBatchFields(body: Record<string, unknown>, ports: Map<string, Port>): BatchFields | undefined {
  const { batch_input: input, batch_by: by } = body;
  if (!given(input) && !given(by)) return undefined;
  if (!given(input) || !given(by)) throw new ApiError(400, 7023, 'Missing batch_by or batch_input fields. These fields must be included together.');
  if (typeof input !== 'string' || !ports.has(input)) {
    throw new ApiError(400, 7018, `Batch input ${JSON.stringify(input)} is not an input of the app: batch_input names one of ${[...ports.keys()].join(', ')}.`);
  }
  const type = typeof by === 'object' && by !== null && typeof (by as { type?: unknown }).type === 'string' ? (by as { type: string }).type.toUpperCase() : undefined;
  if (type !== 'ITEM' && type !== 'CRITERIA') throw new ApiError(400, 7020, 'Invalid batch type supplied. Allowed values: [criteria, item].');
  if (type === 'ITEM') return { batch_input: input, batch_by: { type, criteria: [] } };
  const criteria = (by as { criteria?: unknown }).criteria;
  if (!Array.isArray(criteria) || criteria.length === 0) throw new ApiError(400, 7019, 'Missing batch criteria: give criteria, e.g. ["metadata.sample_id"].');
  const bad = criteria.find((c) => typeof c !== 'string' || !/^metadata\.[^.]+$/.test(c));
  if (bad !== undefined) throw badRequest(`Invalid batch criterion ${JSON.stringify(bad)}: use metadata.<field>.`);
  return { batch_input: input, batch_by: { type, criteria: criteria as string[] } };
}

/** The parent's own problem: CRITERIA batching over an input that takes one file. */
export function batchProblems(t: TaskRec, ports: Map<string, Port>): TaskProblem[] {
  const port = t.batch && t.batch_input ? ports.get(t.batch_input) : undefined;
  if (!port || t.batch_by?.type !== 'CRITERIA' || nonNull(port.type).k === 'array') return [];
  return [{ type: 'INVALID_VALUE', input: port.id, message: `Input '${port.id}' takes one file: batching by criteria needs an input that takes a list.` }];
}

interface Group {
  value: string;
  fields: Record<string, string>;
  files: FileValue[];
}

function groups(store: Store, parent: TaskRec): Group[] {
  const value = parent.inputs[parent.batch_input ?? ''];
  const files = (Array.isArray(value) ? value : [value]).filter(isFileValue);
  if (parent.batch_by?.type !== 'CRITERIA') return files.map((f) => ({ value: store.fileById.get(f.path)?.name ?? f.path, fields: {}, files: [f] }));
  const byKey = new Map<string, Group>();
  for (const f of files) {
    const metadata = store.fileById.get(f.path)?.metadata ?? {};
    const fields = Object.fromEntries(parent.batch_by.criteria.map((c) => [c.slice('metadata.'.length), metadata[c.slice('metadata.'.length)] ?? '']));
    const key = Object.values(fields).join(', ');
    const group = byKey.get(key) ?? { value: key, fields, files: [] };
    group.files.push(f);
    byKey.set(key, group);
  }
  return [...byKey.values()];
}

/** The children of a batch parent that runs, as DRAFTs (the caller starts them). */
export function makeChildren(store: Store, parent: TaskRec, listInput: boolean, now: number): TaskRec[] {
  return groups(store, parent).map((g) =>
    store.addTask({
      ...parent,
      id: store.rng.uuid(),
      name: `${parent.name} - ${g.value}`,
      status: 'DRAFT',
      created_time: isoZ(now),
      batch: false,
      parent: parent.id,
      batch_group: { value: g.value, fields: g.fields },
      batch_by: undefined,
      batch_input: undefined,
      execution_status: { ...parent.execution_status, message: 'Draft', steps_completed: 0, queued: 0, running: 0, completed: 0, failed: 0, aborted: 0 },
      errors: [],
      warnings: [],
      inputs: { ...parent.inputs, [parent.batch_input!]: listInput ? g.files : g.files[0] },
      outputs: {},
      start_time: undefined,
      end_time: undefined,
      price: undefined,
    }),
  );
}

/** A parent's counts from its children; a RUNNING parent whose children all ended ends: FAILED if all failed, else COMPLETED. */
export function refreshParent(store: Store, parent: TaskRec, now: number): void {
  const kids = store.tasks.filter((c) => c.parent === parent.id);
  const es = parent.execution_status;
  const count = (...s: string[]) => kids.filter((c) => s.includes(c.status)).length;
  Object.assign(es, {
    queued: count('QUEUED', 'DRAFT'), running: count('RUNNING', 'ABORTING'), completed: count('COMPLETED'), failed: count('FAILED'), aborted: count('ABORTED'),
    steps_total: kids.length, steps_completed: count('COMPLETED', 'FAILED', 'ABORTED'),
  });
  if (parent.status !== 'RUNNING' || kids.length === 0 || es.steps_completed < kids.length) return;
  parent.status = es.failed === kids.length ? 'FAILED' : 'COMPLETED';
  es.message = parent.status === 'FAILED' ? 'Failed' : 'Completed';
  parent.end_time = isoZ(now);
  if (parent.start_time) es.duration = Math.max(1, Math.round((now - Date.parse(parent.start_time)) / 1000));
  parent.price = sumPrices(kids.map((k) => k.price));
}
