// Staying within the rate limit: the 429s the emulators answered and the waits and retries of the client,
// over every scenario. Each scenario (and each strategy) ran on a fresh emulator with the default limit of
// 1000 requests per 5 minutes, so the most one scenario spent is also shown against that limit.
import type { RateTally } from './env';
import type { Figure } from './figures';

export const DEFAULT_LIMIT = 1_000;

export function rateFigures(tallies: RateTally[]): Figure[] {
  const section = 'Rate limit';
  const ext = tallies.filter((t) => t.strategy === 'extension');
  const naive = tallies.filter((t) => t.strategy === 'naive');
  const sum = (ts: RateTally[], key: 'status429' | 'retries' | 'rateLimitWaits') => ts.reduce((n, t) => n + t[key], 0);
  const most = (ts: RateTally[]) => ts.reduce((n, t) => Math.max(n, t.requests), 0);
  return [
    { section, name: `429 answers, all scenarios (emulator stats.byStatus[429], ${ext.length} runs)`, unit: 'count', value: sum(ext, 'status429'), ideal: 0, limit: 0, margin: 'ideal + 0', naive: sum(naive, 'status429') },
    { section, name: 'client retries + rate-limit waits, all scenarios', unit: 'count', value: sum(ext, 'retries') + sum(ext, 'rateLimitWaits'), ideal: 0, limit: 0, margin: 'ideal + 0', naive: sum(naive, 'retries') + sum(naive, 'rateLimitWaits') },
    { section, name: 'most requests one scenario spent (limit 1000 / 5 min)', unit: 'req', value: most(ext), limit: DEFAULT_LIMIT, margin: `bound: ${DEFAULT_LIMIT}`, naive: most(naive) },
  ];
}
