import * as vscode from 'vscode';
import { isTaskId } from '../api/ids';
import type { SbClient } from '../api/client';
import type { Task } from '../api/types';

export const TASK_DETAILS_SCHEME = 'sevenbridges-task';

/** The whole task record as a read-only JSON document: `sevenbridges-task:/<id>/<name>.json`. */
export class TaskDetailsProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly records = new Map<string, Task>();
  /** The documents shown per task, so a fresh load updates one already open. */
  private readonly shown = new Map<string, vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: SbClient) {}

  static uriFor(task: Pick<Task, 'id' | 'name'>): vscode.Uri {
    const safe = (task.name || 'task').replace(/[\\/:*?"<>|#%]+/g, '_').slice(0, 80);
    return vscode.Uri.from({ scheme: TASK_DETAILS_SCHEME, path: `/${task.id}/${safe}.json` });
  }

  static idOf(uri: vscode.Uri): string | undefined {
    const id = uri.path.split('/')[1];
    return id && isTaskId(id) ? id : undefined;
  }

  /** Fetches the record (so a failure is reported before a document opens), then keeps it for the document. */
  async load(id: string): Promise<Task> {
    const task = await this.client.tasks.get(id);
    this.records.set(id, task);
    const open = this.shown.get(id);
    if (open) this.changed.fire(open);
    return task;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = TaskDetailsProvider.idOf(uri);
    if (!id) return `"${uri.path}" does not name a task.`;
    this.shown.set(id, uri);
    const task = this.records.get(id) ?? (await this.load(id));
    return JSON.stringify(task, null, 2) + '\n';
  }

  /** Fetches again and updates an open document. */
  async reload(uri: vscode.Uri): Promise<void> {
    const id = TaskDetailsProvider.idOf(uri);
    if (!id) return;
    await this.load(id);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.records.clear();
    this.shown.clear();
  }
}
