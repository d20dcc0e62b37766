// Opening a platform file in the editor: text (and `.gz` text) in a read-only tab, its first 1 MB when larger with
// Load Whole File; an image in the image preview; a binary file (by its name, or by its first bytes) said in words
// with Download….
import * as vscode from 'vscode';
import { commandTitles, COMMANDS } from '../keys/commands';
import { formatSize } from '../util/words';
import { ASK_BEYOND_BYTES, asksBeforeWhole, binaryWhat, fileKind, seemsBinary, shownName } from './fileKinds';
import { contributedLanguages, languageByName } from './innerLanguage';
import { formQuery, formatRemotePath, readFormOf, REMOTE_SCHEME, type ReadForm, type RemotePath } from './remotePath';
import type { RemoteFiles } from './remoteFiles';
import type { RemoteFileSystem } from './fileSystem';

export interface RemoteParts {
  readonly files: RemoteFiles;
  /** The file system: what a change made elsewhere touched is told to it (`touched`), so editors and the Explorer agree. */
  readonly fileSystem?: RemoteFileSystem;
}

/** How long a click on a binary file's row says what it is in the status bar. */
const BINARY_NOTE_MS = 8_000;

export const remoteUri = (path: RemotePath, form: ReadForm = 'file'): vscode.Uri => vscode.Uri.from({ scheme: REMOTE_SCHEME, path: formatRemotePath(path), query: formQuery(form) });

/**
 * Opens the file at `path` as its kind wants; `download` is what Download… runs for a binary file. `fromRow`: a click
 * on a row opens it as the Explorer does, in a preview tab with the focus kept in the tree. Text opens as the file
 * (`sevenbridges:/…`), or by its first 1 MB when larger (`…?head`, with Load Whole File); a `.gz` as its text. Returns
 * the URI opened.
 */
export async function openRemote(parts: RemoteParts, path: RemotePath, download: () => unknown, fromRow = false): Promise<vscode.Uri> {
  const uri = remoteUri(path);
  const entry = await parts.files.entry(uri.path);
  const name = entry.name;
  const kind = fileKind(name);
  if (entry.type === 'folder') {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is a folder: open its files one by one, or add its project to the workspace.', name));
    return uri;
  }
  const size = entry.size;
  if (kind === 'image') {
    await vscode.commands.executeCommand('vscode.open', uri, { preview: true, preserveFocus: fromRow });
    return uri;
  }
  if (kind === 'binary') {
    await tellBinary(name, size, download, fromRow);
    return uri;
  }
  const opened = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Opening {0}…', name) }, async () => {
    // Its start first: a file binary by its bytes (a kind its name does not tell) is said in words as one by its name.
    const head = await parts.files.content(uri.path, 'head');
    if (seemsBinary(head.bytes)) return undefined;
    const shown = remoteUri(path, head.partial ? 'head' : kind === 'gzipText' ? 'inflated' : 'file');
    return { head, doc: await inInnerLanguage(await vscode.workspace.openTextDocument(shown), name) };
  });
  if (!opened) {
    await tellBinary(name, size, download, fromRow);
    return uri;
  }
  await vscode.window.showTextDocument(opened.doc, { preview: true, preserveFocus: fromRow });
  if (opened.head.partial) {
    const load = commandTitles().loadWholeFile;
    const shown = formatSize(opened.head.bytes.length)!;
    const words = size === undefined ? vscode.l10n.t('{0}: showing its first {1}.', name, shown) : vscode.l10n.t('{0}: showing the first {1} of {2}.', name, shown, formatSize(size)!);
    void vscode.window.showInformationMessage(words, load).then((chosen) => {
      if (chosen === load) void vscode.commands.executeCommand(COMMANDS.loadWholeFile, opened.doc.uri);
    });
  }
  return opened.doc.uri;
}

/**
 * A binary file in words. A click on its row is as often a selection (several files to copy or download): said in
 * the status bar, no notification to answer. Asked for by the command, the notification offers Download….
 */
