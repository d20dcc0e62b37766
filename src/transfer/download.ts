// Downloads files from the platform to a local folder: several files at once, a large file as several ranges at once,
// each streamed to a `.part` file by positional writes (never a whole file in memory). Every answer of the storage is
// checked against what was asked and what it said before; a file takes its name only when its ranges cover the size
// the storage said, exactly. Nothing is written outside the folder nor through a link (underFolder.ts). It resumes
// from the bytes already on disk after a Cancel, a dropped connection, a storage 5xx, an expired URL (download_info
// is asked again) or a window reload (the ranges each `.part` holds are kept in stored state).
// No `vscode`: the editor side calls `plan` (downloadPlan.ts), then `run`: the files over the connections, each
// opened, finished or failed here, its ranges read by rangeFetcher.ts. See README.md.
import * as l10n from '@vscode/l10n';
import { promises as fsp, writeSync } from 'fs';
import * as path from 'path';
import type { Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import type { StorageClient } from '../api/storage';
import { planDownload, sizeHint, type DownloadItem, type DownloadPlan, type DownloadRequest, type PlanDeps } from './downloadPlan';
import { describeLocalError } from './localFiles';
import { downloadRanges, SIGNED_URL_FRESH_MS, type Span } from './partPlan';
import { ProgressMeter, type TransferProgress } from './progress';
import { isWhole, rangesBytes, type DownloadResume } from './resumeState';
import { openUnder, renameUnder, type OpenHow } from './underFolder';
import { RangeFetcher, remoteFailure, withoutDone, type DownloadJob, type WritableFile } from './rangeFetcher';

export interface DownloadSummary {
  target: string;
  cancelled: boolean;
  /** Files that took their names in this run, and where. */
  saved: string[];
  /** Bytes received in this run. */
  bytes: number;
  skipped: { item: DownloadItem; path: string; reason: string }[];
  failed: { item: DownloadItem; reason: string }[];
  /** What Retry sends again (the failed, and what a Cancel left): it resumes from the bytes on disk. */
  retry: DownloadItem[];
  /** The `.part` files left with a record to resume them (Data Jobs shows them): the bytes each holds, of its file's size. */
  kept: { partPath: string; bytes: number; size: number }[];
}

/**
 * The local disk as the engine uses it: a file below the target folder opened for positional writes, as `how` says
 * (a test may fill the disk). The engine's own opens it with `openUnder` (underFolder.ts): no link followed.
 */
export interface LocalDisk {
  open(target: string, path: string, how: OpenHow): Promise<WritableFile>;
}

/** What a download reads: the platform, the storage, the clock; and what its plan reads (the resume records, the disk's room). */
export interface DownloaderDeps extends PlanDeps {
  /** The signed URL of a file (`GET /v2/files/{id}/download_info`). */
  downloadInfo(fileId: string, signal?: AbortSignal): Promise<string>;
  storage: Pick<StorageClient, 'read'>;
  clock: Clock;
  /** Requests to the storage at once (files and ranges together); default 8. */
  connections?: number;
  /** Tries of a range that make no progress before its file fails; default 6. */
  attempts?: number;
  /** First wait after a fault, doubled each time (at most 30 s); default 1 s. */
  backoffMs?: number;
  disk?: LocalDisk;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?(progress: TransferProgress): void;
}

/**
 * Folders whose downloads' writes took too much of the extension's thread (a slow disk, a network share), in this
 * session: later downloads there write through the thread pool from the start.
 */
const slowFolders = new Set<string>();

/** How often the ranges each `.part` holds are written to stored state (and at the end of a run). */
const SAVE_EVERY_MS = 2_000;
const nodeDisk: LocalDisk = { open: async (target, file, how) => localPart(await openUnder(target, file, how)) };

/** A `.part` on this machine's disk: written through the thread pool, or on this thread (`writeNow`). */
function localPart(handle: fsp.FileHandle): WritableFile {
  return {
    write: (buffer, offset, length, position) => handle.write(buffer, offset, length, position),
    writeNow: (buffer, offset, length, position) => writeSync(handle.fd, buffer, offset, length, position),
    stat: () => handle.stat(),
    close: () => handle.close(),
  };
}

export class Downloader {
  private readonly connections: number;

  constructor(private readonly deps: DownloaderDeps) {
    this.connections = Math.max(1, deps.connections ?? 8);
  }

  /** Where each file goes, what is skipped, resumed or asked about, and whether the disk has room (downloadPlan.ts). Moves no byte. */
  plan(request: DownloadRequest): Promise<DownloadPlan> {
    return planDownload(request, this.deps);
  }

  /** Fetches the planned files. Never throws for one file: its failure is in the summary, and the rest carries on. */
  async run(plan: DownloadPlan, options: RunOptions = {}): Promise<DownloadSummary> {
    return new DownloadRun(this.deps, this.connections, plan, options).run();
  }
}

/** One run of a plan: its files opened over the connections, their ranges read, each file finished or failed; what is saved to resume. */
class DownloadRun {
  private readonly jobs: DownloadJob[];
  /** The next job to open, files being opened, ranges being read, and open files whose ranges are not all taken yet. */
  private nextJob = 0;
  private opening = 0;
  private reading = 0;
  private readonly active = new Set<DownloadJob>();
  private readonly meter: ProgressMeter;
  private readonly summary: DownloadSummary;
  private readonly signal: AbortSignal;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly disk: LocalDisk;
  private lastSave: number;
  /** Wakes idle connections when a file opens (its ranges can be taken), a range is given back, or work ends. */
  private wake: () => void = () => undefined;
  private woken: Promise<void> = Promise.resolve();
  /** Reads the files' ranges into their `.part` files (rangeFetcher.ts). */
  private readonly ranges: RangeFetcher;
  /** When each file's URL was asked ahead of its turn (once a file at most). */
  private readonly askedAhead = new Map<DownloadJob, number>();

  constructor(
    private readonly deps: DownloaderDeps,
    private readonly connections: number,
    private readonly plan: DownloadPlan,
    private readonly options: RunOptions,
  ) {
    this.signal = options.signal ?? new AbortController().signal;
    this.attempts = deps.attempts ?? 6;
    this.backoffMs = deps.backoffMs ?? 1_000;
    this.disk = deps.disk ?? nodeDisk;
    this.lastSave = deps.clock.now();
    this.jobs = plan.files.map((planned) => {
      const record = planned.resumeFrom ? deps.resume.get(planned.partPath) : undefined;
      const hint = sizeHint(planned.item);
      return {
        planned,
        size: record ? record.size : hint || undefined,
        sizeKnown: !!record,
        pending: [],
        reading: new Set<Span>(),
        wholeOnly: false,
        done: record?.done ?? [],
        etag: record?.etag,
        url: undefined,
        currentUrl: undefined,
        file: undefined,
        controller: new AbortController(),
        state: 'waiting',
        unsaved: false,
      };
    });
    this.meter = new ProgressMeter(deps.clock, {
      files: plan.files.length,
      bytes: this.jobs.reduce((n, job) => n + (job.size ?? 0), 0),
      bytesDoneAtStart: plan.files.reduce((n, f) => n + f.resumeFrom, 0),
    });
    this.summary = {
      target: plan.target,
      cancelled: false,
      saved: [],
      bytes: 0,
      skipped: [...plan.skipped],
      failed: plan.refused.map((r) => ({ item: r.item, reason: r.reason })),
      retry: plan.refused.filter((r) => r.retryable).map((r) => r.item),
      kept: [],
    };
    this.ranges = new RangeFetcher(
      {
        deps,
        signal: this.signal,
        connections,
        attempts: this.attempts,
        backoffMs: this.backoffMs,
        meter: this.meter,
        active: this.active,
        notify: () => this.notify(),
        fail: (job, reason, discard) => this.fail(job, reason, discard),
        wrote: (length) => {
          this.summary.bytes += length;
          this.meter.add(length);
          this.tell(false);
          this.save(false);
        },
        writesMoved: () => slowFolders.add(plan.target),
      },
      slowFolders.has(plan.target),
    );
    this.rearm();
    this.signal.addEventListener('abort', () => this.notify(), { once: true });
  }

  async run(): Promise<DownloadSummary> {
    this.tell(true);
    await Promise.all(Array.from({ length: this.connections }, () => this.connection()));
    for (const job of this.jobs) await this.close(job);
    await this.dropUnresumable();
    this.save(true);
    this.summary.cancelled = this.signal.aborted;
    for (const job of this.jobs) {
      if (job.state !== 'finished' && job.sizeKnown && rangesBytes(job.done) > 0) this.summary.kept.push({ partPath: job.planned.partPath, bytes: rangesBytes(job.done), size: job.size! });
      if (job.state === 'finished' || job.state === 'failed') continue;
      this.summary.retry.push(this.retryItem(job));
    }
    this.tell(true);
    return this.summary;
  }

  /**
   * A `.part` is left only with a record that can resume it (Data Jobs shows it, with Resume and Discard): one this
   * run opened that holds no byte, or whose size the storage never said (no record is kept without it), is removed.
   */
  private async dropUnresumable(): Promise<void> {
    for (const job of this.jobs) {
      if (!job.opened || job.state === 'finished' || (job.sizeKnown && rangesBytes(job.done) > 0)) continue;
      job.unsaved = false;
      await this.deps.resume.set(job.planned.partPath, undefined);
      await fsp.rm(job.planned.partPath, { force: true }).catch(() => undefined);
    }
  }

  private rearm(): void {
    this.woken = new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    this.wake();
    this.rearm();
  }

  /**
   * One connection's loop: a pending range of an open file, else the next file, until there is nothing left. What
   * goes wrong with one file that no rule foresaw fails that file alone, never the run.
   */
  private async connection(): Promise<void> {
    while (!this.signal.aborted) {
      const open = this.withRanges();
      if (open) {
        await this.fetch(open, open.pending.shift()!).catch((error: unknown) => this.fail(open, describeError(error), false));
        continue;
      }
      if (this.nextJob < this.jobs.length) {
        const job = this.jobs[this.nextJob++];
        const opened = this.open(job).catch((error: unknown) => this.fail(job, describeError(error), false));
        this.askAhead();
        await opened;
        continue;
      }
      if (!this.opening && !this.reading) return;
      await this.woken;
    }
  }

  /**
   * Asks the signed URLs of the files to open next (as many as there are connections) while the ones before are read:
   * a small file then waits for one round trip, its bytes, not two. Each file's once at most: one that fails is asked
   * again when its file opens (and fails it then), one that waited past SIGNED_URL_FRESH_MS (the ranges of a large
   * file taken first) too.
   */
  private askAhead(): void {
    for (const job of this.jobs.slice(this.nextJob, this.nextJob + this.connections)) {
      if (job.url || job.state !== 'waiting' || this.askedAhead.has(job)) continue;
      this.askedAhead.set(job, this.deps.clock.monotonic());
      this.ranges.urlOf(job, AbortSignal.any([this.signal, job.controller.signal])).catch(() => undefined);
    }
  }

  /**
   * As its file opens, forgets when its URL was asked ahead (a run of many files keeps no entry a file); a URL that
   * waited too long for it is dropped: `urlOf` asks again.
   */
  private dropStaleUrl(job: DownloadJob): void {
    const asked = this.askedAhead.get(job);
    this.askedAhead.delete(job);
    if (asked === undefined || this.deps.clock.monotonic() - asked <= SIGNED_URL_FRESH_MS) return;
    job.url = undefined;
    job.currentUrl = undefined;
  }

  /** The first open file with a range no connection has taken yet (one that gives the whole file: when none reads it). */
  private withRanges(): DownloadJob | undefined {
    for (const job of this.active) {
      if (job.state === 'open' && job.pending.length) {
        if (!job.wholeOnly || !job.reading.size) return job;
        continue;
      }
      this.active.delete(job);
    }
    return undefined;
  }

  private async open(job: DownloadJob): Promise<void> {
    job.state = 'opening';
    this.opening++;
    try {
      await this.openFile(job);
    } finally {
      this.opening--;
      this.notify();
    }
  }

  private async openFile(job: DownloadJob): Promise<void> {
    const { planned } = job;
    const signal = AbortSignal.any([this.signal, job.controller.signal]);
    this.dropStaleUrl(job);
    try {
      await this.ranges.urlOf(job, signal);
    } catch (error) {
      if (isCancelled(error, this.signal)) return this.putBack(job);
      return this.fail(job, remoteFailure(error), false);
    }
    try {
      job.file = await this.disk.open(this.plan.target, planned.partPath, job.done.length ? 'update' : planned.partThere ? 'replace' : 'new');
      job.opened = true;
    } catch (error) {
      return this.fail(job, describeLocalError(error, planned.partPath), false);
    }
    // Without a size to plan ranges by, one range reads the file to its end, which the storage's answer tells.
    job.pending = job.size === undefined ? [{ number: 1, start: 0, end: Infinity }] : withoutDone(downloadRanges(job.size, this.connections), job.done);
    job.state = 'open';
    this.active.add(job);
    if (!job.pending.length) await this.finish(job);
  }

  /** A file that was being opened when Cancel came waits again (it is retried as it was). */
  private putBack(job: DownloadJob): void {
    job.state = 'waiting';
  }

  private async fetch(job: DownloadJob, span: Span): Promise<void> {
    job.reading.add(span);
    this.reading++;
    try {
      await this.ranges.fetchSpan(job, span);
    } finally {
      job.reading.delete(span);
      this.reading--;
      this.notify();
    }
    if (job.state === 'open' && !job.pending.length && !job.reading.size && !this.signal.aborted) await this.finish(job);
    if (job.state === 'failed' && !job.reading.size) await this.close(job);
  }

  /** The file takes its name only when the storage said its size and its ranges cover exactly that: no hole, nothing more. */
  private async finish(job: DownloadJob): Promise<void> {
    const { planned } = job;
    job.state = 'finished';
    try {
      const size = (await job.file!.stat()).size;
      await this.close(job);
      if (!job.sizeKnown) {
        job.state = 'open';
        return this.fail(job, l10n.t('The file storage never said the size of the file: it was not saved. Try again later.'), true);
      }
      if (!isWhole(job.done, job.size!) || size !== job.size) {
        job.state = 'open';
        return this.fail(job, l10n.t('{0} is not whole: {1} bytes written of {2}, {3} on disk. Download it again.', planned.partPath, rangesBytes(job.done), job.size!, size), true);
      }
      await renameUnder(this.plan.target, planned.partPath, planned.path);
    } catch (error) {
      job.state = 'open';
      return this.fail(job, describeLocalError(error, planned.path), false);
    }
    job.unsaved = false;
    void this.deps.resume.set(planned.partPath, undefined);
    this.summary.saved.push(planned.path);
    this.meter.fileDone();
    this.tell(false);
    this.notify();
  }

  /**
   * A file given up: the rest carries on. Its `.part` and record stay for a retry to resume, unless its bytes are
   * no use (the remote file is gone or changed).
   */
  private async fail(job: DownloadJob, reason: string, discard: boolean): Promise<void> {
    if (job.state === 'failed' || job.state === 'finished') return;
    job.state = 'failed';
    job.controller.abort();
    this.summary.failed.push({ item: job.planned.item, reason });
    this.summary.retry.push(this.retryItem(job));
    this.meter.fileDropped(Math.max(0, (job.size ?? 0) - rangesBytes(job.done)));
    if (discard) {
      job.unsaved = false;
      job.done = [];
      void this.deps.resume.set(job.planned.partPath, undefined);
      if (!job.reading.size) await this.close(job);
      await fsp.rm(job.planned.partPath, { force: true }).catch(() => undefined);
    } else if (!job.reading.size) {
      await this.close(job);
    }
    this.tell(true);
    this.notify();
  }

  private async close(job: DownloadJob): Promise<void> {
    const file = job.file;
    job.file = undefined;
    await file?.close().catch(() => undefined);
  }

  /** The item again, at the path it was given, with the size the storage said (when it did). */
  private retryItem(job: DownloadJob): DownloadItem {
    const relativePath = path.relative(this.summary.target, job.planned.path).split(path.sep).join('/');
    return { ...job.planned.item, relativePath, ...(job.sizeKnown ? { size: job.size } : {}) };
  }

  private tell(force: boolean): void {
    if (this.options.onProgress && this.meter.due(force)) this.options.onProgress(this.meter.snapshot());
  }

  /** Writes the ranges of each `.part` that changed, at most every SAVE_EVERY_MS (and at the end). */
  private save(force: boolean): void {
    const now = this.deps.clock.now();
    if (!force && now - this.lastSave < SAVE_EVERY_MS) return;
    this.lastSave = now;
    for (const job of this.jobs) {
      // Only a size the storage said is kept: the next run trusts the record's.
      if (!job.unsaved || !job.sizeKnown || job.state === 'finished') continue;
      job.unsaved = false;
      const record: Omit<DownloadResume, 'account'> = {
        fileId: job.planned.item.fileId,
        size: job.size!,
        etag: job.etag,
        partPath: job.planned.partPath,
        path: job.planned.path,
        done: job.done,
      };
      void this.deps.resume.set(job.planned.partPath, record);
    }
  }
}

function isCancelled(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof ApiError && error.isCancelled);
}
