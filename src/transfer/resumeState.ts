// What a transfer keeps in global state to resume after a fault, a Cancel or a window reload: one record per file
// under way (keys STATE_KEY_PREFIXES.download / .upload + a hash), each bound to the account it was made with, so
// that windows writing at the same time do not overwrite each other's records. What is read back is checked (it may
// come from an older version or another account). No `vscode`.
import { createHash } from 'crypto';
import type { FileLocation } from '../api/files';
import type { LocalFile, LocalVersion } from './localTree';
import { STATE_KEY_PREFIXES } from '../keys/state';
import type { SharedState } from '../util/stateStore';

/** The end of a download's temporary name (`x.bam.part`, or `x.bam.1.part` when `x.bam.part` is another file). */
export const PART = '.part';

/** A download under way: the remote file, and the byte ranges its `.part` file already holds. */
export interface DownloadResume {
  account: string;
  fileId: string;
  /** As the storage said it (never a listing's). */
  size: number;
  /** The storage's ETag when the first bytes came: other bytes since mean another file. */
  etag?: string;
  partPath: string;
  /** The path it takes when whole (records of older versions: the `.part` path without `.part`). */
  path?: string;
  /** `[start, end)` ranges written, in order, not touching. */
  done: [number, number][];
}

/** A multipart upload under way: enough to ask the platform which parts arrived and send the rest. */
export interface UploadResume extends LocalVersion {
  account: string;
  uploadId: string;
  localPath: string;
  partSize: number;
  destination: FileLocation;
  name: string;
  overwrite: boolean;
  /** When the platform says the upload began (absent in records of older versions): a file its completion made is not older. */
  initiated?: string;
}

/**
 * An upload run under way (one Upload… command): the files it has not completed yet, enough to show it after a
 * reload ("Interrupted: 3 of 7 files, 120 MB left") and to run it again, each file resuming from its own record.
 */
export interface UploadRunResume {
  account: string;
  runId: string;
  /** The destination in words, as the command showed it. */
  label: string;
  destination: FileLocation;
  ifExists: 'rename' | 'overwrite' | 'skip';
  /** Folders still to make, `/`-separated (made again is harmless: the one there is used). */
  folders: string[];
  /** The files not completed yet (nor skipped). */
  files: LocalFile[];
  filesTotal: number;
  bytesTotal: number;
  /** Bytes not sent yet when it was last saved (parts that arrived count as sent). */
  bytesLeft: number;
  /** This machine's clock: shown only. */
  startedAt: number;
  /**
   * This machine's clock at the last save (every few seconds while it runs), for a person reading the state: whether
   * a window still runs it is judged by the windows' heartbeats (jobs/transfers.ts), never by this.
   */
  savedAt: number;
}

type Kind = 'download' | 'upload' | 'uploadRun';

/** One family of records (downloads or uploads) of one account. */
export class ResumeBook<T extends { account: string }> {
  constructor(
    private readonly state: SharedState,
    private readonly kind: Kind,
    private readonly account: string,
  ) {}

  /** The record of `id` (a `.part` path, a local path and destination), if this account has one. */
  get(id: string): T | undefined {
    const value = this.state.get<unknown>(this.key(id));
    return this.valid(value) ? value : undefined;
  }

  /** Every record of this account. */
  all(): T[] {
    const prefix = STATE_KEY_PREFIXES[this.kind];
    return this.state
      .keys()
      .filter((k) => k.startsWith(prefix))
      .map((k) => this.state.get<unknown>(k))
      .filter((v): v is T => this.valid(v));
  }

  /**
   * Writes (or with `undefined`, forgets) the record of `id`, bound to this account. Forgetting a record that is not
   * there writes nothing: VS Code sends an extension's whole global state to the workbench on each write, and a
   * download of small files forgets one at each file's end, most of them never saved.
   */
  set(id: string, value: Omit<T, 'account'> | undefined): PromiseLike<void> {
    const key = this.key(id);
    if (value === undefined && this.state.get<unknown>(key) === undefined) return Promise.resolve();
    return this.state.update(key, value === undefined ? undefined : { ...value, account: this.account });
  }

  private key(id: string): string {
    return STATE_KEY_PREFIXES[this.kind] + createHash('sha256').update(`${this.account}\n${id}`).digest('hex').slice(0, 32);
  }

