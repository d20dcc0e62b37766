/**
 * The multipart upload API (platform-api.md §8): init, part URLs, part reports, complete, abort, upload info and the list of
 * the caller's uploads. Part bodies go to the storage origin (storage.ts) and are kept on disk, in a temporary folder
 * removed on close; a completed upload's file serves those bytes back through `download_info`.
 *
 * Picks where the documentation is silent ([infer]; clients must not depend on them):
 * - the server answers its own `part_size` when the one asked for is missing, outside 5 MiB–5 GiB or would make more
 *   than 10,000 parts (then `max(32 MiB, ceil(size / 10,000))` rounded up to 1 MiB); when it is not a whole number of
 *   MiB (rounded up); for a file of 1 GiB or more (at least 64 MiB); and always when `settings.partSize` is set;
 * - a name taken in the destination without `?overwrite=true`: 409 with code 10223 (a folder: 10224), at init, and
 *   again at complete if the name was taken meanwhile; with overwrite, the file is replaced (a new ID) at complete;
 * - a name refused: empty, `.` or `..`, with `/` or a control character, longer than 255 bytes: 400, code 90000;
 * - complete checks every part 1..N was reported with the ETag the storage gave it and has the right size (all but
 *   the last exactly `part_size`); otherwise 400, code 90000, and nothing is created; once complete, the upload is
 *   gone (404 for info, part URLs, complete and abort);
 * - reporting the same part again replaces the earlier report; a PUT of the same part again replaces its bytes and
 *   gets a new ETag (storage.ts), so a report of the earlier PUT's ETag is caught at complete.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiError, badRequest } from './errors';
import { type Ctx, type Result, listResult, one, paging } from './common';
import type { Blob } from './content';
import type { FileRec, Store } from './data';
import { fileRecord } from './files';
import { isoZ } from './prng';
import type { PartWriter } from './storage';

const MiB = 1024 * 1024;
const WRITE_CALL_BYTES = 32 * 1024;
const MIN_PART = 5 * MiB;
const MAX_PART = 5 * 1024 * MiB;
const MAX_PARTS = 10_000;
const MAX_SIZE = 5 * 1024 * 1024 * MiB;

export interface UploadSettings {
  /** The part size the server answers whatever was asked (to prove a client obeys it). */
  partSize?: number;
}

interface StoredPart {
  etag: string;
  size: number;
  file: string;
}

export interface UploadRec {
  upload_id: string;
  project: string;
  parent: string;
  name: string;
  size?: number;
  part_size: number;
  md5: string | null;
  initiated: string;
  overwrite: boolean;
  owner: string;
  /** bytes the storage received whole, by part number */
  stored: Map<number, StoredPart>;
  /** ETags reported, by part number */
  reported: Map<number, string>;
}

/** Every init, complete and abort that reached processing, for tests. */
export interface ReceivedUploadCall {
  call: 'init' | 'complete' | 'abort';
  uploadId?: string;
  name?: string;
  status: number;
  /** the file a complete created */
  fileId?: string;
  /** processed, then the connection dropped before any answer */
  responseLost?: boolean;
}

