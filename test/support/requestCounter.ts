// Requests a client sent, counted through the transport's own `onRequest` hook (one entry per attempt): the
// figures tests, the fault suite and the benchmark report, without a counter in the product.
import type { RequestLogEntry } from '../../src/api/transport';

export class RequestCounter {
  readonly entries: RequestLogEntry[] = [];
  private repeatsAfter429 = 0;
  /** The status of each request's latest attempt, by method, path and attempt number. */
  private readonly lastStatus = new Map<string, number | undefined>();

  /** The client's `onRequest`: counts the entry, then hands it to `next` (the request log, another counter). */
  hook(next?: (entry: RequestLogEntry) => void): (entry: RequestLogEntry) => void {
    return (entry) => {
      this.entries.push(entry);
      const request = `${entry.method} ${entry.path}`;
      if (entry.attempt > 1 && this.lastStatus.get(`${request}#${entry.attempt - 1}`) === 429) this.repeatsAfter429++;
      this.lastStatus.set(`${request}#${entry.attempt}`, entry.status);
      next?.(entry);
    };
  }

  /** Requests sent: every attempt, repeats included. */
  get requests(): number {
    return this.entries.length;
  }

  /** Repeats of a request after a transient fault or a 429. */
  get retries(): number {
    return this.entries.filter((e) => e.attempt > 1).length;
  }

  /** Repeats after a 429 answer: each came after a wait for the rate-limit reset. */
  get rateLimitWaits(): number {
    return this.repeatsAfter429;
  }

  /** The three figures at once, as the reports show them. */
  totals(): { requests: number; retries: number; rateLimitWaits: number } {
    return { requests: this.requests, retries: this.retries, rateLimitWaits: this.rateLimitWaits };
  }

  /** Requests whose method and path match, e.g. `count('GET', /^\/v2\/async\/files/)`. */
  count(method: string, path: RegExp): number {
    return this.entries.filter((e) => e.method === method && path.test(e.path)).length;
  }

  /** Requests sent from now on, read when called. */
  mark(): () => number {
    const start = this.entries.length;
    return () => this.entries.length - start;
  }
}
