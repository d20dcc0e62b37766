// The output files of several tasks (a batch parent's completed children included), gathered for one copy.
// No `vscode`: the task API is handed in.
import { MAX_BULK_IDS, type TasksApi } from '../api/tasks';
import type { Task } from '../api/types';
import * as l10n from '@vscode/l10n';
import { count } from '../util/words';
import { outputFileIds, outputFiles, outputNames } from '../api/outputs';

/** A batch's completed children are read 100 a page, at most this many pages. */
export const CHILD_PAGES = 10;
const CHILD_FIELDS = 'id,name,status,project,outputs';

export interface GatheredOutputs {
  ids: string[];
  names: Record<string, string>;
  projects: string[];
  /** Tasks whose outputs are in `ids`. */
  tasks: number;
  /** Each of those tasks with its outputs (files and folders), for what keeps them apart (Download…'s `<task name>/`). */
  byTask: { task: { id: string; name?: string }; outputs: ReturnType<typeof outputFiles> }[];
  /** What could not be gathered, in words (a batch with more children than read, a task that could not be read). */
  notes: string[];
  requests: number;
}

/**
 * The output files of the given tasks, each once: the tasks without their outputs in hand are read 100 a request
 * (`POST /v2/bulk/tasks/get`; one GET each when that is not at hand or failed for one); a batch
 * parent stands for its completed children (listed by `parent`, 100 a page). Tasks that are not COMPLETED are skipped.
 */
export async function gatherOutputs(tasks: readonly (Pick<Task, 'id'> & Partial<Task>)[], source: Pick<TasksApi, 'get' | 'list'> & Partial<Pick<TasksApi, 'bulkGet'>>, maxPages = CHILD_PAGES): Promise<GatheredOutputs> {
  const out: GatheredOutputs = { ids: [], names: {}, projects: [], tasks: 0, byTask: [], notes: [], requests: 0 };
  const seen = new Set<string>();
  const projects = new Set<string>();
  const take = (task: Pick<Task, 'id'> & Partial<Task>) => {
    const ids = outputFileIds(task.outputs);
    if (!ids.length) return;
    out.tasks++;
    out.byTask.push({ task: { id: task.id, ...(task.name ? { name: task.name } : {}) }, outputs: outputFiles(task.outputs) });
    if (task.project) projects.add(task.project);
    const names = outputNames(task.outputs);
    for (const id of ids) {
      if (seen.has(id.toLowerCase())) continue;
      seen.add(id.toLowerCase());
      out.ids.push(id);
      const name = names.get(id);
      if (name) out.names[id] = name;
    }
  };
  // The tasks whose outputs are not in hand (a row's record has none), read 100 a request when the source can.
  const read = new Map<string, Task>();
  const unread = tasks.filter((t) => !t.batch && !t.outputs).map((t) => t.id);
  if (source.bulkGet) {
    for (let i = 0; i < unread.length; i += MAX_BULK_IDS) {
      out.requests++;
      try {
        for (const item of await source.bulkGet(unread.slice(i, i + MAX_BULK_IDS))) if (item.resource && typeof item.resource.id === 'string') read.set(item.resource.id, item.resource);
      } catch {
        // Each of these is read alone below, and said when it cannot be.
      }
    }
  }
  for (const task of tasks) {
    if (task.batch) {
      let read = 0;
      for (let page = 0; ; page++) {
        if (page >= maxPages) {
          out.notes.push(
            read === 1
              ? l10n.t('Only the first completed child of "{0}" was read.', task.name || task.id)
              : l10n.t('Only the first {0} completed children of "{1}" were read.', count(read), task.name || task.id),
          );
          break;
        }
        out.requests++;
        const listed = await source.list({ parent: task.id, status: 'COMPLETED', fields: CHILD_FIELDS }, { offset: page * 100, limit: 100 });
        listed.items.forEach(take);
        read += listed.items.length;
        if (!listed.next || listed.items.length < 100) break;
      }
      continue;
    }
    let full = task.outputs ? task : (read.get(task.id) ?? task);
    if (!full.outputs) {
      try {
        out.requests++;
        full = await source.get(task.id);
      } catch {
        out.notes.push(l10n.t('The outputs of "{0}" could not be read.', task.name || task.id));
        continue;
      }
    }
    if (full.status !== undefined && full.status !== 'COMPLETED') {
      out.notes.push(l10n.t('"{0}" is not completed: its outputs are not copied.', full.name || full.id));
      continue;
    }
    take(full);
  }
  out.projects = [...projects];
  return out;
}
