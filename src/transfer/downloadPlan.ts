// Where a download's files land, before any byte moves: each path under the folder a person chose (never outside it,
// nor through a link), what is skipped (there already with the same size, or by choice), what is asked about, the
// names of one run kept apart, each file's temporary `.part` name and what of it an earlier run left to resume, and
// whether the disk has room. No `vscode`: the editor side asks its questions through `ask`/`askAll`. See README.md.
import * as l10n from '@vscode/l10n';
import { promises as fsp, type Stats } from 'fs';
import * as path from 'path';
import { describeLocalError, diskKey, isInside, keepBothName, targetPath } from './localFiles';
import { MAX_FILE_SIZE } from './partPlan';
import { PART, rangesBytes, type DownloadResume, type ResumeBook } from './resumeState';
import { folderProblem } from './underFolder';

export interface DownloadItem {
  fileId: string;
  /** Where it lands under the target folder, `/`-separated: the remote layout (`folder/sub/a.bam`, `<task>/<output>`). */
  relativePath: string;
  /** From the listing: a hint (ranges and progress are planned by it); the storage's answer is the file's size. */
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
  /** A `.part` of this file's, left by an earlier run, is there: emptied unless `resumeFrom` says what to keep. */
  partThere: boolean;
  /** Bytes of it already on disk (a `.part` left by an earlier run), kept. */
  resumeFrom: number;
}

export interface DownloadPlan {
  target: string;
  files: PlannedFile[];
  skipped: { item: DownloadItem; path: string; reason: string }[];
  /**
   * Items that cannot be placed, with why: a path leaving the folder; a link, a file or a folder in the way
   * (`retryable`: the person may move it, then Retry).
   */
  refused: { item: DownloadItem; reason: string; retryable: boolean }[];
  /** Bytes still to fetch, and what the disk has free (undefined when it cannot tell). */
  space: { needed: number; available: number | undefined };
  /** True when the files need more than the disk has: say so before the first byte. */
  shortfall: boolean;
}

/** What planning reads besides the disk: the records of downloads under way, and the room on the disk. */
export interface PlanDeps {
  /** The account's records of downloads under way. */
  resume: ResumeBook<DownloadResume>;
  /** Bytes free on the disk holding `dir`; default `fs.statfs`. */
  freeSpace?(dir: string): Promise<number | undefined>;
}

/**
 * Where each file goes, what is skipped (there already with the same size, or by choice), what resumes, and
 * whether the disk has room; asks about files there with another size (`ask`). Moves no byte.
 *
 * The names of one run never meet: two files whose paths are one on a case-insensitive disk (`Sample.VCF`,
 * `sample.vcf`), or a file where a folder of the run goes, get "keep both" names; a file's temporary name (`.part`)
 * is none of the run's names, nor a file there that is not this file's own `.part` (`x.bam.part` may be a file of
 * the platform's too). Nothing is planned through a link: a path with a link on the way is refused; a link where
 * the file itself goes is replaced by the file (with Overwrite), never written through.
 */
export async function planDownload(request: DownloadRequest, deps: PlanDeps): Promise<DownloadPlan> {
  const target = path.resolve(request.target);
  const plan: DownloadPlan = { target, files: [], skipped: [], refused: [], space: { needed: 0, available: undefined }, shortfall: false };
  // First where each lands and what is there, so that every file there with another size is asked about at once.
  const placed: Placed[] = [];
  for (const item of request.items) {
    const file = targetPath(target, item.relativePath);
    if (!file) {
      plan.refused.push({ item, reason: l10n.t('"{0}" is not a path inside the folder.', item.relativePath), retryable: false });
      continue;
    }
    const inTheWay = await folderProblem(target, path.dirname(file));
    if (inTheWay) {
      plan.refused.push({ item, reason: describeLocalError({ code: inTheWay.code, at: inTheWay.path }, file), retryable: true });
      continue;
    }
    // A link where the file goes is taken as what it leads to (same size: skipped); Overwrite replaces the link itself.
    const there = await statOf(file);
    if (there?.isDirectory()) {
      plan.refused.push({ item, reason: describeLocalError({ code: 'EISDIR' }, file), retryable: true });
      continue;
    }
    placed.push({ item, file, localSize: there?.size });
  }
  const choices = await choicesFor(request, placed);
  const names: RunNames = { files: new Set(), folders: new Set(placed.flatMap((p) => foldersBetween(target, p.file).map(diskKey))), parts: new Set() };
  const finals: { item: DownloadItem; file: string }[] = [];
  for (const { item, file: wanted, localSize } of placed) {
    let file = wanted;
    const clash = names.files.has(diskKey(file)) || names.folders.has(diskKey(file));
    if (localSize !== undefined && !clash) {
      if (sameSize(item, localSize)) {
        plan.skipped.push({ item, path: file, reason: l10n.t('Already there, with the same size.') });
        // A record left by a window that died after the file took its name.
        if (deps.resume.get(`${file}${PART}`) && !(await lstatOf(`${file}${PART}`))) await deps.resume.set(`${file}${PART}`, undefined);
        continue;
      }
      const choice = choices.get(item) ?? 'skip';
      if (choice === 'skip') {
        plan.skipped.push({ item, path: file, reason: l10n.t('Already there, with another size: left as it is.') });
        continue;
      }
      if (choice === 'keepBoth') file = await freeName(file, names);
    } else if (clash) {
      file = await freeName(file, names);
    }
    names.files.add(diskKey(file));
    finals.push({ item, file });
  }
  // Then each file's temporary name, once every name of the run is known.
  for (const { item, file } of finals) plan.files.push({ item, path: file, ...(await partOf(deps, item, file, names)) });
  plan.space.needed = plan.files.reduce((n, f) => n + Math.max(0, (sizeHint(f.item) ?? 0) - f.resumeFrom), 0);
  plan.space.available = await (deps.freeSpace ?? freeSpace)(target);
  plan.shortfall = plan.space.available !== undefined && plan.space.needed > plan.space.available;
  return plan;
}

