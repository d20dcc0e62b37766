// The three timestamp forms the task filters accept (API contract §3), checked strictly.

export type TimestampCheck = { ok: true; date: Date } | { ok: false; reason: string };

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:([+-])(\d{2}):(\d{2}))?)?$/;

export const TIMESTAMP_FORMS = 'yyyy-MM-dd, yyyy-MM-ddTHH:mm:ss (UTC) or yyyy-MM-ddTHH:mm:ss±HH:mm';

/** Checks a value for a `*_from` / `*_to` filter and says precisely what is wrong with it. */
export function parseFilterTimestamp(input: string): TimestampCheck {
  const text = input.trim();
  if (!text) return { ok: false, reason: 'Empty. Expected ' + TIMESTAMP_FORMS + '.' };
  const m = PATTERN.exec(text);
  if (!m) return { ok: false, reason: explainShape(text) };
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  if (month < 1 || month > 12) return { ok: false, reason: `Month ${m[2]} does not exist (01–12).` };
  const daysInMonth = new Date(utcMs(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return { ok: false, reason: `Day ${m[3]} does not exist in ${year}-${m[2]} (01–${daysInMonth}).` };
  if (m[4] === undefined) return { ok: true, date: new Date(utcMs(year, month - 1, day)) };
  const [hour, minute, second] = [m[4], m[5], m[6]].map(Number);
  if (hour > 23) return { ok: false, reason: `Hour ${m[4]} does not exist (00–23).` };
  if (minute > 59) return { ok: false, reason: `Minute ${m[5]} does not exist (00–59).` };
  if (second > 59) return { ok: false, reason: `Second ${m[6]} does not exist (00–59).` };
  let offsetMinutes = 0;
  if (m[7] !== undefined) {
    const [offH, offM] = [m[8], m[9]].map(Number);
    if (offH > 14 || offM > 59 || (offH === 14 && offM > 0)) return { ok: false, reason: `Offset ${m[7]}${m[8]}:${m[9]} is not a time-zone offset (−14:00 to +14:00).` };
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
  const expected = ` Expected ${TIMESTAMP_FORMS}.`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}$/.test(text)) return 'The offset needs minutes too, e.g. +01:00.' + expected;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/.test(text)) return 'The offset needs a colon, e.g. +01:00.' + expected;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/i.test(text)) return 'A trailing Z is not accepted: leave it out (the time is read as UTC).' + expected;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+/.test(text)) return 'Fractions of a second are not accepted.' + expected;
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}$/.test(text)) return 'Seconds are required (HH:mm:ss).' + expected;
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(text)) return 'Separate the date and the time with T, not a space.' + expected;
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(text)) return 'Month and day need two digits each (e.g. 2026-03-07).' + expected;
  const prefix = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?)?/.exec(text);
  if (prefix && prefix[0].length < text.length) return `Unexpected text after "${prefix[0]}": "${text.slice(prefix[0].length)}".` + expected;
  return `"${text}" is not a date.` + expected;
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
