// The `sevenbridges:` file system: the platform's files read-only in the editor (tabs, Compare, Copy Path, the
// breadcrumbs, a project added to the workspace). What it reads is the model's (remoteFiles.ts); this turns it into
// VS Code's file system calls, and refuses every write with a pointer to Upload. A file is its whole bytes (a copy or
// a drag out of a mounted project is the file); `?head` and `?inflated` are ways of opening it (remotePath.ts).
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { NotFoundError, sameVersion, type RemoteFiles } from './remoteFiles';
import type { FileSystemWrites, WriteEvents } from './fileSystemWrites';
import { readFormOf, REMOTE_SCHEME } from './remotePath';

/** A file's record is read again when the editor asks about it after this long: what it compares before a save. */
export const STAT_FRESH_MS = 2_000;

export class RemoteFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  /** What this window changed (a save, a new file or folder, a rename, a delete) and what it heard changed elsewhere. */
  readonly onDidChangeFile = this.changed.event;
  private readonly wrote = new vscode.EventEmitter<string[]>();
  /** The IDs of what this file system's writes changed, and of their folders (Projects & Files reads them again). */
  readonly onDidWrite = this.wrote.event;

  /** `writes`: the write side, loaded on the first write (fileSystemWrites.ts). */
  constructor(
    private readonly files: RemoteFiles,
    private readonly writes: (events: WriteEvents) => Promise<FileSystemWrites>,
  ) {}

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const form = readFormOf(uri.query);
    const entry = await this.guard(uri, () => (form === 'file' ? this.files.current(uri.path, STAT_FRESH_MS) : this.files.entry(uri.path)));
    const mtime = ('modified_on' in entry && Date.parse(entry.modified_on ?? '')) || 0;
    const ctime = ('created_on' in entry && Date.parse(entry.created_on ?? '')) || 0;
    // Per file: a project the caller may only read, and a form that is not the file itself, are read-only.
    const writable = form === 'file' && (await this.guard(uri, () => this.files.writable(uri.path)));
    const permissions = writable ? undefined : vscode.FilePermission.Readonly;
    if (entry.type === 'folder') return { type: vscode.FileType.Directory, size: 0, ctime, mtime, permissions };
    // The file's size; its head's (what opens of it) for `?head`: an editor asks before opening a file it thinks large.
    const size = await this.guard(uri, () => this.files.sizeOf(uri.path, form));
    return { type: vscode.FileType.File, size, ctime, mtime, permissions };
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

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    return (await this.writeSide()).writeFile(uri, content, options);
  }
  async createDirectory(uri: vscode.Uri): Promise<void> {
    return (await this.writeSide()).createDirectory(uri);
  }
  async delete(uri: vscode.Uri, options: { readonly recursive: boolean }): Promise<void> {
    return (await this.writeSide()).delete(uri, options);
  }
  async rename(from: vscode.Uri, to: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    return (await this.writeSide()).rename(from, to, options);
  }
  async copy(from: vscode.Uri, to: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    return (await this.writeSide()).copy(from, to, options);
  }

  /**
   * Files and folders changed elsewhere (Projects & Files, a job that ended), by ID: what was read of them and of what
   * is in them is forgotten, and their paths are said changed, so that open editors and the Explorer read them again.
   */
  async touched(ids: readonly string[]): Promise<void> {
    this.fire((await this.files.forgetHolding(ids)).map((path) => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.from({ scheme: REMOTE_SCHEME, path }) })));
  }

  /**
   * Whether an open file changed on the platform since it was read (the window took the focus again): its record is
   * read again, and another version (or none) is said changed, so an editor without changes reads it again.
   */
  async recheck(uri: vscode.Uri): Promise<boolean> {
    try {
      const { now, before } = await this.files.refresh(uri.path);
      if (!before || sameVersion(before, now)) return false;
    } catch (error) {
      if (!(error instanceof NotFoundError)) return false;
    }
    this.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    return true;
  }

  dispose(): void {
    this.changed.dispose();
    this.wrote.dispose();
  }

  private writeSide(): Promise<FileSystemWrites> {
    return this.writes({ changed: (events) => this.fire(events), wrote: (ids) => this.wrote.fire(ids) });
  }

  private fire(events: vscode.FileChangeEvent[]): void {
    if (events.length) this.changed.fire(events);
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
