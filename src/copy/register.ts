import * as vscode from 'vscode';
import type { Task } from '../api/types';
import { FilesTreeProvider, FILES_VIEW } from '../files/tree';
import { isItemNode, ItemNode, LoadMoreNode, MessageNode, ProjectNode, FolderNode, FilesNode } from '../files/filesModel';
import { JobTracker, TrackedJob } from '../jobs/tracker';
import { FinishNotifier, JobsStatusBar } from '../jobs/ui';
import { registerJobsView, type CopyJobsView } from '../jobs/jobsCommands';
import { dropDestination, FilesDragAndDrop, type DropTarget } from '../files/dragAndDrop';
import type { Services } from '../services';
import { showApiError } from '../ui/errors';
import { hasFileOutputs, idsInEditorText, outputFileIds, outputNames, splitIdText } from './extract';
import { CopyCommandArgs, CopyFlow, CopySources } from './flow';
import { pickProject, ProjectCache } from './pickers';
import { plural } from '../util/words';
import type { AsyncJob } from '../api/types';
import { COPY_WRITE, CopyWrite } from './copyWrite';
import { gatherOutputs, type GatheredOutputs } from './taskOutputs';
import { checkSources, sourceProblems } from './request';
import { pickTask } from '../tasks/filterPicks';

/** The running copy feature, returned for the integration tests. */
export interface CopyFeature {
  readonly tracker: JobTracker;
  readonly tree: FilesTreeProvider;
  readonly view: vscode.TreeView<FilesNode>;
  readonly flow: CopyFlow;
  readonly statusBar: JobsStatusBar;
  /** The Copy Jobs view. */
  readonly jobs: CopyJobsView;
  /** Drag and drop in Projects & Files. */
  readonly dragAndDrop: FilesDragAndDrop;
  /** What a drop does: the copy flow to the target, its confirmation included (`args` as the copy commands take). */
  dropCopy(target: DropTarget, items: ItemNode[], args?: CopyCommandArgs): Promise<TrackedJob[]>;
}

