// The steps of choosing where something goes in another project: the project, then a folder in it. "Back" at the
// project's root (the folder browser's first row there) returns to the list of projects; only Escape ends. No `vscode`.

/** What the folder browser gave: a destination, or Back from the project's root (nothing: Escape). */
export interface FolderStep<D> {
  destination?: D;
  back?: boolean;
}

/** Asks for a project, then a folder in it, until a destination is chosen or a step is escaped. */
export async function projectThenFolder<P, D>(askProject: () => Promise<P | undefined>, askFolder: (project: P) => Promise<FolderStep<D>>): Promise<{ project: P; destination: D } | undefined> {
  for (;;) {
    const project = await askProject();
    if (project === undefined) return undefined;
    const step = await askFolder(project);
    if (step.back) continue;
    return step.destination === undefined ? undefined : { project, destination: step.destination };
  }
}
