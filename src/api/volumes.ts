// Volumes (platform-api.md §13): the cloud buckets the user attached, browsed one level at a time by prefix (paged by
// `continuation_token`), and the import and export jobs between them and the projects, single and bulk (100 a call).
// The writes are sent once and never repeated here. No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { readableItem } from './fileJobs';
import { isFileId, isProjectId, notFileId, notFolderId, notProjectId } from './ids';
import type { Call, Transport } from './transport';
import type { ApiErrorBody, FileRecord, Page } from './types';
import type { PageRequest } from './tasks';

/** Items per bulk import or export call (platform-api.md §13.2). */
export const MAX_VOLUME_BULK = 100;

export type VolumeAccess = 'RO' | 'RW' | (string & {});

export interface Volume {
  href?: string;
  /** `owner/name` */
  id: string;
  name: string;
  description?: string;
  access_mode?: VolumeAccess;
  service?: { type?: string; bucket?: string; prefix?: string; root_url?: string; endpoint?: string };
  created_on?: string;
  modified_on?: string;
  active?: boolean;
}

/** An object of a volume: its `location` is its key under the volume's prefix; `metadata` is the provider's own. */
export interface VolumeObject {
  href?: string;
  location: string;
  volume: string;
  type?: string;
  metadata?: Record<string, unknown>;
}

/** One level of a volume under a prefix: its objects, its sub-prefixes (ending with `/`), and the token of the next page. */
export interface VolumeListing {
  objects: VolumeObject[];
  prefixes: string[];
  /** Give it back as `continuation` for the next page; none on the last page. */
  continuation?: string;
}

export type VolumeJobState = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' | (string & {});

export interface ImportDestination {
  /** One of `project` (its root) and `parent` (a folder's ID). */
  project?: string;
  parent?: string;
  name?: string;
}

export interface ImportRequest {
  source: { volume: string; location: string };
  destination: ImportDestination;
  overwrite?: boolean;
  autorename?: boolean;
  /** For a prefix (a location ending with `/`): one folder holding the tree (the platform's default), or the files flat. */
  preserve_folder_structure?: boolean;
}

export interface ExportRequest {
  source: { file: string };
  destination: { volume: string; location: string };
  overwrite?: boolean;
  properties?: Record<string, unknown>;
}

interface VolumeJobFields {
  href?: string;
  id: string;
  state: VolumeJobState;
  overwrite?: boolean;
  started_on?: string;
  finished_on?: string;
  /** A file or folder record once COMPLETED. */
  result?: FileRecord;
  /** Why it FAILED. */
  error?: ApiErrorBody;
}

export interface ImportJob extends VolumeJobFields, Omit<ImportRequest, 'overwrite'> {}
export interface ExportJob extends VolumeJobFields, Omit<ExportRequest, 'overwrite'> {}

export type VolumeJobKind = 'imports' | 'exports';
/** A bulk call's answer for one item, in request order: the job made, or why it was refused. */
export type BulkJobItem<J> = { job: J; error?: undefined } | { job?: undefined; error: ApiErrorBody & { message: string } };

export const isVolumeJobEnded = (state: VolumeJobState | undefined): boolean => state === 'COMPLETED' || state === 'FAILED';

/** `owner/name`, the name letters, digits and underscores (platform-api.md §13.1). */
const VOLUME_ID = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_]{1,32}$/;
/** Job IDs are opaque; refused are only what would leave their path. */
const JOB_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const isVolumeId = (value: string): boolean => VOLUME_ID.test(value);
export const notVolumeId = (value: string): string => l10n.t('"{0}" is not a volume ID (owner/name: letters, digits and underscores).', value);

const made = new WeakMap<Transport, VolumesApi>();

/**
 * The volumes client over a client's one transport. Not a member of `SbClient`: what dist/main.js holds stays within
 * its budget, and this loads with the features that use it (dist/features.js).
 */
export function volumesOf(client: { transport: Transport }): VolumesApi {
  let api = made.get(client.transport);
  if (!api) made.set(client.transport, (api = new VolumesApi(client.transport)));
  return api;
}

export class VolumesApi {
  constructor(private readonly transport: Transport) {}

  /** The volumes the caller can access, every field. */
  list(page: PageRequest = {}): Promise<Page<Volume>> {
    return this.transport.page<Volume>('storage/volumes', {
      query: { fields: '_all', offset: page.offset, limit: page.limit },
      signal: page.signal,
      credentials: page.credentials,
    });
  }

  /** Continues the volume list from its `next` link. */
  next(url: string, options: Call = {}): Promise<Page<Volume>> {
    return this.transport.page<Volume>(url, options);
  }

