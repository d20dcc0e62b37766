// Writes the figures into README.md as its "## Performance" section: replaces that section if there is one
// (up to the next "## " heading), else appends it. Leaves the rest of the file as it is.
import * as fs from 'fs';
import * as path from 'path';
import { overTheLimit } from './report';

export const README = path.resolve(__dirname, '..', '..', '..', 'README.md');
const HEADING = '## Performance';

export function replaceSection(text: string, section: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === HEADING);
  const body = section.trimEnd().split('\n');
  if (start < 0) {
    const trimmed = text.replace(/\s*$/, '');
    return `${trimmed}\n\n${body.join('\n')}\n`;
  }
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^## /.test(lines[i])) {
      end = i;
      break;
    }
  }
  const after = lines.slice(end);
  return [...lines.slice(0, start), ...body, ...(after.length ? ['', ...after] : [''])].join('\n');
}

export function writeReadme(section: string): void {
  const text = fs.readFileSync(README, 'utf8');
  fs.writeFileSync(README, replaceSection(text, section));
}

/**
 * A partial run's rows (`--only=… --merge`) in place of the README table's rows of the same figures (matched by their
 * first cell), a figure the table does not have yet added at its end, the line of the figures over their limit read
 * again from the table's OK column, `note` written under the table's "Measured …" line, and the notes on how the
 * figures are taken written afresh from `notes`; the rest is kept.
 */
export function mergePartialRun(text: string, rows: readonly string[], note: string, notes: readonly string[]): string {
  const lines = text.split('\n');
  const heading = lines.indexOf(HEADING);
  const first = (row: string) => row.split(' | ')[0];
  const tableStart = lines.findIndex((l, i) => i > heading && l.startsWith('| '));
  let tableEnd = tableStart;
  while (tableEnd + 1 < lines.length && lines[tableEnd + 1].startsWith('|')) tableEnd++;
  for (const row of rows) {
    const at = lines.findIndex((l, i) => i >= tableStart && i <= tableEnd && first(l) === first(row));
    if (at >= 0) lines[at] = row;
    else lines.splice(++tableEnd, 0, row);
  }
  const failed = lines.slice(tableStart, tableEnd + 1).filter((row) => row.endsWith(' | FAIL |')).map((row) => first(row).slice(2).replace(/\\\|/g, '|'));
  const verdict = lines.findIndex((l, i) => i > tableEnd && (l.startsWith('**Over the limit:**') || l === overTheLimit([])));
  if (verdict >= 0) lines[verdict] = overTheLimit(failed);
  const how = lines.findIndex((l, i) => i > heading && l === 'How the figures are taken:');
  const bullets = lines.findIndex((l, i) => i > how && l.startsWith('- '));
  if (how >= 0 && bullets >= 0) {
    let end = bullets;
    while (end < lines.length && lines[end].startsWith('- ')) end++;
    lines.splice(bullets, end - bullets, ...notes.map((n) => `- ${n}`));
  }
  // The note of an earlier partial run of the same part gives way to this one's.
  const part = `${note.slice(0, note.indexOf(' measured '))} measured `;
  const stale = lines.findIndex((l) => l.startsWith(part));
  if (stale > 0 && lines[stale - 1] === '') lines.splice(stale - 1, 2);
  const measured = lines.findIndex((l, i) => i > heading && l.startsWith('Measured '));
  if (measured >= 0) lines.splice(measured + 1, 0, '', note);
  return lines.join('\n');
}

export function mergeReadmeRows(rows: readonly string[], note: string, notes: readonly string[]): void {
  fs.writeFileSync(README, mergePartialRun(fs.readFileSync(README, 'utf8'), rows, note, notes));
}
