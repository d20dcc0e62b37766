import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { CopyFlow } from '../copy/flow';
import type { CopyPayload } from '../copy/copyWrite';
import { writeStateWords } from '../copy/submissionWords';
import type { Outbox, WriteRecord } from '../write/outbox';
import { failedItems, finishMessage, itemLine, jobLine, statusSummary } from './summary';
import { isFinished, JobTracker, TrackedJob } from './tracker';
import { relativeTime } from '../util/time';
import { plural } from '../util/words';

export const SHOW_JOBS = 'sevenbridges.jobs.show';
export const SHOW_DETAILS = 'Show Details';
export const RETRY_FAILED = 'Retry Failed Items';
export const DISMISS = 'Dismiss';

type CopyWriteRecord = WriteRecord<CopyPayload>;

/** The copy calls of the account in use still in the outbox (any window's), oldest first. */
export function pendingCopies(outbox: Outbox, account: string | undefined): CopyWriteRecord[] {
  return account === undefined ? [] : (outbox.forAccount(account).filter((r) => r.kind === 'copy') as CopyWriteRecord[]);
}
/** A successful outcome stays in the status bar this long unless seen earlier; a failure stays until seen. */
const DONE_DISPLAY_MS = 5 * 60_000;

/** The status-bar item of the copy jobs. */
export class JobsStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private fadeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly tracker: JobTracker,
    private readonly outbox: Outbox,
  ) {
    this.item = vscode.window.createStatusBarItem('sevenbridges.copyJobs', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Seven Bridges Copy Jobs';
    this.item.command = SHOW_JOBS;
    this.disposables.push(this.item, tracker.onDidChange(() => this.update()), outbox.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const summary = statusSummary(this.tracker.all(), pendingCopies(this.outbox, this.tracker.account()));
    if (!summary.visible) {
      this.item.hide();
      return;
    }
    this.item.text = summary.text;
    this.item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.tooltip = summary.tooltip.join('\n');
    this.item.accessibilityInformation = { label: summary.text.replace(/\$\([^)]+\)\s*/g, '') };
    this.item.show();
    this.scheduleFade(summary.text.startsWith('$(check)'));
  }

  private scheduleFade(allDone: boolean): void {
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    this.fadeTimer = undefined;
    if (!allDone) return;
    const ids = this.tracker.all().filter((j) => isFinished(j) && !j.acknowledged).map((j) => j.id);
    this.fadeTimer = setTimeout(() => this.tracker.acknowledge(ids), DONE_DISPLAY_MS);
  }

  dispose(): void {
    if (this.fadeTimer) clearTimeout(this.fadeTimer);
    for (const d of this.disposables) d.dispose();
  }
}

type JobPick = vscode.QuickPickItem & { job?: TrackedJob; pending?: CopyWriteRecord[] };

/** "Show Copy Jobs": unsubmitted requests first, then the jobs, newest first. Opening it marks outcomes as seen. */
export async function showJobs(tracker: JobTracker, outbox: Outbox, flow: CopyFlow): Promise<void> {
  const pick = vscode.window.createQuickPick<JobPick>();
  pick.title = 'Copy Jobs';
  pick.placeholder = 'Choose a job to see its items';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const render = () => {
    const now = Date.now();
    const items: JobPick[] = [];
    const groups = new Map<string, CopyWriteRecord[]>();
    for (const p of pendingCopies(outbox, tracker.account())) groups.set(p.group, [...(groups.get(p.group) ?? []), p]);
    if (groups.size) items.push({ label: 'Requests', kind: vscode.QuickPickItemKind.Separator });
    for (const group of groups.values()) {
      const count = group.reduce((sum, p) => sum + p.payload.items.length, 0);
      const last = group.find((p) => p.note);
      const states = [...new Set(group.map((p) => writeStateWords(p, now, outbox.owns(p))))].join(', ');
      items.push({
        label: `$(${group.some((p) => p.state === 'failed') ? 'warning' : 'sync~spin'}) ${group[0].payload.destination.label}`,
        description: `${plural(count, 'item')} · ${states}`,
        detail: `${last?.note ?? 'Not sent yet.'} · ${relativeTime(new Date(group[0].createdAt), now)}`,
        pending: group,
      });
    }
    const jobs = tracker.all();
    if (jobs.length) items.push({ label: 'Jobs', kind: vscode.QuickPickItemKind.Separator });
    for (const job of jobs) items.push({ ...jobLine(job, now), job });
    if (!items.length) items.push({ label: 'No copy jobs yet', description: 'Use "Copy Files and Folders…" to start one' });
    const active = pick.activeItems[0];
    pick.items = items;
    if (active?.job) {
      const same = items.find((i) => i.job?.id === active.job!.id);
      if (same) pick.activeItems = [same];
    }
  };
  render();
  const subscriptions = [tracker.onDidChange(render), outbox.onDidChange(render)];
  pick.show();
  tracker.acknowledge();
  void tracker.refreshNow().catch(() => undefined);
  const chosen = await new Promise<JobPick | undefined>((resolve) => {
    subscriptions.push(
      pick.onDidAccept(() => resolve(pick.selectedItems[0])),
      pick.onDidHide(() => resolve(undefined)),
    );
  });
  subscriptions.forEach((d) => d.dispose());
  pick.dispose();
  if (chosen?.job) await showJobDetails(tracker, flow, chosen.job.id);
  else if (chosen?.pending) await showPending(outbox, flow, chosen.pending);
}

