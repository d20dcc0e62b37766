// Cells of the TSV files the product writes (Copy Results), as a spreadsheet will open them. No `vscode` import.
import { singleLine } from './plainText';

/**
 * One cell: on one line, no tab (terminal escapes and control characters out, as `singleLine`), and text a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-` or `@`, or with a tab or CR before one: spaces
 * here, which an import may trim) kept as text by a leading `'`, as OWASP's advice on CSV injection says.
 */
export function tsvCell(text: string | undefined): string {
  const line = singleLine(text ?? '');
  return /^\s*[=+\-@]/.test(line) ? `'${line}` : line;
}

/** Rows of cells as TSV: a line per row, each ending with a line break. */
export function tsvTable(rows: readonly (readonly (string | undefined)[])[]): string {
  return rows.map((row) => `${row.map(tsvCell).join('\t')}\n`).join('');
}
