// The three timestamp forms the task filters accept (API platform-api.md §3), checked strictly.
import * as l10n from '@vscode/l10n';

export type TimestampCheck = { ok: true; date: Date } | { ok: false; reason: string };

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:([+-])(\d{2}):(\d{2}))?)?$/;

/** The accepted forms, for prompts and messages. */
export function timestampForms(): string {
  return l10n.t('yyyy-MM-dd, yyyy-MM-ddTHH:mm:ss (UTC) or yyyy-MM-ddTHH:mm:ss±HH:mm');
}

/** A reason, then the forms that are accepted: two whole sentences. */
function withExpected(reason: string): string {
  return `${reason} ${l10n.t('Expected {0}.', timestampForms())}`;
}

/** Checks a value for a `*_from` / `*_to` filter and says precisely what is wrong with it. */
export function parseFilterTimestamp(input: string): TimestampCheck {
  const text = input.trim();
  if (!text) return { ok: false, reason: withExpected(l10n.t('Empty.')) };
  const m = PATTERN.exec(text);
  if (!m) return { ok: false, reason: explainShape(text) };
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  if (month < 1 || month > 12) return { ok: false, reason: l10n.t('Month {0} does not exist (01–12).', m[2]) };
  const daysInMonth = new Date(utcMs(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return { ok: false, reason: l10n.t('Day {0} does not exist in {1}-{2} (01–{3}).', m[3], year, m[2], daysInMonth) };
  if (m[4] === undefined) return { ok: true, date: new Date(utcMs(year, month - 1, day)) };
  const [hour, minute, second] = [m[4], m[5], m[6]].map(Number);
  if (hour > 23) return { ok: false, reason: l10n.t('Hour {0} does not exist (00–23).', m[4]) };
  if (minute > 59) return { ok: false, reason: l10n.t('Minute {0} does not exist (00–59).', m[5]) };
  if (second > 59) return { ok: false, reason: l10n.t('Second {0} does not exist (00–59).', m[6]) };
  let offsetMinutes = 0;
  if (m[7] !== undefined) {
    const [offH, offM] = [m[8], m[9]].map(Number);
    if (offH > 14 || offM > 59 || (offH === 14 && offM > 0)) return { ok: false, reason: l10n.t('Offset {0} is not a time-zone offset (−14:00 to +14:00).', `${m[7]}${m[8]}:${m[9]}`) };
    offsetMinutes = (m[7] === '-' ? -1 : 1) * (offH * 60 + offM);
  }
  const utc = utcMs(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  return { ok: true, date: new Date(utc) };
}

/** Date.UTC, but years 0–99 stay those years (Date.UTC reads them as 1900–1999). */
function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function explainShape(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}$/.test(text)) return withExpected(l10n.t('The offset needs minutes too, e.g. +01:00.'));
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/.test(text)) return withExpected(l10n.t('The offset needs a colon, e.g. +01:00.'));
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/i.test(text)) return withExpected(l10n.t('A trailing Z is not accepted: leave it out (the time is read as UTC).'));
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+/.test(text)) return withExpected(l10n.t('Fractions of a second are not accepted.'));
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}$/.test(text)) return withExpected(l10n.t('Seconds are required (HH:mm:ss).'));
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(text)) return withExpected(l10n.t('Separate the date and the time with T, not a space.'));
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(text)) return withExpected(l10n.t('Month and day need two digits each (e.g. 2026-03-07).'));
  const prefix = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?)?/.exec(text);
  if (prefix && prefix[0].length < text.length) return withExpected(l10n.t('Unexpected text after "{0}": "{1}".', prefix[0], text.slice(prefix[0].length)));
  return withExpected(l10n.t('"{0}" is not a date.', text));
}

/** Formats a date as the API's UTC form `yyyy-MM-ddTHH:mm:ss` (no offset, no Z), for filter values. */
export function formatFilterTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Reads a record timestamp (`YYYY-MM-DDTHH:MM:SSZ`, tolerating other ISO forms); undefined when unreadable. */
export function parseRecordTimestamp(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
