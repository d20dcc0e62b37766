/** GET /v2/tasks (filters, order, fields, paging) and GET /v2/tasks/{id}. */
import { applyFields } from './fields';
import { ApiError, badRequest } from './errors';
import { type Ctx, type Result, listResult, one, paging } from './common';
import { FILTER_STATUSES, type Store, type TaskRec, type TaskStatus } from './data';
import { parseFilterTime } from './timestamps';

const TASK_DEFAULTS = ['href', 'id', 'name', 'project'];
const ORDER_BY = ['created_time', 'start_time', 'end_time', 'name', 'created_by'] as const;
type OrderBy = (typeof ORDER_BY)[number];

const KEY_ORDER = [
  'id', 'name', 'status', 'project', 'app', 'type', 'created_by', 'executed_by', 'created_time', 'start_time', 'end_time',
  'batch', 'parent', 'batch_group', 'batch_by', 'origin', 'execution_status', 'price', 'errors', 'warnings', 'inputs', 'outputs',
];

/** The API shape of a task: href first, then the documented key order. */
export function taskRecord(base: string, t: TaskRec): Record<string, unknown> {
  const src = t as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { href: `${base}/tasks/${t.id}` };
  for (const k of KEY_ORDER) {
    if (src[k] !== undefined) {
      out[k] = src[k];
    }
  }
  for (const k of Object.keys(src)) {
    if (!(k in out) && src[k] !== undefined) {
      out[k] = src[k];
    }
  }
  return out;
}

export function listTasks(ctx: Ctx): Result {
  const q = ctx.query;
  const page = paging(q);
  const fields = one(q, 'fields');
  const preds: ((t: TaskRec) => boolean)[] = [];

  const status = one(q, 'status');
  if (status !== null) {
    if (!FILTER_STATUSES.includes(status as TaskStatus)) {
      throw new ApiError(400, 7006, `Invalid task status '${status}'. Use one of ${FILTER_STATUSES.join(', ')}.`);
    }
    preds.push((t) => t.status === status);
  }
  const parent = one(q, 'parent');
  if (parent !== null) {
    preds.push((t) => t.parent === parent);
  }
  const project = one(q, 'project');
  if (project !== null) {
    if (!/^[^/\s]+\/[^/\s]+$/.test(project)) {
      throw badRequest(`Invalid project '${project}': expected 'owner/project'.`);
    }
    preds.push((t) => t.project === project);
  }
  const originId = one(q, 'origin_id');
  if (originId !== null) {
    preds.push((t) => t.origin?.id === originId);
  }
  const range = (param: string, key: 'created_time' | 'start_time' | 'end_time', from: boolean): void => {
    const raw = one(q, param);
    if (raw === null) {
      return;
    }
    const bound = parseFilterTime(param, raw);
    preds.push((t) => {
      const v = t[key];
      if (!v) {
        return false;
      }
      const ms = Date.parse(v);
      return from ? ms >= bound : ms <= bound;
    });
  };
  range('created_from', 'created_time', true);
  range('created_to', 'created_time', false);
  range('started_from', 'start_time', true);
  range('started_to', 'start_time', false);
  range('ended_from', 'end_time', true);
  range('ended_to', 'end_time', false);

  const orderBy = one(q, 'order_by');
  const order = one(q, 'order');
  if (orderBy !== null && !ORDER_BY.includes(orderBy as OrderBy)) {
    throw badRequest(`Invalid value '${orderBy}' for parameter 'order_by'. Use one of ${ORDER_BY.join(', ')}.`);
  }
  if (order !== null) {
    if (order !== 'asc' && order !== 'desc') {
      throw badRequest(`Invalid value '${order}' for parameter 'order'. Use asc or desc.`);
    }
    if (orderBy === null) {
      throw badRequest("Parameter 'order' can only be used together with 'order_by'.");
    }
  }

  const matches = ctx.store.tasks.filter((t) => preds.every((p) => p(t)));
  // [infer] without order_by: newest created first.
  const key: OrderBy = (orderBy as OrderBy | null) ?? 'created_time';
  const dir = orderBy === null ? -1 : order === 'desc' ? -1 : 1;
  const indexed = matches.map((t, i) => ({ t, i }));
  indexed.sort((a, b) => {
    const av = a.t[key] ?? '';
    const bv = b.t[key] ?? '';
    if (av !== bv) {
      return av < bv ? -dir : dir;
    }
    return a.i - b.i;
  });
  return listResult(ctx, indexed.map((x) => x.t), page, (t: TaskRec) => applyFields(taskRecord(ctx.base, t), fields, TASK_DEFAULTS));
}

/** 404/7002, for every call that names a task (7002 "Requested task does not exist."). */
export const taskMissing = (id: string): ApiError => new ApiError(404, 7002, `Requested task does not exist: '${id}'.`);

export function taskOrThrow(store: Store, id: string): TaskRec {
  const t = store.taskById.get(id);
  if (!t) throw taskMissing(id);
  return t;
}

export function getTask(ctx: Ctx, id: string): Result {
  const t = taskOrThrow(ctx.store, id);
  return { status: 200, body: applyFields(taskRecord(ctx.base, t), one(ctx.query, 'fields'), null) };
}
