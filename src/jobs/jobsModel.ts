// The Data Jobs view as data (its ID is still `sevenbridges.copyJobs`): the asynchronous file jobs (copies, moves,
// deletes), the uploads and downloads under way, the transfers left unfinished, and every write still pending; which
// rows there are, in which order, and where each hangs; each kind of row's look and children from one table
// (ROW_KINDS; the looks in jobRows.ts). No `vscode` import; ui/rowTree.ts draws it.
import * as l10n from '@vscode/l10n';
import { describeError } from '../api/errors';
import type { FileRecord } from '../api/types';
import type { Outbox, WriteRecord } from '../write/outbox';
import { isRowOf, kindOf, messageView, MessageNode, type RowKinds, type RowModel, type RowView } from '../ui/rowView';
import { Emitter } from '../util/emitter';
import { commandTitles, COMMANDS } from '../keys/commands';
import { isFinished, type JobTracker, type TrackedJob } from './tracker';
import { Transfers, type InterruptedRun, type LiveTransfer } from './transfers';
import { pendingWrites } from './pendingWrites';
import { interruptedRow, itemRow, jobRow, requestRow, submissionRow, transferRow } from './jobRows';

/** Several jobs (and maybe requests not yet sent) made by one copy that was split. */
export interface SubmissionNode {
  kind: 'submission';
  id: string;
  group: string;
  jobs: TrackedJob[];
  pending: WriteRecord[];
}
export interface JobNode {
  kind: 'job';
  id: string;
  job: TrackedJob;
}
/** A request still in the outbox (one group's records): waiting, being checked, or refused. */
export interface RequestNode {
  kind: 'request';
  id: string;
  group: string;
  records: WriteRecord[];
}
export interface ItemNode {
  kind: 'item';
  id: string;
  job: TrackedJob;
  index: number;
  /** The new copy, once the platform reported it: what Reveal in Projects & Files shows. */
  file?: FileRecord;
}
/** An upload or download under way in this window. */
export interface TransferNode {
  kind: 'transfer';
  id: string;
  transfer: LiveTransfer;
}
/** An upload run a reload or a fault left unfinished: Resume, Discard. */
export interface InterruptedNode {
  kind: 'interrupted';
  id: string;
  run: InterruptedRun;
}
export type JobsNode = SubmissionNode | JobNode | RequestNode | ItemNode | TransferNode | InterruptedNode | MessageNode<JobsNode>;

/**
 * The view's top rows, newest first: a job on its own, or the submission it belongs to when its copy was split
 * into several requests (its jobs and its requests still in the outbox together); requests in the outbox on
 * their own otherwise.
 */
export function rootNodes(jobs: readonly TrackedJob[], pending: readonly WriteRecord[], transfers: readonly LiveTransfer[] = [], interrupted: readonly InterruptedRun[] = []): JobsNode[] {
  const byGroup = new Map<string, { jobs: TrackedJob[]; pending: WriteRecord[] }>();
  const entry = (group: string) => {
    let e = byGroup.get(group);
    if (!e) byGroup.set(group, (e = { jobs: [], pending: [] }));
    return e;
  };
  const alone: TrackedJob[] = [];
  for (const job of jobs) (job.group ? entry(job.group).jobs : alone).push(job);
  for (const record of pending) entry(record.group).pending.push(record);

  const rows: { at: number; node: JobsNode }[] = alone.map((job) => ({ at: job.submittedAt, node: jobNode(job) }));
  for (const [group, e] of byGroup) {
    const at = Math.max(...e.jobs.map((j) => j.submittedAt), ...e.pending.map((p) => p.createdAt));
    if (e.jobs.length + (e.pending.length ? 1 : 0) > 1) {
      rows.push({ at, node: { kind: 'submission', id: `submission:${group}`, group, jobs: newestFirst(e.jobs), pending: e.pending } });
    } else if (e.jobs.length) {
      rows.push({ at, node: jobNode(e.jobs[0]) });
    } else {
      rows.push({ at, node: requestNode(group, e.pending) });
    }
  }
  rows.sort((a, b) => b.at - a.at);
  // What moves bytes now first, then what waits for the person to resume it, then the jobs and requests.
  const top: JobsNode[] = [
    ...transfers.map((transfer): JobsNode => ({ kind: 'transfer', id: `transfer:${transfer.id}`, transfer })),
    ...interrupted.map((run): JobsNode => ({ kind: 'interrupted', id: `interrupted:${run.runId}`, run })),
  ];
  if (!rows.length && !top.length) {
    return [new MessageNode<JobsNode>('message:empty', undefined, l10n.t('No data jobs yet'), 'info', undefined, undefined, l10n.t('Copy, move, delete, upload or download files in Projects & Files: each shows here until it is done.'))];
  }
  return [...top, ...rows.map((r) => r.node)];
}

/** The rows under a submission (its requests still in the outbox first, then its jobs, newest first) or a job (its items). */
export function childNodes(node: JobsNode): JobsNode[] {
  if (node.kind === 'submission') return [...(node.pending.length ? [requestNode(node.group, node.pending)] : []), ...node.jobs.map(jobNode)];
  if (node.kind === 'job') return itemOrder(node.job).map((index) => ({ kind: 'item', id: `item:${node.job.id}:${index}`, job: node.job, index, file: node.job.result?.[index]?.resource }));
  return [];
}

/** Item indexes in the order shown: failed first, then those without a result yet, then the copied ones; request order within each. */
export function itemOrder(job: TrackedJob): number[] {
  const rank = (i: number) => {
    const r = job.result?.[i];
    return r?.error ? 0 : r?.resource ? 2 : 1;
  };
  return job.items.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b);
}

function jobNode(job: TrackedJob): JobNode {
  return { kind: 'job', id: `job:${job.id}`, job };
}

function requestNode(group: string, records: WriteRecord[]): RequestNode {
  return { kind: 'request', id: `request:${group}`, group, records };
}

function newestFirst(jobs: TrackedJob[]): TrackedJob[] {
  return [...jobs].sort((a, b) => b.submittedAt - a.submittedAt);
}

/** The request a row holds: a request row, or the requests of a submission still in the outbox. */
export function requestOf(node: JobsNode | undefined): RequestNode | undefined {
  if (node?.kind === 'request') return node;
  if (node?.kind === 'submission' && node.pending.length) return requestNode(node.group, node.pending);
  return undefined;
}

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
