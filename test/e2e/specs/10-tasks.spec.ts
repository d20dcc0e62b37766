/**
 * The task explorer as a person uses it: groups with counts, a group opened with "Load more", a status
 * filter and a time filter picked from the quick picks (the custom range checked as it is typed), a batch
 * parent expanded into its children. A screenshot at each step.
 */
import * as assert from 'assert';
import { randomUUID } from 'crypto';
import * as path from 'path';
import { screenshotsDir } from '../../harness/paths';
import type { TaskRec } from '../../emulator';
import { waitFor } from '../../support/waitFor';
import { COMMAND, e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape } from '../workbench';

const GROUPS = ['Running', 'Queued', 'Draft', 'Completed', 'Failed', 'Aborted'];
const STATUS_OF: Record<string, string> = { Running: 'RUNNING', Queued: 'QUEUED', Draft: 'DRAFT', Completed: 'COMPLETED', Failed: 'FAILED', Aborted: 'ABORTED' };

const STATUS_OF_VALUES: string[] = Object.values(STATUS_OF);
// The emulator filters status exactly: its ABORTING and CREATING tasks are in "Other statuses".
STATUS_OF['Other statuses'] = 'OTHER';

const count = (status: string, pred: (t: TaskRec) => boolean = () => true): number =>
  e2e().emulator.data.tasks.filter((t) => (status === 'OTHER' ? !STATUS_OF_VALUES.includes(t.status) : t.status === status) && pred(t)).length;

/** The view's description (the filter in words) as shown in its pane header. */
async function viewDescription(): Promise<string> {
  const { wb } = e2e();
  return ((await wb.pane(VIEW.tasks).locator('.pane-header .description').first().textContent().catch(() => '')) ?? '').trim();
}

async function topLevel(): Promise<{ label: string; description: string }[]> {
  const { wb } = e2e();
  return (await wb.treeItems(VIEW.tasks)).filter((i) => i.level === 1);
}

/**
 * Waits for these groups, counted; with `counts` (a group's label → its expected count), for those counts too: a
 * filter shows in the view's description at once, while the groups keep the previous counts until the new ones come.
 */
