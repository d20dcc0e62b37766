// New Folder…, Rename…, Delete… and Edit Tags… in Projects & Files: each asks, checks what it can before anything is
// sent, sends through the one write path (write/outbox.ts; the kinds are in src/writeKinds.ts), and says how it went.
import * as vscode from 'vscode';
import { nameProblem } from '../api/fileRules';
import type { AsyncJob, BulkFileItem, FileRecord, Project } from '../api/types';
import type { Services } from '../services';
import { paletteTitle, type CommandOptions } from '../ui/commands';
import { pickProject } from '../ui/projectPick';
import { commandTitles } from '../keys/commands';
import { count } from '../util/words';
import { WRITE_KINDS, type WriteKindName } from '../keys/writes';
import { folderContents } from './folderContents';
import { waitsForPerson, type Account, type WriteRecord } from '../write/outbox';
import type { JobTracker } from '../jobs/tracker';
import type { FilesTreeModel } from './filesModel';
import { opensOf, placeOf } from './fileKinds';
import type { FileRef } from './targets';
import { planDelete } from './deleteWrites';
import { deleteQuestion } from './deleteQuestion';
import { doneWhat, notTaken, readOnlyWords, refusal, signInToChange, type ManagedItem } from './managedItems';
import { checkedTags, planBulkTags, planTags, tagProblem, tagsInUse, tagsNotTaken, type TagsPayload } from './tagsWrites';
import type { NewFolderPayload } from '../remote/newFolderWrite';

export interface ManageParts {
  readonly services: Services;
  readonly model: FilesTreeModel;
  /** The data jobs' tracker: an async delete's jobs are followed there (and shown in Data Jobs), the command waits on it. */
  readonly tracker: Pick<JobTracker, 'settled' | 'get'>;
}

async function account(services: Services): Promise<Account> {
  const a = await services.account();
  if (!a) throw new Error(signInToChange());
  return a;
}

/** How long a command waits for the lookup after a lost answer before saying it is being checked. */
const LOOKUP_WAIT_MS = 10_000;

/**
 * Sends writes of one kind as the account in use and waits for them: the outcomes of those that reached the platform,
 * and the records left (refused, not found, or still being checked). A lost answer is looked up in the background;
 * the person waits a little for it rather than hear "maybe" at once.
 */
export async function send<R, P = unknown>(services: Services, kind: WriteKindName, payloads: readonly P[], signal?: AbortSignal): Promise<{ done: R[]; doneFor: P[]; left: WriteRecord[]; withdrawn: P[] }> {
  const { finished, left, withdrawn } = await services.outbox.send<R, P>(kind, payloads, await account(services), { until: 'lookup', atMostMs: LOOKUP_WAIT_MS, signal });
  return { done: finished.map((f) => f.outcome), doneFor: finished.map((f) => f.record.payload as P), left, withdrawn: withdrawn.map((r) => r.payload as P) };
}

/** What is left of a write, in words: refused (why), or still being checked (it is not sent again blind). */
export function leftWords(left: readonly WriteRecord[]): string {
  const refused = left.find(waitsForPerson);
  if (refused) return refused.note ?? notTaken();
  return vscode.l10n.t('The answer was lost: it is checked on the platform and not sent again until that is known (see the Data Jobs view).');
}

/** New Folder… in the project or folder given (its row), else in a project picked. */
export async function newFolder(parts: ManageParts, where: unknown, options: CommandOptions): Promise<FileRecord | undefined> {
  const title = paletteTitle(commandTitles().newFolder);
  let target: NewFolderPayload['where'];
  let label: string;
  let writable = true;
  const place = placeOf(where);
  if (place?.folder) {
    target = { parent: place.folder.id };
    label = place.folder.name;
    writable = place.folder.writable;
  } else if (place) {
    target = { project: place.project.id };
    label = place.project.id;
    writable = place.project.writable;
  } else {
    const project: Project | 'none' | undefined = await pickProject(parts.services.projects, { title, placeholder: vscode.l10n.t('New folder in which project?') });
    if (!project || project === 'none') return undefined;
    target = { project: project.id };
    label = project.id;
  }
  if (!writable) throw new Error(readOnlyWords(label));
  // Its box names the action and the place, as every box of a command does once it knows what it acts on.
  const name =
    typeof options.name === 'string'
      ? options.name
      : await vscode.window.showInputBox({ title: vscode.l10n.t('New Folder in {0}', label), prompt: vscode.l10n.t('The new folder\'s name, in {0}', label), validateInput: (v) => nameProblem(v, 'folder'), ignoreFocusOut: true });
  if (name === undefined) return undefined;
  const problem = nameProblem(name, 'folder');
  if (problem) throw new Error(problem);
  const { done, left } = await send<FileRecord>(parts.services, WRITE_KINDS.newFolder, [{ name, where: target, label }]);
  const opened = opensOf(where);
  if (opened) void parts.model.refresh(opened);
  if (!done.length) throw new Error(leftWords(left));
  vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Made the folder "{0}" in {1}', name, label)}`, 3_000);
  return done[0];
}

