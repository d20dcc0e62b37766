/** Seeded, deterministic platform data: the user, projects, files (nested folders), tasks, async jobs. */
import { Prng, isoZ, seedOf } from './prng';

export interface UserRec {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  affiliation: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  country: string;
  zip_code: string;
  role: string;
  tags: string[];
}

export interface ProjectRec {
  id: string;
  name: string;
  type: string;
  description: string;
  tags: string[];
  settings: { locked: boolean; use_interruptible_instances: boolean; use_memoization: boolean };
  billing_group: string;
  root_folder: string;
  created_by: string;
  created_on: string;
  modified_on: string;
  category: string;
  permissions: { write: boolean; read: boolean; copy: boolean; execute: boolean; admin: boolean };
}

export interface FileRec {
  id: string;
  name: string;
  size?: number;
  project: string;
  /** null only for a project's root folder */
  parent: string | null;
  type: 'file' | 'folder';
  created_on: string;
  modified_on: string;
  origin: { task?: string };
  tags: string[];
  metadata: Record<string, string>;
  /** a file that lives on a volume (imported, or exported without copy_only); absent: on the platform's storage */
  storage?: { type: 'VOLUME'; volume: string; location: string };
}

/** One revision of an app: the CWL as posted (less what the server sets), who made it and when. */
export interface AppRevision {
  revision: number;
  content: Record<string, unknown>;
  by: string;
  /** epoch seconds, as `sbg:modifiedOn` */
  at: number;
  notes: string;
  validationErrors: string[];
}

/** An app of a project (`owner/project/short`); its revisions in order, 0 first. */
export interface AppRec {
  id: string;
  project: string;
  short: string;
  createdBy: string;
  /** epoch seconds */
  createdOn: number;
  revisions: AppRevision[];
  /** a copy: `<source app id>/<revision copied>` */
  copyOf?: string;
  /** a copy that keeps following its source (clone, transient) */
  follows?: string;
}

export interface VolumeRec {
  id: string;
  name: string;
  description: string;
  access_mode: 'RO' | 'RW';
  service: { type: 'S3' | 'GCS'; bucket: string; prefix: string; endpoint?: string; root_url?: string; credentials: Record<string, string> };
  created_on: string;
  modified_on: string;
  active: boolean;
}

/** An object on a volume, its location relative to the volume's prefix. */
export interface VolumeObject {
  location: string;
  size: number;
  /** epoch ms */
  modified: number;
  etag: string;
  contentType: string;
}

export type VolumeJobState = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED';

/** What an import and an export job share: their state, times, outcome, and who submitted them when. */
interface VolumeJob {
  id: string;
  state: VolumeJobState;
  overwrite: boolean;
  started_on?: string;
  finished_on?: string;
  result?: Record<string, unknown>;
  error?: { status: number; code: number; message: string; more_info: string };
  /** the account that submitted it */
  owner: string;
  /** epoch ms of the submission */
  submittedAt: number;
}

export interface ImportRec extends VolumeJob {
  source: { volume: string; location: string };
  destination: { project?: string; parent?: string; name?: string };
  autorename: boolean;
  preserve_folder_structure: boolean;
}

export interface ExportRec extends VolumeJob {
  source: { file: string };
  destination: { volume: string; location: string };
  copy_only: boolean;
  properties: Record<string, unknown>;
}

export type TaskStatus = 'QUEUED' | 'DRAFT' | 'RUNNING' | 'COMPLETED' | 'ABORTED' | 'FAILED' | 'CREATING' | 'ABORTING';
export const FILTER_STATUSES: readonly TaskStatus[] = ['QUEUED', 'DRAFT', 'RUNNING', 'COMPLETED', 'ABORTED', 'FAILED'];
export const TERMINAL: readonly TaskStatus[] = ['COMPLETED', 'FAILED', 'ABORTED'];

export interface FileValue {
  class: 'File' | 'Directory';
  path: string;
  name: string;
}

export interface TaskRec {
  id: string;
  name: string;
  status: TaskStatus;
  project: string;
  app: string;
  type: 'v2';
  created_by: string;
  executed_by: string;
  created_time: string;
  start_time?: string;
  end_time?: string;
  batch: boolean;
  parent: string | null;
  batch_group?: { value: string; fields: Record<string, string> };
  batch_by?: { type: string; criteria: string[] };
  execution_status: {
    message: string;
    steps_completed: number;
    steps_total: number;
    queued: number;
    running: number;
    completed: number;
    failed: number;
    aborted: number;
    system_limit: boolean;
    account_limit: boolean;
    duration?: number;
  };
  price?: TaskPrice;
  errors: { status?: number; code?: number; message: string }[];
  warnings: { message: string }[];
  inputs: Record<string, FileValue | FileValue[] | string | number | boolean | null>;
  outputs: Record<string, FileValue | FileValue[] | null>;
  origin?: { type: string; id: string };
  use_interruptible_instances: boolean;
  /** set by a task created or changed through the API (POST/PATCH /v2/tasks) */
  description?: string;
  batch_input?: string;
  execution_settings?: Record<string, unknown>;
  output_location?: Record<string, unknown>;
}