async function waitForGroups(expected: string[], counts?: (label: string) => number, timeoutMs = 20_000): Promise<{ label: string; description: string }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await topLevel();
    const labels = items.map((i) => i.label).filter((l) => GROUPS.includes(l));
    const counted = items.every((i) => i.description !== '…');
    const wrong = counts ? items.filter((i) => GROUPS.includes(i.label) && i.description !== counts(i.label).toLocaleString('en-US')) : [];
    if (JSON.stringify(labels) === JSON.stringify(expected) && counted && !wrong.length) return items;
    if (Date.now() > deadline) {
      const miscounted = wrong.map((i) => `${i.label} ${i.description} (expected ${counts!(i.label)})`).join(', ');
      throw new Error(`groups shown: ${labels.join(', ')}; expected ${expected.join(', ')}${miscounted ? `; counts ${miscounted}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Scrolls the Tasks tree until a row with this label is rendered. */
function scrollToRow(label: RegExp, maxSteps = 60): Promise<void> {
  return e2e().wb.scrollToTreeItem(VIEW.tasks, label, maxSteps);
}

/** The Tasks view's title actions, left to right, without their keybindings. */
async function titleActions(): Promise<string[]> {
  return (await e2e().wb.viewActions(VIEW.tasks)).map((label) => label.replace(/\s*\(.*\)$/, ''));
}

/** Markdown, theme-icon syntax or HTML in a screen-reader label: what a person would hear spelled out. */
const MARKUP = /\*\*|`|\$\(|<\/?\w|\\[[\]()*_]/;

async function clearFilters(): Promise<void> {
  if (!(await viewDescription())) return;
  await e2e().wb.clickViewAction(VIEW.tasks, 'Clear Task Filters');
  await waitFor(async () => !(await viewDescription()), 'the filters to clear');
}

async function collapseAll(): Promise<void> {
  const { wb } = e2e();
  await wb.clickViewAction(VIEW.tasks, 'Collapse All').catch(() => undefined);
}

describe('the task explorer', () => {
  before(async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.expandPane(VIEW.tasks);
    // Signed in already (an earlier spec) shows rows; signed out shows the welcome view: wait for either.
    await waitFor(
      async () => (await wb.treeRows(VIEW.tasks).count()) > 0 || (await wb.welcomeButtons(VIEW.tasks)).length > 0,
      'the Tasks view to show its groups or its welcome view',
      30_000,
    );
    await ensureSignedIn();
    // Room for the task tree: the files view below it folds away (it is someone else's subject).
    const files = wb.pane(VIEW.files).locator('.pane-header');
    if ((await files.getAttribute('aria-expanded')) === 'true') await files.click();
    // The side bar keeps its default width: the screenshots show what a person sees on a fresh install.
  });

  after(async () => {
    // Leave the side bar as the next spec expects it: the files view open again.
    await e2e().wb.expandPane(VIEW.files).catch(() => undefined);
  });

  it('shows one group per status with its count', async () => {
    const { wb } = e2e();
    const items = await waitForGroups(GROUPS);
    await wb.screenshot('10-tasks-groups-with-counts');
    for (const label of GROUPS) {
      const item = items.find((i) => i.label === label)!;
      assert.strictEqual(item.description, count(STATUS_OF[label]).toLocaleString('en-US'), label);
    }
  });

  it('opens a group: its newest 100 tasks and "Load more (N left)"', async () => {
    const { wb } = e2e();
    await wb.expandTreeItem(VIEW.tasks, /^Completed$/);
    const total = count('COMPLETED');
    await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), 'the tasks of the Completed group', 20_000);
    const rows = await wb.treeItems(VIEW.tasks);
    const tasks = rows.filter((r) => r.level === 2);
    assert.ok(tasks.length > 0, 'tasks under Completed');
    for (const row of tasks) {
      assert.ok(row.ariaLabel.startsWith(`${row.label}, completed, `), `screen-reader label: ${row.ariaLabel}`);
      assert.doesNotMatch(row.ariaLabel, MARKUP, row.ariaLabel);
    }
    const groupRow = (await wb.treeItems(VIEW.tasks)).find((r) => r.label === 'Completed')!;
    assert.strictEqual(groupRow.ariaLabel, `${total.toLocaleString('en-US')} completed tasks match`);
    // The time comes first, the project last: a narrow side bar cuts the end of the row.
    for (const row of tasks) assert.match(row.description, /^(ended|started|created) (\d+ \w+ ago|now)( · |$)/, row.description);
    await wb.screenshot('11-tasks-completed-open');
    if (total > 100) {
      await scrollToRow(/^Load more/);
      const more = await wb.treeItem(VIEW.tasks, /^Load more/).textContent();
      assert.match(more ?? '', new RegExp(`Load more \\(${total - 100} left\\)`));
      await wb.screenshot('11b-tasks-load-more');
      await wb.treeItem(VIEW.tasks, /^Load more/).click();
      const before = new RegExp(`^Load more \\(${total - 100} left\\)`);
      await waitFor(async () => (await wb.treeItem(VIEW.tasks, before).count()) === 0, 'the next page to load');
      const after = (await wb.treeItems(VIEW.tasks)).filter((r) => r.level === 2).length;
      assert.ok(after > 0);
      await wb.screenshot('11c-tasks-next-page-loaded');
    }
    await collapseAll();
  });

  it('filters by status through the quick pick: the other groups disappear', async () => {
    const { wb } = e2e();
    const unfiltered = await titleActions();
    assert.deepStrictEqual(unfiltered.slice(0, 2), ['Filter Tasks…', 'Refresh Tasks'], unfiltered.join(' | '));
    assert.ok(!unfiltered.includes('Clear Task Filters'), unfiltered.join(' | '));
    await wb.runCommand(COMMAND.filterTasks);
    await wb.quickItem(/Status$/).waitFor();
    await wb.screenshot('12-filter-kinds');
    await wb.pickQuickItem(/Status$/);
    await wb.quickItem('Running', true).waitFor();
    const placeholder = (await wb.quickInputState()).placeholder;
    assert.ok(placeholder.length <= 40, `a placeholder short enough to be read whole: "${placeholder}"`);
    await wb.pickQuickItem('Running', true);
    await wb.pickQuickItem('Failed', true);
    await wb.screenshot('13-filter-status-multiselect');
    await wb.acceptQuickInput();
    await wb.waitForQuickInputClosed();
    const items = await waitForGroups(['Running', 'Failed'], (label) => count(STATUS_OF[label]));
    assert.strictEqual(items.find((i) => i.label === 'Failed')!.description, count('FAILED').toLocaleString('en-US'));
    assert.match(await viewDescription(), /Running, Failed/);
    // The filter button keeps its meaning; Clear shows beside it while a filter is on.
    const filtered = await titleActions();
    assert.deepStrictEqual(filtered.slice(0, 3), ['Filter Tasks…', 'Clear Task Filters', 'Refresh Tasks'], filtered.join(' | '));
    await wb.screenshot('14-filter-status-applied');
  });

  it('filters by a custom created range, each bound checked as it is typed', async () => {
    const { wb } = e2e();
    // A second filter is added from the same title button as the first.
    await wb.clickViewAction(VIEW.tasks, 'Filter Tasks…');
    await waitForQuickInput((q) => /Filter Tasks$/.test(q.title));
    await wb.quickItem(/Created$/).waitFor();
    await wb.pickQuickItem(/Created$/);
    await wb.pickQuickItem(/^Custom range/);
    await wb.typeInQuickInput('2026-03-01T10:00:00Z');
    await waitForQuickInput((q) => /trailing Z/.test(q.message));
    await wb.screenshot('15-filter-custom-from-invalid');
    const from = isoDate(Date.now() - 120 * 24 * 3600_000);
    await wb.typeInQuickInput(from);
    await waitForQuickInput((q) => /UTC/.test(q.message) && !/Expected/.test(q.message));
    await wb.typeInQuickInput(from, { submit: true });
    await waitForQuickInput((q) => /\(2\/2\)/.test(q.title));
    await wb.typeInQuickInput('2001-01-01');
    await waitForQuickInput((q) => /is after/.test(q.message));
    await wb.screenshot('16-filter-custom-to-before-from');
    await wb.typeInQuickInput('', { submit: true });
    await wb.waitForQuickInputClosed();
    const since = Date.parse(`${from}T00:00:00Z`);
    const items = await waitForGroups(['Running', 'Failed'], (label) => count(STATUS_OF[label], (t) => Date.parse(t.created_time) >= since));
    for (const item of items) {
      const expected = count(STATUS_OF[item.label], (t) => Date.parse(t.created_time) >= since);
      assert.strictEqual(item.description, expected.toLocaleString('en-US'), item.label);
    }
    assert.match(await viewDescription(), new RegExp(`Running, Failed · created since ${from}`));
    await wb.screenshot('17-filter-status-and-created');
  });

  it('filters by a time preset', async () => {
    const { wb } = e2e();
    await wb.runCommand(COMMAND.filterTasks);
    await wb.pickQuickItem(/Ended$/);
    await wb.pickQuickItem('Last 30 days', true);
    await wb.waitForQuickInputClosed();
    await waitForGroups(['Running', 'Failed']);
    await waitFor(async () => /ended in the last 30 days/.test(await viewDescription()), 'the view description to show the preset');
    await wb.screenshot('18-filter-preset-active');
  });

  it('clears the filters from the view title', async () => {
    const { wb } = e2e();
    await collapseAll();
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters');
    // A group left open before the status filter hid it opens again with it.
    await waitFor(async () => (await topLevel()).some((i) => i.label === 'Completed'), 'the groups to come back');
    await collapseAll();
    await waitForGroups(GROUPS);
    assert.strictEqual(await viewDescription(), '');
  });

  it('filters by a project picked from the user\'s projects, and shows a task\'s details on hover', async () => {
    const { wb } = e2e();
    await wb.runCommand(COMMAND.filterTasks);
    await wb.pickQuickItem(/Project$/);
    await wb.quickItem('RNA-seq Analysis', true).waitFor({ timeout: 20_000 });
    await wb.typeInQuickInput('rna');
    await wb.screenshot('20-filter-project-search');
    await wb.pickQuickItem('RNA-seq Analysis', true);
    await wb.waitForQuickInputClosed();
    const project = 'rfranklin/rna-seq-analysis';
    const items = await waitForGroups(GROUPS, (label) => count(STATUS_OF[label], (t) => t.project === project));
    for (const item of items) assert.strictEqual(item.description, count(STATUS_OF[item.label], (t) => t.project === project).toLocaleString('en-US'), item.label);
    assert.strictEqual(await viewDescription(), project.split('/')[1]);
    await wb.expandTreeItem(VIEW.tasks, /^Running$/);
    await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), 'the running tasks', 20_000);
    const first = wb.treeRows(VIEW.tasks).nth(1);
    await first.hover();
    await wb.page.locator('.monaco-hover, .workbench-hover').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    // The tooltip is read from the task's whole record when hovered (the listing asks only for a row's fields).
    await waitFor(async () => /App: /.test(await wb.page.locator('.monaco-hover, .workbench-hover').first().innerText().catch(() => '')), "the hovered task's app (from its whole record)", 10_000);
    await wb.screenshot('21-tasks-view-filtered-with-tooltip');
    // The README's picture (media/tasks-view.png is copied from it): the side bar and the tooltip only.
    await wb.page.screenshot({ path: path.join(screenshotsDir, 'readme-tasks-view.png'), clip: { x: 0, y: 0, width: 660, height: 420 } });
    await wb.page.mouse.move(5, 5);
    await collapseAll();
  });

  it('context menus: "Show Only This Status" on a group, "Filter by This Project" on a task', async () => {
    const { wb } = e2e();
    await clearFilters();
    await collapseAll();
    await waitForGroups(GROUPS);
    await e2e().wb.treeItemContextMenu(VIEW.tasks, /^Queued$/, 'Show Only This Status');
    await waitForGroups(['Queued']);
    assert.strictEqual(await viewDescription(), 'Queued');
    await wb.expandTreeItem(VIEW.tasks, /^Queued$/);
    await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), 'the queued tasks', 20_000);
    const row = (await wb.treeItems(VIEW.tasks)).find((r) => r.level === 2)!;
    const project = / · (\S+\/\S+)$/.exec(row.description)?.[1];
    assert.ok(project, `a project in "${row.description}"`);
    await e2e().wb.treeItemContextMenu(VIEW.tasks, new RegExp(`^${escape(row.label)}$`), 'Filter by This Project');
    await waitFor(async () => (await viewDescription()) === `Queued · ${project.split('/')[1]}`, 'the project filter');
    // The filter's description changes at once; the count follows when the platform answers.
    const expected = count('QUEUED', (t) => t.project === project).toLocaleString('en-US');
    let shown = '';
    await waitFor(async () => (shown = (await waitForGroups(['Queued']))[0].description) === expected, `the Queued count ${expected} (shows ${shown})`);
    await wb.screenshot('22-context-menu-filters');
    await collapseAll();
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters');
    await waitForGroups(GROUPS);
  });

  it('keyboard alone: context-menu commands run from the palette act on the selected row, or ask which task', async () => {
    const { wb, emulator } = e2e();
    await clearFilters();
    await collapseAll();
    await waitForGroups(GROUPS);
    // The row a keyboard user has moved to: the Failed group (selected; a click stands for the arrow keys).
    await wb.treeItem(VIEW.tasks, /^Failed$/).click();
    assert.strictEqual((await wb.treeItems(VIEW.tasks)).find((r) => r.selected)?.label, 'Failed');
    await wb.runCommand('Seven Bridges: Show Only This Status');
    await waitForGroups(['Failed']);
    assert.strictEqual(await viewDescription(), 'Failed');
    // A group is no task: "Open Task Details" asks which one, among the tasks the view shows.
    await wb.runCommand('Seven Bridges: Open Task Details');
    await waitForQuickInput((q) => /Open Task Details/.test(q.title));
    let labels: string[] = [];
    await waitFor(async () => {
      labels = (await wb.quickItems()).map((i) => i.label).filter((l) => l && l !== 'Tasks' && !/newest/.test(l));
      return labels.length > 0;
    }, 'the tasks to be listed', 20_000);
    await wb.screenshot('25-palette-which-task');
    const task = emulator.data.tasks.find((t) => t.name === labels[0] && t.status === 'FAILED');
    assert.ok(task, `"${labels[0]}" is a failed task`);
    await wb.page.keyboard.press('Enter');
    await waitFor(async () => (await wb.activeEditorText()).includes(`"name": ${JSON.stringify(labels[0])}`), 'the task details to open', 20_000);
    assert.match(await wb.activeEditorText(), /"status": "FAILED"/);
    await wb.screenshot('26-palette-task-details');
    await wb.page.keyboard.press('Control+W');
    await clearFilters();
    await collapseAll();
    await waitForGroups(GROUPS);
  });

  it('shows a batch parent\'s children through the parent-task pick', async () => {
    const { wb, emulator } = e2e();
    await wb.runCommand(COMMAND.filterTasks);
    await wb.pickQuickItem(/Parent task$/);
    await waitForQuickInput((q) => /Children of a Batch Task/.test(q.title));
    let labels: string[] = [];
    await waitFor(async () => {
      labels = (await wb.quickItems()).map((i) => i.label).filter((l) => l && !/Any parent|Batch tasks|newest/.test(l));
      return labels.length > 0;
    }, 'the batch tasks to be listed', 20_000);
    await wb.screenshot('23-filter-parent-pick');
    const parent = emulator.data.batchParents.find((p) => p.name === labels[0]);
    assert.ok(parent, `"${labels[0]}" is a batch parent`);
    await wb.pickQuickItem(labels[0], true);
    await wb.waitForQuickInputClosed();
    await waitFor(async () => (await viewDescription()).startsWith('children of'), 'the parent filter');
    const expected = emulator.data.tasks.filter((t) => t.parent === parent.id && STATUS_OF_VALUES.includes(t.status)).length;
    // The description changes at once; the counts follow when the platform answers.
    let shown = 0;
    const groupsTotal = async () => (await topLevel()).reduce((n, i) => n + Number(i.description.replace(/,/g, '') || 0), 0);
    await waitFor(async () => (shown = await groupsTotal()) === expected, `the groups to count the ${expected} children (they count ${shown})`, 20_000);
    assert.strictEqual(shown, expected, 'the groups count the children');
    await wb.screenshot('24-filter-parent-applied');
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters');
    await waitForGroups(GROUPS);
  });

  it('expands a batch parent into its children, each with its own status', async () => {
    const { wb, emulator } = e2e();
    const found = findBatchOnFirstPage(emulator.data.tasks);
    assert.ok(found, 'a batch parent among the newest 100 tasks of a group');
    const { group, parent } = found;
    await wb.expandTreeItem(VIEW.tasks, new RegExp(`^${group}$`));
    const parentLabel = new RegExp(`^${escape(parent.name)}$`);
    await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), `the tasks of the ${group} group`, 20_000);
    await scrollToRow(parentLabel);
    const row = (await wb.treeItems(VIEW.tasks)).find((r) => r.label === parent.name)!;
    assert.match(row.description, /\d+ (done|running|queued|failed|aborted)/, 'the parent sums up its children');
    // Its tooltip: what its children cost, said as theirs, and no "1/1 steps" of its own.
    await wb.treeItem(VIEW.tasks, parentLabel).hover();
    const hover = wb.page.locator('.monaco-hover, .workbench-hover').first();
    let tip = '';
    await waitFor(async () => /Batch: /.test((tip = await hover.innerText().catch(() => ''))), "the batch parent's tooltip", 10_000);
    if (parent.price) assert.match(tip, /Its children cost: \$[\d,]+\.\d\d/, tip);
    assert.doesNotMatch(tip, /steps|its children's/, tip);
    await wb.page.mouse.move(5, 5);
    await wb.expandTreeItem(VIEW.tasks, parentLabel);
    const list = await wb.pane(VIEW.tasks).locator('.monaco-list').first().boundingBox();
    if (list) await wb.page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await new Promise((r) => setTimeout(r, 500));
    await wb.page.mouse.wheel(0, 600);
    await new Promise((r) => setTimeout(r, 300));
    const children = emulator.data.tasks.filter((t) => t.parent === parent.id);
    const childRows = await waitForChildren(parent.name, children.length);
    assert.ok(childRows.length >= Math.min(children.length, 3), `child rows: ${childRows.length}`);
    // Each child named by what follows its parent's name (#44), whole at the default window size.
    const prefix = new RegExp(`^${escape(parent.name)}\\s*-\\s*`);
    const short = new Set(children.map((c) => c.name.replace(prefix, '')));
    for (const child of childRows) assert.ok(short.has(child.label.replace(/^\w+ · /, '')), `"${child.label}" is a child's name without "${parent.name} - "`);
    const first = await wb.wholeLabel(VIEW.tasks, new RegExp(`^\\s*${escape(childRows[0].label)}\\s*$`));
    assert.ok(first.whole, `"${first.label}" is cut at ${first.width} px`);
    await wb.screenshot('19-batch-parent-expanded');
    await collapseAll();
  });

  it('a refresh keeps what a person loaded and where they are: the rows, the selected row, an opened batch parent far down', async function () {
    this.timeout(240_000);
    const { wb, emulator } = e2e();
    const added = addOldCompleted(450, 300);
    try {
      await clearFilters();
      await collapseAll();
      await wb.clickViewAction(VIEW.tasks, 'Refresh Tasks');
      await waitForGroups(GROUPS, (label) => count(STATUS_OF[label]));
      await wb.expandTreeItem(VIEW.tasks, /^Completed$/);
      await waitFor(async () => (await wb.treeItems(VIEW.tasks)).some((r) => r.level === 2), 'the tasks of the Completed group', 20_000);
      const parentRow = new RegExp(`^${escape(added.parent.name)}$`);
      // "Load more" until the listing holds the batch parent, some 300 rows below the newest completed task: the
      // "Load more (N left)" row says how many are loaded (a row loaded below the view's edge is not drawn, so a row
      // not on screen tells nothing).
      const parentAt = count('COMPLETED', (t) => Date.parse(t.created_time) > Date.parse(added.parent.created_time));
      for (let clicks = 0; clicks < 12; clicks++) {
        await scrollToRow(/^Load more/);
        if ((await completedRowsLoaded()) > parentAt) break;
        const label = (await wb.treeItem(VIEW.tasks, /^Load more/).textContent()) ?? '';
        await wb.treeItem(VIEW.tasks, /^Load more/).click();
        await waitFor(async () => (await wb.treeItem(VIEW.tasks, new RegExp(`^${escape(label.trim())}$`)).count()) === 0, 'the next page');
      }
      await scrollToRow(parentRow);
      await wb.expandTreeItem(VIEW.tasks, parentRow);
      assert.strictEqual((await waitForChildren(added.parent.name, 3)).length, 3, "the batch parent's children under it");
      // The task right after the parent's children, selected (a Ctrl-click selects without opening it).
      const below = new RegExp(`^${escape(added.below.name)}$`);
      // The "Load more" row clicked last is selected too: Escape clears the selection first, so that this row alone is.
      await scrollToRow(below);
      await wb.clickTreeItem(VIEW.tasks, below, ['Control']);
      await wb.page.keyboard.press('Escape');
      await waitFor(async () => !(await wb.treeItems(VIEW.tasks)).some((r) => r.selected), 'the selection cleared');
      await wb.clickTreeItem(VIEW.tasks, below, ['Control']);
      await waitFor(async () => JSON.stringify((await wb.treeItems(VIEW.tasks)).filter((r) => r.selected).map((r) => r.label)) === JSON.stringify([added.below.name]), 'the row selected, alone');
      await scrollToRow(/^Load more/);
      const loaded = ((await wb.treeItem(VIEW.tasks, /^Load more/).textContent()) ?? '').trim();
      const shownBefore = await completedRowsLoaded();
      await wb.screenshot('27-tasks-before-refresh');

      const sent = emulator.requestLines.length;
      const lastPage = Math.ceil(shownBefore / 100) * 100 - 100;
      await wb.clickViewAction(VIEW.tasks, 'Refresh Tasks');
      await waitFor(() => emulator.requestLines.slice(sent).some((l) => l.includes('status=COMPLETED') && l.includes(`offset=${lastPage}`)), `the refresh to read again the page at ${lastPage}`, 30_000);
      await new Promise((r) => setTimeout(r, 1_500));
      await scrollToRow(/^Load more/);
      assert.strictEqual(((await wb.treeItem(VIEW.tasks, /^Load more/).textContent()) ?? '').trim(), loaded, 'as many rows loaded as before the refresh');
      assert.strictEqual(await completedRowsLoaded(), shownBefore);
      await scrollToRow(below);
      const rows = await wb.treeItems(VIEW.tasks);
      const selected = rows.filter((r) => r.selected).map((r) => r.label);
      assert.deepStrictEqual(selected, [added.below.name], 'the same row selected');
      assert.strictEqual(rows.find((r) => r.focused)?.label, added.below.name, 'the focus on it');
      await scrollToRow(parentRow);
      const kids = await waitForChildren(added.parent.name, 3);
      if (kids.length !== 3) console.log(`      rows shown: ${(await wb.treeItems(VIEW.tasks)).map((r) => `${r.level}:${r.label}`).join(' | ')}`);
      assert.deepStrictEqual(kids.map((k) => k.label).sort(), ['Kept child 0', 'Kept child 1', 'Kept child 2'], "the batch parent's children still under it");
      await wb.screenshot('28-tasks-after-refresh-kept');
    } finally {
      added.remove();
      await collapseAll();
      await wb.clickViewAction(VIEW.tasks, 'Refresh Tasks');
    }
  });
});

