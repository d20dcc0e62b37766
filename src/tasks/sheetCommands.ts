// Run for Each Row… (issue 39): a task document as the template and a sample sheet make one task per row. The sheet's
// file names are found in the project, every row checked and shown in a preview, then one confirmation; each task is
// a `task.createFromSheet` write (made exactly once, held back while the API budget is nearly spent), with progress,
// Cancel and a summary; the tasks made are followed as one set: the Tasks view's filter, and one notification when all end. The rules are ./sampleSheet.ts's and ./sheetFiles.ts's.
import * as path from 'path';
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import type { Task } from '../api/types';
import { commandTitles } from '../keys/commands';
import { WRITE_KINDS } from '../keys/writes';
import { SCHEMES } from '../keys/schemes';
import { paletteTitle, type CommandOptions } from '../ui/commands';
import { delimiterOf, readDelimited, type TableRow } from '../util/delimited';
import { count, taskCount } from '../util/words';
import { waitsForPerson, type Account } from '../write/records';
import { notSignedIn } from './actions';
import { followedSet, sendTasks, warnWithRest } from './batchCommands';
import { bulkPace } from './paced';
import type { RerunWatch } from './rerunFailed';
import { planSheet, readyTasks, sheetColumns, sheetConfirmation, sheetFileCells, sheetPayloads, sheetPreview, sheetSummary, type SheetPlan } from './sampleSheet';
import { findSheetFiles, readSheetIds } from './sheetFiles';
import type { Services } from '../services';
import type { FilterModel } from './filterModel';
import type { Refresher } from './refresher';
import type { TaskDocumentLanguage } from './taskDocumentLanguage';
import { isTaskDocumentName, TASK_DOCUMENT_GLOB } from './taskDocumentName';

const SHEET_NAME = /\.(csv|tsv|tab|txt)$/i;

/** What a run of a sheet did: its plan, and the tasks made (for the tests and the bench). */
export interface SheetRun {
  plan: SheetPlan;
  preview: string;
  made: Task[];
  /** Tasks the platform made as drafts and did not run (inputs it refused). */
  drafts?: Task[];
  /** The made tasks followed as one set, until all have ended. */
  watch?: RerunWatch;
  /** After a Cancel: makes the tasks not sent (what Make the Rest does). */
  rest?: () => Promise<SheetRun>;
}

/** What Run for Each Row… uses of the task explorer (taskDocumentCommands.ts's parts). */
export interface SheetParts {
  services: Services;
  language: Pick<TaskDocumentLanguage, 'read'>;
  refresher: Pick<Refresher, 'refreshNow'>;
  filters: Pick<FilterModel, 'set' | 'filter'>;
}

/**
 * Run for Each Row…: from a task document's title (the sheet asked for), a sheet's Explorer menu (the template asked
 * for), or the palette. A script passes `{ template, sheet, confirm: false }` (paths).
 */
