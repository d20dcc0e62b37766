// What the models keep across reloads: the part of a `vscode.Memento` (global or workspace state) they use, as a
// plain interface so that tests hand in the one fake (test/support/sharedState.ts).

export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Global state as several windows share it: the outbox also lists the keys (a record per write). */
export interface SharedState extends StateStore {
  keys(): readonly string[];
}
