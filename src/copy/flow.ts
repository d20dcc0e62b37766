import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import type { CopyItem } from '../api/types';
import type { Services } from '../services';
import { showApiError } from '../ui/errors';
import type { CopySubmitter, PendingCopy, SubmissionReport } from '../jobs/submitter';
import { failedItems } from '../jobs/summary';
import type { JobDestination, TrackedJob } from '../jobs/tracker';
import { plural } from '../util/words';
import { askNewName, browseFolder, pickDestinationKind, pickProject, ProjectCache } from './pickers';
import { clampBatchSize, confirmationNotes, confirmationText, CopyDestination, describeDestination, planCopy, sourceProblems, checkSources, splitItems } from './request';

/** What a copy is made of, and what is known about it where it came from. */
export interface CopySources {
  ids: string[];
  /** Where the IDs came from, for the titles: "selected", "in the editor selection", … */
  origin: string;
  names?: Record<string, string>;
  /** The sources' projects, when known (files view, task outputs). */
  projects?: string[];
  /** Whether the IDs are known not to be root folders (they came from inside a project). */
  trusted?: boolean;
  /** Which IDs are folders, when the kinds are known (files view); a folder is copied with everything in it. */
  folders?: string[];
}

/** Optional arguments of the copy commands, for scripts and tests; the interactive path is the default. */
export interface CopyCommandArgs {
  ids?: string[];
  destination?: CopyDestination;
  /** A new name for a single item; '' keeps the name (and skips the question). */
  newName?: string;
  /** false skips the modal confirmation (scripts and tests). */
  confirm?: boolean;
}

export const SUBMIT_AGAIN = 'Submit Again';
export const CHECK_AGAIN = 'Check Again';
export const DISCARD = 'Discard';

/** The interactive copy: destination pickers, confirmation, submission and what to do when it fails. */
export class CopyFlow {
  constructor(
    private readonly services: Services,
    private readonly submitter: CopySubmitter,
    readonly projects: ProjectCache,
  ) {}

  /** Returns the jobs submitted (empty when cancelled, refused or failed). */
  async run(sources: CopySources, args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
    const roots = sources.trusted ? new Set<string>() : await this.projects.rootFolders();
    const check = checkSources(sources.ids, roots);
    const problems = sourceProblems(check);
    if (problems.length) {
      // A modal: its detail shows the whole reason (IDs and advice), which a notification would cut.
      void vscode.window.showErrorMessage('Nothing was copied.', { modal: true, detail: problems.join('\n\n') });
      return [];
    }
    if (!check.ids.length) {
      void vscode.window.showInformationMessage('There is nothing to copy: no file or folder IDs were given.');
      return [];
    }
    const ids = check.ids;
    const names = ids.every((id) => sources.names?.[id]) ? ids.map((id) => sources.names![id]) : undefined;
    const singleName = ids.length === 1 ? sources.names?.[ids[0]] : undefined;

    let destination = args.destination;
    if (!destination) {
      destination = await this.pickDestination(ids, sources);
      if (!destination) return [];
    }

    let newName = args.newName;
    if (newName === undefined && ids.length === 1 && !args.ids) {
      newName = await askNewName(singleName, describeDestination(destination));
      if (newName === undefined) return [];
    }

    const plan = planCopy({
      sources: ids,
      destination,
      newName,
      maxItemsPerRequest: vscode.workspace.getConfiguration('sevenbridges').get<number>('copy.maxItemsPerRequest'),
    });
    if (!plan.ok) {
      void vscode.window.showErrorMessage('Nothing was copied.', { modal: true, detail: plan.problems.join('\n\n') });
      return [];
    }
    const label = describeDestination(destination);
    if (args.confirm !== false) {
      const folders = sources.folders ? new Set(sources.folders.map((id) => id.toLowerCase())) : undefined;
      const notes = confirmationNotes({
        names,
        count: plan.items.length,
        folders: folders ? ids.filter((id) => folders.has(id)).length : undefined,
        duplicates: check.duplicates,
        batches: plan.batches.length,
        batchSize: clampBatchSize(plan.batches[0].length),
      });
      const answer = await vscode.window.showInformationMessage(
        confirmationText(plan.items.length, destination, { names, newName }),
        { modal: true, detail: notes.join('\n') },
        'Copy',
      );
      if (answer !== 'Copy') return [];
    } else if (check.duplicates) {
      void vscode.window.showInformationMessage(`${plural(check.duplicates, 'duplicate ID was', 'duplicate IDs were')} dropped.`);
    }
    return this.submit(plan.batches, { label, project: destination.project, parent: destination.kind === 'projectRoot' ? undefined : destination.folder }, sources.names);
  }

