// Collect Failure Logs: for each failed job of some failed tasks, its error log (`job.err.log`) and its command
// (`cmd.log`) downloaded into `<folder>/<task name>/<job name>/`, a few tasks at once, each API request paced to the
// budget, each log fetched from its signed URL without the token (the storage client); then a Markdown summary.
// The logs stream to disk: only the last lines of each error log are kept in memory. Names are made safe by the
// transfer's one rule (safeName), and nothing is written through a link (openUnder). No `vscode` import.

import * as l10n from '@vscode/l10n';
import { mkdir } from 'fs/promises';
import * as path from 'path';
import { describeError } from '../api/errors';
import { redactSecrets } from '../api/secretShapes';
import { StorageClient, type StorageOptions } from '../api/storage';
import { describeLocalError, diskKey, safeName, type NamePlatform } from '../transfer/localFiles';
import { openUnder } from '../transfer/underFolder';
import { isLocalError, localError } from '../util/localError';
import type { ExecutionDetails, Task, TaskJob } from '../api/types';
import type { TaskListQuery } from '../api/tasks';
import { codeSpan, escapeMarkdown } from '../util/markdown';
import { count, failedBecause } from '../util/words';
import type { CostSource } from './cost';
import { namePages } from './findTask';
import { jobLogs, messages } from './taskInfo';

/** The logs collected from each failed job, in this order. */
export const FAILURE_LOGS = ['job.err.log', 'cmd.log'] as const;
/** Tasks read at once (each a details request, then its logs). */
export const COLLECT_CONCURRENCY = 4;
/** The lines of each error log the summary quotes. */
const LAST_LINES = 3;
/** The end of an error log kept while it streams to disk, to quote its last lines. */
const TAIL_KEPT = 8 * 1024;
export const SUMMARY_FILE = 'failure-summary.md';

export interface FailureLogSource {
  executionDetails(id: string, signal?: AbortSignal): Promise<ExecutionDetails>;
  /** The signed URL of a file (`GET /v2/files/{id}/download_info`). */
  downloadInfo(fileId: string, signal?: AbortSignal): Promise<string>;
}

export interface CollectOptions {
  /** The local folder the logs go under. */
  folder: string;
  signal?: AbortSignal;
  /** Runs before each API request (the budget's pace); the storage's requests do not count against it. */
  pace?: () => Promise<void>;
  concurrency?: number;
  storage?: Pick<StorageOptions, 'fetch' | 'onRequest' | 'clock'>;
  /** After each task: how many are done of how many. */
  onProgress?: (done: number, total: number) => void;
  /** What the quoted log lines must not carry (the account's token); what looks like a token or key goes too. */
  secrets?: readonly string[];
}

/** One row of the summary: a failed job (or a failed task with none), what it ran on, why, and where its logs went. */
export interface FailureRow {
  task: Pick<Task, 'id' | 'name'>;
  job?: string;
  instance?: string;
  /** Why it failed: the task's first error. */
  message?: string;
  /** The logs written, by name, as paths relative to the folder (`/`-separated). */
  files: Partial<Record<(typeof FAILURE_LOGS)[number], string>>;
  /** The error log's last lines. */
  lastLines: string[];
  /** What could not be collected, and why. */
  problem?: string;
}

export interface CollectResult {
  rows: FailureRow[];
  /** Tasks not reached before a cancel. */
  notReached: number;
  logs: number;
}

/** The characters of a task's or job's name kept in its folder's name: the logs' paths stay short. */
const NAME_CHARS = 120;

/** A task's or job's name as one folder name: its first 120 characters, made safe by the one rule (`safeName`). */
export function safeSegment(name: string, fallback: string, platform?: NamePlatform): string {
  return safeName([...name].slice(0, NAME_CHARS).join(''), platform, fallback);
}

/** The last `n` lines of a text that may start inside a line (a tail), blank trailing lines left out. */
export function lastLines(text: string, n: number, startsInLine: boolean): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (startsInLine) lines.shift();
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  return lines.slice(-n);
}

/** The failed jobs of a task's execution details: the attempts that failed, retried ones included, in the platform's order. */
export function failedJobs(details: ExecutionDetails): TaskJob[] {
  return (details.jobs ?? []).filter((j) => j.status === 'FAILED');
}

