// An in-memory fake of the part of the client Projects & Files reads (projects, folder listings, single records),
// for the models' unit tests: each call is recorded, pages are cut by offset and limit as the platform cuts them.
import { ApiError } from '../../src/api/errors';
import type { FileLocation } from '../../src/api/files';
import type { FileRecord, Page, Project } from '../../src/api/types';

/** A 24-hex file ID ending in `n` (the platform's form). */
export const fileId = (n: number): string => n.toString(16).padStart(24, '0');

export class FakeFiles {
  /** `projects 0+100`, `files <project or parent> 0+100`, `get <id>`: every call, in order. */
  readonly calls: string[] = [];

  constructor(
    private readonly projectList: Project[],
    readonly records: FileRecord[],
  ) {}

  readonly projects = {
    list: async (page: { offset?: number; limit?: number }): Promise<Page<Project>> => {
      this.calls.push(`projects ${page.offset ?? 0}+${page.limit ?? 100}`);
      return cut(this.projectList, page);
    },
    next: async (): Promise<Page<Project>> => Promise.reject(new Error('no next links here')),
  };

  readonly files = {
    list: async (location: FileLocation, page: { offset?: number; limit?: number; name?: string }): Promise<Page<FileRecord>> => {
      const parent = 'parent' in location ? location.parent : this.projectList.find((p) => p.id === location.project)?.root_folder;
      this.calls.push(`files ${'parent' in location ? location.parent : location.project}${page.name !== undefined ? ` name=${page.name}` : ''} ${page.offset ?? 0}+${page.limit ?? 100}`);
      return cut(
        this.records.filter((f) => f.parent === parent && (page.name === undefined || f.name === page.name)),
        page,
      );
    },
    next: async (): Promise<Page<FileRecord>> => Promise.reject(new Error('no next links here')),
    get: async (id: string): Promise<FileRecord> => {
      this.calls.push(`get ${id}`);
      const record = this.records.find((f) => f.id === id);
      if (!record) throw new ApiError({ kind: 'http', status: 404, code: 5002, message: 'File not found' });
      return record;
    },
  };
}

function cut<T>(items: T[], page: { offset?: number; limit?: number }): Page<T> {
  const offset = page.offset ?? 0;
  return { items: items.slice(offset, offset + (page.limit ?? 100)), total: items.length, next: undefined };
}
