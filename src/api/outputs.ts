// The files a task record's outputs name (`{class, path}` values, possibly nested). Pure.
import { isFileId } from './ids';

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

/** A task's output files and folders (`{class, path, basename}` values), each once, in the order the outputs list them. */
export function outputFiles(outputs: Record<string, unknown> | undefined): { id: string; name?: string; folder: boolean }[] {
  const names = outputNames(outputs);
  const found = new Map<string, { id: string; name?: string; folder: boolean }>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => visit(v, depth + 1));
    const record = value as Record<string, unknown>;
    if ((record.class === 'File' || record.class === 'Directory') && typeof record.path === 'string' && isFileId(record.path)) {
      const id = record.path.toLowerCase();
      if (!found.has(id)) found.set(id, { id, ...(names.has(id) ? { name: names.get(id) } : {}), folder: record.class === 'Directory' });
      return;
    }
    for (const v of Object.values(record)) visit(v, depth + 1);
  };
  visit(outputs, 0);
  return [...found.values()];
}
