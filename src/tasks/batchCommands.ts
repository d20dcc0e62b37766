// The commands for tasks at scale (tasks/commands.ts lists them): what tasks cost, a batch's failed children, finding
// a task by name. Thin: the models are ./cost and ./findTask.

import * as vscode from 'vscode';
import type { Task } from '../api/types';
import type { Services } from '../services';
import { COMMANDS } from '../keys/commands';
import { costWords, type CostTotal } from './cost';
import { filterParts, type FilterModel } from './filterModel';
import { namePages } from './findTask';
import { bulkPace } from './paced';
import { STATUS_LABELS, statusLook } from './statuses';
import type { CostScope, TaskRef } from './targets';
import type { TaskTreeModel } from './taskTree';
import { count } from '../util/words';

export interface BatchParts {
  services: Services;
  filters: FilterModel;
  tree: TaskTreeModel;
}

/** What a cost is of, in words: "Failed · rna-seq-analysis · created in the last 7 days", "children of "RNA batch 12"". */
export function costScopeWords(filters: FilterModel, scope: CostScope | undefined): string {
  if (scope?.kind === 'task') return vscode.l10n.t('Children of "{0}"', scope.task.name || scope.task.id);
  const parts = filterParts({ ...filters.filter, statuses: undefined });
  if (scope?.kind === 'group') return [STATUS_LABELS[scope.status as keyof typeof STATUS_LABELS], ...parts].join(' · ');
  return filterParts(filters.filter).join(' · ') || vscode.l10n.t('All tasks');
}

/**
 * Cost of These Tasks: the total of a status group, a batch parent's children, or (from the view's title or the
 * palette) every task under the filter, read with the price field only; a notification while it reads, cancellable.
 */
export async function showCost(parts: BatchParts, scope: CostScope | undefined): Promise<CostTotal | undefined> {
  const { services, tree, filters } = parts;
  const what = costScopeWords(filters, scope);
  const total = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Adding up the cost: {0}', what), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        return await tree.cost(scope, {
          signal: controller.signal,
          beforePage: bulkPace(services.client.budget, services.clock, controller.signal),
          onPage: (sofar, matching) =>
            progress.report({ message: matching !== undefined ? vscode.l10n.t('{0} of {1} tasks read', count(sofar.tasks), count(matching)) : vscode.l10n.t('{0} tasks read', count(sofar.tasks)) }),
        });
      } catch (error) {
        if (controller.signal.aborted) return undefined;
        throw error;
      } finally {
        cancel.dispose();
      }
    },
  );
  if (!total) return undefined;
  void vscode.window.showInformationMessage(vscode.l10n.t({ message: '{0}: {1}', args: [what, costWords(total)], comment: ['{0}: which tasks ("Failed · rna-seq-analysis"); {1}: "214 tasks, $1,318.40"'] }));
  return total;
}

/** Show Failed Children: the batch parent's children filtered to FAILED by the platform (the others are not loaded). */
export function showFailedChildren(filters: FilterModel, task: TaskRef): Promise<void> {
  return filters.update({ parent: { id: task.id, ...(task.name ? { name: task.name } : {}) }, statuses: ['FAILED'] });
}

interface FoundPick extends vscode.QuickPickItem {
  task?: Task;
}

/**
 * Find Task…: the tasks under the filter (its status when it names one) in a quick pick, by name, each page shown as
 * it arrives, so typing narrows at once. Picking one opens its details.
 */
export async function findTask(parts: BatchParts): Promise<Task | undefined> {
  const { services, filters } = parts;
  const statuses = filters.filter.statuses;
  const query = filters.query(statuses?.length === 1 ? statuses[0] : undefined, services.clock.now());
  const accept = (t: Task) => !statuses?.length || (statuses as string[]).includes(t.status ?? '');
  const qp = vscode.window.createQuickPick<FoundPick>();
  qp.title = vscode.l10n.t('Seven Bridges: Find Task');
  qp.placeholder = vscode.l10n.t('Type part of a task name ({0})', filters.description ?? vscode.l10n.t('all tasks'));
  qp.matchOnDescription = true;
  qp.busy = true;
  const controller = new AbortController();
  const found: FoundPick[] = [];
  const chosen = new Promise<Task | undefined>((resolve) => {
    qp.onDidAccept(() => {
      const task = qp.selectedItems[0]?.task;
      if (!task) return;
      resolve(task);
      qp.hide();
    });
    qp.onDidHide(() => {
      controller.abort();
      resolve(undefined);
    });
  });
  qp.show();
  void (async () => {
    try {
      for await (const page of namePages(services.client.tasks, query, { signal: controller.signal, beforePage: bulkPace(services.client.budget, services.clock, controller.signal) })) {
        found.push(...page.items.filter(accept).map(taskPick));
        qp.items = found;
        qp.title = page.total !== undefined ? vscode.l10n.t('Seven Bridges: Find Task ({0} of {1})', count(found.length), count(page.total)) : vscode.l10n.t('Seven Bridges: Find Task ({0})', count(found.length));
      }
    } catch (error) {
      if (!controller.signal.aborted) qp.items = [...found, { label: `$(warning) ${vscode.l10n.t('Could not read more tasks')}`, description: error instanceof Error ? error.message : String(error), alwaysShow: true }];
    } finally {
      qp.busy = false;
    }
  })();
  const task = await chosen;
  qp.dispose();
  if (!task) return undefined;
  await vscode.commands.executeCommand(COMMANDS.openTaskDetails, task.id);
  return task;
}

function taskPick(task: Task): FoundPick {
  const look = statusLook(task.status);
  return {
    label: task.name || task.id,
    description: [look.label, task.project].filter(Boolean).join(' · '),
    iconPath: new vscode.ThemeIcon(look.icon.id, look.icon.color ? new vscode.ThemeColor(look.icon.color) : undefined),
    task,
  };
}
