// Downloads files from the platform to a local folder: several files at once, a large file as several ranges at once,
// each streamed to a `.part` file by positional writes (never a whole file in memory), checked by size before it takes
// its name. It resumes from the bytes already on disk after a Cancel, a dropped connection, a storage 5xx, an expired
// URL (download_info is asked again) or a window reload (the ranges each `.part` holds are kept in stored state).
// No `vscode`: the editor side calls `plan`, then `run`. See README.md.
import * as l10n from '@vscode/l10n';
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import { StorageError, type StorageClient } from '../api/storage';
import { describeLocalError, keepBothName, targetPath } from './localFiles';
import { downloadRanges, type Span } from './partPlan';
import { ProgressMeter, type TransferProgress } from './progress';
import { addRange, rangesBytes, type DownloadResume, type ResumeBook } from './resumeState';

export interface DownloadItem {
  fileId: string;
  /** Where it lands under the target folder, `/`-separated: the remote layout (`folder/sub/a.bam`, `<task>/<output>`). */
  relativePath: string;
  /** From the listing; without it, the storage's answer tells. */
  size?: number;
}

/** What to do with a file already at the path with another size. */
export type ExistingChoice = 'overwrite' | 'keepBoth' | 'skip';
export type ExistingPolicy = ExistingChoice | 'ask';

export interface ExistingFile {
  item: DownloadItem;
  path: string;
  localSize: number;
}

export interface DownloadRequest {
  /** The local folder (absolute). */
  target: string;
  items: readonly DownloadItem[];
  ifExists: ExistingPolicy;
  /** With `ask`: called once per file there already with another size, one at a time, before any byte moves. */
  ask?: (existing: ExistingFile) => Promise<ExistingChoice>;
  /** With `ask` and several such files: one answer for them all first, or `each` to be asked per file. */
  askAll?: (existing: readonly ExistingFile[]) => Promise<ExistingChoice | 'each'>;
}

export interface PlannedFile {
  item: DownloadItem;
  /** The path it takes when whole (a "keep both" name when so chosen). */
  path: string;
  partPath: string;
  /** Bytes of it already on disk (a `.part` left by an earlier run), kept. */
  resumeFrom: number;
}

export interface DownloadPlan {
  target: string;
  files: PlannedFile[];
  skipped: { item: DownloadItem; path: string; reason: string }[];
  /** Items that cannot be placed (a path leaving the folder, a folder in the way), with why. */
  refused: { item: DownloadItem; reason: string }[];
  /** Bytes still to fetch, and what the disk has free (undefined when it cannot tell). */
  space: { needed: number; available: number | undefined };
  /** True when the files need more than the disk has: say so before the first byte. */
  shortfall: boolean;
}

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
}

/** The local disk as the engine uses it: a file opened for positional writes (a test may fill the disk). */
export interface LocalDisk {
  open(path: string, flags: 'r+' | 'w'): Promise<WritableFile>;
}
export interface WritableFile {
  /** Resolves with `{ bytesWritten }` (fewer than `length`: the rest is written again). */
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<unknown>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

export interface DownloaderDeps {
  /** The signed URL of a file (`GET /v2/files/{id}/download_info`). */
  downloadInfo(fileId: string, signal?: AbortSignal): Promise<string>;
  storage: Pick<StorageClient, 'read'>;
  clock: Clock;
  /** The account's records of downloads under way. */
  resume: ResumeBook<DownloadResume>;
  /** Requests to the storage at once (files and ranges together); default 8. */
  connections?: number;
  /** Tries of a range that make no progress before its file fails; default 6. */
  attempts?: number;
  /** First wait after a fault, doubled each time (at most 30 s); default 1 s. */
  backoffMs?: number;
  /** Bytes free on the disk holding `dir`; default `fs.statfs`. */
  freeSpace?(dir: string): Promise<number | undefined>;
  disk?: LocalDisk;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?(progress: TransferProgress): void;
}

/** How often the ranges each `.part` holds are written to stored state (and at the end of a run). */
const SAVE_EVERY_MS = 2_000;
/** A write buffer's size: the bytes received gathered before they are handed to the `.part` file. */
const WRITE_BYTES = 512 * 1024;
/**
 * The most one call to the disk writes, as the official client's (32 KiB). On the bench's machine (Linux 6.18 in a
 * VM) copying a GiB into the file's cache in larger calls cost the kernel 0.2 s in one run and 0.7–2 s in the next.
 * This side's CPU for the bench's 1 GiB download: 1.4–1.7 s in eight runs of nine with calls of 32 KiB (system
 * 0.8–0.95 s), 1.4–3.7 s with 64 KiB (system 0.8–2.4 s), 2.1–2.9 s with 512 KiB. Calls of 32 KiB are not immune:
 * some later runs of them took 2.4–3.2 s (system 1.7–2.6 s).
 */
const WRITE_CALL_BYTES = 32 * 1024;
const MAX_BACKOFF_MS = 30_000;

const nodeDisk: LocalDisk = { open: (p, flags) => fsp.open(p, flags) };

export class Downloader {
  private readonly connections: number;

