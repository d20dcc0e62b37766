// The kinds of job the Data Jobs view follows (copy, move, delete; import from and export to a volume): a job's type as
// the platform names it, the path of its calls, and a person's words for it. A type this version does not know is shown as the
// platform names it. Pure: no `vscode`.
import * as l10n from '@vscode/l10n';
import type { FileJobKind } from '../api/types';

/** A job's type: `COPY`, `MOVE`, `DELETE` as the platform names them, `IMPORT`, `EXPORT` (records of older versions have none: copies). */
export type JobType = 'COPY' | 'MOVE' | 'DELETE' | 'IMPORT' | 'EXPORT' | (string & {});

/** The type of a job as recorded; a record without one is a copy. */
export const jobTypeOf = (job: { type?: string }): JobType => (job.type ?? 'COPY').toUpperCase();

/** The path segment of a type's calls (`GET /v2/async/files/{kind}/{id}`); a type not known is asked under its own name. */
export function jobKindOf(job: { type?: string }): FileJobKind {
  return jobTypeOf(job).toLowerCase() as FileJobKind;
}

/** "Copy", "Move", "Delete": what a job's row is called. */
export function jobTypeWord(type: JobType): string {
  switch (type) {
    case 'COPY':
      return l10n.t({ message: 'Copy', comment: ['A data job\'s kind'] });
    case 'MOVE':
      return l10n.t({ message: 'Move', comment: ['A data job\'s kind'] });
    case 'DELETE':
      return l10n.t({ message: 'Delete', comment: ['A data job\'s kind'] });
    case 'IMPORT':
      return l10n.t({ message: 'Import', comment: ['A data job\'s kind'] });
    case 'EXPORT':
      return l10n.t({ message: 'Export', comment: ['A data job\'s kind'] });
    default:
      return type.charAt(0) + type.slice(1).toLowerCase();
  }
}

/** What became of an item that worked: "copied", "moved", "deleted". */
export function itemDoneWord(type: JobType): string {
  switch (type) {
    case 'MOVE':
      return l10n.t({ message: 'moved', comment: ['An item of a move job that worked'] });
    case 'DELETE':
      return l10n.t({ message: 'deleted', comment: ['An item of a delete job that worked'] });
    case 'IMPORT':
      return l10n.t('imported');
    case 'EXPORT':
      return l10n.t('exported');
    default:
      return l10n.t({ message: 'copied', comment: ['An item of a copy job that worked'] });
  }
}

/** The codicon of a job's kind, shown on its row while it runs is the spinner; after, its outcome's icon. */
export function jobTypeIcon(type: JobType): string {
  return ({ DELETE: 'trash', MOVE: 'arrow-right', IMPORT: 'cloud-download', EXPORT: 'cloud-upload' } as Record<string, string>)[type] ?? 'copy';
}