  /** Sends the calls with a progress notification, and handles a failure. */
  async submit(batches: CopyItem[][], destination: JobDestination, names?: Record<string, string>): Promise<TrackedJob[]> {
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Copying to ${destination.label}` },
      (progress) =>
        this.submitter.submitAll(batches, { destination, sourceNames: names }, (done, total) =>
          progress.report({ message: total > 1 ? `submitting request ${Math.min(done + 1, total)} of ${total}…` : 'submitting…' }),
        ),
    );
    return this.afterSubmission(report);
  }

  /** Sends a group's unsubmitted calls again, exactly as they were (checking first for ones that may have gone through). */
  async resubmit(group: string): Promise<TrackedJob[]> {
    const pending = this.submitter.group(group);
    if (!pending.length) return [];
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Copying to ${pending[0].destination.label}` },
      (progress) =>
        this.submitter.resubmit(group, (done, total) =>
          progress.report({ message: total > 1 ? `request ${Math.min(done + 1, total)} of ${total}…` : 'submitting again…' }),
        ),
    );
    return this.afterSubmission(report);
  }

  /** A new request made of a finished job's failed items only, to the same destination. */
  async retryFailed(job: TrackedJob, options: { confirm?: boolean } = {}): Promise<TrackedJob[]> {
    if (job.endpoint && job.endpoint !== this.services.session.endpoint) {
      void vscode.window.showInformationMessage(`Copy job ${job.id} ran on ${job.endpoint}: select that platform to copy its failed items again.`);
      return [];
    }
    const failed = failedItems(job);
    if (!failed.length) {
      void vscode.window.showInformationMessage('No item of this job failed.');
      return [];
    }
    if (options.confirm !== false) {
      const answer = await vscode.window.showInformationMessage(
        `Copy the ${plural(failed.length, 'failed item')} again to ${job.destination.label}?`,
        { modal: true, detail: 'A new request is made of the failed items only.' },
        'Copy',
      );
      if (answer !== 'Copy') return [];
    }
    const max = vscode.workspace.getConfiguration('sevenbridges').get<number>('copy.maxItemsPerRequest');
    return this.submit(splitItems(failed, max), job.destination, job.sourceNames);
  }

  private async pickDestination(ids: string[], sources: CopySources): Promise<CopyDestination | undefined> {
    let sourceProject = sources.projects && new Set(sources.projects).size === 1 ? sources.projects[0] : undefined;
    if (!sources.projects?.length) sourceProject = await this.projectOf(ids[0]);
    for (;;) {
      const kind = await pickDestinationKind(sourceProject, ids.length);
      if (!kind) return undefined;
      if (kind === 'sameProjectFolder') {
        const project = (await this.projects.all().catch(() => [])).find((p) => p.id === sourceProject) ?? { href: '', id: sourceProject!, name: sourceProject! };
        const result = await browseFolder(this.services.client, project, 'sameProjectFolder', { count: ids.length, exclude: new Set(ids) });
        if (result.back) continue;
        return result.destination;
      }
      for (;;) {
        const project = await pickProject(this.projects, {
          title: kind === 'projectRoot' ? 'Copy to the root of which project?' : 'Copy to a folder of which project?',
          // "Another project" either way: the sources' own project is the first choice's.
          exclude: sourceProject,
        });
        if (!project) break;
        if (kind === 'projectRoot') return { kind, project: project.id, rootFolder: project.root_folder };
        const result = await browseFolder(this.services.client, project, 'otherProjectFolder', { count: ids.length, exclude: new Set(ids) });
        if (result.back) continue;
        return result.destination;
      }
    }
  }

  /** The project of a file given by ID (one GET), so "a folder in the same project" can be offered. */
  private async projectOf(id: string): Promise<string | undefined> {
    try {
      return (await this.services.client.files.get(id)).project;
    } catch {
      return undefined;
    }
  }

  private async afterSubmission(report: SubmissionReport): Promise<TrackedJob[]> {
    if (report.submitted.length && !report.failed) {
      const adopted = report.submitted.filter((j) => j.adopted).length;
      const text = report.submitted.length === 1 ? `Copy job ${report.submitted[0].id} submitted` : `${report.submitted.length} copy jobs submitted`;
      vscode.window.setStatusBarMessage(`$(check) ${text}${adopted ? ` (${adopted} found on the platform after a lost answer)` : ''}`, 5_000);
    }
    if (report.failed) void this.explainFailure(report);
    else if (!report.submitted.length) {
      void vscode.window.showInformationMessage('Nothing was sent: the copy was already submitted, found or discarded, or is being submitted in another window.');
    }
    return report.submitted;
  }

  /**
   * Tells the user that a call failed and what happens now. A call that may have reached the platform is
   * looked for first; "Submit Again" is offered only once the platform's job list shows it did not.
   */
  private async explainFailure(report: SubmissionReport): Promise<void> {
    const failed = report.failed!;
    const { pending, error } = failed;
    const label = pending.destination.label;
    const rest = report.notSent.length ? ` ${plural(report.notSent.length, 'further request was', 'further requests were')} not sent.` : '';
    const done = report.submitted.length ? `${plural(report.submitted.length, 'request was', 'requests were')} submitted; ` : '';
    const group = report.group;

    if (!failed.maybeDelivered) {
      await showApiError(
        `${done}the copy to ${label} (${plural(pending.items.length, 'item')}) was not submitted${rest ? ` and${rest.toLowerCase()}` : ''}`,
        error,
        { title: SUBMIT_AGAIN, run: () => this.resubmit(group) },
        { title: DISCARD, run: () => this.submitter.discardGroup(group) },
      );
      return;
    }
    await this.checkDelivered(pending, group, `${done}the copy to ${label} (${plural(pending.items.length, 'item')}) may have been submitted: ${describeError(error)}${rest}`);
  }

  /** Looks for the job of a call that may have been delivered; adopts it if found, else offers to send it again. */
  async checkDelivered(pending: PendingCopy, group: string, prefix: string): Promise<void> {
    let outcome: Awaited<ReturnType<CopySubmitter['findDelivered']>>;
    try {
      outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Checking whether the copy reached the platform…' },
        () => this.submitter.findDelivered(pending),
      );
    } catch (checkError) {
      const chosen = await vscode.window.showWarningMessage(
        `${capitalize(prefix)} Could not check the platform's copy jobs (${describeError(checkError)}); it is kept until it can be checked.`,
        CHECK_AGAIN,
        DISCARD,
      );
      if (chosen === CHECK_AGAIN) return this.checkDelivered(pending, group, prefix);
      if (chosen === DISCARD) await this.submitter.discardGroup(group);
      return;
    }
    if (outcome.kind === 'found') {
      const job = await this.submitter.adopt(pending, outcome.job);
      if (!job) {
        void vscode.window.showInformationMessage(`The copy to ${pending.destination.label} was already submitted, found or discarded in another window.`);
        return;
      }
      const remaining = this.submitter.group(group);
      if (remaining.length) {
        const chosen = await vscode.window.showInformationMessage(
          `The copy had reached the platform: following job ${job.id}. ${plural(remaining.length, 'request', 'requests')} of this copy ${remaining.length === 1 ? 'was' : 'were'} not sent.`,
          SUBMIT_AGAIN,
          DISCARD,
        );
        if (chosen === SUBMIT_AGAIN) await this.resubmit(group);
        else if (chosen === DISCARD) await this.submitter.discardGroup(group);
      } else {
        void vscode.window.showInformationMessage(`The copy had reached the platform: following job ${job.id}.`);
      }
      return;
    }
    if (outcome.kind === 'ambiguous') {
      const chosen = await vscode.window.showWarningMessage(
        `${capitalize(prefix)} ${outcome.candidates.length} copy jobs started since, and any may be this one (${outcome.candidates.join(', ')}). Submitting again may copy twice.`,
        { modal: false },
        'Submit Anyway',
        DISCARD,
      );
      if (chosen === 'Submit Anyway') {
        await this.submitter.markNotDelivered(pending.key);
        await this.resubmit(group);
      } else if (chosen === DISCARD) await this.submitter.discardGroup(group);
      return;
    }
    const chosen = await vscode.window.showWarningMessage(
      `${capitalize(prefix)} No new copy job was found on the platform, so it was not received.`,
      SUBMIT_AGAIN,
      DISCARD,
    );
    if (chosen === SUBMIT_AGAIN) await this.resubmit(group);
    else if (chosen === DISCARD) await this.submitter.discardGroup(group);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
