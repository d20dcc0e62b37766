// What the models keep across reloads: the part of a `vscode.Memento` (global or workspace state) they use, as a
// plain interface so that tests hand in the one fake (test/support/sharedState.ts). Values are read through the
// typed table of src/keys/state.ts (`readState`), which checks them.

export interface StateStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Global state as several windows share it: the outbox also lists the keys (a record per write, checked by the outbox). */
export interface SharedState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
  keys(): readonly string[];
}