/** The files view, the copy commands, the job tracker and its status-bar item. */
export function registerCopy(services: Services): CopyFeature {
  const { context, client, session, outbox } = services;
  // Jobs and copy calls belong to the account they were made as: only the one in use is followed and shown.
  const tracker = new JobTracker(client.copyJobs, context.globalState, undefined, { account: () => session.accountKey });
  const claimed = () => new Set(outbox.all().flatMap((r) => (r.kind === COPY_WRITE && r.outcome ? [(r.outcome as AsyncJob).id] : [])));
  outbox.register(new CopyWrite(client.copyJobs, client.files, tracker, claimed));
  const projects = new ProjectCache(client, () => session.endpoint);
  const flow = new CopyFlow(services, tracker, projects);
  const tree = new FilesTreeProvider(services);
  const dropCopy = (target: DropTarget, items: ItemNode[], args: CopyCommandArgs = {}): Promise<TrackedJob[]> => {
    const sources = fromNodes(items);
    if (!sources) return Promise.resolve([]);
    // The destination is the drop's; a single item keeps its name (no rename question after a drag).
    return flow.run(sources, { newName: '', ...args, destination: dropDestination(target, sources.projects ?? []) });
  };
  const dragAndDrop = new FilesDragAndDrop((target, items) => dropCopy(target, items));
  const view = vscode.window.createTreeView(FILES_VIEW, { treeDataProvider: tree, canSelectMany: true, showCollapseAll: true, dragAndDropController: dragAndDrop });
  const statusBar = new JobsStatusBar(tracker, outbox);
  const notifier = new FinishNotifier(tracker, flow);
  const jobs = registerJobsView(context, tracker, outbox, flow);

  // The tracker pauses by itself on a rejected or missing token; a sign-in (or out) restarts or stops it.
  const followSession = () => {
    projects.clear();
    if (session.state === 'signedIn') tracker.resume();
    else tracker.pause();
    // Another platform may have been selected: its jobs and calls are the ones to show.
    statusBar.update();
  };

  context.subscriptions.push(
    tree,
    view,
    statusBar,
    notifier,
    { dispose: () => tracker.dispose() },
    session.onDidChange(followSession),
    // The account is known once its username is: its jobs are the ones to show and follow.
    session.onDidChangeUsername(followSession),
    vscode.window.onDidChangeWindowState((state) => tracker.setFocused(state.focused)),

    vscode.commands.registerCommand('sevenbridges.files.refresh', (node?: FilesNode) => {
      projects.clear();
      tree.refresh(node instanceof ProjectNode || node instanceof FolderNode ? node : undefined);
    }),
    vscode.commands.registerCommand('sevenbridges.files.loadMore', (node?: LoadMoreNode | MessageNode) => (node ? tree.loadMore(node) : undefined)),
    vscode.commands.registerCommand('sevenbridges.files.copyId', async (node?: FilesNode, nodes?: FilesNode[]) => {
      const chosen = (nodes?.length ? nodes : node ? [node] : [...view.selection]).filter(
        (n): n is ItemNode | ProjectNode => isItemNode(n) || n instanceof ProjectNode,
      );
      if (!chosen.length) {
        // From the palette with nothing selected: which project's ID.
        const project = await pickProject(projects, { title: 'Seven Bridges: Copy the ID of which project?', allowReadOnly: true });
        if (!project) return;
        await vscode.env.clipboard.writeText(project.id);
        vscode.window.setStatusBarMessage(`Copied ${project.id}`, 3_000);
        return;
      }
      await vscode.env.clipboard.writeText(chosen.map((n) => n.id).join('\n'));
      vscode.window.setStatusBarMessage(chosen.length === 1 ? `Copied ${chosen[0].id}` : `Copied ${chosen.length} IDs`, 3_000);
    }),

    vscode.commands.registerCommand('sevenbridges.copy', (arg?: CopyCommandArgs | FilesNode, nodes?: FilesNode[], extra?: CopyCommandArgs) =>
      copyCommand(arg, nodes, extra),
    ),
    vscode.commands.registerCommand('sevenbridges.copyTo', (arg?: CopyCommandArgs | FilesNode, nodes?: FilesNode[], extra?: CopyCommandArgs) =>
      copyCommand(arg, nodes, extra),
    ),
    vscode.commands.registerCommand('sevenbridges.tasks.copyOutputs', (arg?: { task?: Task } | Task, second?: CopyCommandArgs | unknown[], third?: CopyCommandArgs) => {
      // From the tree with several rows selected VS Code passes (clicked row, selected rows).
      const selected = Array.isArray(second) ? second : undefined;
      const args = (Array.isArray(second) ? third : second) ?? {};
      const tasks = (selected?.length ? selected : [arg]).map(taskOf).filter((t): t is Task => t !== undefined);
      if (tasks.length > 1 || tasks[0]?.batch) return copyOutputsOfMany(tasks, args);
      return copyOutputs(arg, args);
    }),
  );

  /** Sources in the order of the issue: the command's arguments, the view's selection, the editor's selection, an input box. */
  async function copyCommand(arg?: CopyCommandArgs | FilesNode, nodes?: FilesNode[], extra?: CopyCommandArgs): Promise<TrackedJob[]> {
    if (!(await session.credentials())) {
      const chosen = await vscode.window.showWarningMessage('Sign in to copy files: set an authentication token first.', 'Set Authentication Token');
      if (chosen) await vscode.commands.executeCommand('sevenbridges.setToken');
      return [];
    }
    const args: CopyCommandArgs = arg && !isTreeNode(arg) ? arg : (extra ?? {});
    let sources: CopySources | undefined;
    if (args.ids) {
      sources = { ids: args.ids, origin: 'given' };
    } else if (arg && isTreeNode(arg)) {
      sources = fromNodes(nodes?.length ? nodes : [arg]);
    } else if (view.selection.some(isItemNode)) {
      sources = fromNodes([...view.selection]);
    } else {
      sources = editorSources() ?? (await askForIds());
    }
    if (!sources) return [];
    return flow.run(sources, args);
  }

  async function copyOutputs(arg?: { task?: Task } | Task, args: CopyCommandArgs = {}): Promise<TrackedJob[]> {
    let task = arg && 'task' in arg && arg.task ? arg.task : (arg as Task | undefined);
    if (!task || typeof task !== 'object' || typeof task.id !== 'string') {
      // From the palette: a completed task with output files, picked from the newest ones.
      const picked = await pickTask(services, {
        title: 'Seven Bridges: Copy Outputs To…',
        placeholder: 'Whose outputs? Pick a completed task, or paste a task ID',
        query: { status: 'COMPLETED' },
        accept: hasFileOutputs,
        noun: 'Completed tasks with outputs',
      });
      if (!picked || picked === 'none') return [];
      task = picked as Task;
    }
    if (!task.outputs) {
      // A list item may carry only default fields: the task's record has its outputs.
      try {
        task = await client.tasks.get(task.id);
      } catch (error) {
        await showApiError(`Could not read the outputs of task "${task.name || task.id}"`, error);
        return [];
      }
    }
    const ids = outputFileIds(task.outputs);
    if (!ids.length) {
      void vscode.window.showInformationMessage(`Task "${task.name || task.id}" has no output files to copy.`);
      return [];
    }
    return flow.run(
      { ids, origin: 'outputs', names: Object.fromEntries(outputNames(task.outputs)), projects: task.project ? [task.project] : undefined, trusted: true },
      args,
    );
  }

  /** The outputs of several tasks, or of a batch's completed children, in one copy (split per 100 by the flow). */
  async function copyOutputsOfMany(tasks: Task[], args: CopyCommandArgs): Promise<TrackedJob[]> {
    let gathered: GatheredOutputs;
    try {
      gathered = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading task outputs…' }, () => gatherOutputs(tasks, client.tasks));
    } catch (error) {
      await showApiError('Could not read the outputs of the tasks', error);
      return [];
    }
    if (!gathered.ids.length) {
      void vscode.window.showInformationMessage(['The selected tasks have no output files to copy.', ...gathered.notes].join(' '));
      return [];
    }
    const summary = `The outputs of ${plural(gathered.tasks, 'task')}: ${plural(gathered.ids.length, 'file')}.`;
    return flow.run({ ids: gathered.ids, origin: 'outputs', names: gathered.names, projects: gathered.projects, trusted: true, notes: [summary, ...gathered.notes] }, args);
  }

  const feature: CopyFeature = { tracker, tree, view, flow, statusBar, jobs, dragAndDrop, dropCopy };
  return feature;
}

