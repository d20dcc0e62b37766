// The Volumes view's commands (loaded on first use): Refresh, Load More, Import… (objects or prefixes, from
// the view or dragged onto a folder of Projects & Files) and Export… (files or a folder's files of Projects &
// Files). The choices are asked once, what cannot be exported is refused before anything is sent, and the writes go
// through the outbox; their jobs are rows of Data Jobs.
import * as vscode from 'vscode';
import { volumesOf, type Volume } from '../api/volumes';
import type { FileRecord } from '../api/types';
import { browseFolder } from '../copy/pickers';
import { projectThenFolder } from '../copy/destinationSteps';
import { describeDestination } from '../copy/request';
import { fileTarget, readFile, type FileRef } from '../files/targets';
import { projectRowOf } from '../files/fileKinds';
import { trackedJobs } from '../jobs/jobWrite';
import type { JobTracker, TrackedJob } from '../jobs/tracker';
import { commandTitles, COMMANDS } from '../keys/commands';
import type { Services } from '../services';
import { onMany, plain, type Command } from '../ui/commands';
import { pickProject } from '../ui/projectPick';
import type { CommandOptions, TargetType } from '../ui/targets';
import { isRowOf } from '../ui/rowView';
import { andMore, fileCount, itemCount } from '../util/words';
import type { FinishedWrite, WriteRecord } from '../write/outbox';
import { waitsForPerson } from '../write/outbox';
import { notTaken } from '../files/managedItems';
import { clashChoices, exportKind, exportPlan, folderChoices, importKind, importPayloads, linkWarning, type ExportFile, type ImportChoices, type ImportDestination } from './transferPlan';
import { exportedTo } from './volumeJobWrite';
import type { VolumeJobsOutcome } from './volumeWrites';
import { isActive, isReadWrite, noVolumes, ROW_KINDS, VolumesModel, volumeWhere, type ImportSource, type VolumesNode } from './volumesModel';

export interface VolumesParts {
  readonly services: Services;
  /** The data jobs' tracker: the jobs the writes made are followed there. */
  readonly tracker: Pick<JobTracker, 'get'>;
  model(): Promise<VolumesModel>;
  readonly view: vscode.TreeView<VolumesNode>;
}

/**
 * The Volumes view's model, over the volumes client (made when the view is first drawn). An export's end reads again
 * the levels that now hold its object.
 */
export function volumesModel(services: Services, tracker: Pick<JobTracker, 'onDidFinish'>): VolumesModel {
  const model = new VolumesModel(volumesOf(services.client), services.clock.now);
  services.context.subscriptions.push(tracker.onDidFinish((job) => {
    const to = exportedTo(job);
    if (to) model.objectsChanged(to.volume, [to.location]);
  }));
  return model;
}

const importable: TargetType<ImportSource> = {
  read: (value) => (isRowOf(ROW_KINDS, value) && (value.kind === 'prefix' || value.kind === 'object') ? value : undefined),
  key: (source) => source.id,
};

export function volumesCommands(parts: VolumesParts): Command[] {
  const { services } = parts;
  return [
    plain('refreshVolumes', async () => (await parts.model()).refresh()),
    plain('loadMoreVolume', async (node) => {
      const model = await parts.model();
      if (isRowOf(ROW_KINDS, node) && node.kind !== 'object') await model.loadMore(node);
    }),
    onMany('importFromVolume', { type: importable, orElse: () => vscode.window.showInformationMessage(vscode.l10n.t('Select objects or folders in the Volumes view, then Import… on their menu.')) }, (sources, options) => importFromVolume(parts, sources, options)),
    onMany('exportToVolume', { type: fileTarget(services), ask: { prompt: () => vscode.l10n.t('The IDs of the files or folders to export') } }, (files, options) => exportToVolume(parts, files, options)),
  ];
}

// ---- Import

/** Where the import goes, as a drop or a script says: a project's or a folder's row of Projects & Files, or `{project, parent?, label}`. */
function readDestination(value: unknown): ImportDestination | undefined {
  const row = projectRowOf(value);
  if (row) return { project: row.id, label: row.project.name ?? row.id };
  const v = value as (Partial<ImportDestination> & { project?: unknown }) | undefined;
  if (!v || typeof v !== 'object') return undefined;
  const folder = readFile(v);
  if (folder?.folder && folder.project) return { project: folder.project, parent: folder.id, label: folder.name ?? folder.id };
  return typeof v.project === 'string' && typeof v.label === 'string' ? { project: v.project, label: v.label, ...(typeof v.parent === 'string' ? { parent: v.parent } : {}) } : undefined;
}

