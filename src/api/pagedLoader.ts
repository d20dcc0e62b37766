// One paged list of the platform (a task group, a folder's entries, the caller's projects, a picker's rows):
// loaded 100 at a time under a lock, so a double click on "Load more" does not load a page twice; reloaded
// as many pages as are shown (what a person loaded stays loaded), replacing them only once the answer is in; cancelled
// by a reset. A listing that
// reads ahead (`readAhead`) keeps, once "Load more" was asked for, the next pages on their way (never past the
// total), each asked once and shown in order by the next "Load more"; a reload or a reset drops them.
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
  /** Sees each page's items (as `readable` made them) when they are added to the list, in the list's order. */
  onAppend?(items: T[]): void;
  /**
   * How many pages to keep on their way ahead of what is shown once "Load more" was asked for (read before each
   * request: 0 while the API budget is low); none by default. Pages are read ahead only where the `next` link
   * says its `offset` and `limit` (links carry the query forward, so the same link at another offset is the
   * same listing's later page), and never past the total the platform gave.
   */
  readAhead?(): number;
}

/** A page asked for ahead of "Load more": its answer, or whether it failed. */
interface AheadPage<T> {
  answer: Promise<Page<T>>;
  failed: boolean;
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
  /** Pages on their way ahead of "Load more", by their offset; only while `askedMore`. */
  private ahead = new Map<number, AheadPage<T>>();
  /** "Load more" was asked for since the first page (or the last reload): reading ahead may start. */
  private askedMore = false;

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
    this.askedMore = true;
    // After a failure, only the page asked for again: what was on its way stays, nothing more is asked.
    if (this.failure === undefined) this.keepAhead();
    return this.run(async (signal) => {
      const page = await this.nextPage(signal);
      if (signal.aborted) return;
      this.append(page);
      this.keepAhead();
    }, false);
  }

  /** The page after what is shown: the one on its way when it was read ahead (taken out, used once), else asked now. */
  private async nextPage(signal: AbortSignal): Promise<Page<T>> {
    const url = this.nextUrl;
    if (!url) return this.source.page(this.order.length, PAGE_SIZE, signal);
    const at = linkPlace(url)?.offset;
    // Pages before this one can no longer be shown in order.
    for (const offset of this.ahead.keys()) if (at === undefined || offset < at) this.ahead.delete(offset);
    const ahead = at === undefined ? undefined : this.ahead.get(at);
    if (!ahead) return this.source.next(url, signal);
    this.ahead.delete(at!);
    try {
      return await ahead.answer;
    } catch (error) {
      // Later pages that failed too would show an old error after the retry: asked again when their turn comes.
      for (const [offset, page] of this.ahead) if (page.failed) this.ahead.delete(offset);
      throw error;
    }
  }

  /**
   * Keeps the pages after what is shown on their way, as many as `readAhead` says (none before "Load more" was asked
   * for, none past the total, none without a `next` link that says its offset and limit), each asked once.
   */
  private keepAhead(): void {
    const wanted = this.askedMore ? Math.floor(this.options.readAhead?.() ?? 0) : 0;
    const place = this.nextUrl ? linkPlace(this.nextUrl) : undefined;
    const total = this.totalCount;
    if (wanted <= 0 || !place || total === undefined) return;
    const signal = this.controller.signal;
    for (let i = 0; i < wanted; i++) {
      const offset = place.offset + i * place.limit;
      if (offset >= total) break;
      if (this.ahead.has(offset)) continue;
      const url = linkAt(this.nextUrl!, offset);
      // A source that throws rather than rejects fails this page only, when its turn comes.
      const entry: AheadPage<T> = { answer: new Promise<Page<T>>((resolve) => resolve(this.source.next(url, signal))), failed: false };
      // Seen when its turn comes (nextPage); until then a failure is only noted.
      entry.answer.catch(() => (entry.failed = true));
      this.ahead.set(offset, entry);
    }
  }

  /**
   * Loads again from the start as many items as are shown (in pages of 100; at most `maxPages` when given), replacing
   * them only once the answer is in, so a view never flickers to empty nor falls back to its first pages. A load
   * under way is cancelled.
   */
  reload(maxPages = Infinity): Promise<void> {
    this.controller.abort();
    this.controller = new AbortController();
    this.dropAhead();
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
    this.dropAhead();
    this.itemsByKey = new Map();
    this.order = [];
    this.nextUrl = undefined;
    this.totalCount = undefined;
    this.failure = undefined;
    this.loadedOnce = false;
    this.pending = undefined;
  }

  /**
   * Pages read ahead before an action changed what is listed are older than it (a task aborted there would come back
   * from one with its old status): forgotten, and read again after the next "Load more".
   */
  forgetAhead(): void {
    this.ahead = new Map();
  }

  /** Forgets the pages read ahead (their requests were cancelled with the controller); the next "Load more" starts again. */
  private dropAhead(): void {
    this.ahead = new Map();
    this.askedMore = false;
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
    const added: T[] = [];
    for (const raw of page.items) {
      const key = this.options.key(raw);
      if (typeof key !== 'string') continue;
      // An item can shift to a later page when newer ones arrive between requests; it keeps its first place.
      if (!this.itemsByKey.has(key)) this.order.push(key);
      const item = this.readable(raw);
      this.itemsByKey.set(key, item);
      added.push(item);
    }
    this.options.onAppend?.(added);
    this.nextUrl = page.next;
    if (page.total !== undefined) this.totalCount = page.total;
    else if (!page.next) this.totalCount = this.order.length;
    this.loadedOnce = true;
  }

  private readable(item: T): T {
    return this.options.readable ? this.options.readable(item) : item;
  }
}

/** Where a `next` link points in its listing: its `offset` and `limit` query parameters, when it says both. */
export function linkPlace(url: string): { offset: number; limit: number } | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const [offset, limit] = [params.get('offset'), params.get('limit')].map((v) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined));
  return offset !== undefined && limit !== undefined && limit > 0 ? { offset, limit } : undefined;
}

/** The same `next` link at another offset of its listing (its query, limit included, unchanged). */
export function linkAt(url: string, offset: number): string {
  const link = new URL(url);
  link.searchParams.set('offset', String(offset));
  return link.toString();
}

/** The key of a platform record: its `id` when that is text. */
export function recordKey(item: { id?: unknown }): string | undefined {
  return typeof item.id === 'string' ? item.id : undefined;
}