/**
 * What to do with each file there already with another size: the policy; with `ask`, one answer for them all
 * (`askAll`, when there are several), else one question per file, in order.
 */
async function choicesFor(request: DownloadRequest, placed: readonly Placed[]): Promise<Map<DownloadItem, ExistingChoice>> {
  const seen = new Set<string>();
  const clashes: ExistingFile[] = [];
  for (const { item, file, localSize } of placed) {
    if (localSize !== undefined && !seen.has(diskKey(file)) && !sameSize(item, localSize)) clashes.push({ item, path: file, localSize });
    seen.add(diskKey(file));
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

/**
 * The file's temporary name: `<name>.part`, else `<name>.1.part`, `<name>.2.part`…, the first that is none of the
 * run's names and is either absent or this file's own `.part` left by an earlier run (its record names this file,
 * and it is a file, not a link); with the bytes of it this file can keep.
 */
async function partOf(deps: PlanDeps, item: DownloadItem, file: string, names: RunNames): Promise<Pick<PlannedFile, 'partPath' | 'resumeFrom' | 'partThere'>> {
  for (let n = 0; ; n++) {
    const partPath = n === 0 ? `${file}${PART}` : `${file}.${n}${PART}`;
    const key = diskKey(partPath);
    if (names.files.has(key) || names.folders.has(key) || names.parts.has(key)) continue;
    const there = await lstatOf(partPath);
    const own = deps.resume.get(partPath)?.fileId === item.fileId && !!there?.isFile();
    if (there && !own) continue;
    names.parts.add(key);
    return { partPath, partThere: own, resumeFrom: own ? await resumable(deps, item, partPath, there!.size) : 0 };
  }
}

/** Bytes of a `.part` an earlier run left that this file can keep: only those its record vouches for. */
async function resumable(deps: PlanDeps, item: DownloadItem, partPath: string, partSize: number): Promise<number> {
  const record = deps.resume.get(partPath);
  const hint = sizeHint(item);
  if (!record || record.fileId !== item.fileId || (hint !== undefined && record.size !== hint)) return 0;
  const end = record.done.length ? record.done[record.done.length - 1][1] : 0;
  return partSize >= end ? rangesBytes(record.done) : 0;
}

/** A file placed under the target, with the size of the local file there, if any. */
interface Placed {
  item: DownloadItem;
  file: string;
  localSize?: number;
}

/** The run's names so far, each as a case-insensitive disk tells it (`diskKey`): files, the folders they go in, temporary names. */
interface RunNames {
  files: Set<string>;
  folders: Set<string>;
  parts: Set<string>;
}

/** The first `name (n).ext` free at that path: none of the run's names, and nothing there. */
async function freeName(file: string, names: RunNames): Promise<string> {
  const dir = path.dirname(file);
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, keepBothName(path.basename(file), n));
    const key = diskKey(candidate);
    if (!names.files.has(key) && !names.folders.has(key) && !(await lstatOf(candidate))) return candidate;
  }
}

/** The folders from the target down to where `file` goes, the target left out. */
function foldersBetween(target: string, file: string): string[] {
  const folders: string[] = [];
  for (let at = path.dirname(file); at !== target && isInside(target, at); at = path.dirname(at)) folders.push(at);
  return folders;
}

/** The listing's size, when it is one a file can have; a hint only: the storage's answer is the file's size. */
export function sizeHint(item: DownloadItem): number | undefined {
  return plausibleSize(item.size) ? item.size : undefined;
}

export function plausibleSize(size: number | undefined): size is number {
  return Number.isSafeInteger(size) && size! >= 0 && size! <= MAX_FILE_SIZE;
}

/** A local file of the listed size is taken as this file (the listing's size may be a hint, but nothing is written). */
function sameSize(item: DownloadItem, localSize: number): boolean {
  return sizeHint(item) === localSize;
}

/** What is at a path, a link itself rather than what it leads to; undefined when nothing is. */
async function lstatOf(file: string): Promise<Stats | undefined> {
  return fsp.lstat(file).catch(() => undefined);
}

/** What a path leads to (through a link); undefined when nothing is. */
async function statOf(file: string): Promise<Stats | undefined> {
  return fsp.stat(file).catch(() => undefined);
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
