// Saving a file of the `sevenbridges:` file system (Save in the editor, a new file in a mounted project, a local file
// dropped there): the platform's file checked to be still the version the editor was shown, then the bytes uploaded
// (a file of the editor's is small: one part, rarely more) and the upload completed through the write path, as a new
// version (`?overwrite=true`, `file.save`) or a new file (`file.new`). Loaded on first use (dist/features.js). No
// `vscode`: the file system (fileSystem.ts) turns its refusals into the editor's errors.
import * as l10n from '@vscode/l10n';
import { Readable } from 'stream';
import type { FileLocation } from '../api/files';
import type { StorageClient } from '../api/storage';
import type { FileRecord } from '../api/types';
import type { UploadsApi } from '../api/uploads';
import { WRITE_KINDS } from '../keys/writes';
import { uploadPartSize, uploadParts } from '../transfer/partPlan';
import { isAFolder, notAFolder, notThere, NotFoundError, readOnlyProject, sameVersion, type RemoteEntry, type RemoteFiles } from './remoteFiles';
import { formatRemotePath, parentPath, parseRemotePath } from './remotePath';
import type { SavePayload } from './saveWrite';

/** A write the editor cannot make, in words (a read-only project, a folder in the way, a name the platform refuses). */
export class WriteRefused extends Error {}

/** A file or folder there already where a new one was to be made. */
export class AlreadyThere extends Error {}

/** A version of a file newer than the one the editor was shown: nothing is saved over it unseen. */
export class VersionChanged extends Error {}

export const alreadyThere = (path: string): string => l10n.t('{0} is there already.', path);

export interface SaveDeps {
  uploads: Pick<UploadsApi, 'init' | 'partTarget' | 'reportPart' | 'abort'>;
  storage: Pick<StorageClient, 'put'>;
  /** Sends the completion through the write path and waits for its outcome (rejects with words when it did not come). */
  complete(kind: typeof WRITE_KINDS.save | typeof WRITE_KINDS.newFile, payload: SavePayload): Promise<FileRecord>;
}

export interface SaveOptions {
  /** Make the file if it is not there. */
  create: boolean;
  /** Replace the file if it is there. */
  overwrite: boolean;
}

/** Where a file of a path goes: its folder's place as the platform's calls take it, and its name. */
export async function placeOf(files: RemoteFiles, path: string): Promise<{ destination: FileLocation; folderId: string; name: string; project: string }> {
  const place = parseRemotePath(path);
  const above = place && parentPath(place);
  if (!place || !above) throw new WriteRefused(l10n.t('{0} is a project, not a file or folder in one.', path));
  const folder = await files.entry(formatRemotePath(above));
  if (folder.type !== 'folder') throw new WriteRefused(notAFolder(folder.name));
  if (!(await files.writable(path))) throw new WriteRefused(readOnlyProject(place.project));
  return { destination: 'root' in folder ? { project: folder.project } : { parent: folder.id }, folderId: folder.id, name: place.names[place.names.length - 1], project: place.project };
}

/**
 * Saves `bytes` as the file at `path`: refused when the project is read only or a folder is there; a file there must
 * still be the version the editor was shown (what was read of it before: its ID, size and modification time), else
 * `VersionChanged` and nothing is sent. Returns the file made (its new version), whether it replaced one, and the
 * IDs of what it changed (the folder, the file replaced).
 */
export async function saveFile(files: RemoteFiles, deps: SaveDeps, path: string, bytes: Uint8Array, options: SaveOptions, signal?: AbortSignal): Promise<{ file: FileRecord; replaced: boolean; touched: string[] }> {
  const { destination, folderId, name } = await placeOf(files, path);
  let there: { now: RemoteEntry; before?: RemoteEntry } | undefined;
  try {
    there = await files.refresh(path);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  if (there?.now.type === 'folder') throw new WriteRefused(isAFolder(path));
  if (!there && !options.create) throw new NotFoundError(notThere(path));
  if (there && !options.overwrite) throw new AlreadyThere(alreadyThere(path));
  if (there?.before && !sameVersion(there.before, there.now)) throw new VersionChanged(changedWords(path));
  const record = await uploadBytes(deps, { destination, name, path, bytes, replace: !!there }, signal);
  files.saved(path, record, bytes);
  return { file: record, replaced: !!there, touched: [folderId, ...(there ? [there.now.id] : [])] };
}

export const changedWords = (path: string): string =>
  l10n.t('{0} was changed on the platform since it was opened: nothing was saved. Compare or reopen it, then save again.', path);

/**
 * Uploads bytes as a file of `destination`: begun (with overwrite when it replaces one), each part put and reported,
 * completed through the write path; a failure before the completion aborts the upload, so no half file is left.
 */
export async function uploadBytes(
  deps: SaveDeps,
  target: { destination: FileLocation; name: string; path: string; bytes: Uint8Array; replace: boolean },
  signal?: AbortSignal,
): Promise<FileRecord> {
  const { destination, name, bytes } = target;
  const size = bytes.byteLength;
  const upload = await deps.uploads.init({ destination, name, size, partSize: uploadPartSize(size), overwrite: target.replace }, { signal });
  try {
    for (const part of uploadParts(size, upload.part_size)) {
      const to = await deps.uploads.partTarget(upload.upload_id, part.number, { signal });
      const chunk = Buffer.from(bytes.buffer, bytes.byteOffset + part.start, part.end - part.start);
      const etag = await deps.storage.put(to.url, Readable.from(chunk.length ? [chunk] : []), chunk.length, { headers: to.headers, successCodes: to.successCodes, signal });
      await deps.uploads.reportPart(upload.upload_id, part.number, etag, { signal });
    }
  } catch (error) {
    await deps.uploads.abort(upload.upload_id).catch(() => undefined);
    throw error;
  }
  const payload: SavePayload = { uploadId: upload.upload_id, destination, name, size, initiated: upload.initiated, path: target.path };
  return deps.complete(target.replace ? WRITE_KINDS.save : WRITE_KINDS.newFile, payload);
}
