// What the import and export writes do (their declarations are volumes/volumeWrites.ts; this part loads on first use):
// the call, single or bulk; after a lost answer, the jobs it made found by difference among the account's import (or
// export) jobs, each matching an item's source and destination, claimed by no other write, never sent again blind; the
// jobs handed to the tracker, rows of Data Jobs. And how the tracker reads such a job. No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import type { AsyncJob, CopyItem, CopyItemResult } from '../api/types';
import { volumesOf, type ExportJob, type ExportRequest, type ImportJob, type ImportRequest, type VolumeJobKind, type VolumesApi } from '../api/volumes';
import type { Transport } from '../api/transport';
import type { JobWriteTracker } from '../jobs/jobWrite';
import type { JobChoices, JobDestination, JobReader, TrackedJob } from '../jobs/tracker';
import { appearedSince, type Lookup } from '../write/kinds';
import { noMatchingJob, type JobSnapshot } from '../write/asyncJobs';
import { systemClock, type Clock } from '../api/clock';
import { importChoicesOf, importRequest } from './transferPlan';
import type { ExportPayload, ImportPayload, VolumeJobsOutcome, VolumeJobWriting, VolumeKindSpec } from './volumeWrites';

export type VolumeJobsApi = Pick<VolumesApi, 'importOne' | 'importMany' | 'exportOne' | 'exportMany' | 'listJobs' | 'getMany'>;

type Payload = ImportPayload | ExportPayload;
type Job = ImportJob | ExportJob;

const PAGE = 100;
/** "Requested job does not exist." (platform-api.md §13.2). */
const JOB_NOT_FOUND = 9008;
const SNAPSHOT_PAGES = 10;
const LOOKUP_PAGES = 20;
/**
 * A snapshot this recent serves the next call on the same volume (the 100 calls of a bulk import of 10,000 objects):
 * the jobs the calls before made are claimed by their writes, and each call's items are its own. Read again for each
 * call, the list (10 pages once it is long) cost 946 of the 1,246 requests of that import.
 */
const SNAPSHOT_REUSE_MS = 10_000;

export function volumeJobWriting(api: VolumeJobsApi, tracker: JobWriteTracker, clock: Pick<Clock, 'monotonic'> = systemClock): VolumeJobWriting {
  const recent = new Map<string, { at: number; snapshot: JobSnapshot }>();
  /** The account's jobs of a kind on the volume the items share (all of them otherwise), up to `pages` pages. */
  async function listAll(spec: VolumeKindSpec, payload: Payload, credentials: Credentials, pages: number): Promise<{ jobs: Job[]; complete: boolean }> {
    const volume = sharedVolume(payload);
    const seen = new Map<string, Job>();
    for (let n = 0; n < pages; n++) {
      const page = await api.listJobs<Job>(spec.type === 'IMPORT' ? 'imports' : 'exports', { volume, offset: n * PAGE, limit: PAGE, credentials });
      for (const job of page.items) seen.set(job.id, job);
      if (!page.next || page.items.length < PAGE) return { jobs: [...seen.values()], complete: true };
    }
    return { jobs: [...seen.values()], complete: false };
  }

  return {
    async send(spec, record, credentials) {
      const call = { credentials };
      if (isImport(record.payload)) {
        const items = record.payload.items;
        return outcomeOf(spec.bulk ? (await api.importMany(items, call)).map(entryOf) : [entryOf({ job: await api.importOne(items[0], call) })]);
      }
      const { items, copyOnly } = record.payload;
      return outcomeOf(spec.bulk ? (await api.exportMany(items, copyOnly, call)).map(entryOf) : [entryOf({ job: await api.exportOne(items[0], copyOnly, call) })]);
    },

    async snapshot(spec, record, credentials) {
      const key = `${record.account}|${spec.type}|${sharedVolume(record.payload) ?? ''}`;
      const reuse = recent.get(key);
      if (reuse && clock.monotonic() - reuse.at < SNAPSHOT_REUSE_MS) return reuse.snapshot;
      const { jobs, complete } = await listAll(spec, record.payload, credentials, SNAPSHOT_PAGES);
      const snapshot = { before: jobs.map((j) => j.id), complete };
      recent.set(key, { at: clock.monotonic(), snapshot });
      return snapshot;
    },

    async find(spec, record, credentials, taken): Promise<Lookup<VolumeJobsOutcome>> {
      const { jobs, complete } = await listAll(spec, record.payload, credentials, LOOKUP_PAGES);
      const made = tracker.recordedWrites();
      const byAnother = (id: string) => made.has(id) && made.get(id) !== record.id;
      const fresh = appearedSince(jobs, new Set(record.snapshot.before), (id) => taken(id) || byAnother(id), (j) => j.id);
      const used = new Set<string>();
      const matched = (record.payload.items as (ImportRequest | ExportRequest)[]).map((item) => {
        // Several alike (the same import asked twice, both answers lost): each item takes the first not taken.
        const job = fresh.find((j) => !used.has(j.id) && sameItem(item, j));
        if (job) used.add(job.id);
        return job;
      });
      if (matched.some((j) => j)) {
        return { found: outcomeOf(matched.map((job) => (job ? entryOf({ job }) : { error: { message: l10n.t('Not made: the platform refused this item (its answer was lost).') } }))) };
      }
      if (!complete || !record.snapshot.complete) return { unknown: l10n.t('It may have been submitted: your list of jobs is too long to check to its end.') };
      return { absent: noMatchingJob() };
    },

    retry: retryPayload,

    finish(spec, record, outcome, found) {
      const made = outcome.jobs.flatMap((entry, i) =>
        'id' in entry && !tracker.get(entry.id)
          ? [{ job: asAsyncJob(entry, spec.type), info: { type: spec.type, ...trackedItem(record.payload, i), group: record.group, adopted: found || undefined, account: record.account, write: record.id } }]
          : [],
      );
      tracker.addAll(made);
    },
  };
}

