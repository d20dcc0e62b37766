/**
 * Volumes (platform-api.md §13.1): GET /v2/storage/volumes, GET …/volumes/{owner}/{name}, its objects one level at a time
 * (GET …/list?prefix=&limit=&continuation_token=&fields=) and one object (GET …/object?location=). The seeded volumes
 * and their objects are made here too; imports and exports are volumeJobs.ts's.
 *
 * Seeded (drawn from a PRNG of their own: the rest of the data is the same with or without them):
 * - `rfranklin/sequencing_runs`: S3, read-only; 320 objects under `runs/2026-10-14/` (paging matters), exactly 30 under
 *   `runs/2026-11-02/lane1/`, 12 under `…/lane2/`, a reference under `references/GRCh38/`, a BAM with its `.bai`
 *   under `aligned/`, two objects at the top;
 * - `rfranklin/analysis_results`: GCS, read-write, prefix `platform/`; `exports/existing.vcf.gz` (an export onto it
 *   without overwrite fails) and a few reports under `qc/2026/`;
 * - `rfranklin/old_archive`: S3, read-write, inactive.
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - a list's entries are its objects and its prefixes together, sorted by key, `limit` of them a page (default 50, at
 *   most 100); `continuation_token` is opaque (the last key of the page, encoded); a token that does not decode is
 *   400/9011; a prefix sent without its trailing `/` means the same; a prefix with nothing under it lists nothing;
 * - an object's `metadata` (only with `fields=_all` or named) is the provider's: S3 `{size, etag, last_modified,
 *   content_type, storage_class}` (size a number), GCS `{bucket, name, contentType, etag, md5Hash, size, updated,
 *   timeCreated, storageClass}` (size a text, as the GCS API writes it);
 * - volume records carry no secret (`credentials` has the key's ID or the account's e-mail only); the volume list's
 *   items without `fields` are `href, id, name`;
 * - an inactive volume cannot be browsed, imported from or exported to: 400/9001 (reading) or 400/9002 (writing).
 */
import { createHash } from 'crypto';
import { ApiError } from './errors';
import { type Ctx, type Result, limitParam, listResult, one, paging } from './common';
import { applyFields } from './fields';
import type { Store, VolumeObject, VolumeRec } from './data';
import { Prng, isoZ, seedOf } from './prng';

const DAY = 86_400_000;
const OBJECT_DEFAULTS = ['href', 'location', 'volume', 'type'];

export const volumeMissing = (id: string): ApiError => new ApiError(404, 9007, `Requested volume does not exist: '${id}'.`);

/** The volume, or 404/9007; an inactive one refused for `use` (400/9001 reading, 400/9002 writing). */
export function volumeOrThrow(store: Store, id: string, use?: 'read' | 'write'): VolumeRec {
  const v = store.volumes.find((x) => x.id === id);
  if (!v) throw volumeMissing(id);
  if (use && !v.active) {
    throw new ApiError(400, use === 'read' ? 9001 : 9002, `Volume '${id}' is not active: it cannot be ${use === 'read' ? 'read from' : 'written to'} until it is activated again.`);
  }
  return v;
}

export function objectsOf(store: Store, volumeId: string): Map<string, VolumeObject> {
  let objects = store.volumeObjects.get(volumeId);
  if (!objects) {
    objects = new Map();
    store.volumeObjects.set(volumeId, objects);
  }
  return objects;
}

export function volumeRecord(base: string, v: VolumeRec): Record<string, unknown> {
  return { href: `${base}/storage/volumes/${v.id}`, ...v };
}

function objectRecord(base: string, v: VolumeRec, o: VolumeObject): Record<string, unknown> {
  const md5 = createHash('md5').update(`${v.id}:${o.location}:${o.size}`).digest();
  const metadata = v.service.type === 'S3'
    ? { size: o.size, etag: o.etag, last_modified: isoZ(o.modified), content_type: o.contentType, storage_class: 'STANDARD' }
    : {
      bucket: v.service.bucket, name: v.service.prefix + o.location, contentType: o.contentType, etag: o.etag, md5Hash: md5.toString('base64'),
      size: String(o.size), updated: isoZ(o.modified), timeCreated: isoZ(o.modified), storageClass: 'STANDARD',
    };
  return {
    href: `${base}/storage/volumes/${v.id}/object?location=${encodeURIComponent(o.location)}`,
    location: o.location, volume: v.id, type: v.service.type.toLowerCase(), metadata,
  };
}

