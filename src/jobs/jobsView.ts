import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { MessageNode, messageView } from '../ui/rowView';
import { rowItem } from '../ui/treeItems';
import type { Outbox } from '../write/outbox';
import { childNodes, itemRow, jobRow, requestRow, rootNodes, submissionRow, type JobsNode, type RowView } from './jobsModel';
import { pendingCopies, type CopyWriteRecord } from './copyRequests';
import { isFinished, type JobTracker } from './tracker';
import { COMMANDS } from '../keys/commands';

export const JOBS_VIEW = 'sevenbridges.copyJobs';

/** Ages in the rows ("2 min ago") move on this often while the view is visible. */
const REDRAW_MS = 30_000;

/** Renders the copy jobs and the copy requests still in the outbox (see `jobsModel.ts` for what and in which order). */
export class CopyJobsProvider implements vscode.TreeDataProvider<JobsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Errors met loading a job's items, shown in place of them until the next try. */
  private readonly loadErrors = new Map<string, string>();

  constructor(
    private readonly tracker: JobTracker,
    private readonly outbox: Outbox,
    private readonly now: () => number = Date.now,
  ) {
    this.subscriptions = [this.changed, tracker.onDidChange(() => this.redraw()), outbox.onDidChange(() => this.redraw())];
  }

  redraw(): void {
    this.changed.fire(undefined);
  }

  pending(): CopyWriteRecord[] {
    return pendingCopies(this.outbox, this.tracker.account());
  }

  roots(): JobsNode[] {
    return rootNodes(this.tracker.all(), this.pending());
  }

  async getChildren(node?: JobsNode): Promise<JobsNode[]> {
    if (!node) return this.roots();
    if (node.kind === 'job') {
      let job = this.tracker.get(node.job.id) ?? node.job;
      // A finished job whose per-item results the list did not carry: one GET for them when it is opened.
      if (isFinished(job) && job.state !== 'UNKNOWN' && !job.result?.length && job.items.length) {
        try {
          job = (await this.tracker.details(job.id)) ?? job;
          this.loadErrors.delete(job.id);
        } catch (error) {
          this.loadErrors.set(job.id, describeError(error));
        }
      }
      const error = this.loadErrors.get(job.id);
      const items = childNodes({ ...node, job });
      return error ? [new MessageNode<JobsNode>(`message:${job.id}`, node, vscode.l10n.t('Could not load the results: {0}', error), 'error', error), ...items] : items;
    }
    return childNodes(node);
  }

  getParent(node: JobsNode): JobsNode | undefined {
    if (node.kind === 'item') return this.roots().flatMap((r) => (r.kind === 'submission' ? [r, ...childNodes(r)] : [r])).find((r) => r.kind === 'job' && r.job.id === node.job.id);
    if (node.kind === 'job' || node.kind === 'request') return this.roots().find((r) => r.kind === 'submission' && childNodes(r).some((c) => c.id === node.id));
    return undefined;
  }

  /** The row of a job, for `reveal` (inside its submission when it has one). */
  jobNode(id: string): JobsNode | undefined {
    for (const root of this.roots()) {
      if (root.kind === 'job' && root.job.id === id) return root;
      if (root.kind === 'submission') {
        const child = childNodes(root).find((c) => c.kind === 'job' && c.job.id === id);
        if (child) return child;
      }
    }
    return undefined;
  }

  getTreeItem(node: JobsNode): vscode.TreeItem {
    const now = this.now();
    if (node.kind === 'message') return rowItem(node.id, messageView(node), vscode.TreeItemCollapsibleState.None);
    const view: RowView =
      node.kind === 'job'
        ? jobRow(this.tracker.get(node.job.id) ?? node.job, now)
        : node.kind === 'submission'
          ? submissionRow(node, now)
          : node.kind === 'request'
            ? requestRow(node, now, (r) => this.outbox.owns(r))
            : itemRow(node.job, node.index);
    const collapsed = node.kind === 'submission' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = rowItem(node.id, view, view.expandable ? collapsed : vscode.TreeItemCollapsibleState.None);
    if (node.kind === 'item') item.command = { command: COMMANDS.openJobItem, title: vscode.l10n.t('Open Item'), arguments: [node] };
    return item;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

/** Keeps the ages current while the view is visible, and marks outcomes seen (the status bar lets go of them) when it is shown. */
export function followVisibility(view: vscode.TreeView<JobsNode>, provider: CopyJobsProvider, tracker: JobTracker): vscode.Disposable {
  let timer: ReturnType<typeof setInterval> | undefined;
  const update = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (!view.visible) return;
    tracker.acknowledge();
    void tracker.refreshNow().catch(() => undefined);
    timer = setInterval(() => provider.redraw(), REDRAW_MS);
  };
  const subscription = view.onDidChangeVisibility(update);
  update();
  return {
    dispose: () => {
      if (timer) clearInterval(timer);
      subscription.dispose();
    },
  };
}