/** The import and export writes' calls over a client (main.ts loads them on first use). */
export function volumeWritingFor(client: { transport: Transport }, tracker: JobWriteTracker): VolumeJobWriting {
  return volumeJobWriting(volumesOf(client), tracker);
}

/** How the tracker reads import (or export) jobs over a client, 100 a call. */
export function volumeJobReaderFor(client: { transport: Transport }, kind: VolumeJobKind): JobReader {
  return (ids, signal) => readVolumeJobs(volumesOf(client), kind, ids, signal);
}

/** The tracker reads jobs of these kinds through this: each as an async job, or undefined when the platform no longer knows it. */
export async function readVolumeJobs(api: Pick<VolumesApi, 'getMany'>, kind: VolumeJobKind, ids: readonly string[], signal?: AbortSignal): Promise<(AsyncJob | undefined)[]> {
  const type = kind === 'imports' ? 'IMPORT' : 'EXPORT';
  return (await api.getMany<Job>(kind, ids, { signal })).map((r) => {
    if (r.job) return asAsyncJob(r.job, type);
    if (r.error.code === JOB_NOT_FOUND || r.error.status === 404) return undefined;
    throw new ApiError({ kind: 'http', status: r.error.status, code: r.error.code, message: r.error.message });
  });
}

/**
 * An import or export job as the tracker follows an async file job: one item, its result a file (a folder for a
 * prefix) or an error. The platform counts no files for it: none are claimed (a prefix of 30 objects is not "1/1 files").
 */
export function asAsyncJob(job: Pick<Job, 'id' | 'state'> & Partial<Job>, type: 'IMPORT' | 'EXPORT'): AsyncJob {
  const ended = job.state === 'COMPLETED' || job.state === 'FAILED';
  const result: CopyItemResult[] | undefined = job.state === 'COMPLETED' && job.result ? [{ resource: job.result }] : job.state === 'FAILED' ? [{ error: { message: job.error?.message ?? l10n.t('The platform gave no reason.'), status: job.error?.status, code: job.error?.code } }] : undefined;
  return {
    id: job.id,
    type,
    state: ended ? 'FINISHED' : job.state === 'PENDING' ? 'SUBMITTED' : 'RUNNING',
    result,
    started_on: job.started_on,
    finished_on: job.finished_on,
  };
}

