// Upload to Seven Bridges…: what the choice for names already taken in the destination does to each top-level
// name, told before anything is sent. Folders onto folders are merged (the engine makes only what is missing, and
// the choice applies to each file inside). No `vscode`.
import * as l10n from '@vscode/l10n';
import { planClashes, type Arriving, type Existing } from '../copy/clashes';
import type { NameClash } from '../transfer/fileUploads';
import { andMore, count } from '../util/words';

export interface UploadClashDecision {
  /** Names sent as they are (taken by nothing there, or a folder merged). */
  sent: string[];
  /** Files sent under the first free `N_<name>` (keep both). */
  renamed: { from: string; to: string }[];
  /** Files that replace the file of their name. */
  overwritten: string[];
  /** Files not sent. */
  skipped: string[];
  /** Folders whose name is a folder there: their files go into it. */
  merged: string[];
}

/** The names of `arriving` that are taken in the destination (a folder onto a folder is not: it is merged). */
export function takenNames(arriving: readonly Arriving[], existing: readonly Existing[]): string[] {
  const there = new Map(existing.map((e) => [e.name, e.folder]));
  return arriving.filter((a) => there.has(a.name) && !(a.folder && there.get(a.name))).map((a) => a.name);
}

/** What `choice` does to each top-level name arriving, in order. */
export function decideClashes(arriving: readonly Arriving[], existing: readonly Existing[], choice: NameClash): UploadClashDecision {
  const taken = new Set(takenNames(arriving, existing));
  const folders = new Map(existing.map((e) => [e.name, e.folder]));
  const decision: UploadClashDecision = { sent: [], renamed: [], overwritten: [], skipped: [], merged: [] };
  const renames = choice === 'rename' ? planClashes(arriving, existing).renamed : [];
  for (const item of arriving) {
    if (item.folder && folders.get(item.name)) {
      decision.merged.push(item.name);
      decision.sent.push(item.name);
    } else if (!taken.has(item.name)) {
      decision.sent.push(item.name);
    } else if (choice === 'skip') {
      decision.skipped.push(item.name);
    } else if (choice === 'overwrite') {
      decision.overwritten.push(item.name);
    } else {
      const to = renames.find((r) => r.from === item.name)?.to ?? item.name;
      decision.renamed.push({ from: item.name, to });
    }
  }
  return decision;
}

const LISTED = 5;
const listed = (names: readonly string[]): string =>
  names.length > LISTED ? `${names.slice(0, LISTED).join(', ')} ${andMore(names.length - LISTED)}` : names.join(', ');

/** The question's words: which names are taken, and what each choice would do (Keep Both: the names they get). */
export function clashQuestion(arriving: readonly Arriving[], existing: readonly Existing[], destination: string): { message: string; detail: string } {
  const taken = takenNames(arriving, existing);
  const renamed = decideClashes(arriving, existing, 'rename').renamed.map((r) => r.to);
  return {
    message:
      taken.length === 1
        ? l10n.t('"{0}" is already in {1}', taken[0], destination)
        : l10n.t('{0} names are already in {1}: {2}', count(taken.length), destination, listed(taken)),
    detail: l10n.t(
      'Overwrite replaces them; Keep Both sends them as {0} (the platform\'s rule for copies); Skip leaves them out. The same choice applies to files already there inside folders that are merged. Nothing has been sent yet.',
      listed(renamed),
    ),
  };
}