/** A task's price (platform-api.md §11): the amount a number, the breakdown's parts strings. */
export interface TaskPrice {
  currency: 'USD';
  amount: number;
  breakdown: { storage: string; computation: string; data_transfer: string };
}

/**
 * The price of an amount, its breakdown drawn from `key` (a task ID) apart from any PRNG stream: storage 2–12 %,
 * data transfer 0–6 %, computation the rest, each to the cent, so the parts add up to the amount.
 */
export function priceOf(amount: number, key: string): TaskPrice {
  const cents = Math.round(amount * 100);
  const r = new Prng(seedOf(`price:${key}`));
  const storage = Math.floor((cents * r.int(2, 12)) / 100);
  const transfer = Math.floor((cents * r.int(0, 6)) / 100);
  const money = (c: number): string => (c / 100).toFixed(2);
  return { currency: 'USD', amount: cents / 100, breakdown: { storage: money(storage), computation: money(cents - storage - transfer), data_transfer: money(transfer) } };
}

/** The sum of prices (a batch parent's: its children's), breakdown included; undefined when none has one. */
export function sumPrices(prices: (TaskPrice | undefined)[]): TaskPrice | undefined {
  const known = prices.filter((p): p is TaskPrice => p !== undefined);
  if (!known.length) return undefined;
  const cents = (v: number | string): number => Math.round(Number(v) * 100);
  const add = (pick: (p: TaskPrice) => number | string): number => known.reduce((n, p) => n + cents(pick(p)), 0);
  const money = (c: number): string => (c / 100).toFixed(2);
  return {
    currency: 'USD',
    amount: add((p) => p.amount) / 100,
    breakdown: {
      storage: money(add((p) => p.breakdown.storage)),
      computation: money(add((p) => p.breakdown.computation)),
      data_transfer: money(add((p) => p.breakdown.data_transfer)),
    },
  };
}

export interface CopyItem {
  file?: unknown;
  parent?: unknown;
  project?: unknown;
  name?: unknown;
}

export type JobResult = { resource: Record<string, unknown> } | { error: { status: number; code: number; message: string; more_info: string } };

export interface JobRec {
  id: string;
  type: 'COPY' | 'MOVE' | 'DELETE';
  state: 'SUBMITTED' | 'RESOLVING' | 'RUNNING' | 'FINISHED';
  result: JobResult[];
  total_files: number;
  failed_files: number;
  completed_files: number;
  started_on: string;
  finished_on?: string;
  /** The account that submitted it (absent: the seeded user). */
  owner?: string;
}

export interface EmulatorData {
  readonly startedAt: number;
  readonly user: UserRec;
  readonly projects: ProjectRec[];
  /** every file and folder, including each project's root folder (parent === null) */
  readonly files: FileRec[];
  readonly tasks: TaskRec[];
  /** async jobs of the caller, oldest first */
  readonly jobs: JobRec[];
  readonly fileById: Map<string, FileRec>;
  readonly taskById: Map<string, TaskRec>;
  readonly projectById: Map<string, ProjectRec>;
  /** children of a folder in listing order */
  children(folderId: string): FileRec[];
  /** a fresh 24-hex file ID, and a file or folder added to its parent's listing (for scenarios such as a huge folder) */
  newFileId(rng?: Prng): string;
  addFile(f: FileRec): FileRec;
  /** a file or folder taken out of its parent's listing (a test's own, when it is done) */
  removeFile(f: FileRec): void;
  /** a task taken out of every index (a deleted draft; a scenario's data trimmed to size) */
  removeTask(t: TaskRec): void;
  /** true when `folderId` is `ancestorId` or lies below it */
  isWithin(folderId: string, ancestorId: string): boolean;
  /** batch parents, in creation order */
  readonly batchParents: TaskRec[];
  /** the seeded batches at scale (option `batches`), in creation order; each is in `batchParents` too */
  readonly scaleBatches: TaskRec[];
  /** apps of the projects and the public apps (project `admin/sbg-public-data`), by `owner/project/short` */
  readonly apps: Map<string, AppRec>;
  readonly volumes: VolumeRec[];
  /** each volume's objects by location */
  readonly volumeObjects: Map<string, Map<string, VolumeObject>>;
  /** import and export jobs, oldest first */
  readonly imports: ImportRec[];
  readonly exports: ExportRec[];
}

