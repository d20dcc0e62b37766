import * as vscode from 'vscode';
import type { JobTracker } from '../jobs/tracker';
import type { Services } from '../services';
import type { discardUploadRun, resumeUploadRun } from './upload';
import type { discardDownloads, resumeDownloads } from './download';
import { later, type Later } from '../util/later';
import type { storageContentReader } from './preview';
import { requestLogger } from '../ui/requestLog';
import { RemoteFileSystem } from './fileSystem';
import type { fileSystemWrites } from './fileSystemWrites';
import type { changedWhileOpen, ChangedWhileOpen } from './changedWhileOpen';
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
  changedWhileOpen: typeof changedWhileOpen;
}

/** The `sevenbridges:` file system; what it read is forgotten when the sign-in changes. */
export function registerRemote(services: Services, tracker: Pick<JobTracker, 'settled'>, load: Later<RemoteOnFirstUse>): RemoteParts {
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
  let watching: Promise<ChangedWhileOpen> | undefined;
  const fileSystem = new RemoteFileSystem(files, async (events) => (writes ??= (await load()).fileSystemWrites(services, files, events, tracker)));
  // Data Jobs' Resume and Discard of an upload run left unfinished.
  services.transfers.actions.upload = { resume: async (run) => (await load()).resumeUploadRun(services, run), discard: async (run) => (await load()).discardUploadRun(services, run) };
  services.transfers.actions.download = { resume: async (run) => (await load()).resumeDownloads(services, run), discard: async (run) => (await load()).discardDownloads(services, run) };
  services.context.subscriptions.push(
    fileSystem,
    vscode.workspace.registerFileSystemProvider(REMOTE_SCHEME, fileSystem, { isCaseSensitive: true }),
    session.onDidChange(() => files.forget()),
    // A file changed on the platform while open is noticed when the window takes the focus again (changedWhileOpen.ts).
    vscode.window.onDidChangeWindowState((state) => {
      if (!state.focused || !vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === REMOTE_SCHEME)) return;
      watching ??= load().then((loaded) => {
        const watch = loaded.changedWhileOpen(fileSystem);
        services.context.subscriptions.push(watch);
        return watch;
      });
      void watching.then((watch) => watch.recheck());
    }),
  );
  return { files, fileSystem };
}

