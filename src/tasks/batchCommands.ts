// The commands for tasks at scale (tasks/commands.ts lists them): what tasks cost, a batch's failed children, finding
// a task by name, collecting failure logs, re-running what failed. Thin: the models are ./cost, ./findTask,
// ./failureLogs and ./rerunFailed.

import * as vscode from 'vscode';
import type { Task, TaskStatus } from '../api/types';
import type { Services } from '../services';
import { COMMANDS, commandTitles } from '../keys/commands';
import { paletteTitle } from '../ui/commands';
import { costWords, type CostTotal } from './cost';
import { filterParts, type FilterModel } from './filterModel';
import { namePages } from './findTask';
import { bulkPace } from './paced';
import { STATUS_LABELS, statusLook } from './statuses';
import { fullTask, type CostScope, type FailureScope, type TaskRef } from './targets';
import { collectFailureLogs, failedTasks, summaryMarkdown, writeSummary, type CollectResult } from './failureLogs';
import { ApiError } from '../api/errors';
import { notSignedIn } from './actions';
import { actionButton } from './executionCommands';
import { requestLogger } from '../ui/requestLog';
import { showError } from '../ui/errors';
import { setting } from '../ui/settings';
import { planRerun, rerunConfirmation, rerunEndedWords, rerunnableChildren, rerunPayloads, rerunProgressWords, rerunSummary, RerunWatch, storedRerunWatches } from './rerunFailed';
import { readState, STATE, type StoredRerunWatch } from '../keys/state';
import { WRITE_KINDS, type WriteKindName } from '../keys/writes';
import type { Account, Settled } from '../write/outbox';
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
  if (scope?.kind === 'group') return statusScopeWords(filters, scope.status as TaskStatus);
  return filterParts(filters.filter).join(' · ') || vscode.l10n.t('All tasks');
}

/** One status under the filter in words: "Failed · rna-seq-analysis · created in the last 7 days". */
function statusScopeWords(filters: FilterModel, status: TaskStatus): string {
  return [STATUS_LABELS[status], ...filterParts({ ...filters.filter, statuses: undefined })].join(' · ');
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

/**
 * Collect Failure Logs…: the failed tasks of the targets (a failed task; a batch parent's failed children; the Failed
 * group under the filter, also what the palette means with nothing at hand), their failed jobs' logs downloaded under a
 * chosen folder (`options.folder` from a script), then the summary opened. Cancellable; what was collected is kept.
 */
export async function collectLogs(parts: BatchParts, scopes: FailureScope[], options: { folder?: unknown } = {}): Promise<CollectResult | undefined> {
  const { services, filters } = parts;
  const folder = typeof options.folder === 'string' ? options.folder : await askFolder();
  if (!folder) return undefined;
  const controller = new AbortController();
  const pace = bulkPace(services.client.budget, services.clock, controller.signal);
  const heading =
    scopes.length === 1 && scopes[0].kind === 'task'
      ? vscode.l10n.t('Failure logs of "{0}"', scopes[0].task.name ?? scopes[0].task.id)
      : scopes.some((s) => s.kind === 'failedGroup')
        ? vscode.l10n.t('Failure logs: {0}', statusScopeWords(filters, 'FAILED'))
        : vscode.l10n.t('Failure logs of {0} tasks', count(scopes.length));
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Collecting failure logs'), cancellable: true },
    async (progress, token) => {
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: vscode.l10n.t('Finding the failed tasks…') });
        const tasks = await failedTasksOf(parts, scopes, controller.signal, pace);
        if (!tasks.length) return { rows: [], notReached: 0, logs: 0 };
        let reported = 0;
        return await collectFailureLogs(tasks, { executionDetails: (id, signal) => services.client.tasks.executionDetails(id, signal), downloadInfo: (id, signal) => services.client.files.downloadInfo(id, signal) }, {
          folder,
          signal: controller.signal,
          pace,
          storage: { onRequest: requestLogger(services.log), clock: services.clock },
          secrets: [(await services.account())?.credentials.token ?? ''],
          onProgress: (done, total) => {
            progress.report({ message: vscode.l10n.t('{0} of {1} tasks', count(done), count(total)), increment: ((done - reported) / total) * 100 });
            reported = done;
          },
        });
      } finally {
        cancel.dispose();
      }
    },
  );
  if (!result.rows.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Collect Failure Logs: no failed task among these.'));
    return result;
  }
  const summary = await writeSummary(folder, summaryMarkdown(result, heading));
  const uri = vscode.Uri.file(summary);
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.commands.executeCommand('markdown.showPreviewToSide', uri).then(undefined, () => undefined);
  return result;
}

async function askFolder(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    openLabel: vscode.l10n.t('Collect Here'),
    title: vscode.l10n.t('Where should the failure logs go?'),
  });
  return picked?.[0]?.fsPath;
}

