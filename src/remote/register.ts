import * as vscode from 'vscode';
import type { Services } from '../services';
import type { discardUploadRun, resumeUploadRun } from './upload';
import type { discardDownloads, resumeDownloads } from './download';
import { later, type Later } from '../util/later';
import type { storageContentReader } from './preview';
import { requestLogger } from '../ui/requestLog';
import { RemoteFileSystem } from './fileSystem';
import type { fileSystemWrites } from './fileSystemWrites';
import type { RemoteParts } from './open';
import { REMOTE_SCHEME } from './remotePath';
import { RemoteFiles } from './remoteFiles';

/** What the transfers' Resume and Discard load on first use (dist/features.js): the transfer engines. */
export interface RemoteOnFirstUse {
  resumeUploadRun: typeof resumeUploadRun;
  discardUploadRun: typeof discardUploadRun;
  resumeDownloads: typeof resumeDownloads;
  discardDownloads: typeof discardDownloads;
  storageContentReader: typeof storageContentReader;
  fileSystemWrites: typeof fileSystemWrites;
}

/** The `sevenbridges:` file system; what it read is forgotten when the sign-in changes. */
export function registerRemote(services: Services, load: Later<RemoteOnFirstUse>): RemoteParts {
  const { client, session, projects } = services;
  const reader = later(async () => (await load()).storageContentReader({ onRequest: requestLogger(services.log), clock: services.clock }));
  const files = new RemoteFiles({
    list: (location, page) => client.files.list(location, page),
    get: (id, options) => client.files.get(id, options),
    project: async (id, signal) => (await projects.all().catch(() => [])).find((p) => p.id === id) ?? client.projects.get(id, signal),
    downloadInfo: (id, signal) => client.files.downloadInfo(id, signal),
    reader,
  }, {
    now: () => services.clock.monotonic(),
    onWalkStopped: (words) => {
      services.log.warn(words);
      void vscode.window.showWarningMessage(words);
    },
  });
  // The write side (Save, New File, New Folder, Rename, Delete in a mounted project) loads on its first use.
  let writes: ReturnType<typeof fileSystemWrites> | undefined;
  const fileSystem = new RemoteFileSystem(files, async (events) => (writes ??= (await load()).fileSystemWrites(services, files, events)));
  // Data Jobs' Resume and Discard of an upload run left unfinished.
  services.transfers.actions.upload = { resume: async (run) => (await load()).resumeUploadRun(services, run), discard: async (run) => (await load()).discardUploadRun(services, run) };
  services.transfers.actions.download = { resume: async (run) => (await load()).resumeDownloads(services, run), discard: async (run) => (await load()).discardDownloads(services, run) };
  services.context.subscriptions.push(
    fileSystem,
    vscode.workspace.registerFileSystemProvider(REMOTE_SCHEME, fileSystem, { isCaseSensitive: true }),
    session.onDidChange(() => files.forget()),
    ...noticeChanges(fileSystem),
  );
  return { files, fileSystem };
}

/**
 * A file changed on the platform while it is open is noticed when the window takes the focus again: an editor without
 * changes reads it again; one with changes keeps them, and its tab says the file changed (a save then asks: Compare,
 * Overwrite) until it is saved or closed.
 */
function noticeChanges(fileSystem: RemoteFileSystem): vscode.Disposable[] {
  const stale = new Set<string>();
  const redraw = new vscode.EventEmitter<vscode.Uri[]>();
  const settle = (uri: vscode.Uri) => stale.delete(uri.toString()) && redraw.fire([uri]);
  return [
    redraw,
    vscode.window.registerFileDecorationProvider({
      onDidChangeFileDecorations: redraw.event,
      provideFileDecoration: (uri) =>
        stale.has(uri.toString()) ? { badge: '!', tooltip: vscode.l10n.t('Changed on Seven Bridges since you opened it'), color: new vscode.ThemeColor('list.warningForeground') } : undefined,
    }),
    vscode.window.onDidChangeWindowState(async (state) => {
      if (!state.focused) return;
      for (const { document } of vscode.window.visibleTextEditors) {
        const uri = document.uri;
        if (uri.scheme !== REMOTE_SCHEME || uri.query || !(await fileSystem.recheck(uri)) || !document.isDirty) continue;
        stale.add(uri.toString());
        redraw.fire([uri]);
      }
    }),
    vscode.workspace.onDidSaveTextDocument((d) => settle(d.uri)),
    vscode.workspace.onDidCloseTextDocument((d) => settle(d.uri)),
  ];
}
