// What a drop in Projects & Files offers, and what it carries from outside (the Explorer, the OS). No `vscode` import.

export type DropChoice = 'move' | 'copy';

/** The choices of a drop, the default first: Move within one project, Copy across projects (or from several). */
export function dropChoices(sourceProjects: readonly (string | undefined)[], targetProject: string): DropChoice[] {
  const within = sourceProjects.length > 0 && sourceProjects.every((p) => p === targetProject);
  return within ? ['move', 'copy'] : ['copy', 'move'];
}

/** The URIs of a `text/uri-list` (RFC 2483): one a line, `#` lines are comments. */
export function uriListEntries(list: string): string[] {
  return list
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
