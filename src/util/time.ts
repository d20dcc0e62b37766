// Human words for times and durations.

const UNITS: [number, string][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'min'],
  [1, 'sec'],
];

/** "5 min ago", "2 days ago", "just now"; "in 3 min" for future times. */
export function relativeTime(date: Date, now: number = Date.now()): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 10) return 'just now';
  for (const [size, unit] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const word = unit === 'min' || unit === 'sec' ? unit : n === 1 ? unit : `${unit}s`;
      return seconds >= 0 ? `${n} ${word} ago` : `in ${n} ${word}`;
    }
  }
  return 'just now';
}

/** "1 h 04 min", "3 min 20 s", "45 s". */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

/** "2026-03-07 14:05 UTC". */
export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}