/** The item of a tracked import or export job: the source it names, where it goes, and the names shown. */
export function trackedItem(payload: Payload, i: number): { items: CopyItem[]; destination: JobDestination; sourceNames: Record<string, string>; choices: JobChoices } {
  if (isImport(payload)) {
    const item = payload.items[i];
    const file = `${item.source.volume}/${item.source.location}`;
    return {
      items: [{ file, ...(item.destination.parent ? { parent: item.destination.parent } : { project: payload.project }) }],
      destination: { label: payload.to, project: payload.project, ...(item.destination.parent ? { parent: item.destination.parent } : {}) },
      sourceNames: { [file]: item.source.location },
      choices: importChoicesOf(item),
    };
  }
  const item = payload.items[i];
  return {
    items: [{ file: item.source.file, name: item.destination.location }],
    destination: { label: exportLabel(item.destination.volume, item.destination.location), project: payload.projects[item.source.file] ?? '' },
    sourceNames: { [item.source.file]: payload.names[item.source.file] ?? item.source.file },
    choices: { copyOnly: payload.copyOnly },
  };
}

/** Where an export job goes, as its row says it and as it is kept: `<volume>: <location>` (a volume's ID has no ": "). */
const exportLabel = (volume: string, location: string): string => `${volume}: ${location}`;
const exportVolumeOf = (destination: Pick<JobDestination, 'label'>): string => destination.label.split(': ')[0];

/** The volume and the object an export job writes (none for another kind of job): its volume's listings change. */
export function exportedTo(job: Pick<TrackedJob, 'type' | 'items' | 'destination'>): { volume: string; location: string } | undefined {
  const location = job.items[0]?.name;
  return job.type === 'EXPORT' && location ? { volume: exportVolumeOf(job.destination), location } : undefined;
}

/**
 * A failed item sent again, with the choices its job was sent with: an import's source is `<volume>/<location>` (a
 * volume's ID is `owner/name`), an export's the file (copy only when its job does not say otherwise).
 */
export function retryPayload(spec: VolumeKindSpec, items: CopyItem[], names: Record<string, string>, job: Pick<TrackedJob, 'destination' | 'choices'>): Payload {
  const { destination } = job;
  if (spec.type === 'IMPORT') {
    return {
      items: items.map((item) => {
        const [owner, name, ...rest] = item.file.split('/');
        return importRequest({ volume: `${owner}/${name}`, location: rest.join('/') }, destination, job.choices);
      }),
      to: destination.label,
      project: destination.project,
    };
  }
  const volume = exportVolumeOf(destination);
  return {
    items: items.map((item) => ({ source: { file: item.file }, destination: { volume, location: item.name ?? names[item.file] ?? item.file } })),
    copyOnly: job.choices?.copyOnly ?? true,
    names,
    projects: Object.fromEntries(items.map((item) => [item.file, destination.project])),
  };
}


function sameItem(item: ImportRequest | ExportRequest, job: Job): boolean {
  if ('file' in item.source) {
    const j = job as ExportJob;
    const d = (item as ExportRequest).destination;
    return j.source?.file === item.source.file && j.destination?.volume === d.volume && j.destination?.location === d.location;
  }
  const j = job as ImportJob;
  const { destination } = item as ImportRequest;
  return (
    j.source?.volume === item.source.volume &&
    j.source?.location === item.source.location &&
    (j.destination?.parent ?? undefined) === destination.parent &&
    (j.destination?.project ?? undefined) === destination.project &&
    (j.destination?.name ?? undefined) === destination.name
  );
}

const isImport = (p: Payload): p is ImportPayload => p.items.length > 0 && 'volume' in (p.items[0] as ImportRequest).source;

function sharedVolume(p: Payload): string | undefined {
  const volumes = new Set((p.items as (ImportRequest | ExportRequest)[]).map((i) => ('volume' in i.source ? i.source.volume : (i as ExportRequest).destination.volume)));
  return volumes.size === 1 ? [...volumes][0] : undefined;
}

function entryOf(r: { job?: Job; error?: { status?: number; code?: number; message: string } }): VolumeJobsOutcome['jobs'][number] {
  return r.job ? { id: r.job.id, state: r.job.state } : { error: { status: r.error?.status, code: r.error?.code, message: r.error?.message ?? '' } };
}

const outcomeOf = (jobs: VolumeJobsOutcome['jobs']): VolumeJobsOutcome => ({ jobs });
