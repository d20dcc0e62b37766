// The one project picker: the caller's projects (type to search), for the task filter, Copy ID and a copy's
// destination. Each row carries what it stands for; notes (an error, a hint) cannot be chosen.
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { isProjectId } from '../api/ids';
import type { ProjectCache } from '../api/projects';
import type { Project } from '../api/types';
import { couldNotListProjects } from './errors';

export interface ProjectPickOptions {
  title: string;
  placeholder?: string;
  /** A project not to offer (the sources' own, for "another project"). */
  exclude?: string;
  /** Read-only projects may be chosen (Copy ID, a filter); else they are shown but refused (a copy's destination). */
  allowReadOnly?: boolean;
  /** A first row that chooses no project ("All projects"). */
  none?: { label: string; description: string };
  /** The project in use, marked so. */
  current?: string;
  /** An `owner/project` typed in is offered too, and checked with the platform (this call) when it is chosen. */
  check?: (id: string) => Promise<Project>;
}

/** A filter's "in use" mark in the picks. */
export const inUseWords = (): string => vscode.l10n.t({ message: 'in use', comment: ['The filter value now applied'] });

interface ProjectItem extends vscode.QuickPickItem {
  project?: Project;
  /** A project ID typed in, to be checked when chosen. */
  typed?: string;
  none?: boolean;
}

/** A project, `'none'` when the `none` row was chosen, or undefined when dismissed. */
export async function pickProject(cache: ProjectCache, options: ProjectPickOptions): Promise<Project | 'none' | undefined> {
  const pick = vscode.window.createQuickPick<ProjectItem>();
  pick.title = options.title;
  pick.placeholder = options.placeholder ?? vscode.l10n.t('Type to search your projects');
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  pick.busy = true;
  let listed: ProjectItem[] = [];
  const render = () => {
    const typed = pick.value.trim();
    const extra: ProjectItem[] = [];
    // Plain words search the list; something with a slash is taken as a project ID.
    if (options.check && typed.includes('/') && !listed.some((p) => p.project?.id === typed)) {
      extra.push(
        isProjectId(typed)
          ? { label: typed, iconPath: new vscode.ThemeIcon('edit'), description: vscode.l10n.t('use this project ID'), typed, alwaysShow: true }
          : { label: vscode.l10n.t('"{0}" is not a project ID', typed), iconPath: new vscode.ThemeIcon('info'), description: vscode.l10n.t('a project ID is owner/project'), alwaysShow: true },
      );
    }
    const none: ProjectItem[] = options.none ? [{ ...options.none, iconPath: new vscode.ThemeIcon('close'), none: true }] : [];
    pick.items = [...extra, ...none, ...(none.length ? [{ label: vscode.l10n.t('Your projects'), kind: vscode.QuickPickItemKind.Separator }] : []), ...listed];
  };
  pick.onDidChangeValue(render);
  render();
  pick.show();
  void cache.all().then(
    (projects) => {
      const readOnly = (p: Project) => p.permissions?.write === false && !options.allowReadOnly;
      const sorted = projects.filter((p) => p.id !== options.exclude).sort((a, b) => Number(readOnly(a)) - Number(readOnly(b)) || (a.name || a.id).localeCompare(b.name || b.id));
      listed = sorted.length
        ? sorted.map((project) => ({
            label: project.name || project.id,
            iconPath: new vscode.ThemeIcon(project.permissions?.write === false ? 'lock' : 'project'),
            description: project.id,
            detail: project.id === options.current ? inUseWords() : readOnly(project) ? vscode.l10n.t('Read only: you cannot copy into it') : undefined,
            project,
          }))
        : [{ label: vscode.l10n.t('No other projects'), description: vscode.l10n.t('You have no project to copy into') }];
      pick.busy = false;
      render();
    },
    (error: unknown) => {
      listed = [{ label: couldNotListProjects(), iconPath: new vscode.ThemeIcon('warning'), detail: describeError(error), alwaysShow: true }];
      pick.busy = false;
      render();
    },
  );
  try {
    for (;;) {
      const chosen = await nextChoice(pick);
      if (!chosen) return undefined;
      if (chosen.none) return 'none';
      if (chosen.typed && options.check) {
        pick.busy = true;
        pick.enabled = false;
        try {
          return await options.check(chosen.typed);
        } catch (error) {
          // Refused (not found, no access): said in the list, the rest kept.
          pick.items = [{ label: chosen.typed, iconPath: new vscode.ThemeIcon('error'), description: describeError(error), alwaysShow: true }, ...pick.items.filter((i) => i !== chosen)];
          continue;
        } finally {
          pick.busy = false;
          pick.enabled = true;
        }
      }
      if (!chosen.project) continue;
      if (chosen.project.permissions?.write === false && !options.allowReadOnly) {
        pick.placeholder = vscode.l10n.t('{0} is read only: choose another project', chosen.project.id);
        continue;
      }
      return chosen.project;
    }
  } finally {
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
