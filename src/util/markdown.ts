// Markdown escaping for tooltips (tasks, files) and the documents others open (failure-summary.md). No `vscode` import.
import { singleLine } from './plainText';

/**
 * Escapes text from users or the platform (names, messages) for Markdown, so it shows as typed: emphasis, code,
 * links, HTML, entities, strikethrough, table pipes and theme icons (`$(name)`) are all escaped. It is put on one
 * line (line breaks, lone CRs included, become spaces; terminal escapes go), so it can never start a line (where `-`,
 * `.`, `=` would make a list or heading) nor split a table's row.
 */
export function escapeMarkdown(text: string): string {
  return singleLine(text).replace(/[\\`*_{}[\]()#+!|<>~$&]/g, (c) => `\\${c}`);
}

/** Text as a code span on one line (a log line quoted as it reads): fenced by more backticks than it holds, pipes escaped for a table. */
export function codeSpan(text: string): string {
  const line = singleLine(text);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A space inside the fence when the text starts or ends with a backtick (CommonMark strips one on each side).
  const pad = /^`|`$/.test(line) ? ' ' : '';
  return `${fence}${pad}${line.replace(/\|/g, '\\|')}${pad}${fence}`;
}
