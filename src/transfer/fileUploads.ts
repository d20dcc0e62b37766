// Each file's multipart upload on the platform, for a run (upload.ts's `UploadRun`): which upload it goes to (the one
// an earlier run left, when the file is the same version; one the platform has of its name, size and place that no
// record claims; else a new one, under a numbered name with `rename`, a lost init answer looked up), its parts read
// from disk and sent over the run's connections, each reported, the file's version checked before and after every
// part; and its abort. A POST the rate limit refused is sent again once the limit resets. No `vscode`. See README.md.
import * as l10n from '@vscode/l10n';
import { promises as fsp } from 'fs';
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
import { SIGNED_URL_FRESH_MS, uploadPartSize, type Span } from './partPlan';
import type { ProgressMeter } from './progress';
import type { ResumeBook, UploadResume } from './resumeState';
import { Slots } from '../util/slots';

/** What to do when a name is taken in the destination. */
export type NameClash = 'rename' | 'overwrite' | 'skip';

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

const MAX_BACKOFF_MS = 30_000;
const RATE_LIMIT_SLACK_MS = 1_000;
/** How long an abort after a Cancel waits out the rate limit. */
const ABANDON_WAIT_MS = 60_000;
/** Numbered names tried for one file with `rename` before giving up. */
const MAX_RENAMES = 100;

/** A file's upload under way on the platform. */
export interface Started {
  uploadId: string;
  partSize: number;
  name: string;
  initiated?: string;
  recordId: string;
}

/** Why a file stops: the words for the summary, and whether its upload on the platform is of no more use. */
export class FileFailure extends Error {
  constructor(
    message: string,
    readonly abandon: boolean,
  ) {
    super(message);
  }
}

/** What the files' uploads ask of their run. */
export interface FileUploadsRun {
  /** The run's UploaderDeps (upload.ts): the platform's uploads, the storage, the clock, the records of uploads under way. */
  deps: {
    uploads: Pick<UploadsApi, 'init' | 'partTarget' | 'reportPart' | 'info' | 'abort' | 'list'>;
    completed?(context: CompleteContext, signal?: AbortSignal): Promise<FileRecord | undefined>;
    storage: Pick<StorageClient, 'put'>;
    clock: Clock;
    resume: ResumeBook<UploadResume>;
    openLocal?(path: string): Promise<ReadableFile>;
  };
  ifExists: NameClash;
  /** Cancel or halt. */
  stop: AbortSignal;
  /** Parts on their way at once, over every file. */
  connections: number;
  /** Tries of a part before its file fails. */
  attempts: number;
  /** First wait after a fault, doubled each time (at most MAX_BACKOFF_MS). */
  backoffMs: number;
  meter: ProgressMeter;
  /** The records of the uploads begun and not completed, as written (the run writes them again when lost). */
  written: Map<string, Omit<UploadResume, 'account'>>;
  /** Uploads begun and not completed: aborted on Cancel. */
  open: Map<string, Started>;
  tell(force: boolean): void;
  /** A file skipped: its name is taken in the destination (`skip`). */
  skipped(file: LocalFile, reason: string): void;
  /** A part's bytes sent and reported. */
  reported(bytes: number): void;
}

/** The platform side of a run's files (see the top of this file). */
export class FileUploads {
  /** The connections that carry parts' bytes. */
  private readonly sending: Slots;
  /** Parts between their URL and the end of their bytes: those sending and as many more with a URL in hand. */
  private readonly ahead: Slots;

  constructor(private readonly run: FileUploadsRun) {
    this.sending = new Slots(run.connections);
    this.ahead = new Slots(2 * run.connections);
  }

  /** The upload an earlier run left for this file, if the file is the same version and the platform still has it. */
  async resume(file: LocalFile, destination: FileLocation): Promise<Started | undefined> {
    const recordId = resumeId(file.localPath, destination, baseName(file));
    const record = this.run.deps.resume.get(recordId);
    if (!record) return undefined;
    if (!sameVersion(record, file)) {
      // The file changed since (its mtime set back too): its parts are of another version, of no use.
      await this.run.deps.uploads.abort(record.uploadId).catch(() => undefined);
      await this.run.deps.resume.set(recordId, undefined);
      return undefined;
    }
    const value: Partial<UploadResume> = { ...record };
    delete value.account;
    this.run.written.set(recordId, value as Omit<UploadResume, 'account'>);
    return { uploadId: record.uploadId, partSize: record.partSize, name: record.name, initiated: record.initiated, recordId };
  }

