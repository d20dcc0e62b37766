// Edit Metadata…: a file's metadata as a JSON document (`sevenbridges-metadata:/<name>.metadata.json?<id>`: its tab and
// breadcrumbs say the file's name, the ID rides in the query; a tab of an older version, `/<id>/<name>…`, still reads). Opening
// reads it from the platform; saving checks it (JSON, text values, the platform's limits) and sends the whole set
// through the write path (files/metadataWrite.ts). A save that is refused keeps the editor's text.
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { Services } from '../services';
import { WRITE_KINDS } from '../keys/writes';
import { waitsForPerson } from '../write/outbox';
import { notTaken, signInToChange } from './managedItems';
import { parseMetadata, type MetadataPayload } from './metadataWrite';
import type { FileRef } from './targets';

export const METADATA_SCHEME = 'sevenbridges-metadata';

/** The document of a file's metadata. */
export function metadataUri(file: { id: string; name?: string }): vscode.Uri {
  return vscode.Uri.from({ scheme: METADATA_SCHEME, path: `/${(file.name ?? file.id).replace(/\//g, '_')}.metadata.json`, query: file.id });
}

const idOf = (uri: vscode.Uri): string => uri.query || (uri.path.split('/')[1] ?? '');
const nameOf = (uri: vscode.Uri): string => (uri.path.split('/').pop() ?? '').replace(/\.metadata\.json$/, '');

export class MetadataDocuments implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Each file's metadata as last read (or saved): the value before a save, which its write compares after a lost answer. */
  private readonly read = new Map<string, Record<string, unknown>>();

  constructor(private readonly services: Services) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(): vscode.FileStat {
    return { type: vscode.FileType.File, ctime: 0, mtime: this.services.clock.now(), size: 0 };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    try {
      const metadata = await this.services.client.files.metadata(idOf(uri));
      this.read.set(idOf(uri), metadata);
      return new TextEncoder().encode(`${JSON.stringify(metadata, null, 2)}\n`);
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(describeError(error));
    }
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const parsed = parseMetadata(new TextDecoder().decode(content));
    // Refused before anything is sent: the editor keeps the text, VS Code shows why.
    if ('problem' in parsed) throw vscode.FileSystemError.NoPermissions(parsed.problem);
    const account = await this.services.account();
    if (!account) throw vscode.FileSystemError.Unavailable(signInToChange());
    const payload: MetadataPayload = { id: idOf(uri), name: nameOf(uri), metadata: parsed.metadata, before: this.read.get(idOf(uri)) };
    const { finished, left } = await this.services.outbox.send(WRITE_KINDS.metadata, [payload], account);
    if (!finished.length) {
      const refused = left.find(waitsForPerson);
      // Still being checked: it is in the Data Jobs view; the save stands (it is not sent again blind).
      if (refused) throw vscode.FileSystemError.NoPermissions(refused.note ?? notTaken());
    }
    this.read.set(payload.id, parsed.metadata);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
}

/** Serves the metadata documents. */
export function registerMetadataDocuments(services: Services): vscode.Disposable {
  return vscode.workspace.registerFileSystemProvider(METADATA_SCHEME, new MetadataDocuments(services), { isCaseSensitive: true });
}

/** Edit Metadata…: opens the file's metadata as JSON; saving sends it. */
export async function editMetadata(file: FileRef): Promise<void> {
  if (file.folder) throw new Error(vscode.l10n.t('Folders have no metadata: choose a file.'));
  const document = await vscode.workspace.openTextDocument(metadataUri(file));
  await vscode.languages.setTextDocumentLanguage(document, 'json');
  // Opened to be edited: a tab that stays, not a preview the next click replaces.
  await vscode.window.showTextDocument(document, { preview: false });
}
