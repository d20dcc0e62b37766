// Where the IDs of a copy come from, as text. Pure.
import { findFileIds, isFileId } from '../api/ids';

/**
 * Splits pasted or typed text into entries, separated by spaces, commas, semicolons or new lines.
 * Quotes and brackets around an entry are dropped, and a platform URL naming a file counts as its ID.
 * Returns every entry (valid or not) so that malformed ones can be named.
 */
export function splitIdText(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map(cleanEntry)
    .filter((entry) => entry.length > 0);
}

function cleanEntry(raw: string): string {
  let entry = raw.trim().replace(/^[\s"'`[\](){}<>]+|[\s"'`[\](){}<>]+$/g, '');
  if (/^https?:\/\//i.test(entry)) {
    const ids = findFileIds(entry);
    if (ids.length) entry = ids[ids.length - 1];
  }
  return isFileId(entry) ? entry.toLowerCase() : entry;
}

/**
 * IDs in an editor selection: every stand-alone 24-hex-digit run, whatever surrounds it (JSON, logs, a
 * table), in order; repeats kept so the caller can count them.
 */
export function idsInEditorText(text: string): string[] {
  return findFileIds(text);
}

/** The file IDs of a task's outputs: `{class, path}` values, possibly nested in lists or records. */
export function outputFileIds(outputs: Record<string, unknown> | undefined): string[] {
  const ids: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    const cls = record.class;
    if ((cls === 'File' || cls === 'Directory') && typeof record.path === 'string' && isFileId(record.path)) {
      ids.push(record.path.toLowerCase());
      return;
    }
    for (const v of Object.values(record)) visit(v, depth + 1);
  };
  visit(outputs, 0);
  return ids;
}

/** Whether a task has at least one output "Copy Outputs To…" can copy. */
export function hasFileOutputs(task: { outputs?: Record<string, unknown> }): boolean {
  return outputFileIds(task.outputs).length > 0;
}

/** The names of a task's outputs by file ID, for showing sources by name. */
export function outputNames(outputs: Record<string, unknown> | undefined): Map<string, string> {
  const names = new Map<string, string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => visit(v, depth + 1));
    const record = value as Record<string, unknown>;
    if (typeof record.path === 'string' && typeof record.name === 'string' && isFileId(record.path)) {
      names.set(record.path.toLowerCase(), record.name);
      return;
    }
    for (const v of Object.values(record)) visit(v, depth + 1);
  };
  visit(outputs, 0);
  return names;
}
