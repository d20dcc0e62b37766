// The transfers a reload, a fault or a Cancel left unfinished, as the Data Jobs view shows them from the start
// (main.ts): read from their records, without the transfer engines (Resume and Discard load those, ./upload.ts and
// ./download.ts, on first use).
import * as fs from 'fs';
import * as path from 'path';
import type { InterruptedRun } from '../jobs/transfers';
import { PART, rangesBytes, type DownloadResume, type UploadRunResume } from '../transfer/resumeState';

/** A run's record as the Data Jobs view shows it. */
export function interruptedRun(run: UploadRunResume): InterruptedRun {
  return { kind: 'upload', runId: run.runId, label: run.label, filesLeft: run.files.length, filesTotal: run.filesTotal, bytesLeft: run.bytesLeft, startedAt: run.startedAt };
}

/**
 * The downloads a reload, a fault or a Cancel left unfinished, as the Data Jobs view shows them: the `.part` files
 * recorded in global state, one row per local folder, their bytes not received yet (a folder a window alive downloads
 * into is left out by the view: jobs/transfers.ts). Records whose `.part` file is gone are left out.
 */
export function interruptedDownloads(records: readonly DownloadResume[]): InterruptedRun[] {
  const byFolder = new Map<string, InterruptedRun>();
  for (const record of records) {
    const part = fs.statSync(record.partPath, { throwIfNoEntry: false });
    if (!part || !record.partPath.endsWith(PART)) continue;
    const folder = path.dirname(record.partPath);
    const left = Math.max(0, record.size - rangesBytes(record.done));
    const run = byFolder.get(folder);
    if (!run) {
      byFolder.set(folder, { kind: 'download', runId: `download:${folder}`, label: folder, filesLeft: 1, filesTotal: 1, bytesLeft: left, startedAt: part.birthtimeMs || part.mtimeMs });
      continue;
    }
    run.filesLeft++;
    run.filesTotal++;
    run.bytesLeft += left;
    run.startedAt = Math.min(run.startedAt, part.birthtimeMs || part.mtimeMs);
  }
  return [...byFolder.values()];
}
