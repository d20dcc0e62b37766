// The Data Jobs view as data (its ID is still `sevenbridges.copyJobs`): the asynchronous file jobs (copies, moves,
// deletes), the uploads and downloads under way, the transfers left unfinished, and every write still pending. Each
// kind of row (jobNodes.ts) does what one table says: how it looks (jobRows.ts), what it opens into, where it hangs.
// No `vscode` import; ui/rowTree.ts draws it.
import * as l10n from '@vscode/l10n';
import { describeError } from '../api/errors';
import type { Outbox, WriteRecord } from '../write/outbox';
import { isRowOf, kindOf, messageView, MessageNode, type RowKinds, type RowModel, type RowView } from '../ui/rowView';
import { Emitter } from '../util/emitter';
import { commandTitles, COMMANDS } from '../keys/commands';
import { isFinished } from './trackedJobs';
import type { JobTracker, TrackedJob } from './tracker';
import { Transfers } from './transfers';
import { pendingWrites } from './pendingWrites';
import { interruptedRow, itemRow, jobRow, requestRow, submissionRow, transferRow } from './jobRows';
import { childNodes, rootNodes, type JobNode, type JobsNode, type RequestNode, type SubmissionNode } from './jobNodes';

/** Each kind of row: how it looks (jobRows.ts), what it opens into, where it hangs. */
const ROW_KINDS: RowKinds<JobsNode, DataJobsModel> = {
  transfer: { view: (node, model) => transferRow(model.transfers.get(node.transfer.id) ?? node.transfer, model.now()) },
  interrupted: { view: (node, model) => interruptedRow(node.run, model.now()) },
  submission: { view: (node, model) => ({ ...submissionRow(node, model.now()), expanded: true }), children: childNodes },
  job: {
    view: (node, model) => jobRow(model.current(node.job), model.now()),
    children: (node, model) => model.items(node),
    parent: (node, model) => model.submissionOf(node),
  },
  request: { view: (node, model) => requestRow(node, model.now(), (r) => model.owns(r)), parent: (node, model) => model.submissionOf(node) },
  item: {
    view: (node) => ({ ...itemRow(node.job, node.index), command: { command: COMMANDS.openJobItem, title: commandTitles().openJobItem, args: [node] } }),
    parent: (node, model) => model.rows().find((r) => r.kind === 'job' && r.job.id === node.job.id),
  },
  message: { view: (node) => messageView(node) },
};

/** Whether a value (a command's argument) is a row of the Data Jobs view. */
export const isJobsNode = (value: unknown): value is JobsNode => isRowOf(ROW_KINDS, value);

/**
 * The Data Jobs view: the transfers under way and left unfinished, the jobs of the account in use and the writes
 * still in the outbox (see `rootNodes` for the order), a job's items when it is opened (its per-item results fetched
 * once when the list did not carry them).
 */
export class DataJobsModel implements RowModel<JobsNode> {
  private readonly changed = new Emitter<JobsNode | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];
  /** Errors met loading a job's items, shown in place of them until the next try. */
  private readonly loadErrors = new Map<string, string>();

  constructor(
    readonly tracker: JobTracker,
    private readonly outbox: Outbox,
    readonly now: () => number,
    readonly transfers: Transfers = new Transfers(now),
  ) {
    this.subscriptions = [
      this.changed,
      tracker.onDidChange(() => this.changed.fire(undefined)),
      outbox.onDidChange(() => this.changed.fire(undefined)),
      transfers.onDidChange(() => this.changed.fire(undefined)),
    ];
  }

  /** The writes of the account in use still in the outbox, of every kind. */
  pending(): WriteRecord[] {
    return pendingWrites(this.outbox, this.tracker.account());
  }

  /** Whether this window sends (and so may act on) a write of the outbox. */
  owns(record: WriteRecord): boolean {
    return this.outbox.owns(record);
  }

  roots(): JobsNode[] {
    const account = this.tracker.account();
    return rootNodes(this.tracker.all(), this.pending(), this.transfers.all(account), this.transfers.interrupted(account));
  }

  /** Every row but the items: the jobs, submissions and requests the commands pick from. */
  rows(): JobsNode[] {
    return this.roots().flatMap((r) => (r.kind === 'submission' ? [r, ...childNodes(r)] : [r]));
  }

  /** A row's job as the tracker has it now. */
  current(job: TrackedJob): TrackedJob {
    return this.tracker.get(job.id) ?? job;
  }

  async getChildren(node?: JobsNode): Promise<JobsNode[]> {
    if (!node) return this.roots();
    return (await kindOf(ROW_KINDS, node).children?.(node, this)) ?? [];
  }

  getParent(node: JobsNode): JobsNode | undefined {
    return kindOf(ROW_KINDS, node).parent?.(node, this);
  }

  rowView(node: JobsNode): RowView {
    return kindOf(ROW_KINDS, node).view(node, this);
  }

  /** The row of a job, for `reveal` (inside its submission when it has one). */
  jobNode(id: string): JobsNode | undefined {
    return this.rows().find((r) => r.kind === 'job' && r.job.id === id);
  }

  /** The submission a job or a request row is part of, if its copy was split. */
  submissionOf(node: JobNode | RequestNode): SubmissionNode | undefined {
    return this.roots().find((r): r is SubmissionNode => r.kind === 'submission' && childNodes(r).some((c) => c.id === node.id));
  }

  /** A job's items, failed first; a finished job whose per-item results the list did not carry: one GET for them when it is opened. */
  async items(node: JobNode): Promise<JobsNode[]> {
    let job = this.current(node.job);
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
    return error ? [new MessageNode<JobsNode>(`message:${job.id}`, node, l10n.t('Could not load the results: {0}', error), 'error', error), ...items] : items;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
