/**
 * What every e2e spec shares: one emulator, one code-server with the packaged extension installed and
 * pointed at that emulator (signed out at start), one chromium page. Set up by test/harness/runE2e.ts
 * before mocha loads the specs.
 *
 *   import { e2e } from '../fixture';
 *   const { wb, emulator } = e2e();
 */
import type { Emulator } from '../emulator';
import type { RunningCodeServer } from '../harness/codeServer';
import { waitFor } from '../support/waitFor';
import type { Workbench } from './workbench';

export interface E2eContext {
  readonly wb: Workbench;
  readonly emulator: Emulator;
  readonly server: RunningCodeServer;
}

let current: E2eContext | undefined;

export function setE2eContext(context: E2eContext | undefined): void {
  current = context;
}

export function e2e(): E2eContext {
  if (!current) throw new Error('no e2e context: run the specs through test/harness/runE2e.ts (npm run test:e2e)');
  return current;
}

export const COMMAND = {
  setToken: 'Seven Bridges: Set Authentication Token',
  signOut: 'Seven Bridges: Sign Out',
  selectPlatform: 'Seven Bridges: Select Platform',
  refreshTasks: 'Seven Bridges: Refresh Tasks',
  filterTasks: 'Seven Bridges: Filter Tasks…',
  clearFilter: 'Seven Bridges: Clear Task Filters',
  copy: 'Seven Bridges: Copy Files and Folders…',
  showJobs: 'Seven Bridges: Show Data Jobs',
  showLog: 'Seven Bridges: Show Log',
} as const;

export const VIEW = { tasks: 'Tasks', files: 'Projects & Files', jobs: 'Data Jobs', volumes: 'Volumes' } as const;

/** Signs in as a person does: the command palette, then the token in the password box. */
export async function signIn(token = e2e().emulator.token, wb = e2e().wb): Promise<void> {
  await wb.runCommand(COMMAND.setToken);
  await wb.waitForQuickInput(/Authentication Token/);
  await wb.typeInQuickInput(token, { submit: true });
  await wb.waitForQuickInputClosed(20_000);
}

/** Opens the Seven Bridges view and signs in when its welcome view asks for a token. */
export async function ensureSignedIn(): Promise<void> {
  const { wb } = e2e();
  await wb.openViewContainer('Seven Bridges');
  // The welcome view or the tree must be drawn before its buttons tell whether to sign in (a spec run alone comes here
  // right after the workbench opens).
  await wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 20_000 }).catch(() => undefined);
  const buttons = await wb.welcomeButtons(VIEW.tasks);
  if (buttons.some((b) => /Set Authentication Token/.test(b))) {
    await signIn();
    await wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button').first().waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => undefined);
  }
}

/** Shows Projects & Files alone, signed in, every row collapsed: room for a project's folders. */
export async function showProjectsAndFiles(): Promise<void> {
  const { wb } = e2e();
  await wb.openViewContainer('Seven Bridges');
  await wb.collapsePane(VIEW.tasks);
  await wb.expandPane(VIEW.files);
  await wb.pane(VIEW.files).locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 20_000 });
  if ((await wb.welcomeButtons(VIEW.files)).some((b) => /Set Authentication Token/.test(b))) await signIn();
  // What earlier specs opened (Data Jobs, other projects) is closed.
  await wb.collapsePane(VIEW.jobs);
  await wb.collapseAll(VIEW.files);
}

/** Collapses the Tasks tree, then opens one group (its label whole) so that its newest task is the row right under it. */
export async function openTaskGroup(label: string): Promise<void> {
  const { wb } = e2e();
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await wb.clickViewAction(VIEW.tasks, 'Collapse All').catch(() => undefined);
  await wb.waitForTreeItems(VIEW.tasks, exact, 20_000);
  await wb.expandTreeItem(VIEW.tasks, exact);
  await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), `the tasks of ${label}`, 20_000);
}