export async function runForEachRow(parts: SheetParts, args: readonly unknown[]): Promise<SheetRun | undefined> {
  const title = paletteTitle(commandTitles().runForEachRow);
  const options = (args.find((a) => typeof a === 'object' && a !== null && !(a instanceof vscode.Uri) && !Array.isArray(a)) as CommandOptions | undefined) ?? {};
  const given = args.find((a): a is vscode.Uri => a instanceof vscode.Uri);
  const pathOption = (key: string) => (typeof options[key] === 'string' ? vscode.Uri.file(options[key] as string) : undefined);
  const templateUri = pathOption('template') ?? (given && isTaskDocumentName(given.path) ? given : undefined) ?? (await templateToUse(title));
  if (!templateUri) return undefined;
  const sheetUri = pathOption('sheet') ?? (given && SHEET_NAME.test(given.path) ? given : undefined) ?? (await sheetToUse(title));
  if (!sheetUri) return undefined;

  const template = await vscode.workspace.openTextDocument(templateUri);
  const { parsed, app } = await parts.language.read(template);
  const broken = parsed.problems.find((p) => p.severity === 'error');
  if (broken || !parsed.document.app || !parsed.document.project) {
    throw new Error(vscode.l10n.t('{0}: the task document {1} has problems (see the Problems view): {2}', title, path.basename(templateUri.path), broken?.message ?? vscode.l10n.t('it names no app or no project.')));
  }
  if (!app || 'error' in app) throw app && 'error' in app ? app.error : new Error(vscode.l10n.t('{0}: the app of the task document could not be read.', title));
  const project = parsed.document.project;
  const sheetName = path.basename(sheetUri.path);
  const text = Buffer.from(await vscode.workspace.fs.readFile(sheetUri)).toString('utf8');
  let rows: TableRow[];
  try {
    rows = readDelimited(text, delimiterOf(sheetName, text));
  } catch (error) {
    throw new Error(`${title}: ${sheetName}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { services } = parts;
  // A sheet unusable as a whole (no rows, a column given twice, no input named) is said before any file is looked for.
  const columns = rows.length > 1 ? sheetColumns(rows[0].cells, app.inputs) : undefined;
  const cells = columns && !columns.problems.length ? sheetFileCells(rows.slice(1), columns) : { names: [], ids: [] };
  const looked =
    cells.names.length || cells.ids.length
      ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Looking for the {0} files of {1} in {2}', cells.names.length + cells.ids.length, sheetName, project), cancellable: true }, async (_p, token) => {
          const controller = new AbortController();
          const cancel = token.onCancellationRequested(() => controller.abort());
          const options = { signal: controller.signal, pace: bulkPace(services.client.budget, services.clock, controller.signal) };
          try {
            return { found: await findSheetFiles(services.client, project, cells.names, options), known: await readSheetIds(services.client, cells.ids, options) };
          } finally {
            cancel.dispose();
          }
        })
      : { found: new Map(), known: new Map() };
  const plan = planSheet({ rows, template: parsed.document, inputs: app.inputs, ...looked });
  const preview = sheetPreview(plan, sheetName, parsed.document);
  if (plan.problems.length) throw new Error(`${title}: ${plan.problems.join(' ')}`);
  const ready = readyTasks(plan);
  if (options.confirm !== false) await showPreview(services, sheetName, preview);
  if (!ready.length) throw new Error(vscode.l10n.t('{0}: none of the {1} rows of {2} can be made; the preview says why.', title, plan.tasks.length, sheetName));
  if (options.confirm !== false) {
    const { message, detail } = sheetConfirmation(plan, sheetName, parsed.document);
    const make = vscode.l10n.t('Make {0}', taskCount(ready.length));
    if ((await vscode.window.showWarningMessage(message, { modal: true, detail }, make)) !== make) return { plan, preview, made: [] };
  }
  const account = await services.account();
  if (!account) throw new ApiError({ kind: 'signedOut', message: notSignedIn() });
  const signal = options.signal instanceof AbortSignal ? options.signal : undefined;
  return makeSheetTasks(parts, { plan, preview, sheetName, account, leftOut: plan.tasks.length - ready.length }, sheetPayloads(plan, app.inputs), [], signal);
}

/** A sheet's run once confirmed: what each sending of its tasks shares. */
interface SheetSending {
  plan: SheetPlan;
  preview: string;
  sheetName: string;
  account: Account;
  /** Rows left out for their problems. */
  leftOut: number;
}

/**
 * Sends the tasks (`earlier`: made by the sending before, when this makes the rest), says how it went and follows
 * those made as one set. After a Cancel, the tasks not sent are offered as **Make the Rest**: running the sheet again
 * would make the rows already made a second time.
 */
async function makeSheetTasks(parts: SheetParts, run: SheetSending, payloads: readonly unknown[], earlier: readonly Task[], signal?: AbortSignal): Promise<SheetRun> {
  const { services } = parts;
  const settled = await sendTasks(services, WRITE_KINDS.createSheetTask, payloads, run.account, vscode.l10n.t('Making {0} from {1}', taskCount(payloads.length), run.sheetName), new AbortController(), signal);
  const { finished, left, withdrawn } = settled;
  // A task the platform could not run (an input it refused) is made as a DRAFT with its errors: not run, said as failed.
  const drafts = finished.map((f) => f.outcome).filter((t) => t.status === 'DRAFT');
  const made = finished.map((f) => f.outcome).filter((t) => t.status !== 'DRAFT');
  const refused = left.filter(waitsForPerson);
  const failed = [...refused.map((r) => `${r.label ?? ''}: ${r.note ?? r.state}`), ...drafts.map((t) => `${t.name ?? t.id}: ${draftWords(t)}`)];
  const summary = sheetSummary(
    { made: earlier.length + made.length, failed, pending: left.length - refused.length, notSent: withdrawn.length, leftOut: run.leftOut },
    run.sheetName,
  );
  const all = [...earlier, ...made];
  const rest = withdrawn.length ? () => makeSheetTasks(parts, run, withdrawn.map((r) => r.payload), all) : undefined;
  if ('warning' in summary) {
    warnWithRest(summary.warning, rest && { button: vscode.l10n.t('Make the Rest ({0})', count(withdrawn.length)), send: rest }, paletteTitle(commandTitles().runForEachRow));
  } else {
    vscode.window.setStatusBarMessage(`$(check) ${summary.done}`, 8000);
  }
  const set = followedSet(services, { account: run.account.key, sheet: run.sheetName });
  // One on its way at a Cancel (or found later after a lost answer) joins the set when the platform has it.
  const joining = settled.later(({ outcome }) => {
    if (outcome.status === 'DRAFT') return;
    set.follow([outcome]);
    all.push(outcome);
    if (parts.filters.filter.set?.name === run.sheetName) void parts.filters.set({ set: { name: run.sheetName, ids: all.map((t) => t.id) } }).then(() => parts.refresher.refreshNow());
  });
  services.context.subscriptions.push(joining);
  const result: SheetRun = { plan: run.plan, preview: run.preview, made, drafts, ...(rest ? { rest } : {}) };
  if (!made.length) return result;
  set.follow(made);
  // The Tasks view shows just them ("sheet samples.csv, 12 tasks"), until Clear Task Filters.
  await parts.filters.set({ set: { name: run.sheetName, ids: all.map((t) => t.id) } });
  void parts.refresher.refreshNow();
  return { ...result, watch: set.watch };
}

/** Why a task of the sheet was left a draft: the platform's errors, in its words. */
function draftWords(task: Task): string {
  const why = (task.errors ?? []).map((e) => (typeof e === 'string' ? e : (e as { message?: string }).message ?? JSON.stringify(e))).join('; ');
  return why ? vscode.l10n.t('saved as a draft, not run: {0}', why) : vscode.l10n.t('saved as a draft, not run');
}

/** The previews shown, by URI: read-only documents (closing one asks nothing), the last few kept. */
const previews = new Map<string, string>();
let previewsProvided = false;
let previewsShown = 0;
const KEPT_PREVIEWS = 10;

async function showPreview(services: Services, sheet: string, text: string): Promise<void> {
  if (!previewsProvided) {
    previewsProvided = true;
    services.context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEMES.sheetPreview, { provideTextDocumentContent: (uri) => previews.get(uri.toString()) ?? '' }));
  }
  const uri = vscode.Uri.from({ scheme: SCHEMES.sheetPreview, path: `/${++previewsShown}/${sheet}.md` });
  previews.set(uri.toString(), text);
  if (previews.size > KEPT_PREVIEWS) previews.delete(previews.keys().next().value!);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(document, 'markdown'), { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

/** The active editor's task document, else one of the workspace's (or those open) picked. */
async function templateToUse(title: string): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  if (active && isTaskDocumentName(active.uri.path)) return active.uri;
  const open = vscode.workspace.textDocuments.filter((d) => isTaskDocumentName(d.uri.path)).map((d) => d.uri);
  const files = await vscode.workspace.findFiles(TASK_DOCUMENT_GLOB, '**/node_modules/**', 200);
  const all = [...new Map([...open, ...files].map((u) => [u.toString(), u])).values()];
  if (!all.length) throw new Error(vscode.l10n.t('{0}: there is no task document to use as the template. Make one with New Task… first.', title));
  const picked = await vscode.window.showQuickPick(
    all.map((uri) => ({ label: path.basename(uri.path), description: vscode.workspace.asRelativePath(uri), uri })),
    { title, placeHolder: vscode.l10n.t('The task document each row fills in (its app, project and settings)'), ignoreFocusOut: true },
  );
  return picked?.uri;
}

async function sheetToUse(title: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({ title, canSelectMany: false, openLabel: vscode.l10n.t('Use This Sheet'), filters: { [vscode.l10n.t('Sample sheets')]: ['csv', 'tsv', 'tab', 'txt'] } });
  return picked?.[0];
}
