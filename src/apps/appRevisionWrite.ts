// A push of CWL as a write of the one write path: the next revision of an app (`POST /v2/apps/{id}/{revision}/raw`,
// the revision named, so that two calls can never make two revisions: the second is refused with 409), or a new app
// (`POST /v2/apps/{id}/raw`, revision 0). Both found by state after a lost answer: revision N read back
// (`GET …/{N}/raw`) holds what was sent → done; not there → not done; there with another document → someone else
// pushed it: the person decides. The next revision is sent again once read as not done (a late first call would be
// refused); a new app's install is not (a late install would make revision 1): it is looked for, then the person asks.
// No `vscode`.
import * as l10n from '@vscode/l10n';
import type { AppsApi, RawApp } from '../api/apps';
import { ApiError } from '../api/errors';
import type { Credentials } from '../api/transport';
import { WRITE_KINDS } from '../keys/writes';
import type { Lookup, WriteKind } from '../write/kinds';
import type { WriteRecord } from '../write/records';
import { holdsSent } from './appDocument';

export interface AppRevisionPayload {
  /** `owner/project/app`, without a revision. */
  app: string;
  /** The revision to make: the platform's latest + 1 when the push was planned (0: a new app). */
  revision: number;
  /** The packed document, without the fields the platform sets. */
  cwl: RawApp;
  /** The file pushed, as the person knows it (`workflows/main.cwl`). */
  source: string;
}

/** What is kept of the platform's answer: the revision made and what the platform found wrong in it. */
export interface AppRevisionOutcome {
  id: string;
  revision: number;
  validationErrors: string[];
}

export type AppsWriteApi = Pick<AppsApi, 'raw' | 'createRevision' | 'install'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPayload = (p: unknown): p is AppRevisionPayload =>
  isObject(p) && typeof p.app === 'string' && p.app.split('/').length === 3 && Number.isInteger(p.revision) && (p.revision as number) >= 0 && isObject(p.cwl) && typeof p.source === 'string';
const isOutcome = (o: unknown): o is AppRevisionOutcome =>
  isObject(o) && typeof o.id === 'string' && Number.isInteger(o.revision) && Array.isArray(o.validationErrors) && o.validationErrors.every((e) => typeof e === 'string');

/** The outcome read from the CWL the platform answers (or serves) for a revision. */
export function revisionOutcome(raw: RawApp, asked: { app: string; revision: number }): AppRevisionOutcome {
  const revision = typeof raw['sbg:revision'] === 'number' ? raw['sbg:revision'] : asked.revision;
  const errors = raw['sbg:validationErrors'];
  return {
    id: typeof raw['sbg:id'] === 'string' ? raw['sbg:id'] : `${asked.app}/${revision}`,
    revision,
    validationErrors: Array.isArray(errors) ? errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))) : [],
  };
}

/** Revision N as the platform holds it, or undefined when it has none (404). */
async function revisionOrNone(apps: AppsWriteApi, app: string, revision: number, credentials: Credentials): Promise<RawApp | undefined> {
  try {
    return await apps.raw(`${app}/${revision}`, { credentials });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** The identity rule both kinds share: revision N holds this document → done; none → not done; another → the person. */
async function readRevision(apps: AppsWriteApi, record: WriteRecord<AppRevisionPayload, undefined, AppRevisionOutcome>, credentials: Credentials): Promise<Lookup<AppRevisionOutcome, AppRevisionPayload>> {
  const { app, revision, cwl } = record.payload;
  const stored = await revisionOrNone(apps, app, revision, credentials);
  if (!stored) return { absent: l10n.t('Revision {0} of {1} is not on the platform.', revision, app) };
  if (holdsSent(stored, cwl)) return { found: revisionOutcome(stored, record.payload) };
  const by = typeof stored['sbg:modifiedBy'] === 'string' ? stored['sbg:modifiedBy'] : undefined;
  return {
    changed: by
      ? l10n.t('Revision {0} of {1} holds another document, pushed by {2}. Push again to compare and make the next revision.', revision, app, by)
      : l10n.t('Revision {0} of {1} holds another document: someone else pushed it. Push again to compare and make the next revision.', revision, app),
  };
}

function appWrite(apps: AppsWriteApi, name: string, idempotent: boolean, send: (p: AppRevisionPayload, credentials: Credentials) => Promise<RawApp>): WriteKind<AppRevisionPayload, undefined, AppRevisionOutcome> {
  return {
    name,
    idempotent,
    identity: { by: 'state', read: (record, credentials) => readRevision(apps, record, credentials) },
    isPayload,
    isOutcome,
    send: async (record, credentials) => revisionOutcome(await send(record.payload, credentials), record.payload),
    keep: (o) => ({ id: o.id, revision: o.revision, validationErrors: o.validationErrors }),
    finish: () => undefined,
    describe: (p) => l10n.t('Push {0} as revision {1} of {2}', p.source, p.revision, p.app),
  };
}

/**
 * The next revision, its number named: sending it again is safe (a late first call and the second cannot both make a
 * revision; the one refused with 409 is read back, not believed).
 */
export function appRevisionWrite(apps: AppsWriteApi): WriteKind<AppRevisionPayload, undefined, AppRevisionOutcome> {
  return appWrite(apps, WRITE_KINDS.appRevision, true, (p, credentials) => apps.createRevision(p.app, p.revision, p.cwl, { credentials }));
}

/** A new app (revision 0): never sent again without the person (a late install and a second would make two revisions). */
export function appInstallWrite(apps: AppsWriteApi): WriteKind<AppRevisionPayload, undefined, AppRevisionOutcome> {
  return appWrite(apps, WRITE_KINDS.appInstall, false, (p, credentials) => apps.install(p.app, p.cwl, { credentials }));
}