  constructor(private readonly deps: DownloaderDeps) {
    this.connections = Math.max(1, deps.connections ?? 8);
  }

  /**
   * Where each file goes, what is skipped (there already with the same size, or by choice), what resumes, and
   * whether the disk has room; asks about files there with another size (`ask`). Moves no byte.
   */
  async plan(request: DownloadRequest): Promise<DownloadPlan> {
    const target = path.resolve(request.target);
    const plan: DownloadPlan = { target, files: [], skipped: [], refused: [], space: { needed: 0, available: undefined }, shortfall: false };
    // First where each lands and what is there, so that every file there with another size is asked about at once.
    const placed: { item: DownloadItem; file: string; localSize?: number }[] = [];
    for (const item of request.items) {
      const file = targetPath(target, item.relativePath);
      if (!file) {
        plan.refused.push({ item, reason: l10n.t('"{0}" is not a path inside the folder.', item.relativePath) });
        continue;
      }
      const there = await statOf(file);
      if (there?.isDirectory()) {
        plan.refused.push({ item, reason: describeLocalError({ code: 'EISDIR' }, file) });
        continue;
      }
      placed.push({ item, file, localSize: there?.size });
    }
    const choices = await this.choices(request, placed);
    const taken = new Set<string>();
    for (const { item, file: wanted, localSize } of placed) {
      let file = wanted;
      if (localSize !== undefined && !taken.has(file)) {
        if (item.size !== undefined && localSize === item.size) {
          plan.skipped.push({ item, path: file, reason: l10n.t('Already there, with the same size.') });
          // A record left by a window that died after the file took its name.
          if (this.deps.resume.get(`${file}.part`) && !(await statOf(`${file}.part`))) await this.deps.resume.set(`${file}.part`, undefined);
          continue;
        }
        const choice = choices.get(item) ?? 'skip';
        if (choice === 'skip') {
          plan.skipped.push({ item, path: file, reason: l10n.t('Already there, with another size: left as it is.') });
          continue;
        }
        if (choice === 'keepBoth') file = await this.freeName(file, item, taken);
      } else if (taken.has(file)) {
        file = await this.freeName(file, item, taken);
      }
      taken.add(file);
      const partPath = `${file}.part`;
      plan.files.push({ item, path: file, partPath, resumeFrom: await this.resumable(item, partPath) });
    }
    plan.space.needed = plan.files.reduce((n, f) => n + Math.max(0, (f.item.size ?? 0) - f.resumeFrom), 0);
    plan.space.available = await (this.deps.freeSpace ?? freeSpace)(target);
    plan.shortfall = plan.space.available !== undefined && plan.space.needed > plan.space.available;
    return plan;
  }

  /** Fetches the planned files. Never throws for one file: its failure is in the summary, and the rest carries on. */
  async run(plan: DownloadPlan, options: RunOptions = {}): Promise<DownloadSummary> {
    return new DownloadRun(this.deps, this.connections, plan, options).run();
  }

  /**
   * What to do with each file there already with another size: the policy; with `ask`, one answer for them all
   * (`askAll`, when there are several), else one question per file, in order.
   */
  private async choices(request: DownloadRequest, placed: readonly { item: DownloadItem; file: string; localSize?: number }[]): Promise<Map<DownloadItem, ExistingChoice>> {
    const seen = new Set<string>();
    const clashes: ExistingFile[] = [];
    for (const { item, file, localSize } of placed) {
      if (localSize !== undefined && !seen.has(file) && !(item.size !== undefined && localSize === item.size)) clashes.push({ item, path: file, localSize });
      seen.add(file);
    }
    const choices = new Map<DownloadItem, ExistingChoice>();
    if (request.ifExists !== 'ask') {
      for (const clash of clashes) choices.set(clash.item, request.ifExists);
      return choices;
    }
    const forAll = clashes.length > 1 && request.askAll ? await request.askAll(clashes) : 'each';
    for (const clash of clashes) choices.set(clash.item, forAll !== 'each' ? forAll : await (request.ask?.(clash) ?? 'skip'));
    return choices;
  }

