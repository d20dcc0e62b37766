// A small event emitter for models that must not import `vscode` (so unit tests run on plain Node).
// Its `event` has the same shape as vscode.Event, so views can subscribe to models directly.

export interface Disposable {
  dispose(): void;
}
export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

export class Emitter<T> {
  private listeners = new Set<Listener<T>>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