/** Rename…: the new name checked as it is typed; sent once; the listing read again. */
export async function rename(parts: ManageParts, ref: FileRef, options: CommandOptions): Promise<FileRecord | undefined> {
  const item = (await managedItems(parts, [ref]))[0];
  const refused = refusal([item], await parts.services.projects.rootFolders());
  if (refused) throw new Error(refused);
  const type = item.folder ? 'folder' : 'file';
  const name =
    typeof options.name === 'string'
      ? options.name
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Rename "{0}"', item.name),
          value: item.name,
          valueSelection: [0, item.folder || item.name.lastIndexOf('.') <= 0 ? item.name.length : item.name.lastIndexOf('.')],
          prompt: vscode.l10n.t('The new name of "{0}"', item.name),
          validateInput: (v) => nameProblem(v, type) ?? (v === item.name ? vscode.l10n.t('Type a new name.') : undefined),
          ignoreFocusOut: true,
        });
  if (name === undefined || name === item.name) return undefined;
  const problem = nameProblem(name, type);
  if (problem) throw new Error(problem);
  const { done, left } = await send<FileRecord>(parts.services, WRITE_KINDS.rename, [{ id: item.id, name, oldName: item.name }]);
  parts.model.refreshHolding([item.id]);
  if (!done.length) throw new Error(leftWords(left));
  return done[0];
}

/**
 * Delete…: refused before anything is sent for a project's root folder or a read-only project; asked with the counts
 * and the size; one file by the single call, else the async delete (100 items a call), its jobs followed to their end
 * by the job tracker (a row each in Data Jobs).
 */
export async function deleteItems(parts: ManageParts, refs: FileRef[], options: CommandOptions): Promise<{ deleted: number; gone: number; failed: number }> {
  const listed = await managedItems(parts, refs);
  const goneBefore = listed.filter((i) => i.gone);
  const items = listed.filter((i) => !i.gone);
  if (!items.length) {
    // Already gone (another window, the web page): said once, nothing sent.
    vscode.window.setStatusBarMessage(`$(info) ${goneWords(goneBefore.length, goneBefore.length === 1 && refs[0].name ? refs[0].name : undefined)}`, 5_000);
    return { deleted: 0, gone: goneBefore.length, failed: 0 };
  }
  const refused = refusal(items, await parts.services.projects.rootFolders());
  if (refused) throw new Error(refused);
  if (options.confirm !== false) {
    const yes = vscode.l10n.t('Delete');
    // One folder: what is in it is counted first (at most 10 requests), so the question says what goes with it.
    const inside =
      items.length === 1 && items[0].folder
        ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Counting what is in {0}…', items[0].name) }, () =>
            folderContents(parts.services.client.files, items[0].id).catch(() => undefined),
          )
        : undefined;
    if ((await vscode.window.showWarningMessage(deleteQuestion(items, inside), { modal: true }, yes)) !== yes) return { deleted: 0, gone: 0, failed: 0 };
  }
  const plan = planDelete(items);
  let outcome: { deleted: number; gone: number; failed: number; why?: string };
  if ('single' in plan) {
    const { done, left } = await send(parts.services, WRITE_KINDS.delete, [{ id: plan.single.id, name: plan.single.name }]);
    if (done.length) outcome = { deleted: 1, gone: goneBefore.length, failed: 0 };
    else if (left[0]?.state === 'failed' && (await recordOrGone(parts, plan.single.id)) === 'gone') {
      // Already gone on the first try: said once, nothing left to decide.
      await parts.services.outbox.discard(left[0].group);
      outcome = { deleted: 0, gone: 1, failed: 0 };
    } else throw new Error(leftWords(left));
  } else {
    const { done, left } = await send<AsyncJob>(parts.services, WRITE_KINDS.asyncDelete, plan.jobs);
    // The write handed each job to the tracker (Data Jobs shows it); the command waits for their ends there.
    const jobs = await parts.tracker.settled(done.map((job) => job.id));
    const results = jobs.flatMap((job) => job.result ?? []);
    const gone = results.filter((r) => r.error?.status === 404).length;
    const failed = results.filter((r) => r.error && r.error.status !== 404);
    outcome = { deleted: results.filter((r) => r.resource).length, gone: gone + goneBefore.length, failed: failed.length + (left.length ? plan.jobs.filter((_, i) => i >= done.length).reduce((n, j) => n + j.items.length, 0) : 0), why: failed[0]?.error?.message ?? (left.length ? leftWords(left) : undefined) };
  }
  // An async delete's jobs read their rows again when they end (files/register.ts).
  if ('single' in plan) parts.model.refreshHolding(items.map((i) => i.id));
  const words = [
    outcome.deleted ? vscode.l10n.t('Deleted {0}', doneWhat(outcome.deleted, items)) : undefined,
    outcome.gone ? goneWords(outcome.gone, listed.length === 1 ? listed[0].name : undefined) : undefined,
    outcome.failed ? vscode.l10n.t('{0} not deleted: {1}', count(outcome.failed), outcome.why ?? '') : undefined,
  ].filter(Boolean);
  if (outcome.failed) void vscode.window.showWarningMessage(words.join('; '));
  else vscode.window.setStatusBarMessage(`$(check) ${words.join('; ')}`, 5_000);
  return outcome;
}

