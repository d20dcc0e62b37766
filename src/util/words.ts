// Counted nouns, each a whole message per count (1, and N) so that a translation can inflect both. No `vscode`:
// `@vscode/l10n` reads the bundle VS Code handed over in main.ts.
import * as l10n from '@vscode/l10n';

/** `1,234`: a count as shown (en-US digit groups, as the rest of the extension's figures). */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** "… and 3 more": the rest of a list cut short. */
export const andMore = (n: number): string => l10n.t('… and {0} more', count(n));

export const itemCount = (n: number): string => (n === 1 ? l10n.t('1 item') : l10n.t('{0} items', count(n)));
export const fileCount = (n: number): string => (n === 1 ? l10n.t('1 file') : l10n.t('{0} files', count(n)));
/** "300 items not sent": what a Cancel kept from leaving. */
export const notSentWords = (what: string): string => l10n.t('{0} not sent', what);
/** "revision 3": an app's revision. */
export const revisionWords = (revision: number | string): string => l10n.t('revision {0}', revision);
/** "1 folder", "12 folders". */
export const folderCount = (n: number): string => (n === 1 ? l10n.t('1 folder') : l10n.t('{0} folders', count(n)));
export const taskCount = (n: number): string => (n === 1 ? l10n.t('1 task') : l10n.t('{0} tasks', count(n)));
export const requestCount = (n: number): string => (n === 1 ? l10n.t('1 request') : l10n.t('{0} requests', count(n)));
/** "10 failed": of tasks, items or jobs. */
export const failedCountWords = (n: number): string => l10n.t('{0} failed', count(n));
/** "3 sent and not answered yet (followed in the Data Jobs view)": writes whose answers are awaited (or looked up). */
export const unansweredWords = (n: number): string => l10n.t('{0} sent and not answered yet (followed in the Data Jobs view)', count(n));

/** "1.2 MB": a size in bytes as shown (1,024 to a kilobyte); undefined when it is not a number. */
export function formatSize(bytes: number | undefined): string | undefined {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return undefined;
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  const shown = (value: number) => {
    const tenths = value.toFixed(1);
    return Number(tenths) < 10 ? tenths : String(Math.round(value));
  };
  let value = bytes;
  let unit = 0;
  // By what would be shown: 1,048,500 bytes (1023.9 KB) reads "1.0 MB", not "1024 KB"; 10,230 bytes "10 KB", not "10.0 KB".
  while (unit < units.length - 1 && Number(shown(value)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${shown(value)} ${units[unit]}`;
}

/** "sample.bam: the link expired": a file (or log) and why it failed. */
export function failedBecause(name: string, reason: string): string {
  return l10n.t({ message: '{0}: {1}', args: [name, reason], comment: ['{0}: a file or log name; {1}: why it failed'] });
}
