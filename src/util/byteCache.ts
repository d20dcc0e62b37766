// A cache bounded by the bytes it holds, the least recently used dropped first: what was read of files and logs is
// kept for the next look, never more than its bound in all. No `vscode` import.

export class ByteCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private held = 0;

  /** `limit`: the bytes held at most; a value larger than that is not kept. */
  constructor(readonly limit: number) {}

  /** The bytes held now. */
  get bytes(): number {
    return this.held;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Used now: last to go.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T, bytes: number): void {
    this.delete(key);
    if (bytes > this.limit) return;
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.limit) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}
