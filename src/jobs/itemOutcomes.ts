// What became of each item of a data job (where its copy is, or why it failed and what to do), what Retry Failed Items
// sends again, and the results as a table (Copy Results). No `vscode` import.
import * as l10n from '@vscode/l10n';
import { tsvTable } from '../util/tsv';
import { failedCount, itemErrorWords } from './summary';
import { isFinished } from './trackedJobs';
import type { TrackedJob } from './tracker';
import { jobTypeOf } from './jobKinds';

/** Whether a finished job has items whose result is an error: what Retry Failed Items sends again, as a job of its kind. */
export function canRetryFailed(job: TrackedJob): boolean {
  return isFinished(job) && job.state !== 'UNKNOWN' && failedCount(job) > 0 && !!job.result?.some((r) => r.error);
}

/**
 * What Retry Failed Items sends again: the items whose result is an error, as the job recorded them (their place
 * and name for a copy or a move), with the names known for them. Nothing when none failed.
 */
export function retryPlan(job: TrackedJob): { items: TrackedJob['items']; names: Record<string, string> } {
  const items = job.items.filter((_, i) => job.result?.[i]?.error !== undefined);
  const names: Record<string, string> = {};
  for (const item of items) {
    const name = job.sourceNames?.[item.file] ?? job.sourceNames?.[item.file.toLowerCase()];
    if (name !== undefined) names[item.file] = name;
  }
  return { items, names };
}

/** What became of one item: where its copy is, or why it failed and what to do. */
export interface ItemOutcome {
  ok: boolean | undefined;
  sourceId: string;
  sourceName: string | undefined;
  outcome: 'copied' | 'moved' | 'deleted' | 'failed' | 'pending' | 'no result';
  newId?: string;
  newName?: string;
  /** For a failure: the error's code (or HTTP status) and message. */
  error?: string;
  advice?: string;
}

export function itemOutcome(job: TrackedJob, index: number): ItemOutcome {
  const item = job.items[index];
  const sourceName = job.sourceNames?.[item.file] ?? job.sourceNames?.[item.file.toLowerCase()];
  const base = { sourceId: item.file, sourceName };
  const result = job.result?.[index];
  if (!result) return { ...base, ok: undefined, outcome: isFinished(job) ? 'no result' : 'pending' };
  const type = jobTypeOf(job);
  if (result.resource && type === 'DELETE') return { ...base, sourceName: sourceName ?? result.resource.name, ok: true, outcome: 'deleted' };
  if (result.resource) return { ...base, ok: true, outcome: type === 'MOVE' ? 'moved' : 'copied', newId: result.resource.id, newName: result.resource.name + (result.resource.type === 'folder' ? '/' : '') };
  const e = result.error ?? {};
  return { ...base, ok: false, outcome: 'failed', error: itemErrorWords(e), advice: errorAdvice(e.code, e.status) };
}

/** What to do about an item's error, by its code (platform-api.md §2). */
export function errorAdvice(code: number | undefined, status: number | undefined): string | undefined {
  switch (code) {
    case 5002:
    case 10225:
      return l10n.t('The source no longer exists: nothing to retry.');
    case 10226:
    case 90002:
      return l10n.t('Ask for access (copy permission on the source, write permission on the destination), then Retry Failed Items.');
    case 10227:
    case 10228:
    case 5026:
      return l10n.t('The destination folder is gone or not a folder: copy again to another destination.');
    case 10229:
      return l10n.t('A folder cannot be copied into itself: choose another destination.');
    case 10223:
    case 10224:
      return l10n.t('A file or folder of that name exists: rename it, or copy with another name.');
    case 10231:
      return l10n.t('The source was listed twice: its other entry is the copy.');
  }
  if (status !== undefined && status >= 500) return l10n.t('The platform failed: Retry Failed Items.');
  return undefined;
}

/** The job's results as a table (TSV, a header row first): source ID, source name, outcome, new ID or error. */
export function resultsTable(jobs: readonly TrackedJob[]): string {
  const rows: (string | undefined)[][] = [['source_id', 'source_name', 'outcome', 'new_id_or_error']];
  for (const job of jobs) {
    job.items.forEach((_, index) => {
      const o = itemOutcome(job, index);
      rows.push([o.sourceId, o.sourceName, o.outcome, o.ok ? o.newId : o.error]);
    });
  }
  return tsvTable(rows);
}

/**
 * The Copy Results document's name: `copy-results-<destination>-<job>.tsv`
 * ("copy-results-rfranklin-gamma-gamma_folder_0-7071….tsv"); `delete-results-…`, `move-results-…` for those kinds.
 */
export function resultsFileName(jobs: readonly TrackedJob[]): string {
  const types = [...new Set(jobs.map(jobTypeOf))];
  const prefix = types.length === 1 ? types[0].toLowerCase() : 'job';
  const labels = [...new Set(jobs.map((j) => j.destination.label))];
  const where = labels.length === 1 ? labels[0] : `${labels.length}-destinations`;
  const job = jobs.length === 1 ? jobs[0].id : `${jobs.length}-jobs`;
  const safe = (text: string) => text.replace(/[\s›\\/:*?"<>|#%]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe(prefix)}-results-${safe(where)}-${safe(job)}.tsv`;
}
