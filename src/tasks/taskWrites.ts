// The writes of a task document (one family: ARCHITECTURE.md, "A new kind of write").
//
// Making a task (`POST /v2/tasks`, as a DRAFT or with `?action=run`) as a write of the outbox: not idempotent (each
// call makes a task, billed once run), so after a lost answer it is found by difference — a task in the project, not
// in the snapshot, with the app, name and inputs asked, claimed by no other write, made no earlier than the send
// (./newTaskIdentity.ts, the re-run's rule) — and never sent again blind. A sample sheet's tasks are one write each,
// of one group, held back while the API budget is nearly spent (as Re-run Failed's). No `vscode`.
//
// Saving a task document over its draft (`PATCH /v2/tasks/{id}`, drafts only) as a write of the outbox: it sets
// values, so it is idempotent and found by state (issue 37's rule, `byState`): the draft read back shows what was
// asked → done; still what it was before the send (kept in the payload) → not done, sent again; anything else (no
// longer a draft included), or gone → someone else changed it: the person decides.
import * as l10n from '@vscode/l10n';
import type { ApiBudget } from '../api/budget';
import type { Clock } from '../api/clock';
import { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import type { DraftChanges, NewTask, Task } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import { byState, type WriteKind } from '../write/kinds';
import { keepTask } from './actions';
import { newTaskIdentity, type CloneSnapshot, type TaskListApi } from './newTaskIdentity';

export interface CreateTaskApi extends TaskListApi {
  create(task: NewTask, options: { run?: boolean; credentials?: Credentials }): Promise<Task>;
}

export interface CreateTaskPayload {
  task: NewTask;
  /** Made and run at once (`?action=run`); otherwise left a DRAFT. */
  run: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isCreateTaskPayload(p: unknown): p is CreateTaskPayload {
  if (!isObject(p) || typeof p.run !== 'boolean' || !isObject(p.task)) return false;
  const t = p.task;
  return typeof t.project === 'string' && typeof t.app === 'string' && (t.inputs === undefined || isObject(t.inputs));
}

/** A value as compared: a file or folder by its ID (the platform may add its name), lists item by item, fields in order. */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (isObject(value) && typeof value.path === 'string' && (value.class === 'File' || value.class === 'Directory')) return { class: value.class, path: value.path.toLowerCase() };
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, comparable(value[k])]));
  return value;
}

/** Whether a task's inputs hold every value asked (the platform may add what it fills in itself). */
export function holdsInputs(task: Pick<Task, 'inputs'>, asked: Record<string, unknown> | undefined): boolean {
  const have = task.inputs ?? {};
  return Object.entries(asked ?? {}).every(([id, v]) => v === null || JSON.stringify(comparable(have[id])) === JSON.stringify(comparable(v)));
}

/** Whether a task that appeared since the snapshot is the one a create made. */
export function isMadeBy(task: Task, payload: CreateTaskPayload): boolean {
  const asked = payload.task;
  // A document names its app with the revision (taskDocument.ts), as the record does.
  return task.project === asked.project && task.app === asked.app && (asked.name === undefined || task.name === asked.name) && holdsInputs(task, asked.inputs);
}

/** What is kept of the answer: what the views read, and the platform's validation errors and warnings (shown on the document's lines). */
export function keepCreated(task: Task): Task {
  return { ...keepTask(task), errors: task.errors, warnings: task.warnings };
}

/** "Run "BWA-MEM on sample_01"", "Save "…" as a draft". */
export function describeCreate(p: CreateTaskPayload): string {
  const name = p.task.name ?? p.task.app.split('/')[2] ?? p.task.app;
  return p.run ? l10n.t('Run task "{0}"', name) : l10n.t('Save task "{0}" as a draft', name);
}

