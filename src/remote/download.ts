// Download…: asks the local folder (the workspace's first, or the one used last in this workspace), reads what the
// files and folders hold, asks about files already there, checks the disk's room, then runs the transfer engine
// under a progress notification with Cancel, and ends with a summary (Retry Failed, Reveal in Explorer).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { StorageClient } from '../api/storage';
import { commandTitles } from '../keys/commands';
import { readState, STATE, writeState } from '../keys/state';
import type { Services } from '../services';
import { Downloader, type DownloadSummary } from '../transfer/download';
import type { DownloadItem, ExistingChoice, ExistingFile } from '../transfer/downloadPlan';
import { describeLocalError } from '../transfer/localFiles';
import { PART, ResumeBook, type DownloadResume } from '../transfer/resumeState';
import { confirmDiscard } from '../jobs/commands';
import { transferFigureWords, transferFraction } from '../jobs/summary';
import type { InterruptedRun } from '../jobs/transfers';
import { requestLogger } from '../ui/requestLog';
import { setting } from '../ui/settings';
import { andMore, fileCount, formatSize } from '../util/words';
import { collectItems, type DownloadRef } from './downloadItems';
import { downloadSummaryWords, existingChoiceWords } from './transferWords';

export interface DownloadOptions {
  /** The local folder, without asking (scripts and tests). */
  target?: string;
  /** `false`: no question about files already there (the setting's policy, `ask` read as keep both), no summary. */
  confirm?: boolean;
}


const notSignedIn = (): string => vscode.l10n.t('Not signed in: nothing can be downloaded.');


/** The records of an interrupted download's folder (read again: another window may have resumed or discarded it). */
async function interruptedRecords(services: Services, interrupted: Pick<InterruptedRun, 'label'>): Promise<{ book: ResumeBook<DownloadResume>; records: DownloadResume[] }> {
  const account = await services.account();
  if (!account) throw new ApiError({ kind: 'signedOut', message: notSignedIn() });
  const book = new ResumeBook<DownloadResume>(services.context.globalState, 'download', account.key);
  const records = book.all().filter((r) => path.dirname(r.partPath) === interrupted.label && r.partPath.endsWith(PART));
  if (!records.length) throw new Error(vscode.l10n.t('This download is no longer interrupted: another window resumed or discarded it.'));
  return { book, records };
}

/** Resume (Data Jobs): the files of an interrupted download go on from their `.part` files, in their folder. */
export async function resumeDownloads(services: Services, interrupted: Pick<InterruptedRun, 'label'>, options: DownloadOptions = {}): Promise<DownloadSummary | undefined> {
  const { records } = await interruptedRecords(services, interrupted);
  const items: DownloadItem[] = records.map((r) => ({ fileId: r.fileId, relativePath: path.basename(r.path ?? r.partPath.slice(0, -PART.length)), size: r.size }));
  return run(services, interrupted.label, items, [], options);
}

/** Discard (Data Jobs): the `.part` files of an interrupted download are deleted and forgotten. */
export async function discardDownloads(services: Services, interrupted: Pick<InterruptedRun, 'label'>): Promise<number> {
  const { book, records } = await interruptedRecords(services, interrupted);
  return dropParts(services, book, records, interrupted.label);
}

/** The `.part` files of `records` deleted and their records forgotten (Discard, from Data Jobs or a cancelled download's summary). */
async function dropParts(services: Services, book: ResumeBook<DownloadResume>, records: readonly DownloadResume[], label: string): Promise<number> {
  for (const record of records) {
    await fs.promises.rm(record.partPath, { force: true });
    await book.set(record.partPath, undefined);
  }
  services.log.info(`Download to ${label} discarded: ${records.length} .part file(s) deleted`);
  services.transfers.refresh();
  return records.length;
}

/** Discard, from a cancelled download's summary, asked as its row asks: the `.part` files it kept, as their records still name them. */
async function discardKept(services: Services, summary: DownloadSummary): Promise<number> {
  const left = summary.kept.reduce((n, k) => n + k.size - k.bytes, 0);
  if (!(await confirmDiscard({ kind: 'download', label: summary.target, filesLeft: summary.kept.length, filesTotal: summary.kept.length, bytesLeft: left }))) return 0;
  const account = await services.account();
  if (!account) throw new ApiError({ kind: 'signedOut', message: notSignedIn() });
  const book = new ResumeBook<DownloadResume>(services.context.globalState, 'download', account.key);
  const kept = new Set(summary.kept.map((k) => k.partPath));
  return dropParts(services, book, book.all().filter((r) => kept.has(r.partPath)), summary.target);
}

/** Download… of the refs; resolves with the summary (undefined when the user stopped before the first byte). */
export async function download(services: Services, refs: readonly DownloadRef[], options: DownloadOptions = {}): Promise<DownloadSummary | undefined> {
  const target = options.target ?? (await askFolder(services));
  if (!target) return undefined;
  const unwritable = await writableProblem(target);
  if (unwritable) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Download…: {0}', unwritable));
    return undefined;
  }
  await writeState(services.context.workspaceState, STATE.downloadFolder, target);
  const collected = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading what to download…'), cancellable: true },
    async (_, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      try {
        return await collectItems(services.client.files, refs, { signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) return undefined;
        throw error;
      }
    },
  );
  if (!collected) return undefined;
  return run(services, target, collected.items, collected.problems, options);
}