async function tellBinary(name: string, size: number | undefined, download: () => unknown, fromRow: boolean): Promise<void> {
  const what = size === undefined ? binaryWhat(name) : vscode.l10n.t('{0}, {1}', binaryWhat(name), formatSize(size)!);
  if (fromRow) {
    vscode.window.setStatusBarMessage(vscode.l10n.t({ message: '{0}: {1}, not text; use Download…', args: [name, what], comment: ['In the status bar (short): {1} is "a BAM index, 3.0 MB"'] }), BINARY_NOTE_MS);
    return;
  }
  const button = commandTitles().downloadFiles;
  const chosen = await vscode.window.showInformationMessage(vscode.l10n.t('{0} is {1}: it does not open as text. Download it to open it with the tools for it.', name, what), button);
  if (chosen === button) await download();
}

/**
 * Load Whole File: the file given, else the one in the active editor, opened whole (`…?head` → the file; a `.gz` →
 * its whole text), asking first beyond 50 MB (a `.gz`: of text, found by decompressing that far).
 */
export async function loadWholeFile(parts: RemoteParts, given?: unknown, options: { confirm?: unknown } = {}): Promise<vscode.TextDocument | undefined> {
  const uri = given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== REMOTE_SCHEME) return void vscode.window.showInformationMessage(vscode.l10n.t('Load Whole File: open a file of Seven Bridges first.'));
  if (readFormOf(uri.query) !== 'head') {
    vscode.window.setStatusBarMessage(vscode.l10n.t('The whole file is already open.'), 3_000);
    return vscode.workspace.openTextDocument(uri);
  }
  const entry = await parts.files.entry(uri.path);
  const gzip = fileKind(entry.name) === 'gzipText';
  if (options.confirm !== false) {
    const large = gzip
      ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading how large {0} is decompressed…', entry.name) }, () =>
          parts.files.inflatesBeyond(uri.path, ASK_BEYOND_BYTES),
        )
      : asksBeforeWhole(entry.size);
    if (large && !(await confirmWhole(entry.name, entry.size, gzip))) return undefined;
  }
  const doc = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Loading the whole of {0}…', entry.name) }, async () =>
    inInnerLanguage(await vscode.workspace.openTextDocument(uri.with({ query: formQuery(gzip ? 'inflated' : 'file') })), entry.name),
  );
  await vscode.window.showTextDocument(doc, { preview: true });
  return doc;
}

/** Whether to load a large file whole: its size, or a `.gz`'s text beyond 50 MB (and its compressed size). */
async function confirmWhole(name: string, size: number | undefined, gzip: boolean): Promise<boolean> {
  const detail = gzip
    ? size === undefined
      ? vscode.l10n.t('It decompresses to more than {0}: the editor holds all of it in memory. To work with a file this large, Download… it instead.', formatSize(ASK_BEYOND_BYTES)!)
      : vscode.l10n.t('It decompresses to more than {0} ({1} compressed): the editor holds all of it in memory. To work with a file this large, Download… it instead.', formatSize(ASK_BEYOND_BYTES)!, formatSize(size)!)
    : vscode.l10n.t('It is {0}: the editor holds all of it in memory. To work with a file this large, Download… it instead.', formatSize(size)!);
  const button = gzip ? vscode.l10n.t('Load More Than {0}', formatSize(ASK_BEYOND_BYTES)!) : vscode.l10n.t('Load {0}', formatSize(size)!);
  return (await vscode.window.showWarningMessage(vscode.l10n.t('Load the whole of {0}?', name), { modal: true, detail }, button)) === button;
}

/** A decompressed `.gz` in its inner file's language (`calls.vcf.gz` as `calls.vcf`), when an extension knows it. */
async function inInnerLanguage(doc: vscode.TextDocument, name: string): Promise<vscode.TextDocument> {
  if (fileKind(name) !== 'gzipText') return doc;
  const id = languageByName(shownName(name), vscode.extensions.all.flatMap((e) => contributedLanguages(e.packageJSON)));
  return id && id !== doc.languageId ? vscode.languages.setTextDocumentLanguage(doc, id) : doc;
}