export interface DataOptions {
  seed: number;
  tasks: number;
  files: number;
  now: number;
  /** the sizes of the batches at scale, added after the `tasks` drawn (default none) */
  batches?: readonly number[];
  /** the share of a batch at scale's children that failed (default 0.1) */
  batchFailures?: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

export class Store implements EmulatorData {
  readonly user: UserRec;
  readonly projects: ProjectRec[] = [];
  readonly files: FileRec[] = [];
  readonly tasks: TaskRec[] = [];
  readonly jobs: JobRec[] = [];
  readonly fileById = new Map<string, FileRec>();
  readonly taskById = new Map<string, TaskRec>();
  readonly projectById = new Map<string, ProjectRec>();
  readonly batchParents: TaskRec[] = [];
  readonly scaleBatches: TaskRec[] = [];
  readonly apps = new Map<string, AppRec>();
  readonly volumes: VolumeRec[] = [];
  readonly volumeObjects = new Map<string, Map<string, VolumeObject>>();
  readonly imports: ImportRec[] = [];
  readonly exports: ExportRec[] = [];
  /** A copy's bytes are its source's (as on the platform): the file whose bytes it serves, by the copy's ID. */
  readonly contentSource = new Map<string, { id: string; name: string }>();
  private readonly childMap = new Map<string, FileRec[]>();
  private readonly usedHex = new Set<string>();

  constructor(
    readonly rng: Prng,
    readonly startedAt: number,
  ) {
    this.user = {
      username: 'rfranklin',
      email: 'rosalind.franklin@example.org',
      first_name: 'Rosalind',
      last_name: 'Franklin',
      affiliation: 'Seven Bridges',
      phone: '',
      address: '',
      city: 'London',
      state: '',
      country: 'United Kingdom',
      zip_code: '',
      role: 'USER',
      tags: [],
    };
  }

  children(folderId: string): FileRec[] {
    return this.childMap.get(folderId) ?? [];
  }

  newFileId(rng: Prng = this.rng): string {
    for (;;) {
      const id = rng.hex(24);
      if (!this.usedHex.has(id)) {
        this.usedHex.add(id);
        return id;
      }
    }
  }

  addFile(f: FileRec): FileRec {
    this.files.push(f);
    this.fileById.set(f.id, f);
    if (f.parent) {
      let list = this.childMap.get(f.parent);
      if (!list) {
        list = [];
        this.childMap.set(f.parent, list);
      }
      list.push(f);
    }
    return f;
  }

  /** Takes a file or folder (and nothing below it: the caller removes those first) out of every index. */
  removeFile(f: FileRec): void {
    this.fileById.delete(f.id);
    const at = this.files.indexOf(f);
    if (at >= 0) this.files.splice(at, 1);
    if (f.parent) {
      const siblings = this.childMap.get(f.parent);
      const i = siblings ? siblings.indexOf(f) : -1;
      if (siblings && i >= 0) siblings.splice(i, 1);
    }
    this.childMap.delete(f.id);
  }

  /** Puts a file or folder at the end of another folder's listing (a move keeps the record and its ID). */
  reparent(f: FileRec, parent: FileRec): void {
    if (f.parent) {
      const siblings = this.childMap.get(f.parent);
      const i = siblings ? siblings.indexOf(f) : -1;
      if (siblings && i >= 0) siblings.splice(i, 1);
    }
    f.parent = parent.id;
    f.project = parent.project;
    let list = this.childMap.get(parent.id);
    if (!list) {
      list = [];
      this.childMap.set(parent.id, list);
    }
    list.push(f);
  }

  addTask(t: TaskRec): TaskRec {
    this.tasks.push(t);
    this.taskById.set(t.id, t);
    if (t.batch) {
      this.batchParents.push(t);
    }
    return t;
  }

  /** Takes a task out of every index (a deleted draft). */
  removeTask(t: TaskRec): void {
    this.taskById.delete(t.id);
    for (const list of [this.tasks, this.batchParents]) {
      const at = list.indexOf(t);
      if (at >= 0) list.splice(at, 1);
    }
  }