/** '"a.bam" was already gone', '3 already gone'. */
function goneWords(n: number, name: string | undefined): string {
  return n === 1 && name !== undefined ? vscode.l10n.t('"{0}" was already gone', name) : vscode.l10n.t('{0} already gone', count(n));
}

/** Edit Tags…: the tags in use across the files, checked where every file has one; unchecking removes, typing adds. */
export async function editTags(parts: ManageParts, refs: FileRef[], options: CommandOptions): Promise<number> {
  const { client } = parts.services;
  // Read fresh (a row may be older than the tags): one file by its GET, more by the bulk read, 100 a call.
  const records = refs.length === 1 ? [await client.files.get(refs[0].id)] : await client.bulkFiles.records(refs.map((r) => r.id));
  const files = records.filter((f) => f.type !== 'folder').map((f) => ({ id: f.id, name: f.name || f.id, tags: f.tags ?? [], project: f.project }));
  if (!files.length) throw new Error(vscode.l10n.t('Folders have no tags: choose files.'));
  const readOnly = await readOnlyProjects(parts);
  const locked = files.find((f) => f.project && readOnly.has(f.project));
  if (locked) throw new Error(readOnlyWords(locked.project!));
  const add = Array.isArray(options.add) ? options.add.filter((t): t is string => typeof t === 'string') : undefined;
  const remove = Array.isArray(options.remove) ? options.remove.filter((t): t is string => typeof t === 'string') : undefined;
  const edit = add || remove ? { add: add ?? [], remove: remove ?? [] } : await askTags(files);
  if (!edit) return 0;
  const bad = edit.add.map(tagProblem).find(Boolean);
  if (bad) throw new Error(bad);
  const payloads: TagsPayload[] = planTags(files, edit.add, edit.remove);
  if (!payloads.length) return 0;
  const changed = payloads.length === 1 ? await tagOneByOne(parts, payloads) : await tagInBulk(parts, payloads);
  parts.model.refreshHolding(files.map((f) => f.id));
  if (changed.why) throw new Error(vscode.l10n.t('Tags of {0} of {1} files changed. {2}', count(changed.done), count(payloads.length), changed.why));
  vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Tags changed on {0} files', count(changed.done))}`, 3_000);
  return changed.done;
}

/** Each file's tags by its own call (`PUT …/tags`): one file, or those a bulk edit did not set as asked. */
async function tagOneByOne(parts: ManageParts, payloads: TagsPayload[]): Promise<{ done: number; why?: string }> {
  const { done, left } = await send(parts.services, WRITE_KINDS.tags, payloads);
  return { done: done.length, why: left.length ? leftWords(left) : undefined };
}

/**
 * Many files' tags by the bulk edit, 100 files a call; a file the platform refused is said with its reason. A file
 * the answer shows with other tags than asked (a platform whose edit merges the tags given) is set by its own call.
 */