  /** The first `name (n).ext` free at that path: neither there nor planned, its `.part` absent or this file's own. */
  private async freeName(file: string, item: DownloadItem, taken: Set<string>): Promise<string> {
    const dir = path.dirname(file);
    for (let n = 1; ; n++) {
      const candidate = path.join(dir, keepBothName(path.basename(file), n));
      if (taken.has(candidate) || (await statOf(candidate))) continue;
      const part = await statOf(`${candidate}.part`);
      if (!part || this.deps.resume.get(`${candidate}.part`)?.fileId === item.fileId) return candidate;
    }
  }

  /** Bytes of a `.part` an earlier run left that this file can keep: only those its record vouches for. */
  private async resumable(item: DownloadItem, partPath: string): Promise<number> {
    const record = this.deps.resume.get(partPath);
    if (!record || record.fileId !== item.fileId || (item.size !== undefined && record.size !== item.size)) return 0;
    const part = await statOf(partPath);
    const end = record.done.length ? record.done[record.done.length - 1][1] : 0;
    return part && part.size >= end ? rangesBytes(record.done) : 0;
  }
}

/** One file under way. */
interface Job {
  planned: PlannedFile;
  size: number | undefined;
  /** Ranges not yet taken by a connection. */
  pending: Span[];
  inFlight: number;
  /** `[start, end)` written. */
  done: [number, number][];
  etag: string | undefined;
  /** The signed URL being asked for or in use, and the one in use once known. */
  url: Promise<string> | undefined;
  currentUrl: string | undefined;
  file: WritableFile | undefined;
  controller: AbortController;
  state: 'waiting' | 'opening' | 'open' | 'finished' | 'failed';
  /** Its ranges changed since they were last saved. */
  unsaved: boolean;
}

class DownloadRun {
  private readonly jobs: Job[];
  /** The next job to open, files being opened, and open files whose ranges are not all taken yet. */
  private nextJob = 0;
  private opening = 0;
  private readonly active = new Set<Job>();
  private readonly meter: ProgressMeter;
  private readonly summary: DownloadSummary;
  private readonly signal: AbortSignal;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly disk: LocalDisk;
  private lastSave: number;
  /** Write buffers not in use (at most one a connection is ever made). */
  private readonly spare: Buffer[] = [];
  /** Wakes idle connections when a file opens (its ranges can be taken) or work ends. */
  private wake: () => void = () => undefined;
  private woken: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: DownloaderDeps,
    private readonly connections: number,
    plan: DownloadPlan,
    private readonly options: RunOptions,
  ) {
    this.signal = options.signal ?? new AbortController().signal;
    this.attempts = deps.attempts ?? 6;
    this.backoffMs = deps.backoffMs ?? 1_000;
    this.disk = deps.disk ?? nodeDisk;
    this.lastSave = deps.clock.now();
    this.jobs = plan.files.map((planned) => ({
      planned,
      size: planned.item.size,
      pending: [],
      inFlight: 0,
      done: planned.resumeFrom ? (deps.resume.get(planned.partPath)?.done ?? []) : [],
      etag: planned.resumeFrom ? deps.resume.get(planned.partPath)?.etag : undefined,
      url: undefined,
      currentUrl: undefined,
      file: undefined,
      controller: new AbortController(),
      state: 'waiting',
      unsaved: false,
    }));
    this.meter = new ProgressMeter(deps.clock, {
      files: plan.files.length,
      bytes: plan.files.reduce((n, f) => n + (f.item.size ?? 0), 0),
      bytesDoneAtStart: plan.files.reduce((n, f) => n + f.resumeFrom, 0),
    });
    this.summary = {
      target: plan.target,
      cancelled: false,
      saved: [],
      bytes: 0,
      skipped: [...plan.skipped],
      failed: plan.refused.map((r) => ({ item: r.item, reason: r.reason })),
      retry: [],
    };
    this.rearm();
    this.signal.addEventListener('abort', () => this.notify(), { once: true });
  }

