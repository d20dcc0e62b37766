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
