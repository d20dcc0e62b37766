// bench-results.json: every figure of the run, one record each, for tools (the README shows the same as a table).
import * as fs from 'fs';
import * as path from 'path';
import type { Figure } from './figures';
import type { Machine } from './machine';

export const RESULTS = path.resolve(__dirname, '..', '..', '..', 'bench-results.json');

export interface ResultRecord {
  name: string;
  unit: Figure['unit'];
  /** The product's figure; null when it could not be measured. */
  ours: number | null;
  /** The official client's, for the figures measured beside it; else null. */
  peer: number | null;
  ideal: number | null;
  limit: number | null;
}

const finite = (value: number | undefined): number | null => (value !== undefined && Number.isFinite(value) ? value : null);

export function resultRecords(figures: Figure[]): ResultRecord[] {
  return figures.map((f) => ({
    name: `${f.section}: ${f.name}`,
    unit: f.unit,
    ours: finite(f.value),
    peer: finite(f.peer?.value),
    ideal: finite(f.ideal),
    limit: finite(f.limit),
  }));
}

export function writeResults(figures: Figure[], machine: Machine, date: string): void {
  fs.writeFileSync(RESULTS, `${JSON.stringify({ date, machine, figures: resultRecords(figures) }, null, 1)}\n`);
}

/**
 * A partial run's figures (`--only=… --merge`) in place of the records of the same names, the others kept as the last
 * whole run left them (a figure not there yet is added at the end).
 */
export function mergeResults(figures: Figure[]): void {
  const file = JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as { figures: ResultRecord[] };
  for (const record of resultRecords(figures)) {
    const at = file.figures.findIndex((r) => r.name === record.name);
    if (at < 0) file.figures.push(record);
    else file.figures[at] = record;
  }
  fs.writeFileSync(RESULTS, `${JSON.stringify(file, null, 1)}\n`);
}
