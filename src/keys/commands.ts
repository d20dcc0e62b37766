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
  openRemoteFile: 'sevenbridges.files.open',
  loadWholeFile: 'sevenbridges.files.loadWhole',
  downloadFiles: 'sevenbridges.files.download',
  downloadTaskOutputs: 'sevenbridges.tasks.downloadOutputs',
  uploadFiles: 'sevenbridges.files.upload',
  addProjectToWorkspace: 'sevenbridges.files.addProjectToWorkspace',
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
  revealInFiles: 'sevenbridges.files.reveal',
} as const;

export type CommandName = keyof typeof COMMANDS;

/**
 * Every command's title, the same words as the palette's (package.nls.json; test/unit/keys/commands.test.ts compares
 * them): what a button that runs a command, a quick pick's title and a command's error message say. A function, so
 * that each is read from the bundle `src/main.ts` hands to `@vscode/l10n` when it is shown, not when this module loads.
 */
export function commandTitles(): Record<CommandName, string> {
  return {
    setToken: l10n.t('Set Authentication Token'),
    signOut: l10n.t('Sign Out'),
    selectPlatform: l10n.t('Select Platform'),
    importCredentials: l10n.t('Import Token from Credentials File'),
    openTokenPage: l10n.t('Open Developer Token Page'),
    showLog: l10n.t('Show Log'),
    accountMenu: l10n.t('Account…'),
    refreshTasks: l10n.t('Refresh Tasks'),
    filterTasks: l10n.t('Filter Tasks…'),
    clearTaskFilter: l10n.t('Clear Task Filters'),
    showOnlyStatus: l10n.t('Show Only This Status'),
    filterByProject: l10n.t('Filter by This Project'),
    showChildTasks: l10n.t('Show Child Tasks'),
    copyTaskId: l10n.t('Copy Task ID'),
    openTaskDetails: l10n.t('Open Task Details'),
    openTaskInBrowser: l10n.t('Open Task in Browser'),
    copyTaskOutputs: l10n.t('Copy Outputs To…'),
    loadMoreTasks: l10n.t('Load More Tasks'),
    abortTask: l10n.t('Abort Task…'),
    runTask: l10n.t('Run Task…'),
    rerunTask: l10n.t('Re-run Task…'),
    watchTask: l10n.t('Watch Task (Notify When It Ends)'),
    unwatchTask: l10n.t('Stop Watching Task'),
    openLog: l10n.t('Open Log'),
    showLogs: l10n.t('Show Logs'),
    loadWholeLog: l10n.t('Load Whole Log'),
    refreshFiles: l10n.t('Refresh Files'),
    copyFileId: l10n.t('Copy ID'),
    loadMoreFiles: l10n.t('Load More Files'),
    openRemoteFile: l10n.t('Open in Editor'),
    loadWholeFile: l10n.t('Load Whole File'),
    downloadFiles: l10n.t('Download…'),
    downloadTaskOutputs: l10n.t('Download Outputs…'),
    uploadFiles: l10n.t('Upload to Seven Bridges…'),
    addProjectToWorkspace: l10n.t('Add Project to Workspace'),
    copy: l10n.t('Copy Files and Folders…'),
    copyTo: l10n.t('Copy To…'),
    showJobs: l10n.t('Show Copy Jobs'),
    retryFailed: l10n.t('Retry Failed Items'),
    copyResults: l10n.t('Copy Results'),
    dismissJob: l10n.t('Dismiss'),
    clearFinishedJobs: l10n.t('Clear Finished Copy Jobs'),
    submitAgain: l10n.t('Submit Again'),
    submitAnyway: l10n.t('Submit Anyway'),
    discardRequest: l10n.t('Discard Request'),
    openJobItem: l10n.t('Open Copied Item'),
    revealInFiles: l10n.t('Reveal in Projects & Files'),
  };
}