  async get(id: string, options: Call = {}): Promise<Volume> {
    checkVolume(id);
    const volume = (await this.transport.get<Volume>(`storage/volumes/${id}`, options)).body;
    if (!volume || typeof volume !== 'object' || typeof volume.id !== 'string') throw malformed(l10n.t('the answer for volume {0} is not a volume', id));
    return volume;
  }

  /**
   * One page of what is directly under `prefix` (`''`: the top): objects with their metadata (size, date) and the
   * sub-prefixes. The next page is asked with the `continuation` this one gave.
   */
  async objects(id: string, prefix: string, page: { continuation?: string; limit?: number } & Call = {}): Promise<VolumeListing> {
    checkVolume(id);
    const body = (await this.transport.get<{ items?: unknown; prefixes?: unknown; links?: unknown }>(`storage/volumes/${id}/list`, {
      query: { prefix: prefix || undefined, limit: page.limit, continuation_token: page.continuation, fields: '_all' },
      signal: page.signal,
      credentials: page.credentials,
    })).body;
    if (!body || typeof body !== 'object' || !Array.isArray(body.items)) throw malformed(l10n.t('the listing of volume {0} has no items array', id));
    const objects = (body.items as unknown[]).filter((o): o is VolumeObject => !!o && typeof o === 'object' && typeof (o as VolumeObject).location === 'string');
    const prefixes = (Array.isArray(body.prefixes) ? (body.prefixes as unknown[]) : [])
      .map((p) => (p && typeof p === 'object' ? (p as { prefix?: unknown }).prefix : undefined))
      .filter((p): p is string => typeof p === 'string' && p !== '');
    return { objects, prefixes, continuation: continuationOf(body.links) };
  }

  /** One object, with its metadata. */
  async object(id: string, location: string, options: Call = {}): Promise<VolumeObject> {
    checkVolume(id);
    const o = (await this.transport.get<VolumeObject>(`storage/volumes/${id}/object`, { ...options, query: { location, fields: '_all' } })).body;
    if (!o || typeof o !== 'object' || typeof o.location !== 'string') throw malformed(l10n.t('the answer for an object of volume {0} is not an object', id));
    return o;
  }

  async importOne(item: ImportRequest, options: Call = {}): Promise<ImportJob> {
    return await this.submit<ImportJob>('imports', checkImport(item), options);
  }

  /** Without `copyOnly`, the platform's file becomes a link to the exported object (it cannot be exported again). */
  async exportOne(item: ExportRequest, copyOnly: boolean, options: Call = {}): Promise<ExportJob> {
    return await this.submit<ExportJob>('exports', checkExport(item), options, copyOnly);
  }

  async importMany(items: readonly ImportRequest[], options: Call = {}): Promise<BulkJobItem<ImportJob>[]> {
    return await this.bulk<ImportJob>('imports', 'create', { items: checkMany(items).map(checkImport) }, items.length, options);
  }

  async exportMany(items: readonly ExportRequest[], copyOnly: boolean, options: Call = {}): Promise<BulkJobItem<ExportJob>[]> {
    return await this.bulk<ExportJob>('exports', 'create', { items: checkMany(items).map(checkExport) }, items.length, options, copyOnly);
  }

  async getImport(id: string, options: Call = {}): Promise<ImportJob> {
    return await this.job<ImportJob>('imports', id, options);
  }

  async getExport(id: string, options: Call = {}): Promise<ExportJob> {
    return await this.job<ExportJob>('exports', id, options);
  }

  /** Several jobs of a kind, 100 a call, each as read or why it could not be. */
  async getMany<J extends ImportJob | ExportJob>(kind: VolumeJobKind, ids: readonly string[], options: Call = {}): Promise<BulkJobItem<J>[]> {
    const key = kind === 'imports' ? 'import_ids' : 'export_ids';
    const out: BulkJobItem<J>[] = [];
    for (let i = 0; i < ids.length; i += MAX_VOLUME_BULK) {
      const part = ids.slice(i, i + MAX_VOLUME_BULK);
      part.forEach(checkJobId);
      out.push(...(await this.bulk<J>(kind, 'get', { [key]: part }, part.length, options, undefined, true)));
    }
    return out;
  }

  /** The caller's jobs of a kind, newest first (the emulator's order; not relied on), filtered by volume and state. */
  async listJobs<J extends ImportJob | ExportJob>(kind: VolumeJobKind, filter: { volume?: string; project?: string; state?: readonly VolumeJobState[] } & PageRequest = {}): Promise<Page<J>> {
    if (filter.volume !== undefined) checkVolume(filter.volume);
    if (filter.project !== undefined && !isProjectId(filter.project)) throw invalid(notProjectId(filter.project));
    return await this.transport.page<J>(`storage/${kind}`, {
      query: {
        volume: filter.volume,
        project: kind === 'imports' ? filter.project : undefined,
        state: filter.state?.length ? [...filter.state] : undefined,
        offset: filter.offset,
        limit: filter.limit,
      },
      signal: filter.signal,
      credentials: filter.credentials,
    });
  }

