// What a task row opens into (its errors, jobs, logs, files): its whole record and its jobs, read the first time it
// is opened and kept until the task moves on (another status, an end). No `vscode` import; taskTree.ts asks for them.

import { describeError } from '../api/errors';
import type { ExecutionDetails, Task } from '../api/types';
import { buildTaskInfo, couldNotReadTask, hasStarted } from './taskInfo';
import { InfoNode, type TaskNode } from './taskNodes';
import type { TaskRecords } from './taskRecords';

/** What opening a task reads: its whole record and its jobs. */
export interface TaskInfoSource {
  get(id: string, signal?: AbortSignal): Promise<Task>;
  executionDetails(id: string, signal?: AbortSignal): Promise<ExecutionDetails>;
}

/** What decides whether a task's opened rows are still current: its status and its end. */
export function infoKey(task: Task): string {
  return `${task.status ?? ''}|${task.end_time ?? ''}`;
}

/** The rows under a task: read once while they are current (a read under way is shared); a failure is shown once. */
export async function infoChildren(node: TaskNode, source: TaskInfoSource, records: TaskRecords | undefined, now: () => number): Promise<InfoNode[]> {
  const key = infoKey(node.task);
  if (!node.info || node.info.key !== key) {
    const state: NonNullable<TaskNode['info']> = { key };
    state.loading = (async () => {
      let record: Task;
      try {
        record = await source.get(node.task.id);
        records?.put(record);
      } catch (error) {
        state.children = [
          new InfoNode({ key: 'error', label: couldNotReadTask(), description: describeError(error), tooltip: describeError(error), icon: { id: 'error' }, contextValue: 'message' }, node),
        ];
        return;
      }
      let details: ExecutionDetails | undefined;
      let detailsError: string | undefined;
      if (hasStarted(record)) {
        try {
          details = await source.executionDetails(node.task.id);
        } catch (error) {
          detailsError = describeError(error);
        }
      }
      state.children = buildTaskInfo(record, details, now(), detailsError).map((item) => new InfoNode(item, node));
    })();
    node.info = state;
  }
  const state = node.info;
  await state.loading;
  // A failure to read the task is shown once; opening the task again tries again.
  if (state.children?.[0]?.item.key === 'error' && state.children.length === 1) node.info = undefined;
  return state.children ?? [];
}
