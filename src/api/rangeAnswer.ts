// What a storage's answer to a read holds, checked against what was asked before a byte of it is used: a 206's
// `Content-Range` must start where asked, end where asked (or at the file's end) and agree with its `Content-Length`;
// a 200 is the whole file from byte 0. No `vscode`.
import * as l10n from '@vscode/l10n';

/** What a read asks for: bytes `start` to `end` (inclusive; to the file's end without it), or the last `tail` bytes. */
export type AskedRange = { start: number; end?: number } | { tail: number };

export interface RangeAnswer {
  /** Whether the answer is the part asked for (206), or the whole file (a 2xx that is not 206). */
  partial: boolean;
  /** The first byte of the body, in the file. */
  start: number;
  /** Bytes the body holds, when the answer says (Content-Range, else Content-Length). */
  length: number | undefined;
  /** The file's size, when the answer says. */
  size: number | undefined;
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

/** A count from a header: a whole number of bytes, or undefined when absent; NaN when present and not one. */
function count(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(Number(text.trim())) ? Number(text.trim()) : NaN;
}

/**
 * The answer of a 2xx to a read of `asked`, or what is wrong with it in words (the answer is then not used: bytes
 * written where others were meant would shift or tear the file).
 */
export function rangeAnswer(asked: AskedRange | undefined, status: number, contentRange: string | null, contentLength: string | null): RangeAnswer | { wrong: string } {
  const length = count(contentLength);
  if (Number.isNaN(length)) return { wrong: l10n.t('the file storage sent a length that is not a number ({0})', contentLength ?? '') };
  if (status !== 206) return { partial: false, start: 0, length, size: length };
  const parts = CONTENT_RANGE.exec(contentRange?.trim() ?? '');
  const said = contentRange ?? l10n.t('no Content-Range');
  if (!asked || !parts) return { wrong: l10n.t('the file storage sent part of the file without saying which ({0})', said) };
  const [first, last] = [Number(parts[1]), Number(parts[2])];
  const size = parts[3] === '*' ? undefined : Number(parts[3]);
  const consistent = Number.isSafeInteger(last) && first <= last && (size === undefined || (Number.isSafeInteger(size) && last < size)) && (length === undefined || length === last - first + 1);
  if (!consistent || !holdsAsked(asked, first, last, size)) return { wrong: l10n.t('the file storage sent {0} where bytes {1} were asked', said, askedWords(asked)) };
  return { partial: true, start: first, length: last - first + 1, size };
}

/** Whether bytes `first` to `last` of a file of `size` (when said) are what `asked` asks for. */
function holdsAsked(asked: AskedRange, first: number, last: number, size: number | undefined): boolean {
  if ('tail' in asked) return size === undefined ? last - first + 1 <= asked.tail : first === Math.max(0, size - asked.tail) && last === size - 1;
  if (first !== asked.start) return false;
  if (size !== undefined) return last === Math.min(asked.end ?? Infinity, size - 1);
  return asked.end === undefined || last <= asked.end;
}

function askedWords(asked: AskedRange): string {
  return 'tail' in asked ? `-${asked.tail}` : `${asked.start}-${asked.end ?? ''}`;
}
