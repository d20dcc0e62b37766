// The views the extension contributes, by name: the one place in the code a view's ID is written (package.json
// declares the same views; test/integration/suite/contributions.test.ts opens each).

export const VIEWS = {
  tasks: 'sevenbridges.tasks',
  files: 'sevenbridges.files',
  copyJobs: 'sevenbridges.copyJobs',
} as const;

/** Projects & Files' own drag (VS Code's convention for a tree's rows): the rows themselves, within this window. */
export const FILES_DRAG_MIME = `application/vnd.code.tree.${VIEWS.files.toLowerCase()}`;
