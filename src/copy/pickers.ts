import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { SbClient } from '../api/client';
import type { FileRecord, Project } from '../api/types';
import { fileListing } from '../api/files';
import { CopyDestination, describeDestination, nameProblem } from './request';
import { plural } from '../util/words';

const CACHE_MS = 2 * 60_000;

/** The caller's projects, fetched once and kept for a couple of minutes (pickers, root-folder checks, labels). */
export class ProjectCache {
  private cached: { at: number; endpoint: string; projects: Promise<Project[]> } | undefined;

  constructor(
    private readonly client: SbClient,
    private readonly endpoint: () => string,
  ) {}

  all(): Promise<Project[]> {
    const endpoint = this.endpoint();
    if (!this.cached || this.cached.endpoint !== endpoint || Date.now() - this.cached.at > CACHE_MS) {
      const projects = this.client.projects.all();
      this.cached = { at: Date.now(), endpoint, projects };
      projects.catch(() => {
        if (this.cached?.projects === projects) this.cached = undefined;
      });
    }
    return this.cached.projects;
  }

  /** Root folder IDs of the caller's projects (empty when they cannot be listed: the platform refuses them anyway). */
  async rootFolders(): Promise<Set<string>> {
    try {
      return new Set((await this.all()).map((p) => p.root_folder?.toLowerCase()).filter((id): id is string => !!id));
    } catch {
      return new Set();
    }
  }

  clear(): void {
    this.cached = undefined;
  }
}

type KindPick = vscode.QuickPickItem & { value: CopyDestination['kind'] };

/** The three destination kinds of the contract; "same project" only when the sources' project is known and single. */
export async function pickDestinationKind(sourceProject: string | undefined, count: number): Promise<CopyDestination['kind'] | undefined> {
  const items: KindPick[] = [];
  if (sourceProject) {
    items.push({ label: '$(folder) A folder in the same project', description: sourceProject, value: 'sameProjectFolder' });
  }
  items.push(
    { label: '$(project) Another project', description: 'its root folder', value: 'projectRoot' },
    { label: '$(folder-opened) A folder in another project', value: 'otherProjectFolder' },
  );
  const chosen = await vscode.window.showQuickPick(items, {
    title: `Copy ${plural(count, 'item')}: where to?`,
    placeHolder: 'Choose the kind of destination',
    ignoreFocusOut: true,
  });
  return chosen?.value;
}

type ProjectPick = vscode.QuickPickItem & { project?: Project };

