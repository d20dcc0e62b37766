/**
 * Imports from and exports to volumes (platform-api.md §13.2, §13.3): POST /v2/storage/imports, POST /v2/storage/exports
 * [?copy_only=], their bulk forms (POST /v2/bulk/storage/{imports,exports}/create, at most 100 items), a job
 * (GET /v2/storage/{imports,exports}/{id}), several (POST /v2/bulk/storage/{imports,exports}/get) and the caller's
 * jobs (GET /v2/storage/imports?volume&project&state, GET /v2/storage/exports?volume&state).
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - a submit answers 201 with the job (PENDING); a bulk submit answers 200 with one `{resource}` or `{error}` per item in
 *   request order; jobs advance lazily on every request, as the copy jobs do, on the copy's step time: PENDING for one
 *   step, RUNNING (`started_on`) for ceil(objects / 25) steps, then COMPLETED or FAILED (`finished_on`), the work done
 *   at that moment, all of it or nothing;
 * - job IDs are 32 letters and digits; lists are the caller's jobs, newest first, `limit` default 50; `state` may be
 *   repeated (OR); an unknown job is 404/9008;
 * - refused at submit (HTTP, nothing made): an item that is not an object, no `source.volume` or `source.location`,
 *   both or neither of `destination.project`/`parent`, flags that are not booleans, `overwrite` with `autorename`:
 *   400/9011; volume unknown 404/9007 (inactive 400/9001, 400/9002); project unknown 404/9012; parent unknown 404/5026,
 *   not a folder 400/5022; no write permission where the import goes, or on the file an export without copy_only
 *   turns into a link: 403/90002; a name the platform refuses 400/90000; an export of a folder 400/90000, of a public
 *   file or one on a volume already 403/9006, to a read-only volume 400/9026, of an unknown file 404/9009, to a location
 *   that is empty or ends with '/' 400/9011; export `properties` outside S3's values 400/9032 (`sse_algorithm`), 9024
 *   (`aws_storage_class`), 9022 (`aws_canned_acl`); `properties` default to `{sse_algorithm: "AES256"}`;
 * - FAILED at the end: a location with nothing there 404/9105; a name taken without `overwrite` or `autorename` (a file
 *   anywhere in a folder import) 409/9108, checked before anything is made; an export onto an object without
 *   `overwrite` 409/9107; a file or a destination gone meanwhile 404/9009 or 404/5026;
 * - imported files are links (`storage: {type: VOLUME, volume, location}`); `autorename` names `_1_<name>`, `_2_<name>`;
 *   `overwrite` deletes the file in the way (a new ID); a folder import with `preserve_folder_structure` (the default)
 *   makes one folder named after the prefix's last segment (or `name`), merged into a folder of that name, its
 *   sub-prefixes as subfolders, `result` that folder; without it the files land flat, `result` the destination folder;
 * - an export COMPLETED puts the object at `location` (its size the file's) and, without `copy_only`, makes the file a
 *   link to it (it cannot be exported again); `result` is the file record.
 */
import { ApiError, badRequest, errorBody, type ErrorBody } from './errors';
import { type Ctx, type Result, boolParam, listResult, objectBody, one, paging } from './common';
import type { ExportRec, FileRec, ImportRec, Store, VolumeJobState, VolumeObject } from './data';
import { fileRecord } from './files';
import { autoName, checkWrite, nameProblem, sibling } from './fileRules';
import { objectsOf, putObject, volumeOrThrow } from './volumes';
import { PUBLIC_PROJECT } from './appSeeds';
import { Prng, isoZ, seedOf } from './prng';

