// Starting work from the editor (issue 39): New Task… opens a task document for an app; Run Task and Save as Draft
// send it (a task made exactly once: the `task.create` write; a draft's document saved over its draft: `task.saveDraft`,
// then run); Open Draft as Task Document opens a DRAFT as the same document. The document's rules are the models'.
import * as path from 'path';
import * as vscode from 'vscode';
import { appBaseId, type App } from '../api/apps';
import type { Task } from '../api/types';
import { needWords, typeName, type AppInput } from '../apps/cwlInputs';
import { commandTitles } from '../keys/commands';
import { WRITE_KINDS } from '../keys/writes';
import { onMany, onOne, plain, type Command, type CommandOptions } from '../ui/commands';
import { fileTarget, type FileRef } from '../files/targets';
import { placeFiles, type PickedFile } from './filesToInputs';
import type { KnownFile } from './taskDocumentFacts';
import { andMore } from '../util/words';
import { pickProject } from '../ui/projectPick';
import { appOfPage } from '../apps/appDocuments';
import { pickApp } from '../apps/appPick';
import { describeOutcome, notSignedIn, outcomeOf, outcomeWords, type ActionOutcome } from './actions';
import type { CreateTaskPayload } from './taskWrites';
import type { ExecutionParts } from './executionCommands';
import type { FilterModel } from './filterModel';
import { sameDraftState, type SaveDraftPayload } from './taskWrites';
import { taskTarget, type TaskRef } from './targets';
import type { TaskTreeNode } from './taskNodes';
import { renderTaskDocument, type TaskDocument } from './taskDocument';
import { isTaskDocument, runTaskWords, saveAsDraftWords, type TaskDocumentLanguage } from './taskDocumentLanguage';
import { documentOfTask, draftChanges, draftState, inputFileNames, stateAfter, taskRequest } from './taskRequest';
import { platformProblems } from './taskValidation';
import { runForEachRow } from './sheetCommands';
import { lastDocumentFor, revisionEdits, type DocumentCandidate } from './revisionDocument';
import { parseTaskDocument } from './taskDocument';
import { draftLineEdit } from './draftLine';
import { TASK_DOCUMENT_GLOB } from './taskDocumentName';
import { revisionOfDocumentPath } from '../apps/appRevisions';
import { appRevisionOf } from '../api/apps';
import { SCHEMES } from '../keys/schemes';

export interface TaskDocumentParts extends ExecutionParts {
  language: TaskDocumentLanguage;
  view: vscode.TreeView<TaskTreeNode>;
  /** Run for Each Row… shows the tasks it made as one set. */
  filters: FilterModel;
}

/** How long Run Task waits for the lookup after a lost answer before saying it is being checked. */
const LOOKUP_WAIT_MS = 10_000;

export function taskDocumentCommands(parts: TaskDocumentParts): Command[] {
  const task = taskTarget(parts.services);
  return [
    plain('newTask', (app) => newTask(parts, app)),
    plain('runTaskDocument', (uri) => submitDocument(parts, uri, true)),
    plain('saveTaskDocumentDraft', (uri) => submitDocument(parts, uri, false)),
    plain('runForEachRow', (...args) => runForEachRow(parts, args)),
    plain('newTaskWithRevision', (given) => newTaskWithRevision(parts, given)),
    onMany('runAppOnFiles', { type: fileTarget(parts.services), ask: { prompt: () => vscode.l10n.t('The IDs of the files and folders to run an app on') } }, (files, options) => runAppOnFiles(parts, files, options)),
    onOne('openDraftAsDocument', { type: task, fits: (t) => t.status === 'DRAFT', ask: { query: () => ({ status: 'DRAFT' as const }) } }, (t) => openDraft(parts, t)),
  ];
}

/** New Task…: an app (given: its ID, or the page it was opened as; else picked among yours and the public ones), the project to run in, and its document opened. */
async function newTask(parts: TaskDocumentParts, given: unknown): Promise<void> {
  const app = await appToRun(parts, given);
  if (!app) return;
  const project = await projectToRun(parts, app);
  if (!project) return;
  await openNewDocument(parts, app, project, {});
}

/** The app New Task… runs: an ID, an app's page, else one picked. */
async function appToRun(parts: TaskDocumentParts, given: unknown): Promise<App | undefined> {
  const { client, clock } = parts.services;
  const page = given instanceof vscode.Uri ? appOfPage(given) : undefined;
  const id = page ? `${page.app}/${page.revision}` : typeof given === 'string' ? given : undefined;
  if (id) return client.apps.get(id);
  return pickApp(client.apps, clock, { title: commandTitles().newTask, placeholder: vscode.l10n.t('The app to run (type to search)') });
}

