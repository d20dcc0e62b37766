import * as l10n from '@vscode/l10n';
import { AppsApi } from './apps';
import type { ApiBudget } from './budget';
import { ApiError } from './errors';
import { BulkFilesApi } from './bulkFiles';
import { CopyJobsApi } from './copyJobs';
import { FileJobsApi } from './fileJobs';
import { FileSearchApi } from './fileSearch';
import { FilesApi } from './files';
import { ProjectsApi } from './projects';
import { TasksApi } from './tasks';
import { UploadsApi } from './uploads';
import { Transport, type Call, type TransportOptions } from './transport';
import type { RateLimitInfo, User } from './types';

/** The platform API v2, one object per resource over one transport. */
export class SbClient {
  readonly transport: Transport;
  readonly tasks: TasksApi;
  readonly files: FilesApi;
  readonly projects: ProjectsApi;
  readonly fileJobs: FileJobsApi;
  readonly copyJobs: CopyJobsApi;
  readonly bulkFiles: BulkFilesApi;
  readonly search: FileSearchApi;
  readonly uploads: UploadsApi;
  readonly apps: AppsApi;

  constructor(options: TransportOptions) {
    this.transport = new Transport(options);
    this.tasks = new TasksApi(this.transport);
    this.files = new FilesApi(this.transport);
    this.projects = new ProjectsApi(this.transport);
    this.fileJobs = new FileJobsApi(this.transport);
    this.copyJobs = new CopyJobsApi(this.fileJobs);
    this.bulkFiles = new BulkFilesApi(this.transport);
    this.search = new FileSearchApi(this.transport);
    this.uploads = new UploadsApi(this.transport);
    this.apps = new AppsApi(this.transport);
  }

  /** The API budget, as every answer tells it. */
  get budget(): ApiBudget {
    return this.transport.budget;
  }

  /** The caller: the cheap way to check a token. */
  async user(options: Call = {}): Promise<User> {
    const user = (await this.transport.get<User>('user', options)).body;
    if (!user || typeof user.username !== 'string') throw new ApiError({ kind: 'malformed', message: l10n.t('the user record has no username') });
    return user;
  }

  /** The caller's rate-limit state; does not count against the limit. */
  async rateLimit(signal?: AbortSignal): Promise<RateLimitInfo> {
    return (await this.transport.get<RateLimitInfo>('rate_limit', { signal })).body;
  }
}
