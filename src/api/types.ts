// Record shapes of the platform API v2 (see docs/platform-api.md). Fields the platform may omit are optional.

export const TASK_STATUSES = ['RUNNING', 'QUEUED', 'DRAFT', 'COMPLETED', 'FAILED', 'ABORTED'] as const;
/** The six values the `status` filter accepts. */
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** What a task record may show: the six, the transitional CREATING / ABORTING, or a value unknown to us. */
export type TaskRecordStatus = TaskStatus | 'CREATING' | 'ABORTING' | (string & {});

/** How a task ends: the statuses it never leaves. */
export type EndedStatus = 'COMPLETED' | 'FAILED' | 'ABORTED';

/** The one rule "this task has ended": completed, failed or aborted (ABORTING has not, yet). */
export function hasEnded(status: string | undefined): status is EndedStatus {
  return status === 'COMPLETED' || status === 'FAILED' || status === 'ABORTED';
}

/** Queued or running, or moving between statuses (CREATING, ABORTING, a status this version does not know): worth following. */
export function isActive(status: string | undefined): boolean {
  return status !== undefined && status !== 'DRAFT' && !hasEnded(status);
}

export interface User {
  href: string;
  username: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  affiliation?: string;
}

export interface ProjectPermissions {
  write?: boolean;
  read?: boolean;
  copy?: boolean;
  execute?: boolean;
  admin?: boolean;
}

export interface Project {
  href: string;
  id: string;
  name: string;
  type?: string;
  description?: string;
  root_folder?: string;
  created_by?: string;
  created_on?: string;
  modified_on?: string;
  category?: string;
  permissions?: ProjectPermissions;
}

export interface FileRecord {
  href: string;
  id: string;
  name: string;
  type?: 'file' | 'folder' | (string & {});
  size?: number;
  project?: string;
  parent?: string;
  created_on?: string;
  modified_on?: string;
  origin?: { task?: string };
  tags?: string[];
  metadata?: Record<string, unknown>;
  /** `VOLUME`: a link to an object of a volume (imported, or exported without copy only); else on the platform. */
  storage?: { type?: string; volume?: string; location?: string };
}

export interface ApiErrorBody {
  status?: number;
  code?: number;
  message?: string;
  more_info?: string;
}

export interface ExecutionStatus {
  message?: string;
  steps_completed?: number;
  steps_total?: number;
  queued?: number;
  running?: number;
  completed?: number;
  failed?: number;
  aborted?: number;
  system_limit?: boolean;
  account_limit?: boolean;
  duration?: number;
}

/** What a task cost (platform-api.md §11): the amount a number, the breakdown's parts texts ("0.12"). A batch parent's is its children's. */
export interface TaskPrice {
  currency?: string;
  amount?: number;
  breakdown?: { storage?: string; computation?: string; data_transfer?: string };
}

export interface Task {
  href: string;
  id: string;
  name: string;
  status?: TaskRecordStatus;
  project?: string;
  app?: string;
  type?: string;
  created_by?: string;
  executed_by?: string;
  created_time?: string;
  start_time?: string;
  end_time?: string;
  batch?: boolean;
  parent?: string | null;
  batch_group?: unknown;
  execution_status?: ExecutionStatus;
  price?: TaskPrice;
  errors?: unknown[];
  warnings?: unknown[];
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  description?: string;
  batch_input?: string | null;
  batch_by?: BatchBy | null;
  execution_settings?: Record<string, unknown>;
  use_interruptible_instances?: boolean;
}

/** How a batch task makes its children (contract §11.3): one per file of its batch input, or per metadata values. */
export interface BatchBy {
  type: 'ITEM' | 'CRITERIA' | (string & {});
  criteria?: string[];
}

/** A task to make (`POST /v2/tasks`): `app` is `owner/project/app` or `owner/project/app/revision`. */
export interface NewTask {
  project: string;
  app: string;
  name?: string;
  description?: string;
  /** `{class: 'File' | 'Directory', path: <file id>}` values, lists of them, or plain values */
  inputs?: Record<string, unknown>;
  use_interruptible_instances?: boolean;
  execution_settings?: Record<string, unknown>;
  output_location?: Record<string, unknown>;
  /** A batch task: the input to batch by, and how (both or neither). */
  batch_input?: string;
  batch_by?: BatchBy;
}

