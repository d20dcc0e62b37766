// Downloads files from the platform to a local folder: several files at once, a large file as several ranges at once,
// each streamed to a `.part` file by positional writes (never a whole file in memory). Every answer of the storage is
// checked against what was asked and what it said before; a file takes its name only when its ranges cover the size
// the storage said, exactly. Nothing is written outside the folder nor through a link (underFolder.ts). It resumes
// from the bytes already on disk after a Cancel, a dropped connection, a storage 5xx, an expired URL (download_info
// is asked again) or a window reload (the ranges each `.part` holds are kept in stored state).
// No `vscode`: the editor side calls `plan` (downloadPlan.ts), then `run`. See README.md.
import * as l10n from '@vscode/l10n';
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import { StorageAnswerError, StorageError, type StorageClient, type StorageRead } from '../api/storage';
import { backoffWait } from '../util/backoff';
import { isLocalError, localError } from '../util/localError';
import { planDownload, plausibleSize, sizeHint, type DownloadItem, type DownloadPlan, type DownloadRequest, type PlanDeps, type PlannedFile } from './downloadPlan';
import { describeLocalError } from './localFiles';
import { downloadRanges, type Span } from './partPlan';
import { ProgressMeter, type TransferProgress } from './progress';
import { addRange, isWhole, rangesBytes, type DownloadResume } from './resumeState';
import { openUnder, renameUnder, type OpenHow } from './underFolder';

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
export interface WritableFile {
  /** Resolves with `{ bytesWritten }` (fewer than `length`: the rest is written again). */
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<unknown>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
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

/** How often the ranges each `.part` holds are written to stored state (and at the end of a run). */
const SAVE_EVERY_MS = 2_000;
/**
 * A write buffer's size: the bytes received gathered before they are handed to the `.part` file, in one call. Each
 * call to the disk goes through libuv's thread pool, and the hand-over costs more than the bytes: alone, writing
 * 1 GiB took 1.7–2.4 s of CPU in calls of 32 KiB, 0.4–0.6 s in calls of 512 KiB. For the bench's 1 GiB download
 * (two cores, load 5–9, CPU of user and system, medians of six to nine runs): buffers of 512 KiB written 32 KiB a
 * call 3.77 s; written whole 3.0 s, as buffers of 1 MiB (3.04 s); buffers of 2 MiB 4.0–4.4 s, twice the system time.
 */
export const WRITE_BYTES = 512 * 1024;
const MAX_BACKOFF_MS = 30_000;

const nodeDisk: LocalDisk = { open: openUnder };

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

/** One file under way. */
interface Job {
  planned: PlannedFile;
  /** Its size as far as it is known: the storage's (this run's answers, or the record of the run that began the `.part`), else the listing's. */
  size: number | undefined;
  /** The storage said `size` (the listing's is only a hint). */
  sizeKnown: boolean;
  /** Ranges not yet taken by a connection. */
  pending: Span[];
  /** Ranges being read. */
  reading: Set<Span>;
  /** The storage answered a range with the whole file: from then on one connection at a time reads it. */
  wholeOnly: boolean;
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
  /** This run opened its `.part` (made it, or took up the one an earlier run left). */
  opened?: boolean;
}

/** What an answer of the storage means for the range that asked: read its body, nothing left to read, or let it go. */
type Answer = 'read' | 'whole' | 'done' | 'yield' | { reason: string; discard: boolean };

class DownloadRun {
  private readonly jobs: Job[];
  /** The next job to open, files being opened, ranges being read, and open files whose ranges are not all taken yet. */
  private nextJob = 0;
  private opening = 0;
  private reading = 0;
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
  /** Wakes idle connections when a file opens (its ranges can be taken), a range is given back, or work ends. */
  private wake: () => void = () => undefined;
  private woken: Promise<void> = Promise.resolve();

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
        await this.open(job).catch((error: unknown) => this.fail(job, describeError(error), false));
        continue;
      }
      if (!this.opening && !this.reading) return;
      await this.woken;
    }
  }

  /** The first open file with a range no connection has taken yet (one that gives the whole file: when none reads it). */
  private withRanges(): Job | undefined {
    for (const job of this.active) {
      if (job.state === 'open' && job.pending.length) {
        if (!job.wholeOnly || !job.reading.size) return job;
        continue;
      }
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
  private putBack(job: Job): void {
    job.state = 'waiting';
  }

  private async fetch(job: Job, span: Span): Promise<void> {
    job.reading.add(span);
    this.reading++;
    try {
      await this.fetchSpan(job, span);
    } finally {
      job.reading.delete(span);
      this.reading--;
      this.notify();
    }
    if (job.state === 'open' && !job.pending.length && !job.reading.size && !this.signal.aborted) await this.finish(job);
    if (job.state === 'failed' && !job.reading.size) await this.close(job);
  }

  /**
   * Fetches `span` into the file, resuming after each fault from the last byte written, until done or given up.
   * The bytes received are copied into a write buffer of the run's (reused), handed to a write when full while the
   * next ones go into another; only when that one is full too before the write is done does the response wait (its
   * next bytes in the socket): a slow disk does not hold the connection back. Each chunk of the socket is dropped
   * as soon as it is copied: it dies young, in a cheap collection, instead of living through a write and needing a
   * full one (holding 1 MiB of chunks a range for each write cost about twice the CPU at loopback speed).
   *
   * Each answer is checked first (`answer`): the storage's client has checked that a 206 holds the bytes asked, and
   * here its size and ETag are checked against the file's. A fault that moved bytes is not counted against the range:
   * only `attempts` faults in a row without a byte between them give it up.
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
          const answer = this.answer(job, span, next, read);
          // A body not to be read: its connection is let go now, not when the storage's idle time runs out.
          if (answer !== 'read' && answer !== 'whole') await read.body[Symbol.asyncIterator]().return?.();
          if (answer === 'yield') return this.giveBack(job, { number: span.number, start: next, end: span.end });
          if (answer === 'done') return;
          if (answer === 'whole') next = this.readWhole(job, span);
          else if (answer !== 'read') return this.fail(job, answer.reason, answer.discard);
          // A whole file (a 200) starts at byte 0: what comes before `next` is passed over, and the read ends at the span's end.
          let at = read.start;
          for await (const chunk of read.body) {
            let from = Math.max(0, next + filled - at);
            const to = Math.min(chunk.length, span.end - at);
            at += chunk.length;
            if (to > from) faults = 0;
            while (from < to) {
              buffer ??= this.spare.pop() ?? Buffer.allocUnsafe(WRITE_BYTES);
              const copied = chunk.copy(buffer, filled, from, to);
              from += copied;
              filled += copied;
              if (filled === buffer.length) await handOver();
            }
            if (at >= span.end) break;
          }
          await flush();
          if (span.end === Infinity) {
            // A file whose size the storage did not say: the end of the body is its end.
            this.sizeSaid(job, next);
            span.end = next;
          }
          if (next < span.end) throw new ApiError({ kind: 'network', message: l10n.t('the file storage ended the answer early') });
        } catch (error) {
          // What arrived before the fault (or the Cancel) is kept.
          if (!isLocalError(error) && job.state === 'open') {
            try {
              await flush();
            } catch (local) {
              return this.fail(job, describeLocalError(local, job.planned.partPath), false);
            }
          }
          if (signal.aborted || job.state !== 'open') return;
          if (isLocalError(error)) return this.fail(job, describeLocalError(error, job.planned.partPath), false);
          if (error instanceof StorageError && error.gone) return this.fail(job, gone(), true);
          if (url === undefined && error instanceof ApiError && error.status === 404) return this.fail(job, gone(), true);
          if (error instanceof StorageError && error.linkRefused) this.refreshUrl(job, url!);
          else if (!(error instanceof ApiError && (error.isTransient || error instanceof StorageAnswerError))) return this.fail(job, url === undefined ? remoteFailure(error) : describeError(error), false);
          if (++faults >= this.attempts) return this.fail(job, l10n.t('Stopped after {0} tries: {1}', this.attempts, describeError(error)), false);
          try {
            await this.deps.clock.sleep(backoffWait({ firstMs: this.backoffMs, factor: 2, capMs: MAX_BACKOFF_MS }, faults), signal);
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

  /**
   * What an answer means for the range that asked from `next`: its size and ETag checked against the file's (a size
   * the listing gave is replaced by the storage's); a 416 past the file's end leaves nothing to read; a 200 (the
   * whole file, the storage ignoring `Range`) is read by this range alone, from byte 0 to the end, or, while other
   * ranges of the file are being read, given back to be read so once they are done: never read again per range.
   */
  private answer(job: Job, span: Span, next: number, read: StorageRead): Answer {
    if (read.status === 416) {
      if (read.size === undefined) return changed();
      const problem = this.check(job, read.size, undefined);
      if (problem) return problem;
      span.end = Math.min(span.end, read.size);
      return next >= span.end ? 'done' : changed();
    }
    const problem = this.check(job, read.size, read.etag);
    if (problem) return problem;
    if (job.sizeKnown) span.end = Math.min(span.end, job.size!);
    const whole = read.status !== 206;
    if (whole && !(next === 0 && span.end >= (job.size ?? Infinity))) {
      job.wholeOnly = true;
      return job.reading.size > 1 ? 'yield' : 'whole';
    }
    return next >= span.end ? 'done' : 'read';
  }

  /**
   * This range reads the file's body whole, alone: every range not written yet is its own now. It writes from the end
   * of the first bytes written (from byte 0) to the file's end, and what was written after that is written again.
   * Returns the byte to write from.
   */
  private readWhole(job: Job, span: Span): number {
    const from = job.done[0]?.[0] === 0 ? job.done[0][1] : 0;
    span.start = from;
    span.end = job.size ?? Infinity;
    job.pending = [];
    this.meter.alreadyDone(from - rangesBytes(job.done));
    job.done = from ? [[0, from]] : [];
    return from;
  }

  /** A range that let an answer go (another range reads the whole file): it is taken again later, from `next`. */
  private giveBack(job: Job, span: Span): void {
    if (span.start < span.end) job.pending.unshift(span);
    this.active.add(job);
  }

  /**
   * What is wrong with an answer for this file, if anything: a size no file has, another size than the storage said
   * before, or other bytes than before (another ETag). A size the listing gave is a hint: the storage's replaces it.
   */
  private check(job: Job, size: number | undefined, etag: string | undefined): { reason: string; discard: boolean } | undefined {
    if (size !== undefined && !plausibleSize(size)) return { reason: l10n.t('The file storage says the file has {0} bytes, more than any file can have. Try again later.', size), discard: true };
    if (size !== undefined && job.sizeKnown && size !== job.size) {
      return { reason: l10n.t('The storage had {0} bytes of this file and now has {1}: the file changed. Download it again.', job.size!, size), discard: true };
    }
    if (size !== undefined && !job.sizeKnown) this.sizeSaid(job, size);
    if (etag && job.etag && etag !== job.etag) return { reason: l10n.t('The file changed on the platform during the download. Download it again.'), discard: true };
    if (etag && !job.etag) {
      job.etag = etag;
      job.unsaved = true;
    }
    return undefined;
  }

  /**
   * The file's size as the storage says it. Where the listing said another, the ranges are planned again: those past
   * the end are cut, those missing added (less what is written or being read).
   */
  private sizeSaid(job: Job, size: number): void {
    const planned = job.size;
    job.sizeKnown = true;
    job.unsaved = true;
    if (size === planned) return;
    job.size = size;
    this.meter.sizeLearned(size - (planned ?? 0));
    if (planned === undefined) return;
    for (const span of job.reading) span.end = Math.min(span.end, size);
    const taken = [...job.reading].reduce((ranges, span) => addRange(ranges, span.start, span.end), job.done);
    job.pending = withoutDone(downloadRanges(size, this.connections), taken);
    this.active.add(job);
    this.notify();
  }

  /** Writes `length` bytes of `buffer` at `position` in the file: in one call, unless the disk takes fewer. */
  private async write(job: Job, buffer: Buffer, length: number, position: number): Promise<void> {
    const file = job.file!;
    try {
      for (let wrote = 0; wrote < length; ) {
        const asked = length - wrote;
        const bytes = ((await file.write(buffer, wrote, asked, position + wrote)) as { bytesWritten?: number } | undefined)?.bytesWritten ?? asked;
        if (bytes <= 0) throw Object.assign(new Error('the disk took no byte of a write'), { code: 'EIO' });
        wrote += bytes;
      }
    } catch (error) {
      throw localError(error);
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

  /** The file takes its name only when the storage said its size and its ranges cover exactly that: no hole, nothing more. */
  private async finish(job: Job): Promise<void> {
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
      if (!job.reading.size) await this.close(job);
      await fsp.rm(job.planned.partPath, { force: true }).catch(() => undefined);
    } else if (!job.reading.size) {
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

  /** The item again, at the path it was given, with the size the storage said (when it did). */
  private retryItem(job: Job): DownloadItem {
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

function isCancelled(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof ApiError && error.isCancelled);
}

function changed(): { reason: string; discard: boolean } {
  return { reason: l10n.t('The file on the platform is smaller than it was: it changed. Download it again.'), discard: true };
}

function gone(): string {
  return l10n.t('The file is no longer on the platform (deleted).');
}

/** Why download_info failed for a file, in words. */
function remoteFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return gone();
  return describeError(error);
}
