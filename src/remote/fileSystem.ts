// The `sevenbridges:` file system: the platform's files read-only in the editor (tabs, Compare, Copy Path, the
// breadcrumbs, a project added to the workspace). What it reads is the model's (remoteFiles.ts); this turns it into
// VS Code's file system calls, and refuses every write with a pointer to Upload. A file is its whole bytes (a copy or
// a drag out of a mounted project is the file); `?head` and `?inflated` are ways of opening it (remotePath.ts).
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { commandTitles } from '../keys/commands';
import { NotFoundError, type RemoteFiles } from './remoteFiles';
import { readFormOf } from './remotePath';

/** Why a write is refused, and what to do instead. */
export const readOnlyWords = (): string =>
  vscode.l10n.t('Files on Seven Bridges are read-only in the editor. To change one, use "{0}", edit the local copy, and upload it.', commandTitles().downloadFiles);

export class RemoteFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  /** Nothing changes here (the platform's files are read, not followed). */
  readonly onDidChangeFile = this.changed.event;

  constructor(private readonly files: RemoteFiles) {}

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const entry = await this.guard(uri, () => this.files.entry(uri.path));
    const mtime = ('modified_on' in entry && Date.parse(entry.modified_on ?? '')) || 0;
    const ctime = ('created_on' in entry && Date.parse(entry.created_on ?? '')) || 0;
    if (entry.type === 'folder') return { type: vscode.FileType.Directory, size: 0, ctime, mtime, permissions: vscode.FilePermission.Readonly };
    // The file's size; its head's (what opens of it) for `?head`: an editor asks before opening a file it thinks large.
    const size = await this.guard(uri, () => this.files.sizeOf(uri.path, readFormOf(uri.query)));
    return { type: vscode.FileType.File, size, ctime, mtime, permissions: vscode.FilePermission.Readonly };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const records = await this.guard(uri, () => this.files.list(uri.path));
    return records.map((r) => [r.name, r.type === 'folder' ? vscode.FileType.Directory : vscode.FileType.File]);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.guard(uri, () => this.files.content(uri.path, readFormOf(uri.query)))).bytes;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyWords());
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyWords());
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyWords());
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyWords());
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async guard<T>(uri: vscode.Uri, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(error.message || uri);
      throw vscode.FileSystemError.Unavailable(describeError(error));
    }
  }
}
