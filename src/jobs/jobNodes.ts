// The rows of the Data Jobs view, each a kind plus its record, and where each hangs: the top rows in their order, and
// what a split copy and a job open into. No `vscode` import; how each looks is jobRows.ts, the model jobsModel.ts.
import * as l10n from '@vscode/l10n';
import type { FileRecord } from '../api/types';
import type { WriteRecord } from '../write/outbox';
import { MessageNode } from '../ui/rowView';
import type { TrackedJob } from './tracker';
import type { InterruptedRun, LiveTransfer } from './transfers';

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
