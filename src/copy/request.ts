// Building copy requests (API platform-api.md §4). Pure: no `vscode`, no network.
import * as l10n from '@vscode/l10n';
import { isFileId, isProjectId, notFolderId, notProjectId } from '../api/ids';
import type { CopyItem } from '../api/types';
import { count as figure } from '../util/words';

export const MAX_ITEMS_PER_CALL = 100;

/**
 * Where the copies go. The three kinds of platform-api.md §4: a folder in the sources' own project, the root
 * of another project, a folder in another project. A folder is sent as `parent`, a project root as `project`.
 */
export type CopyDestination =
  | { kind: 'sameProjectFolder' | 'otherProjectFolder'; project: string; folder: string; path: string[] }
  | { kind: 'projectRoot'; project: string; rootFolder?: string };

export interface SourceCheck {
  /** The IDs to copy, lower case, first occurrence order. */
  ids: string[];
  /** Entries that are not file or folder IDs, as given. */
  malformed: string[];
  /** How many repeats were dropped. */
  duplicates: number;
  /** IDs that are a project's root folder: never copyable. */
  roots: string[];
}

/** Sorts what the user gave into copyable IDs and the reasons the rest cannot be copied. */
export function checkSources(raw: readonly string[], rootFolders: ReadonlySet<string> = new Set()): SourceCheck {
  const ids: string[] = [];
  const malformed: string[] = [];
  const roots: string[] = [];
  const seen = new Set<string>();
  // IDs are hex: the same ID may come in either case from a person, an editor or the platform.
  const rootIds = new Set([...rootFolders].map((id) => id.toLowerCase()));
  let duplicates = 0;
  for (const entry of raw) {
    const value = entry.trim();
    if (!value) continue;
    if (!isFileId(value)) {
      if (!malformed.includes(value)) malformed.push(value);
      continue;
    }
    const id = value.toLowerCase();
    if (seen.has(id)) {
      duplicates++;
      continue;
    }
    seen.add(id);
    if (rootIds.has(id)) roots.push(id);
    else ids.push(id);
  }
  return { ids, malformed, duplicates, roots };
}

/** A reason the copy cannot be sent as asked, for a person to read. */
export function destinationProblem(destination: CopyDestination, ids: readonly string[]): string | undefined {
  if (!isProjectId(destination.project)) return notProjectId(destination.project);
  if (destination.kind === 'projectRoot') return undefined;
  if (!isFileId(destination.folder)) return notFolderId(destination.folder);
  const folder = destination.folder.toLowerCase();
  if (ids.some((id) => id.toLowerCase() === folder)) return l10n.t('A folder cannot be copied into itself.');
  return undefined;
}

/** Why a new name cannot be used, or undefined when it can. An empty name keeps the original. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return undefined;
  if (/[/\\]/.test(trimmed)) return l10n.t('A name cannot contain "/" or "\\".');
  if (trimmed === '.' || trimmed === '..') return l10n.t('"{0}" is not a usable name.', trimmed);
  if (trimmed.length > 255) return l10n.t('A name can have at most 255 characters.');
  return undefined;
}

/**
 * The items of the request body: `file`, exactly one of `parent` or `project`, and `name` only when a
 * single item is renamed (a rename of several items is refused: they would collide).
 */
export function buildCopyItems(ids: readonly string[], destination: CopyDestination, newName?: string): CopyItem[] {
  const name = newName?.trim() || undefined;
  if (name !== undefined && ids.length !== 1) throw new Error(onlyOneRenamed());
  const problem = destinationProblem(destination, ids) ?? (name !== undefined ? nameProblem(name) : undefined);
  if (problem) throw new Error(problem);
  return ids.map((file) => {
    const item: CopyItem =
      destination.kind === 'projectRoot' ? { file, project: destination.project } : { file, parent: destination.folder.toLowerCase() };
    if (name !== undefined) item.name = name;
    return item;
  });
}

