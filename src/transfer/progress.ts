// What a transfer has done and how fast, as a progress notification shows it: files, bytes, rate, time left. On the
// injected clock; no I/O.
import type { Clock } from '../api/clock';

export interface TransferProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Over the last few seconds; undefined until a second has passed with bytes moving. */
  bytesPerSecond: number | undefined;
  /** At that rate; undefined when the rate is not known. */
  secondsLeft: number | undefined;
}

/** The rate is measured over this window, from samples taken at most this often. */
const WINDOW_MS = 5_000;
const SAMPLE_MS = 250;
/** Progress is told at most this often (and at each file's end). */
export const PROGRESS_EVERY_MS = 250;

export class ProgressMeter {
  private filesDone = 0;
  private bytesDone: number;
  /** Bytes moved in this run (bytes already on disk at the start are done, but not moved). */
  private moved = 0;
  private readonly samples: { at: number; moved: number }[] = [];
  private lastTold = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly totals: { files: number; bytes: number; bytesDoneAtStart?: number },
  ) {
    this.bytesDone = totals.bytesDoneAtStart ?? 0;
    this.samples.push({ at: clock.now(), moved: 0 });
  }

  /** Bytes moved (negative: bytes of a part that failed, to be sent again). */
  add(bytes: number): void {
    this.bytesDone += bytes;
    this.moved += bytes;
    const now = this.clock.now();
    if (now - this.samples[this.samples.length - 1].at >= SAMPLE_MS) {
      this.samples.push({ at: now, moved: this.moved });
      while (this.samples.length > 2 && now - this.samples[1].at >= WINDOW_MS) this.samples.shift();
    }
  }

  fileDone(): void {
    this.filesDone++;
  }

  /** Bytes found done on the way (parts an earlier run sent): done, but not moved now. */
  alreadyDone(bytes: number): void {
    this.bytesDone += bytes;
  }

  /** A file's size learned on the way (the listing did not say it). */
  sizeLearned(bytes: number): void {
    this.totals.bytes += bytes;
  }

  /** A file left out after the start (failed): the totals no longer count it nor the bytes it still lacked. */
  fileDropped(bytesLeft: number): void {
    this.totals.files--;
    this.totals.bytes -= bytesLeft;
  }

  /** Whether to tell progress now: at most every PROGRESS_EVERY_MS, unless `force`. */
  due(force = false): boolean {
    const now = this.clock.now();
    if (!force && now - this.lastTold < PROGRESS_EVERY_MS) return false;
    this.lastTold = now;
    return true;
  }

  snapshot(): TransferProgress {
    const now = this.clock.now();
    const first = this.samples[0];
    const elapsed = now - first.at;
    const rate = elapsed >= 1_000 && this.moved > first.moved ? ((this.moved - first.moved) * 1000) / elapsed : undefined;
    const left = Math.max(0, this.totals.bytes - this.bytesDone);
    return {
      filesDone: this.filesDone,
      filesTotal: this.totals.files,
      bytesDone: this.bytesDone,
      bytesTotal: this.totals.bytes,
      bytesPerSecond: rate,
      secondsLeft: rate ? Math.ceil(left / rate) : undefined,
    };
  }
}
