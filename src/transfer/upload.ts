// Uploads local files and folders to a project or folder: folders created first (through the injected
// `ensureFolder`), then each file as a multipart upload, several files and several parts at once, each part streamed
// from disk, its ETag reported, then completed through the injected `complete` (the one write path). Cancel aborts
// every upload not completed, so no half file is left; a fault or a window reload leaves each upload resumable: its
// ID, local file and its version (size, times, inode), and part size are kept in stored state, and the next run asks
// the platform which parts arrived and sends the rest. The local file is checked before and after every part: parts of
// one version are never completed with parts of another. A local file that cannot be read fails at once, its upload
// aborted. Each file's upload on the platform (begun or taken up, its parts sent, its abort) is fileUploads.ts's.
// No `vscode`: the editor side calls uploader.ts's `Uploader`: `plan`, then `run`. See README.md.
import * as l10n from '@vscode/l10n';
import { constants, promises as fsp } from 'fs';
import type { Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import type { ReadableFile } from './fileSpanBody';
import type { FileLocation } from '../api/files';
import type { StorageClient } from '../api/storage';
import type { FileRecord } from '../api/types';
import type { UploadsApi } from '../api/uploads';
import { describeLocalError } from './localFiles';
import { sameVersion, versionOf, type LocalFile } from './localTree';
import { uploadParts } from './partPlan';
import { ProgressMeter, type TransferProgress } from './progress';
import type { ResumeBook, UploadResume, UploadRunResume } from './resumeState';
import { beingChecked, FileFailure, FileUploads, type CompleteContext, type NameClash, type Started } from './fileUploads';

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

/** One run of uploads: its folders, then its files, several parts at once (see the top of this file). */
export class UploadRun {
  private readonly meter: ProgressMeter;
  private readonly stop: AbortSignal;
  private readonly summary: UploadSummary;
  private readonly connections: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  /** Uploads begun and not completed: aborted on Cancel. */
  private readonly open = new Map<string, Started>();
  /** Each file's upload on the platform: begun or taken up, its parts sent, aborted (fileUploads.ts). */
  private readonly files: FileUploads;
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
    this.attempts = deps.attempts ?? 6;
    this.backoffMs = deps.backoffMs ?? 1_000;
    this.meter = new ProgressMeter(deps.clock, { files: plan.files.length, bytes: plan.bytes });
    this.summary = { cancelled: false, uploaded: [], bytes: 0, skipped: [], links: [...plan.links], failed: plan.refused.map((r) => ({ ...r })), retry: undefined };
    for (const file of plan.files) this.remaining.set(file.localPath, file);
    this.startedAt = options.record?.startedAt ?? deps.clock.now();
    this.files = new FileUploads({
      deps,
      ifExists: plan.ifExists,
      stop: this.stop,
      connections: this.connections,
      attempts: this.attempts,
      backoffMs: this.backoffMs,
      meter: this.meter,
      written: this.written,
      open: this.open,
      tell: (force) => this.tell(force),
      skipped: (file, reason) => {
        this.summary.skipped.push({ localPath: file.localPath, reason });
        this.remaining.delete(file.localPath);
        this.meter.fileDropped(file.size);
        this.tell(false);
      },
      reported: (bytes) => {
        this.summary.bytes += bytes;
      },
    });
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
      started = await this.files.resume(file, destination);
      if (!started && this.options.adoptLeftOver) started = await this.files.adopt(file, destination, sameVersion(planned, now));
      const arrivedParts = started ? await this.files.partsArrived(started, completeContext(file, destination, started)) : [];
      if (arrivedParts && !Array.isArray(arrivedParts)) return await this.fileMade(file, started!, arrivedParts, file.size);
      if (!arrivedParts) started = undefined;
      started ??= await this.files.begin(file, destination);
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
          this.files.sendPart(file, started!, p, signal, moved).catch((error: unknown) => {
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
      await this.files.checkUnchanged(file);
      await this.completeFile(file, destination, started);
    } catch (error) {
      if (this.stop.aborted && !(error instanceof FileFailure && error.abandon)) {
        this.retryFiles.push(file);
        return;
      }
      const failure = error instanceof FileFailure ? error : new FileFailure(describeError(error), false);
      if (failure.abandon && started) {
        await this.files.abandon(started);
        this.sent.delete(file.localPath);
      }
      this.failFile(file, failure.message, file.size - moved.bytes);
    }
  }

  private async completeFile(file: LocalFile, destination: FileLocation, started: Started): Promise<void> {
    let record: FileRecord;
    try {
      const context = completeContext(file, destination, started);
      // Not cancellable once its parts are all there; a 429 was not processed.
      record = await this.files.afterRateLimit(() => this.deps.complete(started.uploadId, context), new AbortController().signal);
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
    this.tell(false);
    this.saveRun(true);
  }

  /** Cancel: every upload begun and not completed is aborted, so nothing is left half made. */
  private async abortOpen(): Promise<void> {
    await Promise.all([...this.open.values()].map((started) => this.files.abandon(started)));
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

/** What `complete` is told of a file's upload. */
function completeContext(file: LocalFile, destination: FileLocation, started: Started): CompleteContext {
  return { uploadId: started.uploadId, destination, name: started.name, size: file.size, localPath: file.localPath, initiated: started.initiated };
}

function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}
