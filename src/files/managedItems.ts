// An item a file command acts on (New Folder…, Rename…, Delete…, Move To…, Edit Tags…), what refuses it before
// anything is sent, and the words every such command shares. No `vscode` import.
import * as l10n from '@vscode/l10n';
import { fileCount, itemCount } from '../util/words';
import { readOnlyProject, signInToChange as signInWords } from '../remote/remoteFiles';

/** Why a change cannot be sent while signed out. */
export const signInToChange = signInWords;

/** A write the platform refused without saying why. */
export const notTaken = (): string => l10n.t('The platform did not take the change.');

/** "me/p is read only: nothing in it can be changed." */
export const readOnlyWords = readOnlyProject;
/** '"a.bam" is no longer there.' */
export const noLongerThere = (name: string): string => l10n.t('"{0}" is no longer there.', name);

/** An item a command acts on, with what its row knew. */
export interface ManagedItem {
  id: string;
  name: string;
  folder: boolean;
  size?: number;
  /** its project's ID, and whether the caller may write to it (false: read only) */
  project?: string;
  writable?: boolean;
  /** the folder it is in, when known */
  parent?: string;
}

/** Why a delete (or a rename, a move) cannot be sent: a project's root folder, or a read-only project. */
export function refusal(items: readonly ManagedItem[], rootFolders: ReadonlySet<string>): string | undefined {
  const root = items.find((i) => rootFolders.has(i.id.toLowerCase()));
  if (root) return l10n.t('"{0}" is a project\'s root folder: it cannot be deleted, renamed or moved.', root.name);
  const readOnly = items.find((i) => i.writable === false);
  if (readOnly) return readOnlyWords(readOnly.project ?? readOnly.name);
  return undefined;
}

/** An item's name in quotes, as the questions and the outcomes say it. */
export const quotedName = (name: string): string => l10n.t('"{0}"', name);

/** What a move or a delete was done to, in words: the one item's name, else "2 files" (files only) or "3 items". */
export function doneWhat(n: number, items: readonly ManagedItem[]): string {
  if (n === 1 && items.length === 1) return quotedName(items[0].name);
  return items.every((i) => !i.folder) ? fileCount(n) : itemCount(n);
}

