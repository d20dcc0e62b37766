// The write side of the `sevenbridges:` file system, loaded on its first use (dist/features.js): VS Code's writeFile,
// createDirectory, delete and rename on the platform through the write side's model (remoteWriter.ts), each change
// then said to the editor (open editors and the Explorer read it again) and to Projects & Files (by IDs), and each
// refusal said in the editor's words.
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { commandTitles } from '../keys/commands';
import type { JobTracker } from '../jobs/tracker';
import type { Services } from '../services';
import { NotFoundError, type RemoteFiles } from './remoteFiles';
import { formQuery, readFormOf } from './remotePath';
import { writerFor, type RemoteWriter } from './remoteWriter';
import { AlreadyThere, VersionChanged, WriteRefused } from './saveFile';

/** What the file system's writes say: changes to the editor, and the IDs they touched to Projects & Files. */
export interface WriteEvents {
  changed(events: vscode.FileChangeEvent[]): void;
  wrote(ids: string[]): void;
}

/** Why a form of a file that is not the file itself is not saved. */
export const notWholeWords = (): string =>
  vscode.l10n.t('Only part of this file is open (its first 1 MB, or a .gz decompressed): it cannot be saved as the file. Use "{0}" to open all of it, then save.', commandTitles().loadWholeFile);

export class FileSystemWrites {
  constructor(
    private readonly writer: RemoteWriter,
    private readonly events: WriteEvents,
  ) {}

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const whole = this.whole(uri);
    const { replaced, touched } = await this.guard(uri, () => this.writer.save(whole.path, content, options));
    this.events.wrote(touched);
    this.events.changed(replaced ? [{ type: vscode.FileChangeType.Changed, uri: whole }] : [{ type: vscode.FileChangeType.Created, uri: whole }, parentChanged(whole)]);
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    this.events.wrote(await this.guard(uri, () => this.writer.createDirectory(this.whole(uri).path)));
    this.events.changed([{ type: vscode.FileChangeType.Created, uri }, parentChanged(uri)]);
  }

  async delete(uri: vscode.Uri, options: { readonly recursive: boolean }): Promise<void> {
    this.events.wrote(await this.guard(uri, () => this.writer.delete(this.whole(uri).path, { recursive: options.recursive })));
    this.events.changed([{ type: vscode.FileChangeType.Deleted, uri: this.whole(uri) }, parentChanged(uri)]);
  }

  async rename(from: vscode.Uri, to: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    this.events.wrote(await this.guard(from, () => this.writer.rename(this.whole(from).path, this.whole(to).path, options)));
    this.events.changed([
      { type: vscode.FileChangeType.Deleted, uri: this.whole(from) },
      { type: vscode.FileChangeType.Created, uri: this.whole(to) },
      parentChanged(from),
      parentChanged(to),
    ]);
  }

  async copy(from: vscode.Uri, to: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    this.events.wrote(await this.guard(from, () => this.writer.copy(this.whole(from).path, this.whole(to).path, options)));
    this.events.changed([{ type: vscode.FileChangeType.Created, uri: this.whole(to) }, parentChanged(to)]);
  }

  /** The file itself: a form of it (`?head`, `?inflated`) is not saved as it. */
  private whole(uri: vscode.Uri): vscode.Uri {
    if (readFormOf(uri.query) !== 'file') throw vscode.FileSystemError.NoPermissions(notWholeWords());
    return uri.with({ query: formQuery('file') });
  }

  private async guard<T>(uri: vscode.Uri, act: () => Promise<T>): Promise<T> {
    try {
      return await act();
    } catch (error) {
      if (error instanceof vscode.FileSystemError) throw error;
      if (error instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(error.message || uri);
      if (error instanceof AlreadyThere) throw vscode.FileSystemError.FileExists(error.message);
      if (error instanceof WriteRefused || error instanceof VersionChanged) throw vscode.FileSystemError.NoPermissions(error.message);
      throw vscode.FileSystemError.Unavailable(describeError(error));
    }
  }
}

const parentChanged = (uri: vscode.Uri): vscode.FileChangeEvent => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.joinPath(uri, '..') });

/** The write side as the extension builds it (remote/register.ts asks for it on the first write). */
export function fileSystemWrites(services: Services, files: RemoteFiles, events: WriteEvents, tracker: Pick<JobTracker, 'settled'>): FileSystemWrites {
  return new FileSystemWrites(writerFor(services, files, tracker), events);
}