/** What a failed task is read with to collect its logs. */
const FAILED_FIELDS = 'id,name,status,project,app,batch,parent,errors,price';

/**
 * The failed tasks of a query (the Failed group under the filter, a batch parent's children with `parent`), by name,
 * 100 a page, each page paced to the budget.
 */
export async function failedTasks(source: CostSource, query: TaskListQuery, options: { signal?: AbortSignal; pace?: () => Promise<void> } = {}): Promise<Task[]> {
  const found: Task[] = [];
  await options.pace?.();
  for await (const page of namePages(source, { ...query, status: 'FAILED' }, { signal: options.signal, beforePage: options.pace, fields: FAILED_FIELDS, max: Infinity })) found.push(...page.items);
  return found;
}

/** Collects the failure logs of the tasks (the failed ones: the caller found them) and returns the summary's rows. */
export async function collectFailureLogs(tasks: readonly Task[], source: FailureLogSource, options: CollectOptions): Promise<CollectResult> {
  // The folder chosen is the person's: made if missing (what goes below it is made one folder at a time, no link followed).
  await mkdir(options.folder, { recursive: true }).catch((error: unknown) => {
    throw localError(error);
  });
  const storage = new StorageClient(options.storage);
  const rows: FailureRow[][] = tasks.map(() => []);
  const folders = taskFolders(tasks);
  let next = 0;
  let done = 0;
  let logs = 0;
  const worker = async () => {
    while (next < tasks.length && !options.signal?.aborted) {
      const index = next++;
      const task = tasks[index];
      rows[index] = await collectTask(task, folders[index], source, storage, options, () => logs++);
      options.onProgress?.(++done, tasks.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? COLLECT_CONCURRENCY, tasks.length) }, worker));
  return { rows: rows.flat(), notReached: tasks.length - done, logs };
}

/** Each task's folder: its name made safe, its ID's start added when two tasks share a name. */
function taskFolders(tasks: readonly Task[]): string[] {
  const used = new Map<string, number>();
  for (const t of tasks) {
    const name = diskKey(safeSegment(t.name, t.id));
    used.set(name, (used.get(name) ?? 0) + 1);
  }
  return tasks.map((t) => {
    const name = safeSegment(t.name, t.id);
    return (used.get(diskKey(name)) ?? 0) > 1 ? `${name} (${t.id.slice(0, 8)})` : name;
  });
}

async function collectTask(task: Task, folder: string, source: FailureLogSource, storage: StorageClient, options: CollectOptions, counted: () => void): Promise<FailureRow[]> {
  const message = messages(task.errors)[0];
  let details: ExecutionDetails;
  try {
    await options.pace?.();
    details = await source.executionDetails(task.id, options.signal);
  } catch (error) {
    return [{ task, message, files: {}, lastLines: [], problem: l10n.t('Its jobs could not be read: {0}', describeError(error)) }];
  }
  const jobs = failedJobs(details);
  if (!jobs.length) return [{ task, message, files: {}, lastLines: [], problem: l10n.t('No failed job: it failed before a job ran.') }];
  const jobFolders = new Map<string, number>();
  const rows: FailureRow[] = [];
  for (const job of jobs) {
    let jobFolder = safeSegment(job.name ?? 'job', 'job');
    const seen = jobFolders.get(diskKey(jobFolder)) ?? 0;
    jobFolders.set(diskKey(jobFolder), seen + 1);
    // A job retried after a failed attempt: each attempt in its own folder.
    if (seen) jobFolder = `${jobFolder} (attempt ${seen + 1})`;
    const row: FailureRow = { task, job: job.name, instance: job.instance?.type, message, files: {}, lastLines: [] };
    const problems: string[] = [];
    const logsByName = new Map(jobLogs(job, task).map((log) => [log.name, log]));
    for (const name of FAILURE_LOGS) {
      const log = logsByName.get(name);
      if (!log) continue;
      const relative = `${folder}/${jobFolder}/${name}`;
      const file = path.join(options.folder, folder, jobFolder, name);
      try {
        await options.pace?.();
        const url = await source.downloadInfo(log.fileId, options.signal);
        const tail = await saveLog(storage, url, options.folder, file, options.signal);
        row.files[name] = relative;
        if (name === 'job.err.log') row.lastLines = lastLines(tail.text, LAST_LINES, tail.cut).map((line) => redactSecrets(line, options.secrets ?? []));
        counted();
      } catch (error) {
        if (options.signal?.aborted) throw error;
        problems.push(failedBecause(name, isLocalError(error) ? describeLocalError(error, file) : describeError(error)));
      }
    }
    if (!logsByName.has('job.err.log')) problems.push(l10n.t('The job has no job.err.log.'));
    if (problems.length) row.problem = problems.join(' ');
    rows.push(row);
  }
  return rows;
}