async function tagInBulk(parts: ManageParts, payloads: TagsPayload[]): Promise<{ done: number; why?: string }> {
  const calls = planBulkTags(payloads);
  const { done, left } = await send<BulkFileItem[]>(parts.services, WRITE_KINDS.bulkTags, calls);
  const answered = done.flat();
  const refused = answered.filter((r) => r.error);
  const again = tagsNotTaken(payloads, answered);
  const fixed = again.length ? await tagOneByOne(parts, again) : { done: 0 };
  const unsent = left.length ? calls.slice(done.length).reduce((n, c) => n + c.items.length, 0) : 0;
  const set = answered.filter((r) => r.resource).length - again.length + fixed.done;
  const why = refused[0]?.error?.message ?? fixed.why ?? (unsent ? leftWords(left) : undefined);
  return { done: set, why };
}

interface TagItem extends vscode.QuickPickItem {
  tag: string;
}

/** The quick pick of tags: those in use (checked when every file has it; the others say on how many), plus a new tag typed. */
async function askTags(files: readonly { name: string; tags: readonly string[] }[]): Promise<{ add: string[]; remove: string[] } | undefined> {
  const inUse = tagsInUse(files);
  const pick = vscode.window.createQuickPick<TagItem>();
  pick.title = files.length === 1 ? vscode.l10n.t('Edit Tags of "{0}"', files[0].name) : vscode.l10n.t('Edit Tags of {0} files', count(files.length));
  pick.placeholder = vscode.l10n.t('Check the tags to keep or add; type a new tag');
  pick.canSelectMany = true;
  pick.ignoreFocusOut = true;
  const listed: TagItem[] = inUse.map((u) => ({ label: u.tag, tag: u.tag, description: u.files === files.length ? undefined : vscode.l10n.t('on {0} of {1} files', u.files, files.length) }));
  let typed: TagItem[] = [];
  const render = () => {
    const value = pick.value.trim();
    const problem = value ? tagProblem(value) : undefined;
    typed = value && !listed.some((i) => i.tag === value) ? [{ label: value, tag: value, description: problem ?? vscode.l10n.t('new tag'), alwaysShow: true }] : [];
    const checked = checkedTags([...typed, ...listed].map((i) => i.tag), pick.selectedItems.map((i) => i.tag), typed[0]?.tag);
    pick.items = [...typed, ...listed];
    pick.selectedItems = pick.items.filter((i) => checked.includes(i.tag));
  };
  pick.items = listed;
  pick.selectedItems = listed.filter((i) => inUse.find((u) => u.tag === i.tag)!.files === files.length);
  const before = new Set(pick.selectedItems.map((i) => i.tag));
  pick.onDidChangeValue(render);
  const chosen = await new Promise<readonly TagItem[] | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const bad = pick.selectedItems.map((i) => tagProblem(i.tag)).find(Boolean);
      if (bad) {
        pick.placeholder = bad;
        return;
      }
      resolve(pick.selectedItems);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return undefined;
  const keep = new Set(chosen.map((i) => i.tag));
  // Checked: on every file (added where missing); a tag every file had, unchecked: removed; a tag some files have,
  // left unchecked: left as it is.
  return { add: [...keep].filter((t) => !before.has(t)), remove: [...before].filter((t) => !keep.has(t)) };
}

/** The items with what the commands need (name, folder, size, project): a row's record, else one GET each (404: gone). */
export async function managedItems(parts: ManageParts, refs: readonly FileRef[]): Promise<(ManagedItem & { gone?: boolean })[]> {
  const readOnly = await readOnlyProjects(parts);
  return Promise.all(
    refs.map(async (ref) => {
      const known = ref.name !== undefined && ref.project !== undefined && ref.folder !== undefined;
      const record = known ? undefined : await recordOrGone(parts, ref.id);
      if (record === 'gone') return { id: ref.id, name: ref.name ?? ref.id, folder: false, gone: true };
      const project = ref.project ?? record?.project;
      return {
        id: ref.id,
        name: ref.name ?? record?.name ?? ref.id,
        folder: ref.folder ?? record?.type === 'folder',
        size: ref.size ?? record?.size,
        project,
        parent: ref.record?.parent ?? record?.parent,
        writable: project ? !readOnly.has(project) : undefined,
      };
    }),
  );
}

async function readOnlyProjects(parts: ManageParts): Promise<Set<string>> {
  try {
    return new Set((await parts.services.projects.all()).filter((p) => p.permissions?.write === false).map((p) => p.id));
  } catch {
    return new Set();
  }
}

async function recordOrGone(parts: ManageParts, id: string): Promise<FileRecord | 'gone'> {
  try {
    return await parts.services.client.files.get(id);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return 'gone';
    throw error;
  }
}

