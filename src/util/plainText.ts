// Text from users, the platform or a tool's log, made safe to quote on one line of a document others open (a Markdown
// table, a TSV file): what a terminal would act on or a reader would break a line at is taken out. No `vscode` import.

/* eslint-disable no-control-regex */
/** A terminal's escape sequences (7-bit and 8-bit): colours, cursor moves, titles (OSC), device strings. */
const TERMINAL_ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
/** Invisible marks that reorder what follows them (a name that reads backwards). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
/** Control characters (tab, CR, LF, NUL, DEL, the C1 set) and Unicode's line and paragraph separators. */
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g;
/* eslint-enable no-control-regex */

/** The text on one line: terminal escapes and reordering marks taken out, each run of control characters one space. */
export function singleLine(text: string): string {
  return text.replace(TERMINAL_ESCAPES, '').replace(BIDI_CONTROLS, '').replace(CONTROLS, ' ');
}
