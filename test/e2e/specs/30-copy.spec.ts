/**
 * Bulk copy as a person does it: two files selected in "Projects & Files", "Copy To…" from the context
 * menu, a folder of another project chosen through the pickers, the confirmation, the status bar going
 * from copying to done, the finish notification and the job's details. A screenshot at each step.
 */
import * as assert from 'assert';
import { COMMAND, e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape } from '../workbench';
import { waitFor } from '../../support/waitFor';

/** The confirmation's first line for files of these names copied where these names are: independent of the product's planner. */
function clashLine(there: string[], names: string[]): string {
  const taken = new Set(there);
  const renamed: string[] = [];
  for (const name of names) {
    if (!taken.has(name)) {
      taken.add(name);
      continue;
    }
    let to = name;
    for (let i = 1; taken.has(to); i++) to = `${i}_${name}`;
    taken.add(to);
    renamed.push(to);
  }
  if (!renamed.length) return 'No name is taken in the destination: every item keeps its name.';
  return `${renamed.length} ${renamed.length === 1 ? 'file' : 'files'} will arrive renamed (${renamed.slice(0, 3).join(', ')}${renamed.length > 3 ? ', …' : ''}).`;
}

/**
 * Records, for the next 240 frames, whether the Data Jobs pane is open, its body's height, how many rows it shows and
 * whether its progress bar runs (in the page; read back as `window.sbFrames`).
 */
const RECORD_FRAMES = `(() => {
  const frames = [];
  window.sbFrames = frames;
  const pane = () => [...document.querySelectorAll('.part.sidebar .pane')].find((p) => /^\\s*Data Jobs/.test(p.querySelector('.pane-header')?.textContent ?? ''));
  const record = () => {
    const p = pane();
    const body = p?.querySelector('.pane-body');
    const progress = p?.querySelector('.monaco-progress-container');
    frames.push({
      open: p?.querySelector('.pane-header')?.getAttribute('aria-expanded') === 'true',
      height: body ? body.getBoundingClientRect().height : 0,
      rows: p ? p.querySelectorAll('.monaco-list-row').length : 0,
      progress: !!progress && progress.classList.contains('active') && getComputedStyle(progress).display !== 'none',
    });
    if (frames.length < 240) requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
})()`;

async function waitForQuickTitle(title: RegExp): Promise<void> {
  const { wb } = e2e();
  for (let i = 0; i < 100; i++) {
    if (title.test((await wb.quickInputState()).title)) return;
    await wb.page.waitForTimeout(100);
  }
  throw new Error(`no quick input titled ${title}; it shows ${JSON.stringify(await wb.quickInputState())}`);
}

