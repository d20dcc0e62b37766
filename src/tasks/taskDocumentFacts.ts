// What a task document's features read from the platform, held so that typing asks nothing twice: an app's inputs
// (its raw CWL, once per app revision), the files and folders a document names (once per ID), and a project's files
// for completion (a page at a time: the first list after one page request, the next from what is held). No `vscode`.
import type { RawApp } from '../api/apps';
import { ApiError } from '../api/errors';
import type { FileLocation } from '../api/files';
import type { PageRequest } from '../api/tasks';
import type { FileRecord, Page } from '../api/types';
import { appInputs, appSummary, type AppInput, type AppSummary } from '../apps/cwlInputs';
import type { FileFacts, FileLookup } from './taskValidation';

export interface TaskDocumentApi {
  apps: { raw(id: string): Promise<RawApp> };
  files: {
    get(id: string): Promise<FileRecord>;
    list(location: FileLocation, page: PageRequest & { fields?: string }): Promise<Page<FileRecord>>;
  };
}

/** What a document needs to know of a file: its name, whether it is a folder, its project. */
export type KnownFile = Pick<FileRecord, 'id' | 'name' | 'type' | 'project'>;

/** An app as a document needs it: its inputs and what it says of itself; or why it could not be read. */
export type AppFacts = { inputs: AppInput[]; summary: AppSummary } | { error: unknown };

/** A project's files as held for completion: those read so far, and whether more are left on the platform. */
export interface HeldFiles {
  files: FileRecord[];
  complete: boolean;
}

const FILE_PAGE = 100;
const FILE_FIELDS = 'id,name,type,project';

export class TaskDocumentFacts {
  private readonly apps = new Map<string, Promise<AppFacts>>();
  private readonly files = new Map<string, FileFacts | 'missing'>();
  private readonly asked = new Set<string>();
  private readonly projects = new Map<string, { files: FileRecord[]; next: boolean; loading?: Promise<void> }>();

  constructor(
    private readonly api: TaskDocumentApi,
    /** A file's facts came in: documents that name it are checked again. */
    private readonly onFileFacts: () => void = () => undefined,
  ) {}

  /** The app's inputs, read once per app revision (a failure is not kept: the next call asks again). */
  app(id: string): Promise<AppFacts> {
    let held = this.apps.get(id);
    if (!held) {
      held = this.api.apps.raw(id).then(
        (raw) => ({ inputs: appInputs(raw), summary: appSummary(raw) }),
        (error: unknown) => {
          this.apps.delete(id);
          return { error };
        },
      );
      this.apps.set(id, held);
    }
    return held;
  }

  /** What is known of each file: asked of the platform once, in the background; undefined until it answers. */
  readonly lookup: FileLookup = (id) => {
    const known = this.files.get(id);
    if (known !== undefined || this.asked.has(id)) return known;
    this.asked.add(id);
    void this.api.files.get(id).then(
      (f) => this.learn([f]),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) this.files.set(id, 'missing');
        else this.asked.delete(id);
        this.onFileFacts();
      },
    );
    return undefined;
  };

  /** The project's files held; with `more`, one more page is read first when some are left (none held: the first). */
  async projectFiles(project: string, more: boolean): Promise<HeldFiles> {
    let held = this.projects.get(project);
    if (!held) {
      held = { files: [], next: true };
      this.projects.set(project, held);
    }
    if ((more || !held.files.length) && held.next) {
      const entry = held;
      entry.loading ??= this.api.files
        .list({ project }, { offset: entry.files.length, limit: FILE_PAGE, fields: FILE_FIELDS })
        .then((page) => {
          entry.files.push(...page.items);
          entry.next = !!page.next && page.items.length > 0;
          this.learn(page.items, false);
        })
        .finally(() => (entry.loading = undefined));
      await entry.loading;
    }
    return { files: held.files, complete: !held.next };
  }

  /** A file's name, if known (a hover, a comment beside its ID). */
  nameOf(id: string): string | undefined {
    const f = this.files.get(id.toLowerCase());
    return f && f !== 'missing' ? f.name : undefined;
  }

  /** Files read elsewhere (a listing, a drop) are known without a request. */
  learn(records: readonly KnownFile[], tell = true): void {
    for (const f of records) this.files.set(f.id.toLowerCase(), { id: f.id, name: f.name, type: f.type === 'folder' ? 'folder' : 'file', project: f.project });
    if (tell) this.onFileFacts();
  }

  /** Signed out or in as someone else: nothing held is theirs. */
  clear(): void {
    this.apps.clear();
    this.files.clear();
    this.asked.clear();
    this.projects.clear();
  }
}
