// The views the extension contributes, by name: the one place in the code a view's ID is written (package.json
// declares the same views; test/integration/suite/contributions.test.ts opens each).

export const VIEWS = {
  tasks: 'sevenbridges.tasks',
  files: 'sevenbridges.files',
  copyJobs: 'sevenbridges.copyJobs',
  volumes: 'sevenbridges.volumes',
} as const;

/** A view's own MIME type for its rows dragged (VS Code's convention): the rows themselves, within this window. */
export const treeMime = (view: string): string => `application/vnd.code.tree.${view.toLowerCase()}`;
/** Projects & Files' own drag. */
export const FILES_DRAG_MIME = treeMime(VIEWS.files);
