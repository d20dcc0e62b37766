/**
 * Starting work from the editor as a person does it (#39), seen on screen:
 * - a public app picked with New Task… (found by words only its categories hold), its task document opened in a
 *   project of theirs; an input filled by completion (its id, then a file of the project by its name); two files
 *   dragged from Projects & Files onto the list input (Shift held: how VS Code drops into the text of an editor);
 *   Run Task from the link at the top (the document left a run to make again: no `draft:` line); the task under
 *   Running in the Tasks view; the notification when it ends;
 * - a sample sheet of 12 rows in the workspace, Run for Each Row… with a task document as the template: the preview
 *   says 12, Make 12 tasks confirmed, the Tasks view shows that set of 12.
 * A screenshot at each step.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import type { FileRec } from '../../emulator';
import { waitFor } from '../../support/waitFor';
import { COMMAND, e2e, ensureSignedIn, openTaskGroup, showProjectsAndFiles, VIEW } from '../fixture';
import { escape } from '../workbench';

const PUBLIC_APP = 'admin/sbg-public-data/fastqc-0-11-9';
const PROJECT = 'rfranklin/my-project';
const exactly = (name: string): RegExp => new RegExp(`^\\s*${escape(name)}\\s*$`);

/** The files at the top of the project, in the order the platform lists them (what completion offers first). */
function topFiles(): FileRec[] {
  const { data } = e2e().emulator;
  const project = data.projectById.get(PROJECT)!;
  return data.children(project.root_folder).filter((f) => f.type === 'file');
}

/** A line of the editor on screen, by its text (the editor writes its spaces as no-break spaces: `\s` in a pattern). */
function editorLine(text: string | RegExp): Locator {
  return e2e().wb.page.locator('.part.editor .monaco-editor .view-lines .view-line', { hasText: text }).first();
}

/** The lines of the active editor on screen, top to bottom (the editor keeps its line elements in no set order). */
async function editorLines(): Promise<string[]> {
  const lines = e2e().wb.page.locator('.part.editor .editor-instance .view-lines').first().locator('.view-line');
  const read = await lines.evaluateAll((els) => els.map((el) => ({ top: el.getBoundingClientRect().top, text: (el.textContent ?? '').replace(/\u00a0/g, ' ') })));
  return read.sort((a, b) => a.top - b.top).map((l) => l.text);
}

/** The middle of an element, for the mouse. */
async function middle(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The labels of the suggestions on screen, and the one the keyboard is on. */
async function suggestions(): Promise<{ labels: string[]; focused: string }> {
  const rows = e2e().wb.page.locator('.editor-widget.suggest-widget.visible .monaco-list-row');
  const read = await rows.evaluateAll((els) =>
    els.map((el) => ({ label: (el.querySelector('.label-name')?.textContent ?? '').trim(), focused: el.classList.contains('focused') })),
  );
  return { labels: read.map((r) => r.label), focused: read.find((r) => r.focused)?.label ?? '' };
}

/** Ctrl+Space at the cursor, then waits until the suggestion the keyboard is on is `label` (typing `filter` first narrows). */
async function complete(label: string, filter = ''): Promise<string[]> {
  const { page } = e2e().wb;
  await page.keyboard.press('Control+Space');
  await waitFor(async () => (await suggestions()).labels.length > 0, 'the suggestions', 15_000);
  const offered = (await suggestions()).labels;
  if (filter) await page.keyboard.type(filter);
  await waitFor(async () => (await suggestions()).focused === label, `"${label}" first among the suggestions (${JSON.stringify(await suggestions())})`, 10_000);
  await page.keyboard.press('Enter');
  return offered;
}

/** Drags a row of Projects & Files onto a line of the editor, Shift held once the drag has begun (VS Code's way to drop into the text). */
async function dragOntoLine(row: Locator, line: Locator): Promise<void> {
  const { page } = e2e().wb;
  const from = await middle(row);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 5, { steps: 5 });
  await page.keyboard.down('Shift');
  const box = (await line.boundingBox())!;
  const to = { x: box.x + Math.min(200, box.width / 2), y: box.y + box.height / 2 };
  // Out of the tree sideways first: held over a folder's row on the way, the tree would open it.
  await page.mouse.move(to.x, from.y + 5, { steps: 10 });
  await page.mouse.move(to.x, to.y, { steps: 10 });
  await page.waitForTimeout(300);
  await page.mouse.up();
  await page.keyboard.up('Shift');
}

