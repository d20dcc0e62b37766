// The cases: what a person does in the workbench, what they wait for, the requests it needs (sent bare by the bench for
// the ideal), and the drawing floor that stands for what drawing it takes. Each `run` is one timed try, from a workbench
// brought to where the case starts; it returns its waits (a case where the person answers a question in between,
// Download…, has two: the time they take to answer is theirs, not the product's).
import * as fs from 'fs';
import * as path from 'path';
import { TASK_STATUSES } from '../../../src/api/types';
import { searchQueries } from '../../../src/files/find';
import { otherStatusesLabel } from '../../../src/tasks/otherStatuses';
import { STATUS_LABELS } from '../../../src/tasks/statuses';
import { TASK_LIST_FIELDS } from '../../../src/tasks/taskListing';
import type { Emulator } from '../../../test/emulator';
import { waitFor } from '../../../test/support/waitFor';
import { SEARCH_TAG } from '../searchScenario';
import { isDrawn, timeWait, type Drawn } from './pageProbe';
import { closeEditors, COMMAND, counted, downloadWaits, pageOpened, quiet, seeSevenBridges, SETTLE_MS, signedOut, signIn, tokenBox, VIEW, WAIT_TIMEOUT_MS } from './steps';
import type { CaseId, FloorId, TimedRun, WaitsContext } from './waitsContext';
import { DOWNLOAD_FILES, DOWNLOAD_FOLDER, GROUP_STATUS, GROUP_TASKS, TEXT_FOLDER } from './waitsData';

/** The engine's connections (src/transfer/download.ts: 8 by default): the bare requests of a download go as many at once. */
const DOWNLOAD_CONNECTIONS = 8;

export interface WaitCase {
  id: CaseId;
  /** For the figure's name: from what to what. */
  title: string;
  /** The requests it needs, one round trip each step, in words (the figure's margin says it). */
  needs: string;
  /** What drawing it takes: the floor measured on the helper extension. */
  floor: FloorId;
  /** Not built yet: why, and what to fill in. A pending case is listed, and gives no figure. */
  pending?: string;
  /** The requests it needs, sent bare from the bench, in as few steps as the API allows (timed by the runner). */
  network?(ctx: WaitsContext, run: number): Promise<void>;
  /** Brings the workbench where the case starts (before each run: the floor's runs take turns with the product's). */
  before?(ctx: WaitsContext): Promise<void>;
  /** One timed try (`run` from 1). */
  run?(ctx: WaitsContext, run: number): Promise<TimedRun>;
}

/** The name of the task a run of Run Task makes (one a run: the document of each names the task it made). */
const runTaskName = (latencyMs: number, run: number) => `bench run task ${latencyMs} ms ${run}`;

/**
 * Opens a file of the workspace as a person does, with Go to File (Ctrl+P), its name typed. A file just written may be
 * missing from the list Go to File holds (the host's file watcher is late): closed and asked again, as a person would.
 */
async function openWorkspaceFile(wb: WaitsContext['wb'], file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await wb.page.locator('.monaco-workbench').focus().catch(() => undefined);
    await wb.page.keyboard.press('Control+P');
    await wb.waitForQuickInput();
    await wb.quickInput().locator('.quick-input-box input').fill(file);
    try {
      await waitFor(async () => (await wb.quickItems()).some((i) => i.label === file), `${file} offered by Go to File`, SETTLE_MS / 3);
      break;
    } catch (error) {
      await wb.page.keyboard.press('Escape');
      if (attempt === 3) throw error;
    }
  }
  await wb.page.keyboard.press('Enter');
  await wb.waitForQuickInputClosed(SETTLE_MS);
}

/** Every group of the Tasks view with the count the emulator holds for it. */
function groupsWithCounts(emulator: Emulator): { label: string; description: string }[] {
  const statuses: readonly string[] = TASK_STATUSES;
  const tasks = emulator.data.tasks;
  const rows = TASK_STATUSES.map((s) => ({ label: STATUS_LABELS[s], description: tasks.filter((t) => t.status === s).length.toLocaleString('en-US') }));
  const other = tasks.filter((t) => !statuses.includes(t.status)).length;
  return other ? [...rows, { label: otherStatusesLabel(), description: other.toLocaleString('en-US') }] : rows;
}

