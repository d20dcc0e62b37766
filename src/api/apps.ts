// Apps (platform-api.md §14): the apps of the caller's projects and the public ones, an app's revisions and raw CWL, a new
// app or revision from CWL, a copy. No `vscode`.
import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { isAppId, isProjectId, notAppId, notProjectId } from './ids';
import type { Call, Transport } from './transport';
import type { Page } from './types';
import type { PageRequest } from './tasks';

/** An app as the platform wraps it: `id` is `owner/project/app/revision`, the revision it describes (platform-api.md §14). */
export interface App {
  href?: string;
  id: string;
  name: string;
  project: string;
  revision: number;
  /** The raw CWL, when asked for (`fields=_all`, or one app's GET). */
  raw?: RawApp;
}

/** An app's CWL as the platform stores it (a CommandLineTool, a Workflow, …) with the `sbg:` fields it sets. */
export type RawApp = Record<string, unknown>;

/** The filters of `GET /v2/apps`: the apps of a project, the public apps, words to search (every one must match). */
export interface AppQuery {
  project?: string;
  visibility?: 'public';
  /** Search terms: each must match the name, ID, description, toolkit or categories. */
  q?: readonly string[];
  fields?: string;
}

/** How a copy keeps to its source (platform-api.md §14.3): `clone` (the default) keeps every revision and follows it. */
export type CopyStrategy = 'clone' | 'direct' | 'clone_direct' | 'transient';

/** `owner/project/app` of an app's ID, its revision left out. */
export function appBaseId(id: string): string {
  return id.split('/').slice(0, 3).join('/');
}

/** The revision an app's ID names, if it names one. */
export function appRevisionOf(id: string): number | undefined {
  const revision = id.split('/')[3];
  return revision !== undefined && /^\d+$/.test(revision) ? Number(revision) : undefined;
}

/** An app's short name in a project: letters, digits, `-` and `_`, not starting with either. */
const SHORT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export class AppsApi {
  constructor(private readonly transport: Transport) {}

  async list(query: AppQuery, page: PageRequest = {}): Promise<Page<App>> {
    if (query.project !== undefined && !isProjectId(query.project)) throw invalid(notProjectId(query.project));
    return this.transport.page<App>('apps', {
      query: { project: query.project, visibility: query.visibility, q: query.q?.length ? [...query.q] : undefined, fields: query.fields, offset: page.offset, limit: page.limit },
      signal: page.signal,
      credentials: page.credentials,
    });
  }

  /** Continues a listing from its `next` link. */
  next(url: string, signal?: AbortSignal): Promise<Page<App>> {
    return this.transport.page<App>(url, { signal });
  }

  /** One app: its latest revision, or the revision its ID names (`owner/project/app/3`); `raw` included. */
  async get(id: string, options: Call = {}): Promise<App> {
    if (!isAppId(id)) throw invalid(notAppId(id));
    return appAnswer((await this.transport.get<App>(`apps/${id}`, options)).body, l10n.t('the answer for app {0} is not an app', id));
  }

  /** The raw CWL of the latest revision, or of the revision the ID names. */
  async raw(id: string, options: Call = {}): Promise<RawApp> {
    if (!isAppId(id)) throw invalid(notAppId(id));
    return rawAnswer((await this.transport.get<RawApp>(`apps/${id}/raw`, options)).body, l10n.t('the CWL of app {0} is not a JSON object', id));
  }

  /**
   * A revision of `owner/project/app` from CWL: `revision` is the next one (latest + 1; an app that does not exist yet
   * takes revision 0 by `install`). The platform answers the CWL it stored, `sbg:id` naming the revision made. Sent
   * once, never repeated here: a lost answer may still have made the revision (see the write path).
   */
  async createRevision(appId: string, revision: number, cwl: RawApp, options: Call = {}): Promise<RawApp> {
    checkShortId(appId);
    if (!Number.isInteger(revision) || revision < 0) throw invalid(l10n.t('"{0}" is not a revision number.', String(revision)));
    return rawAnswer((await this.transport.post<RawApp>(`apps/${appId}/${revision}/raw`, cwl, options)).body, l10n.t('the answer to the new revision of {0} is not CWL', appId), true);
  }

  /** A new app (revision 0), or the next revision of one that exists, from CWL. Sent once, never repeated here. */
  async install(appId: string, cwl: RawApp, options: Call = {}): Promise<RawApp> {
    checkShortId(appId);
    return rawAnswer((await this.transport.post<RawApp>(`apps/${appId}/raw`, cwl, options)).body, l10n.t('the answer to the install of {0} is not CWL', appId), true);
  }

  /** A copy of an app (or of the revision its ID names) into a project. Sent once, never repeated here. */
  async copy(id: string, to: { project: string; name?: string; strategy?: CopyStrategy }, options: Call = {}): Promise<App> {
    if (!isAppId(id)) throw invalid(notAppId(id));
    if (!isProjectId(to.project)) throw invalid(notProjectId(to.project));
    if (to.name !== undefined && !SHORT_NAME.test(to.name)) throw invalid(notShortName(to.name));
    const body = (await this.transport.post<App>(`apps/${id}/actions/copy`, to, options)).body;
    return appAnswer(body, l10n.t('the answer to the copy of app {0} is not an app', id), true);
  }
}

/** An app's ID without a revision, its short name as the platform takes it; else refused before sending. */
export function checkShortId(appId: string): void {
  const parts = appId.split('/');
  if (parts.length !== 3 || !isAppId(appId)) throw invalid(l10n.t('"{0}" is not an app ID without a revision (owner/project/app).', appId));
  if (!SHORT_NAME.test(parts[2])) throw invalid(notShortName(parts[2]));
}

const notShortName = (name: string): string => l10n.t('"{0}" is not an app name the platform takes: letters, digits, - and _, starting with a letter or digit.', name);

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid', message });
}

function appAnswer(body: unknown, unreadable: string, write = false): App {
  const app = body as App | undefined;
  if (!app || typeof app !== 'object' || typeof app.id !== 'string') throw new ApiError({ kind: 'malformed', message: unreadable, maybeDelivered: write });
  return app;
}

function rawAnswer(body: unknown, unreadable: string, write = false): RawApp {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError({ kind: 'malformed', message: unreadable, maybeDelivered: write });
  return body as RawApp;
}
