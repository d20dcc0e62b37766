import type { Clock } from './clock';
import { ApiError } from './errors';
import { isProjectId, notProjectId } from './ids';
import type { PageRequest } from './tasks';
import type { Transport } from './transport';
import type { Page, Project } from './types';

export const PROJECT_FIELDS = 'href,id,name,root_folder,permissions,created_by,modified_on';

export class ProjectsApi {
  constructor(private readonly transport: Transport) {}

  /** The caller's projects; `name` matches part of the name. */
  list(page: PageRequest & { name?: string; fields?: string } = {}): Promise<Page<Project>> {
    return this.transport.page<Project>('projects', {
      query: { name: page.name, fields: page.fields ?? PROJECT_FIELDS, offset: page.offset, limit: page.limit },
      signal: page.signal,
    });
  }

  async get(id: string, signal?: AbortSignal): Promise<Project> {
    if (!isProjectId(id)) throw new ApiError({ kind: 'invalid', message: notProjectId(id) });
    return (await this.transport.get<Project>(`projects/${id}`, { signal })).body;
  }

  next(url: string, signal?: AbortSignal): Promise<Page<Project>> {
    return this.transport.page<Project>(url, { signal });
  }

  /** Every project the caller can see, 100 per request. */
  async all(signal?: AbortSignal): Promise<Project[]> {
    const projects: Project[] = [];
    for await (const page of this.transport.all<Project>('projects', { query: { fields: PROJECT_FIELDS }, signal })) projects.push(...page.items);
    return projects;
  }
}

const PROJECTS_KEPT_MS = 2 * 60_000;

/** The caller's projects, fetched once and kept a couple of minutes for every picker, root-folder check and label. */
export class ProjectCache {
  private cached: { at: number; endpoint: string; projects: Promise<Project[]> } | undefined;

  constructor(
    private readonly source: Pick<ProjectsApi, 'all'>,
    /** The endpoint in use: another platform's projects are not these. */
    private readonly endpoint: () => string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  all(): Promise<Project[]> {
    const endpoint = this.endpoint();
    const now = this.clock.now();
    if (!this.cached || this.cached.endpoint !== endpoint || now - this.cached.at > PROJECTS_KEPT_MS) {
      const projects = this.source.all();
      this.cached = { at: now, endpoint, projects };
      projects.catch(() => {
        if (this.cached?.projects === projects) this.cached = undefined;
      });
    }
    return this.cached.projects;
  }

  /** Root folder IDs of the caller's projects (empty when they cannot be listed: the platform refuses them anyway). */
  async rootFolders(): Promise<Set<string>> {
    try {
      return new Set((await this.all()).map((p) => p.root_folder?.toLowerCase()).filter((id): id is string => !!id));
    } catch {
      return new Set();
    }
  }

  /** Forgets them (a refresh, another sign-in). */
  clear(): void {
    this.cached = undefined;
  }
}