describe('starting work from the editor: a public app run on files picked by completion and by dragging; a sample sheet', function () {
  this.timeout(240_000);
  const made: string[] = [];

  after(async () => {
    const { wb, emulator } = e2e();
    if (await wb.quickInput().isVisible().catch(() => false)) await wb.page.keyboard.press('Escape');
    await wb.clickViewAction(VIEW.tasks, 'Clear Task Filters').catch(() => undefined);
    // The sheet's tasks taken out of the platform: running, they would end during the specs after this one.
    for (const id of made) {
      const task = emulator.data.taskById.get(id);
      if (task) emulator.data.removeTask(task);
    }
    await wb.clearNotifications();
    await wb.runCommand('View: Revert and Close Editor').catch(() => undefined);
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
    await wb.resetViews().catch(() => undefined);
  });

  it('picks a public app, fills its inputs by completion and by dragging two files, runs it: under Running, then told when it ends', async () => {
    const { wb, emulator } = e2e();
    const files = topFiles();
    // What completion offers for the contaminants (a TXT file): among the first page of the project's files.
    const contaminants = files.slice(0, 100).find((f) => /\.txt$/i.test(f.name))!;
    assert.ok(contaminants, 'a TXT file at the top of the project');
    await wb.openViewContainer('Seven Bridges');
    await ensureSignedIn();

    // 1. New Task…: an app found by words only the public FastQC holds (its categories), then a project of mine.
    await wb.runCommand('Seven Bridges: New Task…');
    await wb.waitForQuickInput('New Task');
    await waitFor(async () => (await wb.quickItems()).length > 1, 'your apps and the public ones listed', 15_000);
    await wb.typeInQuickInput('quality control');
    const found = await waitFor(async () => {
      const apps = (await wb.quickItems()).filter((i) => i.description !== '');
      return apps.length === 1 && apps[0].label === 'FastQC' ? apps : undefined;
    }, 'the platform\'s search to find the public FastQC', 15_000);
    assert.match(found[0].description, /^revision \d+ · admin\/sbg-public-data$/, JSON.stringify(found));
    await wb.screenshot('start-work-1-public-app');
    await wb.pickQuickItem('FastQC', true);
    await wb.waitForQuickInput(/the project to run "FastQC" in/, 15_000);
    await waitFor(async () => (await wb.quickItems()).some((i) => i.description === PROJECT), 'your projects', 15_000);
    await wb.pickQuickItem('My Project', true);
    const opened = await waitFor(async () => {
      const t = await wb.activeEditorText();
      return t.includes(`app: ${PUBLIC_APP}/`) && t.includes('in_reads') ? t : undefined;
    }, 'the task document', 20_000);
    assert.match(opened, new RegExp(`project: ${escape(PROJECT)}`), opened);
    assert.match(await wb.activeEditorTitle(), /^FastQC\.sbtask/);
    await wb.screenshot('start-work-2-task-document');

    // 2. The task's name, typed at the end of its line.
    const name = `FastQC of two runs ${Date.now().toString(36)}`;
    await editorLine(/^name:\sFastQC$/).click();
    await wb.page.keyboard.press('End');
    await wb.page.keyboard.press('Shift+Home');
    await wb.page.keyboard.type(`name: ${name}`);

    // 3. contaminants by completion: its line (written commented out) replaced by the input's id picked, then a TXT
    // file of the project picked by its name; the ID is what is written, the name beside it.
    await editorLine(/#\scontaminants:/).click();
    await wb.page.keyboard.press('End');
    await wb.page.keyboard.press('Shift+Home');
    await wb.page.keyboard.type('conta');
    await complete('contaminants');
    const offered = await complete(contaminants.name, contaminants.name.replace(/\.txt$/i, ''));
    assert.ok(offered.length > 0 && offered.every((n) => /\.txt$/i.test(n)), `the project's TXT files by name: ${offered.join(', ')}`);
    await waitFor(async () => (await wb.activeEditorText()).includes(`contaminants: ${contaminants.id}  # ${contaminants.name}`), 'the file\'s ID written, its name beside it', 10_000);
    await wb.screenshot('start-work-3-completion');

    // 4. in_reads by dragging: its line uncommented (Toggle Line Comment), two FASTQ files dragged from Projects &
    // Files onto it, one after the other: each goes into the list.
    await editorLine(/#\sin_reads:/).click();
    await wb.page.keyboard.press('Control+/');
    await waitFor(() => editorLine(/^\s*in_reads:/).isVisible(), 'in_reads uncommented', 5_000);
    await showProjectsAndFiles();
    await wb.waitForTreeItems(VIEW.files, 'My Project', 20_000);
    await wb.expandTreeItem(VIEW.files, 'My Project');
    // The FASTQ files at the project's top whose rows are on screen (the tree renders a few rows beyond its edge).
    const shownReads = () =>
      wb.treeRows(VIEW.files).evaluateAll((rows) => {
        const list = rows[0]?.closest('.monaco-list')?.getBoundingClientRect();
        return rows
          .filter((row) => {
            const b = row.getBoundingClientRect();
            return list !== undefined && b.top >= list.top && b.bottom <= list.bottom && row.getAttribute('aria-level') === '2';
          })
          .map((row) => (row.querySelector('.label-name')?.textContent ?? '').trim())
          .filter((label) => label.endsWith('.fastq.gz'));
      });
    await wb.waitForTreeItems(VIEW.files, 2, 20_000);
    // The project's folders come first: its files further down, scrolled to until two FASTQ files show.
    const box = (await wb.pane(VIEW.files).locator('.monaco-list').first().boundingBox())!;
    for (let i = 0; i < 40 && (await shownReads()).length < 2; i++) {
      await wb.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await wb.page.mouse.wheel(0, 200);
      await wb.page.waitForTimeout(100);
    }
    const [first, second] = await shownReads();
    assert.ok(first && second, 'two FASTQ files shown in the project');
    const reads = [first, second].map((n) => files.find((f) => f.name === n)!);
    await dragOntoLine(wb.treeItem(VIEW.files, exactly(first)), editorLine(/^\s*in_reads:/));
    await waitFor(async () => (await wb.activeEditorText()).includes(`- ${reads[0].id}  # ${first}`), 'the first file dropped into in_reads', 10_000);
    await wb.screenshot('start-work-4-dropped-one');
    await wb.page.keyboard.press('Escape');
    await dragOntoLine(wb.treeItem(VIEW.files, exactly(second)), editorLine(/^\s*in_reads:/));
    await waitFor(async () => (await wb.activeEditorText()).includes(`- ${reads[1].id}  # ${second}`), 'the second file dropped into in_reads', 10_000);
    await wb.page.keyboard.press('Escape');
    const lines = await editorLines();
    const at = lines.findIndex((l) => /^\s*in_reads:/.test(l));
    assert.deepStrictEqual(lines.slice(at + 1, at + 3).map((l) => l.trim()), [`- ${reads[0].id}  # ${first}`, `- ${reads[1].id}  # ${second}`], 'both in the list, in the order dropped');
    await wb.screenshot('start-work-5-dropped-two');

    // 5. Run Task, the link at the top of the document.
    await wb.page.locator('.part.editor .codelens-decoration a', { hasText: /Run Task/ }).first().click();
    const task = await waitFor(() => emulator.data.tasks.find((t) => t.name === name), 'the task made on the platform', 30_000);
    assert.strictEqual(emulator.data.tasks.filter((t) => t.name === name).length, 1, 'made once');
    assert.strictEqual(task.project, PROJECT);
    assert.deepStrictEqual(task.inputs.in_reads, reads.map((f) => ({ class: 'File', path: f.id })));
    assert.deepStrictEqual(task.inputs.contaminants, { class: 'File', path: contaminants.id });
    await wb.waitForStatusBarText(`"${name}" is queued to run. You will be told when it ends.`, 15_000);
    // The document still describes a run, to make again: no `draft:` line names the task (only a draft is named).
    assert.ok(!(await editorLines()).some((l) => /^draft:/.test(l)), (await editorLines()).join('\n'));

    // 6. Under Running once the platform runs it (a refresh of the view shows it there, the newest first).
    await waitFor(
      () => {
        emulator.advance();
        return emulator.data.taskById.get(task.id)?.status === 'RUNNING';
      },
      'the platform to run the task',
      30_000,
      250,
    );
    await wb.collapsePane(VIEW.files);
    await wb.expandPane(VIEW.tasks);
    await wb.runCommand(COMMAND.refreshTasks);
    await openTaskGroup('Running');
    await wb.waitForTreeItems(VIEW.tasks, exactly(name), 20_000);
    const rows = await wb.treeItems(VIEW.tasks);
    const running = rows.findIndex((r) => r.level === 1 && r.label === 'Running');
    assert.strictEqual(rows[running + 1].label, name, 'the newest of Running');
    await wb.screenshot('start-work-6-running');

    // 7. Told when it ends.
    const told = await wb.waitForNotification(new RegExp(`^Task "${escape(name)}" completed`), 120_000);
    await wb.screenshot('start-work-7-told');
    assert.strictEqual(emulator.data.taskById.get(task.id)?.status, 'COMPLETED', told);
    await wb.clearNotifications();
    await wb.runCommand('View: Revert and Close Editor');
  });

  it('a sample sheet of 12 rows and a task document as the template make 12 tasks, shown as one set', async () => {
    const { wb, emulator, server } = e2e();
    const reads = topFiles().filter((f) => f.name.endsWith('.fastq.gz')).slice(0, 12);
    assert.strictEqual(reads.length, 12, 'twelve FASTQ files at the top of the project');
    const revision = emulator.data.apps.get(PUBLIC_APP)!.revisions.length - 1;
    const template = path.join(server.workspace, 'qc.sbtask.yaml');
    const sheet = path.join(server.workspace, 'samples.csv');
    fs.writeFileSync(template, [`app: ${PUBLIC_APP}/${revision}`, `project: ${PROJECT}`, 'name: QC', 'inputs:', '  nogroup: true', ''].join('\n'));
    fs.writeFileSync(sheet, ['name,in_reads', ...reads.map((f, i) => `QC of sample ${i + 1},${f.name}`), ''].join('\n'));
    const before = new Set(emulator.data.tasks.map((t) => t.id));

    // The template opened (Go to File…), then Run for Each Row… from the palette: the sheet asked, its path typed.
    await wb.runCommand('Go to File...');
    await wb.typeInQuickInput('qc.sbtask.yaml');
    await wb.pickQuickItem('qc.sbtask.yaml');
    await waitFor(async () => (await wb.activeEditorText()).includes(`app: ${PUBLIC_APP}/${revision}`), 'the template open', 15_000);
    await wb.runCommand('Seven Bridges: Run for Each Row…');
    await wb.waitForQuickInput('Run for Each Row', 15_000);
    await wb.chooseInFileDialog(sheet, server.workspace);

    // The preview says 12; the question too; Make 12 tasks.
    const preview = wb.page.locator('.part.editor .monaco-editor .view-lines', { hasText: 'to make' }).first();
    await preview.waitFor({ timeout: 30_000 });
    // (The preview wraps its lines to the editor's width.)
    assert.match((await preview.innerText()).replace(/\s+/g, ' '), /App .+ in rfranklin\/my-project: 12 tasks to make, 0 with problems\./);
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    await wb.screenshot('start-work-8-sheet-preview');
    const question = (await dialog.locator('.dialog-message-text').innerText()).trim();
    assert.match(question, /12/, question);
    await dialog.locator('.monaco-button', { hasText: /^Make 12 tasks$/ }).click();

    // Made once each, run; the Tasks view shows just them.
    await waitFor(() => emulator.data.tasks.filter((t) => !before.has(t.id)).length >= 12, 'the 12 tasks made', 60_000);
    const sheetTasks = emulator.data.tasks.filter((t) => !before.has(t.id));
    made.push(...sheetTasks.map((t) => t.id));
    assert.strictEqual(sheetTasks.length, 12, 'each row once');
    assert.deepStrictEqual(sheetTasks.map((t) => t.name).sort(), reads.map((_f, i) => `QC of sample ${i + 1}`).sort());
    await wb.collapsePane(VIEW.files);
    await wb.expandPane(VIEW.tasks);
    const description = wb.pane(VIEW.tasks).locator('.pane-header .description');
    await waitFor(async () => (await description.innerText().catch(() => '')).includes('sheet samples.csv, 12 tasks'), 'the Tasks view\'s filter: the sheet\'s set', 20_000);
    await wb.clickViewAction(VIEW.tasks, 'Collapse All').catch(() => undefined);
    const counted = await waitFor(async () => {
      const groups = (await wb.treeItems(VIEW.tasks)).filter((r) => r.level === 1);
      const total = groups.reduce((sum, g) => sum + (Number(g.description) || 0), 0);
      return total === 12 ? groups : undefined;
    }, 'the groups to count 12 tasks', 20_000);
    await wb.screenshot('start-work-9-sheet-set');
    console.log(`      sheet set: ${counted.map((g) => `${g.label} ${g.description}`).join(', ')}`);
    fs.rmSync(template, { force: true });
    fs.rmSync(sheet, { force: true });
  });
});