  private async submit<J>(kind: VolumeJobKind, item: unknown, options: Call, copyOnly?: boolean): Promise<J> {
    const body = (await this.transport.request<J>('POST', `storage/${kind}`, { ...options, body: item, query: { copy_only: copyOnlyParam(copyOnly) } })).body;
    return jobAnswer<J>(body, true);
  }

  private async job<J>(kind: VolumeJobKind, id: string, options: Call): Promise<J> {
    checkJobId(id);
    return jobAnswer<J>((await this.transport.get<J>(`storage/${kind}/${id}`, options)).body, false);
  }

  private async bulk<J>(kind: VolumeJobKind, call: 'create' | 'get', body: unknown, count: number, options: Call, copyOnly?: boolean, reads = false): Promise<BulkJobItem<J>[]> {
    if (count === 0) return [];
    const answer = (await this.transport.request<{ items?: unknown }>('POST', `bulk/storage/${kind}/${call}`, { ...options, body, idempotent: reads, query: { copy_only: copyOnlyParam(copyOnly) } })).body;
    if (!answer || !Array.isArray(answer.items) || answer.items.length !== count) {
      throw new ApiError({ kind: 'malformed', message: l10n.t('the bulk answer does not have one entry per item'), maybeDelivered: !reads });
    }
    return (answer.items as unknown[]).map((entry): BulkJobItem<J> => {
      const resource = entry && typeof entry === 'object' ? (entry as { resource?: unknown }).resource : undefined;
      if (resource && typeof resource === 'object' && typeof (resource as { id?: unknown }).id === 'string') return { job: resource as J };
      const { error } = readableItem({ error: entry && typeof entry === 'object' ? (entry as { error?: unknown }).error : undefined });
      return { error: { ...error, message: error?.message ?? '' } };
    });
  }
}

/** The `continuation_token` of a listing's `next` link (`links: [{next: url}]`, or `{rel: 'next', href}`). */
function continuationOf(links: unknown): string | undefined {
  if (!Array.isArray(links)) return undefined;
  for (const link of links as unknown[]) {
    if (!link || typeof link !== 'object') continue;
    const l = link as { next?: unknown; rel?: unknown; href?: unknown };
    const url = typeof l.next === 'string' ? l.next : l.rel === 'next' && typeof l.href === 'string' ? l.href : undefined;
    if (url === undefined) continue;
    try {
      return new URL(url).searchParams.get('continuation_token') ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const copyOnlyParam = (copyOnly: boolean | undefined): string | undefined => (copyOnly === undefined ? undefined : String(copyOnly));

function checkVolume(id: string): void {
  if (!isVolumeId(id)) throw invalid(notVolumeId(id));
}

function checkJobId(id: string): void {
  if (!JOB_ID.test(id)) throw invalid(l10n.t('"{0}" is not an import or export job ID.', id));
}

function checkMany<T>(items: readonly T[]): readonly T[] {
  if (items.length > MAX_VOLUME_BULK) throw invalid(l10n.t('At most {0} items per bulk request ({1} given).', MAX_VOLUME_BULK, items.length));
  return items;
}

function checkImport(item: ImportRequest): ImportRequest {
  checkVolume(item.source.volume);
  if (item.source.location === '') throw invalid(l10n.t('Give the location of an object or a prefix on the volume.'));
  const { project, parent } = item.destination;
  if ((project === undefined) === (parent === undefined)) throw invalid(l10n.t('An import goes to a project or to a folder, one of them.'));
  if (project !== undefined && !isProjectId(project)) throw invalid(notProjectId(project));
  if (parent !== undefined && !isFileId(parent)) throw invalid(notFolderId(parent));
  if (item.overwrite && item.autorename) throw invalid(l10n.t('An import either overwrites or renames what is in the way, not both.'));
  return item;
}

function checkExport(item: ExportRequest): ExportRequest {
  if (!isFileId(item.source.file)) throw invalid(notFileId(item.source.file));
  checkVolume(item.destination.volume);
  const { location } = item.destination;
  if (location === '' || location.endsWith('/')) throw invalid(l10n.t('"{0}" is not a location for one object: it must name the object, not end with "/".', location));
  return item;
}

function jobAnswer<J>(body: unknown, write: boolean): J {
  if (!body || typeof body !== 'object' || typeof (body as { id?: unknown }).id !== 'string') {
    throw new ApiError({ kind: 'malformed', message: l10n.t('the answer is not an import or export job'), maybeDelivered: write });
  }
  return body as J;
}

function malformed(message: string): ApiError {
  return new ApiError({ kind: 'malformed', message });
}

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}
