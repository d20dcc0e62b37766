// The URI schemes of the extension's read-only documents: the one place each is written (package.json's
// `resourceLabelFormatters` names the same; test/unit/keys/schemes.test.ts holds them equal).

export const SCHEMES = {
  /** A job's log (tasks/logs.ts). */
  log: 'sevenbridges-log',
  /** A task's whole record as JSON (tasks/details.ts). */
  taskDetails: 'sevenbridges-task',
  /** A copy job's results as TSV (jobs/results.ts). */
  copyResults: 'sevenbridges-results',
  /** An app's revision, and the texts of a push's or a comparison's diff (apps/appDocuments.ts). */
  app: 'sevenbridges-app',
  /** Run for Each Row…'s preview of a sample sheet's tasks (tasks/sheetCommands.ts). */
  sheetPreview: 'sevenbridges-sheet',
} as const;
