/** Fixed-window rate limit per token (default 1000 requests per 5 minutes). */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds */
  reset: number;
}

interface Bucket {
  windowStart: number;
  used: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly now: () => number,
  ) {}

  private bucket(token: string): Bucket {
    const t = this.now();
    let b = this.buckets.get(token);
    if (!b || t >= b.windowStart + this.opts.windowMs) {
      b = { windowStart: t, used: 0 };
      this.buckets.set(token, b);
    }
    return b;
  }

  /** Count one request; returns false when the limit is already spent (nothing is counted then). */
  take(token: string): boolean {
    const b = this.bucket(token);
    if (b.used >= this.opts.limit) {
      return false;
    }
    b.used++;
    return true;
  }

  state(token: string): RateState {
    const b = this.bucket(token);
    return {
      limit: this.opts.limit,
      remaining: Math.max(0, this.opts.limit - b.used),
      reset: Math.ceil((b.windowStart + this.opts.windowMs) / 1000),
    };
  }
}
