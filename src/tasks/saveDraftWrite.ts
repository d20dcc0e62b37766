// Saving a task document over its draft (`PATCH /v2/tasks/{id}`, drafts only) as a write of the outbox: it sets
// values, so it is idempotent and found by state (issue 37's rule, `byState`): the draft read back shows what was
// asked → done; still what it was before the send (kept in the payload) → not done, sent again; anything else, or
// no longer a draft, or gone → someone else changed it: the person decides. No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import type { DraftChanges, Task } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import { byState, type WriteKind } from '../write/kinds';
import { keepCreated } from './createTaskWrite';

export interface SaveDraftApi {
  get(id: string, options: { credentials?: Credentials }): Promise<Task>;
  updateDraft(id: string, changes: DraftChanges, options: { credentials?: Credentials }): Promise<Task>;
}

/** What a save sets on a draft, as compared: its name, description, inputs, settings and batching. */
export interface DraftState {
  name?: string;
  description?: string;
  inputs: Record<string, unknown>;
  execution_settings?: Record<string, unknown>;
  use_interruptible_instances?: boolean;
  batch_input?: string | null;
  batch_by?: unknown;
}

export interface SaveDraftPayload {
  id: string;
  /** The draft as read just before the save; still so after a lost answer, the save did not reach it. */
  before: DraftState;
  /** The draft as the save makes it. */
  after: DraftState;
  changes: DraftChanges;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as compared: a file by its ID (the platform may add its name). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (isObject(value) && typeof value.path === 'string' && (value.class === 'File' || value.class === 'Directory')) return { class: value.class, path: value.path.toLowerCase() };
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, comparable(value[k])]));
  return value;
}

/** A draft's state as compared. */
export function draftState(task: Pick<Task, 'name' | 'description' | 'inputs' | 'execution_settings' | 'use_interruptible_instances' | 'batch_input' | 'batch_by'>): DraftState {
  const inputs = Object.fromEntries(Object.entries(task.inputs ?? {}).filter(([, v]) => v !== null && v !== undefined));
  return {
    name: task.name,
    description: task.description || undefined,
    inputs,
    execution_settings: task.execution_settings && Object.keys(task.execution_settings).length ? task.execution_settings : undefined,
    use_interruptible_instances: task.use_interruptible_instances,
    batch_input: task.batch_input || null,
    batch_by: task.batch_input ? (task.batch_by ?? null) : null,
  };
}

/** The state a PATCH makes of a draft (inputs merged: a key sent replaces its value, `null` removes it). */
export function stateAfter(before: DraftState, changes: DraftChanges): DraftState {
  const inputs = { ...before.inputs, ...(changes.inputs ?? {}) };
  const after: DraftState = { ...before, inputs: Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== null && v !== undefined)) };
  if (changes.name !== undefined) after.name = changes.name;
  if (changes.description !== undefined) after.description = changes.description || undefined;
  if (changes.execution_settings !== undefined) after.execution_settings = { ...(before.execution_settings ?? {}), ...changes.execution_settings };
  if (changes.use_interruptible_instances !== undefined) after.use_interruptible_instances = changes.use_interruptible_instances;
  if (changes.batch === false) Object.assign(after, { batch_input: null, batch_by: null });
  if (changes.batch_input !== undefined) Object.assign(after, { batch_input: changes.batch_input, batch_by: changes.batch_by ?? null });
  return after;
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
        const name = record.payload.after.name ?? record.payload.id;
        if (now && now.status !== 'DRAFT') return { changed: l10n.t('"{0}" is no longer a draft ({1}): someone ran it since.', name, now.status ?? '?') };
        return byState(now && { value: draftState(now), outcome: now }, record.payload.after, record.payload.before, sameDraftState, {
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
    describe: (p) => l10n.t('Save the draft "{0}"', p.after.name ?? p.id),
  };
}