/**
 * Streams the file at a signed URL to `file` below `root` (its folders made; no link followed, an existing log
 * replaced), and returns its end as text.
 */
async function saveLog(storage: StorageClient, url: string, root: string, file: string, signal?: AbortSignal): Promise<{ text: string; cut: boolean }> {
  const read = await storage.read(url, undefined, signal);
  let handle: Awaited<ReturnType<typeof openUnder>>;
  try {
    handle = await openUnder(root, file, 'replace');
  } catch (error) {
    // The answer is not read: its connection is let go.
    await read.body[Symbol.asyncIterator]().return?.();
    throw error;
  }
  const out = handle.createWriteStream();
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', (error) => reject(localError(error)));
  });
  let tail = Buffer.alloc(0);
  let total = 0;
  try {
    for await (const chunk of read.body) {
      total += chunk.length;
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > TAIL_KEPT) tail = tail.subarray(tail.length - TAIL_KEPT);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    out.end();
    await closed;
  }
  return { text: tail.toString('utf8'), cut: total > tail.length };
}

/** A table cell: what it quotes on one line, as typed (Markdown's characters, pipes and HTML escaped). */
function cell(text: string | undefined): string {
  return escapeMarkdown(text ?? '').trim();
}

/** A path segment in a link: encoded, parentheses too (a `)` would end the link). */
const linkSegment = (segment: string): string => encodeURIComponent(segment).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A link to a file relative to the summary (each path segment encoded: names have spaces). */
function link(label: string, relative: string): string {
  return `[${cell(label)}](${relative.split('/').map(linkSegment).join('/')})`;
}

/** The summary document: a heading, the counts, and one table row per failed job. */
export function summaryMarkdown(result: CollectResult, heading: string): string {
  const { rows } = result;
  const tasks = new Set(rows.map((r) => r.task.id)).size;
  const lines = [`# ${cell(heading)}`, ''];
  lines.push(l10n.t('{0} failed tasks, {1} failed jobs, {2} log files.', count(tasks), count(rows.filter((r) => r.job !== undefined).length), count(result.logs)));
  if (result.notReached) lines.push('', l10n.t('Stopped before the end: {0} tasks were not collected.', count(result.notReached)));
  lines.push(
    '',
    `| ${[l10n.t('Task'), l10n.t('Job'), l10n.t('Instance'), l10n.t('Error'), l10n.t('Last lines of the error log')].join(' | ')} |`,
    '|---|---|---|---|---|',
  );
  for (const row of rows) {
    const err = row.files['job.err.log'];
    const cmd = row.files['cmd.log'];
    const quoted = row.lastLines.map(codeSpan).join('<br>');
    const logCell = [quoted, err ? link('job.err.log', err) : undefined, cmd ? link('cmd.log', cmd) : undefined, row.problem ? `⚠ ${cell(row.problem)}` : undefined]
      .filter(Boolean)
      .join('<br>');
    lines.push(`| ${[cell(row.task.name || row.task.id), cell(row.job ?? '—'), cell(row.instance ?? '—'), cell(row.message ?? '—'), logCell].join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

/** Writes the summary next to the logs (an existing one replaced, a link not followed); returns its path. */
export async function writeSummary(folder: string, text: string): Promise<string> {
  const file = path.join(folder, SUMMARY_FILE);
  await mkdir(folder, { recursive: true });
  try {
    const handle = await openUnder(folder, file, 'replace');
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new Error(describeLocalError(error, file));
  }
  return file;
}
