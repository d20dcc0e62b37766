// An app's revisions as a pulled document tells them: the revision and the app it came from (`sbg:revision`,
// `sbg:id`), and every revision with who made it, when, and its notes (`sbg:revisionsInfo`). No `vscode`.
import type { RawApp } from '../api/apps';

/** The revision a pulled document came from (`sbg:revision`), if it says. */
export function pulledRevision(cwl: RawApp): number | undefined {
  const revision = cwl['sbg:revision'];
  return typeof revision === 'number' && Number.isInteger(revision) && revision >= 0 ? revision : undefined;
}

/** `owner/project/app` a pulled document names (`sbg:id`, its revision left out), if it names one. */
export function pulledAppId(cwl: RawApp): string | undefined {
  const id = cwl['sbg:id'];
  if (typeof id !== 'string') return undefined;
  const parts = id.split('/');
  return parts.length >= 3 && parts.slice(0, 3).every((p) => p !== '') ? parts.slice(0, 3).join('/') : undefined;
}

/** A revision of an app as the platform lists it in every revision it serves (`sbg:revisionsInfo`). */
export interface RevisionInfo {
  revision: number;
  by?: string;
  /** epoch ms */
  at?: number;
  notes?: string;
}

/** An app's revisions, newest first, from the CWL of any of its revisions. */
export function revisionsOf(cwl: RawApp): RevisionInfo[] {
  const listed = Array.isArray(cwl['sbg:revisionsInfo']) ? (cwl['sbg:revisionsInfo'] as unknown[]) : [];
  const out: RevisionInfo[] = [];
  for (const r of listed) {
    if (typeof r !== 'object' || r === null) continue;
    const e = r as Record<string, unknown>;
    if (typeof e['sbg:revision'] !== 'number') continue;
    out.push({
      revision: e['sbg:revision'],
      ...(typeof e['sbg:modifiedBy'] === 'string' ? { by: e['sbg:modifiedBy'] } : {}),
      ...(typeof e['sbg:modifiedOn'] === 'number' ? { at: e['sbg:modifiedOn'] * 1000 } : {}),
      ...(typeof e['sbg:revisionNotes'] === 'string' && e['sbg:revisionNotes'] !== '' ? { notes: e['sbg:revisionNotes'] } : {}),
    });
  }
  return out.sort((a, b) => b.revision - a.revision);
}

/** `owner/project/app/3` that a revision's read-only document (`sevenbridges-app:/owner/project/app/3.cwl`) shows, if it shows one. */
export function revisionOfDocumentPath(path: string): string | undefined {
  const match = /^\/([^/]+\/[^/]+\/[^/]+)\/(\d+)\.cwl$/.exec(path);
  return match ? `${match[1]}/${match[2]}` : undefined;
}
