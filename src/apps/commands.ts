// Browse Apps… (an app opened as its page), Pull App…, Push App Revision… and App Revisions…: an app's CWL between the
// platform and the repository. A push is
// packed as the terminal packer packs it (cwlPack.ts), shown as a diff against the platform's latest revision, and
// sent as one write of the one write path (appRevisionWrite.ts); the platform's words about the document land on the
// lines they are about (cwlProblems.ts). CWL editing itself is left to the CWL language tools the person has.
import * as path from 'path';
import * as vscode from 'vscode';
import { appBaseId, appRevisionOf, checkShortId, type App, type RawApp } from '../api/apps';
import { ApiError } from '../api/errors';
import { isAppId } from '../api/ids';
import { COMMANDS, commandTitles } from '../keys/commands';
import { readState, STATE, writeState } from '../keys/state';
import { SCHEMES } from '../keys/schemes';
import type { Services } from '../services';
import { paletteTitle, plain, type Command, type CommandOptions } from '../ui/commands';
import { pickProject } from '../ui/projectPick';
import { relativeTime } from '../util/time';
import { waitsForPerson } from '../write/records';
import { withoutServerFields } from './appDocument';
import { pulledAppId, pulledRevision, revisionsOf } from './appRevisions';
import { formatOf, renderCwl, type CwlFormat } from './cwlText';
import { AppDocuments, appOfPage } from './appDocuments';
import { pickApp } from './appPick';
import type { AppRevisionOutcome } from './appRevisionWrite';
import { packCwl, PackError } from './cwlPack';
import { placeProblems } from './cwlProblems';
import { planPush, pushedSinceWords, type PushPlan } from './pushPlan';
import { revisionWords } from '../util/words';

/** How long a push waits for the lookup after a lost answer before saying it is being checked. */
const LOOKUP_WAIT_MS = 10_000;
const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

interface AppsParts {
  services: Services;
  documents: AppDocuments;
  problems: vscode.DiagnosticCollection;
}

export function appsCommands(services: Services): Command[] {
  const documents = new AppDocuments(services.client.apps);
  const problems = vscode.languages.createDiagnosticCollection('sevenbridges-cwl');
  services.context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEMES.app, documents), problems);
  const parts: AppsParts = { services, documents, problems };
  return [
    plain('pullApp', (...args) => pullApp(parts, args)),
    plain('pushAppRevision', (...args) => pushAppRevision(parts, args)),
    plain('showAppRevisions', (...args) => showAppRevisions(parts, args)),
    plain('browseApps', (...args) => browseApps(parts, args)),
    plain('showAppCwl', (...args) => showAppCwl(parts, args)),
  ];
}

// ---- Arguments: a menu's file (and the files selected with it), an app's ID, options from a script ----

const uriArg = (args: readonly unknown[]): vscode.Uri | undefined => args.find((a): a is vscode.Uri => a instanceof vscode.Uri);
const appArg = (args: readonly unknown[]): string | undefined => args.find((a): a is string => typeof a === 'string');
const optionsArg = (args: readonly unknown[]): CommandOptions =>
  (args.find((a) => typeof a === 'object' && a !== null && !Array.isArray(a) && !(a instanceof vscode.Uri) && !('groupId' in a)) as CommandOptions | undefined) ?? {};

const notAnAppId = (given: string): string => vscode.l10n.t('"{0}" is not an app ID (owner/project/app).', given);

/** `owner/project/app` given (or `…/3`), else picked: a project, then one of its apps. */
async function appOf(parts: AppsParts, given: unknown, title: string): Promise<string | undefined> {
  if (typeof given === 'string') {
    if (!isAppId(given)) throw new Error(notAnAppId(given));
    return given;
  }
  const project = await pickProject(parts.services.projects, { title, placeholder: vscode.l10n.t('The app is in which project?') });
  if (!project || project === 'none') return undefined;
  const listed = await parts.services.client.apps.list({ project: project.id }, { limit: 100 });
  if (!listed.items.length) throw new Error(vscode.l10n.t('{0} has no apps.', project.id));
  const picked = await vscode.window.showQuickPick(
    listed.items.map((app: App) => ({ label: app.name, description: app.id.split('/')[2], detail: revisionWords(app.revision), app })),
    { title, placeHolder: vscode.l10n.t('Which app?'), matchOnDescription: true, ignoreFocusOut: true },
  );
  return picked && appBaseId(picked.app.id);
}

/** Revisions of the app as quick pick items, newest first: who, when, notes. */
function revisionItems(parts: AppsParts, latest: RawApp): (vscode.QuickPickItem & { revision: number })[] {
  const now = parts.services.clock.now();
  const newest = pulledRevision(latest);
  return revisionsOf(latest).map((r) => ({
    label: r.revision === newest ? vscode.l10n.t('Revision {0} (latest)', r.revision) : vscode.l10n.t('Revision {0}', r.revision),
    description: [r.by, r.at !== undefined ? relativeTime(new Date(r.at), now) : undefined].filter(Boolean).join(' · '),
    detail: r.notes,
    revision: r.revision,
  }));
}

