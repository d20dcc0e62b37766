// Uploads local files and folders to a project or folder: folders created first (through the injected
// `ensureFolder`), then each file as a multipart upload, several files and several parts at once, each part streamed
// from disk, its ETag reported, then completed through the injected `complete` (the one write path). Cancel aborts
// every upload not completed, so no half file is left; a fault or a window reload leaves each upload resumable: its
// ID, local file and its version (size, times, inode), and part size are kept in stored state, and the next run asks
// the platform which parts arrived and sends the rest. The local file is checked before and after every part: parts of
// one version are never completed with parts of another. A local file that cannot be read fails at once, its upload
// aborted. No `vscode`: the editor side calls uploader.ts's `Uploader`: `plan`, then `run`. See README.md.
import * as l10n from '@vscode/l10n';
import { constants, promises as fsp } from 'fs';
import type { Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import { FileSpanBody, type ReadableFile } from './fileSpanBody';
import type { FileLocation } from '../api/files';
import { StorageError, type StorageClient } from '../api/storage';
import type { FileRecord } from '../api/types';
import type { Upload, UploadsApi } from '../api/uploads';
import { backoffWait } from '../util/backoff';
import { isLocalError } from '../util/localError';
import { describeLocalError } from './localFiles';
import { sameVersion, versionOf, type LocalFile } from './localTree';
import { uploadPartSize, uploadParts, type Span } from './partPlan';
import { ProgressMeter, type TransferProgress } from './progress';
import type { ResumeBook, UploadResume, UploadRunResume } from './resumeState';
import { Slots } from '../util/slots';

/** What to do when a name is taken in the destination. */
export type NameClash = 'rename' | 'overwrite' | 'skip';

export interface UploadRequest {
  /** Local files and folders (absolute paths). */
  sources: readonly string[];
  destination: FileLocation;
  /** `rename`: the first free `1_<name>`, `2_<name>`… (the platform's own rule for copies, as the clash preview shows). */
  ifExists: NameClash;
}

export interface UploadPlan {
  destination: FileLocation;
  ifExists: NameClash;
  /** Folders to create first, `/`-separated, each after its parent. */
  folders: string[];
  files: LocalFile[];
  /** Links inside the folders, not followed: left out, and named in the summary. */
  links: string[];
  refused: { localPath: string; reason: string }[];
  bytes: number;
}

/** An upload to complete: enough to look a lost answer up (see uploadLookup.ts). */
export interface CompletionTarget {
  uploadId: string;
  destination: FileLocation;
  name: string;
  size: number;
  /** When the platform says the upload began (its `initiated`), if it did. */
  initiated?: string;
}

/** What `complete` is told, besides the upload's ID: the upload, and the local file it reads. */
export interface CompleteContext extends CompletionTarget {
  localPath: string;
}

export interface UploadSummary {
  /** Stopped by Cancel or a halt before the end. */
  cancelled: boolean;
  uploaded: { localPath: string; file: FileRecord }[];
  /** Bytes sent in this run. */
  bytes: number;
  skipped: { localPath: string; reason: string }[];
  /** Links inside the folders, not followed (the plan's). */
  links: string[];
  failed: { localPath: string; reason: string }[];
  /** What Retry sends again (the failed, and what a Cancel or halt left), resuming the uploads kept. */
  retry: UploadPlan | undefined;
}

export interface UploaderDeps {
  uploads: Pick<UploadsApi, 'init' | 'partTarget' | 'reportPart' | 'info' | 'abort' | 'list'>;
  /** Completes an upload (the write path: a lost answer is looked up, not sent again). */
  complete(uploadId: string, context: CompleteContext): Promise<FileRecord>;
  /**
   * A resumed upload the platform no longer knows (404) was completed, or aborted: the file its completion made (the
   * write path asks its pending completion, and looks for the file), else undefined (begun again). Rejects while that
   * is being checked: nothing is begun meanwhile. Without it, a 404 begins the file again.
   */
  completed?(context: CompleteContext, signal?: AbortSignal): Promise<FileRecord | undefined>;
  /** The ID of the folder `name` in `parent`, created if it is not there; `within` names the parent in words. */
  ensureFolder(parent: FileLocation, name: string, signal?: AbortSignal, within?: string): Promise<string>;
  storage: Pick<StorageClient, 'put'>;
  clock: Clock;
  /** The account's records of uploads under way. */
  resume: ResumeBook<UploadResume>;
  /** The account's records of runs under way (what each has left), when runs are to be resumed as a whole. */
  runs?: ResumeBook<UploadRunResume>;
  /** Parts on their way at once, over every file; default 8. */
  connections?: number;
  /** Tries of a part before its file fails; default 6. */
  attempts?: number;
  /** First wait after a fault, doubled each time (at most 30 s); default 1 s. */
  backoffMs?: number;
  /** Opens a local file to read its parts (a test may hand in a disk that fails); default `fs`. */
  openLocal?(path: string): Promise<ReadableFile>;
}

export interface UploadRunOptions {
  /** Cancel: stops, and aborts every upload not completed on the platform. */
  signal?: AbortSignal;
  /** Stops, keeping every upload to resume later (the window closes). */
  halt?: AbortSignal;
  onProgress?(progress: TransferProgress): void;
  /**
   * The run's record (with `deps.runs`): its ID and the destination in words. Kept while the run has files left,
   * removed once every file is done or the run is cancelled; the same ID resumes an interrupted run.
   */
  record?: { runId: string; label: string; startedAt?: number };
  /**
   * Resuming a run left unfinished: a file whose upload record global state does not show (lost to an echo of an
   * older value, or never saved by a window that died) takes the upload of its name, size and place that the
   * platform has and no record claims, rather than begin another (which would leave that one half made).
   */
  adoptLeftOver?: boolean;
}

/** A run's record is saved at most this often while bytes move, and at least this often while it runs. */
export const RUN_SAVE_MS = 2_000;
export const RUN_BEAT_MS = 5_000;

const MAX_BACKOFF_MS = 30_000;
/** A part URL that waited longer than this for a connection is asked for again: signed URLs expire. */
const PART_URL_FRESH_MS = 60_000;
const RATE_LIMIT_SLACK_MS = 1_000;
/** How long an abort after a Cancel waits out the rate limit. */
const ABANDON_WAIT_MS = 60_000;
/** Numbered names tried for one file with `rename` before giving up. */
const MAX_RENAMES = 100;

/** A file's upload under way on the platform. */
interface Started {
  uploadId: string;
  partSize: number;
  name: string;
  initiated?: string;
  recordId: string;
}

/** Why a file stops: the words for the summary, and whether its upload on the platform is of no more use. */
class FileFailure extends Error {
  constructor(
    message: string,
    readonly abandon: boolean,
  ) {
    super(message);
  }
}

/** One run of uploads: its folders, then its files, several parts at once (see the top of this file). */
export class UploadRun {
  private readonly meter: ProgressMeter;
  private readonly stop: AbortSignal;
  private readonly summary: UploadSummary;
  private readonly connections: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  /** The connections that carry parts' bytes. */
  private readonly sending: Slots;
  /** Parts between their URL and the end of their bytes: those sending and as many more with a URL in hand. */
  private readonly ahead: Slots;
  /** Uploads begun and not completed: aborted on Cancel. */
  private readonly open = new Map<string, Started>();
  private readonly retryFiles: LocalFile[] = [];
  /** Files not completed nor skipped yet, by local path: what the run's record keeps. */
  private readonly remaining = new Map<string, LocalFile>();
  /** Bytes of each file already on the platform (sent in this run, or parts an earlier run sent). */
  private readonly sent = new Map<string, { bytes: number }>();
  private saving: Promise<void> = Promise.resolve();
  /**
   * The records of the uploads begun and not completed, as written: written again when global state no longer shows
   * one (VS Code keeps an extension's global state as one value, which an echo of an older write may replace).
   */
  private readonly written = new Map<string, Omit<UploadResume, 'account'>>();
  private lastSave = -Infinity;
  private beat: unknown;
  private readonly startedAt: number;

  constructor(
    private readonly deps: UploaderDeps,
    private readonly plan: UploadPlan,
    private readonly options: UploadRunOptions,
  ) {
    this.stop = AbortSignal.any([options.signal, options.halt].filter((s): s is AbortSignal => !!s));
    this.connections = Math.max(1, deps.connections ?? 8);
    this.sending = new Slots(this.connections);
    this.ahead = new Slots(2 * this.connections);
    this.attempts = deps.attempts ?? 6;
    this.backoffMs = deps.backoffMs ?? 1_000;
    this.meter = new ProgressMeter(deps.clock, { files: plan.files.length, bytes: plan.bytes });
    this.summary = { cancelled: false, uploaded: [], bytes: 0, skipped: [], links: [...plan.links], failed: plan.refused.map((r) => ({ ...r })), retry: undefined };
    for (const file of plan.files) this.remaining.set(file.localPath, file);
    this.startedAt = options.record?.startedAt ?? deps.clock.now();
  }

  async run(): Promise<UploadSummary> {
    this.tell(true);
    this.saveRun(true);
    this.heartbeat();
    const folders = await this.createFolders();
    let next = 0;
    const worker = async () => {
      for (let file = this.plan.files[next++]; file; file = this.plan.files[next++]) {
        const parent = folders.get(parentOf(file.relativePath));
        // Not begun (stopped, or its folder not made before the stop): the next run sends it.
        if (this.stop.aborted || parent === undefined) {
          this.retryFiles.push(file);
          continue;
        }
        if (typeof parent === 'string') {
          this.failFile(file, parent);
          continue;
        }
        await this.uploadFile(file, parent);
      }
    };
    await Promise.all(Array.from({ length: this.connections }, worker));
    if (this.options.signal?.aborted) await this.abortOpen();
    this.summary.cancelled = this.stop.aborted;
    if (this.retryFiles.length) {
      const files = this.retryFiles;
      const folders = this.plan.folders.filter((folder) => files.some((f) => f.relativePath.startsWith(`${folder}/`)));
      this.summary.retry = { ...this.plan, folders, files, links: [], refused: [], bytes: files.reduce((n, f) => n + f.size, 0) };
    }
    this.tell(true);
    if (this.beat !== undefined) this.deps.clock.clearTimeout(this.beat);
    this.beat = undefined;
    // Cancelled (every upload aborted) or nothing left: the run is over. Else (halted, files failed) it stays to resume.
    const over = this.options.signal?.aborted || !this.retryFiles.length;
    this.saveRun(true, over);
    await this.saving;
    return this.summary;
  }

  /** Saves the run's record (at most every RUN_SAVE_MS unless `force`), or removes it once the run is `over`. */
  private saveRun(force: boolean, over = false): void {
    const { runs } = this.deps;
    const record = this.options.record;
    if (!runs || !record) return;
    const now = this.deps.clock.monotonic();
    if (!force && now - this.lastSave < RUN_SAVE_MS) return;
    this.lastSave = now;
    const files = over ? [] : [...this.remaining.values()];
    const value: Omit<UploadRunResume, 'account'> | undefined = over
      ? undefined
      : {
          runId: record.runId,
          label: record.label,
          destination: this.plan.destination,
          ifExists: this.plan.ifExists,
          folders: this.plan.folders.filter((folder) => files.some((f) => f.relativePath.startsWith(`${folder}/`))),
          files,
          filesTotal: this.plan.files.length,
          bytesTotal: this.plan.bytes,
          bytesLeft: files.reduce((n, f) => n + Math.max(0, f.size - (this.sent.get(f.localPath)?.bytes ?? 0)), 0),
          startedAt: this.startedAt,
          savedAt: this.deps.clock.now(),
        };
    const { resume } = this.deps;
    this.saving = this.saving
      .then(async () => {
        await runs.set(record.runId, value);
        // An upload's record an echo of an older value took away is written again (the run's is, above).
        for (const [id, upload] of this.written) if (!resume.get(id)) await resume.set(id, upload);
      })
      .then(
        () => undefined,
        () => undefined,
      );
  }

  /** While the run goes, its record is saved every RUN_BEAT_MS even with no byte moving (another window sees it alive). */
  private heartbeat(): void {
    if (!this.deps.runs || !this.options.record) return;
    this.beat = this.deps.clock.setTimeout(() => {
      this.saveRun(true);
      this.heartbeat();
    }, RUN_BEAT_MS);
  }

  /** Each folder's place on the platform by relative path ('' the destination), or why it could not be made. */
  private async createFolders(): Promise<Map<string, FileLocation | string>> {
    const made = new Map<string, FileLocation | string>([['', this.plan.destination]]);
    for (const folder of this.plan.folders) {
      const parent = made.get(parentOf(folder));
      const name = folder.slice(folder.lastIndexOf('/') + 1);
      // A folder under one not made (stopped) is not made either; under one that failed, it fails for the same reason.
      if (parent === undefined || this.stop.aborted) continue;
      if (typeof parent === 'string') {
        made.set(folder, parent);
        continue;
      }
      try {
        made.set(folder, { parent: await this.deps.ensureFolder(parent, name, this.stop, parentOf(folder) || this.options.record?.label) });
      } catch (error) {
        if (this.stop.aborted) continue;
        made.set(folder, l10n.t('The folder "{0}" could not be created: {1}', folder, describeError(error)));
      }
    }
    return made;
  }

  private async uploadFile(file: LocalFile, destination: FileLocation): Promise<void> {
    let started: Started | undefined;
    // The file's own stop: the first part that fails stops the others.
    const giveUp = new AbortController();
    const signal = AbortSignal.any([this.stop, giveUp.signal]);
    const moved = { bytes: 0 };
    this.sent.set(file.localPath, moved);
    try {
      // The version sent is the one there now; one that cannot be read begins nothing on the platform.
      const local = await fsp.stat(file.localPath).catch((error: unknown) => {
        throw new FileFailure(describeLocalError(error, file.localPath, 'read'), false);
      });
      await fsp.access(file.localPath, constants.R_OK).catch((error: unknown) => {
        throw new FileFailure(describeLocalError(error, file.localPath, 'read'), false);
      });
      const now: LocalFile = { ...file, ...versionOf(local) };
      this.meter.sizeLearned(now.size - file.size);
      const planned = file;
      file = now;
      started = await this.resume(file, destination);
      if (!started && this.options.adoptLeftOver) started = await this.adopt(file, destination, sameVersion(planned, now));
      const arrivedParts = started ? await this.partsArrived(started, completeContext(file, destination, started)) : [];
      if (arrivedParts && !Array.isArray(arrivedParts)) return await this.fileMade(file, started!, arrivedParts, file.size);
      if (!arrivedParts) started = undefined;
      started ??= await this.begin(file, destination);
      if (!started) return;
      this.open.set(started.recordId, started);
      const done = new Set(arrivedParts);
      const parts = uploadParts(file.size, started.partSize);
      const arrived = parts.filter((p) => done.has(p.number)).reduce((n, p) => n + p.end - p.start, 0);
      this.meter.alreadyDone(arrived);
      moved.bytes += arrived;
      const sending = parts
        .filter((p) => !done.has(p.number))
        .map((p) =>
          this.sendPart(file, started!, p, signal, moved).catch((error: unknown) => {
            giveUp.abort();
            throw error;
          }),
        );
      const outcomes = await Promise.allSettled(sending);
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) throw failed.reason;
      if (this.stop.aborted) {
        this.retryFiles.push(file);
        return;
      }
      await this.checkUnchanged(file);
      await this.completeFile(file, destination, started);
    } catch (error) {
      if (this.stop.aborted && !(error instanceof FileFailure && error.abandon)) {
        this.retryFiles.push(file);
        return;
      }
      const failure = error instanceof FileFailure ? error : new FileFailure(describeError(error), false);
      if (failure.abandon && started) {
        await this.abandon(started);
        this.sent.delete(file.localPath);
      }
      this.failFile(file, failure.message, file.size - moved.bytes);
    }
  }

  /** The upload an earlier run left for this file, if the file is the same version and the platform still has it. */
  private async resume(file: LocalFile, destination: FileLocation): Promise<Started | undefined> {
    const recordId = resumeId(file.localPath, destination, baseName(file));
    const record = this.deps.resume.get(recordId);
    if (!record) return undefined;
    if (!sameVersion(record, file)) {
      // The file changed since (its mtime set back too): its parts are of another version, of no use.
      await this.deps.uploads.abort(record.uploadId).catch(() => undefined);
      await this.deps.resume.set(recordId, undefined);
      return undefined;
    }
    const value: Partial<UploadResume> = { ...record };
    delete value.account;
    this.written.set(recordId, value as Omit<UploadResume, 'account'>);
    return { uploadId: record.uploadId, partSize: record.partSize, name: record.name, initiated: record.initiated, recordId };
  }

  /**
   * The one upload on the platform of this file's name, size and place that no record claims, taken as its own; when
   * the file is not the version the run planned (`unchanged` false), its parts are of another version: it is aborted.
   */
  private async adopt(file: LocalFile, destination: FileLocation, unchanged: boolean): Promise<Started | undefined> {
    const name = baseName(file);
    const claimed = new Set(this.deps.resume.all().map((r) => r.uploadId));
    const page = await this.deps.uploads.list({ signal: this.stop });
    const ours = page.items.filter((u) => u.name === name && u.size === file.size && !claimed.has(u.upload_id) && ('parent' in destination ? u.parent === destination.parent : u.project === destination.project));
    if (ours.length !== 1) return undefined;
    if (!unchanged) {
      await this.deps.uploads.abort(ours[0].upload_id).catch(() => undefined);
      return undefined;
    }
    const recordId = resumeId(file.localPath, destination, name);
    const value = { uploadId: ours[0].upload_id, localPath: file.localPath, ...versionOf(file), partSize: ours[0].part_size, destination, name, overwrite: this.plan.ifExists === 'overwrite', initiated: ours[0].initiated };
    this.written.set(recordId, value);
    await this.deps.resume.set(recordId, value);
    return { uploadId: ours[0].upload_id, partSize: ours[0].part_size, name, initiated: ours[0].initiated, recordId };
  }

  /**
   * The parts the platform has of a resumed upload; when it no longer knows it, the file an earlier completion made
   * (as the write path tells), else undefined (the file starts again).
   */
  private async partsArrived(started: Started, context: CompleteContext): Promise<number[] | FileRecord | undefined> {
    let info: Upload;
    try {
      info = await this.deps.uploads.info(started.uploadId, { listParts: true, signal: this.stop });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        const made = await this.deps.completed?.(context, this.stop).catch((failure: unknown) => {
          throw failure instanceof ApiError && failure.maybeDelivered ? beingChecked(failure) : failure;
        });
        if (made) return made;
        this.written.delete(started.recordId);
        await this.deps.resume.set(started.recordId, undefined);
        return undefined;
      }
      throw error;
    }
    started.partSize = info.part_size;
    started.initiated = info.initiated;
    return (info.parts ?? []).filter((p) => p.response?.headers?.ETag).map((p) => p.part_number);
  }

  /** Begins the upload (init), trying numbered names with `rename`; undefined when the file is skipped. */
  private async begin(file: LocalFile, destination: FileLocation): Promise<Started | undefined> {
    const wanted = baseName(file);
    const recordId = resumeId(file.localPath, destination, wanted);
    for (let n = 0; n <= MAX_RENAMES; n++) {
      const name = n === 0 ? wanted : `${n}_${wanted}`;
      let upload: Upload;
      try {
        upload = await this.init(file, destination, name);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          if (this.plan.ifExists === 'skip') {
            this.summary.skipped.push({ localPath: file.localPath, reason: l10n.t('"{0}" is already there.', name) });
            this.remaining.delete(file.localPath);
            this.meter.fileDropped(file.size);
            this.tell(true);
            return undefined;
          }
          if (this.plan.ifExists === 'rename') continue;
        }
        if (error instanceof ApiError && error.status === 400 && !error.isTransient) {
          throw new FileFailure(l10n.t('The platform refused the name "{0}": {1}', name, describeError(error)), false);
        }
        throw error;
      }
      const started: Started = { uploadId: upload.upload_id, partSize: upload.part_size, name, initiated: upload.initiated, recordId };
      const value = {
        uploadId: upload.upload_id,
        localPath: file.localPath,
        ...versionOf(file),
        partSize: upload.part_size,
        destination,
        name,
        overwrite: this.plan.ifExists === 'overwrite',
        initiated: upload.initiated,
      };
      this.written.set(recordId, value);
      await this.deps.resume.set(recordId, value);
      return started;
    }
    throw new FileFailure(l10n.t('Every name from "{0}" to "{1}" is taken.', wanted, `${MAX_RENAMES}_${wanted}`), false);
  }

  /**
   * Init, once more after a lost answer: the platform may have begun the upload, so its list of uploads is read
   * first, and one upload of this name, size and place that no record claims is taken as ours.
   */
  private async init(file: LocalFile, destination: FileLocation, name: string): Promise<Upload> {
    const init = { destination, name, size: file.size, partSize: uploadPartSize(file.size), overwrite: this.plan.ifExists === 'overwrite' };
    // An init on its way is not cut short by Cancel: the platform may have begun the upload, and only its answer
    // names it so that the Cancel can abort it. (A 429, not processed, ends the wait at once.)
    try {
      return await this.afterRateLimit(() => this.deps.uploads.init(init));
    } catch (error) {
      if (!(error instanceof ApiError && error.maybeDelivered)) throw error;
      const claimed = new Set(this.deps.resume.all().map((r) => r.uploadId));
      const page = await this.deps.uploads.list();
      const ours = page.items.filter(
        (u) => u.name === name && u.size === file.size && !claimed.has(u.upload_id) && ('parent' in destination ? u.parent === destination.parent : u.project === destination.project),
      );
      if (ours.length === 1) return ours[0];
      if (this.stop.aborted) throw error;
      return this.afterRateLimit(() => this.deps.uploads.init(init, { signal: this.stop }));
    }
  }

  /**
   * One part: its URL, its bytes streamed from disk on one of the run's connections, its ETag reported; tried again
   * after a fault. The URL is asked for before a connection is free and the ETag reported once it is freed, so over a
   * long round trip a connection goes from one part's bytes straight to the next one's.
   */
  private async sendPart(file: LocalFile, started: Started, part: Span, signal: AbortSignal, moved: { bytes: number }): Promise<void> {
    await this.ahead.run(async () => {
      for (let attempt = 1; ; attempt++) {
        if (signal.aborted) return;
        let sent = 0;
        try {
          // Asked for in part order (nothing awaited before it), so the parts take the connections in that order.
          const asked = this.deps.clock.monotonic();
          const target = await this.deps.uploads.partTarget(started.uploadId, part.number, { signal });
          const etag = await this.sending.run(async () => {
            const fresh = this.deps.clock.monotonic() - asked > PART_URL_FRESH_MS ? await this.deps.uploads.partTarget(started.uploadId, part.number, { signal }) : target;
            // Read from disk into two buffers used in turn as the connection takes the bytes (fileSpanBody.ts).
            // The file opened is checked to be the version begun before its bytes are read, and again after them.
            const body = new FileSpanBody(file.localPath, part.start, part.end, undefined, this.deps.openLocal, (stats) => sameVersion(versionOf(stats), file));
            body.on('data', (chunk: Buffer) => {
              sent += chunk.length;
              this.meter.add(chunk.length);
              this.tell(false);
            });
            return this.deps.storage.put(fresh.url, body, part.end - part.start, { headers: fresh.headers, successCodes: fresh.successCodes, signal });
          });
          // The bytes sent are the version begun only if it is still there now: else the part is not reported.
          await this.checkUnchanged(file);
          await this.afterRateLimit(() => this.deps.uploads.reportPart(started.uploadId, part.number, etag, { signal }), signal);
          this.summary.bytes += sent;
          moved.bytes += sent;
          return;
        } catch (error) {
          this.meter.add(-sent);
          if (signal.aborted) return;
          if (error instanceof FileFailure) throw error;
          // The disk's failure is said at once, in its words (unless the file changed, which says more).
          if (isLocalError(error)) {
            await this.checkUnchanged(file);
            throw new FileFailure(describeLocalError(error, file.localPath, 'read'), true);
          }
          if ((error instanceof StorageError && error.gone) || (error instanceof ApiError && error.status === 404)) {
            throw new FileFailure(l10n.t('The upload was aborted on the platform.'), true);
          }
          const again = error instanceof StorageError ? error.linkRefused || error.isTransient : error instanceof ApiError && error.isTransient;
          if (!again) throw error;
          if (attempt >= this.attempts) throw new FileFailure(l10n.t('Part {0} stopped after {1} tries: {2}', part.number, this.attempts, describeError(error)), false);
          await this.deps.clock.sleep(backoffWait({ firstMs: this.backoffMs, factor: 2, capMs: MAX_BACKOFF_MS }, attempt), signal).catch(() => undefined);
        }
      }
    });
  }

  /**
   * A POST the rate limit refused (429: not processed) is sent again once the limit resets, as often as it takes:
   * many small files spend 5 requests each, and the platform allows 1,000 per 5 minutes.
   */
  private async afterRateLimit<T>(call: () => Promise<T>, signal: AbortSignal = this.stop): Promise<T> {
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ApiError && error.isRateLimited) || signal.aborted) throw error;
        await this.deps.clock.sleep(Math.max(error.untilResetMs ?? 0, this.backoffMs) + RATE_LIMIT_SLACK_MS, signal);
      }
    }
  }

  /**
   * A file changed on disk since its upload began is refused: what was sent would not be that file (its bytes taken
   * from two versions). Gone or unreadable: said in the disk's words. Either way its upload is aborted.
   */
  private async checkUnchanged(file: LocalFile): Promise<void> {
    const now = await fsp.stat(file.localPath).catch((error: unknown) => {
      throw new FileFailure(describeLocalError(error, file.localPath, 'read'), true);
    });
    if (!sameVersion(versionOf(now), file)) {
      throw new FileFailure(l10n.t('The file changed on disk during the upload: it was not uploaded. Upload it again.'), true);
    }
  }

  private async completeFile(file: LocalFile, destination: FileLocation, started: Started): Promise<void> {
    let record: FileRecord;
    try {
      const context = completeContext(file, destination, started);
      // Not cancellable once its parts are all there; a 429 was not processed.
      record = await this.afterRateLimit(() => this.deps.complete(started.uploadId, context), new AbortController().signal);
    } catch (error) {
      // A lost answer may have made the file: the write path looks it up; the upload stays as it is meanwhile.
      if (error instanceof ApiError && error.maybeDelivered) {
        this.open.delete(started.recordId);
        throw beingChecked(error);
      }
      throw new FileFailure(l10n.t('The platform refused to complete it: {0}', describeError(error)), true);
    }
    await this.fileMade(file, started, record, 0);
  }

  /** The file is made on the platform (`record`): its upload is over. `arrived`: its bytes not counted yet. */
  private async fileMade(file: LocalFile, started: Started, record: FileRecord, arrived: number): Promise<void> {
    this.meter.alreadyDone(arrived);
    this.open.delete(started.recordId);
    this.written.delete(started.recordId);
    await this.deps.resume.set(started.recordId, undefined);
    this.summary.uploaded.push({ localPath: file.localPath, file: record });
    this.remaining.delete(file.localPath);
    this.meter.fileDone();
    this.tell(true);
    this.saveRun(true);
  }

  /**
   * Aborts an upload on the platform and forgets it. It runs after a Cancel, so only its own limit ends it: a 429 is
   * waited out for up to a minute. One the platform did not drop stays in the resume records, so that the next
   * upload of the file takes it up rather than leaving it unknown.
   */
  private async abandon(started: Started): Promise<void> {
    this.open.delete(started.recordId);
    const limit = new AbortController();
    const timer = this.deps.clock.setTimeout(() => limit.abort(), ABANDON_WAIT_MS);
    try {
      await this.afterRateLimit(() => this.deps.uploads.abort(started.uploadId), limit.signal);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return;
    } finally {
      this.deps.clock.clearTimeout(timer);
    }
    this.written.delete(started.recordId);
    await this.deps.resume.set(started.recordId, undefined);
  }

  /** Cancel: every upload begun and not completed is aborted, so nothing is left half made. */
  private async abortOpen(): Promise<void> {
    await Promise.all([...this.open.values()].map((started) => this.abandon(started)));
  }

  /** A file given up: the rest carries on. `left`: its bytes not sent yet, no longer counted in the totals. */
  private failFile(file: LocalFile, reason: string, left = file.size): void {
    this.summary.failed.push({ localPath: file.localPath, reason });
    this.retryFiles.push(file);
    this.meter.fileDropped(left);
    this.tell(true);
  }

  private tell(force: boolean): void {
    if (this.options.onProgress && this.meter.due(force)) this.options.onProgress(this.meter.snapshot());
    this.saveRun(false);
  }
}

/** A file whose completion may have been made and is being checked: kept as it is, never begun again meanwhile. */
function beingChecked(error: ApiError): FileFailure {
  return new FileFailure(l10n.t('The platform may have completed it; it is being checked: {0}', describeError(error)), false);
}

/** What `complete` is told of a file's upload. */
function completeContext(file: LocalFile, destination: FileLocation, started: Started): CompleteContext {
  return { uploadId: started.uploadId, destination, name: started.name, size: file.size, localPath: file.localPath, initiated: started.initiated };
}

/** The record of a file's upload: the same local file to the same place under the same name. */
export function resumeId(localPath: string, destination: FileLocation, name: string): string {
  return JSON.stringify([localPath, destination, name]);
}

function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

function baseName(file: LocalFile): string {
  return file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1);
}

