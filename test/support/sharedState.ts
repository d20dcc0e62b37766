// VS Code's global state as several windows see it: each window reads its own copy, its writes apply there at
// once and reach the main process, then every other window, after a delay; the main process keeps the last
// write it received. This is the one fake of `vscode.Memento` for tests (one window, delay 0, is a plain store).
// The delays run on real timers, or on a test's fake clock when one is given.
import type { Clock } from '../../src/api/clock';
import type { SharedState } from '../../src/util/stateStore';

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export class SharedGlobalState {
  private readonly main = new Map<string, unknown>();
  private readonly windows: WindowState[] = [];

  /** `delayMs`: how long a write takes to reach the main process, and again to reach each other window. */
  constructor(
    public delayMs = 0,
    private readonly timers?: Pick<Clock, 'setTimeout'>,
  ) {}

  /** A new window: it starts from what the main process holds. */
  window(): WindowState {
    const window = new WindowState(this, new Map([...this.main].map(([k, v]) => [k, clone(v)])));
    this.windows.push(window);
    return window;
  }

  /** What the main process holds now (what a window opened now would read). */
  get(key: string): unknown {
    return clone(this.main.get(key));
  }

  /** The keys the main process holds now. */
  keys(): string[] {
    return [...this.main.keys()];
  }

  /** @internal */
  async receive(from: WindowState, key: string, value: unknown): Promise<void> {
    await this.after();
    if (value === undefined) this.main.delete(key);
    else this.main.set(key, clone(value));
    const landed = this.main.get(key);
    void this.after().then(() => {
      for (const w of this.windows) if (w !== from && !w.closed) w.apply(key, clone(landed));
    });
  }

  private after(): Promise<void> {
    if (this.delayMs <= 0) return Promise.resolve();
    return new Promise((r) => (this.timers ? this.timers.setTimeout(r, this.delayMs) : setTimeout(r, this.delayMs)));
  }
}

/** One window's global state. */
export class WindowState implements SharedState {
  closed = false;
  writes = 0;
  /** A write this returns true for is refused (the promise rejects) and changes nothing: storage that fails. */
  refuse: ((key: string, value: unknown) => boolean) | undefined;

  constructor(
    private readonly shared: SharedGlobalState,
    private readonly values: Map<string, unknown>,
  ) {}

  get<T>(key: string): T | undefined {
    return clone(this.values.get(key)) as T | undefined;
  }

  keys(): readonly string[] {
    return [...this.values.keys()];
  }

  update(key: string, value: unknown): Promise<void> {
    if (this.refuse?.(key, value)) return Promise.reject(new Error('The storage refused the write.'));
    this.writes++;
    this.apply(key, clone(value));
    return this.closed ? Promise.resolve() : this.shared.receive(this, key, value);
  }

  /** @internal */
  apply(key: string, value: unknown): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

/** One window's global state with nothing shared: a plain store. */
export function memoryState(): WindowState {
  return new SharedGlobalState().window();
}