  private valid(value: unknown): value is T {
    if (!value || typeof value !== 'object' || (value as { account?: unknown }).account !== this.account) return false;
    return this.kind === 'download' ? isDownloadResume(value) : this.kind === 'upload' ? isUploadResume(value) : isUploadRun(value);
  }
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * A local file's version as localTree.ts takes it. A record of an older version has no ctime, inode nor device: it is
 * kept (its run is shown, its upload can be discarded), and its file is taken as changed (`sameVersion`).
 */
function isLocalVersion(v: Partial<LocalVersion>): boolean {
  const maybe = (n: unknown) => n === undefined || typeof n === 'number';
  return isCount(v.size) && typeof v.mtimeMs === 'number' && maybe(v.ctimeMs) && maybe(v.ino) && maybe(v.dev);
}

function isDownloadResume(v: object): boolean {
  const r = v as Partial<DownloadResume>;
  return (
    typeof r.fileId === 'string' &&
    typeof r.partPath === 'string' &&
    (r.path === undefined || typeof r.path === 'string') &&
    isCount(r.size) &&
    (r.etag === undefined || typeof r.etag === 'string') &&
    Array.isArray(r.done) &&
    r.done.every((d) => Array.isArray(d) && d.length === 2 && isCount(d[0]) && isCount(d[1]) && d[0] < d[1] && d[1] <= r.size!)
  );
}

function isUploadResume(v: object): boolean {
  const r = v as Partial<UploadResume>;
  const where = r.destination as Record<string, unknown> | undefined;
  return (
    typeof r.uploadId === 'string' &&
    typeof r.localPath === 'string' &&
    typeof r.name === 'string' &&
    isLocalVersion(r) &&
    isCount(r.partSize) &&
    typeof r.overwrite === 'boolean' &&
    (r.initiated === undefined || typeof r.initiated === 'string') &&
    !!where &&
    (typeof where.project === 'string' || typeof where.parent === 'string')
  );
}

const isPlace = (where: unknown): where is FileLocation => {
  const w = where as Record<string, unknown> | undefined;
  return !!w && typeof w === 'object' && (typeof w.project === 'string' || typeof w.parent === 'string');
};

function isUploadRun(v: object): boolean {
  const r = v as Partial<UploadRunResume>;
  return (
    typeof r.runId === 'string' &&
    typeof r.label === 'string' &&
    isPlace(r.destination) &&
    (r.ifExists === 'rename' || r.ifExists === 'overwrite' || r.ifExists === 'skip') &&
    Array.isArray(r.folders) &&
    r.folders.every((f) => typeof f === 'string') &&
    Array.isArray(r.files) &&
    r.files.every((f) => !!f && typeof f === 'object' && typeof f.localPath === 'string' && typeof f.relativePath === 'string' && isLocalVersion(f)) &&
    isCount(r.filesTotal) &&
    isCount(r.bytesTotal) &&
    isCount(r.bytesLeft) &&
    typeof r.startedAt === 'number' &&
    typeof r.savedAt === 'number'
  );
}

/** Adds `[start, end)` to ordered, separate ranges, merging what touches. */
export function addRange(ranges: [number, number][], start: number, end: number): [number, number][] {
  if (end <= start) return ranges;
  const out: [number, number][] = [];
  let [s, e] = [start, end];
  for (const [a, b] of ranges) {
    if (b < s) out.push([a, b]);
    else if (a > e) {
      out.push([s, e]);
      [s, e] = [a, b];
    } else [s, e] = [Math.min(a, s), Math.max(b, e)];
  }
  out.push([s, e]);
  return out;
}

/** Bytes the ranges hold. */
export const rangesBytes = (ranges: readonly [number, number][]): number => ranges.reduce((n, [a, b]) => n + b - a, 0);

/**
 * Whether ordered, separate ranges are the whole of a file of `size` bytes: one range from byte 0 to its end (none
 * for an empty file). Bytes enough are not enough: a hole is a hole, whatever the file's size on disk says.
 */
export function isWhole(ranges: readonly [number, number][], size: number): boolean {
  return size === 0 ? ranges.length === 0 : ranges.length === 1 && ranges[0][0] === 0 && ranges[0][1] === size;
}
