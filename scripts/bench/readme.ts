// Writes the figures into README.md as its "## Performance" section: replaces that section if there is one
// (up to the next "## " heading), else appends it. Leaves the rest of the file as it is.
import * as fs from 'fs';
import * as path from 'path';

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
 * first cell), with `note` written under the table's "Measured …" line; the rest of the section is kept.
 */
export function mergeReadmeRows(rows: string[], note: string): void {
  const lines = fs.readFileSync(README, 'utf8').split('\n');
  const first = (row: string) => row.split(' | ')[0];
  for (const row of rows) {
    const at = lines.findIndex((l) => l.startsWith('| ') && first(l) === first(row));
    if (at >= 0) lines[at] = row;
  }
  // The note of an earlier partial run of the same part gives way to this one's.
  const part = `${note.slice(0, note.indexOf(' measured '))} measured `;
  const stale = lines.findIndex((l) => l.startsWith(part));
  if (stale > 0 && lines[stale - 1] === '') lines.splice(stale - 1, 2);
  const measured = lines.findIndex((l, i) => i > lines.indexOf(HEADING) && l.startsWith('Measured '));
  if (measured >= 0) lines.splice(measured + 1, 0, '', note);
  fs.writeFileSync(README, lines.join('\n'));
}
