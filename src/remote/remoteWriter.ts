// The write side of the `sevenbridges:` file system: what Save, New File, New Folder, Rename, Delete and a drag in the
// Explorer of a mounted project do, each through its kind of write (src/writeKinds.ts), exactly once, after checking
// what the platform would refuse (a read-only project, a root folder, a name, a clash), so that nothing is half done.
// Loaded on first use (dist/features.js). No `vscode`: fileSystem.ts turns its refusals into the editor's errors.
import * as l10n from '@vscode/l10n';
import { nameProblem } from '../api/fileRules';
import type { AsyncJob, FileRecord } from '../api/types';
import { itemErrorWords } from '../jobs/summary';
import type { JobTracker, TrackedJob } from '../jobs/tracker';
import { WRITE_KINDS, type WriteKindName } from '../keys/writes';
import { StorageClient } from '../api/storage';
import type { Services } from '../services';
import { requestLogger } from '../ui/requestLog';
import { notThere, NotFoundError, signInToChange, type RemoteEntry, type RemoteFiles } from './remoteFiles';
import { LOOKUP_WAIT_MS, outcomeOf } from './uploadWrite';
import { parseRemotePath } from './remotePath';
import { alreadyThere, AlreadyThere, placeOf, saveFile, WriteRefused, type SaveDeps, type SaveOptions } from './saveFile';

/** What the file system asks of its write side (fileSystem.ts); each says the IDs of what it changed, and of the folders. */
export interface RemoteWriter {
  save(path: string, bytes: Uint8Array, options: SaveOptions): Promise<{ file: FileRecord; replaced: boolean; touched: string[] }>;
  createDirectory(path: string): Promise<string[]>;
  delete(path: string): Promise<string[]>;
  rename(from: string, to: string, options: { overwrite: boolean }): Promise<string[]>;
}

export interface RemoteWriterDeps extends Omit<SaveDeps, 'complete'> {
  /** Sends one write through the outbox and waits for its outcome; rejects with words when it did not come. */
  send<R>(kind: WriteKindName, payload: unknown): Promise<R>;
  /** An async file job (a folder's move) followed to its end, as Data Jobs follows it (the tracker's `settled`). */
  settled(jobId: string): Promise<Pick<TrackedJob, 'state' | 'result'> | undefined>;
}

const projectRoot = (path: string): string => l10n.t('{0} is a project\'s root folder: it cannot be deleted, renamed or moved.', path);