async function run(services: Services, target: string, items: readonly DownloadItem[], problems: { name: string; reason: string }[], options: DownloadOptions): Promise<DownloadSummary | undefined> {
  const account = await services.account();
  if (!account) throw new ApiError({ kind: 'signedOut', message: notSignedIn() });
  const downloader = new Downloader({
    downloadInfo: (id, signal) => services.client.files.downloadInfo(id, signal),
    storage: new StorageClient({ onRequest: requestLogger(services.log), clock: services.clock }),
    clock: services.clock,
    resume: new ResumeBook<DownloadResume>(services.context.globalState, 'download', account.key),
  });
  const policy = setting('downloadIfExists');
  const plan = await downloader.plan({
    target,
    items,
    ifExists: policy === 'ask' && options.confirm === false ? 'keepBoth' : policy,
    ask: askExisting,
    askAll: askAllExisting,
  });
  if (plan.shortfall && options.confirm !== false) {
    const anyway = vscode.l10n.t('Download Anyway');
    const chosen = await vscode.window.showWarningMessage(
      vscode.l10n.t('Not enough free disk space'),
      {
        modal: true,
        detail: vscode.l10n.t('The files need {0}; the disk holding {1} has {2} free. Nothing has been downloaded.', formatSize(plan.space.needed)!, target, formatSize(plan.space.available ?? 0)!),
      },
      anyway,
    );
    if (chosen !== anyway) return undefined;
  }
  // A row of Data Jobs while it goes, its Cancel the notification's.
  const controller = new AbortController();
  const row = services.transfers.start('download', target, account.key, () => controller.abort());
  const summary = await vscode.window
    .withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading'), cancellable: true }, async (progress, token) => {
      token.onCancellationRequested(() => controller.abort());
      let shown = 0;
      return downloader.run(plan, {
        signal: controller.signal,
        onProgress: (p) => {
          const percent = transferFraction(p) * 100;
          progress.report({ message: transferFigureWords(p), increment: Math.max(0, percent - shown) });
          shown = Math.max(shown, percent);
          row.report(p);
        },
      });
    })
    .then(
      (done) => (row.end(), done),
      (error: unknown) => {
        row.end();
        throw error;
      },
    );
  if (options.confirm !== false) void showSummary(services, summary, problems, options);
  services.log.info(`Download to ${target}: ${summary.saved.length} saved, ${summary.skipped.length} skipped, ${summary.failed.length + problems.length} failed, ${summary.bytes} bytes${summary.cancelled ? ', cancelled' : ''}`);
  return summary;
}

async function showSummary(services: Services, summary: DownloadSummary, problems: { name: string; reason: string }[], options: DownloadOptions): Promise<void> {
  const { message, detail, failed } = downloadSummaryWords(summary, problems);
  const reveal = vscode.l10n.t('Reveal in Explorer');
  // A Cancel that kept bytes offers what the Data Jobs row offers: go on from them, or delete them.
  const resumable = summary.cancelled && summary.kept.length > 0;
  const retry = resumable ? commandTitles().resumeTransfer : vscode.l10n.t('Retry Failed');
  const discard = commandTitles().discardTransfer;
  const buttons = [...(summary.retry.length ? [retry] : []), ...(resumable ? [discard] : []), reveal];
  const show = failed || summary.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  // A notification shows no detail: the lines follow the message (at most five failures by name).
  const chosen = await show([message, ...detail.split('\n')].join(' '), ...buttons);
  if (chosen === reveal) {
    const where = summary.saved[0] ?? summary.target;
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(where));
  } else if (chosen === retry) {
    await run(services, summary.target, summary.retry, [], options);
  } else if (chosen === discard) {
    await discardKept(services, summary);
  }
}

/** The local folder: the one used last in this workspace, else the workspace's first, offered in the dialog. */
async function askFolder(services: Services): Promise<string | undefined> {
  const last = readState(services.context.workspaceState, STATE.downloadFolder);
  const first = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri;
  const chosen = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Download Here'),
    title: commandTitles().downloadFiles,
    ...(last ? { defaultUri: vscode.Uri.file(last) } : first ? { defaultUri: first } : {}),
  });
  return chosen?.[0]?.fsPath;
}

/** Why the folder cannot take files (made when missing), in words; undefined when it can. */
async function writableProblem(target: string): Promise<string | undefined> {
  try {
    await fs.promises.mkdir(target, { recursive: true });
    await fs.promises.access(target, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    return describeLocalError(error, target);
  }
}

/** Several files there already with another size: one answer for all of them, or Ask for Each. */
async function askAllExisting(existing: readonly ExistingFile[]): Promise<ExistingChoice | 'each'> {
  const { overwrite, keepBoth, skip } = existingChoiceWords();
  const each = vscode.l10n.t('Ask for Each');
  const names = existing.slice(0, 5).map((e) => e.item.relativePath);
  const more = existing.length > names.length ? [andMore(existing.length - names.length)] : [];
  const chosen = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} are already there with another size', fileCount(existing.length)),
    { modal: true, detail: [...names, ...more, '', vscode.l10n.t('Overwrite them all, keep both of each (the download saved beside it with a number), skip them all, or choose for each?')].join('\n') },
    overwrite,
    keepBoth,
    skip,
    each,
  );
  return chosen === overwrite ? 'overwrite' : chosen === keepBoth ? 'keepBoth' : chosen === each ? 'each' : 'skip';
}

async function askExisting(existing: ExistingFile): Promise<ExistingChoice> {
  const { overwrite, keepBoth, skip } = existingChoiceWords();
  const chosen = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} is already there with another size', existing.item.relativePath),
    { modal: true, detail: vscode.l10n.t('The local file is {0} ({1}). Overwrite it, keep both (the download saved beside it with a number), or skip this file?', formatSize(existing.localSize)!, existing.path) },
    overwrite,
    keepBoth,
    skip,
  );
  return chosen === overwrite ? 'overwrite' : chosen === keepBoth ? 'keepBoth' : 'skip';
}
