import * as vscode from 'vscode';
import type { CopyItem } from '../api/types';
import type { Services } from '../services';
import { showError } from '../ui/errors';
import { setting } from '../ui/settings';
import { describeError } from '../api/errors';
import { checkingNames, clashWords, lookupDestination, NAME_QUERIES, planClashes, type Arriving } from './clashes';
import { failedItems, noFailedItemsWords } from '../jobs/summary';
import type { JobDestination, JobTracker, TrackedJob } from '../jobs/tracker';
import { COMMANDS } from '../keys/commands';
import { USER_DECIDES, type Account, type WriteRecord, type WriteState } from '../write/outbox';
import type { CopyPayload } from '../jobs/copyRequests';
import { trackedJobs } from '../jobs/jobWrite';
import { WRITE_KINDS } from '../keys/writes';
import { checkedText, discardAction, showCopyJobsAction, submitAgainAction, submissionTellings } from './submissionWords';
import { count } from '../util/words';
import { askNewName, pickDestination } from './pickers';
import { clampBatchSize, confirmationNotes, confirmationText, type CopyDestination, describeDestination, duplicatesDropped, planCopy, sourceProblems, checkSources, splitItems } from './request';

const nothingCopied = (): string => vscode.l10n.t('Nothing was copied.');
const copyButton = (): string => vscode.l10n.t({ message: 'Copy', comment: ['A button: go ahead with the copy'] });

/** Said when a copy is asked for while signed out (the command palette, a drop). */
export const signInToCopy = (): string => vscode.l10n.t('Sign in to copy files: set an authentication token first.');

/** What a copy is made of, and what is known about it where it came from. */
export interface CopySources {
  ids: string[];
  names?: Record<string, string>;
  /** The sources' projects, when known (files view, task outputs). */
  projects?: string[];
  /** Whether the IDs are known not to be root folders (they came from inside a project). */
  trusted?: boolean;
  /** Which IDs are folders, when the kinds are known (files view); a folder is copied with everything in it. */
  folders?: string[];
  /** Lines for the confirmation's detail about where the sources came from ("The outputs of 12 tasks: 340 files."). */
  notes?: string[];
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


/** The interactive copy: destination pickers, confirmation, submission and what to do when it fails. */
export class CopyFlow {
  constructor(
    private readonly services: Services,
    private readonly tracker: JobTracker,
  ) {}

  private get projects() {
    return this.services.projects;
  }

