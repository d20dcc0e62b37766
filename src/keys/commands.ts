// Every command the extension contributes, by name: the one place in the code its ID is written. package.json
// declares the same list (test/unit/keys/commands.test.ts keeps the two equal, titles included).
import * as l10n from '@vscode/l10n';

export const COMMANDS = {
  // Sign-in
  setToken: 'sevenbridges.setToken',
  signOut: 'sevenbridges.signOut',
  selectPlatform: 'sevenbridges.selectPlatform',
  importCredentials: 'sevenbridges.importCredentials',
  openTokenPage: 'sevenbridges.openTokenPage',
  showLog: 'sevenbridges.showLog',
  accountMenu: 'sevenbridges.accountMenu',
  // Tasks view
  refreshTasks: 'sevenbridges.tasks.refresh',
  filterTasks: 'sevenbridges.tasks.filter',
  clearTaskFilter: 'sevenbridges.tasks.clearFilter',
  showOnlyStatus: 'sevenbridges.tasks.showOnlyStatus',
  filterByProject: 'sevenbridges.tasks.filterByProject',
  showChildTasks: 'sevenbridges.tasks.showChildren',
  copyTaskId: 'sevenbridges.tasks.copyId',
  openTaskDetails: 'sevenbridges.tasks.openDetails',
  openTaskInBrowser: 'sevenbridges.tasks.openInBrowser',
  copyTaskOutputs: 'sevenbridges.tasks.copyOutputs',
  loadMoreTasks: 'sevenbridges.tasks.loadMore',
  // A task's execution: actions, watching, logs
  abortTask: 'sevenbridges.tasks.abort',
  runTask: 'sevenbridges.tasks.run',
  rerunTask: 'sevenbridges.tasks.rerun',
  watchTask: 'sevenbridges.tasks.watch',
  unwatchTask: 'sevenbridges.tasks.unwatch',
  openLog: 'sevenbridges.tasks.openLog',
  showLogs: 'sevenbridges.tasks.showLogs',
  loadWholeLog: 'sevenbridges.tasks.loadWholeLog',
  // Projects & Files view
  refreshFiles: 'sevenbridges.files.refresh',
  copyFileId: 'sevenbridges.files.copyId',
  loadMoreFiles: 'sevenbridges.files.loadMore',
  // Copy
  copy: 'sevenbridges.copy',
  copyTo: 'sevenbridges.copyTo',
  // Copy Jobs view
  showJobs: 'sevenbridges.jobs.show',
  retryFailed: 'sevenbridges.jobs.retryFailed',
  copyResults: 'sevenbridges.jobs.copyResults',
  dismissJob: 'sevenbridges.jobs.dismiss',
  clearFinishedJobs: 'sevenbridges.jobs.clearFinished',
  submitAgain: 'sevenbridges.jobs.submitAgain',
  submitAnyway: 'sevenbridges.jobs.submitAnyway',
  discardRequest: 'sevenbridges.jobs.discard',
  openJobItem: 'sevenbridges.jobs.openItem',
} as const;

/**
 * The titles of the commands the code also offers as buttons ("Set Authentication Token" on an error): the same
 * words as in the palette. A function, so that each is read from the bundle `src/main.ts` hands to `@vscode/l10n`
 * when it is shown, not when this module loads.
 */
export function commandTitles() {
  return {
    setToken: l10n.t('Set Authentication Token'),
    showLog: l10n.t('Show Log'),
    selectPlatform: l10n.t('Select Platform'),
    importCredentials: l10n.t('Import Token from Credentials File'),
    signOut: l10n.t('Sign Out'),
    copyTaskOutputs: l10n.t('Copy Outputs To…'),
    showLogs: l10n.t('Show Logs'),
    copyTaskId: l10n.t('Copy Task ID'),
    showJobs: l10n.t('Show Copy Jobs'),
    retryFailed: l10n.t('Retry Failed Items'),
    submitAgain: l10n.t('Submit Again'),
  } as const satisfies Partial<Record<keyof typeof COMMANDS, string>>;
}