  async run(): Promise<DownloadSummary> {
    this.tell(true);
    await Promise.all(Array.from({ length: this.connections }, () => this.connection()));
    for (const job of this.jobs) await this.close(job);
    this.save(true);
    this.summary.cancelled = this.signal.aborted;
    for (const job of this.jobs) {
      if (job.state === 'finished' || job.state === 'failed') continue;
      this.summary.retry.push(this.retryItem(job));
    }
    this.tell(true);
    return this.summary;
  }

  private rearm(): void {
    this.woken = new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    this.wake();
    this.rearm();
  }

  /** One connection's loop: a pending range of an open file, else the next file, until there is nothing left. */
  private async connection(): Promise<void> {
    while (!this.signal.aborted) {
      const open = this.withRanges();
      if (open) {
        await this.fetch(open, open.pending.shift()!);
        continue;
      }
      if (this.nextJob < this.jobs.length) {
        await this.open(this.jobs[this.nextJob++]);
        continue;
      }
      if (!this.opening) return;
      await this.woken;
    }
  }

  /** The first open file with a range no connection has taken yet. */
  private withRanges(): Job | undefined {
    for (const job of this.active) {
      if (job.state === 'open' && job.pending.length) return job;
      this.active.delete(job);
    }
    return undefined;
  }

  private async open(job: Job): Promise<void> {
    job.state = 'opening';
    this.opening++;
    try {
      await this.openFile(job);
    } finally {
      this.opening--;
      this.notify();
    }
  }

  private async openFile(job: Job): Promise<void> {
    const { planned } = job;
    const signal = AbortSignal.any([this.signal, job.controller.signal]);
    try {
      await this.urlOf(job, signal);
    } catch (error) {
      if (isCancelled(error, this.signal)) return this.putBack(job);
      return this.fail(job, remoteFailure(error), false);
    }
    try {
      await fsp.mkdir(path.dirname(planned.partPath), { recursive: true });
      job.file = await this.disk.open(planned.partPath, job.done.length ? 'r+' : 'w');
    } catch (error) {
      return this.fail(job, describeLocalError(error, planned.partPath), false);
    }
    if (job.size === undefined) {
      job.pending = [{ number: 1, start: 0, end: Infinity }];
    } else {
      job.pending = withoutDone(downloadRanges(job.size, this.connections), job.done);
    }
    job.state = 'open';
    this.active.add(job);
    if (!job.pending.length) await this.finish(job);
  }

  /** A file that was being opened when Cancel came waits again (it is retried as it was). */
  private putBack(job: Job): void {
    job.state = 'waiting';
  }

  private async fetch(job: Job, span: Span): Promise<void> {
    job.inFlight++;
    try {
      await this.fetchSpan(job, span);
    } finally {
      job.inFlight--;
    }
    if (job.state === 'open' && !job.pending.length && job.inFlight === 0 && !this.signal.aborted) await this.finish(job);
    if (job.state === 'failed' && job.inFlight === 0) await this.close(job);
  }