/**
 * What `PATCH /v2/tasks/{id}` changes in a draft: `inputs` are merged (the keys sent replace theirs, `null` removes one);
 * `batch: false`, or both batch fields null, turns batching off.
 */
export type DraftChanges = Partial<Pick<NewTask, 'name' | 'description' | 'inputs' | 'use_interruptible_instances' | 'execution_settings'>> & {
  batch?: boolean;
  batch_input?: string | null;
  batch_by?: BatchBy | null;
};

/** What `PATCH /v2/files/{id}` changes: a new name, and the whole tag list or metadata set (each replaces the old). */
export interface FileChanges {
  name?: string;
  tags?: string[];
  metadata?: Record<string, string>;
}

/** A bulk update or edit item: the file and what to set (update erases what is left out, edit keeps it). */
export interface BulkFileChange extends FileChanges {
  id: string;
}

/** One entry of a bulk file call: the record (for a delete, as it was), or why that item was refused. */
export type BulkFileItem = FileItemResult;

/**
 * The filters of `GET /v2/files` (platform-api.md §10.1): each list is OR (a name is exact), different filters AND.
 * `metadata` maps a field to its value or values.
 */
export interface FileFilters {
  name?: string | readonly string[];
  tag?: readonly string[];
  metadata?: Readonly<Record<string, string | readonly string[]>>;
  /** files a task produced */
  originTask?: string;
}

export type CopyJobState = 'SUBMITTED' | 'RESOLVING' | 'RUNNING' | 'FINISHED' | (string & {});

export interface CopyItem {
  file: string;
  parent?: string;
  project?: string;
  name?: string;
}

/** The three kinds of asynchronous file job, as their paths name them. */
export type FileJobKind = 'copy' | 'move' | 'delete';

/** A move item: the file or folder and where it goes, as a copy item (a name taken there: the platform numbers it). */
export type MoveItem = CopyItem;

export interface DeleteItem {
  file: string;
}

/** One item's outcome (of an async job or a bulk call): the record it made or changed, or why it was refused. */
export type FileItemResult = { resource: FileRecord; error?: undefined } | { error: ApiErrorBody; resource?: undefined };
export type CopyItemResult = FileItemResult;

export interface AsyncJob {
  href?: string;
  id: string;
  type?: 'COPY' | 'MOVE' | 'DELETE' | (string & {});
  state: CopyJobState;
  result?: CopyItemResult[];
  total_files?: number;
  failed_files?: number;
  completed_files?: number;
  started_on?: string;
  finished_on?: string;
}

export interface RateLimitInfo {
  rate: { limit: number; remaining: number; reset: number };
  instance_limit?: { limit: number; remaining: number };
}

/**
 * A page of `POST /v2/files/search`: the records (their `type` read as `file` or `folder`), the token of the next
 * page (undefined on the last), and `count` as the platform gave it (what it counts is not documented: do not rely on it).
 */
export interface SearchPage {
  results: FileRecord[];
  contToken: string | undefined;
  count: number | undefined;
}

/** A page of a list: its items, the total matching count and the next page's absolute URL, if any. */
export interface Page<T> {
  items: T[];
  total: number | undefined;
  next: string | undefined;
}

/** A job of a task (`execution_details.jobs[]`); `logs` maps a log's name to the API URL of its file. */
export interface TaskJob {
  name?: string;
  start_time?: string;
  end_time?: string;
  status?: string;
  command_line?: string;
  retried?: boolean;
  instance?: { id?: string; type?: string; provider?: string; disk?: unknown };
  docker?: { checksum?: string };
  logs?: Record<string, unknown>;
}

/** `GET /v2/tasks/{id}/execution_details`. */
export interface ExecutionDetails {
  href?: string;
  start_time?: string | null;
  end_time?: string | null;
  status?: string;
  message?: string;
  jobs?: TaskJob[];
}

/** One entry of a bulk get: the record, or why it could not be read. */
export type BulkTaskItem = { resource: Task; error?: undefined } | { error: ApiErrorBody; resource?: undefined };
