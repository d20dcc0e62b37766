import * as vscode from 'vscode';
import type { Services } from '../services';
import type { discardUploadRun, resumeUploadRun } from './upload';
import type { discardDownloads, resumeDownloads } from './download';
import { later, type Later } from '../util/later';
import type { storageContentReader } from './preview';
import { requestLogger } from '../ui/requestLog';
import { RemoteFileSystem } from './fileSystem';
import type { writerFor } from './remoteWriter';
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
  writerFor: typeof writerFor;
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
  const fileSystem = new RemoteFileSystem(files, later(async () => (await load()).writerFor(services, files)));
  // Data Jobs' Resume and Discard of an upload run left unfinished.
  services.transfers.actions.upload = { resume: async (run) => (await load()).resumeUploadRun(services, run), discard: async (run) => (await load()).discardUploadRun(services, run) };
  services.transfers.actions.download = { resume: async (run) => (await load()).resumeDownloads(services, run), discard: async (run) => (await load()).discardDownloads(services, run) };
  services.context.subscriptions.push(
    fileSystem,
    vscode.workspace.registerFileSystemProvider(REMOTE_SCHEME, fileSystem, { isCaseSensitive: true }),
    session.onDidChange(() => files.forget()),
  );
  return { files, fileSystem };
}
