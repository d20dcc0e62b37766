// Every key the extension keeps in VS Code's global or workspace state (Memento). What is read back is checked by
// its owner (it may come from an older version); test/unit/keys/state.test.ts keeps the keys from colliding.

export type StateScope = 'global' | 'workspace';

export interface StateKey {
  readonly key: string;
  readonly scope: StateScope;
}

export const STATE_KEYS = {
  /** The Tasks view's filter (tasks/filterModel.ts). */
  taskFilter: { key: 'sevenbridges.tasks.filter', scope: 'workspace' },
  /** Which status groups and batch parents are open in the Tasks view (tasks/taskTree.ts). */
  expandedTaskRows: { key: 'sevenbridges.tasks.expanded', scope: 'workspace' },
  /** Tasks watched to be told when they end, every window's (tasks/watcher.ts). */
  watchedTasks: { key: 'sevenbridges.tasks.watched', scope: 'global' },
  /** The copy jobs followed, every window's (jobs/tracker.ts). */
  copyJobs: { key: 'sevenbridges.copyJobs', scope: 'global' },
  /** The custom endpoints that have a token in secret storage, never the tokens (auth/provider.ts). */
  endpointsWithTokens: { key: 'sevenbridges.auth.endpointsWithTokens', scope: 'global' },
} as const satisfies Record<string, StateKey>;

/** Families of global-state keys, one per record, found by listing the keys with the prefix. */
export const STATE_KEY_PREFIXES = {
  /** A write recorded before it is sent: `<prefix><write id>`. */
  writeRecord: 'sevenbridges.write.',
  /** A window's heartbeat while it owns writes: `<prefix><window id>`. */
  writerBeat: 'sevenbridges.writer.',
  /** A download under way: what its `.part` file holds, to resume from it (transfer/resumeState.ts). */
  download: 'sevenbridges.transfer.download.',
  /** A multipart upload under way: its ID, local file and part size, to resume it (transfer/resumeState.ts). */
  upload: 'sevenbridges.transfer.upload.',
} as const;