describe('bulk copy from the Projects & Files view', function () {
  this.timeout(120_000);

  it("refuses a project's root folder in a dialog that says what to do first and names the folder", async () => {
    const { wb, emulator } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.pane(VIEW.files).locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 20_000 });
    await ensureSignedIn();
    const root = emulator.data.projects[0].root_folder;
    const posts = emulator.copyRequests.length;
    await wb.runCommand(COMMAND.copy);
    await wb.waitForQuickInput(/Copy Files and Folders/);
    await wb.typeInQuickInput(root, { submit: true });
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const message = (await dialog.locator('.dialog-message-text').innerText()).trim();
    const detail = (await dialog.locator('.dialog-message-detail').innerText()).trim();
    await wb.screenshot('copy-00-root-folder-refused');
    assert.strictEqual(message, 'Nothing was copied.');
    assert.match(detail, /^Copy the files and folders inside a project's root folder instead/);
    assert.ok(detail.includes(root), detail);
    await wb.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.strictEqual(emulator.copyRequests.length, posts, 'nothing sent');
  });

  it('lists folders before files, with plain screen-reader labels, and asks a single item\'s new name saying which and where', async () => {
    const { wb, emulator } = e2e();
    const data = emulator.data;
    const project = data.projects.find((p) => {
      const kids = data.children(p.root_folder);
      return kids.some((f) => f.type === 'folder') && kids.some((f) => f.type === 'file');
    })!;
    await wb.collapsePane(VIEW.tasks);
    await wb.expandPane(VIEW.files);
    await wb.openTreeItem(VIEW.files, project.name, 3);
    // The row says it is open before the project's listing has come: read its rows until they have.
    const childRows = async () => {
      const rows = await wb.treeItems(VIEW.files);
      const at = rows.findIndex((r) => r.label === project.name);
      const kids: typeof rows = [];
      for (let i = at + 1; at >= 0 && i < rows.length && rows[i].level > rows[at].level; i++) if (rows[i].level === rows[at].level + 1) kids.push(rows[i]);
      return kids;
    };
    const kindOf = (row: { expanded?: boolean }) => (row.expanded === undefined ? 'file' : 'folder');
    // Read once the list has drawn them in order from the first (positions 1, 2, 3…), both kinds among them: mid-draw,
    // its DOM once held the project's row followed by four files from the end of the view.
    const kids = await waitFor(async () => {
      const now = await childRows();
      const fromFirst = now.length > 0 && now.every((r, i) => r.position === i + 1);
      return fromFirst && now.some((r) => kindOf(r) === 'folder') && now.some((r) => kindOf(r) === 'file') ? now : undefined;
    }, `folders and files under ${project.name}, from the first`, 20_000).catch(async (e: Error) =>
      assert.fail(`${e.message}: ${(await childRows()).map((r) => `${r.position}:${kindOf(r)}`).join(',')}`),
    );
    const kinds = kids.map(kindOf);
    await wb.screenshot('copy-00b-folders-first');
    assert.ok(kinds.lastIndexOf('folder') < kinds.indexOf('file'), `folders first: ${kids.map((r) => r.label).join(', ')}`);
    for (const row of kids) assert.match(row.ariaLabel, new RegExp(`^${escape(row.label)}, (folder|file, \\S+ [KMGT]?B)$`), row.ariaLabel);

    const file = kids.find((r) => r.expanded === undefined)!;
    await wb.clickTreeItem(VIEW.files, file.label);
    await wb.treeItemContextMenu(VIEW.files, file.label, 'Copy To…');
    await wb.quickItem('A folder in the same project').waitFor({ timeout: 5_000 }).catch(async () => {
      if (await wb.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu').first().isVisible()) await wb.page.keyboard.press('Enter');
    });
    await wb.quickItem('A folder in the same project').click();
    await wb.quickItem('Here').waitFor({ timeout: 20_000 });
    const browse = (await wb.quickItems()).map((i) => i.label);
    // At the project's root there is nothing above: the second row goes back, and says so.
    assert.strictEqual(browse[1], 'Back', browse.join(' | '));
    assert.ok(!browse.includes('Up'), browse.join(' | '));
    await wb.quickItem('Here').click();
    await waitForQuickTitle(/^Name of the copy of/);
    const box = await wb.quickInputState();
    await wb.screenshot('copy-00c-rename-box');
    assert.strictEqual(box.title, `Name of the copy of "${file.label}"`);
    assert.match(box.message, new RegExp(`^Copied into ${escape(project.id)}\\. Keep the name or type a new one\\.`));
    assert.strictEqual(box.value, file.label);
    await wb.page.keyboard.press('Escape');
    await wb.waitForQuickInputClosed();
    await wb.treeItem(VIEW.files, project.name).locator('.monaco-tl-twistie').click();
  });

  it('copies two selected files to a folder of another project and shows the job through to its details', async () => {
    const { wb, emulator } = e2e();
    // The welcome view or the tree must be drawn before ensureSignedIn can tell whether to sign in.
    await wb.openViewContainer('Seven Bridges');
    const files = wb.pane(VIEW.files);
    await files.locator('.welcome-view .monaco-button, .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 20_000 });
    await ensureSignedIn();
    const data = emulator.data;
    const rootOf = (p: { root_folder: string }) => data.children(p.root_folder);
    const unique = (names: string[]) => names.filter((n, i) => names.indexOf(n) === i && names.lastIndexOf(n) === i);
    const source = data.projects.find((p) => unique(rootOf(p).filter((f) => f.type === 'file').map((f) => f.name)).length >= 2)!;
    const target = data.projects.find((p) => p.id !== source.id && rootOf(p).some((f) => f.type === 'folder'))!;
    const folder = rootOf(target).find((f) => f.type === 'folder')!;
    const [first, second] = unique(rootOf(source).filter((f) => f.type === 'file').map((f) => f.name));
    const posts = emulator.copyRequests.length;

    await wb.openViewContainer('Seven Bridges');
    await wb.collapsePane(VIEW.tasks);
    await wb.collapsePane(VIEW.jobs);
    await wb.expandPane(VIEW.files);
    await wb.openTreeItem(VIEW.files, source.name, first);
    await wb.clickTreeItem(VIEW.files, first);
    await wb.clickTreeItem(VIEW.files, second, ['Control']);
    const selected = (await wb.treeItems(VIEW.files)).filter((i) => i.selected).map((i) => i.label);
    assert.deepStrictEqual(selected.sort(), [first, second].sort());
    await wb.screenshot('copy-01-two-files-selected');

    await wb.treeItemContextMenu(VIEW.files, second, 'Copy To…');
    // A click landing while the menu still animates open can be lost; the entry is focused, so Enter runs it.
    await wb.quickItem('A folder in another project').waitFor({ timeout: 5_000 }).catch(async () => {
      if (await wb.page.locator('.monaco-menu-container .monaco-menu, .context-view .monaco-menu').first().isVisible()) await wb.page.keyboard.press('Enter');
    });
    await wb.quickItem('A folder in another project').waitFor();
    await wb.screenshot('copy-02-destination-kinds');
    await wb.quickItem('A folder in another project').click();

    // "Another project": the sources' own project is not offered.
    await wb.quickItem(target.name).waitFor({ timeout: 20_000 });
    const offered = (await wb.quickItems()).map((i) => i.label);
    assert.ok(!offered.includes(source.name), `the source project is offered: ${offered.join(' | ')}`);
    await wb.typeInQuickInput(target.name);
    await wb.quickItem(target.name).waitFor({ timeout: 20_000 });
    await wb.screenshot('copy-03-project-picker');
    await wb.quickItem(target.name).click();

    await wb.quickItem(folder.name).waitFor({ timeout: 20_000 });
    await wb.screenshot('copy-04-folder-browser');
    await wb.quickItem(folder.name).click();
    await wb.quickItem('Here').waitFor();
    const wanted = `${target.id} › ${folder.name}`;
    let title = '';
    for (let i = 0; i < 100 && !title.includes(wanted); i++) {
      title = (await wb.quickInputState()).title;
      if (!title.includes(wanted)) await wb.page.waitForTimeout(100);
    }
    assert.ok(title.includes(wanted), `browser title: ${title}`);
    await wb.quickItem('Here').click();

    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const question = (await dialog.locator('.dialog-message-text').innerText()).trim();
    assert.strictEqual(question, `Copy "${first}" and "${second}" to ${target.id} › ${folder.name}?`);
    // What happens to the names there, looked up before asking; only files: nothing about folders.
    const detail = (await dialog.locator('.dialog-message-detail').innerText()).trim();
    assert.strictEqual(detail, `${clashLine(emulator.data.children(folder.id).map((f) => f.name), [first, second])}\nA file whose name is taken there gets a numbered name.`);
    await wb.screenshot('copy-05-confirmation');
    await dialog.locator('.monaco-button', { hasText: /^Copy$/ }).click();

    const copying = await wb.waitForStatusBarText(/Copying 1 job/, 20_000);
    await wb.screenshot('copy-06-status-copying');
    const done = await wb.waitForStatusBarText(/Copy done · 2 files/, 40_000);
    await wb.screenshot('copy-07-status-done');
    assert.strictEqual(emulator.copyRequests.length, posts + 1, 'one copy call');
    const body = emulator.copyRequests[posts].items as { file: string; parent?: string; project?: string }[];
    assert.deepStrictEqual(body.map((i) => Object.keys(i).sort()), [['file', 'parent'], ['file', 'parent']]);
    assert.ok(body.every((i) => i.parent === folder.id));

    await wb.waitForNotification(/finished: 2 files copied/, 20_000);
    await wb.screenshot('copy-08-finish-notification');
    // Nothing needed the person: Data Jobs stayed folded, the status bar and the notification told it.
    assert.strictEqual(await wb.pane(VIEW.jobs).locator('.pane-header').getAttribute('aria-expanded'), 'false', 'Data Jobs did not open by itself');
    await wb.clickNotificationButton(/finished: 2 files copied/, 'Show Details');
    // The Data Jobs view, the job opened into its items: each source and the name of its copy.
    await wb.waitForTreeItems(VIEW.jobs, first, 20_000);
    await wb.waitForTreeItems(VIEW.jobs, second, 20_000);
    const rows = await wb.treeItems(VIEW.jobs);
    await wb.screenshot('copy-09-job-details');
    // State and progress first, then the folder's name: what a person looks for survives a narrow side bar.
    const jobRow = rows.find((r) => r.level === 1 && r.ariaLabel.startsWith(`Copy to ${target.id} › ${folder.name}, `));
    assert.ok(jobRow, rows.map((r) => r.ariaLabel).join(' | '));
    assert.deepStrictEqual([jobRow.label, jobRow.description.split(' · ')[0]], ['finished · 2/2 files', folder.name]);
    const shown = await wb.wholeLabel(VIEW.jobs, 'finished · 2/2 files');
    assert.ok(shown.whole, `the row's label is cut at the default width: ${JSON.stringify(shown)}`);
    console.log(`      Data Jobs row at the default width (${shown.width} px): "${jobRow.label}" "${jobRow.description}"`);
    for (const name of [first, second]) assert.match(rows.find((r) => r.label === name)!.description, /^→ /);

    // Copy Results: a read-only TSV document named after the destination and the job, closed without a question.
    const jobId = emulator.copyRequests[posts].jobId!;
    await wb.treeItemContextMenu(VIEW.jobs, 'finished · 2/2 files', 'Copy Results');
    const resultsName = `copy-results-${target.id.replace('/', '-')}-${folder.name}-${jobId}.tsv`;
    let tab = '';
    for (let i = 0; i < 100 && (tab = (await wb.page.locator('.part.editor .tab.active .monaco-icon-label').first().innerText()).replace(/\s*\n\s*/g, '').trim()) !== resultsName; i++) await wb.page.waitForTimeout(100);
    assert.strictEqual(tab, resultsName);
    // The tab is drawn before its editor's lines: wait for the text itself.
    await waitFor(async () => /^source_id\s+source_name\s+outcome/m.test(await wb.activeEditorText()), 'the results\' header line drawn').catch(async (e: Error) =>
      assert.fail(`${e.message}: ${await wb.activeEditorText()}`),
    );
    await wb.screenshot('copy-09b-copy-results');
    const activeTab = wb.page.locator('.part.editor .tab.active');
    assert.doesNotMatch((await activeTab.getAttribute('class')) ?? '', /\bdirty\b/, 'nothing to save');
    await wb.runCommand('View: Close Editor');
    await wb.page.waitForTimeout(300);
    assert.strictEqual(await wb.page.locator('.monaco-dialog-box').count(), 0, 'closing asks nothing');
    // Folded again, to give the files their room.
    await wb.setPaneOpen(VIEW.jobs, false);

    // The copies are in the destination folder of the view (the source project folded away to make room).
    await wb.treeItem(VIEW.files, source.name).locator('.monaco-tl-twistie').click();
    await wb.waitForTreeItems(VIEW.files, target.name);
    await wb.expandTreeItem(VIEW.files, target.name);
    await wb.waitForTreeItems(VIEW.files, folder.name, 20_000);
    await wb.expandTreeItem(VIEW.files, folder.name);
    // The copies come last in the folder: page down through it (loading more if there is more) until the first copy shows.
    const job = emulator.data.jobs.find((j) => j.id === emulator.copyRequests[posts].jobId)!;
    const copyName = String((job.result[0] as { resource: { name: string } }).resource.name);
    const copyRow = wb.treeItem(VIEW.files, new RegExp(`^\\s*${copyName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
    const list = wb.pane(VIEW.files).locator('.monaco-list').first();
    // Rendered is not enough (the list renders rows beyond its edges, and sticky headers of the project
    // and the folder cover its top rows): the row must be inside the list's box, below the sticky rows.
    const place = async (): Promise<'above' | 'in' | 'below' | 'absent'> => {
      if (!(await copyRow.count())) return 'absent';
      const row = await copyRow.boundingBox().catch(() => null);
      const box = await list.boundingBox();
      if (!row || !box) return 'absent';
      if (row.y < box.y + 3 * row.height) return 'above';
      return row.y + row.height <= box.y + box.height ? 'in' : 'below';
    };
    const inView = async () => (await place()) === 'in';
    for (let i = 0; i < 200; i++) {
      const where = await place();
      if (where === 'in') break;
      const more = wb.treeItem(VIEW.files, /^\s*Load more/);
      if (where === 'absent' && (await more.isVisible().catch(() => false))) {
        await more.click();
        await wb.page.waitForTimeout(300);
      }
      await wb.page.keyboard.press(where === 'absent' ? 'PageDown' : where === 'below' ? 'ArrowDown' : 'ArrowUp');
      await wb.page.waitForTimeout(30);
    }
    if (!(await inView())) {
      const shownRows = (await wb.treeItems(VIEW.files)).map((r) => r.label).join(' | ');
      assert.fail(`the copy ${copyName} is shown in ${folder.name} (it is ${await place()}; rows: ${shownRows})`);
    }
    await wb.screenshot('copy-10-copies-in-view');
    console.log(`      status bar: "${copying}" → "${done}"`);
  });
  it('drags two files onto another project: refused onto their own project, then the clash warning, asked Copy here, confirmed, the job FINISHED in Data Jobs', async () => {
    const { wb, emulator } = e2e();
    const data = emulator.data;
    const rootOf = (p: { root_folder: string }) => data.children(p.root_folder);
    const unique = (names: string[]) => names.filter((n, i) => names.indexOf(n) === i && names.lastIndexOf(n) === i);
    // Neighbours in the view: the target's row stays on screen above the source's first files.
    const [target, source] = data.projects;
    assert.ok(target.permissions.write, 'the first project is writable');
    const [first, second] = unique(rootOf(source).filter((f) => f.type === 'file').map((f) => f.name));
    const posts = emulator.copyRequests.length;

    await wb.openViewContainer('Seven Bridges');
    await wb.collapsePane(VIEW.tasks);
    await wb.expandPane(VIEW.files);
    await wb.collapseAll(VIEW.files);
    // Data Jobs is opened after each drop to see the job, and folded again to leave the files room.
    const jobsPane = (open: boolean) => wb.setPaneOpen(VIEW.jobs, open);
    await jobsPane(false);
    await wb.expandTreeItem(VIEW.files, source.name);
    await wb.waitForTreeItems(VIEW.files, second, 20_000);
    await wb.clickTreeItem(VIEW.files, first);
    await wb.clickTreeItem(VIEW.files, second, ['Control']);

    const drop = async (onto: string) => {
      await wb.treeItem(VIEW.files, second).dragTo(wb.treeItem(VIEW.files, new RegExp(`^\\s*${escape(onto)}\\s*$`)));
    };
    /** Across projects the drop asks Move here / Copy here, Copy first: Enter takes it. */
    const copyHere = async () => {
      await wb.waitForQuickInput(/^Drop onto /, 10_000);
      const choices = (await wb.quickItems()).map((i) => i.label);
      assert.deepStrictEqual(choices.map((c) => c.replace(/^\W+/, '').trim()), ['Copy here', 'Move here'], `the drop's question: ${choices.join(' | ')}`);
      await wb.page.keyboard.press('Enter');
      await wb.waitForQuickInputClosed();
    };
    // Onto their own project: refused before anything is sent.
    await drop(source.name);
    await wb.waitForNotification(/already in the root of/, 10_000);
    assert.strictEqual(emulator.copyRequests.length, posts, 'nothing sent');
    await wb.clearNotifications();

    const dialog = wb.page.locator('.monaco-dialog-box');
    const confirm = async (expected: string, shot: string) => {
      await dialog.waitFor();
      assert.strictEqual((await dialog.locator('.dialog-message-text').innerText()).trim(), `Copy "${first}" and "${second}" to ${target.id}?`);
      const detail = (await dialog.locator('.dialog-message-detail').innerText()).trim();
      assert.strictEqual(detail.split('\n')[0], expected);
      await wb.screenshot(shot);
      await dialog.locator('.monaco-button', { hasText: /^Copy$/ }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    const finishedRow = async (count: number) => {
      await jobsPane(true);
      for (let i = 0; i < 200; i++) {
        const rows = (await wb.treeItems(VIEW.jobs)).filter((r) => r.ariaLabel.startsWith(`Copy to ${target.id}, `));
        if (rows.length >= count && rows[0].label === 'finished · 2/2 files') return rows[0];
        await wb.page.waitForTimeout(200);
      }
      throw new Error(`no finished job to ${target.id} in Data Jobs: ${JSON.stringify(await wb.treeItems(VIEW.jobs))}`);
    };

    const there = rootOf(target).map((f) => f.name);
    await drop(target.name);
    await copyHere();
    await confirm(clashLine(there, [first, second]), 'copy-11-drop-confirmation');
    await finishedRow(1);
    assert.strictEqual(emulator.copyRequests.length, posts + 1);
    await jobsPane(false);

    // The same two files again: both names are taken now, and the confirmation says so before anything is sent.
    // The platform takes this copy but its answer is lost (the connection reset): the person is told so in plain
    // words, then what the check found.
    emulator.loseNextCopyResponse();
    await drop(target.name);
    await copyHere();
    await confirm(clashLine(rootOf(target).map((f) => f.name), [first, second]), 'copy-12-clash-warning');
    assert.match(clashLine(rootOf(target).map((f) => f.name), [first, second]), /^2 files will arrive renamed/);
    const lost = await wb.waitForNotification(/did not answer the copy/, 20_000);
    await wb.screenshot('copy-12b-answer-lost');
    assert.strictEqual(
      lost.split('\n')[0].trim(),
      `The platform did not answer the copy of 2 items to ${target.id}. The connection to the platform was reset before it answered. Checking whether it arrived before sending anything again: nothing to do.`,
    );
    assert.doesNotMatch(lost, /\([^)]*\(|ECONNRESET|Check your connection/, 'no nested parentheses, raw code or blame');
    const found = await wb.waitForNotification(/had arrived/, 30_000);
    await wb.screenshot('copy-12c-answer-lost-found');
    assert.strictEqual(found.split('\n')[0].trim(), `The copy of 2 items to ${target.id} had arrived: its job is followed in Data Jobs.`);
    const row = await finishedRow(2);
    await wb.screenshot('copy-13-jobs-view');
    assert.strictEqual(emulator.copyRequests.length, posts + 2, 'the copy whose answer was lost was not sent again');
    const body = emulator.copyRequests[posts + 1].items as { file: string; project?: string }[];
    assert.ok(body.every((i) => i.project === target.id), JSON.stringify(body));
    console.log(`      drop: ${row.label} ${row.description}`);
  });
  it('Show Data Jobs: its rows from the first frame it is open, and Projects & Files keeps its room beside it', async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await wb.expandPane(VIEW.tasks);
    await wb.expandPane(VIEW.files);
    await wb.collapsePane(VIEW.jobs);
    await wb.page.waitForTimeout(300);
    // Every frame from the command on: whether the pane is open, and whether it shows rows or its progress bar.
    await wb.page.evaluate(RECORD_FRAMES);
    await wb.runCommand(COMMAND.showJobs);
    await wb.waitForTreeItems(VIEW.jobs, 1, 10_000);
    await wb.page.waitForTimeout(500);
    const frames = (await wb.page.evaluate('window.sbFrames.splice(0)')) as { open: boolean; height: number; rows: number; progress: boolean }[];
    const shownAt = frames.findIndex((f) => f.open && f.height > 0);
    assert.ok(shownAt >= 0, `the pane never opened: ${JSON.stringify(frames.slice(0, 5))}`);
    const blank = frames.slice(shownAt).filter((f) => f.open && f.height > 0 && !f.rows && !f.progress);
    assert.strictEqual(blank.length, 0, `${blank.length} of ${frames.length - shownAt} frames open showed neither rows nor a progress bar`);
    await wb.screenshot('copy-14-show-copy-jobs-layout');
    const height = async (view: string) => Math.round((await wb.pane(view).locator('.pane-body').boundingBox())?.height ?? 0);
    const sizes = { tasks: await height(VIEW.tasks), files: await height(VIEW.files), jobs: await height(VIEW.jobs) };
    console.log(`      panes with all three open (px): ${JSON.stringify(sizes)}; Data Jobs drawn in the frame it opened: ${frames[shownAt].rows} rows`);
    assert.ok(sizes.files >= 8 * 22, `Projects & Files keeps room for 8 rows or more: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.files >= sizes.jobs, `Projects & Files is not smaller than Data Jobs: ${JSON.stringify(sizes)}`);
  });
});