/** The failed tasks the scopes stand for, each once: a failed task itself, a batch's failed children, the Failed group's. */
async function failedTasksOf(parts: BatchParts, scopes: FailureScope[], signal: AbortSignal, pace: () => Promise<void>): Promise<Task[]> {
  const { services, filters } = parts;
  const found = new Map<string, Task>();
  const add = (tasks: Task[]) => tasks.forEach((t) => found.set(t.id, t));
  for (const scope of scopes) {
    if (scope.kind === 'failedGroup') {
      add(await failedTasks(services.client.tasks, filters.query('FAILED', services.clock.now()), { signal, pace }));
      continue;
    }
    const task = await fullTask(services.client, scope.task);
    if (task.batch) add(await failedTasks(services.client.tasks, { parent: task.id }, { signal, pace }));
    else if (task.status === 'FAILED') add([task]);
  }
  return [...found.values()];
}

/**
 * Re-run Failed…: one new task per failed or aborted child of the batch parents, and per failed or aborted task,
 * selected; after one confirmation with the counts and what the originals cost (`options.confirm: false` skips it).
 * Each is a write of the outbox, exactly once; the new tasks are watched, and one notification says how they ended.
 */
export async function rerunFailed(parts: BatchParts, given: TaskRef[], options: { confirm?: unknown; signal?: unknown } = {}): Promise<RerunResult | undefined> {
  const { services } = parts;
  const controller = new AbortController();
  const pace = bulkPace(services.client.budget, services.clock, controller.signal);
  const targets = await Promise.all(given.map((t) => fullTask(services.client, t)));
  const candidates: Task[] = [];
  for (const task of targets) candidates.push(...(task.batch ? await rerunnableChildren(services.client.tasks, task.id, { signal: controller.signal, pace }) : [task]));
  const plan = planRerun(candidates);
  const of = targets.length === 1 && targets[0].batch ? targets[0].name || targets[0].id : undefined;
  if (!plan.tasks.length) {
    void vscode.window.showInformationMessage(of ? vscode.l10n.t('Re-run Failed: no child of "{0}" failed or was aborted.', of) : vscode.l10n.t('Re-run Failed: none of these failed or was aborted.'));
    return undefined;
  }
  const { message, detail } = rerunConfirmation(plan, of);
  const button = actionButton('rerun', plan.tasks.length);
  if (options.confirm !== false) {
    const chosen = await vscode.window.showWarningMessage(message, { modal: true, detail }, button);
    if (chosen !== button) return undefined;
  }
  const account = await services.account();
  if (!account) throw new ApiError({ kind: 'signedOut', message: notSignedIn() });
  const set = followedSet(services, { account: account.key, ...(of !== undefined ? { of } : {}) });
  const signal = options.signal instanceof AbortSignal ? options.signal : undefined;
  return sendReruns(services, { account, set, total: plan.tasks.length }, rerunPayloads(plan), [], signal);
}

/** What Re-run Failed did: the new tasks, what was not made, their watch; after a Cancel, what Re-run the Rest does. */
export interface RerunResult {
  made: Task[];
  problems: string[];
  watch?: RerunWatch;
  rest?: () => Promise<RerunResult>;
}

/**
 * Sends the re-runs (`earlier`: made by the sending before, when this sends the rest) and says how it went. After a
 * Cancel, those not sent are offered as **Re-run the Rest**: Re-run Failed again would re-run the tasks whose copies
 * were made and still run. What is made, now or later (on its way at the Cancel), is followed as one set.
 */
async function sendReruns(services: Services, run: { account: Account; set: ReturnType<typeof followedSet>; total: number }, payloads: readonly unknown[], earlier: readonly Task[], signal?: AbortSignal): Promise<RerunResult> {
  const controller = new AbortController();
  const settled = await sendTasks(services, WRITE_KINDS.rerunFailed, payloads, run.account, vscode.l10n.t('Re-running {0} tasks', count(payloads.length)), controller, signal);
  const { finished, left, withdrawn } = settled;
  const made = finished.map((f) => f.outcome);
  const problems = left.map((r) => `${r.label ?? ''}: ${r.note ?? r.state}`);
  // Cancelled: what was sent stays (made, or followed in the Data Jobs view); the rest was never sent.
  const summary = rerunSummary({ cancelled: controller.signal.aborted, made: earlier.length + made.length, total: run.total, left, withdrawn: withdrawn.length });
  const all = [...earlier, ...made];
  const rest = withdrawn.length ? () => sendReruns(services, run, withdrawn.map((r) => r.payload), all) : undefined;
  if ('warning' in summary) {
    warnWithRest(summary.warning, rest && { button: vscode.l10n.t('Re-run the Rest ({0})', count(withdrawn.length)), send: rest }, paletteTitle(commandTitles().rerunFailed));
  } else {
    vscode.window.setStatusBarMessage(`$(check) ${summary.done}`, 5000);
  }
  // A re-run on its way at a Cancel (or found later after a lost answer) is followed with the others.
  services.context.subscriptions.push(settled.later(({ outcome }) => run.set.follow([outcome])));
  run.set.follow(made);
  return { made, problems, watch: run.set.watch, ...(rest ? { rest } : {}) };
}