export function remoteWriter(files: RemoteFiles, deps: RemoteWriterDeps): RemoteWriter {
  const complete: SaveDeps['complete'] = (kind, payload) => deps.send<FileRecord>(kind, payload);
  /** The record at a path as the platform has it now, or undefined. */
  const there = async (path: string): Promise<RemoteEntry | undefined> => {
    try {
      return (await files.refresh(path)).now;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
  const checkedName = (name: string, type: 'file' | 'folder') => {
    const problem = nameProblem(name, type);
    if (problem) throw new WriteRefused(problem);
  };
  /** The file or folder at `path`, one the person may change (not a project's root, in a writable project). */
  const changeable = async (path: string): Promise<{ entry: RemoteEntry; place: Awaited<ReturnType<typeof placeOf>> }> => {
    const place = await placeOf(files, path);
    const entry = await there(path);
    if (!entry) throw new NotFoundError(notThere(path));
    if ('root' in entry) throw new WriteRefused(projectRoot(path));
    return { entry, place };
  };

  return {
    async save(path, bytes, options) {
      checkedName(parseRemotePath(path)?.names.slice(-1)[0] ?? '', 'file');
      return saveFile(files, { ...deps, complete }, path, bytes, options);
    },

    async createDirectory(path) {
      const { destination, folderId, name } = await placeOf(files, path);
      checkedName(name, 'folder');
      if (await there(path)) throw new AlreadyThere(alreadyThere(path));
      await deps.send(WRITE_KINDS.newFolder, { name, where: destination, label: path });
      files.drop(path);
      return [folderId];
    },

    async delete(path) {
      const { entry, place } = await changeable(path);
      // A folder with files in it goes by the asynchronous delete, a job of Data Jobs: Delete… in Projects & Files.
      if (entry.type === 'folder' && (await files.list(path)).length) {
        throw new WriteRefused(l10n.t('{0} is a folder with files in it: delete it from Projects & Files (Delete…), which follows the job in Data Jobs.', path));
      }
      await deps.send(WRITE_KINDS.delete, { id: entry.id, name: entry.name });
      files.drop(path);
      return [entry.id, place.folderId];
    },

    async rename(from, to, options) {
      const source = await changeable(from);
      const target = await placeOf(files, to);
      checkedName(target.name, source.entry.type === 'folder' ? 'folder' : 'file');
      if (target.project !== source.place.project) {
        throw new WriteRefused(l10n.t('{0} and {1} are in different projects: copy between projects with Copy To… in Projects & Files.', from, to));
      }
      if (await there(to)) {
        throw options.overwrite
          ? new WriteRefused(l10n.t('{0} is there already: the platform does not replace a file by a move or a rename. Delete it first.', to))
          : new AlreadyThere(alreadyThere(to));
      }
      const entry = source.entry as FileRecord;
      const sameFolder = JSON.stringify(source.place.destination) === JSON.stringify(target.destination);
      const renamed = entry.name !== target.name;
      if (!sameFolder && entry.type === 'folder') {
        // A folder moves by the asynchronous move, a job of Data Jobs, followed here to its end: it is made anew there (a new ID).
        const item = { file: entry.id, ...target.destination, ...(renamed ? { name: target.name } : {}) };
        const job = await deps.send<AsyncJob>(WRITE_KINDS.asyncMove, { items: [item], destination: { label: to, project: target.project, ...('parent' in target.destination ? { parent: target.destination.parent } : {}) }, sourceNames: { [entry.id]: entry.name } });
        const result = (await deps.settled(job.id))?.result?.[0];
        files.drop(from);
        files.drop(to);
        if (result?.error) throw new WriteRefused(l10n.t('{0} was not moved: {1}', from, result.error.message ?? itemErrorWords(result.error)));
        return [entry.id, ...(result?.resource ? [result.resource.id] : []), source.place.folderId, target.folderId];
      }
      if (!sameFolder) {
        // Moved and renamed by one call (the move takes the new name, files/moveWrites.ts): never moved and left with its old name.
        await deps.send(WRITE_KINDS.move, { id: entry.id, name: entry.name, from: entry.parent, to: target.folderId, label: to, ...(renamed ? { newName: target.name } : {}) });
      } else if (renamed) {
        await deps.send(WRITE_KINDS.rename, { id: entry.id, name: target.name, oldName: entry.name });
      }
      files.drop(from);
      files.drop(to);
      return [entry.id, source.place.folderId, target.folderId];
    },
  };
}

/**
 * The write side as the extension builds it: the client's uploads, a storage client for the parts, and each write
 * sent as the account in use and waited for through every wait (30 s at most; a lost answer is looked up meanwhile,
 * never sent again).
 */
export function writerFor(services: Services, files: RemoteFiles, tracker: Pick<JobTracker, 'settled'>): RemoteWriter {
  const notAnswered = () => l10n.t('The platform has not answered yet: the change is being checked (see the Data Jobs view).');
  return remoteWriter(files, {
    uploads: services.client.uploads,
    storage: new StorageClient({ onRequest: requestLogger(services.log), clock: services.clock }),
    async send<R>(kind: WriteKindName, payload: unknown): Promise<R> {
      const account = await services.account();
      if (!account) throw new WriteRefused(signInToChange());
      return outcomeOf(await services.outbox.send<R>(kind, [payload], account, { until: 'end', atMostMs: LOOKUP_WAIT_MS }), notAnswered);
    },
    settled: async (jobId) => (await tracker.settled([jobId]))[0],
  });
}
