// The kinds of write, by name: the `kind` a write's record keeps in global state (`sevenbridges.write.<id>`), so a
// name never changes once released (a record of a name this version does not know is left alone, as from a newer
// version). Each kind is declared once, in the table the outbox is built from (src/writeKinds.ts).

export const WRITE_KINDS = {
  copy: 'copy',
  abort: 'taskAction.abort',
  run: 'taskAction.run',
  rerun: 'taskAction.rerun',
  rerunFailed: 'taskAction.rerunFailed',
  createTask: 'task.create',
  createSheetTask: 'task.createFromSheet',
  saveDraft: 'task.saveDraft',
  uploadComplete: 'upload.complete',
  save: 'file.save',
  newFile: 'file.new',
  newFolder: 'file.newFolder',
  rename: 'file.rename',
  tags: 'file.tags',
  bulkTags: 'file.bulkTags',
  metadata: 'file.metadata',
  delete: 'file.delete',
  asyncDelete: 'file.asyncDelete',
  move: 'file.move',
  asyncMove: 'file.asyncMove',
  appRevision: 'app.revision',
  appInstall: 'app.install',
  volumeImport: 'volume.import',
  volumeBulkImport: 'volume.bulkImport',
  volumeExport: 'volume.export',
  volumeBulkExport: 'volume.bulkExport',
} as const;

export type WriteKindName = (typeof WRITE_KINDS)[keyof typeof WRITE_KINDS];
