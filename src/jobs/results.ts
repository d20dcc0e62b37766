// Copy Results: a copy job's items as a read-only TSV document, `sevenbridges-results:/copy-results-<destination>-<job>.tsv`
// (its query names the jobs). Never dirty, so closing it asks nothing; File: Save As… keeps a copy. It follows the
// jobs: results that arrive later show in the open document.
import * as vscode from 'vscode';
import { SCHEMES } from '../keys/schemes';
import { resultsFileName, resultsTable } from './itemOutcomes';
import type { JobTracker, TrackedJob } from './tracker';

export class CopyResultsProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** What each open document was last given, to tell it only of real changes. */
  private readonly given = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly tracker: JobTracker) {
    this.subscription = tracker.onDidChange(() => {
      for (const document of vscode.workspace.textDocuments) {
        const key = document.uri.toString();
        if (document.uri.scheme === SCHEMES.copyResults && this.given.has(key) && this.text(document.uri) !== this.given.get(key)) this.changed.fire(document.uri);
      }
    });
  }

  static uriFor(jobs: readonly TrackedJob[]): vscode.Uri {
    return vscode.Uri.from({ scheme: SCHEMES.copyResults, path: `/${resultsFileName(jobs)}`, query: JSON.stringify({ jobs: jobs.map((j) => j.id) }) });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const text = this.text(uri);
    this.given.set(uri.toString(), text);
    return text;
  }

  private text(uri: vscode.Uri): string {
    let ids: unknown;
    try {
      ids = (JSON.parse(uri.query) as { jobs?: unknown }).jobs;
    } catch {
      ids = undefined;
    }
    const jobs = (Array.isArray(ids) ? ids : []).map((id) => (typeof id === 'string' ? this.tracker.get(id) : undefined)).filter((j): j is TrackedJob => j !== undefined);
    if (!jobs.length) return `${vscode.l10n.t('These copy jobs are no longer listed (dismissed, or made as another account): their results cannot be shown.')}\n`;
    return resultsTable(jobs);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.given.clear();
  }
}
