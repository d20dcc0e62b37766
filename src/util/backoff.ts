// The one back-off rule: after a fault, wait; after each further fault in a row, `factor` times as long, up to a cap;
// optionally with a random spread added, so that many clients do not all come back at the same moment. Each user has
// its own parameters: the transport's repeats, an upload's parts, a download's spans, the outbox's lookups, the poller's
// rounds. Pure.

export interface Backoff {
  /** The wait after the first fault. */
  firstMs: number;
  /** Each fault in a row multiplies the wait by this. */
  factor: number;
  /** The longest wait (the spread comes on top). */
  capMs: number;
  /** Up to this much is added at random; none by default. */
  spreadMs?: number;
}

/**
 * The wait after one more fault, given the wait after the last (0 or undefined: no fault yet). For users that keep the
 * last wait rather than a count (the outbox stores it in the write's record).
 */
export function nextBackoff(rule: Backoff, lastMs = 0): number {
  return Math.min(rule.capMs, Math.max(rule.firstMs, lastMs * rule.factor));
}

/** The wait after `faults` faults in a row (1: the first), the spread added. */
export function backoffWait(rule: Backoff, faults: number, random: () => number = Math.random): number {
  let wait = 0;
  for (let n = 0; n < faults; n++) wait = nextBackoff(rule, wait);
  return rule.spreadMs ? wait + Math.floor(random() * rule.spreadMs) : wait;
}
