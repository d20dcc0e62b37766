// Run this revision (issue 40): after a push, New Task… with the task document last used for the app — its test
// inputs — moved to the new revision. Which document that is, and the edits that move it. No `vscode` import.
import { appBaseId } from '../api/apps';
import { withoutDraftLine, type TextEdit } from './draftLine';
import type { ParsedTaskDocument } from './taskDocument';

/** A task document of the workspace: what it says, and when it last changed (epoch ms; an unsaved one: now). */
export interface DocumentCandidate<K> {
  key: K;
  parsed: ParsedTaskDocument;
  modified: number;
}

/** The document last changed among those that run the app (any revision of it); undefined when none does. */
export function lastDocumentFor<K>(candidates: readonly DocumentCandidate<K>[], app: string): DocumentCandidate<K> | undefined {
  const base = appBaseId(app);
  return candidates
    .filter((c) => c.parsed.document.app !== undefined && appBaseId(c.parsed.document.app) === base)
    .reduce<DocumentCandidate<K> | undefined>((last, c) => (!last || c.modified > last.modified ? c : last), undefined);
}

/**
 * The edits that move a document to `app` (with its revision): its `app:` value replaced; its `draft:` line taken out,
 * as that draft runs the revision before (Run Task makes a new task).
 */
export function revisionEdits(text: string, parsed: ParsedTaskDocument, app: string): TextEdit[] {
  const edits: TextEdit[] = [];
  const at = parsed.fields.app?.value;
  if (at) edits.push({ ...at, text: app });
  const draft = withoutDraftLine(text, parsed);
  if (draft) edits.push(draft);
  return edits;
}