  /**
   * Fetches `span` into the file, resuming after each fault from the last byte written, until done or given up.
   * The bytes received are copied into a write buffer of the run's (reused), handed to a write when full while the
   * next ones go into another; only when that one is full too before the write is done does the response wait (its
   * next bytes in the socket): a slow disk does not hold the connection back. Each chunk of the socket is dropped
   * as soon as it is copied: it dies young, in a cheap collection, instead of living through a write and needing a
   * full one (holding 1 MiB of chunks a range for each write cost about twice the CPU at loopback speed).
   */
  private async fetchSpan(job: Job, span: Span): Promise<void> {
    const signal = AbortSignal.any([this.signal, job.controller.signal]);
    /** The next byte to hand to a write; the bytes received after it, in `buffer`. */
    let next = span.start;
    let buffer: Buffer | undefined;
    let filled = 0;
    /** The write of the buffer before, on its way (at most one a range). */
    let writing: { done: Promise<void>; buffer: Buffer } | undefined;
    const settle = async () => {
      const pending = writing;
      writing = undefined;
      if (!pending) return;
      try {
        await pending.done;
      } finally {
        this.spare.push(pending.buffer);
      }
    };
    /** Hands the buffer to a write, once the one before is done; the next bytes go into another buffer. */
    const handOver = async () => {
      await settle();
      if (!filled) return;
      const done = this.write(job, buffer!, filled, next);
      done.catch(() => undefined); // its failure is thrown where it is settled
      writing = { done, buffer: buffer! };
      next += filled;
      [buffer, filled] = [undefined, 0];
    };
    const flush = async () => {
      await handOver();
      await settle();
    };
    let faults = 0;
    try {
      while (next < span.end && job.state === 'open' && !signal.aborted) {
        let url: string | undefined;
        try {
          url = await this.urlOf(job, signal);
          const read = await this.deps.storage.read(url, { start: next, end: span.end === Infinity ? undefined : span.end - 1 }, signal);
          const problem = this.check(job, read.status, read.size, read.etag);
          if (problem) return this.fail(job, problem.reason, problem.discard);
          if (span.end === Infinity) span.end = job.size ?? Infinity;
          // A storage that ignores Range sends the file from its start: what comes before `next` is passed over.
          let at = read.start;
          for await (const chunk of read.body) {
            let from = Math.max(0, next + filled - at);
            const to = Math.min(chunk.length, span.end - at);
            at += chunk.length;
            if (to <= from) continue;
            faults = 0;
            while (from < to) {
              buffer ??= this.spare.pop() ?? Buffer.allocUnsafe(WRITE_BYTES);
              const copied = chunk.copy(buffer, filled, from, to);
              from += copied;
              filled += copied;
              if (filled === buffer.length) await handOver();
            }
          }
          await flush();
          if (span.end === Infinity) {
            // A file of unknown size: the end of the body is its end.
            if (job.size === undefined) this.meter.sizeLearned(next);
            span.end = job.size = next;
          }
          if (next < span.end) throw new ApiError({ kind: 'network', message: l10n.t('the file storage ended the answer early') });
        } catch (error) {
          // What arrived before the fault (or the Cancel) is kept.
          if (!isLocal(error) && job.state === 'open') {
            try {
              await flush();
            } catch (local) {
              return this.fail(job, describeLocalError(local, job.planned.partPath), false);
            }
          }
          if (signal.aborted || job.state !== 'open') return;
          if (isLocal(error)) return this.fail(job, describeLocalError(error, job.planned.partPath), false);
          if (error instanceof StorageError && error.gone) return this.fail(job, gone(), true);
          if (url === undefined && error instanceof ApiError && error.status === 404) return this.fail(job, gone(), true);
          if (error instanceof StorageError && error.linkRefused) this.refreshUrl(job, url!);
          else if (!(error instanceof ApiError && error.isTransient)) return this.fail(job, url === undefined ? remoteFailure(error) : describeError(error), false);
          if (++faults >= this.attempts) return this.fail(job, l10n.t('Stopped after {0} tries: {1}', this.attempts, describeError(error)), false);
          try {
            await this.deps.clock.sleep(Math.min(MAX_BACKOFF_MS, this.backoffMs * 2 ** (faults - 1)), signal);
          } catch {
            return;
          }
        }
      }
    } finally {
      // A range given up while a write is on its way (another range failed the file): that write ends first.
      await settle().catch(() => undefined);
      if (buffer) this.spare.push(buffer);
    }
  }

  /** What is wrong with an answer for this file, if anything: another size or other bytes than before. */
  private check(job: Job, status: number, size: number | undefined, etag: string | undefined): { reason: string; discard: boolean } | undefined {
    if (status === 416) return { reason: l10n.t('The file on the platform is smaller than listed: it changed. Download it again.'), discard: true };
    if (size !== undefined && job.size !== undefined && size !== job.size) {
      return { reason: l10n.t('The platform lists {0} bytes but the storage has {1}: the file changed. Download it again.', job.size, size), discard: true };
    }
    if (job.size === undefined && size !== undefined) {
      job.size = size;
      this.meter.sizeLearned(size);
    }
    if (etag && job.etag && etag !== job.etag) return { reason: l10n.t('The file changed on the platform during the download. Download it again.'), discard: true };
    if (etag && !job.etag) {
      job.etag = etag;
      job.unsaved = true;
    }
    return undefined;
  }

  /** Writes `length` bytes of `buffer` at `position` in the file, in calls of at most WRITE_CALL_BYTES. */
  private async write(job: Job, buffer: Buffer, length: number, position: number): Promise<void> {
    const file = job.file!;
    try {
      for (let wrote = 0; wrote < length; ) {
        const asked = Math.min(WRITE_CALL_BYTES, length - wrote);
        const bytes = ((await file.write(buffer, wrote, asked, position + wrote)) as { bytesWritten?: number } | undefined)?.bytesWritten ?? asked;
        if (bytes <= 0) throw Object.assign(new Error('the disk took no byte of a write'), { code: 'EIO' });
        wrote += bytes;
      }
    } catch (error) {
      throw Object.assign(new Error(error instanceof Error ? error.message : String(error)), { code: (error as { code?: string }).code ?? 'EIO', local: true });
    }
    job.done = addRange(job.done, position, position + length);
    job.unsaved = true;
    this.summary.bytes += length;
    this.meter.add(length);
    this.tell(false);
    this.save(false);
  }