// ---- Pull App… ----

async function pullApp(parts: AppsParts, args: unknown[]): Promise<vscode.Uri | undefined> {
  const { services } = parts;
  const options = optionsArg(args);
  const title = paletteTitle(commandTitles().pullApp);
  const asked = await appOf(parts, appArg(args) ?? options.app, title);
  if (!asked) return undefined;
  const app = appBaseId(asked);
  let revision = appRevisionOf(asked) ?? (typeof options.revision === 'number' ? options.revision : undefined);
  const latest = await services.client.apps.raw(app);
  if (revision === undefined) {
    const items = revisionItems(parts, latest);
    const picked = items.length > 1 ? await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Which revision of {0}?', app), ignoreFocusOut: true }) : { revision: pulledRevision(latest) ?? 0 };
    if (!picked) return undefined;
    revision = picked.revision;
  }
  const cwl = revision === pulledRevision(latest) ? latest : await services.client.apps.raw(`${app}/${revision}`);
  const format = await formatChoice(options, title);
  if (!format) return undefined;
  const target = await pullTarget(options, app, title);
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, Buffer.from(await renderCwl(cwl, format), 'utf8'));
  await rememberFile(services, target, { app, revision });
  await vscode.window.showTextDocument(target, { preview: false });
  vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Pulled revision {0} of {1} into {2}', revision, app, vscode.workspace.asRelativePath(target))}`, 5_000);
  return target;
}

async function formatChoice(options: CommandOptions, title: string): Promise<CwlFormat | undefined> {
  if (options.format === 'json' || options.format === 'yaml') return options.format;
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'YAML', description: vscode.l10n.t('as CWL is usually written'), format: 'yaml' as const },
      { label: 'JSON', description: vscode.l10n.t('as the platform stores it'), format: 'json' as const },
    ],
    { title, placeHolder: vscode.l10n.t('Write the CWL as…'), ignoreFocusOut: true },
  );
  return picked?.format;
}

