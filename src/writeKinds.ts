// Every kind of write the extension makes, in one table: the outbox loads it (main.ts; it is in dist/features.js), so a
// write left unfinished by a reload is sent on whatever feature made it, and no feature depends on a kind another one
// declares.
// A new kind is a row here, its name in keys/writes.ts (ARCHITECTURE.md, "A kind of write: one declaration").
import type { ApiBudget } from './api/budget';
import type { Clock, ServerClock } from './api/clock';
import type { AppsWriteApi } from './apps/appRevisionWrite';
import { appInstallWrite, appRevisionWrite } from './apps/appRevisionWrite';
import type { BulkFilesApi } from './api/bulkFiles';
import type { FilesApi } from './api/files';
import { copyWrite } from './copy/copyWrite';
import { asyncDeleteWrite, deleteWrite } from './files/deleteWrites';
import { metadataWrite } from './files/metadataWrite';
import { asyncMoveWrite, moveWrite } from './files/moveWrites';
import { renameWrite } from './files/renameWrite';
import { bulkTagsWrite, tagsWrite } from './files/tagsWrites';
import type { FileJobCalls, JobWriteTracker } from './jobs/jobWrite';
import { newFolderWrite } from './remote/newFolderWrite';
import { fileSaveWrite, newFileWrite } from './remote/saveWrite';
import { uploadCompleteWrite, type UploadWriteApi } from './remote/uploadWrite';
import { abortWrite, rerunWrite, runWrite, type TaskActionApi } from './tasks/actions';
import { rerunFailedWrite } from './tasks/rerunFailedWrite';
import { createTaskWrite, sheetTaskWrite, type CreateTaskApi } from './tasks/taskWrites';
import { saveDraftWrite, type SaveDraftApi } from './tasks/taskWrites';
import { volumeWrites, type VolumeJobWriting } from './volumes/volumeWrites';
import { later } from './util/later';
import type { WriteKind } from './write/kinds';

/** What the kinds call: the platform's client (or a test's stand-in for it). */
export interface WriteKindsClient {
  files: Pick<FilesApi, 'get' | 'list' | 'createFolder' | 'update' | 'setTags' | 'delete' | 'move' | 'metadata' | 'replaceMetadata'>;
  fileJobs: FileJobCalls;
  bulkFiles: Pick<BulkFilesApi, 'get' | 'edit'>;
  tasks: TaskActionApi & CreateTaskApi & SaveDraftApi;
  apps: AppsWriteApi;
  uploads: UploadWriteApi['uploads'];
  budget: Pick<ApiBudget, 'holdBulk'> & { serverClock: Pick<ServerClock, 'now' | 'estimate'> };
}

/** Without the volume calls (a test of other kinds): an import or export write fails, saying so. */
const noVolumeCalls = (): Promise<VolumeJobWriting> => Promise.reject(new Error('No volume calls were given to the write kinds.'));

/**
 * `volumes`: makes the import and export calls (main.ts), asked once, on first use: its snapshots of the jobs are
 * reused by the next calls for a while (volumes/volumeJobWrite.ts), so every call must get the same one.
 */
export function writeKinds(client: WriteKindsClient, tracker: JobWriteTracker, clock: Clock, volumes: () => Promise<VolumeJobWriting> = noVolumeCalls): WriteKind[] {
  const jobParts = { jobs: client.fileJobs, tracker, clock, serverNow: () => client.budget.serverClock.now(), budget: client.budget };
  // A task's clone is matched to its send on the platform's clock only once an answer has told it.
  const serverEstimate = () => client.budget.serverClock.estimate();
  return [
    copyWrite({ ...jobParts, files: client.files }),
    asyncMoveWrite(jobParts),
    asyncDeleteWrite(jobParts),
    abortWrite(client.tasks),
    runWrite(client.tasks),
    rerunWrite(client.tasks, clock, serverEstimate),
    rerunFailedWrite(client.tasks, client.budget, clock, serverEstimate),
    createTaskWrite(client.tasks, clock, serverEstimate),
    sheetTaskWrite(client.tasks, client.budget, clock, serverEstimate),
    saveDraftWrite(client.tasks),
    uploadCompleteWrite(client),
    fileSaveWrite(client),
    newFileWrite(client),
    newFolderWrite(client.files),
    renameWrite(client.files),
    tagsWrite(client.files),
    bulkTagsWrite(client.bulkFiles),
    metadataWrite(client.files),
    deleteWrite(client.files),
    moveWrite(client.files),
    appRevisionWrite(client.apps),
    appInstallWrite(client.apps),
    ...volumeWrites({ writing: later(volumes), budget: client.budget }),
  ];
}
