// Name clashes in the destination, told before a copy is sent. Pure planning plus a bounded lookup through the
// files API; no `vscode`.
import { describeError } from '../api/errors';
import type { FilesApi, FileLocation } from '../api/files';
import type { FileRecord } from '../api/types';
import * as l10n from '@vscode/l10n';
import { count } from '../util/words';

/** An item as it will arrive: the name it is copied with (its new name, if given) and whether it is a folder. */
export interface Arriving {
  name: string;
  folder: boolean;
}

export interface Existing {
  name: string;
  folder: boolean;
}

export interface ClashPlan {
  /** Items that arrive under another name (platform-api.md §4: `1_<name>`, then `2_<name>`, …). */
  renamed: { from: string; to: string; folder: boolean }[];
  /** Folders whose name is a folder there: their contents are merged into it. */
  merged: string[];
}

/**
 * What the platform will do with each arriving name, in request order: a folder onto a folder of the same name is
 * merged; anything else onto a taken name arrives as the first free `N_<name>`. Items earlier in the same copy take
 * their names too (two `a.txt` make `a.txt` and `1_a.txt`).
 */
export function planClashes(arriving: readonly Arriving[], existing: readonly Existing[]): ClashPlan {
  const taken = new Map<string, boolean>(existing.map((e) => [e.name, e.folder]));
  const plan: ClashPlan = { renamed: [], merged: [] };
  for (const item of arriving) {
    const there = taken.get(item.name);
    if (there === undefined) {
      taken.set(item.name, item.folder);
      continue;
    }
    if (item.folder && there) {
      plan.merged.push(item.name);
      continue;
    }
    let to = item.name;
    for (let i = 1; taken.has(to); i++) to = `${i}_${item.name}`;
    taken.set(to, item.folder);
    plan.renamed.push({ from: item.name, to, folder: item.folder });
  }
  return plan;
}

/** What a lookup of the destination found: the entries of the names asked for, and whether it could finish. */
export interface DestinationLookup {
  existing: Existing[];
  complete: boolean;
  /** Why it could not finish, in a sentence or two. */
  problem?: string;
  requests: number;
}

export interface LookupLimits {
  /** Up to this many names are looked up one by one (the list's `name` filter); more read the listing. */
  maxNameQueries?: number;
  /** Pages (of 100) of the destination's listing read at most. */
  maxPages?: number;
}

export const NAME_QUERIES = 20;
export const LISTING_PAGES = 10;

/**
 * Looks up the destination for the names being copied: one filtered list call per name (up to 20 names),
 * otherwise the destination's listing, 100 a page, at most 10 pages. When one item is renamed, its new name is
 * checked too (the numbered name may itself be taken), a few times at most.
 */
export async function lookupDestination(
  files: Pick<FilesApi, 'list' | 'next'>,
  location: FileLocation,
  arriving: readonly Arriving[],
  limits: LookupLimits = {},
): Promise<DestinationLookup> {
  const maxNames = limits.maxNameQueries ?? NAME_QUERIES;
  const maxPages = limits.maxPages ?? LISTING_PAGES;
  const names = [...new Set(arriving.map((a) => a.name))];
  const existing = new Map<string, Existing>();
  let requests = 0;
  const add = (records: readonly FileRecord[]) => {
    for (const r of records) if (typeof r.name === 'string') existing.set(r.name, { name: r.name, folder: r.type === 'folder' });
  };
  const byName = async (name: string) => {
    requests++;
    add((await files.list(location, { name, limit: 100, fields: 'id,name,type' })).items.filter((r) => r.name === name));
  };
  try {
    if (names.length <= maxNames) {
      for (const name of names) await byName(name);
      // A single rename: its numbered name may be taken as well; follow it to the free one.
      for (let tries = 0; tries < 3; tries++) {
        const plan = planClashes(arriving, [...existing.values()]);
        if (plan.renamed.length !== 1 || arriving.length !== 1) break;
        const to = plan.renamed[0].to;
        if (existing.has(to)) break;
        await byName(to);
        if (!existing.has(to)) break;
      }
      return { existing: [...existing.values()], complete: true, requests };
    }
    let page = await files.list(location, { limit: 100, fields: 'id,name,type' });
    requests++;
    add(page.items);
    for (let n = 1; page.next; n++) {
      if (n >= maxPages) {
        return { existing: [...existing.values()], complete: false, requests, problem: l10n.t('The destination holds more than {0} entries.', count(maxPages * 100)) };
      }
      page = await files.next(page.next);
      requests++;
      add(page.items);
    }
    return { existing: [...existing.values()], complete: true, requests };
  } catch (error) {
    return { existing: [...existing.values()], complete: false, requests, problem: describeError(error) };
  }
}

/** "Checking names in me/p › reads…": the destination's names looked up before the question. */
export const checkingNames = (where: string): string => l10n.t('Checking names in {0}…', where);

const SHOWN = 3;

function listed(names: readonly string[]): string {
  return names.length > SHOWN ? `${names.slice(0, SHOWN).join(', ')}, …` : names.join(', ');
}

/**
 * The lines for the confirmation: "2 files will arrive renamed (1_sample.bam, 1_reads.fq); 1 folder will be merged",
 * or that no name is taken, or that the check could not finish (the copy then goes ahead only on the user's word).
 */
export function clashWords(plan: ClashPlan, lookup: Pick<DestinationLookup, 'complete' | 'problem'>, verb: 'copy' | 'move' = 'copy'): string[] {
  const parts: string[] = [];
  const files = plan.renamed.filter((r) => !r.folder);
  const folders = plan.renamed.filter((r) => r.folder);
  // Whole clauses, one per kind of change, joined as a list.
  if (files.length) {
    const to = listed(files.map((r) => r.to));
    parts.push(files.length === 1 ? l10n.t('1 file will arrive renamed ({0})', to) : l10n.t('{0} files will arrive renamed ({1})', count(files.length), to));
  }
  if (folders.length) {
    const to = listed(folders.map((r) => r.to));
    parts.push(folders.length === 1 ? l10n.t('1 folder will arrive renamed ({0})', to) : l10n.t('{0} folders will arrive renamed ({1})', count(folders.length), to));
  }
  if (plan.merged.length) {
    const merged = listed(plan.merged);
    parts.push(plan.merged.length === 1 ? l10n.t('1 folder will be merged ({0})', merged) : l10n.t('{0} folders will be merged ({1})', count(plan.merged.length), merged));
  }
  const lines: string[] = [];
  if (parts.length) lines.push(l10n.t({ message: '{0}.', args: [parts.join(l10n.t({ message: '; ', comment: ['Separates the clauses of one sentence'] }))], comment: ['Clauses that make one sentence'] }));
  if (!lookup.complete) {
    const problem = lookup.problem ?? l10n.t('The lookup did not finish.');
    lines.push(
      verb === 'move'
        ? l10n.t('The names in the destination could not all be checked. {0} Some items may arrive renamed or merged. Move anyway?', problem)
        : l10n.t('The names in the destination could not all be checked. {0} Some items may arrive renamed or merged. Copy anyway?', problem),
    );
  } else if (!parts.length) {
    lines.push(l10n.t('No name is taken in the destination: every item keeps its name.'));
  }
  return lines;
}