async function pickImportDestination(services: Services, count: number): Promise<ImportDestination | undefined> {
  const chosen = await projectThenFolder(
    async () => {
      const project = await pickProject(services.projects, { title: vscode.l10n.t('Import {0} into which project?', itemCount(count)) });
      return project === 'none' ? undefined : project;
    },
    (project) => browseFolder(services.client, project, 'otherProjectFolder', { count, verb: 'import' }),
  );
  if (!chosen) return undefined;
  const { project, destination } = chosen;
  return destination.kind === 'projectRoot'
    ? { project: destination.project, label: project.name }
    : { project: destination.project, parent: destination.folder, label: describeDestination(destination) };
}

/** The choices of an import, asked once: what to do with a name taken, and (for prefixes) whether folders are kept. */
async function askImportChoices(count: number, hasPrefix: boolean): Promise<ImportChoices | undefined> {
  const title = vscode.l10n.t('Import {0}', itemCount(count));
  const clash = await vscode.window.showQuickPick(clashChoices(), { title, placeHolder: vscode.l10n.t('When a name is taken in the destination'), ignoreFocusOut: true });
  if (!clash) return undefined;
  if (!hasPrefix) return { onClash: clash.value, keepFolders: true };
  const folders = await vscode.window.showQuickPick(folderChoices(), { title, placeHolder: vscode.l10n.t('The folders on the volume'), ignoreFocusOut: true });
  return folders && { onClash: clash.value, keepFolders: folders.value };
}

async function importFromVolume(parts: VolumesParts, sources: ImportSource[], options: CommandOptions): Promise<TrackedJob[]> {
  const { services } = parts;
  const account = await signedIn(services);
  const into = readDestination(options.into) ?? (await pickImportDestination(services, sources.length));
  if (!into) return [];
  const hasPrefix = sources.some((s) => s.kind === 'prefix');
  const choices = (options.choices as ImportChoices | undefined) ?? (await askImportChoices(sources.length, hasPrefix));
  if (!choices) return [];
  const refs = sources.map((s) => ({ volume: s.volume.id, location: s.kind === 'prefix' ? s.prefix : s.object.location }));
  const payloads = importPayloads(refs, into, choices);
  const sent = await services.outbox.send<VolumeJobsOutcome>(importKind(payloads), payloads, account);
  return told(parts, sent, vscode.l10n.t('Import of {0} into {1} submitted: follow it in Data Jobs.', itemCount(refs.length), into.label));
}

// ---- Export

async function exportToVolume(parts: VolumesParts, targets: FileRef[], options: CommandOptions): Promise<TrackedJob[]> {
  const { services } = parts;
  const account = await signedIn(services);
  const files = await filesToExport(services, targets);
  if (!files.length) throw new Error(vscode.l10n.t('Nothing to export: the folders chosen hold no files.'));
  const volume = await pickVolume(parts, options.volume, files.length);
  if (!volume) return [];
  const prefix = typeof options.location === 'string' ? options.location : await vscode.window.showInputBox({
    title: vscode.l10n.t('Export {0} to {1}', fileCount(files.length), volume.name),
    prompt: vscode.l10n.t('Where on the volume: a prefix such as "results/2026/" (each file keeps its name under it), or empty for the top.'),
    value: 'exports/',
    ignoreFocusOut: true,
  });
  if (prefix === undefined) return [];
  const copyOnly = typeof options.copyOnly === 'boolean' ? options.copyOnly : await askCopyOnly();
  if (copyOnly === undefined) return [];
  const plan = exportPlan(files, volume, prefix, copyOnly);
  if (plan.refused.length) {
    const lines = plan.refused.slice(0, 5).map((r) => `${r.name}: ${r.why}`);
    const detail = [...lines, ...(plan.refused.length > 5 ? [andMore(plan.refused.length - 5)] : [])].join('\n');
    if (!plan.payloads.length) throw new Error(vscode.l10n.t('Nothing can be exported: {0}', detail));
    void vscode.window.showWarningMessage(vscode.l10n.t('Not exported ({0}): {1}', fileCount(plan.refused.length), detail));
  }
  const sent = await services.outbox.send<VolumeJobsOutcome>(exportKind(plan.payloads), plan.payloads, account);
  const count = plan.payloads.reduce((n, p) => n + p.items.length, 0);
  return told(parts, sent, vscode.l10n.t('Export of {0} to {1} submitted: follow it in Data Jobs.', fileCount(count), volume.id));
}