/** Run Task, Save as Draft: one task made exactly once. */
export function createTaskWrite(api: CreateTaskApi, clock?: Pick<Clock, 'monotonic'>, serverNow?: () => number | undefined): WriteKind<CreateTaskPayload, CloneSnapshot, Task> {
  return {
    name: WRITE_KINDS.createTask,
    idempotent: false,
    identity: newTaskIdentity(
      api,
      {
        project: (p: CreateTaskPayload) => p.task.project,
        fields: 'name,app,status,project,inputs',
        matches: (t, p) => isMadeBy(t, p),
        absent: () => l10n.t('No task of this app, name and inputs shows in the project.'),
      },
      clock,
      serverNow,
    ),
    isPayload: isCreateTaskPayload,
    isOutcome: (t): t is Task => isObject(t) && typeof t.id === 'string',
    send: (record, credentials) => api.create(record.payload.task, { run: record.payload.run, credentials }),
    keep: keepCreated,
    // The command that asked shows the outcome; one taken over from a closed window shows in the next refresh.
    finish: () => undefined,
    describe: describeCreate,
  };
}

/** Run for Each Row…: a task per row of a sample sheet, each a create, held back while the API budget is nearly spent. */
export function sheetTaskWrite(api: CreateTaskApi, budget: Pick<ApiBudget, 'holdBulk'>, clock?: Pick<Clock, 'monotonic'>, serverNow?: () => number | undefined): WriteKind<CreateTaskPayload, CloneSnapshot, Task> {
  return { ...createTaskWrite(api, clock, serverNow), name: WRITE_KINDS.createSheetTask, hold: () => budget.holdBulk(1) };
}

export interface SaveDraftApi {
  get(id: string, options: { credentials?: Credentials }): Promise<Task>;
  updateDraft(id: string, changes: DraftChanges, options: { credentials?: Credentials }): Promise<Task>;
}

/** What a save sets on a draft, as compared: its name, description, inputs, settings and batching. */
/** A draft's fields as compared (name, description, inputs, settings, batching, status): none is `null`. */
export type DraftState = Record<string, unknown> & { inputs: Record<string, unknown> };

export interface SaveDraftPayload {
  id: string;
  /** The draft as read just before the save; still so after a lost answer, the save did not reach it. */
  before: DraftState;
  /** The draft as the save makes it. */
  after: DraftState;
  changes: DraftChanges;
}


/**
 * A draft's fields as compared, those `like` names (each save's payload says which): a blank text or an empty object
 * as none (`null`), the inputs without those set to nothing.
 */
export function draftStateLike(task: Task, like: DraftState): DraftState {
  const plain = (v: unknown) => (v === '' || v === undefined || (isObject(v) && !Object.keys(v).length) ? null : v);
  const fields = task as unknown as Record<string, unknown>;
  const inputs = Object.fromEntries(Object.entries(task.inputs ?? {}).filter(([, v]) => v !== null && v !== undefined));
  return { ...Object.fromEntries(Object.keys(like).map((k) => [k, plain(fields[k])])), inputs };
}

export const sameDraftState = (a: DraftState, b: DraftState): boolean => JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));

export function saveDraftWrite(api: SaveDraftApi): WriteKind<SaveDraftPayload, undefined, Task> {
  return {
    name: WRITE_KINDS.saveDraft,
    idempotent: true,
    identity: {
      by: 'state',
      async read(record, credentials) {
        const now = await api.get(record.payload.id, { credentials }).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return undefined;
          throw error;
        });
        const name = String(record.payload.after.name ?? record.payload.id);
        // A draft run since (its status in the state) is neither what was asked nor what was there: someone else's.
        return byState(now && { value: draftStateLike(now, record.payload.after), outcome: now }, record.payload.after, record.payload.before, sameDraftState, {
          notYet: () => l10n.t('The draft is as it was: the save has not reached it.'),
          changed: () => l10n.t('The draft "{0}" was changed by someone else since.', name),
          gone: l10n.t('The draft "{0}" is no longer on the platform.', name),
        });
      },
    },
    isPayload: (p): p is SaveDraftPayload => isObject(p) && typeof p.id === 'string' && isObject(p.before) && isObject(p.after) && isObject(p.changes),
    isOutcome: (t): t is Task => isObject(t) && typeof t.id === 'string',
    send: (record, credentials) => api.updateDraft(record.payload.id, record.payload.changes, { credentials }),
    keep: keepCreated,
    finish: () => undefined,
    describe: (p) => l10n.t('Save the draft "{0}"', String(p.after.name ?? p.id)),
  };
}
