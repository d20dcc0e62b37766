import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { isTaskId } from '../api/ids';
import type { SbClient } from '../api/client';
import type { Task } from '../api/types';
import { commandTitles } from '../keys/commands';
import { SCHEMES } from '../keys/schemes';

export const TASK_DETAILS_SCHEME = SCHEMES.taskDetails;

/** The whole task record as a read-only JSON document: `sevenbridges-task:/<id>/<name>.json`. */
export class TaskDetailsProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Records fetched for the signed-in account; forgotten when the session changes (sign-out, another platform). */
  private readonly records = new Map<string, Task>();
  /** Bumped when the records are forgotten, so a fetch that started before is not kept for the new account. */
  private generation = 0;
  /** The documents shown per task, so a fresh load updates one already open. */
  private readonly shown = new Map<string, vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscription: vscode.Disposable | undefined;
  readonly onDidChange = this.changed.event;

  /** `sessionChanged`: fires on sign-in, sign-out and a platform switch (the session's onDidChange). */
  constructor(
    private readonly client: SbClient,
    sessionChanged?: vscode.Event<unknown>,
  ) {
    this.subscription = sessionChanged?.(() => this.clear());
  }

  static uriFor(task: Pick<Task, 'id' | 'name'>): vscode.Uri {
    const safe = (task.name || 'task').replace(/[\\/:*?"<>|#%]+/g, '_').slice(0, 80);
    return vscode.Uri.from({ scheme: TASK_DETAILS_SCHEME, path: `/${task.id}/${safe}.json` });
  }

  static idOf(uri: vscode.Uri): string | undefined {
    const id = uri.path.split('/')[1];
    return id && isTaskId(id) ? id : undefined;
  }

  /** Forgets every fetched record, so another account's task is never shown from memory. */
  clear(): void {
    this.generation++;
    this.records.clear();
  }

  /** Fetches the record (so a failure is reported before a document opens), then keeps it for the document. */
  async load(id: string): Promise<Task> {
    const generation = this.generation;
    const task = await this.client.tasks.get(id);
    if (generation !== this.generation) return task;
    this.records.set(id, task);
    const open = this.shown.get(id);
    if (open) this.changed.fire(open);
    return task;
  }

  /**
   * The document's text. A document restored after a reload (or shown after a sign-out) fetches its task
   * again; when that fails, the text says what happened and what to do rather than the editor showing an error.
   */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = TaskDetailsProvider.idOf(uri);
    if (!id) return vscode.l10n.t('"{0}" does not name a task.', uri.path);
    this.shown.set(id, uri);
    const cached = this.records.get(id);
    if (cached) return JSON.stringify(cached, null, 2) + '\n';
    try {
      return JSON.stringify(await this.load(id), null, 2) + '\n';
    } catch (error) {
      const tryAgain = vscode.l10n.t('To try again, right-click the task in the Seven Bridges Tasks view and choose "{0}".', commandTitles().openTaskDetails);
      return `${vscode.l10n.t('Could not load the details of task {0}.', id)}\n\n${describeError(error)}\n\n${tryAgain}\n`;
    }
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changed.dispose();
    this.records.clear();
    this.shown.clear();
  }
}
