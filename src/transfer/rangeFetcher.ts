// One file's ranges read from the storage into its `.part` file: each answer checked against what was asked and what
// the storage said before (its size, its ETag; a 200 read whole by one range), the bytes received handed to
// positional writes through buffers used in turn, and each range resumed from its last byte written after a fault,
// its signed URL asked for again once when the storage refuses it. No `vscode`: download.ts's run hands it the ranges
// its connections take (see README.md).
import * as l10n from '@vscode/l10n';
import type { Clock } from '../api/clock';
import { ApiError, describeError } from '../api/errors';
import { StorageAnswerError, StorageError, type StorageClient, type StorageRead } from '../api/storage';
import { backoffWait } from '../util/backoff';
import { isLocalError, localError } from '../util/localError';
import { plausibleSize, type PlannedFile } from './downloadPlan';
import { describeLocalError } from './localFiles';
import { downloadRanges, type Span } from './partPlan';
import type { ProgressMeter } from './progress';
import { addRange, rangesBytes } from './resumeState';

export interface WritableFile {
  /** Resolves with `{ bytesWritten }` (fewer than `length`: the rest is written again). */
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<unknown>;
  /** Writes before it returns, on this thread (`fs.writeSync`); returns the bytes taken (fewer: the rest is written again). */
  writeNow?(buffer: Buffer, offset: number, length: number, position: number): number;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/**
 * A write buffer's size, for writes through the thread pool: the bytes received gathered before they are handed to the
 * `.part` file, in one call. Each such call goes through libuv's thread pool, and the hand-over costs more than the
 * bytes: alone, writing 1 GiB took 1.7–2.4 s of CPU in calls of 32 KiB, 0.4–0.6 s in calls of 512 KiB. For the
 * bench's 1 GiB download (two cores, load 5–9, CPU of user and system, medians of six to nine runs): buffers of 512 KiB
 * written 32 KiB a call 3.77 s; written whole 3.0 s, as buffers of 1 MiB (3.04 s); buffers of 2 MiB 4.0–4.4 s, twice
 * the system time.
 */
export const WRITE_BYTES = 512 * 1024;
/**
 * A write on this thread: the bytes received gathered to this many, then handed to the page cache at once, while they
 * are still in the processor's cache (`writeNow`). Handed to the thread pool instead, 512 KiB a call, another core
 * copies them from memory, several threads wait on the file's lock, and the hand-overs cost more than the bytes: for
 * a 1 GiB download on loopback (2026-11-29, medians of five, in turns), 3.14 s of CPU against 2.01 s quiet, 3.75 s
 * against 1.99 s beside two busy cores; in calls of 512 KiB on this thread, 2.64 s (the bytes leave the cache first).
 */
export const QUICK_WRITE_BYTES = 64 * 1024;
/**
 * The share of this thread's time that writes on it may take, in ms of a second (a sum of their times that fades by e
 * every second: at a steady share, that share of 1,000), before the run's writes go to the thread pool, where waiting
 * for the disk holds back no one else of the extension host. The page cache takes 64 KiB in some 20 µs (a GiB's
 * writes: 18–23 µs medians, 99 % under 0.1 ms), a quarter of the thread at loopback speed, 550 MB/s; beside two busy
 * cores, some 50 writes of a GiB took 4–20 ms (the scheduler's slices), a fifth of the thread in all. A disk that holds
 * its writer back (slower than the network, a network share) takes more.
 */
export const WRITING_SHARE_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/** One file under way. */
export interface DownloadJob {
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

/** What reading ranges asks of the run (download.ts's `DownloadRun`). */
export interface RangeRun {
  deps: {
    /** The signed URL of a file (`GET /v2/files/{id}/download_info`). */
    downloadInfo(fileId: string, signal?: AbortSignal): Promise<string>;
    storage: Pick<StorageClient, 'read'>;
    clock: Clock;
  };
  signal: AbortSignal;
  /** Requests to the storage at once. */
  connections: number;
  /** Tries of a range that make no progress before its file fails. */
  attempts: number;
  /** First wait after a fault, doubled each time (at most MAX_BACKOFF_MS). */
  backoffMs: number;
  meter: ProgressMeter;
  /** Open files whose ranges are not all taken yet. */
  active: Set<DownloadJob>;
  /** Wakes idle connections (a range is given back, a file's ranges planned again). */
  notify(): void;
  /** A file given up: the rest carries on. */
  fail(job: DownloadJob, reason: string, discard: boolean): Promise<void>;
  /** Bytes written to a file: counted, told, saved. */
  wrote(length: number): void;
  /** The run's writes moved to the thread pool (they took too much of this thread): later runs into its folder start there. */
  writesMoved(): void;
}

/** Reads the ranges of a run's files (each range on one of its connections). */
export class RangeFetcher {
  /** Write buffers not in use (at most two a connection are ever made). */
  private readonly spare: Buffer[] = [];
  /** The time writes on this thread took, fading by e every second (`ms`, as it was when the last one ended, `at`). */
  private writing = { at: 0, ms: 0 };