/** A task from a tree node (`{ task }`) or a task record. */
function taskOf(value: unknown): Task | undefined {
  const candidate = value && typeof value === 'object' && 'task' in value ? (value as { task: unknown }).task : value;
  return candidate && typeof candidate === 'object' && typeof (candidate as Task).id === 'string' ? (candidate as Task) : undefined;
}

function isTreeNode(value: unknown): value is FilesNode {
  return typeof value === 'object' && value !== null && 'kind' in value && typeof (value as { kind: unknown }).kind === 'string';
}

function fromNodes(nodes: readonly FilesNode[]): CopySources | undefined {
  const items = nodes.filter(isItemNode);
  if (!items.length) return undefined;
  const names: Record<string, string> = {};
  const projects = new Set<string>();
  for (const node of items) {
    names[node.file.id.toLowerCase()] = node.file.name;
    const project = node.file.project ?? projectOf(node);
    if (project) projects.add(project);
  }
  const folders = items.filter((n) => n instanceof FolderNode).map((n) => n.file.id);
  return { ids: items.map((n) => n.file.id), origin: 'selected', names, projects: [...projects], trusted: true, folders };
}

/** The project a node of the files view is in (the files view's own record of it may be partial). */
function projectOf(node: ItemNode): string | undefined {
  let parent: ItemNode['parentNode'] = node.parentNode;
  while (parent instanceof FolderNode) parent = parent.parentNode;
  return parent.project.id;
}

/** File IDs in the active editor's selection (any text around them is ignored). */
function editorSources(): CopySources | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const text = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s)).join('\n');
  if (!text) return undefined;
  const ids = idsInEditorText(text);
  return ids.length ? { ids, origin: 'in the editor selection' } : undefined;
}

/** IDs pasted or typed; malformed ones are named as they are typed and the box cannot be accepted with them. */
async function askForIds(): Promise<CopySources | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Copy Files and Folders',
    prompt: 'File and folder IDs to copy, separated by spaces, commas or new lines',
    placeHolder: '567890abc8a5639cc6722063, 567890abc8a5639cc6722064',
    ignoreFocusOut: true,
    validateInput: (value) => {
      const check = checkSources(splitIdText(value));
      const problems = sourceProblems(check);
      if (problems.length) return { message: problems.join(' '), severity: vscode.InputBoxValidationSeverity.Error };
      if (!check.ids.length) return undefined;
      const dup = check.duplicates ? `; ${plural(check.duplicates, 'duplicate', 'duplicates')} will be dropped` : '';
      return { message: `${plural(check.ids.length, 'item')}${dup}`, severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
  if (!text?.trim()) return undefined;
  return { ids: splitIdText(text), origin: 'given' };
}
