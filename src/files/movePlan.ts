// Move To…, planned before anything is sent: what cannot be moved (a folder into itself or below itself, items
// already there), what the names become in the destination (the copy's clash rules: the platform's move renames a
// taken file's name `1_<name>`, merges a folder into one of the same name), and which call carries it (one file
// within its project by the single move, the rest by the async move, 100 items a call). No `vscode` import.
import * as l10n from '@vscode/l10n';
import { MAX_FILE_JOB_ITEMS } from '../api/fileJobs';
import type { FilesApi } from '../api/files';
import type { MoveItem } from '../api/types';
import type { ClashPlan } from '../copy/clashes';
import { describeDestination, type CopyDestination } from '../copy/request';
import { itemCount } from '../util/words';
import type { ManagedItem } from './managedItems';
import type { AsyncMovePayload, MovePayload } from './moveWrites';

/** An item to move, with the folder it is in when known. */
export type MovingItem = ManagedItem;

/** The destination folder's ID, when known (a project's root is named by the project otherwise). */
export function destinationFolder(destination: CopyDestination): string | undefined {
  return destination.kind === 'projectRoot' ? destination.rootFolder : destination.folder;
}

/**
 * The folders from the destination up to its project's root (the destination first), read one GET at a time, at
 * most `max` levels: what a folder moved there must not be.
 */
export async function folderChain(files: Pick<FilesApi, 'get'>, destination: CopyDestination, max = 64): Promise<string[]> {
  const chain: string[] = [];
  let id = destinationFolder(destination);
  while (id && chain.length < max) {
    chain.push(id.toLowerCase());
    const parent: string | undefined = (await files.get(id)).parent;
    id = parent;
  }
  return chain;
}

/** Why the move cannot be sent: a folder into itself or into one of its own subfolders (`chain`: see folderChain). */
export function intoItself(items: readonly MovingItem[], chain: readonly string[], destination: CopyDestination): string | undefined {
  const above = new Set(chain.map((id) => id.toLowerCase()));
  const folder = items.find((i) => i.folder && above.has(i.id.toLowerCase()));
  if (!folder) return undefined;
  return chain[0]?.toLowerCase() === folder.id.toLowerCase()
    ? l10n.t('The folder "{0}" cannot be moved into itself.', folder.name)
    : l10n.t('The folder "{0}" cannot be moved into its own subfolder {1}.', folder.name, describeDestination(destination));
}

/** The items already in the destination: moving them there changes nothing, so they are left out. */
export function alreadyThere(items: readonly MovingItem[], destination: CopyDestination): MovingItem[] {
  const folder = destinationFolder(destination)?.toLowerCase();
  return items.filter((i) => i.parent !== undefined && folder !== undefined && i.parent.toLowerCase() === folder);
}

export type MovePlan = { single: MovePayload } | { jobs: AsyncMovePayload[] };

/**
 * Which call carries the move: one file within its project, whose name is free there, by the single move (it keeps
 * its name; the single move refuses a taken name); anything else — several items, a folder, another project, a
 * name taken there (the async move renames it as the preview said) — by the async move, split at the per-call limit.
 */
export function planMove(items: readonly MovingItem[], destination: CopyDestination, clashes: Pick<ClashPlan, 'renamed'>, max = MAX_FILE_JOB_ITEMS): MovePlan {
  const label = describeDestination(destination);
  const folder = destinationFolder(destination);
  const one = items.length === 1 ? items[0] : undefined;
  if (one && !one.folder && one.project === destination.project && folder && !clashes.renamed.length) {
    return { single: { id: one.id, name: one.name, from: one.parent, to: folder, label } };
  }
  const to = destination.kind === 'projectRoot' ? { project: destination.project } : { parent: destination.folder };
  const jobs: AsyncMovePayload[] = [];
  for (let i = 0; i < items.length; i += max) {
    const part = items.slice(i, i + max);
    jobs.push({
      items: part.map((item): MoveItem => ({ file: item.id, ...to })),
      destination: { label, project: destination.project, ...(destination.kind === 'projectRoot' ? {} : { parent: destination.folder }) },
      sourceNames: Object.fromEntries(part.map((item) => [item.id, item.name])),
    });
  }
  return { jobs };
}

/** "Move "a.bam" to me/p › reads?", "Move 3 items to me/q?" */
export function moveQuestion(items: readonly MovingItem[], destination: CopyDestination): string {
  const where = describeDestination(destination);
  return items.length === 1 ? l10n.t('Move "{0}" to {1}?', items[0].name, where) : l10n.t({ message: 'Move {0} to {1}?', args: [itemCount(items.length), where], comment: ['{0}: "3 items"; {1}: the destination'] });
}
