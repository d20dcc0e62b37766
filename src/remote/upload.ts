// Upload to Seven Bridges…: local files and folders (from the Explorer, or picked) to a project or folder (the row it
// was run on, or picked as the copy picks). The names already taken there are shown before anything is sent, with
// the choice overwrite / keep both / skip; the transfer engine then makes the folders and sends the files (multipart,
// each completion through the outbox as an "upload complete" write) under a progress notification whose Cancel
// aborts every upload begun; the summary offers Reveal in Projects & Files. Each run is also a row of Data Jobs while it
// goes, and one left unfinished (a reload, a fault) is resumed or discarded from there.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import type { FileLocation } from '../api/files';
import { StorageClient } from '../api/storage';
import { lookupDestination, type Arriving } from '../copy/clashes';
import { projectThenFolder } from '../copy/destinationSteps';
import { browseFolder } from '../copy/pickers';
import { destinationWords } from '../copy/destinationWords';
import { describeDestination, type CopyDestination } from '../copy/request';
import { commandTitles, COMMANDS } from '../keys/commands';
import type { Services } from '../services';
import { ResumeBook, type UploadResume, type UploadRunResume } from '../transfer/resumeState';
import { Uploader } from '../transfer/uploader';
import type { NameClash } from '../transfer/fileUploads';
import type { UploadPlan, UploadSummary } from '../transfer/upload';
import type { Account } from '../write/outbox';
import { transferFigureWords, transferFraction } from '../jobs/summary';
import { locationWords, type InterruptedRun } from '../jobs/transfers';
import { randomUUID } from 'crypto';
import { pickProject } from '../ui/projectPick';
import { requestLogger } from '../ui/requestLog';
import { existingChoiceWords, uploadSummaryWords } from './transferWords';
import { clashQuestion, takenNames } from './uploadClashes';
import { completedThroughOutbox, completeThroughOutbox, folderThroughOutbox } from './uploadWrite';

/**
 * What a script (or a test) may give instead of asking: `{ sources, destination, ifExists, confirm, signal }`. The
 * destination is a place as the pickers make it (Projects & Files' rows give theirs so), or a bare location.
 */
interface UploadOptions {
  sources?: string[];
  destination?: CopyDestination | FileLocation;
  ifExists?: NameClash;
  /** `false`: no question, no summary. */
  confirm?: boolean;
  /** Cancel, for scripts. */
  signal?: AbortSignal;
}

/** Where an upload goes, and the words every question, row and summary of it names it by. */
interface UploadDestination {
  location: FileLocation;
  label: string;
}

/** The command: `(uri, uris)` from the Explorer, `(options)` from a row of Projects & Files or a script. */
export async function uploadCommand(services: Services, first: unknown, second: unknown): Promise<UploadSummary | undefined> {
  // A row's destination comes first, a script's options (sources, confirm…) second.
  const options: UploadOptions = { ...(isOptions(second) ? second : {}), ...(isOptions(first) ? first : {}) };
  let sources = options.sources;
  if (first instanceof vscode.Uri) sources = (Array.isArray(second) && second.every((u) => u instanceof vscode.Uri) ? (second as vscode.Uri[]) : [first]).map((u) => u.fsPath);
  let where = options.destination && uploadDestination(options.destination);
  sources ??= await askSources();
  if (!sources?.length) return undefined;
  where ??= await askDestination(services, sources.length);
  if (!where) return undefined;
  return upload(services, sources, where, options);
}

/** The place and its words: named by describeDestination, as the copy and the move name theirs. */
function uploadDestination(destination: CopyDestination | FileLocation): UploadDestination {
  if (!('kind' in destination)) return { location: destination, label: locationWords(destination) };
  const location: FileLocation = destination.kind === 'projectRoot' ? { project: destination.project } : { parent: destination.folder };
  return { location, label: describeDestination(destination) };
}

const isOptions = (value: unknown): value is UploadOptions => typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && !Array.isArray(value) && ('sources' in value || 'destination' in value);