/** An app of one of your projects runs there; any other (a public app) asks in which of yours. */
async function projectToRun(parts: TaskDocumentParts, app: App): Promise<string | undefined> {
  const { projects } = parts.services;
  if ((await projects.all()).some((p) => p.id === app.project)) return app.project;
  const picked = await pickProject(projects, { title: vscode.l10n.t('New Task: the project to run "{0}" in', app.name) });
  return picked && picked !== 'none' ? picked.id : undefined;
}

/** A task document for the app's revision in the project, its inputs as given, every other input a line to fill in. */
async function openNewDocument(parts: TaskDocumentParts, app: App, project: string, inputs: Record<string, unknown>, names?: ReadonlyMap<string, string>): Promise<vscode.TextDocument> {
  const revision = `${appBaseId(app.id)}/${app.revision}`;
  const facts = await parts.language.facts.app(revision);
  if ('error' in facts) throw facts.error;
  const doc: TaskDocument = { app: revision, project, name: app.name, inputs };
  return openDocument(parts, `${safeName(app.name)}.sbtask.yaml`, renderTaskDocument(doc, { order: inputOrder(facts.inputs), names }));
}

/**
 * New Task with This Revision (after Push App Revision…, or on a revision's read-only document): the task document
 * last changed for the app (its test inputs) moved to this revision, else New Task… for it. `given`: the app's ID with
 * its revision, or a revision's document.
 */