  /** `diskWaits`: the run's writes go to the thread pool from the start (writes to its folder waited before). */
  constructor(
    private readonly run: RangeRun,
    private diskWaits = false,
  ) {}

  /**
   * Fetches `span` into the file, resuming after each fault from the last byte written, until done or given up.
   * The bytes received are copied into a write buffer of the run's (reused). While the disk takes each write at once,
   * every QUICK_WRITE_BYTES of it are written on this thread (`writeNow`). Otherwise, and once writes take too much
   * of this thread (WRITING_SHARE_MS), it is handed to a write in the thread pool when full, while the next bytes go
   * into another; only when that one is full too before the write is done does the response wait (its next bytes in
   * the socket): a slow disk does not hold the connection back. Each chunk of the socket is dropped as soon as it is
   * copied: it dies young, in a cheap collection, instead of living through a write and needing a full one (holding
   * 1 MiB of chunks a range for each write cost about twice the CPU at loopback speed).
   *
   * Each answer is checked first (`answer`): the storage's client has checked that a 206 holds the bytes asked, and
   * here its size and ETag are checked against the file's. A fault that moved bytes is not counted against the range:
   * only `attempts` faults in a row without a byte between them give it up.
   */
  async fetchSpan(job: DownloadJob, span: Span): Promise<void> {
    const signal = AbortSignal.any([this.run.signal, job.controller.signal]);
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
      if (this.writesNow(job)) {
        const [at, length] = [next, filled];
        next += length;
        filled = 0;
        this.writeNow(job, buffer!, length, at);
        return;
      }
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
          const read = await this.run.deps.storage.read(url, { start: next, end: span.end === Infinity ? undefined : span.end - 1 }, signal);
          const answer = this.answer(job, span, next, read);
          // A body not to be read: its connection is let go now, not when the storage's idle time runs out.
          if (answer !== 'read' && answer !== 'whole') await read.body[Symbol.asyncIterator]().return?.();
          if (answer === 'yield') return this.giveBack(job, { number: span.number, start: next, end: span.end });
          if (answer === 'done') return;
          if (answer === 'whole') next = this.readWhole(job, span);
          else if (answer !== 'read') return this.run.fail(job, answer.reason, answer.discard);
          // A whole file (a 200) starts at byte 0: what comes before `next` is passed over, and the read ends at the span's end.
          let at = read.start;
          for await (const chunk of read.body) {
            let from = Math.max(0, next + filled - at);
            const to = Math.min(chunk.length, span.end - at);
            at += chunk.length;
            if (to > from) faults = 0;
            while (from < to) {
              buffer ??= this.spare.pop() ?? Buffer.allocUnsafe(WRITE_BYTES);
              const full = this.writesNow(job) ? QUICK_WRITE_BYTES : buffer.length;
              const copied = chunk.copy(buffer, filled, from, Math.min(to, from + full - filled));
              from += copied;
              filled += copied;
              if (filled >= full) await handOver();
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
              return this.run.fail(job, describeLocalError(local, job.planned.partPath), false);
            }
          }
          if (signal.aborted || job.state !== 'open') return;
          if (isLocalError(error)) return this.run.fail(job, describeLocalError(error, job.planned.partPath), false);
          if (error instanceof StorageError && error.gone) return this.run.fail(job, gone(), true);
          if (url === undefined && error instanceof ApiError && error.status === 404) return this.run.fail(job, gone(), true);
          if (error instanceof StorageError && error.linkRefused) this.refreshUrl(job, url!);
          else if (!(error instanceof ApiError && (error.isTransient || error instanceof StorageAnswerError))) return this.run.fail(job, url === undefined ? remoteFailure(error) : describeError(error), false);
          if (++faults >= this.run.attempts) return this.run.fail(job, l10n.t('Stopped after {0} tries: {1}', this.run.attempts, describeError(error)), false);
          try {
            await this.run.deps.clock.sleep(backoffWait({ firstMs: this.run.backoffMs, factor: 2, capMs: MAX_BACKOFF_MS }, faults), signal);
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
  private answer(job: DownloadJob, span: Span, next: number, read: StorageRead): Answer {
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
  private readWhole(job: DownloadJob, span: Span): number {
    const from = job.done[0]?.[0] === 0 ? job.done[0][1] : 0;
    span.start = from;
    span.end = job.size ?? Infinity;
    job.pending = [];
    this.run.meter.alreadyDone(from - rangesBytes(job.done));
    job.done = from ? [[0, from]] : [];
    return from;
  }

  /** A range that let an answer go (another range reads the whole file): it is taken again later, from `next`. */
  private giveBack(job: DownloadJob, span: Span): void {
    if (span.start < span.end) job.pending.unshift(span);
    this.run.active.add(job);
  }

  /**
   * What is wrong with an answer for this file, if anything: a size no file has, another size than the storage said
   * before, or other bytes than before (another ETag). A size the listing gave is a hint: the storage's replaces it.
   */
  private check(job: DownloadJob, size: number | undefined, etag: string | undefined): { reason: string; discard: boolean } | undefined {
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
  private sizeSaid(job: DownloadJob, size: number): void {
    const planned = job.size;
    job.sizeKnown = true;
    job.unsaved = true;
    if (size === planned) return;
    job.size = size;
    this.run.meter.sizeLearned(size - (planned ?? 0));
    if (planned === undefined) return;
    for (const span of job.reading) span.end = Math.min(span.end, size);
    const taken = [...job.reading].reduce((ranges, span) => addRange(ranges, span.start, span.end), job.done);
    job.pending = withoutDone(downloadRanges(size, this.run.connections), taken);
    this.run.active.add(job);
    this.run.notify();
  }

  /** The file's writes are made on this thread: it can, and the run's writes have not taken too much of it. */
  private writesNow(job: DownloadJob): boolean {
    return !this.diskWaits && job.file?.writeNow !== undefined;
  }

  /** Writes `length` bytes of `buffer` at `position` in the file, through the thread pool: in one call, unless the disk takes fewer. */
  private async write(job: DownloadJob, buffer: Buffer, length: number, position: number): Promise<void> {
    const file = job.file!;
    try {
      for (let wrote = 0; wrote < length; ) {
        const asked = length - wrote;
        const bytes = ((await file.write(buffer, wrote, asked, position + wrote)) as { bytesWritten?: number } | undefined)?.bytesWritten ?? asked;
        wrote += taken(bytes);
      }
    } catch (error) {
      throw localError(error);
    }
    this.written(job, position, length);
  }

  /** As `write`, on this thread, before it returns; writes that take too much of it send the run's next ones to the thread pool. */
  private writeNow(job: DownloadJob, buffer: Buffer, length: number, position: number): void {
    const { clock } = this.run.deps;
    const started = clock.monotonic();
    try {
      for (let wrote = 0; wrote < length; ) wrote += taken(job.file!.writeNow!(buffer, wrote, length - wrote, position + wrote));
    } catch (error) {
      throw localError(error);
    } finally {
      this.timed(started, clock.monotonic());
    }
    this.written(job, position, length);
  }

  /** A write on this thread, from `started` to `ended`: once writes take WRITING_SHARE_MS, the run's leave it. */
  private timed(started: number, ended: number): void {
    this.writing.ms = this.writing.ms * Math.exp((this.writing.at - ended) / 1_000) + (ended - started);
    this.writing.at = ended;
    if (this.writing.ms < WRITING_SHARE_MS || this.diskWaits) return;
    this.diskWaits = true;
    this.run.writesMoved();
  }

  /** Bytes on disk: the file's ranges and the run's count (not for a file given up meanwhile: its ranges are no longer kept). */
  private written(job: DownloadJob, position: number, length: number): void {
    if (job.state !== 'open') return;
    job.done = addRange(job.done, position, position + length);
    job.unsaved = true;
    this.run.wrote(length);
  }

  /** The file's signed URL: the one in use, or a new one from download_info (asked once for all its ranges). */
  urlOf(job: DownloadJob, signal: AbortSignal): Promise<string> {
    if (!job.url) {
      const asked: Promise<string> = this.run.deps.downloadInfo(job.planned.item.fileId, signal).then(
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
  refreshUrl(job: DownloadJob, refused: string): void {
    if (job.currentUrl !== refused) return;
    job.currentUrl = undefined;
    job.url = undefined;
  }
}

/** The bytes a write call took; none is a fault of the disk. */
function taken(bytes: number): number {
  if (bytes <= 0) throw Object.assign(new Error('the disk took no byte of a write'), { code: 'EIO' });
  return bytes;
}

/** The spans less what is already written. */
export function withoutDone(spans: Span[], done: readonly [number, number][]): Span[] {
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

function changed(): { reason: string; discard: boolean } {
  return { reason: l10n.t('The file on the platform is smaller than it was: it changed. Download it again.'), discard: true };
}

export function gone(): string {
  return l10n.t('The file is no longer on the platform (deleted).');
}

/** Why download_info failed for a file, in words. */
export function remoteFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return gone();
  return describeError(error);
}
