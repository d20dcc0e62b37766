// A figure of the benchmark: what was measured, its ideal, the margin it may exceed the ideal by, the naive
// strategy's value and the official client's (sevenbridges-python) from the same run. Pure: no I/O.

export interface Figure {
  /** Section of the table (Task tree, Filtering, Copying, ...). */
  section: string;
  name: string;
  unit: 'req' | 'ms' | 's' | 'MB' | 'KB' | 'MB/s' | 'req/min' | 'count' | '×';
  value: number | undefined;
  /** The ideal, or undefined when only a bound is declared. */
  ideal?: number;
  /** The most the value may be: ideal + margin, or an absolute bound when there is no ideal; with `atLeast`, the least. */
  limit: number;
  /** A floor, not a ceiling (a throughput): the value must be at least `limit`. */
  atLeast?: boolean;
  /** How the limit is derived, for the table ("ideal + 1", "≤ 3 × ideal + 1000 ms"). */
  margin: string;
  naive?: number;
  /** A note on the naive figure (e.g. "429 ×12"). */
  naiveNote?: string;
  note?: string;
  /** The official client doing the same work in the same run (peer/peerScenario.ts). */
  peer?: PeerValue;
}

/** The official client's figure; without a value (it could not run, or did other work) the figure fails, as `note` says. */
export interface PeerValue {
  value: number | undefined;
  note?: string;
}

const measured = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);

export function passes(f: Figure): boolean {
  const within = f.atLeast ? measured(f.value) && f.value >= f.limit : measured(f.value) && f.value <= f.limit;
  return within && (f.peer === undefined || measured(f.peer.value));
}

/** The product's figure over the official client's, when both were measured. */
export function ratio(f: Figure): number | undefined {
  return f.peer && measured(f.value) && measured(f.peer.value) && f.peer.value > 0 ? f.value / f.peer.value : undefined;
}

function fmt(value: number | undefined, unit: Figure['unit']): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (unit === '×' || unit === 's') return value.toFixed(2);
  if (unit === 'MB' || unit === 'MB/s') return value.toFixed(1);
  if (unit === 'KB') return value < 10 ? value.toFixed(1) : value.toFixed(0);
  return Math.round(value).toLocaleString('en-US');
}

const HEADERS = ['Figure', 'Unit', 'Measured', 'Ideal', 'Limit (margin)', 'Naive', 'Official client', 'Ratio', 'OK'];
/** Columns written as text (left-aligned): the figure, its unit, the limit with its margin, OK. */
const TEXT_COLUMNS = new Set([0, 1, 4, 8]);

function rows(figures: Figure[]): string[][] {
  return figures.map((f) => [
    `${f.section}: ${f.name}`,
    f.unit,
    fmt(f.value, f.unit),
    f.ideal === undefined ? '—' : fmt(f.ideal, f.unit),
    `${f.atLeast ? '≥ ' : ''}${fmt(f.limit, f.unit)} (${f.margin})`,
    f.naive === undefined ? '—' : `${fmt(f.naive, f.unit)}${f.naiveNote ? ` (${f.naiveNote})` : ''}`,
    f.peer === undefined ? '—' : measured(f.peer.value) ? fmt(f.peer.value, f.unit) : 'FAILED',
    ratio(f) === undefined ? '—' : `${ratio(f)!.toFixed(2)}×`,
    passes(f) ? 'ok' : 'FAIL',
  ]);
}

/** A fixed-width table for the terminal. */
export function textTable(figures: Figure[]): string {
  const all = [HEADERS, ...rows(figures)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (TEXT_COLUMNS.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...rows(figures).map(line)].join('\n');
}

/** The same table in Markdown. */
export function markdownTable(figures: Figure[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, i) => (TEXT_COLUMNS.has(i) ? '---' : '---:')).join('|')}|`,
    ...rows(figures).map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

/** The limit for a time: a multiple of the ideal plus a fixed slack. */
export function timeLimit(ideal: number, factor: number, slackMs: number): { limit: number; margin: string } {
  return { limit: ideal * factor + slackMs, margin: `${factor} × ideal + ${slackMs} ms` };
}
