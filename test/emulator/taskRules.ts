/**
 * A task's inputs checked against its app's CWL (platform-api.md §11.1, §11.2), shared by create, PATCH, run and clone:
 * `errors` and `warnings` items in platform-api.md's stand-in shape `{type, input, message}`.
 *
 * Picks ([infer]): errors are MISSING_INPUT (a required input not set: null, left out, or an empty list),
 * INVALID_TYPE (a value of another type; a Directory given for a File), INVALID_VALUE (an enum value not in `symbols`; a
 * file that is a folder or the reverse; a file of another project, public reference files included: copy it first),
 * FILE_NOT_FOUND (an ID that is no file the caller can see); warnings are UNKNOWN_INPUT (an input the app does not have:
 * kept, ignored by the run) and MISSING_SECONDARY_FILE (no `.bai` or `^.bai` beside the file: the run may fail);
 * `sbg:fileTypes` are a hint and never checked; a batch parent's batch input takes a list of the input's item.
 */
import { badRequest } from './errors';
import { one } from './common';
import type { FileValue, Store, TaskRec } from './data';
import { checkValue, inputsOf, nonNull, secondaryName, type FileCheck, type Port, type ValueProblem } from './cwl';
import { findApp } from './apps';

export interface TaskProblem {
  type: 'MISSING_INPUT' | ValueProblem['type'] | 'UNKNOWN_INPUT' | 'MISSING_SECONDARY_FILE';
  input: string;
  message: string;
}

/** `action=run` in any case (the platforms' documents write run and Run; the Java client sends RUN). */
export function runRequested(q: URLSearchParams): boolean {
  const action = one(q, 'action');
  if (action === null) return false;
  if (action.toLowerCase() !== 'run') throw badRequest(`Invalid value '${action}' for parameter 'action'. Use run.`);
  return true;
}

/** The app's inputs (its revision's CWL), by id. */
export function appInputs(store: Store, appId: string): Map<string, Port> {
  return new Map(inputsOf(findApp(store, appId).rev.content).map((p) => [p.id, p]));
}

/** What stops a task from running (`errors`) and what it should know (`warnings`). */
export function checkTask(store: Store, t: TaskRec): { errors: TaskProblem[]; warnings: TaskProblem[] } {
  const ports = appInputs(store, t.app);
  const errors: TaskProblem[] = [];
  const warnings: TaskProblem[] = [];
  const files: FileCheck = (value, wanted) => {
    const f = store.fileById.get(value.path);
    if (!f) return { type: 'FILE_NOT_FOUND', message: `file '${value.path}' does not exist` };
    if ((wanted === 'File') !== (f.type === 'file')) return { type: 'INVALID_VALUE', message: `'${f.name}' is not a ${wanted === 'File' ? 'file' : 'folder'}` };
    if (f.project !== t.project) return { type: 'INVALID_VALUE', message: `'${f.name}' is in project '${f.project}', not the task's: copy it there first` };
    return undefined;
  };
  for (const port of ports.values()) {
    const value = t.inputs[port.id];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
      if (port.required) errors.push({ type: 'MISSING_INPUT', input: port.id, message: `Required input '${port.id}' is not set.` });
      continue;
    }
    const batched = t.batch && t.batch_input === port.id && Array.isArray(value) && nonNull(port.type).k !== 'array';
    const problems = batched ? value.flatMap((v) => checkValue(v, nonNull(port.type), files)) : checkValue(value, port.type, files);
    for (const p of problems) errors.push({ type: p.type, input: port.id, message: `Input '${port.id}': ${p.message}.` });
    if (problems.length === 0) warnings.push(...missingSecondaries(store, port, value));
  }
  for (const key of Object.keys(t.inputs)) {
    if (!ports.has(key)) warnings.push({ type: 'UNKNOWN_INPUT', input: key, message: `'${key}' is not an input of ${t.app}: it is ignored.` });
  }
  return { errors, warnings };
}

function missingSecondaries(store: Store, port: Port, value: unknown): TaskProblem[] {
  if (port.secondaryFiles.length === 0) return [];
  const out: TaskProblem[] = [];
  for (const v of Array.isArray(value) ? value : [value]) {
    const f = isFileValue(v) ? store.fileById.get(v.path) : undefined;
    if (!f || f.parent === null) continue;
    const names = new Set(store.children(f.parent).map((s) => s.name));
    for (const pattern of port.secondaryFiles) {
      const wanted = secondaryName(f.name, pattern);
      if (!names.has(wanted)) out.push({ type: 'MISSING_SECONDARY_FILE', input: port.id, message: `Input '${port.id}': '${wanted}' is not beside '${f.name}'.` });
    }
  }
  return out;
}

export function isFileValue(v: unknown): v is FileValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && ((v as FileValue).class === 'File' || (v as FileValue).class === 'Directory');
}
