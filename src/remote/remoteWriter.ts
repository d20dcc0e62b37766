// The write side of the `sevenbridges:` file system: what Save, New File, New Folder, Rename, Delete and a drag in the
// Explorer of a mounted project do, each through its kind of write (src/writeKinds.ts), exactly once, after checking
// what the platform would refuse (a read-only project, a root folder, a name, a clash), so that nothing is half done.
// Loaded on first use (dist/features.js). No `vscode`: fileSystem.ts turns its refusals into the editor's errors.
import * as l10n from '@vscode/l10n';
import { nameProblem } from '../api/fileRules';
import type { AsyncJob, FileRecord } from '../api/types';
import { itemErrorWords, notCopiedWords } from '../jobs/summary';
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
  /** `recursive`: a folder goes with what is in it (else one with files in it is refused). */
  delete(path: string, options: { recursive: boolean }): Promise<string[]>;
  rename(from: string, to: string, options: { overwrite: boolean }): Promise<string[]>;
  copy(from: string, to: string, options: { overwrite: boolean }): Promise<string[]>;
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

    async delete(path, options) {
      const { entry, place } = await changeable(path);
      if (entry.type === 'folder' && (await files.list(path)).length) {
        // Not asked to take what is in it (the Explorer asks the person, then asks so): refused, as any file system does.
        if (!options.recursive) throw new WriteRefused(l10n.t('{0} is a folder with files in it.', path));
        // A folder with files in it goes by the asynchronous delete, a job of Data Jobs, followed here to its end.
        const job = await deps.send<AsyncJob>(WRITE_KINDS.asyncDelete, { items: [{ file: entry.id }], names: { [entry.id]: entry.name }, where: { label: path, project: place.project } });
        const result = (await deps.settled(job.id))?.result?.[0];
        files.drop(path);
        if (result?.error && result.error.status !== 404) throw new WriteRefused(l10n.t('{0} was not deleted: {1}', path, result.error.message ?? itemErrorWords(result.error)));
        return [entry.id, place.folderId];
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
        throw new WriteRefused(l10n.t('{0} and {1} are in different projects, and the platform moves only within a project: copy it instead (Copy and Paste in the Explorer, or Copy To… in Projects & Files).', from, to));
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

    async copy(from, to, options) {
      // Copy and paste, or a drag with Ctrl, in the Explorer: the platform copies (a folder with what is in it, into any
      // project the person may change), by the async copy, a job of Data Jobs followed here to its end. No byte
      // passes through this machine.
      const source = await there(from);
      if (!source) throw new NotFoundError(notThere(from));
      if ('root' in source) throw new WriteRefused(projectRoot(from));
      const target = await placeOf(files, to);
      checkedName(target.name, source.type === 'folder' ? 'folder' : 'file');
      if (await there(to)) {
        throw options.overwrite ? new WriteRefused(l10n.t('{0} is there already: the platform does not replace a file by a copy. Delete it first.', to)) : new AlreadyThere(alreadyThere(to));
      }
      const item = { file: source.id, ...target.destination, ...(source.name !== target.name ? { name: target.name } : {}) };
      const destination = { label: to, project: target.project, ...('parent' in target.destination ? { parent: target.destination.parent } : {}) };
      const job = await deps.send<AsyncJob>(WRITE_KINDS.copy, { items: [item], destination, sourceNames: { [source.id]: source.name } });
      const result = (await deps.settled(job.id))?.result?.[0];
      files.drop(to);
      if (result?.error) throw new WriteRefused(notCopiedWords(from, result.error.message ?? itemErrorWords(result.error)));
      return [...(result?.resource ? [result.resource.id] : []), target.folderId];
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
