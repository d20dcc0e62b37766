// The upload engine as its callers see it: `plan` (the local files and folders), `run` (upload.ts's UploadRun), and
// what earlier runs left: listed, planned again to resume, or discarded (their uploads aborted on the platform).
// No `vscode`. See README.md.
import { ApiError } from '../api/errors';
import type { FileLocation } from '../api/files';
import { listLocal } from './localTree';
import type { UploadResume, UploadRunResume } from './resumeState';
import { resumeId } from './fileUploads';
import { UploadRun, type UploaderDeps, type UploadPlan, type UploadRequest, type UploadRunOptions, type UploadSummary } from './upload';

export class Uploader {
  constructor(private readonly deps: UploaderDeps) {}

  /** Lists the local files and folders; moves no byte. */
  async plan(request: UploadRequest): Promise<UploadPlan> {
    const tree = await listLocal(request.sources);
    return { destination: request.destination, ifExists: request.ifExists, ...tree, bytes: tree.files.reduce((n, f) => n + f.size, 0) };
  }

  /** Creates the folders, then uploads the files. Never throws for one file: its failure is in the summary. */
  run(plan: UploadPlan, options: UploadRunOptions = {}): Promise<UploadSummary> {
    return new UploadRun(this.deps, plan, options).run();
  }

  /** Uploads of this account left by earlier runs (a fault, a reload) that no run has resumed. */
  leftOver(): UploadResume[] {
    return this.deps.resume.all();
  }

  /** Aborts a left-over upload on the platform and forgets it (already gone there: forgotten all the same). */
  async discard(record: UploadResume, signal?: AbortSignal): Promise<void> {
    try {
      await this.deps.uploads.abort(record.uploadId, { signal });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
    await this.deps.resume.set(resumeId(record.localPath, record.destination, record.name), undefined);
  }

  /** Runs of this account left unfinished (a reload, a fault), what each has left. */
  runsLeft(): UploadRunResume[] {
    return this.deps.runs?.all() ?? [];
  }

  /** The plan of what a run left: its files not completed, to the same place, with the same choice. */
  planOf(run: UploadRunResume): UploadPlan {
    return { destination: run.destination, ifExists: run.ifExists, folders: run.folders, files: run.files, links: [], refused: [], bytes: run.files.reduce((n, f) => n + f.size, 0) };
  }

  /**
   * Discards a run left unfinished: every upload begun for its files is aborted on the platform (nothing half made
   * is left), then the run is forgotten. Resolves with the uploads aborted.
   */
  async discardRun(run: UploadRunResume, signal?: AbortSignal): Promise<number> {
    const paths = new Set(run.files.map((f) => f.localPath));
    const records = this.leftOver();
    const begun = records.filter((r) => paths.has(r.localPath) && sameLocation(r.destination, run.destination));
    for (const record of begun) await this.discard(record, signal);
    // An upload of the run's whose record global state lost (see UploadRunOptions.adoptLeftOver): the platform's
    // upload of a file's name, size and place (a file at the top of the destination) that no record claims.
    const claimed = new Set(records.map((r) => r.uploadId));
    const top = run.files.filter((f) => !f.relativePath.includes('/') && !begun.some((r) => r.localPath === f.localPath));
    let found = 0;
    if (top.length) {
      const where = run.destination;
      const page = await this.deps.uploads.list({ signal });
      for (const upload of page.items) {
        const place = 'parent' in where ? upload.parent === where.parent : upload.project === where.project;
        if (!place || claimed.has(upload.upload_id) || !top.some((f) => f.relativePath === upload.name && f.size === upload.size)) continue;
        await this.deps.uploads.abort(upload.upload_id, { signal }).catch(() => undefined);
        found++;
      }
    }
    await this.deps.runs?.set(run.runId, undefined);
    return begun.length + found;
  }
}

function sameLocation(a: FileLocation, b: FileLocation): boolean {
  return ('project' in a ? `p:${a.project}` : `f:${a.parent}`) === ('project' in b ? `p:${b.project}` : `f:${b.parent}`);
}
