// "Copy Outputs To…": the output files of one task, of several selected tasks, or of a batch's completed children.
import * as vscode from 'vscode';
import type { Task } from '../api/types';
import type { TrackedJob } from '../jobs/tracker';
import type { Services } from '../services';
import { pickTask } from '../tasks/filterPicks';
import { showApiError } from '../ui/errors';
import { fileCount, taskCount } from '../util/words';
import { hasFileOutputs, outputFileIds, outputNames } from '../api/outputs';
import type { CopyCommandArgs, CopyFlow } from './flow';
import { gatherOutputs, type GatheredOutputs } from './taskOutputs';

/**
 * The command's arguments as VS Code passes them: (row) from a context menu, (clicked row, selected rows) with several
 * selected, (task, args) from a script; a task from the palette is picked among the newest completed ones.
 */
export function copyTaskOutputs(services: Services, flow: CopyFlow, arg?: { task?: Task } | Task, second?: CopyCommandArgs | unknown[], third?: CopyCommandArgs): Promise<TrackedJob[]> {
  const selected = Array.isArray(second) ? second : undefined;
  const args = (Array.isArray(second) ? third : second) ?? {};
  const tasks = (selected?.length ? selected : [arg]).map(taskOf).filter((t): t is Task => t !== undefined);
  if (tasks.length > 1 || tasks[0]?.batch) return copyOutputsOfMany(services, flow, tasks, args);
  return copyOutputsOfOne(services, flow, arg, args);
}

async function copyOutputsOfOne(services: Services, flow: CopyFlow, arg?: { task?: Task } | Task, args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
  let task = taskOf(arg);
  if (!task) {
    const picked = await pickTask(services, {
      title: vscode.l10n.t('Seven Bridges: Copy Outputs To…'),
      placeholder: vscode.l10n.t('Whose outputs? Pick a completed task, or paste a task ID'),
      query: { status: 'COMPLETED' },
      accept: hasFileOutputs,
      list: 'tasksWithOutputs',
    });
    if (!picked || picked === 'none') return [];
    task = picked as Task;
  }
  if (!task.outputs) {
    // A list item may carry only default fields: the task's record has its outputs.
    try {
      task = await services.client.tasks.get(task.id);
    } catch (error) {
      await showApiError(vscode.l10n.t('Could not read the outputs of task "{0}"', task.name || task.id), error);
      return [];
    }
  }
  const ids = outputFileIds(task.outputs);
  if (!ids.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Task "{0}" has no output files to copy.', task.name || task.id));
    return [];
  }
  return flow.run(
    { ids, names: Object.fromEntries(outputNames(task.outputs)), projects: task.project ? [task.project] : undefined, trusted: true },
    args,
  );
}

/** The outputs of several tasks, or of a batch's completed children, in one copy (split per 100 by the flow). */
async function copyOutputsOfMany(services: Services, flow: CopyFlow, tasks: Task[], args: CopyCommandArgs): Promise<TrackedJob[]> {
  let gathered: GatheredOutputs;
  try {
    gathered = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading task outputs…') }, () => gatherOutputs(tasks, services.client.tasks));
  } catch (error) {
    await showApiError(vscode.l10n.t('Could not read the outputs of the tasks'), error);
    return [];
  }
  if (!gathered.ids.length) {
    void vscode.window.showInformationMessage([vscode.l10n.t('The selected tasks have no output files to copy.'), ...gathered.notes].join(' '));
    return [];
  }
  const summary = vscode.l10n.t({ message: 'The outputs of {0}: {1}.', args: [taskCount(gathered.tasks), fileCount(gathered.ids.length)], comment: ['{0}: "12 tasks"; {1}: "340 files"'] });
  return flow.run({ ids: gathered.ids, names: gathered.names, projects: gathered.projects, trusted: true, notes: [summary, ...gathered.notes] }, args);
}

/** A task from a tree node (`{ task }`) or a task record. */
function taskOf(value: unknown): Task | undefined {
  const candidate = value && typeof value === 'object' && 'task' in value ? (value as { task: unknown }).task : value;
  return candidate && typeof candidate === 'object' && typeof (candidate as Task).id === 'string' ? (candidate as Task) : undefined;
}