/** A project from the caller's projects (type to search); read-only ones are shown but refused. */
export async function pickProject(cache: ProjectCache, options: { title: string; exclude?: string; allowReadOnly?: boolean }): Promise<Project | undefined> {
  const pick = vscode.window.createQuickPick<ProjectPick>();
  pick.title = options.title;
  pick.placeholder = 'Type to search your projects';
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  pick.busy = true;
  pick.show();
  try {
    const load = cache.all().then(
      (projects) => {
        const sorted = projects
          .filter((p) => p.id !== options.exclude)
          .sort((a, b) => Number(a.permissions?.write === false) - Number(b.permissions?.write === false) || (a.name || a.id).localeCompare(b.name || b.id));
        pick.items = sorted.length
          ? sorted.map((project) => ({
              label: `$(${project.permissions?.write === false ? 'lock' : 'project'}) ${project.name || project.id}`,
              description: project.id,
              detail: project.permissions?.write === false && !options.allowReadOnly ? 'Read only: you cannot copy into it' : undefined,
              project,
            }))
          : [{ label: 'No other projects', description: 'You have no project to copy into' }];
      },
      (error) => {
        pick.items = [{ label: `$(error) Could not list your projects`, detail: describeError(error) }];
      },
    );
    void load.finally(() => (pick.busy = false));
    for (;;) {
      const chosen = await nextChoice(pick);
      if (!chosen) return undefined;
      if (!chosen.project) continue;
      if (chosen.project.permissions?.write === false && !options.allowReadOnly) {
        pick.placeholder = `${chosen.project.id} is read only: choose another project`;
        continue;
      }
      return chosen.project;
    }
  } finally {
    pick.dispose();
  }
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
  options: { count: number; exclude?: ReadonlySet<string> },
): Promise<BrowseResult> {
  const stack: FileRecord[] = [];
  const pick = vscode.window.createQuickPick<FolderPick>();
  pick.ignoreFocusOut = true;
  pick.placeholder = 'Open a folder, or choose "Here"';
  pick.buttons = [vscode.QuickInputButtons.Back];
  // One listing per level shown; a level left behind is reset, which cancels its request.
  let listing = fileListing(client.files, { project: project.id });
  const destinationHere = (): CopyDestination => {
    const current = stack[stack.length - 1];
    return current
      ? { kind, project: project.id, folder: current.id, path: stack.map((f) => f.name) }
      : { kind: 'projectRoot', project: project.id, rootFolder: project.root_folder };
  };
  const render = () => {
    const here = destinationHere();
    pick.title = `Copy ${plural(options.count, 'item')} to ${describeDestination(here)}${stack.length ? '' : ' (root)'}`;
    const items: FolderPick[] = [
      { label: '$(check) Here', description: describeDestination(here), action: 'here', alwaysShow: true },
      // At the project's root there is no "up": the step before (the project, or the kind of destination) is "back".
      stack.length
        ? { label: '$(arrow-up) Up', description: `to ${stack.slice(0, -1).map((f) => f.name).join('/') || `the root of ${project.id}`}`, action: 'up', alwaysShow: true }
        : { label: '$(arrow-left) Back', description: kind === 'sameProjectFolder' ? 'to the kind of destination' : 'to the list of projects', action: 'up', alwaysShow: true },
      { label: 'Folders', kind: vscode.QuickPickItemKind.Separator, action: 'open' },
    ];
    const folders = listing.items.filter((f) => f.type === 'folder');
    for (const folder of folders) {
      const excluded = options.exclude?.has(folder.id.toLowerCase());
      items.push({
        label: `$(folder) ${folder.name}`,
        description: excluded ? 'being copied: cannot copy into it' : undefined,
        action: 'open',
        folder,
      });
    }
    const remaining = listing.left;
    if (listing.error !== undefined && !listing.loading) items.push({ label: '$(error) Could not list this folder', detail: describeError(listing.error), action: 'more', alwaysShow: true });
    else if (listing.hasMore) items.push({ label: `$(ellipsis) Load more${remaining !== undefined ? ` (${remaining.toLocaleString('en-US')} entries left)` : ''}`, action: 'more', alwaysShow: true });
    else if (!folders.length && !pick.busy) items.push({ label: 'No folders here', action: 'here', description: 'choose to copy here', alwaysShow: true });
    pick.items = items;
  };
  /** The next page of the level shown, or (`open`) the first page of the level now on top of the stack. */
  const load = async (open: boolean) => {
    if (open) {
      listing.reset();
      const current = stack[stack.length - 1];
      listing = fileListing(client.files, current ? { parent: current.id } : { project: project.id });
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

/** The next accepted item of a quick pick (or the item a title button stands for), or undefined once it is hidden. */
export function nextChoice<T extends vscode.QuickPickItem>(pick: vscode.QuickPick<T>, onButton?: (button: vscode.QuickInputButton) => T | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    const disposables: vscode.Disposable[] = [];
    const done = (value: T | undefined) => {
      disposables.forEach((d) => d.dispose());
      resolve(value);
    };
    disposables.push(
      pick.onDidAccept(() => done(pick.selectedItems[0] ?? pick.activeItems[0])),
      pick.onDidHide(() => done(undefined)),
      pick.onDidTriggerButton((button) => {
        const item = onButton?.(button);
        if (item) done(item);
      }),
    );
  });
}

/**
 * An optional new name for a single item, in the Explorer's way: the box holds the current name (the part
 * before the extension selected), Enter keeps it, Escape cancels the copy. Resolves '' to keep the name.
 */
export async function askNewName(currentName: string | undefined, destination: string): Promise<string | undefined> {
  const dot = currentName ? currentName.lastIndexOf('.') : -1;
  const value = await vscode.window.showInputBox({
    title: currentName ? `Name of the copy of "${currentName}"` : 'Name of the copy',
    // VS Code adds "(Press 'Enter' to confirm or 'Escape' to cancel)".
    prompt: `Copied into ${destination}. ${currentName ? 'Keep the name or type a new one' : 'Leave empty to keep the name'}.`,
    placeHolder: currentName ? undefined : 'The current name',
    value: currentName ?? '',
    valueSelection: currentName ? [0, dot > 0 ? dot : currentName.length] : undefined,
    ignoreFocusOut: true,
    validateInput: (text) => nameProblem(text),
  });
  if (value === undefined) return undefined;
  return value.trim() === currentName ? '' : value;
}
