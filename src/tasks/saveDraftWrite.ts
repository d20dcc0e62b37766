// Saving a task document over its draft (`PATCH /v2/tasks/{id}`, drafts only) as a write of the outbox: it sets
// values, so it is idempotent and found by state (issue 37's rule, `byState`): the draft read back shows what was
// asked → done; still what it was before the send (kept in the payload) → not done, sent again; anything else (no
// longer a draft included), or gone → someone else changed it: the person decides. No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import type { DraftChanges, Task } from '../api/types';
import { WRITE_KINDS } from '../keys/writes';
import { byState, type WriteKind } from '../write/kinds';
import { comparable, keepCreated } from './createTaskWrite';

export interface SaveDraftApi {
  get(id: string, options: { credentials?: Credentials }): Promise<Task>;
  updateDraft(id: string, changes: DraftChanges, options: { credentials?: Credentials }): Promise<Task>;
}

/** What a save sets on a draft, as compared: its name, description, inputs, settings and batching. */
export interface DraftState {
  status?: string;
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

/** A draft's state as compared. */
export function draftState(task: Pick<Task, 'status' | 'name' | 'description' | 'inputs' | 'execution_settings' | 'use_interruptible_instances' | 'batch_input' | 'batch_by'>): DraftState {
  const inputs = Object.fromEntries(Object.entries(task.inputs ?? {}).filter(([, v]) => v !== null && v !== undefined));
  return {
    status: task.status,
    name: task.name,
    description: task.description || undefined,
    inputs,
    execution_settings: task.execution_settings && Object.keys(task.execution_settings).length ? task.execution_settings : undefined,
    use_interruptible_instances: task.use_interruptible_instances,
    batch_input: task.batch_input || null,
    batch_by: task.batch_input ? (task.batch_by ?? null) : null,
  };
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
        // A draft run since (its status in the state) is neither what was asked nor what was there: someone else's.
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
