// Everything the extension does, started by extension.ts right after activation (see there why it is a file of
// its own in the bundle).
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { SbClient } from './api/client';
import { systemClock } from './api/clock';
import { ProjectCache } from './api/projects';
import { BudgetNotice } from './ui/budgetNotice';
import { registerCommands, Selections, type Command, type OnFirstUse } from './ui/commands';
import { Session } from './auth/session';
import { registerAuth } from './auth/register';
import { registerTasks, type TaskExplorer } from './tasks/register';
import { registerCopy, type CopyFeature } from './copy/register';
import { registerFiles, type FilesFeature } from './files/register';
import { followCopyJobs, registerJobs, type JobsFeature } from './jobs/register';
import { Transfers } from './jobs/transfers';
import type { JobReader } from './jobs/tracker';
import { ResumeBook, type DownloadResume, type UploadRunResume } from './transfer/resumeState';
import { interruptedDownloads, interruptedRun } from './remote/interrupted';
import { COMMANDS } from './keys/commands';
import { onFirstRun } from './lazyStart';
import { later } from './util/later';
import type * as Authoring from './authoring';
import type * as Features from './features';
import { migrateState } from './keys/state';
import { registerRemote } from './remote/register';
import { registerVolumes, type VolumesFeature } from './volumes/register';
import type { RemoteParts } from './remote/open';
import type { Services } from './services';
import { requestLogger } from './ui/requestLog';
import { Outbox } from './write/outbox';
import { useDisplayLanguage } from './util/time';

/** How long after the start the HTTP stack is warmed: well clear of the start, before most first clicks. */
const WARM_UP_DELAY_MS = 1_000;

/** The running parts, for the integration tests (`activate` returns a promise of them: `ready`). */
export interface ExtensionApi {
  readonly services: Services;
  /** The task explorer's models and view. */
  readonly tasks: TaskExplorer;
  /** The Projects & Files view. */
  readonly files: FilesFeature;
  /** The copy flow. */
  readonly copy: CopyFeature;
  /** The job tracker, its status-bar item and the Data Jobs view. */
  readonly jobs: JobsFeature;
  /** The Volumes view. */
  readonly volumes: VolumesFeature;
  /** The `sevenbridges:` file system. */
  readonly remote: RemoteParts;
  /** The Accounts menu's authentication provider. */
  readonly auth: ReturnType<typeof registerAuth>;
}