/** The files of the targets: a file as itself, a folder's files (one level down). */
async function filesToExport(services: Services, targets: FileRef[]): Promise<ExportFile[]> {
  const files: ExportFile[] = [];
  for (const t of targets) {
    if (!t.folder) {
      const record: Partial<FileRecord> = t.record ?? (t.name && t.project ? {} : await services.client.files.get(t.id));
      files.push({ id: t.id, name: t.name ?? record.name ?? t.id, project: t.project ?? record.project, type: 'file', storage: record.storage });
      continue;
    }
    for await (const page of services.client.transport.all<FileRecord>('files', { query: { parent: t.id, fields: 'id,name,type,project,storage' } })) {
      for (const f of page.items) if (f.type !== 'folder') files.push({ id: f.id, name: f.name, project: f.project, type: f.type, storage: f.storage });
    }
  }
  return files;
}

async function pickVolume(parts: VolumesParts, named: unknown, count: number): Promise<Volume | undefined> {
  const volumes = await (await parts.model()).list();
  if (typeof named === 'string') {
    const v = volumes.find((x) => x.id === named);
    if (!v) throw new Error(vscode.l10n.t('No volume {0} is attached to this account.', named));
    return v;
  }
  if (!volumes.length) throw new Error(noVolumes());
  // Every volume is offered; one that cannot take an export says why beside it, and is refused with why when chosen.
  const items = volumes.map((v) => ({
    label: `$(database) ${v.name}`,
    description: volumeWhere(v),
    detail: !isActive(v) ? vscode.l10n.t('Inactive: cannot be exported to.') : !isReadWrite(v) ? vscode.l10n.t('Read-only: cannot be exported to.') : undefined,
    volume: v,
  }));
  items.sort((a, b) => Number(a.detail !== undefined) - Number(b.detail !== undefined));
  const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Export {0} to which volume?', fileCount(count)), ignoreFocusOut: true });
  return chosen?.volume;
}

/** Copy only (the default), or turned off after the plain warning of what that does. */
async function askCopyOnly(): Promise<boolean | undefined> {
  const chosen = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Copy only'), description: vscode.l10n.t('recommended'), detail: vscode.l10n.t('The bucket gets a copy; the files on the platform stay as they are.'), copyOnly: true },
      { label: vscode.l10n.t('Move to the bucket'), detail: linkWarning(), copyOnly: false },
    ],
    { title: vscode.l10n.t('Export: copy, or move to the bucket?'), ignoreFocusOut: true },
  );
  if (!chosen || chosen.copyOnly) return chosen?.copyOnly;
  const move = vscode.l10n.t('Move to the Bucket');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Move the files to the bucket?'), { modal: true, detail: linkWarning() }, move);
  return answer === move ? false : undefined;
}

// ---- Both

async function signedIn(services: Services): Promise<NonNullable<Awaited<ReturnType<Services['account']>>>> {
  const account = await services.account();
  if (!account) throw new Error(vscode.l10n.t('Sign in to import or export: set an authentication token first.'));
  return account;
}

/**
 * What became of the writes: refused ones throw with why; items the platform refused in a bulk call are said; the rest
 * is followed in Data Jobs.
 */
function told(parts: VolumesParts, sent: { finished: FinishedWrite<VolumeJobsOutcome>[]; left: WriteRecord[] }, submitted: string): TrackedJob[] {
  const refusedWrite = sent.left.find(waitsForPerson);
  if (refusedWrite && !sent.finished.length) throw new Error(refusedWrite.note ?? notTaken());
  const refusedItems = sent.finished.flatMap((f) => f.outcome.jobs).filter((j): j is Extract<VolumeJobsOutcome['jobs'][number], { error: unknown }> => 'error' in j);
  const show = commandTitles().showJobs;
  const words = refusedItems.length ? `${submitted} ${vscode.l10n.t('The platform refused {0}: {1}', itemCount(refusedItems.length), refusedItems[0].error.message)}` : submitted;
  void (refusedItems.length ? vscode.window.showWarningMessage(words, show) : vscode.window.showInformationMessage(words, show)).then((chosen) => chosen && vscode.commands.executeCommand(COMMANDS.showJobs));
  return trackedJobs(parts.tracker, sent.finished);
}