/**
 * Tasks followed as one set as they come: those made, then any made later (on its way at a Cancel): the first begins
 * the watch, the rest join it (or, once it has said how they ended, begin another).
 */
export function followedSet(services: Services, keep: Pick<StoredRerunWatch, 'account' | 'of' | 'sheet'>): { follow(tasks: readonly Task[]): void; readonly watch: RerunWatch | undefined } {
  let watch: RerunWatch | undefined;
  return {
    follow(tasks) {
      if (!tasks.length || tasks.every((t) => watch?.add(t.id))) return;
      watch = followRerun(services, { ...keep, id: tasks[0].id, open: tasks.map((t) => t.id), ended: { completed: 0, failed: 0, aborted: 0 } }, true);
    },
    get watch() {
      return watch;
    },
  };
}

/**
 * Writes that each make a task (one group: Re-run Failed, Run for Each Row…) sent and followed through every wait (the
 * API budget holds bulk work back) to their end, in a notification that counts them ("49 of 50 made") with Cancel
 * (aborts `controller`: the writes not sent yet are taken back).
 */
export function sendTasks<P>(services: Services, kind: WriteKindName, payloads: readonly P[], account: Account, title: string, controller: AbortController, signal?: AbortSignal): Thenable<Settled<Task>> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    let reported = 0;
    const stop = () => controller.abort();
    const cancel = token.onCancellationRequested(stop);
    // A script's Cancel (`signal`) as the notification's.
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await services.outbox.send<Task, P>(kind, payloads, account, {
        until: 'end',
        signal: controller.signal,
        onProgress: (made, total, checking) => {
          progress.report({ message: rerunProgressWords({ made, total, checking }), increment: ((made - reported) / total) * 100 });
          reported = made;
        },
      });
    } finally {
      cancel.dispose();
      signal?.removeEventListener('abort', stop);
    }
  });
}

/** A summary's warning; after a Cancel, with a button that sends the rest (`rest`), whose failure is said under `title`. */
export function warnWithRest(warning: string, rest: { button: string; send: () => Promise<unknown> } | undefined, title: string): void {
  void vscode.window.showWarningMessage(warning, ...(rest ? [rest.button] : [])).then((chosen) => {
    if (rest && chosen === rest.button) rest.send().catch((error: unknown) => showError(title, error));
  });
}

/** The re-runs followed in this window, by watch ID. */
const followed = new Map<string, { watch: RerunWatch; account: string }>();

/**
 * Follows a re-run's new tasks (or a sample sheet's: `record.sheet`) until all have ended, kept in stored state (per account) so that a reload resumes it;
 * then says once how they ended. `fresh`: a new re-run (stored now), else a stored one resumed.
 */
export function followRerun(services: Services, record: StoredRerunWatch, fresh: boolean): RerunWatch {
  const { of, sheet } = record;
  const watch = new RerunWatch(record.open, {
    bulkGet: (ids, signal) => services.client.tasks.bulkGet(ids, signal),
    clock: services.clock,
    intervalMs: () => setting('refreshInterval') * 1000,
    budget: services.client.budget,
    keep: { store: services.context.globalState, id: record.id, account: record.account, ...(of !== undefined ? { of } : {}), ...(sheet !== undefined ? { sheet } : {}) },
    ...(fresh ? {} : { ended: record.ended }),
    onEnded: (ended) => {
      done();
      const words = rerunEndedWords(ended, sheet === undefined);
      const text = sheet !== undefined ? vscode.l10n.t('The tasks made from {0} have ended: {1}.', sheet, words) : of ? vscode.l10n.t('The re-run of "{0}" has ended: {1}.', of, words) : vscode.l10n.t('The re-run tasks have ended: {0}.', words);
      void (ended.failed || ended.aborted ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
    },
  });
  const focus = vscode.window.onDidChangeWindowState((e) => watch.setFocused(e.focused));
  const done = () => {
    followed.delete(record.id);
    focus.dispose();
    watch.dispose();
  };
  followed.set(record.id, { watch, account: record.account });
  services.context.subscriptions.push({ dispose: done });
  return watch;
}

/**
 * The stored re-runs of the account signed in, resumed (those of another account are left stored, and any followed
 * for another account stop here until it is back). Called when the extension starts and when the sign-in changes.
 */
export async function resumeRerunWatches(services: Services): Promise<RerunWatch[]> {
  // Nothing stored, nothing followed: not even the account is asked for.
  if (!followed.size && !readState(services.context.globalState, STATE.rerunWatches)?.length) return [];
  const account = services.session.state === 'signedIn' ? await services.account() : undefined;
  for (const [id, f] of [...followed]) {
    if (f.account === account?.key) continue;
    f.watch.dispose();
    followed.delete(id);
  }
  if (!account) return [];
  return storedRerunWatches(services.context.globalState, account.key)
    .filter((w) => !followed.has(w.id))
    .map((w) => followRerun(services, w, false));
}
