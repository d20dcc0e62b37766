// "Copy Outputs To…": the output files of one task, of several selected tasks, or of a batch's completed children,
// in one copy (the copy flow's pickers, confirmation and submission).
import * as vscode from 'vscode';
import { hasFileOutputs, outputFileIds, outputNames } from '../api/outputs';
import type { CopyCommandArgs } from '../copy/flow';
import type { CopyFeature } from '../copy/register';
import { gatherOutputs } from '../copy/taskOutputs';
import type { TrackedJob } from '../jobs/tracker';
import type { Services } from '../services';
import { fileCount, taskCount } from '../util/words';
import type { TaskRef } from './targets';

/** The progress title while the outputs of tasks are read. */
export const readingOutputs = (): string => vscode.l10n.t('Reading task outputs…');

export async function copyTaskOutputs(services: Services, copy: CopyFeature, tasks: TaskRef[], args: CopyCommandArgs): Promise<TrackedJob[]> {
  if (tasks.length > 1 || tasks[0].batch) return copyOutputsOfMany(services, copy, tasks, args);
  // A list item may carry only some fields: the task's record has its outputs.
  const task = tasks[0].outputs ? tasks[0] : await services.client.tasks.get(tasks[0].id);
  const ids = outputFileIds(task.outputs);
  if (!ids.length || !hasFileOutputs(task)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Task "{0}" has no output files to copy.', task.name || task.id));
    return [];
  }
  return copy.flow.run({ ids, names: Object.fromEntries(outputNames(task.outputs)), projects: task.project ? [task.project] : undefined, trusted: true }, args);
}

/** The outputs of several tasks, or of a batch's completed children, in one copy (split per 100 by the flow). */
async function copyOutputsOfMany(services: Services, copy: CopyFeature, tasks: TaskRef[], args: CopyCommandArgs): Promise<TrackedJob[]> {
  const gathered = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: readingOutputs() }, () => gatherOutputs(tasks, services.client.tasks));
  if (!gathered.ids.length) {
    void vscode.window.showInformationMessage([vscode.l10n.t('The selected tasks have no output files to copy.'), ...gathered.notes].join(' '));
    return [];
  }
  const summary = vscode.l10n.t({ message: 'The outputs of {0}: {1}.', args: [taskCount(gathered.tasks), fileCount(gathered.ids.length)], comment: ['{0}: "12 tasks"; {1}: "340 files"'] });
  return copy.flow.run({ ids: gathered.ids, names: gathered.names, projects: gathered.projects, trusted: true, notes: [summary, ...gathered.notes] }, args);
}