/** Builds the parts and wires them; `activatedAt` is when VS Code called `activate`, for the log. */
export function start(context: vscode.ExtensionContext, activatedAt: number): ExtensionApi {
  const clock = systemClock;
  const started = clock.now();
  // The vscode-free modules speak through @vscode/l10n: hand it the bundle VS Code loaded for the display language
  // (none for English, whose text is in the code). Before anything is built, so every message reads from it.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  // Relative times ("5 minutes ago") are the runtime's own words, in the same display language.
  useDisplayLanguage(vscode.env.language);
  // What older versions stored is brought to this version before any model reads it.
  migrateState(context.globalState, 'global');
  migrateState(context.workspaceState, 'workspace');
  const log = vscode.window.createOutputChannel('Seven Bridges', { log: true });
  const session = new Session(context.secrets, log);
  const client = new SbClient({
    credentials: () => session.credentials(),
    userAgent: `sevenbridges-vscode/${context.extension.packageJSON.version}`,
    clock,
    onRequest: requestLogger(log),
  });
  const account = () => session.account(async (credentials) => (await client.user({ credentials })).username);
  // The rest (src/features.ts: dist/features.js) is loaded on first use: the features' command tables, registered
  // when a command is first run (a stand-in behind each until then), and whatever a feature asks `features` for.
  const features = later(async () => {
    const asked = clock.monotonic();
    const loaded = await import('./features');
    // The kinds of write are there too: the outbox has them before any feature can look for a write on its way.
    await outbox.ready();
    log.info(`Loaded the features (dist/features.js) in ${Math.round(clock.monotonic() - asked)} ms`);
    return loaded;
  });
  // What starts work (src/authoring.ts: dist/authoring.js, which reads from main.js and features.js) is loaded when a
  // task document is first open or one of its commands or the apps' first run.
  const authoring = later(async () => {
    await features();
    const asked = clock.monotonic();
    const loaded = await import('./authoring');
    log.info(`Loaded the task document and the apps (dist/authoring.js) in ${Math.round(clock.monotonic() - asked)} ms`);
    return loaded;
  });
  // The job tracker comes first: the writes that start async file jobs hand their jobs to it. Import and export jobs
  // are read with the volumes client, loaded on first use.
  const volumeJobs = (kind: 'imports' | 'exports'): JobReader => async (ids, signal) => (await features()).volumeJobReaderFor(client, kind)(ids, signal);
  const tracker = followCopyJobs({ context, client, session, clock }, { import: volumeJobs('imports'), export: volumeJobs('exports') });
  // The kinds' code is in dist/features.js: the outbox loads it when it first meets a record (at start, only if
  // global state holds one: a write a reload left, or a finished one's claim, kept 10 minutes), or with the features.
  const kinds = async () => {
    const loaded = await import('./features');
    return loaded.writeKinds(client, tracker, clock, async () => loaded.volumeWritingFor(client, tracker));
  };
  const outbox = new Outbox(context.globalState, account, kinds, clock);
  context.subscriptions.push(log, session, outbox, session.onDidChange(() => outbox.poke()));

  const projects = new ProjectCache(client.projects, () => session.endpoint, clock);
  context.subscriptions.push(session.onDidChange(() => projects.clear()));
  const budgetNotice = new BudgetNotice(client.budget, clock);
  context.subscriptions.push(budgetNotice);
  // The transfers a reload or a fault left unfinished: upload runs, and downloads' `.part` files (rows of Data Jobs).
  const transfers = new Transfers(
    clock.now,
    {
      runs: (key) => [
        ...new ResumeBook<UploadRunResume>(context.globalState, 'uploadRun', key).all().map(interruptedRun),
        ...interruptedDownloads(new ResumeBook<DownloadResume>(context.globalState, 'download', key).all()),
      ],
    },
    outbox,
  );
  context.subscriptions.push(transfers);
  const services: Services = { context, client, session, log, clock, projects, selections: new Selections(), budgetNotice, outbox, account, transfers };
  const tables: ((loaded: typeof Features) => readonly Command[])[] = [];
  const authoringTables: ((loaded: typeof Authoring) => readonly Command[])[] = [];
  const onFirstUse: OnFirstUse<typeof Features> = { load: features, commands: (table) => void tables.push(table) };
  const onAuthoring: OnFirstUse<typeof Authoring> = { load: authoring, commands: (table) => void authoringTables.push(table) };
  const auth = registerAuth(services, onFirstUse);
  const copy = registerCopy(services, tracker, features);
  const remote = registerRemote(services, tracker, features);
  const tasks = registerTasks(services, copy, onFirstUse, onAuthoring);
  const jobs = registerJobs(services, tracker, copy.flow, onFirstUse);
  const files = registerFiles(services, copy, remote, jobs, onFirstUse);
  // Apps: Pull App…, Push App Revision…, App Revisions… (the palette, a .cwl file's menus); nothing of them before.
  onAuthoring.commands((f) => f.appsCommands(services));
  const volumes = registerVolumes(services, tracker, onFirstUse);
  /** Registers a table's commands; returns their IDs. */
  const register = (commands: readonly Command[]): string[] => {
    context.subscriptions.push(...registerCommands(commands, services.selections));
    return commands.map((command) => COMMANDS[command.name]);
  };
  const standIns = (commandIds: readonly string[], start: () => Promise<void>) =>
    onFirstRun({
      commandIds,
      registerCommand: (id, run) => {
        const standIn = vscode.commands.registerCommand(id, run);
        context.subscriptions.push(standIn);
        return standIn;
      },
      executeCommand: (id, ...args) => vscode.commands.executeCommand(id, ...args),
      start,
    });
  standIns(Object.values(COMMANDS), async () => {
    const loaded = await features();
    const registered = new Set(tables.flatMap((table) => register(table(loaded))));
    // The commands of dist/authoring.js keep a stand-in until one of them is first run.
    standIns(
      Object.values(COMMANDS).filter((id) => !registered.has(id)),
      async () => {
        const started = await authoring();
        for (const table of authoringTables) register(table(started));
      },
    );
  });
  outbox.start();
  // Once started, off the activation path: the HTTP stack loads and the API budget is read (`GET /v2/rate_limit`,
  // free), so that the first request the user makes does not wait for either. A request sooner shares the loading.
  clock.setTimeout(() => void client.transport.warm(), WARM_UP_DELAY_MS);
  log.info(`Started in ${clock.now() - started} ms, ${started - activatedAt} ms after activation`);
  return { services, tasks, files, copy, jobs, auth, remote, volumes };
}
