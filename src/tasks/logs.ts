import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { isFileId } from '../api/ids';
import { SCHEMES } from '../keys/schemes';
import { ByteCache } from '../util/byteCache';
import type { RequestLogEntry } from '../api/transport';
import type { fetchLog, LogSource } from './logContent';
import { logLocation, logTitle, type LogRef } from './taskInfo';

export const LOG_SCHEME = SCHEMES.log;
/** The text kept of the logs read, in characters (at most 64 MB); the least recently read goes first. */
export const LOG_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * A job's log as a read-only document: `sevenbridges-log:/<task id>/<file id>/<title>`, its query a JSON object with
 * `path` and `whole` (the whole file). The manifest's `resourceLabelFormatters` make `path` the document's label: VS
 * Code shows it whole as the tab's tooltip ("rfranklin/my-project › BWA-MEM run › samtools_index/job.err.log ·
 * samtools_index · BWA-MEM run") and what follows its last `/` as the tab's name ("job.err.log · samtools_index ·
 * BWA-MEM run"). Fetched from the storage's signed URL without the auth token.
 */
export class LogDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** The logs being fetched, by URI: Cancel on the progress stops one (showLog). */
  private static readonly loading = new Map<string, AbortController>();
  private readonly texts = new ByteCache<string>(LOG_CACHE_CHARS);
  private readonly subscription: vscode.Disposable | undefined;
  /** Whether each log document shows only the end of its file (by URI). */
  readonly partial = new Map<string, boolean>();

  constructor(
    private readonly source: LogSource,
    private readonly onRequest: (entry: RequestLogEntry) => void,
    /** The reading (logContent.ts, with the storage client), loaded on the first log opened. */
    private readonly fetch: typeof fetchLog,
    sessionChanged?: vscode.Event<unknown>,
  ) {
    this.subscription = sessionChanged?.(() => {
      this.texts.clear();
      this.partial.clear();
    });
  }

  static uriFor(log: LogRef, whole = false): vscode.Uri {
    // Only a slash would cut the name (the tab shows what follows the last one); the URI escapes the rest.
    const title = logTitle(log).replace(/[\\/]+/g, '_').slice(0, 160) || 'log';
    return vscode.Uri.from({ scheme: LOG_SCHEME, path: `/${log.taskId}/${log.fileId}/${title}`, query: JSON.stringify({ path: `${logLocation(log)}/${title}`, ...(whole ? { whole } : {}) }) });
  }

  /** The same log, whole. */
  static whole(uri: vscode.Uri): vscode.Uri {
    return uri.with({ query: JSON.stringify({ ...queryOf(uri), whole: true }) });
  }

  static isWhole(uri: vscode.Uri): boolean {
    return queryOf(uri).whole === true;
  }

  static fileIdOf(uri: vscode.Uri): string | undefined {
    const id = uri.path.split('/')[2];
    return id && isFileId(id) ? id : undefined;
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const key = uri.toString();
    const cached = this.texts.get(key);
    if (cached !== undefined) return cached;
    const fileId = LogDocumentProvider.fileIdOf(uri);
    if (!fileId) return vscode.l10n.t('"{0}" does not name a log file.', uri.path);
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    LogDocumentProvider.loading.set(key, controller);
    try {
      const { text, download } = await this.fetch(this.source, fileId, LogDocumentProvider.isWhole(uri), { onRequest: this.onRequest, signal: controller.signal });
      this.texts.set(key, text, text.length);
      this.partial.set(key, download.partial);
      return text;
    } catch (error) {
      // Cancelled by the person: no document (showLog says so); opening it again fetches it again.
      if (controller.signal.aborted) throw new vscode.CancellationError();
      // Not kept: opening the log again tries again.
      return `${vscode.l10n.t('Could not load this log.')}\n\n${describeError(error)}\n\n${vscode.l10n.t("Open it again from the task's job in the Seven Bridges Tasks view.")}\n`;
    } finally {
      if (LogDocumentProvider.loading.get(key) === controller) LogDocumentProvider.loading.delete(key);
      cancel.dispose();
    }
  }

  /** Stops fetching a log (Cancel on its progress): what was received is dropped, nothing more is asked. */
  static cancel(uri: vscode.Uri): void {
    LogDocumentProvider.loading.get(uri.toString())?.abort();
  }

  dispose(): void {
    this.subscription?.dispose();
    this.texts.clear();
  }
}

/** A log URI's query: `{ path, whole }` (a log opened by an older version has none). */
function queryOf(uri: vscode.Uri): { path?: string; whole?: boolean } {
  try {
    const value: unknown = JSON.parse(uri.query);
    return value && typeof value === 'object' ? (value as { path?: string; whole?: boolean }) : {};
  } catch {
    return uri.query === 'whole' ? { whole: true } : {};
  }
}

/**
 * Opens a log in a read-only tab, scrolled to its end (where a failed job says why). Its progress has Cancel: the fetch
 * stops, no tab opens (a log's last 1 MB, open already, stays as it is), and the status bar says so; undefined then.
 */
export async function showLog(uri: vscode.Uri): Promise<vscode.TextEditor | undefined> {
  const name = uri.path.split('/').pop() ?? '';
  let cancelled = false;
  const doc = await vscode.window
    .withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Loading {0}…', name), cancellable: true }, (_progress, token) => {
      const cancel = token.onCancellationRequested(() => {
        cancelled = true;
        LogDocumentProvider.cancel(uri);
      });
      return Promise.resolve(vscode.workspace.openTextDocument(uri)).finally(() => cancel.dispose());
    })
    .then(
      (opened) => opened,
      (error: unknown) => {
        if (cancelled) return undefined;
        throw error;
      },
    );
  if (!doc) {
    const kept = LogDocumentProvider.isWhole(uri) ? vscode.l10n.t('the part shown stays as it was') : vscode.l10n.t('nothing was opened');
    vscode.window.setStatusBarMessage(`$(circle-slash) ${vscode.l10n.t('Loading {0} cancelled: {1}.', name, kept)}`, 5_000);
    return undefined;
  }
  const shown = await Promise.resolve(vscode.languages.setTextDocumentLanguage(doc, 'log')).catch(() => doc);
  const last = shown.lineAt(Math.max(0, shown.lineCount - 1));
  const editor = await vscode.window.showTextDocument(shown, { preview: true });
  editor.selection = new vscode.Selection(last.range.start, last.range.start);
  editor.revealRange(last.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}