  /**
   * The one upload on the platform of this file's name, size and place that no record claims, taken as its own; when
   * the file is not the version the run planned (`unchanged` false), its parts are of another version: it is aborted.
   */
  async adopt(file: LocalFile, destination: FileLocation, unchanged: boolean): Promise<Started | undefined> {
    const name = baseName(file);
    const claimed = new Set(this.run.deps.resume.all().map((r) => r.uploadId));
    const page = await this.run.deps.uploads.list({ signal: this.run.stop });
    const ours = page.items.filter((u) => u.name === name && u.size === file.size && !claimed.has(u.upload_id) && ('parent' in destination ? u.parent === destination.parent : u.project === destination.project));
    if (ours.length !== 1) return undefined;
    if (!unchanged) {
      await this.run.deps.uploads.abort(ours[0].upload_id).catch(() => undefined);
      return undefined;
    }
    const recordId = resumeId(file.localPath, destination, name);
    const value = { uploadId: ours[0].upload_id, localPath: file.localPath, ...versionOf(file), partSize: ours[0].part_size, destination, name, overwrite: this.run.ifExists === 'overwrite', initiated: ours[0].initiated };
    this.run.written.set(recordId, value);
    await this.run.deps.resume.set(recordId, value);
    return { uploadId: ours[0].upload_id, partSize: ours[0].part_size, name, initiated: ours[0].initiated, recordId };
  }