/** A request still in the outbox: what it is waiting for, and what the user may do about it. */
async function showPending(outbox: Outbox, flow: CopyFlow, group: CopyWriteRecord[]): Promise<void> {
  const label = group[0].payload.destination.label;
  const count = group.reduce((sum, p) => sum + p.payload.items.length, 0);
  if (!group.every((p) => outbox.owns(p))) {
    void vscode.window.showInformationMessage(
      `The copy to ${label} is handled by another window: act on it there. This window takes it over if that window closes; nothing is sent from here meanwhile.`,
    );
    return;
  }
  const actions: (vscode.QuickPickItem & { run: () => Promise<unknown> })[] = [];
  if (group.some((p) => p.state === 'failed')) {
    actions.push({ label: '$(debug-restart) Submit Again', detail: `The same ${plural(count, 'item')}, to ${label}.`, run: () => flow.resubmit(group[0].group) });
  }
  if (group.some((p) => p.state === 'unsure')) {
    actions.push({
      label: '$(warning) Submit Anyway',
      detail: 'It may have been submitted already: sending it again may copy twice. The platform is being checked meanwhile.',
      run: () => flow.resubmit(group[0].group, true),
    });
  }
  actions.push({ label: '$(trash) Discard', detail: 'Forget this request (what is already on its way is not recalled).', run: () => flow.discard(group[0].group) });
  const chosen = await vscode.window.showQuickPick(actions, { title: `${plural(count, 'item')} to ${label}: ${group[0].note ?? 'being sent'}` });
  await chosen?.run();
}

type DetailPick = vscode.QuickPickItem & { run?: () => unknown };

/** A job's details: one line per item (source, then the new file or the error), with the job's actions. */
export async function showJobDetails(tracker: JobTracker, flow: CopyFlow, id: string): Promise<void> {
  let job = tracker.get(id);
  if (!job) {
    void vscode.window.showInformationMessage(`Copy job ${id} is no longer in the list.`);
    return;
  }
  if (!job.result?.length && job.state !== 'UNKNOWN') {
    try {
      job = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Loading copy job…' }, () => tracker.details(id));
    } catch (error) {
      void vscode.window.showWarningMessage(`Could not load the details of copy job ${id}: ${describeError(error)}`);
      job = tracker.get(id);
    }
    if (!job) return;
  }
  const current = job;
  const failed = failedItems(current).length;
  const items: DetailPick[] = [];
  if (failed && isFinished(current)) {
    items.push({ label: `$(debug-restart) ${RETRY_FAILED}`, description: `${plural(failed, 'item')}, as a new request`, run: () => flow.retryFailed(current), alwaysShow: true });
  }
  items.push({
    label: `$(close) ${DISMISS}`,
    description: isFinished(current) ? 'remove from the list' : 'stop following it (the copy goes on)',
    run: () => tracker.dismiss(current.id),
    alwaysShow: true,
  });
  items.push({ label: '$(copy) Copy Job ID', description: current.id, run: () => vscode.env.clipboard.writeText(current.id), alwaysShow: true });
  items.push({ label: `Items (${current.items.length})`, kind: vscode.QuickPickItemKind.Separator });
  current.items.forEach((_, index) => {
    const line = itemLine(current, index);
    const icon = line.ok === undefined ? '$(circle-outline)' : line.ok ? '$(pass)' : '$(error)';
    items.push({
      label: `${icon} ${line.source}`,
      detail: line.outcome,
      run: line.newId
        ? async () => {
            await vscode.env.clipboard.writeText(line.newId!);
            vscode.window.setStatusBarMessage(`Copied the new file's ID ${line.newId}`, 3_000);
          }
        : undefined,
    });
  });
  const line = jobLine(current, Date.now());
  const chosen = await vscode.window.showQuickPick(items, {
    title: `Copy job ${current.id} · ${line.description}`,
    placeHolder: `To ${current.destination.label}; choose an item to copy the new file's ID`,
    matchOnDetail: true,
  });
  await chosen?.run?.();
}

/** A notification when jobs finish (several finishing together make one), with a button to the details. */
export class FinishNotifier implements vscode.Disposable {
  private batch: TrackedJob[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly tracker: JobTracker,
    private readonly flow: CopyFlow,
    private readonly outbox: Outbox,
  ) {
    this.subscription = tracker.onDidFinish((job) => {
      this.batch.push(job);
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush(), 750);
    });
  }

  private async flush(): Promise<void> {
    const jobs = this.batch.filter((job) => this.tracker.has(job.id));
    this.batch = [];
    this.timer = undefined;
    if (!jobs.length) return;
    const message = finishMessage(jobs);
    const actions = [SHOW_DETAILS];
    // Only a job with items that failed can have them copied again (not one whose outcome is unknown).
    if (jobs.length === 1 && failedItems(jobs[0]).length) actions.push(RETRY_FAILED);
    const show = message.failed || message.unknown ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const chosen = await show(message.text, ...actions);
    if (chosen === SHOW_DETAILS) {
      this.tracker.acknowledge(jobs.map((j) => j.id));
      if (jobs.length === 1) await showJobDetails(this.tracker, this.flow, jobs[0].id);
      else await showJobs(this.tracker, this.outbox, this.flow);
    } else if (chosen === RETRY_FAILED) {
      this.tracker.acknowledge(jobs.map((j) => j.id));
      await this.flow.retryFailed(jobs[0]);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
  }
}
