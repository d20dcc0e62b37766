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
