// Import from a volume and export to one, single and bulk (100 items a call), as four kinds of write: not idempotent
// (a second call imports twice), so a lost answer is found by difference among the account's import (or export) jobs,
// matching each item's source and destination, claimed by no other write, never sent again blind. Their jobs are
// followed by the tracker (types IMPORT and EXPORT), rows of Data Jobs. Declared here, with what a record read back
// must hold; what they call and how a lost one is found load on first use (volumes/volumeJobWrite.ts), so that
// dist/main.js stays small. No `vscode`.
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
  jobs: 'imports' | 'exports';
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
}

export interface VolumeWriteParts {
  writing: () => Promise<VolumeJobWriting>;
  /** A bulk call is held back while the API budget is nearly spent. */
  budget?: Pick<ApiBudget, 'holdBulk'>;
}

/** Items of one bulk call (platform-api.md §13.2). */
const MAX_ITEMS = 100;

export const VOLUME_KINDS: readonly VolumeKindSpec[] = [
  { name: WRITE_KINDS.volumeImport, jobs: 'imports', type: 'IMPORT', bulk: false },
  { name: WRITE_KINDS.volumeBulkImport, jobs: 'imports', type: 'IMPORT', bulk: true },
  { name: WRITE_KINDS.volumeExport, jobs: 'exports', type: 'EXPORT', bulk: false },
  { name: WRITE_KINDS.volumeBulkExport, jobs: 'exports', type: 'EXPORT', bulk: true },
];

/** The import and export kinds; the single ones also make Retry Failed Items' new write of failed items. */
/** A kind of import or export write: its jobs' type, and how Retry Failed Items sends failed items again (as `AsyncJobKind`). */
export type VolumeKind = WriteKind<Payload, JobSnapshot, VolumeJobsOutcome> & Pick<AsyncJobKind<Payload>, 'jobType' | 'retry'>;

export function volumeWrites(parts: VolumeWriteParts): VolumeKind[] {
  return VOLUME_KINDS.map((spec) => volumeWrite(spec, parts));
}

function volumeWrite(spec: VolumeKindSpec, parts: VolumeWriteParts): VolumeKind {
  return {
    name: spec.name,
    idempotent: false,
    identity: {
      by: 'difference',
      snapshot: async (record, credentials) => (await parts.writing()).snapshot(spec, record, credentials),
      isSnapshot: isJobSnapshot,
      find: async (record, credentials, taken) => (await parts.writing()).find(spec, record, credentials, taken),
      // The first job is claimed; the others are the tracker's, which no other write adopts either.
      madeId: (outcome) => outcome.jobs.find((j): j is { id: string; state: string } => 'id' in j)?.id ?? '',
    },
    hold: spec.bulk && parts.budget ? () => parts.budget!.holdBulk(1) : undefined,
    isPayload: (p): p is Payload => (spec.type === 'IMPORT' ? isImportPayload(p) : isExportPayload(p)) && (spec.bulk ? (p as Payload).items.length <= MAX_ITEMS : (p as Payload).items.length === 1),
    isOutcome: (o): o is VolumeJobsOutcome => !!o && typeof o === 'object' && Array.isArray((o as VolumeJobsOutcome).jobs),
    send: async (record, credentials) => (await parts.writing()).send(spec, record, credentials),
    keep: (outcome) => outcome,
    finish: async (record, outcome, found) => (await parts.writing()).finish(spec, record, outcome, found),
    describe: (p) => describeVolumeWrite(p),
    jobType: spec.type,
    // Retry Failed Items: a new write of the failed items (jobs of one item each: the single kind, one at a time).
    retry: spec.bulk ? undefined : (items: CopyItem[], names: Record<string, string>, job: Pick<TrackedJob, 'destination'>) => retryPayload(spec, items, names, job),
  };
}

/** "Import 30 items into "lane1"", "Export 2 files to rfranklin/analysis_results". */
export function describeVolumeWrite(p: Payload): string {
  if ('to' in p) return l10n.t({ message: 'Import {0} into "{1}"', args: [itemCount(p.items.length), p.to], comment: ['{0}: "30 items"; {1}: a folder'] });
  const volumes = [...new Set(p.items.map((i) => i.destination.volume))].join(', ');
  return l10n.t({ message: 'Export {0} to {1}', args: [fileCount(p.items.length), volumes], comment: ['{0}: "2 files"; {1}: a volume'] });
}

/** A failed item sent again: an import's source is `<volume>/<location>` (a volume's ID is `owner/name`), an export's the file. */
function retryPayload(spec: VolumeKindSpec, items: CopyItem[], names: Record<string, string>, job: Pick<TrackedJob, 'destination'>): Payload {
  const { destination } = job;
  if (spec.type === 'IMPORT') {
    return {
      items: items.map((item) => {
        const [owner, name, ...rest] = item.file.split('/');
        return { source: { volume: `${owner}/${name}`, location: rest.join('/') }, destination: destination.parent ? { parent: destination.parent } : { project: destination.project } };
      }),
      to: destination.label,
      project: destination.project,
    };
  }
  const [volume] = destination.label.split(': ');
  return {
    items: items.map((item) => ({ source: { file: item.file }, destination: { volume, location: item.name ?? names[item.file] ?? item.file } })),
    copyOnly: true,
    names,
    projects: Object.fromEntries(items.map((item) => [item.file, destination.project])),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === 'string';
const flag = (v: unknown): boolean => v === undefined || typeof v === 'boolean';
const strings = (v: unknown): boolean => isObject(v) && Object.values(v).every(text);

function isImportPayload(p: unknown): p is ImportPayload {
  return isObject(p) && text(p.to) && text(p.project) && Array.isArray(p.items) && p.items.length > 0 && p.items.every((i: unknown) =>
    isObject(i) && isObject(i.source) && text(i.source.volume) && text(i.source.location) && isObject(i.destination)
    && (text(i.destination.parent) || text(i.destination.project)) && flag(i.overwrite) && flag(i.autorename) && flag(i.preserve_folder_structure));
}

function isExportPayload(p: unknown): p is ExportPayload {
  return isObject(p) && typeof p.copyOnly === 'boolean' && strings(p.names) && strings(p.projects) && Array.isArray(p.items) && p.items.length > 0 && p.items.every((i: unknown) =>
    isObject(i) && isObject(i.source) && text(i.source.file) && isObject(i.destination) && text(i.destination.volume) && text(i.destination.location) && flag(i.overwrite));
}
