// Reading a table of text: CSV (RFC 4180: cells in double quotes may hold commas, line breaks and `""`) or TSV (a tab
// between cells, no quoting), as a spreadsheet saves it. No `vscode` import.
import * as l10n from '@vscode/l10n';

export type Delimiter = ',' | '\t';

/** One row as read: its cells (trimmed) and the line it starts on (1-based). */
export interface TableRow {
  line: number;
  cells: string[];
}

/** The delimiter a file of that name uses: a tab for `.tsv`, `.tab`, `.txt`; a comma for `.csv`; else the first line's. */
export function delimiterOf(fileName: string, text: string): Delimiter {
  if (/\.(tsv|tab|txt)$/i.test(fileName)) return '\t';
  if (/\.csv$/i.test(fileName)) return ',';
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  return first.includes('\t') ? '\t' : ',';
}

/**
 * The rows of the text, blank lines left out; a byte order mark at the start is not part of the first cell. A quote
 * never closed is an error (the rest of the text would be one cell: rows lost without a word).
 */
export function readDelimited(text: string, delimiter: Delimiter): TableRow[] {
  const body = text.replace(/^\uFEFF/, '');
  const rows: TableRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  let quoteLine = 0;
  const endCell = () => {
    cells.push(cell.trim());
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (cells.some((c) => c !== '')) rows.push({ line: rowLine, cells });
    cells = [];
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && delimiter === ',' && cell.trim() === '') {
      quoted = true;
      quoteLine = line;
      cell = '';
    } else if (c === delimiter) endCell();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += c;
  }
  if (quoted) throw new Error(l10n.t('The quote opened on line {0} is never closed: close it (a quote inside a quoted cell is written twice, "").', quoteLine));
  if (cell !== '' || cells.length) endRow();
  return rows;
}