export class UploadEngine {
  readonly settings: UploadSettings = {};
  readonly pending = new Map<string, UploadRec>();
  readonly calls: ReceivedUploadCall[] = [];
  /** the bytes of completed uploads, by file ID */
  private readonly files = new Map<string, { parts: StoredPart[]; size: number; etag: string }>();
  /** Made with the first part (an emulator that never takes an upload leaves no folder behind). */
  private folder: string | undefined;
  private loseComplete = 0;
  private partSeq = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly partUrl: (uploadId: string, partNumber: number) => { url: string; expires: number },
  ) {}

  /** The next complete is processed, then its connection dropped before any answer. */
  loseNextCompleteResponse(): void {
    this.loseComplete++;
  }

  /** The bytes of an uploaded file, or undefined when the file was not uploaded here. */
  blob(fileId: string): Blob | undefined {
    const file = this.files.get(fileId);
    if (!file) return undefined;
    return {
      size: file.size,
      etag: file.etag,
      contentType: 'application/octet-stream',
      async *read(start, end) {
        let offset = 0;
        for (const part of file.parts) {
          const [from, to] = [Math.max(start, offset), Math.min(end, offset + part.size - 1)];
          if (from <= to) yield* fs.createReadStream(part.file, { start: from - offset, end: to - offset, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
          offset += part.size;
        }
      },
    };
  }

  private get dir(): string {
    this.folder ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sb-emulator-uploads-'));
    return this.folder;
  }

  /** Bytes of part bodies kept on disk (pending uploads and uploaded files). */
  bytesOnDisk(): number {
    if (!this.folder) return 0;
    let total = 0;
    for (const name of fs.readdirSync(this.dir, { recursive: true }) as string[]) {
      const stat = fs.statSync(path.join(this.dir, name));
      if (stat.isFile()) total += stat.size;
    }
    return total;
  }

  close(): void {
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true });
  }

  /** Where the storage writes the body of a part PUT (storage.ts). */
  partWriter(uploadId: string, partNumber: number): PartWriter | undefined {
    const upload = this.pending.get(uploadId);
    if (!upload || !Number.isInteger(partNumber) || partNumber < 1 || partNumber > this.partCount(upload)) return undefined;
    const file = path.join(this.dir, uploadId, `${partNumber}.${++this.partSeq}`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const out = fs.openSync(file, 'w');
    const etag = createHash('md5').update(`${uploadId}:${partNumber}:${this.partSeq}`).digest('hex');
    let size = 0;
    // A body arrives in chunks of 64 KiB at most, each written as it comes, in this thread, 32 KiB a call (the
    // official client's size of a write). Synchronous writes of a MiB cost it
    // 0.6–2.2 s of kernel time per GiB from one run to the next, noise that fell on whichever side was being served;
    // one call a chunk through the thread pool costs its hand-overs.
    const close = () => fs.closeSync(out);
    return {
      write: async (chunk) => {
        size += chunk.length;
        for (let wrote = 0; wrote < chunk.length; ) wrote += fs.writeSync(out, chunk, wrote, Math.min(WRITE_CALL_BYTES, chunk.length - wrote));
      },
      finish: async () => {
        close();
        const current = this.pending.get(uploadId);
        if (!current) {
          fs.rmSync(file, { force: true });
          return etag;
        }
        const previous = current.stored.get(partNumber);
        if (previous) fs.rmSync(previous.file, { force: true });
        current.stored.set(partNumber, { etag, size, file });
        return etag;
      },
      discard: async () => {
        close();
        fs.rmSync(file, { force: true });
      },
    };
  }

  init(ctx: Ctx): Result {
    const call: ReceivedUploadCall = { call: 'init', status: 0 };
    this.calls.push(call);
    try {
      const result = this.initUpload(ctx, call);
      call.status = result.status;
      return result;
    } catch (e) {
      if (e instanceof ApiError) call.status = e.status;
      throw e;
    }
  }

  private initUpload(ctx: Ctx, call: ReceivedUploadCall): Result {
    const body = parseBody(ctx.rawBody);
    const overwrite = /^true$/i.test(one(ctx.query, 'overwrite') ?? '');
    const { project, parent } = this.destination(body.project, body.parent);
    const name = checkName(body.name);
    call.name = name;
    const size = body.size;
    if (size !== undefined && (!Number.isInteger(size) || (size as number) < 0 || (size as number) > MAX_SIZE)) {
      throw badRequest(`Invalid 'size': give the file's size in bytes, at most ${MAX_SIZE} (5 TiB).`);
    }
    if (body.part_size !== undefined && !Number.isInteger(body.part_size)) throw badRequest("Invalid 'part_size': give it in bytes.");
    this.checkClash(parent, name, overwrite);
    const upload: UploadRec = {
      upload_id: randomBytes(24).toString('base64url'),
      project,
      parent,
      name,
      size: size as number | undefined,
      part_size: this.partSize(size as number | undefined, body.part_size as number | undefined),
      md5: typeof body.md5 === 'string' ? body.md5 : null,
      initiated: isoZ(this.now()),
      overwrite,
      owner: ctx.user,
      stored: new Map(),
      reported: new Map(),
    };
    this.pending.set(upload.upload_id, upload);
    call.uploadId = upload.upload_id;
    return { status: 200, body: uploadRecord(upload, false) };
  }

  partUrlOf(ctx: Ctx, id: string, part: string): Result {
    const upload = this.upload(ctx, id);
    const n = Number(part);
    if (!/^\d+$/.test(part) || n < 1 || n > this.partCount(upload)) {
      throw badRequest(`Invalid part number '${part}': this upload has parts 1 to ${this.partCount(upload)}.`);
    }
    const { url, expires } = this.partUrl(upload.upload_id, n);
    return {
      status: 200,
      body: { method: 'PUT', url, expires: isoZ(expires), headers: {}, report: { headers: ['ETag'], body: {} }, success_codes: [200] },
    };
  }

  reportPart(ctx: Ctx, id: string): Result {
    const upload = this.upload(ctx, id);
    const body = parseBody(ctx.rawBody);
    const n = body.part_number;
    if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > this.partCount(upload)) {
      throw badRequest(`Invalid 'part_number': this upload has parts 1 to ${this.partCount(upload)}.`);
    }
    const etag = (body.response as { headers?: { ETag?: unknown } } | undefined)?.headers?.ETag;
    if (typeof etag !== 'string' || !etag) throw badRequest("Give the part's ETag in 'response.headers.ETag'.");
    upload.reported.set(n as number, etag.replace(/"/g, ''));
    return { status: 200, body: {} };
  }

  complete(ctx: Ctx, id: string): Result {
    const call: ReceivedUploadCall = { call: 'complete', uploadId: id, status: 0 };
    this.calls.push(call);
    try {
      const upload = this.upload(ctx, id);
      call.name = upload.name;
      const parts = this.checkParts(upload);
      this.checkClash(upload.parent, upload.name, upload.overwrite);
      const file = this.createFile(upload, parts);
      this.pending.delete(id);
      fs.rmSync(path.join(this.dir, id), { recursive: true, force: true });
      call.status = 200;
      call.fileId = file.id;
      const lost = this.loseComplete > 0;
      if (lost) {
        this.loseComplete--;
        call.responseLost = true;
      }
      return { status: 200, body: fileRecord(ctx.base, file), lost };
    } catch (e) {
      if (e instanceof ApiError) call.status = e.status;
      throw e;
    }
  }

  abort(ctx: Ctx, id: string): Result {
    const call: ReceivedUploadCall = { call: 'abort', uploadId: id, status: 0 };
    this.calls.push(call);
    try {
      const upload = this.upload(ctx, id);
      call.name = upload.name;
      this.pending.delete(id);
      fs.rmSync(path.join(this.dir, id), { recursive: true, force: true });
      call.status = 204;
      return { status: 204, body: undefined };
    } catch (e) {
      if (e instanceof ApiError) call.status = e.status;
      throw e;
    }
  }

  info(ctx: Ctx, id: string): Result {
    const upload = this.upload(ctx, id);
    const listParts = one(ctx.query, 'list_parts') === 'true';
    return { status: 200, body: uploadRecord(upload, listParts) };
  }

  list(ctx: Ctx): Result {
    const mine = [...this.pending.values()].filter((u) => u.owner === ctx.user);
    return listResult(ctx, mine, paging(ctx.query), (u: UploadRec) => uploadRecord(u, false));
  }

  private upload(ctx: Ctx, id: string): UploadRec {
    const upload = this.pending.get(id);
    if (!upload || upload.owner !== ctx.user) throw new ApiError(404, 90003, `Upload '${id}' does not exist.`);
    return upload;
  }

  private partCount(upload: UploadRec): number {
    return upload.size === undefined ? MAX_PARTS : Math.max(1, Math.ceil(upload.size / upload.part_size));
  }

  private partSize(size: number | undefined, asked: number | undefined): number {
    if (this.settings.partSize) return this.settings.partSize;
    const fallback = Math.max(32 * MiB, Math.ceil((size ?? 0) / MAX_PARTS / MiB) * MiB);
    if (asked === undefined || asked < MIN_PART || asked > MAX_PART || (size !== undefined && Math.ceil(size / asked) > MAX_PARTS)) return fallback;
    const whole = Math.ceil(asked / MiB) * MiB;
    return size !== undefined && size >= 1024 * MiB ? Math.max(whole, 64 * MiB) : whole;
  }

  private destination(project: unknown, parent: unknown): { project: string; parent: string } {
    if ((project === undefined) === (parent === undefined)) throw new ApiError(400, project === undefined ? 5029 : 5031, "Give exactly one of 'project' and 'parent'.");
    let folder: FileRec | undefined;
    if (project !== undefined) {
      const p = typeof project === 'string' ? this.store.projectById.get(project) : undefined;
      if (!p) throw new ApiError(404, 90003, `Project '${String(project)}' does not exist.`);
      folder = this.store.fileById.get(p.root_folder);
    } else {
      folder = typeof parent === 'string' ? this.store.fileById.get(parent) : undefined;
      if (!folder) throw new ApiError(404, 5026, 'The destination folder does not exist.');
      if (folder.type !== 'folder') throw new ApiError(400, 5022, 'The parent is not a folder.');
    }
    const p = this.store.projectById.get(folder!.project);
    if (!p?.permissions.write) throw new ApiError(403, 90002, `You do not have write permission in project '${folder!.project}'.`);
    return { project: folder!.project, parent: folder!.id };
  }

  private checkClash(parent: string, name: string, overwrite: boolean): void {
    const there = this.store.children(parent).find((f) => f.name === name && this.store.fileById.get(f.id) === f);
    if (!there) return;
    if (there.type === 'folder') throw new ApiError(409, 10224, `A folder named '${name}' already exists in the destination.`);
    if (!overwrite) throw new ApiError(409, 10223, `A file named '${name}' already exists in the destination.`);
  }

  private checkParts(upload: UploadRec): StoredPart[] {
    const count = upload.size === undefined ? Math.max(0, ...upload.reported.keys()) : this.partCount(upload);
    const parts: StoredPart[] = [];
    for (let n = 1; n <= count; n++) {
      const reported = upload.reported.get(n);
      const stored = upload.stored.get(n);
      if (!reported) throw badRequest(`Part ${n} of ${count} was not reported.`);
      if (!stored || stored.etag !== reported) throw badRequest(`Part ${n}: the reported ETag does not match the uploaded part.`);
      const expected = upload.size === undefined ? undefined : n < count ? upload.part_size : upload.size - (count - 1) * upload.part_size;
      if ((expected !== undefined && stored.size !== expected) || (upload.size === undefined && n < count && stored.size !== upload.part_size)) {
        throw badRequest(`Part ${n} has ${stored.size} bytes where ${expected ?? upload.part_size} were expected: the sizes disagree.`);
      }
      parts.push(stored);
    }
    if ([...upload.reported.keys()].some((n) => n > count)) throw badRequest(`Parts beyond part ${count} were reported.`);
    return parts;
  }

  private createFile(upload: UploadRec, parts: StoredPart[]): FileRec {
    const size = parts.reduce((n, p) => n + p.size, 0);
    const etag = `"${createHash('md5').update(Buffer.concat(parts.map((p) => Buffer.from(p.etag, 'hex')))).digest('hex')}-${parts.length}"`;
    const at = isoZ(this.now());
    const id = this.store.newFileId();
    const existing = this.store.children(upload.parent).find((f) => f.name === upload.name && this.store.fileById.get(f.id) === f);
    let file: FileRec;
    if (existing) {
      // Overwritten: the old file is gone and a new one (a new ID) takes its place in the listing.
      this.store.fileById.delete(existing.id);
      this.files.delete(existing.id);
      Object.assign(existing, { id, size, created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
      this.store.fileById.set(id, existing);
      file = existing;
    } else {
      file = this.store.addFile({ id, name: upload.name, size, project: upload.project, parent: upload.parent, type: 'file', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
    }
    // The parts' files stay where they are, now the file's bytes.
    const kept = parts.map((p) => {
      const file = path.join(this.dir, 'files', id, path.basename(p.file));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.renameSync(p.file, file);
      return { ...p, file };
    });
    this.files.set(id, { parts: kept, size, etag });
    return file;
  }
}

function parseBody(raw: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw || 'null');
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !name) throw badRequest("Give the file's 'name'.");
  // eslint-disable-next-line no-control-regex
  if (name === '.' || name === '..' || name.includes('/') || /[\x00-\x1f\x7f]/.test(name) || Buffer.byteLength(name) > 255) {
    throw badRequest(`Invalid file name '${name.replace(/[\x00-\x1f\x7f]/g, '?')}': a name has at most 255 bytes, no '/' and no control characters, and is not '.' or '..'.`); // eslint-disable-line no-control-regex
  }
  return name;
}

function uploadRecord(u: UploadRec, listParts: boolean): Record<string, unknown> {
  return {
    upload_id: u.upload_id,
    project: u.project,
    parent: u.parent,
    name: u.name,
    size: u.size ?? null,
    part_size: u.part_size,
    md5: u.md5,
    initiated: u.initiated,
    parallel_uploads: true,
    uploaded_parts_count: u.reported.size,
    ...(listParts
      ? { parts: [...u.reported].sort(([a], [b]) => a - b).map(([n, etag]) => ({ part_number: n, response: { headers: { ETag: etag } } })) }
      : {}),
  };
}
