import * as vscode from 'vscode';
import type { CopyCommandArgs } from '../copy/flow';
import type { CopyFeature } from '../copy/register';
import type { TrackedJob } from '../jobs/tracker';
import type { JobsFeature } from '../jobs/register';
import type { RemoteParts } from '../remote/open';
import type { Services } from '../services';
import { VIEWS } from '../keys/views';
import type { OnFirstUse } from '../ui/commands';
import { showRows, type RowTree } from '../ui/rowTree';
import type { dropCopy, filesCommands, FilesParts } from './commands';
import { dropDestination, FilesDragAndDrop, type DropTarget } from './dragAndDrop';
import { FilesTreeModel } from './filesModel';
import type { FilesNode, ItemNode } from './fileNodes';
import type { dropMove, MoveOutcome } from './moveCommand';
import type { uploadCommand } from '../remote/upload';
import { registerMetadataDocuments } from './metadataDocument';
import { CONTEXT_KEYS } from '../keys/context';
import { COMMANDS } from '../keys/commands';
import { setContextKey } from '../ui/whenContext';


/** The running Projects & Files view, for the integration tests. */
export interface FilesFeature {
  readonly model: FilesTreeModel;
  readonly rows: RowTree<FilesNode>;
  readonly view: vscode.TreeView<FilesNode>;
  /** Drag and drop in Projects & Files. */
  readonly dragAndDrop: FilesDragAndDrop;
  /** What a drop does: the copy flow to the target, its confirmation included (`args` as the copy commands take). */
  dropCopy(target: DropTarget, items: ItemNode[], args?: CopyCommandArgs): Promise<TrackedJob[]>;
  /** A drop's "Move here" (`confirm: false`: not asked even when a name is taken there). */
  dropMove(target: DropTarget, items: ItemNode[], options?: { confirm?: boolean }): Promise<MoveOutcome | undefined>;
}

/** What Projects & Files loads on first use (dist/features.js): its commands, and what a drop does. */
export interface FilesOnFirstUse {
  filesCommands: typeof filesCommands;
  dropCopy: typeof dropCopy;
  dropMove: typeof dropMove;
  uploadCommand: typeof uploadCommand;
}

/** Projects & Files: the view, dragging to copy, and its commands (the copy commands among them). */
export function registerFiles(services: Services, copy: CopyFeature, remote: RemoteParts, jobs: Pick<JobsFeature, 'tracker'>, later: OnFirstUse<FilesOnFirstUse>): FilesFeature {
  const { client, session, clock } = services;
  const model = new FilesTreeModel(client, async () => !!(await session.credentials()), clock.now);
  const dragAndDrop = new FilesDragAndDrop({
    copy: async (target, items) => (await later.load()).dropCopy({ copy }, target, items),
    move: async (target, items) => (await later.load()).dropMove({ services, model, tracker: jobs.tracker }, target, items),
    upload: async (target, paths) => (await later.load()).uploadCommand(services, { sources: paths, destination: dropDestination(target, []) }, undefined),
    fromVolume: (target, rows) => Promise.resolve(vscode.commands.executeCommand(COMMANDS.importFromVolume, rows, { into: target })),
  });
  const { view, rows, disposables } = showRows(VIEWS.files, model, { clock, canSelectMany: true, dragAndDropController: dragAndDrop });
  const parts: FilesParts = { services, model, rows, view, copy, remote, tracker: jobs.tracker };
  // What was found, how and where (or that the platform refused it) is said above the results, where the words wrap,
  // whole; the view's description is left alone: at the side bar's default width the title's actions leave it a letter.
  let shown: string | undefined;
  const showFound = () => {
    const said = model.foundSaid;
    if (said === shown) return;
    if ((said === undefined) !== (shown === undefined)) void setContextKey(CONTEXT_KEYS.filesFound, said !== undefined);
    shown = said;
    view.message = said;
  };
  services.context.subscriptions.push(
    ...disposables,
    { dispose: () => model.dispose() },
    services.selections.watch(view),
    session.onDidChange(() => {
      // Another account or platform: its own projects, and its own answer about the search.
      parts.finder = undefined;
      model.showFound(undefined);
      void model.refresh();
    }),
    model.onDidChange(showFound),
    model.onDidChangeFound(showFound),
    // Open editors, the Explorer and this view agree without Refresh: each hears what the other changed.
    model.onDidTouch((ids) => void remote.fileSystem?.touched(ids)),
    ...(remote.fileSystem ? [remote.fileSystem.onDidWrite((ids) => (model.refreshHolding(ids, { echo: false }), model.refreshListings(ids, { echo: false })))] : []),
    // A data job's end reads again the rows it changed, whoever started it (a command, a cancelled wait, a window
    // before a reload): where the items were (a move's, a delete's, an export's) and where they went (a copy's, a
    // move's, an import's: an import's items are objects of a volume, not files).
    jobs.tracker.onDidFinish((job) => {
      const type = job.type ?? 'COPY';
      if (type !== 'COPY' && type !== 'IMPORT') model.refreshHolding(job.items.map((item) => item.file));
      if (type !== 'DELETE') model.refreshListings([job.destination.project, ...(job.destination.parent ? [job.destination.parent] : [])]);
    }),
    registerMetadataDocuments(services),
  );
  later.commands((f) => f.filesCommands(parts));
  return {
    model,
    rows,
    view,
    dragAndDrop,
    dropCopy: async (target, items, args) => (await later.load()).dropCopy(parts, target, items, args),
    dropMove: async (target, items, options) => (await later.load()).dropMove(parts, target, items, options),
  };
}
