import type { Page } from '../api/types';

/**
 * The children of one tree node, loaded a page at a time. Loading is under a lock: a second request while
 * one is under way (a double click on "Load more") waits for the same page instead of fetching it twice.
 * No `vscode` import.
 */
export class Pager<T> {
  private loaded: T[] = [];
  private nextUrl: string | undefined;
  private totalCount: number | undefined;
  private started = false;
  private inFlight: Promise<void> | undefined;
  private failure: unknown;

  constructor(
    private readonly first: () => Promise<Page<T>>,
    private readonly next: (url: string) => Promise<Page<T>>,
  ) {}

  get items(): readonly T[] {
    return this.loaded;
  }
  /** Whether the first page has been asked for. */
  get isStarted(): boolean {
    return this.started;
  }
  get isLoading(): boolean {
    return this.inFlight !== undefined;
  }
  get hasMore(): boolean {
    return this.nextUrl !== undefined;
  }
  /** Items not loaded yet, when the platform said how many match. */
  get remaining(): number | undefined {
    return this.totalCount === undefined ? undefined : Math.max(0, this.totalCount - this.loaded.length);
  }
  get total(): number | undefined {
    return this.totalCount;
  }
  /** The error of the last load, cleared by the next successful one. */
  get error(): unknown {
    return this.failure;
  }

  /** Loads the first page if it never was, else nothing. */
  ensureFirst(): Promise<void> {
    if (this.started && !this.failure) return this.inFlight ?? Promise.resolve();
    return this.load(true);
  }

  /** Loads the next page (or retries the failed one). */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.started && !this.nextUrl && !this.failure) return Promise.resolve();
    return this.load(!this.started || (this.failure !== undefined && this.loaded.length === 0));
  }

  reset(): void {
    this.loaded = [];
    this.nextUrl = undefined;
    this.totalCount = undefined;
    this.started = false;
    this.failure = undefined;
    this.inFlight = undefined;
    this.generation = (this.generation ?? 0) + 1;
  }

  private load(fromStart: boolean): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.started = true;
    const url = this.nextUrl;
    const generation = (this.generation = (this.generation ?? 0) + 1);
    const promise = (async () => {
      try {
        const page = fromStart || !url ? await this.first() : await this.next(url);
        if (generation !== this.generation) return;
        if (fromStart) this.loaded = [];
        this.loaded = [...this.loaded, ...page.items];
        this.nextUrl = page.next;
        this.totalCount = page.total;
        this.failure = undefined;
      } catch (error) {
        if (generation === this.generation) this.failure = error;
      } finally {
        if (generation === this.generation) this.inFlight = undefined;
      }
    })();
    this.inFlight = promise;
    return promise;
  }

  private generation: number | undefined;
}