  /** The file's signed URL: the one in use, or a new one from download_info (asked once for all its ranges). */
  private urlOf(job: Job, signal: AbortSignal): Promise<string> {
    if (!job.url) {
      const asked: Promise<string> = this.deps.downloadInfo(job.planned.item.fileId, signal).then(
        (url) => (job.currentUrl = url),
        (error: unknown) => {
          if (job.url === asked) job.url = undefined;
          throw error;
        },
      );
      job.url = asked;
    }
    return job.url;
  }

  /** A URL the storage refused (expired): the next try asks download_info again, once, whichever range saw it first. */
  private refreshUrl(job: Job, refused: string): void {
    if (job.currentUrl !== refused) return;
    job.currentUrl = undefined;
    job.url = undefined;
  }

  private async finish(job: Job): Promise<void> {
    const { planned } = job;
    job.state = 'finished';
    try {
      const size = (await job.file!.stat()).size;
      await this.close(job);
      if (size !== job.size || rangesBytes(job.done) !== job.size) {
        job.state = 'open';
        return this.fail(job, l10n.t('{0} has {1} bytes where {2} were expected. Download it again.', planned.partPath, size, job.size ?? 0), true);
      }
      await fsp.rename(planned.partPath, planned.path);
    } catch (error) {
      job.state = 'open';
      return this.fail(job, describeLocalError(error, planned.path), false);
    }
    job.unsaved = false;
    void this.deps.resume.set(planned.partPath, undefined);
    this.summary.saved.push(planned.path);
    this.meter.fileDone();
    this.tell(true);
    this.notify();
  }

  /**
   * A file given up: the rest carries on. Its `.part` and record stay for a retry to resume, unless its bytes are
   * no use (the remote file is gone or changed).
   */
  private async fail(job: Job, reason: string, discard: boolean): Promise<void> {
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
      if (job.inFlight === 0) await this.close(job);
      await fsp.rm(job.planned.partPath, { force: true }).catch(() => undefined);
    } else if (job.inFlight === 0) {
      await this.close(job);
    }
    this.tell(true);
    this.notify();
  }

  private async close(job: Job): Promise<void> {
    const file = job.file;
    job.file = undefined;
    await file?.close().catch(() => undefined);
  }

  private retryItem(job: Job): DownloadItem {
    const relativePath = path.relative(this.summary.target, job.planned.path).split(path.sep).join('/');
    return { ...job.planned.item, relativePath };
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
      if (!job.unsaved || job.size === undefined || job.state === 'finished') continue;
      job.unsaved = false;
      const record: Omit<DownloadResume, 'account'> = {
        fileId: job.planned.item.fileId,
        size: job.size,
        etag: job.etag,
        partPath: job.planned.partPath,
        done: job.done,
      };
      void this.deps.resume.set(job.planned.partPath, record);
    }
  }
}

/** The spans less what is already written. */
function withoutDone(spans: Span[], done: readonly [number, number][]): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    let start = span.start;
    for (const [a, b] of done) {
      if (b <= start || a >= span.end) continue;
      if (a > start) out.push({ number: out.length + 1, start, end: a });
      start = Math.max(start, b);
    }
    if (start < span.end) out.push({ number: out.length + 1, start, end: span.end });
  }
  return out;
}

async function statOf(file: string): Promise<import('fs').Stats | undefined> {
  try {
    return await fsp.stat(file);
  } catch {
    return undefined;
  }
}

/** Bytes free on the disk that holds `dir` (or its nearest existing parent). */
async function freeSpace(dir: string): Promise<number | undefined> {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      const stats = await fsp.statfs(at);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT' || path.dirname(at) === at) return undefined;
    }
  }
}

function isCancelled(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof ApiError && error.isCancelled);
}

function isLocal(error: unknown): boolean {
  return (error as { local?: boolean })?.local === true;
}

function gone(): string {
  return l10n.t('The file is no longer on the platform (deleted).');
}

/** Why download_info failed for a file, in words. */
function remoteFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return gone();
  return describeError(error);
}