async function pullTarget(options: CommandOptions, app: string, title: string): Promise<vscode.Uri | undefined> {
  if (typeof options.target === 'string') return vscode.Uri.file(options.target);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${app.split('/')[2]}.cwl`; // JSON or YAML, a .cwl file: the CWL tools and this extension's menus know it
  return vscode.window.showSaveDialog({ title, defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, filters: { CWL: ['cwl', 'json', 'yaml', 'yml'] } });
}

// ---- Where a file goes, and what it was last ----

const fileKey = (uri: vscode.Uri): string => vscode.workspace.asRelativePath(uri, false);

async function rememberFile(services: Services, uri: vscode.Uri, entry: { app: string; revision: number }): Promise<void> {
  const store = services.context.workspaceState;
  await writeState(store, STATE.appFiles, { ...(readState(store, STATE.appFiles) ?? {}), [fileKey(uri)]: entry });
}

// ---- Push App Revision… ----

async function pushAppRevision(parts: AppsParts, args: unknown[]): Promise<AppRevisionOutcome | undefined> {
  const { services } = parts;
  const options = optionsArg(args);
  const title = paletteTitle(commandTitles().pushAppRevision);
  const file = uriArg(args) ?? (typeof options.file === 'string' ? vscode.Uri.file(options.file) : undefined) ?? (await fileToPush(title));
  if (!file) return undefined;
  const account = await services.account();
  if (!account) throw new Error(vscode.l10n.t('Sign in to push an app.'));
  const text = await textOf(file);
  const packed = await pack(file);
  if (!packed) return undefined;
  const remembered = readState(services.context.workspaceState, STATE.appFiles)?.[fileKey(file)];
  const app = typeof options.app === 'string' ? options.app : pulledAppId(packed) ?? remembered?.app ?? (await newAppId(parts, file, title));
  if (!app) return undefined;
  checkShortId(app);
  const latest = await latestOrNone(services, app);
  const plan = planPush(app, packed, latest, fileKey(file), remembered?.app === app ? remembered.revision : undefined);
  if (plan.unchanged) {
    vscode.window.setStatusBarMessage(`$(info) ${vscode.l10n.t('Nothing to push: {0} is what revision {1} of {2} holds.', plan.payload.source, plan.latest!.revision, app)}`, 5_000);
    return undefined;
  }
  if (!(await confirmPush(parts, plan, formatOf(file.path, text), options))) return undefined;
  const { finished, left } = await services.outbox.send<AppRevisionOutcome>(plan.kind, [plan.payload], account, { until: 'lookup', atMostMs: LOOKUP_WAIT_MS });
  if (!finished.length) {
    const refused = left.find(waitsForPerson);
    const words = refused?.note ?? vscode.l10n.t('The answer was lost: revision {0} of {1} is looked for on the platform, and sent again only if it is not there (see the Data Jobs view).', plan.payload.revision, app);
    if (refused) showProblems(parts, file, text, [words]);
    throw new Error(words);
  }
  const outcome = finished[0].outcome;
  await rememberFile(services, file, { app, revision: outcome.revision });
  const unplaced = showProblems(parts, file, text, outcome.validationErrors);
  const done = vscode.l10n.t('Pushed {0} as revision {1} of {2}.', plan.payload.source, outcome.revision, app);
  // Run this revision: its task document (the test inputs) one click away.
  const runIt = commandTitles().newTaskWithRevision;
  const told = unplaced.length ? vscode.window.showWarningMessage(`${done} ${vscode.l10n.t('The platform says: {0}', unplaced.join(' '))}`, runIt) : vscode.window.showInformationMessage(done, runIt);
  void told.then((choice) => choice === runIt && vscode.commands.executeCommand(COMMANDS.newTaskWithRevision, `${app}/${outcome.revision}`));
  return outcome;
}

/** The `.cwl` file of the active editor, else one picked. */
async function fileToPush(title: string): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === 'file' && /\.cwl$/i.test(active.path)) return active;
  const picked = await vscode.window.showOpenDialog({ title, canSelectMany: false, filters: { CWL: ['cwl', 'json', 'yaml', 'yml'] } });
  return picked?.[0];
}

/** A file's text as the editor holds it (unsaved changes included), else as on disk. */
async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

/** The file packed; a file outside the repository is asked about (once), a refusal said in words. */
async function pack(file: vscode.Uri): Promise<RawApp | undefined> {
  const root = vscode.workspace.getWorkspaceFolder(file)?.uri.fsPath ?? path.dirname(file.fsPath);
  const read = (p: string) => textOf(vscode.Uri.file(p));
  try {
    return (await packCwl(file.fsPath, read, { root })).cwl;
  } catch (error) {
    if (!(error instanceof PackError) || !error.outside) throw error;
    const yes = vscode.l10n.t('Pack It Too');
    const answer = await vscode.window.showWarningMessage(error.message, { modal: true, detail: vscode.l10n.t('It is not in the repository: what is pushed may not be what others check out.') }, yes);
    if (answer !== yes) return undefined;
    return (await packCwl(file.fsPath, read, { root, allowOutside: true })).cwl;
  }
}

/** A file that names no app: a new app, in a project picked, named as typed (the file's name offered). */
async function newAppId(parts: AppsParts, file: vscode.Uri, title: string): Promise<string | undefined> {
  const project = await pickProject(parts.services.projects, { title, placeholder: vscode.l10n.t('Push to an app of which project?') });
  if (!project || project === 'none') return undefined;
  const offered = path.basename(file.path).replace(/\.(cwl\.json|cwl|json|ya?ml)$/i, '').replace(/[^A-Za-z0-9_-]/g, '-').replace(/^[-_]+/, '');
  const name = await vscode.window.showInputBox({
    title,
    value: offered,
    prompt: vscode.l10n.t('The app in {0}: an app of that name gets a new revision, else it is made.', project.id),
    validateInput: (v) => (APP_NAME.test(v) ? undefined : vscode.l10n.t('Letters, digits, - and _, starting with a letter or digit.')),
    ignoreFocusOut: true,
  });
  return name === undefined ? undefined : `${project.id}/${name}`;
}

/** The app's latest revision as the platform serves it, or undefined when there is no such app (a push makes it). */
async function latestOrNone(services: Services, app: string): Promise<RawApp | undefined> {
  try {
    return await services.client.apps.raw(app);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The diff against the latest revision, then Push or Cancel; when someone pushed since the file was pulled, first
 * Compare, Push Anyway or Cancel. `{ confirm: false }` from a script pushes without asking.
 */
async function confirmPush(parts: AppsParts, plan: PushPlan, format: CwlFormat, options: CommandOptions): Promise<boolean> {
  if (options.confirm === false) return true;
  const { app, revision, source } = plan.payload;
  const diffTitle = plan.latest
    ? revisionsTitle(app, plan.latest.revision, source)
    : vscode.l10n.t('{0}: a new app ↔ {1}', app, source);
  const showDiff = () => parts.documents.diff({ name: `${app.split('/')[2]}-${plan.latest?.revision ?? 'new'}.cwl`, cwl: plan.before }, { name: path.basename(source), cwl: plan.after }, format, diffTitle);
  if (plan.pushedSince) {
    const compare = vscode.l10n.t('Compare');
    const anyway = vscode.l10n.t('Push Anyway');
    const when = plan.latest?.at !== undefined ? relativeTime(new Date(plan.latest.at), parts.services.clock.now()) : undefined;
    const answer = await vscode.window.showWarningMessage(pushedSinceWords(plan, when), { modal: true }, compare, anyway);
    if (answer === anyway) return true;
    if (answer !== compare) return false;
  }
  await showDiff();
  const push = vscode.l10n.t('Push');
  const question = plan.latest
    ? vscode.l10n.t('Push {0} as revision {1} of {2}? The diff shows what changes.', source, revision, app)
    : vscode.l10n.t('Push {0} as the new app {1}?', source, app);
  return (await vscode.window.showInformationMessage(question, push, vscode.l10n.t('Cancel'))) === push;
}

/** A diff's title: the app, the revision on the left, what is on the right (a revision, or the file pushed). */
const revisionsTitle = (app: string, left: number, right: number | string): string =>
  vscode.l10n.t({ message: '{0}: revision {1} ↔ {2}', args: [app, left, right], comment: ['{2}: another revision, or the file pushed'] });

/** The platform's words on the file's lines where they name something it defines; the rest returned, to be said. */
function showProblems(parts: AppsParts, file: vscode.Uri, text: string, messages: readonly string[]): string[] {
  const { placed, unplaced } = placeProblems(text, messages);
  parts.problems.set(
    file,
    placed.map((p) => {
      const diagnostic = new vscode.Diagnostic(new vscode.Range(p.line, p.start, p.line, p.end), p.message, vscode.DiagnosticSeverity.Warning);
      diagnostic.source = vscode.l10n.t('Seven Bridges');
      return diagnostic;
    }),
  );
  return unplaced;
}

// ---- App Revisions… ----

/** An app's revisions with who made each and when: one picked opens read-only, two picked are compared. */
async function showAppRevisions(parts: AppsParts, args: unknown[]): Promise<void> {
  const { services } = parts;
  const options = optionsArg(args);
  const title = paletteTitle(commandTitles().showAppRevisions);
  const asked = await appOf(parts, appArg(args) ?? options.app, title);
  if (!asked) return;
  const app = appBaseId(asked);
  const latest = await services.client.apps.raw(app);
  const chosen = Array.isArray(options.revisions)
    ? options.revisions.filter((r): r is number => typeof r === 'number')
    : (await vscode.window.showQuickPick(revisionItems(parts, latest), { title, canPickMany: true, placeHolder: vscode.l10n.t('Pick one to open it, two to compare them'), ignoreFocusOut: true }))?.map((i) => i.revision);
  if (!chosen?.length) return;
  if (chosen.length > 2) throw new Error(vscode.l10n.t('Pick one revision to open, or two to compare: {0} were picked.', chosen.length));
  if (chosen.length === 1) {
    await vscode.window.showTextDocument(parts.documents.revisionUri(app, chosen[0]), { preview: false });
    return;
  }
  const [older, newer] = [...chosen].sort((a, b) => a - b);
  const [left, right] = await Promise.all([older, newer].map((r) => (r === pulledRevision(latest) ? latest : services.client.apps.raw(`${app}/${r}`))));
  const short = app.split('/')[2];
  await parts.documents.diff({ name: `${short}-${older}.cwl`, cwl: withoutServerFields(left) }, { name: `${short}-${newer}.cwl`, cwl: withoutServerFields(right) }, 'yaml', revisionsTitle(app, older, newer));
}

// ---- Browse Apps…: an app opened ----

/** An app (given by its ID, else picked among yours and the public ones) opened as its page: inputs, outputs, revisions. */
async function browseApps(parts: AppsParts, args: unknown[]): Promise<vscode.Uri | undefined> {
  const { services } = parts;
  const given = appArg(args) ?? optionsArg(args).app;
  let id: string;
  if (typeof given === 'string') {
    if (!isAppId(given)) throw new Error(notAnAppId(given));
    id = appRevisionOf(given) === undefined ? (await services.client.apps.get(given)).id : given;
  } else {
    const picked = await pickApp(services.client.apps, services.clock, { title: paletteTitle(commandTitles().browseApps) });
    if (!picked) return undefined;
    id = picked.id;
  }
  const uri = parts.documents.pageUri(appBaseId(id), appRevisionOf(id) ?? 0);
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}

/** Show App CWL: the CWL of the revision an app's page shows, read-only, as the platform serves it. */
async function showAppCwl(parts: AppsParts, args: unknown[]): Promise<vscode.Uri | undefined> {
  const page = [uriArg(args), vscode.window.activeTextEditor?.document.uri].map((u) => u && appOfPage(u)).find(Boolean);
  if (!page) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: open an app with Browse Apps… first.', commandTitles().showAppCwl));
    return undefined;
  }
  const uri = parts.documents.revisionUri(page.app, page.revision);
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}
