import * as vscode from 'vscode';
import type { Task } from '../api/types';
import { COPY_WRITE } from '../jobs/copyRequests';
import type { JobTracker, TrackedJob } from '../jobs/tracker';
import type { AsyncJob } from '../api/types';
import { COMMANDS } from '../keys/commands';
import type { Services } from '../services';
import { copyTaskOutputs } from './copyOutputs';
import { CopyWrite } from './copyWrite';
import { CopyFlow, type CopyCommandArgs, type CopySources } from './flow';
import { ProjectCache } from './pickers';
import { copyFiles } from './sources';

/** The running copy feature: what the views that hold sources (Projects & Files) start a copy with. */
export interface CopyFeature {
  readonly flow: CopyFlow;
  /** The caller's projects, read once for every picker. */
  readonly projects: ProjectCache;
  /** "Copy Files and Folders…" with what a view has selected (see copy/sources.ts for where else sources come from). */
  copyFiles(selected: CopySources | undefined, args?: CopyCommandArgs): Promise<TrackedJob[]>;
}

/** Copying: the write that sends copy calls, the interactive flow, and "Copy Outputs To…" of a task. */
export function registerCopy(services: Services, tracker: JobTracker): CopyFeature {
  const { context, client, session, outbox } = services;
  // A job a copy call of the outbox made is that call's: the lookup after a lost answer must not take it for another's.
  const claimed = () => new Set(outbox.all().flatMap((r) => (r.kind === COPY_WRITE && r.outcome ? [(r.outcome as AsyncJob).id] : [])));
  outbox.register(new CopyWrite(client.copyJobs, client.files, tracker, claimed, client.budget));
  const projects = new ProjectCache(client, () => session.endpoint);
  const flow = new CopyFlow(services, tracker, projects);
  context.subscriptions.push(
    session.onDidChange(() => projects.clear()),
    vscode.commands.registerCommand(COMMANDS.copyTaskOutputs, (arg?: { task?: Task } | Task, second?: CopyCommandArgs | unknown[], third?: CopyCommandArgs) =>
      copyTaskOutputs(services, flow, arg, second, third),
    ),
  );
  return { flow, projects, copyFiles: (selected, args) => copyFiles(session, flow, selected, args) };
}
