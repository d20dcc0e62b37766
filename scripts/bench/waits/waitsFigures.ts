// The figures of the waits: per case and latency, the median of the product's runs against an ideal made of what the
// requests it needs take (sent bare) and what drawing takes (the floor), each the median of as many runs. Pure: no I/O.
import type { Figure } from '../figures';
import { latencyLabel } from '../peer/peerScenario';
import { FLOORS } from './floors';
import { CASES } from './waitsCases';
import { WAIT_RUNS, type CaseResult, type TimedRun } from './waitsContext';

/** The limit: this many times the ideal, plus this slack (the product's own work, and a machine shared with others). */
export const WAITS_LIMIT_FACTOR = 2;
export const WAITS_LIMIT_SLACK_MS = 250;

export const waitsSection = (latencyMs: number): string => `What a person waits for, ${latencyLabel(latencyMs)}`;

const median = (xs: readonly number[]): number | undefined => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : undefined;
};

const total = (run: TimedRun): number => run.waits.reduce((a, b) => a + b, 0);
const ms = (x: number | undefined): string => (x === undefined ? '—' : `${Math.round(x)}`);

/**
 * "GET user at +9 ms, GET tasks ×7 at +310–322 ms": the API requests of a run by method and path (IDs left out), in the
 * order first seen, with when they arrived after the action.
 */
export function requestSummary(requests: readonly { method: string; path: string; at: number }[]): string {
  const arrivals = new Map<string, number[]>();
  for (const r of requests) {
    const where = r.path.split('?')[0].replace(/^\/?(v2\/)?/, '').split('/').filter((part) => !/\d/.test(part)).join('/');
    const key = `${r.method} ${where}`;
    arrivals.set(key, [...(arrivals.get(key) ?? []), r.at]);
  }
  const when = (ats: number[]) => {
    const first = Math.round(Math.min(...ats));
    const last = Math.round(Math.max(...ats));
    return first === last ? `+${first} ms` : `+${first}–${last} ms`;
  };
  return [...arrivals].map(([key, ats]) => `${key}${ats.length > 1 ? ` ×${ats.length}` : ''} at ${when(ats)}`).join(', ') || 'none';
}

export function waitsFigures(results: readonly CaseResult[]): Figure[] {
  return results.map((r): Figure => {
    const c = CASES.find((x) => x.id === r.id)!;
    const times = r.runs.map(total);
    const value = times.length === 0 || r.error ? undefined : median(times);
    const floor = median(r.floor);
    const network = median(r.network);
    const ideal = floor !== undefined && network !== undefined ? floor + network : undefined;
    // The median run's requests tell where its time went.
    const middle = r.runs.find((run) => total(run) === value);
    const split = middle && middle.waits.length > 1 ? ` (${middle.waits.map(ms).join(' + ')} ms)` : '';
    const note = r.error
      ? `failed: ${r.error}`
      : [
          `samples ${times.map(ms).join(', ')} ms${split}`,
          `ideal: requests ${ms(network)} ms (${c.needs}; samples ${r.network.map(ms).join(', ')}) + drawing ${ms(floor)} ms (${FLOORS[c.floor].what}; samples ${r.floor.map(ms).join(', ')})`,
          middle ? `the median run sent ${requestSummary(middle.requests)}, and ${middle.storageRequests} to the storage` : undefined,
          r.host,
        ].filter(Boolean).join('; ');
    return {
      section: waitsSection(r.latencyMs),
      name: `${c.title} (median of ${WAIT_RUNS})`,
      unit: 'ms',
      value,
      ideal,
      limit: ideal === undefined ? NaN : WAITS_LIMIT_FACTOR * ideal + WAITS_LIMIT_SLACK_MS,
      margin: `${WAITS_LIMIT_FACTOR} × ideal + ${WAITS_LIMIT_SLACK_MS} ms; ideal: ${c.needs}, plus drawing`,
      note,
    };
  });
}
