// The question before a delete, with what goes: counts and size of the items chosen, or what one folder holds.
// No `vscode` import.
import * as l10n from '@vscode/l10n';
import { fileCount, folderCount, formatSize } from '../util/words';
import { contentsWords, type FolderContents } from './folderContents';
import { quotedName, type ManagedItem } from './managedItems';

/** "Delete 3 folders and 214 files, 38.2 GB? This cannot be undone." (folders' contents not counted: not loaded). */
export function deleteQuestion(items: readonly ManagedItem[], contents?: FolderContents): string {
  // One folder, counted: what goes with it is said.
  if (items.length === 1 && items[0].folder && contents) {
    return contents.complete && !contents.files && !contents.folders
      ? l10n.t('Delete {0}? It is empty. This cannot be undone.', quotedName(items[0].name))
      : l10n.t('Delete {0} and everything in it ({1})? This cannot be undone.', quotedName(items[0].name), contentsWords(contents));
  }
  const folders = items.filter((i) => i.folder).length;
  const files = items.length - folders;
  const bytes = items.reduce((sum, i) => sum + (!i.folder && typeof i.size === 'number' ? i.size : 0), 0);
  const what =
    items.length === 1
      ? quotedName(items[0].name)
      : [folders ? folderCount(folders) : undefined, files ? fileCount(files) : undefined]
          .filter(Boolean)
          .join(l10n.t(' and '));
  const size = bytes > 0 ? formatSize(bytes) : undefined;
  const inside = folders === 1 ? l10n.t(' Everything in the folder goes too.') : folders ? l10n.t(' Everything in the folders goes too.') : '';
  return size
    ? l10n.t('Delete {0}, {1}?{2} This cannot be undone.', what, size, inside)
    : l10n.t('Delete {0}?{1} This cannot be undone.', what, inside);
}