export const CASES: WaitCase[] = [
  {
    id: 'signIn',
    title: "sign-in: the token box's Enter to every group's count drawn",
    needs: 'GET /v2/user, then the 7 counts together: 2 round trips',
    floor: 'rowsAfterEnter',
    network: async ({ client }) => {
      await client.user();
      await Promise.all([...TASK_STATUSES.map((status) => client.tasks.count({ status })), client.tasks.count({})]);
    },
    before: (ctx) => seeSevenBridges(ctx, VIEW.tasks, [VIEW.files, VIEW.jobs]),
    run: async (ctx) => {
      const { wb } = ctx;
      if (!(await signedOut(wb))) {
        await wb.runCommand(COMMAND.signOut);
        await waitFor(() => signedOut(wb), 'the Tasks view signed out', SETTLE_MS);
      }
      await wb.clearNotifications();
      const groups: Drawn = { kind: 'rows', view: VIEW.tasks, rows: groupsWithCounts(ctx.emulator) };
      return signIn(ctx, (press) => counted(ctx, async () => [await timeWait(wb.page, groups, press, WAIT_TIMEOUT_MS)]));
    },
  },
  {
    id: 'openGroup',
    title: `a click on a group of ${GROUP_TASKS.toLocaleString('en-US')} tasks to its first page of 100 rows drawn`,
    needs: 'the first page of the group (100 tasks, a row\'s fields): 1 round trip',
    floor: 'groupOpened',
    network: async ({ client }) => {
      await client.tasks.list({ status: GROUP_STATUS, order_by: 'created_time', order: 'desc', fields: TASK_LIST_FIELDS }, { offset: 0, limit: 100 });
    },
    before: async (ctx) => {
      await seeSevenBridges(ctx, VIEW.tasks, [VIEW.files, VIEW.jobs]);
      await ctx.wb.collapseAll(VIEW.tasks);
      await ctx.wb.runCommand(COMMAND.refreshTasks);
      await quiet(ctx);
    },
    run: async (ctx) => {
      const { wb } = ctx;
      const twistie = wb.treeItem(VIEW.tasks, STATUS_LABELS[GROUP_STATUS]).locator('.monaco-tl-twistie');
      const run = await counted(ctx, async () => [await timeWait(wb.page, pageOpened(VIEW.tasks), () => twistie.click(), WAIT_TIMEOUT_MS)]);
      // Closed again, and the tasks refreshed: a closed group's listing is then read again when it is next opened.
      await twistie.click();
      await waitFor(async () => !(await isDrawn(wb.page, pageOpened(VIEW.tasks))), 'the group closed', SETTLE_MS);
      await wb.runCommand(COMMAND.refreshTasks);
      await quiet(ctx);
      return run;
    },
  },
  {
    id: 'openFile',
    title: 'a click on a 3 MB text file to its first line drawn in the editor',
    needs: 'its download URL, then its first 1 MB from the storage: 2 round trips',
    floor: 'documentOpened',
    network: async ({ client, data, latencyMs }, run) => {
      const url = await client.files.downloadInfo(data.textFile(latencyMs, run).id);
      await (await fetch(url, { headers: { Range: 'bytes=0-1048575' } })).arrayBuffer();
    },
    before: async (ctx) => {
      const { wb, data } = ctx;
      await seeSevenBridges(ctx, VIEW.files, [VIEW.tasks, VIEW.jobs]);
      await wb.collapseAll(VIEW.files);
      await wb.openTreeItem(VIEW.files, data.projectName, TEXT_FOLDER);
      await wb.openTreeItem(VIEW.files, TEXT_FOLDER, data.textFile(ctx.latencyMs, 1).name);
    },
    run: async (ctx, run) => {
      const { wb, data, latencyMs } = ctx;
      await closeEditors(wb);
      const file = data.textFile(latencyMs, run);
      const row = wb.treeItem(VIEW.files, file.name);
      await row.scrollIntoViewIfNeeded();
      const shown: Drawn = { kind: 'editor', tab: file.name.replace(/\.tsv$/, ''), text: file.firstLine };
      return counted(ctx, async () => [await timeWait(wb.page, shown, () => row.click(), WAIT_TIMEOUT_MS)]);
    },
  },
  {
    id: 'download',
    title: `Download… of ${DOWNLOAD_FILES} small files: the menu entry to the folder question, and the question's Enter to the summary drawn`,
    needs: `the folder's 2 pages, then each file's download URL and its bytes, ${DOWNLOAD_CONNECTIONS} of each at once, the URLs asked ahead of the bytes: ${2 + 1 + Math.ceil(DOWNLOAD_FILES / DOWNLOAD_CONNECTIONS)} round trips`,
    floor: 'downloadQuestionAndSummary',
    network: async ({ client, data }) => {
      const files: { id: string }[] = [];
      for (let offset = 0; offset < DOWNLOAD_FILES; offset += 100) files.push(...(await client.files.list({ parent: data.downloadFolder.id }, { offset, limit: 100 })).items);
      // Two lanes: the URLs asked in order, 8 at once, and the bytes read in order, 8 at once, each file's once its URL is in.
      const urls = files.map(() => {
        let resolve!: (url: string) => void;
        return { url: new Promise<string>((r) => (resolve = r)), resolve };
      });
      const lane = (work: (i: number) => Promise<void>) => {
        let next = 0;
        return Array.from({ length: DOWNLOAD_CONNECTIONS }, async () => {
          while (next < files.length) await work(next++);
        });
      };
      await Promise.all([
        ...lane(async (i) => urls[i].resolve(await client.files.downloadInfo(files[i].id))),
        ...lane(async (i) => void (await (await fetch(await urls[i].url)).arrayBuffer())),
      ]);
    },
    before: async (ctx) => {
      const { wb, data } = ctx;
      await seeSevenBridges(ctx, VIEW.files, [VIEW.tasks, VIEW.jobs]);
      await wb.collapseAll(VIEW.files);
      await wb.openTreeItem(VIEW.files, data.projectName, DOWNLOAD_FOLDER);
    },
    run: async (ctx) => {
      const target = path.join(ctx.workspace, DOWNLOAD_FOLDER);
      fs.rmSync(target, { recursive: true, force: true });
      await ctx.wb.clearNotifications();
      const run = await counted(ctx, () => downloadWaits(ctx, { view: VIEW.files, row: DOWNLOAD_FOLDER }, 'Download…', `Downloaded ${DOWNLOAD_FILES} files`));
      const arrived = fs.readdirSync(target).filter((f) => !f.endsWith('.part')).length;
      if (arrived !== DOWNLOAD_FILES) throw new Error(`the summary was drawn with ${arrived} files of ${DOWNLOAD_FILES} in ${target}`);
      fs.rmSync(target, { recursive: true, force: true });
      return run;
    },
  },
  {
    id: 'findByTag',
    title: `Find Files by tag in 50,000 files: the tag's Enter to the first results drawn`,
    needs: 'the first page of the server search: 1 round trip',
    floor: 'rowsAfterEnter',
    network: async ({ client, data }) => {
      await client.search.page(searchQueries({ projects: [data.searchProject], tag: SEARCH_TAG })[0], { limit: 100 });
    },
    before: async (ctx) => {
      await seeSevenBridges(ctx, VIEW.files, [VIEW.tasks, VIEW.jobs]);
      await ctx.wb.collapseAll(VIEW.files);
    },
    run: async (ctx) => {
      const { wb, data } = ctx;
      await wb.treeItemContextMenu(VIEW.files, data.searchProjectName, 'Find Files…');
      await wb.waitForQuickInput(/Find Files/);
      await wb.pickQuickItem('Tag', true);
      await waitFor(async () => (await wb.quickItems()).length === 0 && (await wb.quickInputState()).visible, 'the box for the tag', SETTLE_MS);
      await wb.typeInQuickInput(SEARCH_TAG);
      const found: Drawn = { kind: 'rows', view: VIEW.files, anyLabel: data.tagged };
      const run = await counted(ctx, async () => [await timeWait(wb.page, found, () => tokenBox(wb).press('Enter'), WAIT_TIMEOUT_MS)]);
      await wb.clickViewAction(VIEW.files, 'Clear Find');
      await waitFor(async () => !(await isDrawn(wb.page, found)) && (await wb.treeItem(VIEW.files, data.searchProjectName).isVisible()), 'the projects again', SETTLE_MS);
      return run;
    },
  },
  {
    id: 'runTask',
    title: 'Run Task at the top of a task document to the new task\'s row drawn in the Tasks view',
    needs: 'POST /v2/tasks?action=run: 1 round trip (the row drawn from its answer)',
    floor: 'groupOpened',
    network: async ({ client, data, latencyMs }, run) => {
      const { app, bam, reference } = data.taskApp;
      await client.tasks.create(
        { name: `${runTaskName(latencyMs, run)} (bare)`, project: data.project, app, inputs: { input_bam: { class: 'File', path: bam }, reference: { class: 'File', path: reference }, mode: 'strict' } },
        { run: true },
      );
    },
    before: async (ctx) => {
      await seeSevenBridges(ctx, VIEW.tasks, [VIEW.files, VIEW.jobs]);
      await ctx.wb.collapseAll(VIEW.tasks);
      await closeEditors(ctx.wb);
    },
    run: async (ctx, run) => {
      const { wb, data, latencyMs } = ctx;
      const name = runTaskName(latencyMs, run);
      const file = `${name.replace(/\W+/g, '-')}.sbtask.yaml`;
      const { app, bam, reference } = data.taskApp;
      const text = [`app: ${app}`, `project: ${data.project}`, `name: ${name}`, 'inputs:', `  input_bam: ${bam}`, `  reference: ${reference}`, '  mode: strict', ''].join('\n');
      fs.writeFileSync(path.join(ctx.workspace, file), text);
      await openWorkspaceFile(wb, file);
      // Its link shows once the document is open and read as a task document.
      const runTask = wb.page.locator('.part.editor .codelens-decoration a', { hasText: /Run Task/ }).first();
      await runTask.waitFor({ timeout: SETTLE_MS });
      const row: Drawn = { kind: 'rows', view: VIEW.tasks, anyLabel: [name] };
      const timed = await counted(ctx, async () => [await timeWait(wb.page, row, () => runTask.click(), WAIT_TIMEOUT_MS)]);
      // The document is left as it was (only a draft is named in it): closed.
      await closeEditors(wb);
      await wb.collapseAll(VIEW.tasks);
      return timed;
    },
  },
];
