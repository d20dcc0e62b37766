// The drawing floors: the same actions on the helper extension (floorExtension.ts) as the cases do on the product, in
// the Explorer; their times are the drawing part of each case's ideal.
import * as path from 'path';
import { waitFor } from '../../../test/support/waitFor';
import {
  FLOOR_COMMANDS, FLOOR_DOWNLOAD_ENTRY, FLOOR_FOLDER, FLOOR_GROUPS, FLOOR_ROWS_PER_GROUP, FLOOR_SUMMARY, FLOOR_VIEW_NAME, floorFileFirstLine, floorFileName,
} from './floorExtension';
import { isDrawn, timeWait, type Drawn } from './pageProbe';
import { closeEditors, downloadWaits, pageOpened, SETTLE_MS, tokenBox, WAIT_TIMEOUT_MS } from './steps';
import type { FloorId, WaitsContext } from './waitsContext';

export interface Floor {
  what: string;
  before(ctx: WaitsContext): Promise<void>;
  run(ctx: WaitsContext, run: number): Promise<number[]>;
}

const floorRows: Drawn = { kind: 'rows', view: FLOOR_VIEW_NAME, rows: FLOOR_GROUPS };

/** The floor's view in the Explorer, with the side bar's height (the workspace's folder pane folded). */
async function seeFloor(ctx: WaitsContext): Promise<void> {
  const { wb } = ctx;
  await wb.openViewContainer('Explorer');
  await wb.collapsePane(path.basename(ctx.workspace));
  await wb.expandPane(FLOOR_VIEW_NAME);
}

async function floorFilled(ctx: WaitsContext): Promise<void> {
  const { wb } = ctx;
  await seeFloor(ctx);
  if (await isDrawn(wb.page, floorRows)) return;
  await wb.runCommand(FLOOR_COMMANDS.fill);
  await wb.waitForQuickInput(/Drawing floor/);
  await tokenBox(wb).press('Enter');
  await waitFor(() => isDrawn(wb.page, floorRows), 'the floor rows', SETTLE_MS);
}

export const FLOORS: Record<FloorId, Floor> = {
  rowsAfterEnter: {
    what: `an input box's Enter to ${FLOOR_GROUPS.length} rows with their counts drawn`,
    before: seeFloor,
    run: async ({ wb }) => {
      if (await isDrawn(wb.page, floorRows)) {
        await wb.runCommand(FLOOR_COMMANDS.clear);
        await waitFor(async () => !(await isDrawn(wb.page, floorRows)), 'the floor rows cleared', SETTLE_MS);
      }
      await wb.runCommand(FLOOR_COMMANDS.fill);
      await wb.waitForQuickInput(/Drawing floor/);
      return [(await timeWait(wb.page, floorRows, () => tokenBox(wb).press('Enter'), WAIT_TIMEOUT_MS)).ms];
    },
  },
  groupOpened: {
    what: `a click on a group to the first of its ${FLOOR_ROWS_PER_GROUP} rows drawn`,
    before: floorFilled,
    run: async ({ wb }) => {
      const twistie = wb.treeItem(FLOOR_VIEW_NAME, FLOOR_GROUPS[3].label).locator('.monaco-tl-twistie');
      const opened = await timeWait(wb.page, pageOpened(FLOOR_VIEW_NAME), () => twistie.click(), WAIT_TIMEOUT_MS);
      await twistie.click();
      await waitFor(async () => !(await isDrawn(wb.page, pageOpened(FLOOR_VIEW_NAME))), 'the floor group closed', SETTLE_MS);
      return [opened.ms];
    },
  },
  documentOpened: {
    what: 'a click on a row to the first line of a 1 MB document (a file system provider) drawn',
    before: floorFilled,
    run: async (ctx, run) => {
      const { wb } = ctx;
      await closeEditors(wb);
      const index = ctx.pass * ctx.runs + run;
      const name = floorFileName(index);
      const row = wb.treeItem(FLOOR_VIEW_NAME, name);
      await row.scrollIntoViewIfNeeded();
      return [(await timeWait(wb.page, { kind: 'editor', tab: name.replace(/\.txt$/, ''), text: floorFileFirstLine(index) }, () => row.click(), WAIT_TIMEOUT_MS)).ms];
    },
  },
  downloadQuestionAndSummary: {
    what: "a menu entry's Enter to VS Code's folder question, then its Enter to a notification drawn",
    before: floorFilled,
    run: async (ctx) => {
      await ctx.wb.clearNotifications();
      return (await downloadWaits(ctx, { view: FLOOR_VIEW_NAME, row: FLOOR_FOLDER }, FLOOR_DOWNLOAD_ENTRY, FLOOR_SUMMARY)).map((w) => w.ms);
    },
  },
};
