// The text of a job's log as the log editor shows it: the last 1 MB first (with a line saying so and how to see
// the rest), or the whole file. No `vscode` import.

import * as l10n from '@vscode/l10n';
import { downloadTail, downloadWhole, type DownloadOptions, type DownloadedText } from '../api/signedDownload';
import { formatSize } from '../util/words';

export const TAIL_BYTES = 1024 * 1024;

export interface LogSource {
  /** The signed URL of the file (GET /v2/files/{id}/download_info). */
  downloadInfo(fileId: string, signal?: AbortSignal): Promise<string>;
}

/** The first line of a log shown in part. */
export function partialNote(received: number, size: number | undefined): string {
  return size !== undefined
    ? l10n.t('[Showing the last {0} of {1}. To see the whole log, click "Load Whole Log" in the editor\'s title bar.]', formatSize(received)!, formatSize(size)!)
    : l10n.t('[Showing the last {0}. To see the whole log, click "Load Whole Log" in the editor\'s title bar.]', formatSize(received)!);
}

export async function fetchLog(
  source: LogSource,
  fileId: string,
  whole: boolean,
  options: DownloadOptions = {},
): Promise<{ text: string; download: DownloadedText }> {
  const url = await source.downloadInfo(fileId, options.signal);
  const download = whole ? await downloadWhole(url, options) : await downloadTail(url, TAIL_BYTES, options);
  const text = download.partial ? `${partialNote(download.received, download.size)}\n${download.text}` : download.text;
  return { text, download };
}
