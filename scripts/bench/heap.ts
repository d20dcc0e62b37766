// Peak heap while a strategy runs, above what was in use when it started (after a GC when --expose-gc is on).

export interface HeapProbe {
  /** Takes a sample now (call after each page, so no peak is missed between timer ticks). */
  sample(): void;
  /** Stops sampling; the peak above the baseline, in MB. */
  stop(): number;
}

export function gcIfExposed(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  gc();
  gc();
  return true;
}

/** `withBuffers`: Node's buffers (`arrayBuffers`: bytes read or to send) count as well as the JS heap. */
export function startHeapProbe(intervalMs = 5, withBuffers = false): HeapProbe {
  return probe(intervalMs, withBuffers, false);
}

/**
 * What the work holds: each sample taken after a collection (--expose-gc), every `intervalMs`. The garbage V8 lets
 * wait is not counted: Node's socket buffers, for one, are collected once some 64 MB of them wait (V8's limit of
 * external memory), whatever a transfer's size.
 */
export function startHeldProbe(intervalMs = 100, withBuffers = false): HeapProbe {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('the held-memory probe needs --expose-gc');
  return probe(intervalMs, withBuffers, true);
}

function probe(intervalMs: number, withBuffers: boolean, collect: boolean): HeapProbe {
  gcIfExposed();
  const inUse = () => {
    const m = process.memoryUsage();
    return withBuffers ? m.heapUsed + m.arrayBuffers : m.heapUsed;
  };
  const baseline = inUse();
  let peak = baseline;
  const sample = () => {
    if (collect) gcIfExposed();
    const used = inUse();
    if (used > peak) peak = used;
  };
  const timer = setInterval(sample, intervalMs);
  return {
    // Collections only at the timer's pace: a sample after each of 2,000 small files would make a run last a minute.
    sample: collect ? () => undefined : sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return (peak - baseline) / 2 ** 20;
    },
  };
}
