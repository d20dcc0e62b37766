import * as vscode from 'vscode';
import type { Clock } from '../api/clock';
import type { Outbox } from '../write/outbox';
import type { CopyActions } from './copyRequests';
import { pendingWrites } from './pendingWrites';
import { failedItems, finishMessage, statusSummary } from './summary';
import { isFinished } from './trackedJobs';
import type { JobTracker, TrackedJob } from './tracker';
import { commandTitles, COMMANDS } from '../keys/commands';
import { jobTypeOf } from './jobKinds';
import type { Transfers } from './transfers';

/** The finish notification's button that reveals the job in the Data Jobs view. */
export const showDetailsAction = (): string => vscode.l10n.t('Show Details');

/** A successful outcome stays in the status bar this long unless seen earlier; a failure stays until seen. */
const DONE_DISPLAY_MS = 5 * 60_000;
/** Jobs finishing within this of each other are told in one notification. */
const FINISH_BATCH_MS = 750;

/** The status-bar item of the data jobs (its ID is still `sevenbridges.copyJobs`, so where a person put it stays). */
export class JobsStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private fadeTimer: unknown;

  constructor(
    private readonly tracker: JobTracker,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly transfers?: Transfers,
  ) {
    this.item = vscode.window.createStatusBarItem('sevenbridges.copyJobs', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Seven Bridges Data Jobs');
    this.item.command = COMMANDS.showJobs;
    this.disposables.push(this.item, tracker.onDidChange(() => this.update()), outbox.onDidChange(() => this.update()));
    if (transfers) this.disposables.push(transfers.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const account = this.tracker.account();
    const summary = statusSummary(this.tracker.all(), pendingWrites(this.outbox, account), this.transfers?.all(account) ?? []);
    if (!summary.visible) {
      this.item.hide();
      return;
    }
    this.item.text = summary.text;
    this.item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.tooltip = summary.tooltip.join('\n');
    this.item.accessibilityInformation = { label: summary.words };
    this.item.show();
    this.scheduleFade(summary.allDone);
  }

  private scheduleFade(allDone: boolean): void {
    if (this.fadeTimer !== undefined) this.clock.clearTimeout(this.fadeTimer);
    this.fadeTimer = undefined;
    if (!allDone) return;
    const ids = this.tracker.all().filter((j) => isFinished(j) && !j.acknowledged).map((j) => j.id);
    this.fadeTimer = this.clock.setTimeout(() => this.tracker.acknowledge(ids), DONE_DISPLAY_MS);
  }

  dispose(): void {
    if (this.fadeTimer !== undefined) this.clock.clearTimeout(this.fadeTimer);
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * A notification when copy jobs finish (several finishing together make one), with a button to the details. The
 * other kinds are told by the command that made them (Delete… says what it deleted).
 */
export class FinishNotifier implements vscode.Disposable {
  private batch: TrackedJob[] = [];
  private timer: unknown;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly tracker: JobTracker,
    private readonly copies: Pick<CopyActions, 'retryFailed'>,
    private readonly clock: Clock,
  ) {
    this.subscription = tracker.onDidFinish((job) => {
      if (jobTypeOf(job) !== 'COPY') return;
      this.batch.push(job);
      if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
      this.timer = this.clock.setTimeout(() => void this.flush(), FINISH_BATCH_MS);
    });
  }

  private async flush(): Promise<void> {
    const jobs = this.batch.filter((job) => this.tracker.has(job.id));
    this.batch = [];
    this.timer = undefined;
    if (!jobs.length) return;
    const message = finishMessage(jobs);
    const retryFailed = commandTitles().retryFailed;
    const actions = [showDetailsAction()];
    // Only a job with items that failed can have them copied again (not one whose outcome is unknown).
    if (jobs.length === 1 && failedItems(jobs[0]).length) actions.push(retryFailed);
    const show = message.failed || message.unknown ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const chosen = await show(message.text, ...actions);
    if (chosen === showDetailsAction()) {
      this.tracker.acknowledge(jobs.map((j) => j.id));
      await vscode.commands.executeCommand(COMMANDS.showJobs, jobs.length === 1 ? jobs[0].id : undefined);
    } else if (chosen === retryFailed) {
      this.tracker.acknowledge(jobs.map((j) => j.id));
      await this.copies.retryFailed(jobs[0]);
    }
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.subscription.dispose();
  }
}
