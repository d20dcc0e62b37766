import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { SbClient } from '../api/client';
import { nextChoice, pickProject } from '../ui/projectPick';
import type { FileRecord, Project } from '../api/types';
import type { ProjectCache } from '../api/projects';
import { FILE_ROW_FIELDS, fileListing } from '../api/files';
import { type CopyDestination, describeDestination, nameProblem } from './request';
import { itemCount } from '../util/words';
import { loadMoreLabel } from '../ui/rowView';

type KindPick = vscode.QuickPickItem & { value: CopyDestination['kind'] };

/** What the pickers choose a destination for: a copy (by default) or a move. */
export type DestinationVerb = 'copy' | 'move' | 'import';

/** The three destination kinds of platform-api.md §4; "same project" only when the sources' project is known and single. */
export async function pickDestinationKind(sourceProject: string | undefined, count: number, verb: DestinationVerb = 'copy'): Promise<CopyDestination['kind'] | undefined> {
  const items: KindPick[] = [];
  if (sourceProject) {
    items.push({ label: `$(folder) ${vscode.l10n.t('A folder in the same project')}`, description: sourceProject, value: 'sameProjectFolder' });
  }
  items.push(
    { label: `$(project) ${vscode.l10n.t('Another project')}`, description: vscode.l10n.t('its root folder'), value: 'projectRoot' },
    { label: `$(folder-opened) ${vscode.l10n.t('A folder in another project')}`, value: 'otherProjectFolder' },
  );
  const chosen = await vscode.window.showQuickPick(items, {
    title:
      verb === 'move'
        ? vscode.l10n.t({ message: 'Move {0}: where to?', args: [itemCount(count)], comment: ['{0}: "1 item", "3 items"'] })
        : vscode.l10n.t({ message: 'Copy {0}: where to?', args: [itemCount(count)], comment: ['{0}: "1 item", "3 items"'] }),
    placeHolder: vscode.l10n.t('Choose the kind of destination'),
    ignoreFocusOut: true,
  });
  return chosen?.value;
}

type FolderPick = vscode.QuickPickItem & { action: 'here' | 'up' | 'open' | 'more'; folder?: FileRecord };

export interface BrowseResult {
  destination?: CopyDestination;
  back?: boolean;
}

/**
 * Browses a project's folders level by level (`GET /v2/files?parent=`), 100 entries at a time: "Here"
 * chooses the current folder, "Up" goes one level back (from the root: back to the previous step).
 */
export async function browseFolder(
  client: SbClient,
  project: Project,
  kind: 'sameProjectFolder' | 'otherProjectFolder',
  options: { count: number; exclude?: ReadonlySet<string>; verb?: DestinationVerb },
): Promise<BrowseResult> {
  const moving = options.verb === 'move';
  const stack: FileRecord[] = [];
  const pick = vscode.window.createQuickPick<FolderPick>();
  pick.ignoreFocusOut = true;
  pick.placeholder = vscode.l10n.t('Open a folder, or choose "Here"');
  pick.buttons = [vscode.QuickInputButtons.Back];
  // One listing per level shown; a level left behind is reset, which cancels its request.
  let listing = fileListing(client.files, { project: project.id }, {}, FILE_ROW_FIELDS);
  const destinationHere = (): CopyDestination => {
    const current = stack[stack.length - 1];
    return current
      ? { kind, project: project.id, folder: current.id, path: stack.map((f) => f.name) }
      : { kind: 'projectRoot', project: project.id, rootFolder: project.root_folder };
  };
  const render = () => {
    const here = destinationHere();
    const items = itemCount(options.count);
    pick.title = options.verb === 'import'
      ? stack.length
        ? vscode.l10n.t({ message: 'Import {0} into {1}', args: [items, describeDestination(here)], comment: ['{0}: "1 item", "3 items" of a volume; {1}: the destination'] })
        : vscode.l10n.t({ message: 'Import {0} into {1} (root)', args: [items, describeDestination(here)], comment: ['{0}: "1 item", "3 items" of a volume; {1}: a project, at its root folder'] })
      : moving
      ? stack.length
        ? vscode.l10n.t({ message: 'Move {0} to {1}', args: [items, describeDestination(here)], comment: ['{0}: "1 item", "3 items"; {1}: the destination'] })
        : vscode.l10n.t({ message: 'Move {0} to {1} (root)', args: [items, describeDestination(here)], comment: ['{0}: "1 item", "3 items"; {1}: a project, at its root folder'] })
      : stack.length
        ? vscode.l10n.t({ message: 'Copy {0} to {1}', args: [items, describeDestination(here)], comment: ['{0}: "1 item", "3 items"; {1}: the destination'] })
        : vscode.l10n.t({ message: 'Copy {0} to {1} (root)', args: [items, describeDestination(here)], comment: ['{0}: "1 item", "3 items"; {1}: a project, at its root folder'] });
    const rows: FolderPick[] = [
      { label: `$(check) ${vscode.l10n.t({ message: 'Here', comment: ['Copy into the folder shown'] })}`, description: describeDestination(here), action: 'here', alwaysShow: true },
      // At the project's root there is no "up": the step before (the project, or the kind of destination) is "back".
      stack.length
        ? { label: `$(arrow-up) ${vscode.l10n.t('Up')}`, description: upTo(stack.slice(0, -1).map((f) => f.name).join('/'), project.id), action: 'up', alwaysShow: true }
        : { label: `$(arrow-left) ${vscode.l10n.t('Back')}`, description: kind === 'sameProjectFolder' ? vscode.l10n.t('to the kind of destination') : vscode.l10n.t('to the list of projects'), action: 'up', alwaysShow: true },
      { label: vscode.l10n.t('Folders'), kind: vscode.QuickPickItemKind.Separator, action: 'open' },
    ];
    const folders = listing.items.filter((f) => f.type === 'folder');
    for (const folder of folders) {
      const excluded = options.exclude?.has(folder.id.toLowerCase());
      rows.push({
        label: `$(folder) ${folder.name}`,
        description: excluded ? (moving ? vscode.l10n.t('being moved: cannot move into it') : vscode.l10n.t('being copied: cannot copy into it')) : undefined,
        action: 'open',
        folder,
      });
    }
    const remaining = listing.left;
    if (listing.error !== undefined && !listing.loading) rows.push({ label: `$(error) ${vscode.l10n.t('Could not list this folder')}`, detail: describeError(listing.error), action: 'more', alwaysShow: true });
    else if (listing.hasMore) rows.push({ label: `$(ellipsis) ${loadMoreLabel(remaining, false)}`, action: 'more', alwaysShow: true });
    else if (!folders.length && !pick.busy) rows.push({ label: vscode.l10n.t('No folders here'), action: 'here', description: options.verb === 'import' ? vscode.l10n.t('choose to import here') : moving ? vscode.l10n.t('choose to move here') : vscode.l10n.t('choose to copy here'), alwaysShow: true });
    pick.items = rows;
  };
  /** The next page of the level shown, or (`open`) the first page of the level now on top of the stack. */
  const load = async (open: boolean) => {
    if (open) {
      listing.reset();
      const current = stack[stack.length - 1];
      listing = fileListing(client.files, current ? { parent: current.id } : { project: project.id }, {}, FILE_ROW_FIELDS);
    }
    const mine = listing;
    pick.busy = true;
    render();
    await mine.loadMore();
    if (mine !== listing) return;
    pick.busy = false;
    render();
  };
  try {
    pick.show();
    void load(false);
    for (;;) {
      const chosen = await nextChoice(pick, (button) => (button === vscode.QuickInputButtons.Back ? ({ label: 'Back', action: 'up' } as FolderPick) : undefined));
      if (!chosen) return {};
      if (chosen.action === 'here') return { destination: destinationHere() };
      if (chosen.action === 'up') {
        if (!stack.length) return { back: true };
        stack.pop();
        pick.value = '';
        void load(true);
      } else if (chosen.action === 'more') {
        void load(false);
      } else if (chosen.folder) {
        if (options.exclude?.has(chosen.folder.id.toLowerCase())) continue;
        stack.push(chosen.folder);
        pick.value = '';
        void load(true);
      }
    }
  } finally {
    listing.reset();
    pick.dispose();
  }
}

