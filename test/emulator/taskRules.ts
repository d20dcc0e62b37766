/** What a run checks (a required input set, the files it names there and of their class), shared by create and clone. */
import { badRequest } from './errors';
import { one } from './common';
import { APPS, type FileValue, type Store, type TaskRec } from './data';

/** `action=run` in any case (the platforms' documents write run and Run; the Java client sends RUN). */
export function runRequested(q: URLSearchParams): boolean {
  const action = one(q, 'action');
  if (action === null) return false;
  if (action.toLowerCase() !== 'run') throw badRequest(`Invalid value '${action}' for parameter 'action'. Use run.`);
  return true;
}

/** Why a task cannot run: a required input not set, a file or folder it names that does not exist or is not one. */
export function inputErrors(store: Store, t: TaskRec): string[] {
  const problems: string[] = [];
  const app = APPS.find((a) => t.app.split('/')[2] === a.id);
  const required = app?.in;
  const value = required === undefined ? undefined : t.inputs[required];
  if (required !== undefined && (value === undefined || value === null || (Array.isArray(value) && value.length === 0))) {
    problems.push(`Required input '${required}' is not set.`);
  }
  for (const [port, v] of Object.entries(t.inputs)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (!isFileValue(item)) continue;
      const f = store.fileById.get(item.path);
      if (!f) problems.push(`Input '${port}': file '${item.path}' does not exist.`);
      else if ((item.class === 'File') !== (f.type === 'file')) problems.push(`Input '${port}': '${f.name}' is not a ${item.class === 'File' ? 'file' : 'folder'}.`);
    }
  }
  return problems;
}

export function isFileValue(v: unknown): v is FileValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && ((v as FileValue).class === 'File' || (v as FileValue).class === 'Directory');
}

