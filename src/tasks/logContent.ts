// The text of a job's log as the log editor shows it: the last 1 MB first (with a line saying so and how to see
// the rest), or the whole file. No `vscode` import.

import { downloadTail, downloadWhole, type DownloadOptions, type DownloadedText } from '../api/signedDownload';

export const TAIL_BYTES = 1024 * 1024;

export interface LogSource {
  /** The signed URL of the file (GET /v2/files/{id}/download_info). */
  downloadInfo(fileId: string, signal?: AbortSignal): Promise<string>;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The first line of a log shown in part. */
export function partialNote(received: number, size: number | undefined): string {
  const of = size !== undefined ? ` of ${formatBytes(size)}` : '';
  return `[Showing the last ${formatBytes(received)}${of}. To see the whole log, click "Load Whole Log" in the editor's title bar.]`;
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