/** How many tasks the Completed group shows loaded: its listing's rows as the "Load more (N left)" row counts them. */
async function completedRowsLoaded(): Promise<number> {
  const label = ((await e2e().wb.treeItem(VIEW.tasks, /^Load more/).textContent()) ?? '').trim();
  const left = Number(/\(([\d,]+) left\)/.exec(label)?.[1].replace(/,/g, '') ?? NaN);
  return count('COMPLETED') - left;
}

/**
 * `n` completed tasks older than every other (copies of one), the one `at` from the newest a batch parent with 3 failed
 * children; `below` is the task listed right after the parent. `remove` takes them out again.
 */
function addOldCompleted(n: number, at: number): { parent: TaskRec; below: TaskRec; remove(): void } {
  const { data } = e2e().emulator;
  const completed = data.tasks.filter((t) => t.status === 'COMPLETED' && !t.batch && !t.parent);
  const oldest = Math.min(...data.tasks.map((t) => Date.parse(t.created_time)));
  const made: TaskRec[] = [];
  const make = (from: TaskRec, more: Partial<TaskRec>): TaskRec => {
    const t: TaskRec = { ...structuredClone(from), id: randomUUID(), ...more };
    data.tasks.push(t);
    data.taskById.set(t.id, t);
    made.push(t);
    return t;
  };
  const at_ = (i: number) => new Date(oldest - (i + 1) * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (let i = 0; i < n; i++) {
    const batch = i === at;
    make(completed[i % completed.length], {
      name: batch ? `Kept batch ${i}` : `Kept run ${i}`,
      created_time: at_(i),
      batch,
      ...(batch ? { execution_status: { ...completed[0].execution_status, completed: 0, failed: 3, running: 0, queued: 0, aborted: 0, steps_total: 3 } } : {}),
    });
  }
  const parent = made[at];
  // Named apart from their parent (the platform names them alike), so the parent's row is told from theirs on screen.
  for (let c = 0; c < 3; c++) make(completed[c], { name: `Kept child ${c}`, status: 'FAILED', parent: parent.id, created_time: parent.created_time, batch: false });
  return {
    parent,
    below: made[at + 1],
    remove: () => {
      for (const t of made) {
        data.tasks.splice(data.tasks.indexOf(t), 1);
        data.taskById.delete(t.id);
      }
    },
  };
}

type QuickState = Awaited<ReturnType<ReturnType<typeof e2e>['wb']['quickInputState']>>;

async function waitForQuickInput(check: (state: QuickState) => boolean): Promise<void> {
  let last: QuickState | undefined;
  await waitFor(async () => check((last = await e2e().wb.quickInputState())), 'the quick input').catch((err: Error) => {
    throw new Error(`${err.message}; it shows ${JSON.stringify(last)}`);
  });
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A batch parent within the first page (newest 100) of its status group, and that group's label. */
function findBatchOnFirstPage(tasks: TaskRec[]): { group: string; parent: TaskRec } | undefined {
  for (const label of ['Running', 'Completed', 'Failed']) {
    const status = STATUS_OF[label];
    const page = tasks
      .filter((t) => t.status === status)
      .sort((a, b) => (a.created_time < b.created_time ? 1 : a.created_time > b.created_time ? -1 : 0))
      .slice(0, 100);
    const unique = page.filter((t) => t.batch && page.filter((o) => o.name === t.name).length === 1);
    if (unique.length) return { group: label, parent: unique[0] };
  }
  return undefined;
}

async function waitForChildren(parentName: string, expected: number): Promise<{ label: string; level: number }[]> {
  const { wb } = e2e();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await wb.treeItems(VIEW.tasks);
    const at = rows.findIndex((r) => r.label === parentName);
    const level = rows[at]?.level ?? 0;
    const kids: { label: string; level: number }[] = [];
    for (let i = at + 1; i < rows.length && rows[i].level > level; i++) if (rows[i].level === level + 1) kids.push(rows[i]);
    if (kids.length >= Math.min(expected, 3) || Date.now() > deadline) return kids;
    // Rows below the list's edge are not rendered: a parent near the bottom needs its children scrolled in.
    if (at >= 0) await wb.page.mouse.wheel(0, 100);
    await new Promise((r) => setTimeout(r, 200));
  }
}
