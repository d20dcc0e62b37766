// What a download's or upload's summary says. No `vscode`.
import * as l10n from '@vscode/l10n';
import * as path from 'path';
import type { DownloadSummary } from '../transfer/download';
import type { UploadSummary } from '../transfer/upload';
import { andMore, count, failedBecause, fileCount, formatSize } from '../util/words';

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
  const kept = summary.kept.reduce((n, k) => n + k.bytes, 0);
  const head = summary.cancelled
    ? summary.kept.length
      ? l10n.t('Download cancelled: {0} saved; {1} begun kept to resume ({2} on disk).', fileCount(saved), fileCount(summary.kept.length), formatSize(kept)!)
      : l10n.t('Download cancelled: {0} saved ({1}).', fileCount(saved), formatSize(summary.bytes)!)
    : failures.length
      ? l10n.t('Downloaded {0} ({1}); {2} failed.', fileCount(saved), formatSize(summary.bytes)!, count(failures.length))
      : l10n.t('Downloaded {0} ({1}).', fileCount(saved), formatSize(summary.bytes)!);
  const lines = [l10n.t('To {0}', summary.target)];
  if (summary.skipped.length) lines.push(l10n.t('Skipped: {0} (already there with the same size, or by your choice).', fileCount(summary.skipped.length)));
  for (const f of failures.slice(0, LISTED)) lines.push(failedBecause(f.name, f.reason));
  if (failures.length > LISTED) lines.push(andMore(failures.length - LISTED));
  return { message: head, detail: lines.join('\n'), failed: failures.length };
}

/** "2 links" / "1 link": links in a folder, as the upload's summary counts them. */
const linkCount = (n: number): string => (n === 1 ? l10n.t('1 link') : l10n.t('{0} links', count(n)));

/**
 * The summary of an upload, in one line (a notification shows no detail): what arrived, the links inside the folders
 * left out (by name: a link may lead to a file that was not meant to leave the machine), the names skipped, and what
 * failed and why (the first few by name).
 */
export function uploadSummaryWords(summary: UploadSummary, destination: string): { message: string; failed: number } {
  const size = formatSize(summary.bytes)!;
  const failures = summary.failed;
  const head = summary.cancelled
    ? l10n.t('Upload cancelled: {0} uploaded ({1}); nothing half sent is left on the platform.', fileCount(summary.uploaded.length), size)
    : failures.length
      ? l10n.t('Uploaded {0} ({1}) to {2}; {3} failed.', fileCount(summary.uploaded.length), size, destination, count(failures.length))
      : l10n.t('Uploaded {0} ({1}) to {2}.', fileCount(summary.uploaded.length), size, destination);
  const lines = [head];
  if (summary.links.length) {
    const names = summary.links.slice(0, LISTED).map((p) => path.basename(p));
    const more = summary.links.length > LISTED ? [andMore(summary.links.length - LISTED)] : [];
    lines.push(l10n.t('Not uploaded: {0} inside the folders, not followed ({1}). To upload what a link leads to, choose that itself.', linkCount(summary.links.length), [...names, ...more].join(', ')));
  }
  if (summary.skipped.length) lines.push(l10n.t('Skipped: {0} (the name was taken).', fileCount(summary.skipped.length)));
  for (const f of failures.slice(0, LISTED)) lines.push(failedBecause(path.basename(f.localPath), f.reason));
  if (failures.length > LISTED) lines.push(andMore(failures.length - LISTED));
  return { message: lines.join(' '), failed: failures.length };
}
