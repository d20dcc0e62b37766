// One paged list of the platform (a task group, a folder's entries, the caller's projects, a picker's rows):
// loaded 100 at a time under a lock, so a double click on "Load more" does not load a page twice; reloaded
// as many pages as were shown, replacing them only once the answer is in; cancelled by a reset.
// No `vscode` import.

import type { Page } from './types';

/** The API's largest page. */
export const PAGE_SIZE = 100;

/** Where the pages come from: a first (or any) page by offset, and the page a `next` link names. */
export interface PageSource<T> {
  page(offset: number, limit: number, signal: AbortSignal): Promise<Page<T>>;
  next(url: string, signal: AbortSignal): Promise<Page<T>>;
}

export interface PagedLoaderOptions<T> {
  /** The item's identity; an item without one is left out, and an item listed twice keeps its first place. */
  key(item: T): string | undefined;
  /** What is kept of an item as it arrives (a record cleaned of fields the views cannot show). */
  readable?(item: T): T;
}

export class PagedLoader<T> {
  private itemsByKey = new Map<string, T>();
  private order: string[] = [];
  private nextUrl: string | undefined;
  private totalCount: number | undefined;
  private loadedOnce = false;
  private pending: Promise<void> | undefined;
  private failure: unknown;
  private controller = new AbortController();

  constructor(
    private readonly source: PageSource<T>,
    private readonly options: PagedLoaderOptions<T>,
  ) {}

  get items(): T[] {
    return this.order.map((key) => this.itemsByKey.get(key)!);
  }
  /** How many items match, when the platform said so (or the end was reached). */
  get total(): number | undefined {
    return this.totalCount;
  }
  /** The error of the last load, cleared by the next one that succeeds. */
  get error(): unknown {
    return this.failure;
  }
  /** Whether a first page was answered (or refused). */
  get loaded(): boolean {
    return this.loadedOnce;
  }
  get loading(): boolean {
    return this.pending !== undefined;
  }
  /** How many items are left to load, when the total is known. */
  get left(): number | undefined {
    return this.totalCount === undefined ? undefined : Math.max(0, this.totalCount - this.order.length);
  }
  get hasMore(): boolean {
    if (this.nextUrl) return true;
    return this.totalCount !== undefined && this.order.length < this.totalCount;
  }

  /** Loads the first page unless it is loaded or loading; after a failure it waits for `loadMore` to try again. */
  ensureLoaded(): Promise<void> {
    if (this.loadedOnce) return Promise.resolve();
    return this.pending ?? this.reload();
  }

  /** The next page, appended (or the first again when it failed); while a page loads, the same promise. */
  loadMore(): Promise<void> {
    if (this.pending) return this.pending;
    if (!this.loadedOnce || (this.failure !== undefined && !this.order.length)) return this.reload();
    if (!this.hasMore) return Promise.resolve();
    return this.run(async (signal) => {
      const page = this.nextUrl ? await this.source.next(this.nextUrl, signal) : await this.source.page(this.order.length, PAGE_SIZE, signal);
      if (signal.aborted) return;
      this.append(page);
    }, false);
  }

  /**
   * Loads again from the start as many items as were shown (in pages of 100, at most `maxPages`), replacing
   * them only once the answer is in, so a view never flickers to empty. A load under way is cancelled.
   */
  reload(maxPages = 1): Promise<void> {
    this.controller.abort();
    this.controller = new AbortController();
    const wanted = Math.max(1, Math.min(maxPages, Math.ceil(this.order.length / PAGE_SIZE)));
    return this.run(async (signal) => {
      const fresh = new PagedLoader(this.source, this.options);
      let page = await this.source.page(0, PAGE_SIZE, signal);
      fresh.append(page);
      for (let i = 1; i < wanted && fresh.hasMore; i++) {
        page = page.next ? await this.source.next(page.next, signal) : await this.source.page(fresh.order.length, PAGE_SIZE, signal);
        fresh.append(page);
      }
      // A source that ignores the signal may still answer after a newer reload or a reset: keep its answer out.
      if (signal.aborted) return;
      this.itemsByKey = fresh.itemsByKey;
      this.order = fresh.order;
      this.nextUrl = fresh.nextUrl;
      this.totalCount = fresh.totalCount;
      this.loadedOnce = true;
    }, true);
  }

  /** Changes a listed item in place (a newer record after an action); false when it is not listed. */
  update(key: string, change: (item: T) => T): boolean {
    const old = this.itemsByKey.get(key);
    if (old === undefined) return false;
    this.itemsByKey.set(key, this.readable(change(old)));
    return true;
  }

  /** Adds an item at `index` (one an action just made or moved here), counted in the total; false when it is listed already. */
  insert(item: T, index: number): boolean {
    const key = this.options.key(item);
    if (key === undefined || this.itemsByKey.has(key)) return false;
    this.itemsByKey.set(key, this.readable(item));
    this.order.splice(Math.max(0, Math.min(index, this.order.length)), 0, key);
    if (this.totalCount !== undefined) this.totalCount++;
    return true;
  }

  /** Takes an item out (an action moved it elsewhere), and out of the total; false when it is not listed. */
  remove(key: string): boolean {
    if (!this.itemsByKey.delete(key)) return false;
    this.order = this.order.filter((k) => k !== key);
    if (this.totalCount !== undefined) this.totalCount = Math.max(0, this.totalCount - 1);
    return true;
  }

  /** Forgets everything and cancels any load under way. */
  reset(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.itemsByKey = new Map();
    this.order = [];
    this.nextUrl = undefined;
    this.totalCount = undefined;
    this.failure = undefined;
    this.loadedOnce = false;
    this.pending = undefined;
  }

  private run(work: (signal: AbortSignal) => Promise<void>, fromStart: boolean): Promise<void> {
    const signal = this.controller.signal;
    const tracked: Promise<void> = work(signal)
      .then(
        () => {
          if (!signal.aborted) this.failure = undefined;
        },
        (error: unknown) => {
          if (signal.aborted) return;
          this.failure = error;
          if (fromStart) this.loadedOnce = true;
        },
      )
      .finally(() => {
        if (this.pending === tracked) this.pending = undefined;
      });
    this.pending = tracked;
    return tracked;
  }

  private append(page: Page<T>): void {
    for (const raw of page.items) {
      const key = this.options.key(raw);
      if (typeof key !== 'string') continue;
      // An item can shift to a later page when newer ones arrive between requests; it keeps its first place.
      if (!this.itemsByKey.has(key)) this.order.push(key);
      this.itemsByKey.set(key, this.readable(raw));
    }
    this.nextUrl = page.next;
    if (page.total !== undefined) this.totalCount = page.total;
    else if (!page.next) this.totalCount = this.order.length;
    this.loadedOnce = true;
  }

  private readable(item: T): T {
    return this.options.readable ? this.options.readable(item) : item;
  }
}

/** The key of a platform record: its `id` when that is text. */
export function recordKey(item: { id?: unknown }): string | undefined {
  return typeof item.id === 'string' ? item.id : undefined;
}
