// Move To… in Projects & Files (and a drop's "Move here"): the destination picked as the copy picks it; refused
// before anything is sent for a project's root folder, a read-only project on either side, a folder into itself or
// its own subfolder; the names the move takes in the destination shown before it is sent (the platform renames a
// taken file's name `1_<name>`, merges a folder into one of the same name); sent through the one write path (one
// file within its project by the single move, else the async move, 100 items a call); the views read again.
import * as vscode from 'vscode';
import type { AsyncJob, FileItemResult, FileRecord } from '../api/types';
import { checkingNames, clashWords, lookupDestination, planClashes } from '../copy/clashes';
import { pickDestination } from '../copy/pickers';
import { describeDestination, type CopyDestination } from '../copy/request';
import type { CommandOptions } from '../ui/commands';
import { count, itemCount, notSentWords } from '../util/words';
import { isFinished } from '../jobs/trackedJobs';
import { leftWords, managedItems, send, type ManageParts } from './manageCommands';
import { alreadyThere, destinationFolder, folderChain, intoItself, moveQuestion, planMove, type MovePlan, type MovingItem } from './movePlan';
import type { AsyncMovePayload } from './moveWrites';
import { dropDestination, type DropTarget } from './dragAndDrop';
import type { ItemNode } from './fileNodes';
import { readFile, type FileRef } from './targets';
import { WRITE_KINDS } from '../keys/writes';
import { waitsForPerson, type WriteRecord } from '../write/outbox';
import { doneWhat, noLongerThere, readOnlyWords, refusal } from './managedItems';

/** A move checked and planned, ready to be sent once the person agrees. */
export interface PreparedMove {
  destination: CopyDestination;
  /** the items that move (those already there are left out) */
  items: MovingItem[];
  /** already in the destination: nothing to do for them */
  already: MovingItem[];
  plan: MovePlan;
  /** what the names become there, in words */
  clashLines: string[];
  /** whether every name there could be checked */
  complete: boolean;
  /** anything to tell before sending: a name taken, a folder merged, a check that could not finish */
  notable: boolean;
}

export interface MoveOutcome {
  moved: number;
  failed: number;
  already: number;
  /** Items of a cancelled move never sent, and items still moving on the platform when it was cancelled. */
  notSent?: number;
  moving?: number;
}

const isDestination = (value: unknown): value is CopyDestination =>
  !!value && typeof value === 'object' && typeof (value as CopyDestination).project === 'string' && ['projectRoot', 'sameProjectFolder', 'otherProjectFolder'].includes((value as CopyDestination).kind);

/** Move To…: `{ destination, confirm }` from a script, else asked. */
export async function moveTo(parts: ManageParts, refs: FileRef[], options: CommandOptions): Promise<MoveOutcome | undefined> {
  const listed = await managedItems(parts, refs);
  const gone = listed.find((i) => i.gone);
  if (gone) throw new Error(noLongerThere(gone.name));
  checkSources(listed, await parts.services.projects.rootFolders());
  let destination = isDestination(options.destination) ? options.destination : undefined;
  if (!destination) {
    const projects = new Set(listed.map((i) => i.project));
    destination = await pickDestination(parts.services, listed.map((i) => i.id), projects.size === 1 ? [...projects][0] : undefined, 'move');
    if (!destination) return undefined;
  }
  const prepared = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: checkingNames(describeDestination(destination)) }, () =>
    prepareMove(parts, listed, destination),
  );
  if (options.confirm !== false && !(await confirmMove(prepared))) return undefined;
  return runMove(parts, prepared);
}

/** The sources' refusals: a project's root folder, a read-only project. */
function checkSources(items: readonly MovingItem[], rootFolders: ReadonlySet<string>): void {
  const refused = refusal(items, rootFolders);
  if (refused) throw new Error(refused);
}

/**
 * Checks a move before anything is sent, and plans it: the destination's project writable, no folder into itself or
 * below itself, something left to move, and the names there looked up. Throws the refusal, in words.
 */
