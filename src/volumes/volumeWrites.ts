// Import from a volume and export to one, single and bulk (100 items a call), as four kinds of write: not idempotent
// (a second call imports twice), so a lost answer is found by difference among the account's import (or export) jobs,
// matching each item's source and destination, claimed by no other write, never sent again blind. Their jobs are
// followed by the tracker (types IMPORT and EXPORT), rows of Data Jobs. Declared here, with what a record read back
// must hold; what they call and how a lost one is found are volumes/volumeJobWrite.ts. No `vscode`.
import * as l10n from '@vscode/l10n';
import type { ApiBudget } from '../api/budget';
import type { Credentials } from '../api/transport';
import type { CopyItem } from '../api/types';
import type { ExportRequest, ImportRequest } from '../api/volumes';
import type { AsyncJobKind } from '../jobs/jobWrite';
import type { TrackedJob } from '../jobs/tracker';
import { WRITE_KINDS, type WriteKindName } from '../keys/writes';
import { isJobSnapshot, type JobSnapshot } from '../write/asyncJobs';
import type { Lookup, WriteKind } from '../write/kinds';
import type { WriteRecord } from '../write/records';
import { fileCount, itemCount } from '../util/words';
import { jobTypeWord } from '../jobs/jobKinds';

export interface ImportPayload {
  items: ImportRequest[];
  /** The destination folder's name, as shown. */
  to: string;
  project: string;
}

export interface ExportPayload {
  items: ExportRequest[];
  copyOnly: boolean;
  /** Each file's name and project, by ID, as shown. */
  names: Record<string, string>;
  projects: Record<string, string>;
}

/** One entry per item, in order: the job made (its ID claimed), or why the platform refused the item. */
export interface VolumeJobsOutcome {
  jobs: ({ id: string; state: string } | { error: { status?: number; code?: number; message: string } })[];
}

/** What tells the four kinds apart. */
export interface VolumeKindSpec {
  name: WriteKindName;
  type: 'IMPORT' | 'EXPORT';
  bulk: boolean;
}

type Payload = ImportPayload | ExportPayload;
export type VolumeWriteRecord = WriteRecord<Payload, JobSnapshot, VolumeJobsOutcome>;

/** The calls and the lookup, loaded on first use. */
export interface VolumeJobWriting {
  send(spec: VolumeKindSpec, record: VolumeWriteRecord, credentials: Credentials): Promise<VolumeJobsOutcome>;
  snapshot(spec: VolumeKindSpec, record: VolumeWriteRecord, credentials: Credentials): Promise<JobSnapshot>;
  find(spec: VolumeKindSpec, record: VolumeWriteRecord & { snapshot: JobSnapshot }, credentials: Credentials, taken: (id: string) => boolean): Promise<Lookup<VolumeJobsOutcome>>;
  finish(spec: VolumeKindSpec, record: VolumeWriteRecord, outcome: VolumeJobsOutcome, found: boolean): void;
  /** Retry Failed Items: a new write of a job's failed items. */
  retry(spec: VolumeKindSpec, items: CopyItem[], names: Record<string, string>, job: Pick<TrackedJob, 'destination' | 'choices'>): Payload;
}

export interface VolumeWriteParts {
  writing: () => Promise<VolumeJobWriting>;
  /** A bulk call is held back while the API budget is nearly spent. */
  budget?: Pick<ApiBudget, 'holdBulk'>;
}

/** Items of one bulk call (platform-api.md §13.2). */
const MAX_ITEMS = 100;

export const VOLUME_KINDS: readonly VolumeKindSpec[] = (['IMPORT', 'EXPORT'] as const).flatMap((type) =>
  [false, true].map((bulk) => ({ type, bulk, name: WRITE_KINDS[`volume${bulk ? 'Bulk' : ''}${type === 'IMPORT' ? 'Import' : 'Export'}`] })),
);

/** The import and export kinds; the single ones also make Retry Failed Items' new write of failed items. */
/** A kind of import or export write: its jobs' type, and how Retry Failed Items sends failed items again (as `AsyncJobKind`). */
export type VolumeKind = WriteKind<Payload, JobSnapshot, VolumeJobsOutcome> & Pick<AsyncJobKind<Payload>, 'jobType' | 'retry'>;

export function volumeWrites(parts: VolumeWriteParts): VolumeKind[] {
  return VOLUME_KINDS.map((spec) => volumeWrite(spec, parts));
}

/** A call of the part loaded on first use, for one kind: the same parameters but the kind, always a promise. */
type Later<F> = F extends (spec: VolumeKindSpec, ...rest: infer A) => infer R ? (...rest: A) => Promise<Awaited<R>> : never;

function volumeWrite(spec: VolumeKindSpec, parts: VolumeWriteParts): VolumeKind {
  const call = <K extends keyof VolumeJobWriting>(name: K): Later<VolumeJobWriting[K]> =>
    (async (...rest: unknown[]) => ((await parts.writing())[name] as (...args: unknown[]) => unknown)(spec, ...rest)) as Later<VolumeJobWriting[K]>;
  return {
    name: spec.name,
    idempotent: false,
    identity: {
      by: 'difference',
      snapshot: call('snapshot'),
      isSnapshot: isJobSnapshot,
      find: call('find'),
      // The first job is claimed; the others are the tracker's, which no other write adopts either.
      madeId: (outcome) => outcome.jobs.find((j): j is { id: string; state: string } => 'id' in j)?.id ?? '',
    },
    hold: spec.bulk ? () => parts.budget?.holdBulk(1) ?? 0 : undefined,
    isPayload: (p): p is Payload => (spec.type === 'IMPORT' ? isImportPayload(p) : isExportPayload(p)) && (spec.bulk ? (p as Payload).items.length <= MAX_ITEMS : (p as Payload).items.length === 1),
    isOutcome: (o): o is VolumeJobsOutcome => Array.isArray((o as VolumeJobsOutcome | undefined)?.jobs),
    send: call('send'),
    keep: (outcome) => outcome,
    finish: call('finish'),
    describe: describeVolumeWrite,
    jobType: spec.type,
    // Retry Failed Items: a new write of the failed items (jobs of one item each: the single kind, one at a time).
    retry: spec.bulk ? undefined : call('retry'),
  };
}

/** "Import · 30 items → lane1", "Export · 2 files → rfranklin/analysis_results". */
export function describeVolumeWrite(p: Payload): string {
  const isImport = 'to' in p;
  return l10n.t('{0} · {1} → {2}', jobTypeWord(isImport ? 'IMPORT' : 'EXPORT'), (isImport ? itemCount : fileCount)(p.items.length), isImport ? p.to : p.items[0].destination.volume);
}

/** Whether each dotted path of `o` holds a text. */
const texts = (o: unknown, ...paths: string[]): boolean => paths.every((p) => typeof p.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o) === 'string');
const itemsOf = (p: unknown): unknown[] => (p && typeof p === 'object' && Array.isArray((p as Payload).items) ? (p as Payload).items : []);

function isImportPayload(p: unknown): p is ImportPayload {
  const items = itemsOf(p);
  return texts(p, 'to', 'project') && items.length > 0 && items.every((i) => texts(i, 'source.volume', 'source.location') && (texts(i, 'destination.parent') || texts(i, 'destination.project')));
}

function isExportPayload(p: unknown): p is ExportPayload {
  const items = itemsOf(p);
  return items.length > 0 && typeof (p as ExportPayload).copyOnly === 'boolean' && items.every((i) => texts(i, 'source.file', 'destination.volume', 'destination.location'));
}
