// The `draft:` line of a task document names the task the document made while that task is a DRAFT: Save as Draft or
// Run Task on the document then change that draft (PATCH) instead of making another. A task that runs is not named:
// the document describes a run, and Run Task on it again makes a new task. The edits that keep the line so. No `vscode`.
import type { ParsedTaskDocument, Span } from './taskDocument';

/** A change of the text: [start, end) replaced by `text`. */
export interface TextEdit extends Span {
  text: string;
}

/** The edit that takes the `draft:` line out (the whole line), if there is one. */
export function withoutDraftLine(text: string, parsed: ParsedTaskDocument): TextEdit | undefined {
  const draft = parsed.fields.draft;
  if (!draft) return undefined;
  const start = text.lastIndexOf('\n', draft.key.start - 1) + 1;
  const newline = text.indexOf('\n', draft.value.end);
  return { start, end: newline < 0 ? text.length : newline + 1, text: '' };
}

/**
 * After the document sent `task`: the edit that makes its `draft:` line say the task while it is a DRAFT (written
 * below `project:`, or the top), and takes the line out once the task runs. Undefined when the line says so already.
 */
export function draftLineEdit(text: string, parsed: ParsedTaskDocument, task: { id: string; status?: string }): TextEdit | undefined {
  const draft = parsed.fields.draft;
  if (task.status !== 'DRAFT') return withoutDraftLine(text, parsed);
  if (draft) return parsed.document.draft === task.id ? undefined : { ...draft.value, text: task.id };
  const after = parsed.fields.project?.value.end;
  if (after === undefined) return { start: 0, end: 0, text: `draft: ${task.id}\n` };
  const newline = text.indexOf('\n', after);
  const at = newline < 0 ? text.length : newline;
  return { start: at, end: at, text: `\ndraft: ${task.id}` };
}
