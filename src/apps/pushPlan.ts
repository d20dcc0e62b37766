// What Push App Revision… does with a packed document and the platform's latest revision of the app: the write to
// send (the next revision, or a new app), what the diff editor compares, and whether someone else pushed since the
// file was pulled. No `vscode`.
import * as l10n from '@vscode/l10n';
import type { RawApp } from '../api/apps';
import { WRITE_KINDS } from '../keys/writes';
import { withoutServerFields } from './appDocument';
import { pulledRevision } from './appRevisions';
import type { AppRevisionPayload } from './appRevisionWrite';

export interface PushPlan {
  kind: typeof WRITE_KINDS.appRevision | typeof WRITE_KINDS.appInstall;
  payload: AppRevisionPayload;
  /** The platform's latest revision, without the fields it sets and its notes (none for a new app): the diff's left side. */
  before?: RawApp;
  /** What is sent, but for its notes: the diff's right side. */
  after: RawApp;
  /** The platform's latest revision (none: a new app). */
  latest?: { revision: number; by?: string; at?: number };
  /** The revision the file was pulled from, when it says. */
  pulledFrom?: number;
  /** Someone pushed since the file was pulled: the latest is newer than the file's revision. */
  pushedSince: boolean;
  /** What is sent is what the latest revision holds already. */
  unchanged: boolean;
}

const NOTES = 'sbg:revisionNotes';
const withoutNotes = (cwl: RawApp): RawApp => Object.fromEntries(Object.entries(cwl).filter(([key]) => key !== NOTES));
const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The plan for `packed` (the document from the repository, packed) as the next revision of `app`, given its latest
 * revision as the platform serves it (`latest`, undefined when there is no such app: it is made, revision 0).
 * `lastPushed`: the revision this file was last pushed as, from here, if it was.
 */
export function planPush(app: string, packed: RawApp, latest: RawApp | undefined, source: string, lastPushed?: number): PushPlan {
  const after = withoutServerFields(packed);
  // The file says where it was pulled from; a push from here since (kept by the extension) is newer.
  const known = [pulledRevision(packed), lastPushed].filter((r): r is number => r !== undefined);
  const pulledFrom = known.length ? Math.max(...known) : undefined;
  if (!latest) {
    return { kind: WRITE_KINDS.appInstall, payload: { app, revision: 0, cwl: after, source }, after, pulledFrom, pushedSince: false, unchanged: false };
  }
  const latestRevision = pulledRevision(latest) ?? 0;
  const before = withoutServerFields(latest);
  // The notes a pulled file carries are the latest revision's: kept, they would describe the new one wrongly. Notes
  // written in the file are the person's; else the new revision says where it came from. Not part of the diff.
  const notes = after[NOTES] !== undefined && after[NOTES] !== before[NOTES] ? after[NOTES] : l10n.t('Pushed from {0}.', source);
  const sent = { ...after, [NOTES]: notes };
  const by = typeof latest['sbg:modifiedBy'] === 'string' ? latest['sbg:modifiedBy'] : undefined;
  const at = typeof latest['sbg:modifiedOn'] === 'number' ? latest['sbg:modifiedOn'] * 1000 : undefined;
  return {
    kind: WRITE_KINDS.appRevision,
    payload: { app, revision: latestRevision + 1, cwl: sent, source },
    before: withoutNotes(before),
    after: withoutNotes(after),
    latest: { revision: latestRevision, by, at },
    pulledFrom,
    pushedSince: pulledFrom !== undefined && latestRevision > pulledFrom,
    unchanged: deepEqual(withoutNotes(before), withoutNotes(after)),
  };
}

/** "Someone else pushed": the latest revision, who and (with `when`, a relative time) when, and the one the file came from. */
export function pushedSinceWords(plan: PushPlan, when: string | undefined): string {
  const latest = plan.latest!;
  const app = plan.payload.app;
  const who = latest.by ?? l10n.t('someone else');
  return when
    ? l10n.t('{0} pushed revision {1} of {2} {3}; {4} was pulled from revision {5}. Compare before you push over it.', who, latest.revision, app, when, plan.payload.source, plan.pulledFrom ?? '?')
    : l10n.t('{0} pushed revision {1} of {2}; {3} was pulled from revision {4}. Compare before you push over it.', who, latest.revision, app, plan.payload.source, plan.pulledFrom ?? '?');
}