async function newTaskWithRevision(parts: TaskDocumentParts, given: unknown): Promise<vscode.TextDocument | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const uri = given instanceof vscode.Uri ? given : active?.scheme === SCHEMES.app ? active : undefined;
  const app = typeof given === 'string' ? given : uri && revisionOfDocumentPath(uri.path);
  if (!app || appRevisionOf(app) === undefined) {
    throw new Error(vscode.l10n.t('{0}: give an app with its revision (owner/project/app/3), or open a revision from App Revisions….', commandTitles().newTaskWithRevision));
  }
  const last = lastDocumentFor(await workspaceTaskDocuments(parts), app);
  if (!last) {
    await newTask(parts, app);
    return vscode.window.activeTextEditor?.document;
  }
  const document = await vscode.workspace.openTextDocument(last.key);
  const edit = new vscode.WorkspaceEdit();
  for (const e of revisionEdits(document.getText(), last.parsed, app)) edit.replace(document.uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text);
  await vscode.workspace.applyEdit(edit);
  await vscode.window.showTextDocument(document, { preview: false });
  void parts.language.check(document);
  vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('{0} now runs {1}: Run Task at its top.', path.basename(document.uri.path), app)}`, 8000);
  return document;
}

/** The task documents open (unsaved changes included: changed now) and those of the workspace's folders (their last save). */
async function workspaceTaskDocuments(parts: TaskDocumentParts): Promise<DocumentCandidate<vscode.Uri>[]> {
  const open = new Map(vscode.workspace.textDocuments.filter(isTaskDocument).map((d) => [d.uri.toString(), d]));
  const files = await vscode.workspace.findFiles(TASK_DOCUMENT_GLOB, '**/node_modules/**', 500);
  const uris = [...new Map([...[...open.values()].map((d) => d.uri), ...files].map((u) => [u.toString(), u])).values()];
  const now = parts.services.clock.now();
  const read = await Promise.all(
    uris.map(async (uri) => {
      const held = open.get(uri.toString());
      try {
        const text = held ? held.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
        const modified = held && (held.isDirty || held.isUntitled) ? now : (await vscode.workspace.fs.stat(uri)).mtime;
        return { key: uri, parsed: await parseTaskDocument(text), modified };
      } catch {
        // Deleted since (a document may stay open after its file is gone): not a candidate.
        return undefined;
      }
    }),
  );
  return read.filter((c) => c !== undefined);
}

/** The most names a message lists of the files that fit no input. */
const NAMED = 5;

/**
 * Run App on These Files…: an app picked (or `{ app }` from a script), its task document opened in the files' project
 * with the files and folders placed into the inputs they fit (filesToInputs.ts); what fits none is said.
 */
async function runAppOnFiles(parts: TaskDocumentParts, refs: FileRef[], options: CommandOptions): Promise<{ document: vscode.TextDocument; unplaced: PickedFile[] } | undefined> {
  const title = commandTitles().runAppOnFiles;
  const records = await Promise.all(refs.map((f) => recordOf(parts, f)));
  const projects = [...new Set(records.map((r) => r.project).filter((p): p is string => !!p))];
  if (projects.length !== 1) throw new Error(vscode.l10n.t('{0}: a task runs in one project, and these files are in {1}. Select files of one project.', title, projects.length));
  const app = typeof options.app === 'string' ? await parts.services.client.apps.get(options.app) : await pickApp(parts.services.client.apps, parts.services.clock, { title, placeholder: vscode.l10n.t('The app to run on {0} (type to search)', fileNames(records)) });
  if (!app) return undefined;
  const facts = await parts.language.facts.app(`${appBaseId(app.id)}/${app.revision}`);
  if ('error' in facts) throw facts.error;
  parts.language.facts.learn(records, false);
  const placement = placeFiles(facts.inputs, records.map((r) => ({ id: r.id, name: r.name, folder: r.type === 'folder' })));
  const document = await openNewDocument(parts, app, projects[0], placement.inputs, new Map(records.map((r) => [r.id, r.name])));
  if (placement.unplaced.length) {
    const [one, ...more] = placement.unplaced;
    void vscode.window.showWarningMessage(
      more.length
        ? vscode.l10n.t('{0} files fit no input of "{1}" by their file types: {2}. Add them where they belong in the document.', placement.unplaced.length, app.name, fileNames(placement.unplaced))
        : vscode.l10n.t('"{0}" fits no input of "{1}" by its file types. Add it where it belongs in the document.', one.name, app.name),
    );
  }
  return { document, unplaced: placement.unplaced };
}

/** What a file's row knows of it (its project as the row above it says), else its record read (an ID from a script). */
async function recordOf(parts: TaskDocumentParts, ref: FileRef): Promise<KnownFile> {
  if (ref.name && ref.project) return { id: ref.id, name: ref.name, project: ref.project, type: ref.folder ? 'folder' : 'file' };
  return parts.services.client.files.get(ref.id);
}

const fileNames = (files: readonly { name: string }[]): string =>
  [...files.slice(0, NAMED).map((f) => `"${f.name}"`), ...(files.length > NAMED ? [andMore(files.length - NAMED)] : [])].join(', ');

/** Each input as a line to fill in, with what it takes. */
function inputOrder(inputs: readonly AppInput[]): { id: string; hint: string }[] {
  return inputs.map((i) => ({ id: i.id, hint: [typeName(i.type), needWords(i), i.label].filter(Boolean).join(' · ') }));
}

const safeName = (name: string): string => name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'task';

/** An untitled task document of that name (beside the workspace's first folder, where Save puts it), opened with the text. */
async function openDocument(parts: TaskDocumentParts, name: string, text: string): Promise<vscode.TextDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const taken = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
  let file = path.join(folder, name);
  for (let n = 2; taken.has(file); n++) file = path.join(folder, name.replace(/\.sbtask\.yaml$/, `-${n}.sbtask.yaml`));
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file).with({ scheme: 'untitled' }));
  const editor = await vscode.window.showTextDocument(document);
  await editor.edit((e) => e.insert(new vscode.Position(0, 0), text));
  void parts.language.check(document);
  return document;
}

/** Open Draft as Task Document: the draft as the document that made it; saving it saves over the draft. */
async function openDraft(parts: TaskDocumentParts, ref: TaskRef): Promise<void> {
  const draft = await parts.services.client.tasks.get(ref.id);
  const facts = draft.app ? await parts.language.facts.app(draft.app) : undefined;
  const order = facts && 'inputs' in facts ? inputOrder(facts.inputs) : undefined;
  const document = await openDocument(parts, `${safeName(draft.name || draft.id)}.sbtask.yaml`, renderTaskDocument(documentOfTask(draft), { names: inputFileNames(draft), order }));
  parts.language.draftOpened(document.uri, draftState(draft));
}

/** Run Task (`run`) and Save as Draft: the document checked, then sent as one write; the outcome told. */
async function submitDocument(parts: TaskDocumentParts, given: unknown, run: boolean): Promise<void> {
  const document = given instanceof vscode.Uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === given.toString()) : vscode.window.activeTextEditor?.document;
  const title = run ? runTaskWords() : saveAsDraftWords();
  if (!document || !isTaskDocument(document)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: open a task document (a .sbtask.yaml file) first, or make one with New Task….', title));
    return;
  }
  const errors = (await parts.language.check(document)).filter((p) => p.severity === 'error');
  if (errors.length) {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0}: the document has {1} problems (see the Problems view); nothing was sent.', title, errors.length));
    return;
  }
  const { parsed, app } = await parts.language.read(document);
  const inputs = app && 'inputs' in app ? app.inputs : [];
  const account = await parts.services.account();
  if (!account) throw new Error(notSignedIn());
  const patience = { until: 'lookup' as const, atMostMs: LOOKUP_WAIT_MS };
  const draftId = parsed.document.draft;
  let outcome: ActionOutcome;
  if (draftId) {
    const now = await parts.services.client.tasks.get(draftId);
    if (now.status !== 'DRAFT') throw new Error(vscode.l10n.t('"{0}" is no longer a draft ({1}): remove its "draft:" line to make a new task.', now.name, now.status ?? '?'));
    const opened = parts.language.draftAsOpened(document.uri);
    if (opened && !sameDraftState(opened, draftState(now))) {
      const overwrite = vscode.l10n.t('Save Over It');
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t('The draft "{0}" was changed on the platform since you opened it.', now.name), { modal: true, detail: vscode.l10n.t('Save this document over it, or cancel and open the draft again to see its changes.') }, overwrite);
      if (choice !== overwrite) return;
    }
    const changes = draftChanges(parsed.document, inputs, now);
    const before = draftState(now);
    const payload: SaveDraftPayload = { id: draftId, before, after: stateAfter(before, changes), changes };
    outcome = outcomeOf(await parts.services.outbox.send<Task>(WRITE_KINDS.saveDraft, [payload], account, patience));
    if ('task' in outcome) parts.language.draftOpened(document.uri, draftState({ ...now, ...outcome.task, inputs: payload.after.inputs }));
  } else {
    const payload: CreateTaskPayload = { task: taskRequest(parsed.document, inputs), run };
    outcome = outcomeOf(await parts.services.outbox.send<Task>(WRITE_KINDS.createTask, [payload], account, patience));
  }
  if (!('task' in outcome)) throw new Error(outcomeWords(title, outcome));
  let made = outcome.task;
  const problems = [...platformProblems(parsed, made.errors ?? [], 'error'), ...platformProblems(parsed, made.warnings ?? [], 'warning')];
  parts.language.showPlatformProblems(document, problems);
  const refused = problems.filter((p) => p.severity === 'error').length;
  try {
    if (made.status === 'DRAFT' && refused) {
      void vscode.window.showErrorMessage(vscode.l10n.t('"{0}" was saved as a draft, not run: the platform found {1} problems, shown on the lines they name. Fix them and Run Task again.', made.name ?? '', refused));
      return;
    }
    if (run && made.status === 'DRAFT') {
      const ran = await parts.sender.sendTaskAction('run', made);
      if (!('task' in ran)) throw new Error(describeOutcome('run', made, ran));
      made = ran.task;
    }
  } finally {
    await markDraft(document, made);
  }
  parts.tree.addTask(made);
  // Shown in the Tasks view, selected, first: its group's page is read before the refresh's counts, which would
  // otherwise take the connections ahead of it (a round trip more before the row is drawn). Watched after: a change
  // of the view within 200 ms of the new row's holds the reveal back until VS Code draws both (it batches them).
  try {
    const node = await parts.tree.taskNode(made);
    if (node) await parts.view.reveal(node, { select: true, focus: false });
  } finally {
    if (run) await parts.watcher.watch(made);
    void parts.refresher.refreshNow();
  }
  const said = run ? vscode.l10n.t('"{0}" is queued to run. You will be told when it ends.', made.name ?? '') : vscode.l10n.t('"{0}" is saved as a draft.', made.name ?? '');
  vscode.window.setStatusBarMessage(`$(check) ${said}`, 8000);
}

/** The document's `draft:` line made to name the task while it is a draft, taken out once it runs (./draftLine.ts). */
async function markDraft(document: vscode.TextDocument, task: Task): Promise<void> {
  const text = document.getText();
  const change = draftLineEdit(text, await parseTaskDocument(text), task);
  if (!change) return;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)), change.text);
  await vscode.workspace.applyEdit(edit);
}