async function askSources(): Promise<string[] | undefined> {
  const chosen = await vscode.window.showOpenDialog({
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: true,
    openLabel: vscode.l10n.t('Upload'),
    title: commandTitles().uploadFiles,
    ...(vscode.workspace.workspaceFolders?.[0]?.uri.scheme === 'file' ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
  });
  return chosen?.map((u) => u.fsPath);
}

/** A project, then a folder in it (or its root), by the copy's picker, in the upload's words. */
async function askDestination(services: Services, items: number): Promise<UploadDestination | undefined> {
  const chosen = await projectThenFolder(
    async () => {
      const project = await pickProject(services.projects, { title: destinationWords('upload').projectTitle('otherProjectFolder'), placeholder: vscode.l10n.t('The project to upload to') });
      return project === 'none' ? undefined : project;
    },
    (project) => browseFolder(services.client, project, 'otherProjectFolder', { count: items, verb: 'upload' }),
  );
  return chosen && uploadDestination(chosen.destination);
}

/** The engine for the account in use, its uploads' and runs' records in global state. */
function uploaderFor(services: Services, account: Account): Uploader {
  const { client } = services;
  return new Uploader({
    uploads: client.uploads,
    complete: completeThroughOutbox(services.outbox, account),
    completed: completedThroughOutbox(services.outbox, client, account),
    ensureFolder: folderThroughOutbox(services.outbox, client.files, account),
    storage: new StorageClient({ onRequest: requestLogger(services.log), clock: services.clock }),
    clock: services.clock,
    resume: new ResumeBook<UploadResume>(services.context.globalState, 'upload', account.key),
    runs: new ResumeBook<UploadRunResume>(services.context.globalState, 'uploadRun', account.key),
  });
}

async function signedIn(services: Services): Promise<Account> {
  const account = await services.account();
  if (!account) throw new ApiError({ kind: 'signedOut', message: vscode.l10n.t('Not signed in: nothing can be uploaded.') });
  return account;
}

async function upload(services: Services, sources: string[], where: UploadDestination, options: UploadOptions): Promise<UploadSummary | undefined> {
  const account = await signedIn(services);
  const { client } = services;
  const uploader = uploaderFor(services, account);
  const arriving: Arriving[] = await Promise.all(sources.map(async (s) => ({ name: path.basename(s), folder: (await fs.promises.stat(s).catch(() => undefined))?.isDirectory() ?? false })));
  let ifExists: NameClash = options.ifExists ?? 'rename';
  if (options.confirm !== false) {
    const lookup = await lookupDestination(client.files, where.location, arriving);
    if (takenNames(arriving, lookup.existing).length) {
      const chosen = await askClash(clashQuestion(arriving, lookup.existing, where.label));
      if (!chosen) return undefined;
      ifExists = chosen;
    }
  }
  const plan = await uploader.plan({ sources, destination: where.location, ifExists });
  return runUpload(services, account, uploader, plan, { runId: randomUUID(), label: where.label }, options);
}

/**
 * Runs a plan under a progress notification and as a row of Data Jobs (both with Cancel), its record kept while it
 * has files left (a reload or a fault leaves it to Resume); then the summary.
 */
async function runUpload(services: Services, account: Account, uploader: Uploader, plan: UploadPlan, record: { runId: string; label: string; startedAt?: number }, options: UploadOptions, resuming = false): Promise<UploadSummary> {
  const controller = new AbortController();
  const row = services.transfers.start('upload', record.label, account.key, () => controller.abort(), record.runId);
  let summary: UploadSummary;
  try {
    summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Uploading to {0}', record.label), cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
        let shown = 0;
        return uploader.run(plan, {
          signal,
          record,
          adoptLeftOver: resuming,
          onProgress: (p) => {
            const percent = transferFraction(p) * 100;
            progress.report({ message: transferFigureWords(p), increment: Math.max(0, percent - shown) });
            shown = Math.max(shown, percent);
            row.report(p);
          },
        });
      },
    );
  } finally {
    row.end();
  }
  // The summary's failures hold the plan's refusals already.
  services.log.info(
    `Upload to ${record.label}: ${summary.uploaded.length} uploaded, ${summary.skipped.length} skipped, ${summary.links.length} links not followed, ${summary.failed.length} failed, ${summary.bytes} bytes${summary.cancelled ? ', cancelled' : ''}`,
  );
  void vscode.commands.executeCommand(COMMANDS.refreshFiles);
  if (options.confirm !== false) void showSummary(summary, record.label);
  return summary;
}


/** The record of a run of the account in use, read again (another window may have resumed or discarded it). */
function recordOf(uploader: Uploader, runId: string): UploadRunResume {
  const record = uploader.runsLeft().find((r) => r.runId === runId);
  if (!record) throw new Error(vscode.l10n.t('This upload is no longer interrupted: another window resumed or discarded it.'));
  return record;
}

/** Resume (Data Jobs): an upload run a reload or a fault left goes on with its files not completed, from the parts sent. */
export async function resumeUploadRun(services: Services, run: Pick<InterruptedRun, 'runId'>, options: UploadOptions = {}): Promise<UploadSummary> {
  const account = await signedIn(services);
  const uploader = uploaderFor(services, account);
  const record = recordOf(uploader, run.runId);
  return runUpload(services, account, uploader, uploader.planOf(record), { runId: record.runId, label: record.label, startedAt: record.startedAt }, options, true);
}

/** Discard (Data Jobs): the run's uploads begun are aborted on the platform, so nothing half made is left; then it is forgotten. */
export async function discardUploadRun(services: Services, run: Pick<InterruptedRun, 'runId'>): Promise<number> {
  const account = await signedIn(services);
  const uploader = uploaderFor(services, account);
  const record = recordOf(uploader, run.runId);
  const aborted = await uploader.discardRun(record);
  services.log.info(`Upload to ${record.label} discarded: ${aborted} upload(s) aborted on the platform`);
  services.transfers.refresh();
  return aborted;
}

async function askClash({ message, detail }: { message: string; detail: string }): Promise<NameClash | undefined> {
  const { overwrite, keepBoth, skip } = existingChoiceWords();
  const chosen = await vscode.window.showWarningMessage(message, { modal: true, detail }, overwrite, keepBoth, skip);
  return chosen === overwrite ? 'overwrite' : chosen === keepBoth ? 'rename' : chosen === skip ? 'skip' : undefined;
}

async function showSummary(summary: UploadSummary, destination: string): Promise<void> {
  const { message, failed } = uploadSummaryWords(summary, destination);
  const reveal = commandTitles().revealInFiles;
  const show = failed || summary.links.length || summary.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const first = summary.uploaded[0]?.file;
  const chosen = await show(message, ...(first ? [reveal] : []));
  if (chosen === reveal && first) await vscode.commands.executeCommand(COMMANDS.revealInFiles, { id: first.id, name: first.name, type: first.type });
}