  /** Returns the jobs submitted (empty when cancelled, refused or failed). */
  async run(sources: CopySources, args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
    const roots = sources.trusted ? new Set<string>() : await this.projects.rootFolders();
    const check = checkSources(sources.ids, roots);
    const problems = sourceProblems(check);
    if (problems.length) {
      // A modal: its detail shows the whole reason (IDs and advice), which a notification would cut.
      void vscode.window.showErrorMessage(nothingCopied(), { modal: true, detail: problems.join('\n\n') });
      return [];
    }
    if (!check.ids.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is nothing to copy: no file or folder IDs were given.'));
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
      maxItemsPerRequest: setting('maxItemsPerRequest'),
    });
    if (!plan.ok) {
      void vscode.window.showErrorMessage(nothingCopied(), { modal: true, detail: plan.problems.join('\n\n') });
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
      const clashes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: checkingNames(label) }, () =>
        this.checkClashes(ids, sources, destination, newName),
      );
      const button = clashes.complete ? copyButton() : vscode.l10n.t('Copy Anyway');
      const answer = await vscode.window.showInformationMessage(
        confirmationText(plan.items.length, destination, { names, newName }),
        { modal: true, detail: [...(sources.notes ?? []), ...clashes.lines, ...notes].join('\n') },
        button,
      );
      if (answer !== button) return [];
    } else if (check.duplicates) {
      void vscode.window.showInformationMessage(duplicatesDropped(check.duplicates));
    }
    return this.submit(plan.batches, { label, project: destination.project, parent: destination.kind === 'projectRoot' ? undefined : destination.folder }, sources.names);
  }

  /**
   * What will happen to the names in the destination (renamed, merged), from a bounded lookup there; the sources'
   * names and kinds are read first when not known (up to 20 of them).
   */
  async checkClashes(ids: readonly string[], sources: CopySources, destination: CopyDestination, newName?: string): Promise<{ lines: string[]; complete: boolean }> {
    const folders = new Set((sources.folders ?? []).map((id) => id.toLowerCase()));
    const arriving: Arriving[] = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const name = sources.names?.[id] ?? sources.names?.[id.toLowerCase()];
      if (name) arriving.push({ name, folder: folders.has(id.toLowerCase()) });
      else unknown.push(id);
    }
    if (unknown.length > NAME_QUERIES) {
      return { lines: clashWords({ renamed: [], merged: [] }, { complete: false, problem: vscode.l10n.t('The names of the sources are not known.') }), complete: false };
    }
    for (const id of unknown) {
      try {
        const record = await this.services.client.files.get(id);
        arriving.push({ name: record.name, folder: record.type === 'folder' });
      } catch (error) {
        return { lines: clashWords({ renamed: [], merged: [] }, { complete: false, problem: vscode.l10n.t('The source {0} could not be read. {1}', id, describeError(error)) }), complete: false };
      }
    }
    if (newName && arriving.length === 1) arriving[0] = { ...arriving[0], name: newName };
    const location = destination.kind === 'projectRoot' ? { project: destination.project } : { parent: destination.folder };
    const lookup = await lookupDestination(this.services.client.files, location, arriving);
    return { lines: clashWords(planClashes(arriving, lookup.existing), lookup), complete: lookup.complete };
  }

  /** Hands the calls to the outbox (the one write path), follows them with a progress notification, and says what needs saying. */
  async submit(batches: CopyItem[][], destination: JobDestination, names?: Record<string, string>): Promise<TrackedJob[]> {
    let account: Account | undefined;
    try {
      account = await this.services.account();
    } catch (error) {
      await showError(vscode.l10n.t('Nothing was copied to {0}: the account could not be checked', destination.label), error);
      return [];
    }
    if (!account) {
      void vscode.window.showWarningMessage(signInToCopy());
      return [];
    }
    const payloads: CopyPayload[] = batches.map((items) => ({ items, destination, sourceNames: pick(names, items) }));
    return this.follow(destination.label, () => this.services.outbox.submit(WRITE_KINDS.copy, payloads, account));
  }

  /**
   * Sends a group's calls again, as they were: the refused ones (Submit Again), or on the user's word those that
   * may have been submitted (Submit Anyway, `anyway`).
   */
  async resubmit(group: string, anyway = false): Promise<TrackedJob[]> {
    const records = this.services.outbox.all().filter((r) => r.group === group && this.services.outbox.owns(r));
    if (!records.length) return [];
    const label = (records[0].payload as CopyPayload).destination.label;
    return this.follow(label, async () => {
      const states: readonly WriteState[] = anyway ? ['unsure'] : USER_DECIDES;
      await this.services.outbox.resubmit(group, states);
      return records.filter((r) => states.includes(r.state));
    });
  }

  discard(group: string): Promise<void> {
    return this.services.outbox.discard(group);
  }

  /** Runs `start`, shows progress until its writes need nothing more from this window, and tells what is left. */
  private async follow(label: string, start: () => Promise<WriteRecord[]>): Promise<TrackedJob[]> {
    const { finished, left } = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Copying to {0}', label) }, (progress) =>
      this.services.outbox.follow(start, {
        onProgress: (done, total) => {
          if (total > 1) progress.report({ message: vscode.l10n.t('{0} of {1} requests submitted…', count(done), count(total)) });
        },
      }),
    );
    if (left.length) void this.tell(left, label);
    return trackedJobs(this.tracker, finished);
  }

  /** Says what happened to the calls still in the outbox, with the actions that fit; then what the check of a lost answer found. */
  private async tell(left: WriteRecord[], label: string): Promise<void> {
    const group = left[0].group;
    const checking = left.filter((r) => r.state === 'unsure' || r.state === 'sending');
    if (checking.length) void this.tellChecked(checking, label);
    for (const telling of submissionTellings(left as WriteRecord<CopyPayload>[], label, this.services.clock.now())) {
      const show = { error: vscode.window.showErrorMessage, warning: vscode.window.showWarningMessage, info: vscode.window.showInformationMessage }[telling.severity];
      void show(telling.text, ...telling.actions).then(async (chosen) => {
        if (chosen === submitAgainAction()) await this.resubmit(group);
        else if (chosen === discardAction()) await this.discard(group);
        else if (chosen === showCopyJobsAction()) await vscode.commands.executeCommand(COMMANDS.showJobs);
      });
    }
  }

  /**
   * Once the platform has answered for every call whose answer was lost (found there, or not found and sent again),
   * says so; a call refused on its way is told as any refusal is. Nothing is said while the check goes on.
   */
  private async tellChecked(records: WriteRecord[], label: string): Promise<void> {
    const { outbox } = this.services;
    const waiting = new Set(records.map((r) => r.id));
    const found: WriteRecord[] = [];
    const resent: WriteRecord[] = [];
    const refused: WriteRecord[] = [];
    await new Promise<void>((resolve) => {
      const settle = (id: string, into?: WriteRecord[], record?: WriteRecord) => {
        if (!waiting.delete(id)) return;
        if (into && record) into.push(record);
        if (waiting.size) return;
        finishing.dispose();
        changing.dispose();
        resolve();
      };
      const finishing = outbox.onDidFinish(({ record, found: wasFound }) => settle(record.id, wasFound ? found : resent, record));
      const changing = outbox.onDidChange(() => {
        const now = new Map(outbox.all().map((r) => [r.id, r]));
        for (const id of [...waiting]) {
          const record = now.get(id);
          if (record?.state === 'failed') settle(id, refused, record);
          // Gone without finishing: discarded by the person, or taken over by another window (which tells).
          else if (!record) settle(id);
        }
      });
    });
    const group = records[0].group;
    if (found.length || resent.length) {
      void vscode.window.showInformationMessage(checkedText(found as WriteRecord<CopyPayload>[], resent as WriteRecord<CopyPayload>[], label), showCopyJobsAction()).then(async (chosen) => {
        if (chosen === showCopyJobsAction()) await vscode.commands.executeCommand(COMMANDS.showJobs);
      });
    }
    if (refused.length) {
      for (const telling of submissionTellings(refused as WriteRecord<CopyPayload>[], label, this.services.clock.now())) {
        void vscode.window.showErrorMessage(telling.text, ...telling.actions).then(async (chosen) => {
          if (chosen === submitAgainAction()) await this.resubmit(group);
          else if (chosen === discardAction()) await this.discard(group);
        });
      }
    }
  }

  /** A new request made of a finished job's failed items only, to the same destination. */
  async retryFailed(job: TrackedJob, options: { confirm?: boolean } = {}): Promise<TrackedJob[]> {
    if (job.account && job.account !== this.services.session.accountKey) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Copy job {0} ran as {1}: sign in to that account to copy its failed items again.', job.id, job.account.replace('#', ' · ')));
      return [];
    }
    const failed = failedItems(job);
    if (!failed.length) {
      void vscode.window.showInformationMessage(noFailedItemsWords());
      return [];
    }
    if (options.confirm !== false) {
      const button = copyButton();
      const answer = await vscode.window.showInformationMessage(
        failed.length === 1
          ? vscode.l10n.t('Copy the 1 failed item again to {0}?', job.destination.label)
          : vscode.l10n.t('Copy the {0} failed items again to {1}?', count(failed.length), job.destination.label),
        { modal: true, detail: vscode.l10n.t('A new request is made of the failed items only.') },
        button,
      );
      if (answer !== button) return [];
    }
    const max = setting('maxItemsPerRequest');
    return this.submit(splitItems(failed, max), job.destination, job.sourceNames);
  }

  private async pickDestination(ids: string[], sources: CopySources): Promise<CopyDestination | undefined> {
    let sourceProject = sources.projects && new Set(sources.projects).size === 1 ? sources.projects[0] : undefined;
    if (!sources.projects?.length) sourceProject = await this.projectOf(ids[0]);
    return pickDestination(this.services, ids, sourceProject);
  }

  /** The project of a file given by ID (one GET), so "a folder in the same project" can be offered. */
  private async projectOf(id: string): Promise<string | undefined> {
    try {
      return (await this.services.client.files.get(id)).project;
    } catch {
      return undefined;
    }
  }

}

function pick(names: Record<string, string> | undefined, items: CopyItem[]): Record<string, string> | undefined {
  if (!names) return undefined;
  const out: Record<string, string> = {};
  for (const item of items) {
    const name = names[item.file] ?? names[item.file.toLowerCase()];
    if (name) out[item.file] = name;
  }
  return Object.keys(out).length ? out : undefined;
}
