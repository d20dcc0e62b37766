// The steps of the workbench the cases and floors share: the side bar brought where a case starts, sign-in, editors
// closed, a context menu's entry, Download…'s two waits, and the requests an action sends counted.
import type { Workbench } from '../../../test/e2e/workbench';
import { waitFor } from '../../../test/support/waitFor';
import { timeWait, type Drawn, type Wait } from './pageProbe';
import type { TimedRun, WaitsContext } from './waitsContext';

export const VIEW = { tasks: 'Tasks', files: 'Projects & Files', jobs: 'Data Jobs' } as const;
export const COMMAND = {
  setToken: 'Seven Bridges: Set Authentication Token',
  signOut: 'Seven Bridges: Sign Out',
  closeEditors: 'View: Close All Editors',
  refreshTasks: 'Seven Bridges: Refresh Tasks',
} as const;
/** How long one wait may take before the run fails (a download of 200 files over 80 ms takes some seconds). */
export const WAIT_TIMEOUT_MS = 120_000;

/** How long the workbench may take to come where a case starts (a side bar redrawn, a sign-out, the requests of a refresh). */
export const SETTLE_MS = 30_000;

/** Until the emulator has received no request for half a second: what an action started is over. */
export async function quiet(ctx: WaitsContext): Promise<void> {
  let seen = -1;
  await waitFor(
    () => {
      const now = ctx.emulator.received.length;
      const still = now === seen;
      seen = now;
      return still;
    },
    'the requests to end',
    SETTLE_MS,
    500,
  );
}

/** The requests the emulator receives while `timed` runs, placed after its first action. */
export async function counted(ctx: WaitsContext, timed: () => Promise<Wait[]>): Promise<TimedRun> {
  const from = ctx.emulator.received.length;
  const fromStorage = ctx.emulator.storageRequests.length;
  const waits = await timed();
  const start = waits[0].actionEpochMs;
  return {
    waits: waits.map((w) => w.ms),
    requests: ctx.emulator.received.slice(from).map((r) => ({ method: r.method, path: r.path, at: r.at - start })),
    storageRequests: ctx.emulator.storageRequests.length - fromStorage,
  };
}

/** The Seven Bridges side bar, signed in, with `expanded` open and `collapsed` folded. */
export async function seeSevenBridges(ctx: WaitsContext, expanded: string, collapsed: string[]): Promise<void> {
  const { wb } = ctx;
  await wb.openViewContainer('Seven Bridges');
  await wb.expandPane(VIEW.tasks);
  await wb.pane(VIEW.tasks).locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 30_000 });
  if (await signedOut(wb)) await signIn(ctx, async () => undefined);
  for (const view of collapsed) await wb.collapsePane(view);
  await wb.expandPane(expanded);
  await wb.clearNotifications();
}

export const signedOut = async (wb: Workbench) => (await wb.welcomeButtons(VIEW.tasks)).some((b) => /Set Authentication Token/.test(b));

export const tokenBox = (wb: Workbench) => wb.quickInput().locator('.quick-input-box input');

/** The token typed into Set Authentication Token's box; `enter` presses its Enter (the timing's action). */
export async function signIn<T>(ctx: WaitsContext, enter: (press: () => Promise<void>) => Promise<T>): Promise<T> {
  const { wb } = ctx;
  await wb.runCommand(COMMAND.setToken);
  await wb.waitForQuickInput(/Authentication Token/);
  await tokenBox(wb).fill(ctx.emulator.token);
  const press = () => tokenBox(wb).press('Enter');
  const result = await enter(press);
  if (result === undefined) await press();
  await waitFor(async () => !(await signedOut(wb)), 'signed in', SETTLE_MS);
  return result;
}

/** The rows under an opened group: one drawn whose siblings are at least a page of 100 (VS Code draws only those in view). */
export const pageOpened = (view: string): Drawn => ({ kind: 'rows', view, level: 2, setSizeAtLeast: 100 });

export async function closeEditors(wb: Workbench): Promise<void> {
  await wb.runCommand(COMMAND.closeEditors);
  await waitFor(async () => (await wb.page.locator('.part.editor .tab').count()) === 0, 'the editors closed', 10_000);
  await wb.clearNotifications();
}

/** Hovers a context menu's entry, so that Enter runs it (what wb.clickContextMenuEntry does, with the Enter left to the timing). */
async function hoverMenuEntry(wb: Workbench, entry: string): Promise<void> {
  const menu = wb.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu').first();
  await menu.waitFor();
  await menu.locator('.action-item', { has: wb.page.locator('.action-label', { hasText: new RegExp(`^\\s*${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }) }).first().hover();
}

/** Download…'s two waits: its Enter on the menu entry to the folder question, the question's Enter to the summary. */
export async function downloadWaits(ctx: WaitsContext, where: { view: string; row: string }, entry: string, summary: string): Promise<Wait[]> {
  const { wb } = ctx;
  await wb.treeItem(where.view, where.row).click({ button: 'right' });
  await hoverMenuEntry(wb, entry);
  const question = await timeWait(wb.page, { kind: 'quickInput', valueStartsWith: ctx.workspace }, () => wb.page.keyboard.press('Enter'), WAIT_TIMEOUT_MS);
  const done = await timeWait(wb.page, { kind: 'toast', startsWith: summary }, () => tokenBox(wb).press('Enter'), WAIT_TIMEOUT_MS);
  return [question, done];
}