export async function prepareMove(parts: ManageParts, items: readonly MovingItem[], destination: CopyDestination): Promise<PreparedMove> {
  const { services } = parts;
  const target = (await services.projects.all().catch(() => [])).find((p) => p.id === destination.project);
  if (target?.permissions?.write === false) throw new Error(readOnlyWords(destination.project));
  if (destination.kind === 'projectRoot' && !destination.rootFolder && target?.root_folder) destination = { ...destination, rootFolder: target.root_folder };
  if (items.some((i) => i.folder) && destination.kind !== 'projectRoot') {
    const refused = intoItself(items, await folderChain(services.client.files, destination), destination);
    if (refused) throw new Error(refused);
  }
  const already = alreadyThere(items, destination);
  const moving = items.filter((i) => !already.includes(i));
  if (!moving.length) {
    throw new Error(
      items.length === 1
        ? vscode.l10n.t('Nothing was moved: "{0}" is already in {1}.', items[0].name, describeDestination(destination))
        : vscode.l10n.t('Nothing was moved: they are already in {0}.', describeDestination(destination)),
    );
  }
  const folder = destinationFolder(destination);
  const location = folder ? { parent: folder } : { project: destination.project };
  const arriving = moving.map((i) => ({ name: i.name, folder: i.folder }));
  const lookup = await lookupDestination(services.client.files, location, arriving);
  const clashes = planClashes(arriving, lookup.existing);
  return {
    destination,
    items: moving,
    already,
    plan: planMove(moving, destination, clashes),
    clashLines: clashWords(clashes, lookup, 'move'),
    complete: lookup.complete,
    notable: !lookup.complete || clashes.renamed.length > 0 || clashes.merged.length > 0,
  };
}

/** The modal question, with what the names become; "Move Anyway" when they could not all be checked. */
export async function confirmMove(prepared: PreparedMove): Promise<boolean> {
  const button = prepared.complete ? vscode.l10n.t({ message: 'Move', comment: ['A button: go ahead with the move'] }) : vscode.l10n.t('Move Anyway');
  const detail = [
    ...prepared.clashLines,
    prepared.already.length ? vscode.l10n.t('{0} already there: left as they are.', count(prepared.already.length)) : undefined,
    'jobs' in prepared.plan && prepared.plan.jobs.length > 1 ? vscode.l10n.t('Sent in {0} requests of at most 100 items.', count(prepared.plan.jobs.length)) : undefined,
  ].filter((l): l is string => !!l);
  const answer = await vscode.window.showInformationMessage(moveQuestion(prepared.items, prepared.destination), { modal: true, detail: detail.join('\n') }, button);
  return answer === button;
}

