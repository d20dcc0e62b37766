// Where the IDs of a copy come from, as text. Pure.
import { findFileIds, isFileId } from '../api/ids';

/**
 * Splits pasted or typed text into entries, separated by spaces, commas, semicolons or new lines.
 * Quotes and brackets around an entry are dropped, and a platform URL naming a file counts as its ID.
 * Returns every entry (valid or not) so that malformed ones can be named.
 */
export function splitIdText(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map(cleanEntry)
    .filter((entry) => entry.length > 0);
}

function cleanEntry(raw: string): string {
  let entry = raw.trim().replace(/^[\s"'`[\](){}<>]+|[\s"'`[\](){}<>]+$/g, '');
  if (/^https?:\/\//i.test(entry)) {
    const ids = findFileIds(entry);
    if (ids.length) entry = ids[ids.length - 1];
  }
  return isFileId(entry) ? entry.toLowerCase() : entry;
}

/**
 * IDs in an editor selection: every stand-alone 24-hex-digit run, whatever surrounds it (JSON, logs, a
 * table), in order; repeats kept so the caller can count them.
 */
export function idsInEditorText(text: string): string[] {
  return findFileIds(text);
}