export const MAX_VOLUME_ITEMS = 100;
const STATES: readonly VolumeJobState[] = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'];
const SSE = ['AES256', 'aws:kms'];
const STORAGE_CLASSES = ['STANDARD', 'REDUCED_REDUNDANCY', 'STANDARD_IA', 'ONEZONE_IA', 'INTELLIGENT_TIERING', 'GLACIER', 'DEEP_ARCHIVE'];
const ACLS = ['private', 'public-read', 'public-read-write', 'authenticated-read', 'aws-exec-read', 'bucket-owner-read', 'bucket-owner-full-control'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

type Kind = 'imports' | 'exports';
type Job = ImportRec | ExportRec;
const syntax = (why: string): ApiError => new ApiError(400, 9011, `Invalid request syntax: ${why}`);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** A job that failed: the state and its error. */
class Failure {
  constructor(readonly error: ErrorBody) {}
}
const fail = (status: number, code: number, message: string): Failure => new Failure(errorBody(status, code, message));

function flag(item: Record<string, unknown>, key: string, dflt: boolean): boolean {
  const v = item[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw syntax(`'${key}' must be true or false.`);
  return v;
}

export class VolumeJobEngine {
  private readonly rng: Prng;
  /** the project each import goes to (its parent's at submission), for the `project` filter */
  private readonly importProject = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly stepMs: () => number,
    seed: number,
  ) {
    this.rng = new Prng(seedOf(`volume-jobs:${seed}`));
  }

  private newId(): string {
    let id = '';
    while (id.length < 32) id += ALNUM[Math.floor(this.rng.next() * ALNUM.length)];
    return id;
  }

  // ---- submit

  submitImport(ctx: Ctx): Result {
    return { status: 201, body: this.record(ctx.base, 'imports', this.makeImport(ctx, objectBody(ctx, "with 'source' and 'destination'"))) };
  }

  submitExport(ctx: Ctx): Result {
    const copyOnly = boolParam(ctx.query, 'copy_only', false);
    return { status: 201, body: this.record(ctx.base, 'exports', this.makeExport(ctx, objectBody(ctx, "with 'source' and 'destination'"), copyOnly)) };
  }

  bulkSubmit(ctx: Ctx, kind: Kind): Result {
    const copyOnly = kind === 'exports' ? boolParam(ctx.query, 'copy_only', false) : false;
    const items = this.listOf(ctx, 'items');
    const results = items.map((item) => {
      try {
        if (!isObj(item)) throw syntax('every item must be an object.');
        const job = kind === 'imports' ? this.makeImport(ctx, item) : this.makeExport(ctx, item, copyOnly);
        return { resource: this.record(ctx.base, kind, job) };
      } catch (e) {
        if (e instanceof ApiError) return { error: e.body() };
        throw e;
      }
    });
    return { status: 200, body: { items: results } };
  }

  private listOf(ctx: Ctx, key: string): unknown[] {
    const list = objectBody(ctx, `with '${key}', a list`)[key];
    if (!Array.isArray(list)) throw syntax(`give '${key}', a list.`);
    if (list.length === 0) throw syntax(`'${key}' is empty: give at least one.`);
    if (list.length > MAX_VOLUME_ITEMS) throw badRequest(`At most ${MAX_VOLUME_ITEMS} items per bulk call (${list.length} given): split them into several calls.`);
    return list;
  }

  private makeImport(ctx: Ctx, item: Record<string, unknown>): ImportRec {
    const { store } = ctx;
    const source = item.source;
    const dest = item.destination;
    if (!isObj(source) || typeof source.volume !== 'string' || source.volume === '' || typeof source.location !== 'string' || source.location === '') {
      throw syntax("give 'source' with 'volume' and 'location'.");
    }
    if (!isObj(dest) || given(dest.project) === given(dest.parent)) throw syntax("give 'destination' with one of 'project' and 'parent'.");
    const overwrite = flag(item, 'overwrite', false);
    const autorename = flag(item, 'autorename', false);
    const preserve = flag(item, 'preserve_folder_structure', true);
    if (overwrite && autorename) throw syntax("give 'overwrite' or 'autorename', not both.");
    volumeOrThrow(store, source.volume, 'read');
    const folder = this.destination(dest);
    checkWrite(store, folder.project, 'import files');
    if (given(dest.name)) {
      const problem = nameProblem(dest.name, source.location.endsWith('/') ? 'folder' : 'file');
      if (problem) throw badRequest(problem);
    }
    if (!given(dest.name) && lastSegment(source.location) === '') throw new ApiError(400, 9018, 'Cannot infer file name and none given.');
    const job: ImportRec = {
      id: this.newId(), state: 'PENDING', source: { volume: source.volume, location: source.location },
      destination: { ...(given(dest.project) ? { project: dest.project as string } : { parent: dest.parent as string }), ...(given(dest.name) ? { name: dest.name as string } : {}) },
      overwrite, autorename, preserve_folder_structure: preserve, owner: ctx.user, submittedAt: this.now(),
    };
    store.imports.push(job);
    this.importProject.set(job.id, folder.project);
    return job;
  }

  /** The folder an import goes to (checked at submit and again at the end). */
  private destination(dest: Record<string, unknown>): FileRec {
    if (given(dest.project)) {
      const p = typeof dest.project === 'string' ? this.store.projectById.get(dest.project) : undefined;
      if (!p) throw new ApiError(404, 9012, `Requested project or member does not exist: '${String(dest.project)}'.`);
      return this.store.fileById.get(p.root_folder)!;
    }
    const f = typeof dest.parent === 'string' ? this.store.fileById.get(dest.parent) : undefined;
    if (!f) throw new ApiError(404, 5026, `Destination folder is not found: '${String(dest.parent)}'.`);
    if (f.type !== 'folder') throw new ApiError(400, 5022, 'The parent specified is not a folder.');
    return f;
  }

  private makeExport(ctx: Ctx, item: Record<string, unknown>, copyOnly: boolean): ExportRec {
    const { store } = ctx;
    const source = item.source;
    const dest = item.destination;
    if (!isObj(source) || typeof source.file !== 'string' || source.file === '') throw syntax("give 'source' with 'file'.");
    if (!isObj(dest) || typeof dest.volume !== 'string' || dest.volume === '' || typeof dest.location !== 'string') throw syntax("give 'destination' with 'volume' and 'location'.");
    if (dest.location === '' || dest.location.endsWith('/')) throw syntax("'location' names an object: not empty, not ending with '/'.");
    const overwrite = flag(item, 'overwrite', false);
    const properties = this.properties(item.properties);
    const file = store.fileById.get(source.file);
    if (!file) throw new ApiError(404, 9009, `Requested file does not exist: '${source.file}'.`);
    const volume = volumeOrThrow(store, dest.volume, 'write');
    if (file.type === 'folder') throw badRequest(`'${file.name}' is a folder: export the files in it.`);
    if (file.project === PUBLIC_PROJECT || file.storage) {
      throw new ApiError(403, 9006, `Requested file cannot be exported: '${file.name}' is ${file.storage ? 'on a volume already' : 'a public file'}.`);
    }
    if (volume.access_mode !== 'RW') throw new ApiError(400, 9026, `The volume is not configured for writing access (access mode of '${volume.id}' is ${volume.access_mode}, not RW).`);
    if (!copyOnly) checkWrite(store, file.project, 'turn files into links to a volume (export without copy_only)');
    const job: ExportRec = {
      id: this.newId(), state: 'PENDING', source: { file: file.id }, destination: { volume: volume.id, location: dest.location },
      overwrite, copy_only: copyOnly, properties, owner: ctx.user, submittedAt: this.now(),
    };
    store.exports.push(job);
    return job;
  }

  private properties(given: unknown): Record<string, unknown> {
    if (given === undefined || given === null) return { sse_algorithm: 'AES256' };
    if (!isObj(given)) throw syntax("'properties' must be an object.");
    const check = (key: string, allowed: string[], code: number) => {
      const v = given[key];
      if (v !== undefined && v !== null && !allowed.includes(v as string)) throw new ApiError(400, code, `Invalid '${key}' ${JSON.stringify(v)}: use one of ${allowed.join(', ')}.`);
    };
    check('sse_algorithm', SSE, 9032);
    check('aws_storage_class', STORAGE_CLASSES, 9024);
    check('aws_canned_acl', ACLS, 9022);
    return { sse_algorithm: 'AES256', ...given };
  }

  // ---- read

  record(base: string, kind: Kind, job: Job): Record<string, unknown> {
    const rest: Partial<Record<string, unknown>> = { ...job };
    delete rest.owner;
    delete rest.submittedAt;
    if (kind === 'exports') delete rest.copy_only;
    return { href: `${base}/storage/${kind}/${job.id}`, ...rest };
  }

  private jobs(kind: Kind): Job[] {
    return kind === 'imports' ? this.store.imports : this.store.exports;
  }

  private mine(ctx: Ctx, kind: Kind, id: string): Job | undefined {
    return this.jobs(kind).find((j) => j.id === id && j.owner === ctx.user);
  }

  getJob(ctx: Ctx, kind: Kind, id: string): Result {
    this.advance(ctx.base);
    const job = this.mine(ctx, kind, id);
    if (!job) throw new ApiError(404, 9008, `Requested job does not exist: '${id}'.`);
    return { status: 200, body: this.record(ctx.base, kind, job) };
  }

  bulkGet(ctx: Ctx, kind: Kind): Result {
    this.advance(ctx.base);
    const key = kind === 'imports' ? 'import_ids' : 'export_ids';
    const items = this.listOf(ctx, key).map((id) => {
      const job = typeof id === 'string' ? this.mine(ctx, kind, id) : undefined;
      return job ? { resource: this.record(ctx.base, kind, job) } : { error: errorBody(404, 9008, `Requested job does not exist: '${String(id)}'.`) };
    });
    return { status: 200, body: { items } };
  }

  list(ctx: Ctx, kind: Kind): Result {
    this.advance(ctx.base);
    const q = ctx.query;
    const page = paging(q, 50);
    const volume = one(q, 'volume');
    const project = kind === 'imports' ? one(q, 'project') : null;
    const states = q.getAll('state');
    const bad = states.find((s) => !(STATES as readonly string[]).includes(s));
    if (bad !== undefined) throw syntax(`'state' is one of ${STATES.join(', ')} ('${bad}' given).`);
    const matches = this.jobs(kind).filter((j) =>
      j.owner === ctx.user
      && (states.length === 0 || states.includes(j.state))
      && (volume === null || ('volume' in j.source ? j.source.volume : (j as ExportRec).destination.volume) === volume)
      && (project === null || this.importProject.get(j.id) === project));
    return listResult(ctx, [...matches].reverse(), page, (j: Job) => this.record(ctx.base, kind, j));
  }

  // ---- lifecycle

  /** Moves every job along: PENDING one step, RUNNING ceil(objects / 25) steps, then the work and the end. */
  advance(base: string): void {
    const now = this.now();
    const step = this.stepMs();
    for (const kind of ['imports', 'exports'] as const) {
      for (const job of this.jobs(kind)) {
        if (job.state === 'COMPLETED' || job.state === 'FAILED') continue;
        const runFrom = job.submittedAt + step;
        if (job.state === 'PENDING' && now >= runFrom) {
          job.state = 'RUNNING';
          job.started_on = isoZ(runFrom);
        }
        const endAt = runFrom + Math.max(1, Math.ceil(this.size(job) / 25)) * step;
        if (job.state === 'RUNNING' && now >= endAt) this.end(base, kind, job, endAt);
      }
    }
  }

  private size(job: Job): number {
    if (!('volume' in job.source) || !job.source.location.endsWith('/')) return 1;
    const prefix = job.source.location;
    let n = 0;
    for (const o of objectsOf(this.store, job.source.volume).values()) if (o.location.startsWith(prefix)) n++;
    return n;
  }

  private end(base: string, kind: Kind, job: Job, at: number): void {
    try {
      job.result = kind === 'imports' ? this.carryImport(base, job as ImportRec, at) : this.carryExport(base, job as ExportRec, at);
      job.state = 'COMPLETED';
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      job.error = e.error;
      job.state = 'FAILED';
    }
    job.finished_on = isoZ(at);
  }

  private carryImport(base: string, job: ImportRec, at: number): Record<string, unknown> {
    const store = this.store;
    let folder: FileRec;
    try {
      folder = this.destination(job.destination);
    } catch (e) {
      if (e instanceof ApiError) throw new Failure(e.body());
      throw e;
    }
    const { volume, location } = job.source;
    const objects = objectsOf(store, volume);
    const clash = (name: string) => fail(409, 9108, `Requested file already exists: '${name}'.`);
    if (!location.endsWith('/')) {
      const o = objects.get(location);
      if (!o) throw fail(404, 9105, `Location on volume not found: '${location}'.`);
      const name = job.destination.name ?? lastSegment(location);
      const taken = sibling(store, folder.id, name);
      if (taken && !job.overwrite && !job.autorename) throw clash(name);
      if (taken && job.overwrite && taken.type === 'folder') throw clash(name);
      return fileRecord(base, this.link(folder, name, volume, o, job, at));
    }
    const under = [...objects.values()].filter((o) => o.location.startsWith(location)).sort((a, b) => (a.location < b.location ? -1 : 1));
    if (under.length === 0) throw fail(404, 9105, `Location on volume not found: '${location}'.`);
    const plan = under.map((o) => {
      const path = o.location.slice(location.length).split('/');
      return { o, folders: job.preserve_folder_structure ? path.slice(0, -1) : [], name: path[path.length - 1] };
    });
    if (!job.preserve_folder_structure) {
      this.checkClashes(folder, plan.map((p) => p.name), job, clash);
      for (const p of plan) this.link(folder, p.name, volume, p.o, job, at);
      return fileRecord(base, folder);
    }
    const top = job.destination.name ?? lastSegment(location);
    const existing = sibling(store, folder.id, top);
    if (existing && existing.type === 'file' && !job.autorename) throw clash(top);
    if (!job.overwrite && !job.autorename && existing?.type === 'folder') {
      for (const p of plan) {
        const inside = this.walk(existing, p.folders, false);
        if (inside && sibling(store, inside.id, p.name)) throw clash(p.name);
      }
    }
    const root = existing?.type === 'folder' ? existing : this.folder(folder, existing ? autoName(store, folder.id, top) : top, at);
    for (const p of plan) this.link(this.walk(root, p.folders, true, at)!, p.name, volume, p.o, job, at);
    return fileRecord(base, root);
  }

  /** Without overwrite or autorename, a flat import whose names are taken (or repeat) fails before anything is made. */
  private checkClashes(folder: FileRec, names: string[], job: ImportRec, clash: (n: string) => Failure): void {
    if (job.overwrite || job.autorename) return;
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n) || sibling(this.store, folder.id, n)) throw clash(n);
      seen.add(n);
    }
  }

  /** The folder at `path` below `root`: found, or (with `make`) made. */
  private walk(root: FileRec, path: string[], make: boolean, at = this.now()): FileRec | undefined {
    let cur: FileRec | undefined = root;
    for (const name of path) {
      const next: FileRec | undefined = sibling(this.store, cur.id, name);
      cur = next?.type === 'folder' ? next : make ? this.folder(cur, next ? autoName(this.store, cur.id, name) : name, at) : undefined;
      if (!cur) return undefined;
    }
    return cur;
  }

  private folder(parent: FileRec, name: string, at: number): FileRec {
    const stamp = isoZ(at);
    return this.store.addFile({ id: this.store.newFileId(this.rng), name, project: parent.project, parent: parent.id, type: 'folder', created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {} });
  }

  /** A file that links to an object: a name taken is replaced (overwrite) or renamed (autorename). */
  private link(folder: FileRec, name: string, volume: string, o: VolumeObject, job: ImportRec, at: number): FileRec {
    const taken = sibling(this.store, folder.id, name);
    if (taken && job.overwrite && taken.type === 'file') this.store.removeFile(taken);
    const final = taken && !(job.overwrite && taken.type === 'file') ? autoName(this.store, folder.id, name) : name;
    const stamp = isoZ(at);
    return this.store.addFile({
      id: this.store.newFileId(this.rng), name: final, size: o.size, project: folder.project, parent: folder.id, type: 'file',
      created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {}, storage: { type: 'VOLUME', volume, location: o.location },
    });
  }

  private carryExport(base: string, job: ExportRec, at: number): Record<string, unknown> {
    const file = this.store.fileById.get(job.source.file);
    if (!file) throw fail(404, 9009, `Requested file does not exist: '${job.source.file}'.`);
    if (file.storage) throw fail(403, 9006, `Requested file cannot be exported: '${file.name}' is on a volume already.`);
    const { volume, location } = job.destination;
    if (objectsOf(this.store, volume).has(location) && !job.overwrite) throw fail(409, 9107, `Location on volume already contains a file: '${location}'.`);
    putObject(this.store, volume, location, file.size ?? 0, at);
    if (!job.copy_only) {
      file.storage = { type: 'VOLUME', volume, location };
      file.modified_on = isoZ(at);
    }
    return fileRecord(base, file);
  }
}

/** `runs/lane1/` → `lane1`; `a/b.txt` → `b.txt`. */
function lastSegment(location: string): string {
  const parts = location.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}