/**
 * An optional new name for a single item, in the Explorer's way: the box holds the current name (the part
 * before the extension selected), Enter keeps it, Escape cancels the copy. Resolves '' to keep the name.
 */
export async function askNewName(currentName: string | undefined, destination: string): Promise<string | undefined> {
  const dot = currentName ? currentName.lastIndexOf('.') : -1;
  const value = await vscode.window.showInputBox({
    title: currentName ? vscode.l10n.t('Name of the copy of "{0}"', currentName) : vscode.l10n.t('Name of the copy'),
    // VS Code adds "(Press 'Enter' to confirm or 'Escape' to cancel)".
    prompt: currentName ? vscode.l10n.t('Copied into {0}. Keep the name or type a new one.', destination) : vscode.l10n.t('Copied into {0}. Leave empty to keep the name.', destination),
    placeHolder: currentName ? undefined : vscode.l10n.t('The current name'),
    value: currentName ?? '',
    valueSelection: currentName ? [0, dot > 0 ? dot : currentName.length] : undefined,
    ignoreFocusOut: true,
    validateInput: (text) => nameProblem(text),
  });
  if (value === undefined) return undefined;
  return value.trim() === currentName ? '' : value;
}

/** The Up row's description: the folder above, or the project's root. */
function upTo(path: string, project: string): string {
  return path ? vscode.l10n.t('to {0}', path) : vscode.l10n.t('to the root of {0}', project);
}


/**
 * The destination of a copy or a move, asked step by step: the kind (a folder of the sources' project, another
 * project's root, a folder of another project), then the project, then the folder; Back goes a step back.
 */
export async function pickDestination(
  services: { projects: ProjectCache; client: SbClient },
  ids: readonly string[],
  sourceProject: string | undefined,
  verb: DestinationVerb = 'copy',
): Promise<CopyDestination | undefined> {
  const exclude = new Set(ids.map((id) => id.toLowerCase()));
  for (;;) {
    const kind = await pickDestinationKind(sourceProject, ids.length, verb);
    if (!kind) return undefined;
    if (kind === 'sameProjectFolder') {
      const project = (await services.projects.all().catch(() => [])).find((p) => p.id === sourceProject) ?? { href: '', id: sourceProject!, name: sourceProject! };
      const result = await browseFolder(services.client, project, 'sameProjectFolder', { count: ids.length, exclude, verb });
      if (result.back) continue;
      return result.destination;
    }
    for (;;) {
      const project = await pickProject(services.projects, {
        title:
          verb === 'move'
            ? kind === 'projectRoot'
              ? vscode.l10n.t('Move to the root of which project?')
              : vscode.l10n.t('Move to a folder of which project?')
            : kind === 'projectRoot'
              ? vscode.l10n.t('Copy to the root of which project?')
              : vscode.l10n.t('Copy to a folder of which project?'),
        // "Another project" either way: the sources' own project is the first choice's.
        exclude: sourceProject,
      });
      if (!project || project === 'none') break;
      if (kind === 'projectRoot') return { kind, project: project.id, rootFolder: project.root_folder };
      const result = await browseFolder(services.client, project, 'otherProjectFolder', { count: ids.length, exclude, verb });
      if (result.back) continue;
      return result.destination;
    }
  }
}