/** Splits items into calls of at most `max` items (itself clamped to 1…100), keeping their order. */
export function splitItems<T>(items: readonly T[], max: number = MAX_ITEMS_PER_CALL): T[][] {
  const size = clampBatchSize(max);
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

export function clampBatchSize(max: number | undefined): number {
  if (max === undefined || !Number.isFinite(max)) return MAX_ITEMS_PER_CALL;
  return Math.min(MAX_ITEMS_PER_CALL, Math.max(1, Math.floor(max)));
}

export interface CopyPlanInput {
  sources: readonly string[];
  destination: CopyDestination;
  newName?: string;
  rootFolders?: ReadonlySet<string>;
  maxItemsPerRequest?: number;
}

export type CopyPlan =
  | { ok: true; items: CopyItem[]; batches: CopyItem[][]; duplicates: number }
  | { ok: false; problems: string[]; check: SourceCheck };

/** Everything between "these IDs, there" and the request bodies, refusing the whole copy if any part is wrong. */
export function planCopy(input: CopyPlanInput): CopyPlan {
  const check = checkSources(input.sources, input.rootFolders);
  const problems = sourceProblems(check);
  if (!problems.length && !check.ids.length) problems.push(l10n.t('There is nothing to copy.'));
  const name = input.newName?.trim() || undefined;
  if (name !== undefined && check.ids.length > 1) problems.push(onlyOneRenamed());
  if (name !== undefined) {
    const bad = nameProblem(name);
    if (bad) problems.push(bad);
  }
  const bad = destinationProblem(input.destination, check.ids);
  if (bad) problems.push(bad);
  if (problems.length) return { ok: false, problems, check };
  const items = buildCopyItems(check.ids, input.destination, name);
  return { ok: true, items, batches: splitItems(items, input.maxItemsPerRequest), duplicates: check.duplicates };
}

/** Sentences naming what is wrong with the sources (malformed IDs and root folders), empty when nothing is. */
export function sourceProblems(check: SourceCheck): string[] {
  const problems: string[] = [];
  if (check.malformed.length) {
    const shown = check.malformed.slice(0, 5).map((m) => `"${m.length > 40 ? m.slice(0, 40) + '…' : m}"`);
    const n = check.malformed.length;
    problems.push(
      n === 1
        ? l10n.t('This is not a file or folder ID (24 hex digits): {0}.', shown[0])
        : n > 5
          ? l10n.t('These are not file or folder IDs (24 hex digits): {0} and {1} more.', shown.join(', '), n - 5)
          : l10n.t('These are not file or folder IDs (24 hex digits): {0}.', shown.join(', ')),
    );
  }
  if (check.roots.length) {
    // What to do first: the end of a long sentence is what a narrow notification cuts.
    problems.push(
      check.roots.length === 1
        ? l10n.t("Copy the files and folders inside a project's root folder instead: the root folder itself cannot be copied ({0} is a project's root folder).", check.roots[0])
        : l10n.t("Copy the files and folders inside a project's root folder instead: the root folder itself cannot be copied ({0} are projects' root folders).", check.roots.join(', ')),
    );
  }
  return problems;
}

/** "rfranklin/dest › results/2026", or "rfranklin/dest" for a project's root. */
export function describeDestination(destination: CopyDestination): string {
  if (destination.kind === 'projectRoot' || !destination.path.length) return destination.project;
  return `${destination.project} › ${destination.path.join('/')}`;
}

/** Said when a new name is asked for more than one item. */
function onlyOneRenamed(): string {
  return l10n.t('Only a single item can be given a new name.');
}

/** "1 duplicate ID was dropped.", "3 duplicate IDs were dropped." */
export function duplicatesDropped(n: number): string {
  return n === 1 ? l10n.t('1 duplicate ID was dropped.') : l10n.t('{0} duplicate IDs were dropped.', figure(n));
}

export interface ConfirmationOptions {
  /** The names of the items, in order, when all are known. */
  names?: readonly string[];
  newName?: string;
}

/**
 * The confirmation question: `Copy "a.bam" and "b.bam" to rfranklin/dest › results?`, `Copy 12 items to …?`; two names
 * at most, else the count. A new name applies to a single item only (planCopy refuses it for more).
 */
export function confirmationText(count: number, destination: CopyDestination, options: ConfirmationOptions = {}): string {
  const names = options.names?.length === count ? options.names : undefined;
  const where = describeDestination(destination);
  const newName = options.newName?.trim();
  if (count === 1 && newName) return names ? l10n.t('Copy "{0}" to {1} as "{2}"?', names[0], where, newName) : l10n.t('Copy 1 item to {0} as "{1}"?', where, newName);
  if (names?.length === 1) return l10n.t('Copy "{0}" to {1}?', names[0], where);
  if (names?.length === 2) return l10n.t('Copy "{0}" and "{1}" to {2}?', names[0], names[1], where);
  return count === 1 ? l10n.t('Copy 1 item to {0}?', where) : l10n.t('Copy {0} items to {1}?', figure(count), where);
}

/** Most names listed in the confirmation's detail. */
const NAMES_LISTED = 8;

export interface ConfirmationNotes {
  names?: readonly string[];
  count: number;
  /** How many of the items are folders; undefined when not known (IDs pasted). */
  folders?: number;
  duplicates: number;
  batches: number;
  batchSize: number;
}

/** The lines under the question: what is copied (when the question did not name it), and only the notes that apply. */
export function confirmationNotes(notes: ConfirmationNotes): string[] {
  const lines: string[] = [];
  const names = notes.names?.length === notes.count ? notes.names : undefined;
  if (names && names.length > 2) {
    const shown = names.slice(0, NAMES_LISTED).join(', ');
    lines.push(names.length > NAMES_LISTED ? l10n.t('{0} and {1} more.', shown, names.length - NAMES_LISTED) : l10n.t({ message: '{0}.', args: [shown], comment: ['A list of names that ends a sentence'] }));
  }
  if (notes.duplicates) lines.push(duplicatesDropped(notes.duplicates));
  if (notes.batches > 1) lines.push(l10n.t('Sent as {0} requests of at most {1} items, each its own job.', notes.batches, notes.batchSize));
  if (notes.folders === undefined) lines.push(l10n.t('A folder is copied with everything in it.'));
  else if (notes.folders > 0) lines.push(notes.folders === notes.count && notes.count === 1 ? l10n.t('The folder is copied with everything in it.') : l10n.t('Folders are copied with everything in them.'));
  if (notes.folders === undefined || notes.folders < notes.count) lines.push(l10n.t('A file whose name is taken there gets a numbered name.'));
  return lines;
}
