// Human words for times and durations: a relative time through Intl.RelativeTimeFormat in the display language; a
// duration's each unit and number a whole message of its own.
import * as l10n from '@vscode/l10n';

/** Units of a relative time, largest first, with their length in seconds. */
const UNITS: [number, Intl.RelativeTimeFormatUnit][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** Under this many seconds away, a time is "now". */
const NOW_SECONDS = 10;

let formats = relativeFormats(undefined);

/**
 * Relative times are said in this language from now on (a BCP 47 tag, VS Code's display language: `vscode.env.language`,
 * handed in by main.ts, as the l10n bundle is). A tag the runtime cannot read leaves its default.
 */
export function useDisplayLanguage(language: string | undefined): void {
  formats = relativeFormats(language);
}

function relativeFormats(language: string | undefined): { numeric: Intl.RelativeTimeFormat; now: Intl.RelativeTimeFormat } {
  try {
    return { numeric: new Intl.RelativeTimeFormat(language, { numeric: 'always' }), now: new Intl.RelativeTimeFormat(language, { numeric: 'auto' }) };
  } catch {
    return relativeFormats(undefined);
  }
}

/** "5 minutes ago", "2 days ago", "now"; "in 3 minutes" for future times: in the display language. */
export function relativeTime(date: Date, now: number): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  const abs = Math.abs(seconds);
  const found = abs < NOW_SECONDS ? undefined : UNITS.find(([size]) => abs >= size);
  if (!found) return formats.now.format(0, 'second');
  const n = Math.floor(abs / found[0]);
  return formats.numeric.format(seconds >= 0 ? -n : n, found[1]);
}

/**
 * How long something took, in its two largest units: "11 days 7 h", "2 h 10 min", "3 min 20 s", "45 s" (a unit
 * that is zero is left out: "2 h"). The one duration formatter: rows, tooltips, confirmations, notifications.
 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (days > 0) {
    if (!h) return days === 1 ? l10n.t('1 day') : l10n.t('{0} days', days);
    return days === 1 ? l10n.t('1 day {0} h', h) : l10n.t('{0} days {1} h', days, h);
  }
  if (h > 0) return m ? l10n.t('{0} h {1} min', h, m) : l10n.t('{0} h', h);
  if (m > 0) return s ? l10n.t('{0} min {1} s', m, s) : l10n.t('{0} min', m);
  return l10n.t('{0} s', s);
}

/** "2026-03-07 14:05 UTC". */
export function formatUtc(date: Date): string {
  return l10n.t('{0} UTC', date.toISOString().slice(0, 16).replace('T', ' '));
}