export function listVolumes(ctx: Ctx): Result {
  const fields = one(ctx.query, 'fields');
  return listResult(ctx, ctx.store.volumes, paging(ctx.query), (v: VolumeRec) => applyFields(volumeRecord(ctx.base, v), fields, ['href', 'id', 'name']));
}

export function getVolume(ctx: Ctx, id: string): Result {
  return { status: 200, body: applyFields(volumeRecord(ctx.base, volumeOrThrow(ctx.store, id)), one(ctx.query, 'fields'), null) };
}

const badToken = (): ApiError => new ApiError(400, 9011, 'Invalid request syntax: the continuation_token is not one this listing gave.');

/** One level under `prefix`: the objects there and the sub-prefixes, paged by `continuation_token`. */
export function listObjects(ctx: Ctx, id: string): Result {
  const v = volumeOrThrow(ctx.store, id, 'read');
  const q = ctx.query;
  const raw = one(q, 'prefix') ?? '';
  const prefix = raw === '' || raw.endsWith('/') ? raw : `${raw}/`;
  const limit = limitParam(q, 50);
  const fields = one(q, 'fields');
  const token = one(q, 'continuation_token');
  let after = '';
  if (token !== null) {
    after = Buffer.from(token, 'base64url').toString('utf8');
    if (!after.startsWith(prefix) || Buffer.from(after, 'utf8').toString('base64url') !== token) throw badToken();
  }
  const entries = new Map<string, VolumeObject | null>();
  for (const o of objectsOf(ctx.store, v.id).values()) {
    if (!o.location.startsWith(prefix)) continue;
    const rest = o.location.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) entries.set(o.location, o);
    else entries.set(prefix + rest.slice(0, slash + 1), null);
  }
  const keys = [...entries.keys()].sort().filter((k) => k > after);
  const page = keys.slice(0, limit);
  const listUrl = (extra: Record<string, string>): string => {
    const u = new URLSearchParams(q);
    for (const [k, val] of Object.entries(extra)) u.set(k, val);
    return `${ctx.base}/storage/volumes/${v.id}/list?${u.toString()}`;
  };
  const items = page.flatMap((k) => {
    const o = entries.get(k);
    return o ? [applyFields(objectRecord(ctx.base, v, o), fields, OBJECT_DEFAULTS)] : [];
  });
  const prefixes = page.filter((k) => entries.get(k) === null).map((p) => ({ href: listUrl({ prefix: p }), prefix: p, volume: v.id }));
  const links = keys.length > limit ? [{ next: listUrl({ continuation_token: Buffer.from(page[page.length - 1], 'utf8').toString('base64url'), limit: String(limit) }) }] : [];
  return { status: 200, body: { href: listUrl({}), items, prefixes, links } };
}

export function getObject(ctx: Ctx, id: string): Result {
  const v = volumeOrThrow(ctx.store, id, 'read');
  const location = one(ctx.query, 'location');
  if (location === null || location === '') throw new ApiError(400, 9011, "Invalid request syntax: give 'location'.");
  const o = objectsOf(ctx.store, v.id).get(location);
  if (!o) throw new ApiError(404, 9105, `Location on volume not found: '${location}'.`);
  return { status: 200, body: applyFields(objectRecord(ctx.base, v, o), one(ctx.query, 'fields'), null) };
}

const CONTENT_TYPES: [RegExp, string][] = [[/\.(txt|tsv|csv|log)$/, 'text/plain'], [/\.html$/, 'text/html'], [/\.gz$/, 'application/gzip']];

export function contentTypeOf(location: string): string {
  return CONTENT_TYPES.find(([re]) => re.test(location))?.[1] ?? 'application/octet-stream';
}