/** Sends a prepared move through the outbox, follows an async one to its end, reads the views again, and says how it went. */
export async function runMove(parts: ManageParts, prepared: PreparedMove): Promise<MoveOutcome> {
  const { destination, plan, items } = prepared;
  const label = describeDestination(destination);
  const controller = new AbortController();
  const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Moving to {0}', label), cancellable: 'jobs' in plan }, async (_progress, token) => {
    if ('single' in plan) {
      const { done, left } = await send<FileRecord>(parts.services, WRITE_KINDS.move, [plan.single]);
      if (!done.length) throw new Error(leftWords(left));
      return { moved: 1, failed: 0, why: undefined as string | undefined, made: [done[0].id], notSent: 0, moving: 0 };
    }
    // Cancel: the calls not sent yet are not sent; those sent go on on the platform (Data Jobs follows them).
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const { done, doneFor, left, withdrawn } = await send<AsyncJob, AsyncMovePayload>(parts.services, WRITE_KINDS.asyncMove, plan.jobs, controller.signal);
      // The write handed each job to the tracker (Data Jobs shows it); the command waits for their ends there.
      const ids = done.map((job) => job.id);
      const jobs = await parts.tracker.settled(ids, controller.signal).catch(() => ids.flatMap((id) => parts.tracker.get(id) ?? []));
      const results: FileItemResult[] = jobs.flatMap((job) => job.result ?? []);
      const failed = results.filter((r) => r.error);
      const notSent = withdrawn.reduce((n, j) => n + j.items.length, 0);
      // After a Cancel, a call on its way is not waited for: its items are moving on the platform as far as anyone
      // knows (its job, once answered, is followed in Data Jobs), not "not moved".
      const sentUnanswered = controller.signal.aborted ? left.filter((r) => !waitsForPerson(r)) : [];
      const stuck = left.filter((r) => !sentUnanswered.includes(r));
      const itemsOf = (records: readonly WriteRecord[]) => records.reduce((n, r) => n + ((r.payload as AsyncMovePayload | undefined)?.items?.length ?? 0), 0);
      const unsent = itemsOf(stuck);
      // A job not ended yet: the items it was sent with and has no result for (its file count is 0 until the
      // platform has resolved its items).
      const itemsOfJob = new Map(done.map((job, i) => [job.id, doneFor[i]?.items.length ?? 0]));
      const moving = itemsOf(sentUnanswered) + jobs.filter((job) => !isFinished(job)).reduce((n, job) => n + Math.max(0, (itemsOfJob.get(job.id) ?? job.total ?? 0) - (job.result?.length ?? 0)), 0);
      return {
        moved: results.filter((r) => r.resource).length,
        failed: failed.length + unsent,
        why: failed[0]?.error?.message ?? (stuck.length ? leftWords(stuck) : undefined),
        made: results.flatMap((r) => (r.resource ? [r.resource.id] : [])),
        notSent,
        moving,
      };
    } finally {
      cancel.dispose();
    }
  });
  // An async move's jobs read their rows again when they end (files/register.ts), after a Cancel too.
  if ('single' in plan) {
    parts.model.refreshHolding(items.map((i) => i.id));
    parts.model.refreshListings([destination.project, ...[destinationFolder(destination)].filter((id): id is string => !!id)]);
  }
  const words = [
    outcome.moved ? vscode.l10n.t('Moved {0} to {1}', doneWhat(outcome.moved, items), label) : undefined,
    outcome.failed ? vscode.l10n.t('{0} not moved: {1}', count(outcome.failed), outcome.why ?? '') : undefined,
    controller.signal.aborted ? cancelledMoveWords(outcome.notSent, outcome.moving) : undefined,
  ].filter(Boolean);
  if (outcome.failed || controller.signal.aborted) void vscode.window.showWarningMessage(words.join('; '));
  else vscode.window.setStatusBarMessage(`$(check) ${words.join('; ')}`, 5_000);
  return { moved: outcome.moved, failed: outcome.failed, already: prepared.already.length, notSent: outcome.notSent, moving: outcome.moving };
}

/** What a cancelled move left: "Move cancelled: 300 items not sent; 200 still moving (see Data Jobs)". */
function cancelledMoveWords(notSent: number, moving: number): string {
  const parts = [
    notSent ? notSentWords(itemCount(notSent)) : undefined,
    moving ? vscode.l10n.t('{0} still moving on the platform (see Data Jobs)', itemCount(moving)) : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length ? vscode.l10n.t('Move cancelled: {0}', parts.join(', ')) : vscode.l10n.t('Move cancelled after everything was sent and done');
}

/**
 * A drop's "Move here": the move to the drop's folder or project, checked and planned as Move To…; asked only when
 * there is something to tell (a name taken, a folder merged, names that could not be checked): the drop was the word.
 */
export async function dropMove(parts: ManageParts, target: DropTarget, nodes: readonly ItemNode[], options: { confirm?: boolean } = {}): Promise<MoveOutcome | undefined> {
  const refs = nodes.map(readFile).filter((f): f is FileRef => f !== undefined);
  if (!refs.length) return undefined;
  const listed = await managedItems(parts, refs);
  checkSources(listed, await parts.services.projects.rootFolders());
  const destination = dropDestination(target, [...new Set(listed.map((i) => i.project).filter((p): p is string => !!p))]);
  const prepared = await prepareMove(parts, listed, destination);
  if (prepared.notable && options.confirm !== false && !(await confirmMove(prepared))) return undefined;
  return runMove(parts, prepared);
}
