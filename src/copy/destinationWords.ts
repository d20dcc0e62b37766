// What the destination pickers say, for the action they choose a destination for: a copy, a move, an upload or an
// import from a volume. One
// picker (pickers.ts), its words by action here. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';

/** What the pickers choose a destination for. */
export type DestinationVerb = 'copy' | 'move' | 'upload' | 'import';

export interface DestinationWords {
  /** The first step's title: "Copy 3 items: where to?". */
  kindTitle(items: string): string;
  /** The folder browser's title: "Upload 2 items to rfranklin/omega" (at a project's root: "… (root)"). */
  browseTitle(items: string, where: string, atRoot: boolean): string;
  /** The project picker's title. */
  projectTitle(kind: 'projectRoot' | 'otherProjectFolder'): string;
  /** A folder that is one of the items: it cannot take them. */
  excluded: string;
  /** The row of a level without folders. */
  chooseHere: string;
}

/** The pickers' words for `verb`. */
export function destinationWords(verb: DestinationVerb): DestinationWords {
  switch (verb) {
    case 'move':
      return {
        kindTitle: (items) => l10n.t({ message: 'Move {0}: where to?', args: [items], comment: ['{0}: "1 item", "3 items"'] }),
        browseTitle: (items, where, atRoot) =>
          atRoot ? l10n.t({ message: 'Move {0} to {1} (root)', args: [items, where], comment: ['{0}: "1 item", "3 items"; {1}: a project, at its root folder'] }) : l10n.t({ message: 'Move {0} to {1}', args: [items, where], comment: ['{0}: "1 item", "3 items"; {1}: the destination'] }),
        projectTitle: (kind) => (kind === 'projectRoot' ? l10n.t('Move to the root of which project?') : l10n.t('Move to a folder of which project?')),
        excluded: l10n.t('being moved: cannot move into it'),
        chooseHere: l10n.t('choose to move here'),
      };
    case 'upload':
      return {
        kindTitle: (items) => l10n.t({ message: 'Upload {0}: where to?', args: [items], comment: ['{0}: "1 item", "3 items"'] }),
        browseTitle: (items, where, atRoot) =>
          atRoot ? l10n.t({ message: 'Upload {0} to {1} (root)', args: [items, where], comment: ['{0}: "1 item", "3 items"; {1}: a project, at its root folder'] }) : l10n.t({ message: 'Upload {0} to {1}', args: [items, where], comment: ['{0}: "1 item", "3 items"; {1}: the destination'] }),
        projectTitle: () => l10n.t('Upload to which project?'),
        excluded: l10n.t('being uploaded: cannot upload into it'),
        chooseHere: l10n.t('choose to upload here'),
      };
    case 'import':
      return {
        kindTitle: (items) => l10n.t({ message: 'Import {0}: where to?', args: [items], comment: ['{0}: "1 item", "3 items" of a volume'] }),
        browseTitle: (items, where, atRoot) =>
          atRoot ? l10n.t({ message: 'Import {0} into {1} (root)', args: [items, where], comment: ['{0}: "1 item", "3 items" of a volume; {1}: a project, at its root folder'] }) : l10n.t({ message: 'Import {0} into {1}', args: [items, where], comment: ['{0}: "1 item", "3 items" of a volume; {1}: the destination'] }),
        projectTitle: (kind) => (kind === 'projectRoot' ? l10n.t('Import into the root of which project?') : l10n.t('Import into a folder of which project?')),
        excluded: l10n.t('being imported: cannot import into it'),
        chooseHere: l10n.t('choose to import here'),
      };
    case 'copy':
      return {
        kindTitle: (items) => l10n.t({ message: 'Copy {0}: where to?', args: [items], comment: ['{0}: "1 item", "3 items"'] }),
        browseTitle: (items, where, atRoot) =>
          atRoot ? l10n.t({ message: 'Copy {0} to {1} (root)', args: [items, where], comment: ['{0}: "1 item", "3 items"; {1}: a project, at its root folder'] }) : l10n.t({ message: 'Copy {0} to {1}', args: [items, where], comment: ['{0}: "1 item", "3 items"; {1}: the destination'] }),
        projectTitle: (kind) => (kind === 'projectRoot' ? l10n.t('Copy to the root of which project?') : l10n.t('Copy to a folder of which project?')),
        excluded: l10n.t('being copied: cannot copy into it'),
        chooseHere: l10n.t('choose to copy here'),
      };
  }
}
