// Human words for times and durations: each unit, direction and number a whole message of its own.
import * as l10n from '@vscode/l10n';

type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'min' | 'sec';

const UNITS: [number, Unit][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'min'],
  [1, 'sec'],
];

function ago(unit: Unit, n: number): string {
  const one = n === 1;
  switch (unit) {
    case 'year':
      return one ? l10n.t('1 year ago') : l10n.t('{0} years ago', n);
    case 'month':
      return one ? l10n.t('1 month ago') : l10n.t('{0} months ago', n);
    case 'week':
      return one ? l10n.t('1 week ago') : l10n.t('{0} weeks ago', n);
    case 'day':
      return one ? l10n.t('1 day ago') : l10n.t('{0} days ago', n);
    case 'hour':
      return one ? l10n.t('1 hour ago') : l10n.t('{0} hours ago', n);
    case 'min':
      return one ? l10n.t('1 min ago') : l10n.t('{0} min ago', n);
    case 'sec':
      return one ? l10n.t('1 sec ago') : l10n.t('{0} sec ago', n);
  }
}

function fromNow(unit: Unit, n: number): string {
  const one = n === 1;
  switch (unit) {
    case 'year':
      return one ? l10n.t('in 1 year') : l10n.t('in {0} years', n);
    case 'month':
      return one ? l10n.t('in 1 month') : l10n.t('in {0} months', n);
    case 'week':
      return one ? l10n.t('in 1 week') : l10n.t('in {0} weeks', n);
    case 'day':
      return one ? l10n.t('in 1 day') : l10n.t('in {0} days', n);
    case 'hour':
      return one ? l10n.t('in 1 hour') : l10n.t('in {0} hours', n);
    case 'min':
      return one ? l10n.t('in 1 min') : l10n.t('in {0} min', n);
    case 'sec':
      return one ? l10n.t('in 1 sec') : l10n.t('in {0} sec', n);
  }
}

/** "5 min ago", "2 days ago", "just now"; "in 3 min" for future times. */
export function relativeTime(date: Date, now: number): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  const abs = Math.abs(seconds);
  const found = abs < 10 ? undefined : UNITS.find(([size]) => abs >= size);
  if (!found) return l10n.t('just now');
  const n = Math.floor(abs / found[0]);
  return seconds >= 0 ? ago(found[1], n) : fromNow(found[1], n);
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