  /**
   * The parts the platform has of a resumed upload; when it no longer knows it, the file an earlier completion made
   * (as the write path tells), else undefined (the file starts again).
   */
  async partsArrived(started: Started, context: CompleteContext): Promise<number[] | FileRecord | undefined> {
    let info: Upload;
    try {
      info = await this.run.deps.uploads.info(started.uploadId, { listParts: true, signal: this.run.stop });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        const made = await this.run.deps.completed?.(context, this.run.stop).catch((failure: unknown) => {
          throw failure instanceof ApiError && failure.maybeDelivered ? beingChecked(failure) : failure;
        });
        if (made) return made;
        this.run.written.delete(started.recordId);
        await this.run.deps.resume.set(started.recordId, undefined);
        return undefined;
      }
      throw error;
    }
    started.partSize = info.part_size;
    started.initiated = info.initiated;
    return (info.parts ?? []).filter((p) => p.response?.headers?.ETag).map((p) => p.part_number);
  }

  /** Begins the upload (init), trying numbered names with `rename`; undefined when the file is skipped. */
  async begin(file: LocalFile, destination: FileLocation): Promise<Started | undefined> {
    const wanted = baseName(file);
    const recordId = resumeId(file.localPath, destination, wanted);
    for (let n = 0; n <= MAX_RENAMES; n++) {
      const name = n === 0 ? wanted : `${n}_${wanted}`;
      let upload: Upload;
      try {
        upload = await this.init(file, destination, name);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          if (this.run.ifExists === 'skip') {
            this.run.skipped(file, l10n.t('"{0}" is already there.', name));
            return undefined;
          }
          if (this.run.ifExists === 'rename') continue;
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
        overwrite: this.run.ifExists === 'overwrite',
        initiated: upload.initiated,
      };
      this.run.written.set(recordId, value);
      await this.run.deps.resume.set(recordId, value);
      return started;
    }
    throw new FileFailure(l10n.t('Every name from "{0}" to "{1}" is taken.', wanted, `${MAX_RENAMES}_${wanted}`), false);
  }

  /**
   * Init, once more after a lost answer: the platform may have begun the upload, so its list of uploads is read
   * first, and one upload of this name, size and place that no record claims is taken as ours.
   */
  private async init(file: LocalFile, destination: FileLocation, name: string): Promise<Upload> {
    const init = { destination, name, size: file.size, partSize: uploadPartSize(file.size), overwrite: this.run.ifExists === 'overwrite' };
    // An init on its way is not cut short by Cancel: the platform may have begun the upload, and only its answer
    // names it so that the Cancel can abort it. (A 429, not processed, ends the wait at once.)
    try {
      return await this.afterRateLimit(() => this.run.deps.uploads.init(init));
    } catch (error) {
      if (!(error instanceof ApiError && error.maybeDelivered)) throw error;
      const claimed = new Set(this.run.deps.resume.all().map((r) => r.uploadId));
      const page = await this.run.deps.uploads.list();
      const ours = page.items.filter(
        (u) => u.name === name && u.size === file.size && !claimed.has(u.upload_id) && ('parent' in destination ? u.parent === destination.parent : u.project === destination.project),
      );
      if (ours.length === 1) return ours[0];
      if (this.run.stop.aborted) throw error;
      return this.afterRateLimit(() => this.run.deps.uploads.init(init, { signal: this.run.stop }));
    }
  }

  /**
   * One part: its URL, its bytes streamed from disk on one of the run's connections, its ETag reported; tried again
   * after a fault. The URL is asked for before a connection is free and the ETag reported once it is freed, so over a
   * long round trip a connection goes from one part's bytes straight to the next one's.
   */
  async sendPart(file: LocalFile, started: Started, part: Span, signal: AbortSignal, moved: { bytes: number }): Promise<void> {
    await this.ahead.run(async () => {
      for (let attempt = 1; ; attempt++) {
        if (signal.aborted) return;
        let sent = 0;
        try {
          // Asked for in part order (nothing awaited before it), so the parts take the connections in that order.
          const asked = this.run.deps.clock.monotonic();
          const target = await this.run.deps.uploads.partTarget(started.uploadId, part.number, { signal });
          const etag = await this.sending.run(async () => {
            const fresh = this.run.deps.clock.monotonic() - asked > SIGNED_URL_FRESH_MS ? await this.run.deps.uploads.partTarget(started.uploadId, part.number, { signal }) : target;
            // Read from disk into two buffers used in turn as the connection takes the bytes (fileSpanBody.ts).
            // The file opened is checked to be the version begun before its bytes are read, and again after them.
            const body = new FileSpanBody(file.localPath, part.start, part.end, undefined, this.run.deps.openLocal, (stats) => sameVersion(versionOf(stats), file));
            body.on('data', (chunk: Buffer) => {
              sent += chunk.length;
              this.run.meter.add(chunk.length);
              this.run.tell(false);
            });
            return this.run.deps.storage.put(fresh.url, body, part.end - part.start, { headers: fresh.headers, successCodes: fresh.successCodes, signal });
          });
          // The bytes sent are the version begun only if it is still there now: else the part is not reported.
          await this.checkUnchanged(file);
          await this.afterRateLimit(() => this.run.deps.uploads.reportPart(started.uploadId, part.number, etag, { signal }), signal);
          this.run.reported(sent);
          moved.bytes += sent;
          return;
        } catch (error) {
          this.run.meter.add(-sent);
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
          if (attempt >= this.run.attempts) throw new FileFailure(l10n.t('Part {0} stopped after {1} tries: {2}', part.number, this.run.attempts, describeError(error)), false);
          await this.run.deps.clock.sleep(backoffWait({ firstMs: this.run.backoffMs, factor: 2, capMs: MAX_BACKOFF_MS }, attempt), signal).catch(() => undefined);
        }
      }
    });
  }

  /**
   * A POST the rate limit refused (429: not processed) is sent again once the limit resets, as often as it takes:
   * many small files spend 5 requests each, and the platform allows 1,000 per 5 minutes.
   */
  async afterRateLimit<T>(call: () => Promise<T>, signal: AbortSignal = this.run.stop): Promise<T> {
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ApiError && error.isRateLimited) || signal.aborted) throw error;
        await this.run.deps.clock.sleep(Math.max(error.untilResetMs ?? 0, this.run.backoffMs) + RATE_LIMIT_SLACK_MS, signal);
      }
    }
  }

  /**
   * A file changed on disk since its upload began is refused: what was sent would not be that file (its bytes taken
   * from two versions). Gone or unreadable: said in the disk's words. Either way its upload is aborted.
   */
  async checkUnchanged(file: LocalFile): Promise<void> {
    const now = await fsp.stat(file.localPath).catch((error: unknown) => {
      throw new FileFailure(describeLocalError(error, file.localPath, 'read'), true);
    });
    if (!sameVersion(versionOf(now), file)) {
      throw new FileFailure(l10n.t('The file changed on disk during the upload: it was not uploaded. Upload it again.'), true);
    }
  }

  /**
   * Aborts an upload on the platform and forgets it. It runs after a Cancel, so only its own limit ends it: a 429 is
   * waited out for up to a minute. One the platform did not drop stays in the resume records, so that the next
   * upload of the file takes it up rather than leaving it unknown.
   */
  async abandon(started: Started): Promise<void> {
    this.run.open.delete(started.recordId);
    const limit = new AbortController();
    const timer = this.run.deps.clock.setTimeout(() => limit.abort(), ABANDON_WAIT_MS);
    try {
      await this.afterRateLimit(() => this.run.deps.uploads.abort(started.uploadId), limit.signal);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return;
    } finally {
      this.run.deps.clock.clearTimeout(timer);
    }
    this.run.written.delete(started.recordId);
    await this.run.deps.resume.set(started.recordId, undefined);
  }
}

/** A file whose completion may have been made and is being checked: kept as it is, never begun again meanwhile. */
export function beingChecked(error: ApiError): FileFailure {
  return new FileFailure(l10n.t('The platform may have completed it; it is being checked: {0}', describeError(error)), false);
}

/** The record of a file's upload: the same local file to the same place under the same name. */
export function resumeId(localPath: string, destination: FileLocation, name: string): string {
  return JSON.stringify([localPath, destination, name]);
}

export function baseName(file: LocalFile): string {
  return file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1);
}
