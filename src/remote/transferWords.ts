// What a download's progress notification and its summary say. No `vscode`.
import * as l10n from '@vscode/l10n';
import type { DownloadSummary } from '../transfer/download';
import type { TransferProgress } from '../transfer/progress';
import { formatDuration } from '../util/time';
import { andMore, count, failedBecause, fileCount, formatSize } from '../util/words';

/** "3 of 10 files · 1.2 MB of 4.0 GB · 85 MB/s · 1m 5s left". */
export function progressWords(p: TransferProgress): string {
  const parts = [
    l10n.t({ message: '{0} of {1}', args: [count(p.filesDone), fileCount(p.filesTotal)], comment: ['Files done of files in all: "3 of 10 files"'] }),
    l10n.t({ message: '{0} of {1}', args: [formatSize(p.bytesDone)!, formatSize(p.bytesTotal)!], comment: ['Bytes done of bytes in all: "1.2 MB of 4.0 GB"'] }),
  ];
  if (p.bytesPerSecond !== undefined) parts.push(l10n.t('{0}/s', formatSize(Math.round(p.bytesPerSecond))!));
  if (p.secondsLeft !== undefined) parts.push(l10n.t('{0} left', formatDuration(Math.ceil(p.secondsLeft) * 1000)));
  return parts.join(' · ');
}

/** The buttons for a name already taken (Download… locally, Upload… on the platform). */
export function existingChoiceWords(): { overwrite: string; keepBoth: string; skip: string } {
  return { overwrite: l10n.t('Overwrite'), keepBoth: l10n.t('Keep Both'), skip: l10n.t('Skip') };
}

/** Shown at most, by name, in a summary's list of failures. */
const LISTED = 5;

/** The summary of a download: what came, what was skipped, what failed and why (the first few by name). */
export function downloadSummaryWords(summary: DownloadSummary, problems: readonly { name: string; reason: string }[] = []): { message: string; detail: string; failed: number } {
  const failures = [...problems, ...summary.failed.map((f) => ({ name: f.item.relativePath, reason: f.reason }))];
  const saved = summary.saved.length;
  const head = summary.cancelled
    ? l10n.t('Download cancelled: {0} saved ({1}).', fileCount(saved), formatSize(summary.bytes)!)
    : failures.length
      ? l10n.t('Downloaded {0} ({1}); {2} failed.', fileCount(saved), formatSize(summary.bytes)!, count(failures.length))
      : l10n.t('Downloaded {0} ({1}).', fileCount(saved), formatSize(summary.bytes)!);
  const lines = [l10n.t('To {0}', summary.target)];
  if (summary.skipped.length) lines.push(l10n.t('Skipped: {0} (already there with the same size, or by your choice).', fileCount(summary.skipped.length)));
  for (const f of failures.slice(0, LISTED)) lines.push(failedBecause(f.name, f.reason));
  if (failures.length > LISTED) lines.push(andMore(failures.length - LISTED));
  return { message: head, detail: lines.join('\n'), failed: failures.length };
}