/** Puts an object on a volume (an export, or the seeds). */
export function putObject(store: Store, volumeId: string, location: string, size: number, modified: number): VolumeObject {
  const o: VolumeObject = {
    location, size, modified, contentType: contentTypeOf(location),
    etag: `"${createHash('md5').update(`${volumeId}:${location}:${size}:${modified}`).digest('hex')}"`,
  };
  objectsOf(store, volumeId).set(location, o);
  return o;
}

/** The seeded volumes and their objects (see the header). */
export function addVolumes(store: Store, seed: number): void {
  const rng = new Prng(seedOf(`volumes:${seed}`));
  const now = store.startedAt;
  const volume = (name: string, description: string, access: 'RO' | 'RW', service: VolumeRec['service'], ageDays: number, active = true): VolumeRec => {
    const at = isoZ(now - ageDays * DAY);
    const v: VolumeRec = { id: `rfranklin/${name}`, name, description, access_mode: access, service, created_on: at, modified_on: at, active };
    store.volumes.push(v);
    return v;
  };
  const put = (v: VolumeRec, location: string, min: number, max: number, ageDays: number) => putObject(store, v.id, location, rng.int(min, max), now - ageDays * DAY - rng.int(0, 86_399) * 1000);
  const runs = volume('sequencing_runs', 'Raw reads from the sequencing core, as delivered.', 'RO',
    { type: 'S3', bucket: 'franklin-lab-sequencing', prefix: '', endpoint: 's3.amazonaws.com', credentials: { access_key_id: 'AKIAEMULATOR0000RUNS' } }, 300);
  put(runs, 'README.txt', 800, 4_000, 290);
  put(runs, 'samples.tsv', 5_000, 20_000, 40);
  for (let i = 1; i <= 160; i++) {
    for (const read of ['R1', 'R2']) put(runs, `runs/2026-10-14/S${String(i).padStart(3, '0')}_${read}.fastq.gz`, 2e8, 4e9, 37);
  }
  for (let i = 1; i <= 15; i++) {
    for (const read of ['R1', 'R2']) put(runs, `runs/2026-11-02/lane1/L1S${String(i).padStart(2, '0')}_${read}.fastq.gz`, 2e8, 4e9, 18);
  }
  for (let i = 1; i <= 6; i++) {
    for (const read of ['R1', 'R2']) put(runs, `runs/2026-11-02/lane2/L2S${String(i).padStart(2, '0')}_${read}.fastq.gz`, 2e8, 4e9, 18);
  }
  put(runs, 'references/GRCh38/GRCh38.fa', 3.1e9, 3.2e9, 280);
  put(runs, 'references/GRCh38/GRCh38.fa.fai', 1e5, 2e5, 280);
  put(runs, 'references/GRCh38/GRCh38.dict', 5e5, 6e5, 280);
  put(runs, 'aligned/sample_01.bam', 2e9, 9e9, 12);
  put(runs, 'aligned/sample_01.bam.bai', 1e6, 9e6, 12);
  const results = volume('analysis_results', 'Results shared with collaborators.', 'RW',
    { type: 'GCS', bucket: 'franklin-lab-results', prefix: 'platform/', root_url: 'https://www.googleapis.com/', credentials: { client_email: 'sb-export@franklin-lab.iam.gserviceaccount.com' } }, 200);
  put(results, 'exports/existing.vcf.gz', 1e6, 9e7, 20);
  for (let i = 1; i <= 5; i++) put(results, `qc/2026/report_${String(i).padStart(2, '0')}.html`, 1e4, 4e6, 30 + i);
  const archive = volume('old_archive', 'Archive of 2019 runs (credentials expired).', 'RW',
    { type: 'S3', bucket: 'franklin-lab-archive-2019', prefix: 'archive/', endpoint: 's3.amazonaws.com', credentials: { access_key_id: 'AKIAEMULATOR00ARCHIV' } }, 900, false);
  for (let i = 1; i <= 4; i++) put(archive, `2019/run_${i}.tar`, 1e9, 9e9, 800);
}
