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
  gcIfExposed();
  const inUse = () => {
    const m = process.memoryUsage();
    return withBuffers ? m.heapUsed + m.arrayBuffers : m.heapUsed;
  };
  const baseline = inUse();
  let peak = baseline;
  const sample = () => {
    const used = inUse();
    if (used > peak) peak = used;
  };
  const timer = setInterval(sample, intervalMs);
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return (peak - baseline) / 2 ** 20;
    },
  };
}