  /** true when `folderId` is `ancestorId` or lies below it */
  isWithin(folderId: string, ancestorId: string): boolean {
    let cur: string | null = folderId;
    while (cur) {
      if (cur === ancestorId) {
        return true;
      }
      cur = this.fileById.get(cur)?.parent ?? null;
    }
    return false;
  }
}

const PROJECTS: { owner: string; short: string; name: string; write: boolean; admin: boolean; description: string }[] = [
  { owner: 'rfranklin', short: 'my-project', name: 'My Project', write: true, admin: true, description: 'Scratch space for pipeline development.' },
  { owner: 'rfranklin', short: 'rna-seq-analysis', name: 'RNA-seq Analysis', write: true, admin: true, description: 'Bulk RNA-seq of the 2026 cohort.' },
  { owner: 'rfranklin', short: 'variant-calling', name: 'Variant Calling', write: true, admin: true, description: 'Germline WGS variant calling (GATK best practices).' },
  { owner: 'mwilkins', short: 'shared-cohort', name: 'Shared Cohort', write: true, admin: false, description: 'Cohort shared by the Wilkins lab.' },
  { owner: 'lpauling', short: 'reference-genomes', name: 'Reference Genomes', write: false, admin: false, description: 'Read-only reference data.' },
];

const FOLDER_NAMES = ['fastq', 'bam', 'vcf', 'results', 'qc', 'references', 'annotations', 'logs', 'batch_1', 'batch_2', 'raw', 'processed', 'plots', 'counts', 'archive'];
const FILE_KINDS: { ext: string; min: number; max: number }[] = [
  { ext: '_R1.fastq.gz', min: 5e8, max: 8e9 },
  { ext: '_R2.fastq.gz', min: 5e8, max: 8e9 },
  { ext: '.bam', min: 1e9, max: 4e10 },
  { ext: '.bam.bai', min: 1e5, max: 9e6 },
  { ext: '.vcf.gz', min: 1e6, max: 9e8 },
  { ext: '.tsv', min: 1e3, max: 5e7 },
  { ext: '.html', min: 1e4, max: 4e6 },
  { ext: '.log', min: 100, max: 1e6 },
  { ext: '.txt', min: 5, max: 1e5 },
];
/**
 * The apps the seeded tasks ran (their CWL is made from this table by appSeeds.ts): the input the tasks set (`in`, a
 * list of files when `array`), whether it takes a `reference`, the outputs, and the tools its jobs run (its steps).
 */
export const APPS: { id: string; label: string; in: string; array?: true; reference?: true; out: string[]; tools: string[] }[] = [
  { id: 'bwa-mem', label: 'BWA-MEM Bundle', in: 'reads', array: true, reference: true, out: ['aligned_reads'], tools: ['bwa_index', 'bwa_mem', 'samtools_sort', 'samtools_index'] },
  { id: 'gatk-haplotypecaller', label: 'GATK HaplotypeCaller', in: 'input_bam', reference: true, out: ['vcf', 'gvcf'], tools: ['gatk_baserecalibrator', 'gatk_applybqsr', 'gatk_haplotypecaller', 'bcftools_stats'] },
  { id: 'fastqc', label: 'FastQC', in: 'input_fastq', out: ['report_zip', 'html'], tools: ['fastqc'] },
  { id: 'star-align', label: 'STAR', in: 'reads', reference: true, out: ['aligned_reads', 'log_files'], tools: ['star_genome_generate', 'star_align', 'samtools_index'] },
  { id: 'salmon-quant', label: 'Salmon Quant', in: 'reads', reference: true, out: ['quant'], tools: ['salmon_index', 'salmon_quant'] },
  { id: 'rsem', label: 'RSEM', in: 'input_bam', reference: true, out: ['genes', 'isoforms'], tools: ['rsem_prepare_reference', 'rsem_calculate_expression'] },
  { id: 'grep', label: 'grep', in: 'input', out: ['out'], tools: ['grep'] },
];
const FAILURES = [
  'Job failed with exit code 137: the instance ran out of memory.',
  'Insufficient disk space on the instance.',
  "Input file 'reads' is missing its index file.",
  'Docker image pull failed: manifest unknown.',
  'Job failed with exit code 1. Check the job log for details.',
  'Spot instance was terminated and the retry limit was reached.',
];
const OTHER_USERS = ['mwilkins', 'rgosling', 'jwatson'];

function weightedStatus(rng: Prng): TaskStatus {
  const r = rng.next();
  if (r < 0.38) return 'COMPLETED';
  if (r < 0.53) return 'FAILED';
  if (r < 0.61) return 'ABORTED';
  if (r < 0.73) return 'RUNNING';
  if (r < 0.84) return 'QUEUED';
  if (r < 0.975) return 'DRAFT';
  return 'ABORTING';
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** The name the platform gives a task made without one: `<app> run - MM-DD-YY HH:MM:SS` (UTC). */
export function runName(appLabel: string, ms: number): string {
  const d = new Date(ms);
  return `${appLabel} run - ${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}-${String(d.getUTCFullYear()).slice(2)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

export function generateData(opts: DataOptions): Store {
  const rng = new Prng(opts.seed);
  const now = Math.floor(opts.now / 1000) * 1000;
  const store = new Store(rng, now);

  // Projects and their root folders.
  for (let i = 0; i < PROJECTS.length; i++) {
    const p = PROJECTS[i];
    const created = now - (200 + i * 17) * DAY;
    const root = store.newFileId();
    const id = `${p.owner}/${p.short}`;
    const rec: ProjectRec = {
      id,
      name: p.name,
      type: 'v2',
      description: p.description,
      tags: i === 1 ? ['rna', '2026'] : [],
      settings: { locked: false, use_interruptible_instances: true, use_memoization: false },
      billing_group: rng.uuid(),
      root_folder: root,
      created_by: p.owner,
      created_on: isoZ(created),
      modified_on: isoZ(created + 30 * DAY),
      category: 'PRIVATE',
      permissions: { write: p.write, read: true, copy: true, execute: p.write, admin: p.admin },
    };
    store.projects.push(rec);
    store.projectById.set(id, rec);
    store.addFile({
      id: root, name: p.short, project: id, parent: null, type: 'folder',
      created_on: rec.created_on, modified_on: rec.created_on, origin: {}, tags: [], metadata: {},
    });
  }

  // Folders: about one per 12 files, nested up to depth 4, then files spread over roots and folders.
  const perProject = new Map<string, { id: string; depth: number }[]>();
  const names = new Map<string, Set<string>>();
  const uniqueName = (parent: string, base: string): string => {
    let set = names.get(parent);
    if (!set) {
      set = new Set();
      names.set(parent, set);
    }
    let name = base;
    for (let k = 2; set.has(name); k++) {
      const dot = base.indexOf('.');
      name = dot > 0 ? `${base.slice(0, dot)}_${k}${base.slice(dot)}` : `${base}_${k}`;
    }
    set.add(name);
    return name;
  };
  for (const p of store.projects) {
    perProject.set(p.id, [{ id: p.root_folder, depth: 0 }]);
  }
  const folderCount = Math.max(store.projects.length, Math.round(opts.files / 12));
  const fileCount = Math.max(0, opts.files - folderCount);
  const projectWeight = (): ProjectRec => {
    const r = rng.next();
    return store.projects[r < 0.3 ? 0 : r < 0.55 ? 1 : r < 0.8 ? 2 : r < 0.92 ? 3 : 4];
  };
  for (let i = 0; i < folderCount; i++) {
    const p = i < store.projects.length ? store.projects[i] : projectWeight();
    const folders = perProject.get(p.id)!;
    let parent = rng.pick(folders);
    if (parent.depth >= 4) {
      parent = folders[0];
    }
    const t = now - rng.int(2, 190) * DAY - rng.int(0, DAY / 1000) * 1000;
    const id = store.newFileId();
    store.addFile({
      id, name: uniqueName(parent.id, rng.pick(FOLDER_NAMES)), project: p.id, parent: parent.id, type: 'folder',
      created_on: isoZ(t), modified_on: isoZ(t), origin: {}, tags: [], metadata: {},
    });
    folders.push({ id, depth: parent.depth + 1 });
  }
  for (let i = 0; i < fileCount; i++) {
    const p = projectWeight();
    const folders = perProject.get(p.id)!;
    const parent = rng.chance(0.15) ? folders[0] : rng.pick(folders);
    const kind = rng.pick(FILE_KINDS);
    const t = now - rng.int(1, 190) * DAY - rng.int(0, DAY / 1000) * 1000;
    const sample = `sample_${pad2(rng.int(1, 96))}`;
    const metadata: Record<string, string> = {};
    if (rng.chance(0.4)) {
      metadata.sample_id = sample;
      metadata.platform = rng.pick(['Illumina', 'PacBio', 'ONT']);
    }
    store.addFile({
      id: store.newFileId(), name: uniqueName(parent.id, sample + kind.ext), size: rng.int(kind.min, kind.max),
      project: p.id, parent: parent.id, type: 'file', created_on: isoZ(t), modified_on: isoZ(t), origin: {},
      tags: rng.chance(0.2) ? [rng.pick(['tumor', 'normal', 'qc-passed'])] : [], metadata,
    });
  }
  const projectFiles = new Map<string, FileRec[]>();
  for (const f of store.files) {
    if (f.type === 'file') {
      let l = projectFiles.get(f.project);
      if (!l) {
        l = [];
        projectFiles.set(f.project, l);
      }
      l.push(f);
    }
  }
  const fileValue = (project: string, taskId?: string): FileValue | null => {
    const list = projectFiles.get(project);
    if (!list || list.length === 0) {
      return null;
    }
    const f = rng.pick(list);
    if (taskId && !f.origin.task) {
      f.origin = { task: taskId };
    }
    return { class: 'File', path: f.id, name: f.name };
  };

  // Tasks.
  const makeTask = (status: TaskStatus, project: ProjectRec, parent: TaskRec | null, created: number): TaskRec => {
    const app = parent ? APPS.find((a) => parent.app.includes(`/${a.id}/`))! : rng.pick(APPS);
    const id = rng.uuid();
    const user = project.created_by === 'rfranklin' || rng.chance(0.5) ? 'rfranklin' : rng.pick(OTHER_USERS);
    const t: TaskRec = {
      id,
      name: parent
        ? parent.name
        : runName(app.label, created),
      status,
      project: project.id,
      app: `${project.id}/${app.id}/${rng.int(0, 12)}`,
      type: 'v2',
      created_by: parent ? parent.created_by : user,
      executed_by: parent ? parent.executed_by : user,
      created_time: isoZ(created),
      batch: false,
      parent: parent ? parent.id : null,
      execution_status: {
        message: '', steps_completed: 0, steps_total: 1, queued: 0, running: 0, completed: 0, failed: 0, aborted: 0,
        system_limit: false, account_limit: false,
      },
      errors: [],
      warnings: [],
      inputs: {},
      outputs: {},
      use_interruptible_instances: rng.chance(0.7),
    };
    const input = fileValue(project.id);
    t.inputs[app.in] = app.array && input ? [input] : input;
    if (rng.chance(0.5)) {
      t.inputs.threads = rng.pick([4, 8, 16]);
    }
    // Times.
    let start: number | undefined;
    let end: number | undefined;
    if (status === 'RUNNING' || status === 'ABORTING') {
      start = Math.max(created + 60_000, now - rng.int(60, 12 * 3600) * 1000);
      if (start >= now) {
        start = now - 60_000;
      }
    } else if (TERMINAL.includes(status)) {
      start = created + rng.int(30, 3600) * 1000;
      end = Math.min(now - 1000, start + rng.int(120, 36 * 3600) * 1000);
      if (end <= start) {
        end = start + 1000;
      }
    }
    if (start !== undefined) {
      t.start_time = isoZ(start);
    }
    if (end !== undefined) {
      t.end_time = isoZ(end);
    }
    const es = t.execution_status;
    es.steps_total = rng.int(1, 6);
    switch (status) {
      case 'COMPLETED':
        es.message = 'Completed';
        es.steps_completed = es.steps_total;
        break;
      case 'FAILED': {
        es.message = 'Failed';
        es.steps_completed = rng.int(0, es.steps_total - 1);
        const msg = rng.pick(FAILURES);
        t.errors.push({ status: 400, code: 0, message: msg });
        break;
      }
      case 'ABORTED':
        es.message = 'Aborted';
        es.steps_completed = rng.int(0, es.steps_total - 1);
        break;
      case 'RUNNING':
        es.message = 'Running';
        es.steps_completed = rng.int(0, es.steps_total - 1);
        break;
      case 'ABORTING':
        es.message = 'Aborting';
        break;
      case 'QUEUED':
        es.message = 'In queue';
        es.account_limit = rng.chance(0.2);
        break;
      case 'DRAFT':
        es.message = 'Draft';
        break;
      case 'CREATING':
        es.message = 'Creating batch children';
        break;
    }
    if (start !== undefined) {
      es.duration = Math.round(((end ?? now) - start) / 1000);
      t.price = priceOf(Math.round(rng.next() * 2000 * (es.duration / 36000 + 0.01)) / 100, id);
    }
    if (status === 'COMPLETED') {
      for (const port of app.out) {
        if (rng.chance(0.3) && port !== app.out[0]) {
          const list = [fileValue(project.id, id), fileValue(project.id, id)].filter((v): v is FileValue => v !== null);
          t.outputs[port] = list;
        } else {
          t.outputs[port] = fileValue(project.id, id);
        }
      }
    } else if (!['DRAFT', 'QUEUED', 'CREATING'].includes(status)) {
      for (const port of app.out) {
        t.outputs[port] = null;
      }
    }
    if (rng.chance(0.05)) {
      t.warnings.push({ message: 'Instance type was changed to match the requested resources.' });
    }
    if (rng.chance(0.1)) {
      t.origin = { type: 'automation', id: `automation-run-${rng.int(1, 5)}` };
    }
    return t;
  };

  const childStatus = (parent: TaskStatus, i: number): TaskStatus => {
    switch (parent) {
      case 'COMPLETED':
        return 'COMPLETED';
      case 'FAILED':
        return i === 0 ? 'FAILED' : rng.pick<TaskStatus>(['COMPLETED', 'COMPLETED', 'FAILED']);
      case 'ABORTED':
        return i === 0 ? 'ABORTED' : rng.pick<TaskStatus>(['COMPLETED', 'ABORTED']);
      case 'RUNNING':
        return i === 0 ? 'RUNNING' : rng.pick<TaskStatus>(['RUNNING', 'QUEUED', 'COMPLETED']);
      case 'ABORTING':
        return rng.pick<TaskStatus>(['RUNNING', 'ABORTED']);
      case 'QUEUED':
        return 'QUEUED';
      default:
        return 'DRAFT';
    }
  };

  // Guarantee every status (and a batch per parent status) early, then draw by weight.
  const forced: { status: TaskStatus; batch: boolean }[] = [
    ...(['COMPLETED', 'FAILED', 'RUNNING', 'QUEUED', 'DRAFT', 'ABORTED', 'ABORTING'] as TaskStatus[]).map((s) => ({ status: s, batch: false })),
    { status: 'COMPLETED', batch: true },
    { status: 'RUNNING', batch: true },
    { status: 'FAILED', batch: true },
    { status: 'CREATING', batch: true },
  ];
  const taskProject = (): ProjectRec => {
    const r = rng.next();
    return store.projects[r < 0.3 ? 0 : r < 0.55 ? 1 : r < 0.85 ? 2 : r < 0.97 ? 3 : 4];
  };
  let k = 0;
  while (store.tasks.length < opts.tasks) {
    const f = forced[k++];
    const remaining = opts.tasks - store.tasks.length;
    const batch = f ? f.batch && remaining >= 3 : remaining >= 5 && rng.chance(0.025);
    let status = f ? f.status : weightedStatus(rng);
    if (batch && !f && rng.chance(0.04)) {
      status = 'CREATING';
    }
    if (!batch && status === 'CREATING') {
      status = 'DRAFT';
    }
    const project = taskProject();
    const created = now - rng.int(3 * 3600, 180 * 24 * 3600) * 1000 - (status === 'RUNNING' || status === 'QUEUED' ? 0 : HOUR);
    const createdAdj = status === 'QUEUED' || status === 'RUNNING' || status === 'ABORTING' ? Math.max(created, now - 2 * DAY) : created;
    const t = makeTask(status, project, null, createdAdj);
    if (!batch) {
      store.addTask(t);
      continue;
    }
    t.batch = true;
    t.batch_by = { type: 'ITEM', criteria: [] };
    t.inputs = { [Object.keys(t.inputs)[0] ?? 'reads']: [] };
    store.addTask(t);
    const n = status === 'CREATING' ? Math.min(remaining - 1, 2) : Math.min(remaining - 1, rng.int(3, 12));
    const es = t.execution_status;
    es.steps_total = n;
    es.steps_completed = 0;
    const childPrices: (TaskPrice | undefined)[] = [];
    for (let i = 0; i < n; i++) {
      const cs = status === 'CREATING' ? 'DRAFT' : childStatus(status, i);
      const c = makeTask(cs, project, t, createdAdj + 1000 * (i + 1));
      c.name = `${t.name} - ${pad2(i + 1)}`;
      const given = c.inputs[Object.keys(c.inputs)[0]];
      const v = Array.isArray(given) ? given[0] : given;
      const sample = v && typeof v === 'object' && !Array.isArray(v) ? v.name.split(/[_.]/).slice(0, 2).join('_') : `item_${i + 1}`;
      c.batch_group = { value: sample, fields: { sample_id: sample } };
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        (t.inputs[Object.keys(t.inputs)[0]] as FileValue[]).push(v);
      }
      // Children run inside the parent's window.
      if (t.start_time && c.start_time && c.start_time < t.start_time) {
        c.start_time = t.start_time;
      }
      if (t.end_time && c.end_time && c.end_time > t.end_time) {
        c.end_time = t.end_time;
      }
      if (c.start_time && c.end_time && c.end_time < c.start_time) {
        c.end_time = c.start_time;
      }
      if (c.start_time && c.execution_status.duration !== undefined) {
        c.execution_status.duration = Math.round(((c.end_time ? Date.parse(c.end_time) : now) - Date.parse(c.start_time)) / 1000);
      }
      store.addTask(c);
      childPrices.push(c.price);
      switch (c.status) {
        case 'QUEUED': case 'DRAFT': es.queued++; break;
        case 'RUNNING': case 'ABORTING': es.running++; break;
        case 'COMPLETED': es.completed++; es.steps_completed++; break;
        case 'FAILED': es.failed++; es.steps_completed++; break;
        case 'ABORTED': es.aborted++; es.steps_completed++; break;
        default: break;
      }
    }
    if (t.price) {
      t.price = sumPrices(childPrices) ?? priceOf(0, t.id);
    }
    t.outputs = {};
  }

  (opts.batches ?? []).forEach((children, index) => addScaleBatch(store, { seed: opts.seed, now, children, index, failures: opts.batchFailures ?? 0.1 }));

  // A little history of finished async jobs of other types.
  store.jobs.push(
    { id: '70711174378885120', type: 'MOVE', state: 'FINISHED', result: [], total_files: 2, failed_files: 0, completed_files: 2, started_on: isoZ(now - 20 * DAY), finished_on: isoZ(now - 20 * DAY + 4000) },
    { id: '70711174378885121', type: 'DELETE', state: 'FINISHED', result: [], total_files: 1, failed_files: 0, completed_files: 1, started_on: isoZ(now - 10 * DAY), finished_on: isoZ(now - 10 * DAY + 2000) },
  );
  return store;
}

/**
 * A batch at scale: a Salmon Quant batch parent in rna-seq-analysis, created 150 days ago (2 more per batch before
 * it), with `children` children run 50 at a time, `round(children × failures)` of them FAILED (drawn), the rest
 * COMPLETED with one output each in a folder `quant_batch_<n>` of the project's root. Drawn from a PRNG of its own,
 * so the rest of the data is the same with or without it.
 */
function addScaleBatch(store: Store, o: { seed: number; now: number; children: number; index: number; failures: number }): void {
  const rng = new Prng(seedOf(`batch:${o.seed}:${o.index}:${o.children}`));
  const project = store.projectById.get('rfranklin/rna-seq-analysis') ?? store.projects[0];
  // Old enough to stay off the first pages of the groups and the pickers: what was there stays there.
  const created = o.now - (150 + 2 * o.index) * DAY;
  const start = created + 60_000;
  const n = Math.max(1, Math.floor(o.children));
  const failedCount = Math.min(n, Math.round(n * Math.min(1, Math.max(0, o.failures))));
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const failed = new Set(order.slice(0, failedCount));
  const reads = store.files.filter((f) => f.project === project.id && f.type === 'file' && f.name.endsWith('.fastq.gz'));
  const stamp = isoZ(created);
  const folder = store.addFile({
    id: store.newFileId(rng), name: `quant_batch_${o.index + 1}`, project: project.id, parent: project.root_folder, type: 'folder',
    created_on: stamp, modified_on: stamp, origin: {}, tags: [], metadata: {},
  });
  const parent: TaskRec = {
    id: rng.uuid(),
    name: `Salmon Quant batch ${o.index + 1} - ${n.toLocaleString('en-US')} samples`,
    status: failedCount > 0 ? 'FAILED' : 'COMPLETED',
    project: project.id,
    app: `${project.id}/salmon-quant/4`,
    type: 'v2',
    created_by: 'rfranklin',
    executed_by: 'rfranklin',
    created_time: stamp,
    start_time: isoZ(start),
    batch: true,
    parent: null,
    batch_by: { type: 'ITEM', criteria: [] },
    batch_input: 'reads',
    execution_status: {
      message: failedCount > 0 ? 'Failed' : 'Completed', steps_completed: n, steps_total: n, queued: 0, running: 0,
      completed: n - failedCount, failed: failedCount, aborted: 0, system_limit: false, account_limit: false,
    },
    errors: failedCount > 0 ? [{ status: 400, code: 0, message: `${failedCount} of ${n} child tasks failed.` }] : [],
    warnings: [],
    inputs: { reads: [] },
    outputs: {},
    use_interruptible_instances: true,
  };
  store.addTask(parent);
  store.scaleBatches.push(parent);
  const digits = String(n).length;
  let end = start;
  const prices: (TaskPrice | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    const input = reads.length ? reads[i % reads.length] : undefined;
    const sample = `sample_${String(i + 1).padStart(Math.max(2, digits), '0')}`;
    const cStart = start + Math.floor(i / 50) * 30 * 60_000 + rng.int(0, 120) * 1000;
    const cEnd = cStart + rng.int(8 * 60, 25 * 60) * 1000;
    end = Math.max(end, cEnd);
    const didFail = failed.has(i);
    const id = rng.uuid();
    const duration = Math.round((cEnd - cStart) / 1000);
    const child: TaskRec = {
      id,
      name: `${parent.name} - ${String(i + 1).padStart(digits, '0')}`,
      status: didFail ? 'FAILED' : 'COMPLETED',
      project: project.id,
      app: parent.app,
      type: 'v2',
      created_by: 'rfranklin',
      executed_by: 'rfranklin',
      created_time: isoZ(created + 1000 * (i + 1)),
      start_time: isoZ(cStart),
      end_time: isoZ(cEnd),
      batch: false,
      parent: parent.id,
      batch_group: { value: sample, fields: { sample_id: sample } },
      execution_status: {
        message: didFail ? 'Failed' : 'Completed', steps_completed: didFail ? rng.int(0, 1) : 2, steps_total: 2, queued: 0, running: 0,
        completed: 0, failed: 0, aborted: 0, system_limit: false, account_limit: false, duration,
      },
      price: priceOf(Math.round((duration / 3600) * rng.int(60, 110)) / 100, id),
      errors: didFail ? [{ status: 400, code: 0, message: rng.pick(FAILURES) }] : [],
      warnings: [],
      inputs: { reads: input ? { class: 'File', path: input.id, name: input.name } : null },
      outputs: { quant: null },
      use_interruptible_instances: true,
    };
    if (input) (parent.inputs.reads as FileValue[]).push({ class: 'File', path: input.id, name: input.name });
    if (!didFail) {
      const at = isoZ(cEnd);
      const out = store.addFile({
        id: store.newFileId(rng), name: `${sample}.quant.sf`, size: rng.int(2e6, 9e6), project: project.id, parent: folder.id, type: 'file',
        created_on: at, modified_on: at, origin: { task: id }, tags: ['salmon'], metadata: { sample_id: sample },
      });
      child.outputs.quant = { class: 'File', path: out.id, name: out.name };
    }
    store.addTask(child);
    prices.push(child.price);
  }
  parent.end_time = isoZ(end + 60_000);
  parent.execution_status.duration = Math.round((end + 60_000 - start) / 1000);
  parent.price = sumPrices(prices);
}
