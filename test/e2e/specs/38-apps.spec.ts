/**
 * An app's CWL pulled, edited and pushed as a person does it (#40), each step seen on screen: Pull App… from the
 * palette (the project, the app, its latest revision, YAML, the file offered in the workspace), the file open in the
 * editor; a default changed by typing; Push App Revision… from the palette: the diff against the platform's latest
 * revision shows that one line changed and no other, Push in the question; the status bar says the new revision,
 * one more than the latest, and the platform has it with the new default; New Task with This Revision, its inputs
 * given, Run Task: a task of that revision runs. A screenshot at each step.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { e2e, ensureSignedIn } from '../fixture';

const APP = 'rfranklin/my-project/align-and-sort';

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    await e2e().wb.page.waitForTimeout(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

describe('apps: pull, edit and push CWL', function () {
  this.timeout(180_000);

  after(async () => {
    const { wb } = e2e();
    if (await wb.quickInput().isVisible().catch(() => false)) await wb.page.keyboard.press('Escape');
    await wb.clearNotifications();
    await wb.runCommand('View: Close All Editors').catch(() => undefined);
  });

  it('pulls an app as YAML, changes a default, pushes: the diff shows just that line, the revision goes up by one', async () => {
    const { wb, emulator, server } = e2e();
    const app = emulator.data.apps.get(APP)!;
    const project = emulator.data.projectById.get(app.project)!;
    const latest = app.revisions.length - 1;
    const file = path.join(server.workspace, 'align-and-sort.cwl');

    await wb.openViewContainer('Seven Bridges');
    await ensureSignedIn();

    // 1. Pull App…: the project, the app, its latest revision, YAML; the file offered in the workspace, accepted.
    await wb.runCommand('Seven Bridges: Pull App…');
    await wb.waitForQuickInput('Pull App');
    await wb.pickQuickItem(project.name);
    await until('the project\'s apps', async () => (await wb.quickItems()).some((i) => i.description === 'align-and-sort') || undefined);
    const label = app.revisions[latest].content.label;
    await wb.pickQuickItem(typeof label === 'string' ? label : app.short, true);
    await wb.screenshot('apps-1-pull-revisions');
    await until('the revisions', async () => (await wb.quickItems()).some((i) => /\(latest\)/.test(i.label)) || undefined);
    const revisions = await wb.quickItems();
    assert.strictEqual(revisions[0].label, `Revision ${latest} (latest)`, JSON.stringify(revisions));
    await wb.pickQuickItem(`Revision ${latest} (latest)`, true);
    await until('the format', async () => (await wb.quickItems()).some((i) => i.label === 'YAML') || undefined);
    await wb.pickQuickItem('YAML', true);
    await until('the file offered', async () => ((await wb.quickInputState()).value.endsWith('align-and-sort.cwl') ? true : undefined));
    await wb.acceptQuickInput();
    await until('the pulled file open', async () => (fs.existsSync(file) && (await wb.activeEditorText()).includes('class: Workflow') ? true : undefined), 20_000);
    const pulled = fs.readFileSync(file, 'utf8');
    assert.match(pulled, new RegExp(`^sbg:revision: ${latest}$`, 'm'));
    await wb.screenshot('apps-2-pulled');

    // 2. The person changes the default of "threads" (its line found in the file, reached with Go to Line).
    const lines = pulled.split('\n');
    const threadsAt = lines.indexOf('  - id: threads');
    const defaultAt = lines.findIndex((l, i) => i > threadsAt && /^\s+default: \d+$/.test(l));
    const before = Number(/default: (\d+)/.exec(lines[defaultAt])![1]);
    await wb.page.keyboard.press('Control+G');
    await wb.waitForQuickInput();
    await wb.typeInQuickInput(`:${defaultAt + 1}`, { submit: true });
    await wb.page.keyboard.press('End');
    for (let i = 0; i < String(before).length; i++) await wb.page.keyboard.press('Backspace');
    await wb.page.keyboard.type(String(before + 8));
    await wb.page.keyboard.press('Control+S');
    await until('the file saved', () => (fs.readFileSync(file, 'utf8').includes(`default: ${before + 8}`) ? true : undefined));

    // 3. Push App Revision…: the diff of just that line, then Push.
    await wb.runCommand('Seven Bridges: Push App Revision…');
    const question = await wb.waitForNotification(new RegExp(`Push align-and-sort\\.cwl as revision ${latest + 1} of ${APP}\\?`), 30_000);
    const diff = wb.page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ timeout: 10_000 });
    // The diff is computed in the editor's worker after both sides are open, and drawn after that: read it until drawn.
    const shown = async () => ({
      inserted: await diff.locator('.editor.modified .view-overlays .line-insert, .editor.modified .view-overlays .char-insert').count(),
      removed: await diff.locator('.editor.original .view-overlays .line-delete, .editor.original .view-overlays .char-delete').count(),
      changedLines: await diff.locator('.editor.modified .view-overlays > div:has(.line-insert)').count(),
      modifiedText: (await diff.locator('.editor.modified .view-lines').innerText()).replace(/\u00a0/g, ' '),
    });
    const drawn = await until('the diff drawn', async () => {
      const now = await shown();
      return now.inserted >= 1 && now.removed >= 1 && now.modifiedText.includes(`default: ${before + 8}`) ? now : undefined;
    }).catch(async (e: Error) => assert.fail(`${e.message}: ${JSON.stringify(await shown())}`));
    await wb.screenshot('apps-3-diff');
    assert.strictEqual(drawn.changedLines, 1, 'one line changed');
    assert.ok(question.includes('The diff shows what changes.'), question);
    await wb.clickNotificationButton(/Push align-and-sort\.cwl as revision/, 'Push');

    // 4. The new revision: one more than the latest, with the new default.
    const pushed = new RegExp(`Pushed align-and-sort\\.cwl as revision ${latest + 1} of ${APP}`);
    await wb.waitForNotification(pushed, 30_000);
    assert.strictEqual(app.revisions.length, latest + 2);
    const made = app.revisions[latest + 1].content as { inputs: { id: string; default?: unknown }[] };
    assert.strictEqual(made.inputs.find((i) => i.id === 'threads')!.default, before + 8);
    await wb.screenshot('apps-4-pushed');

    // 5. Run this revision: the notification's button opens a task document of the new revision.
    await wb.clickNotificationButton(pushed, 'New Task with This Revision');
    await until('the task document of the new revision', async () => ((await wb.activeEditorText()).includes(`app: ${APP}/${latest + 1}`) ? true : undefined), 30_000);
    assert.match(await wb.activeEditorText(), new RegExp(`project: ${project.id}`), 'a task document: the app\'s project to run in');
    await wb.screenshot('apps-5-new-task');

    // 6. Its two required inputs given by ID on their commented lines (reached with Go to Line), then Run Task: a task
    // of the revision just pushed, made once, runs on the platform.
    const reads = emulator.data.files.find((f) => f.project === project.id && /\.fastq(\.gz)?$/.test(f.name))!;
    // A reference with its index beside it, at the project's top level (the seeded project holds none).
    const at = new Date().toISOString().slice(0, 19) + 'Z';
    const [reference] = ['e2e-GRCh38.fa', 'e2e-GRCh38.fa.fai'].map((name) =>
      emulator.data.addFile({ id: emulator.data.newFileId(), name, size: 1_000, project: project.id, parent: project.root_folder, type: 'file', created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} }),
    );
    assert.ok(reads, 'a FASTQ in the app\'s project');
    const setLine = async (pattern: RegExp, value: string) => {
      const line = (await wb.activeEditorText()).split('\n').findIndex((l) => pattern.test(l));
      assert.ok(line >= 0, `a line ${pattern}`);
      await wb.page.keyboard.press('Control+G');
      await wb.waitForQuickInput();
      await wb.typeInQuickInput(`:${line + 1}`, { submit: true });
      await wb.page.keyboard.press('Home');
      await wb.page.keyboard.press('Shift+End');
      await wb.page.keyboard.type(value);
      await wb.page.keyboard.press('Escape');
    };
    const tasksBefore = new Set(emulator.data.tasks.map((t) => t.id));
    await setLine(/^\s*# reads:/, `reads: [${reads.id}]`);
    await setLine(/^\s*# reference:/, `reference: ${reference.id}`);
    await until('the inputs in the document', async () => ((await wb.activeEditorText()).includes(`  reference: ${reference.id}`) ? true : undefined));
    await wb.page.locator('.part.editor .codelens-decoration a', { hasText: /Run Task/ }).first().click();
    const task = await until('the task made on the platform', () => emulator.data.tasks.find((t) => !tasksBefore.has(t.id)), 30_000);
    assert.strictEqual(emulator.data.tasks.filter((t) => !tasksBefore.has(t.id)).length, 1, 'made once');
    assert.strictEqual(task.app, `${APP}/${latest + 1}`, 'of the revision just pushed');
    assert.deepStrictEqual([task.inputs.reads, task.inputs.reference], [[{ class: 'File', path: reads.id }], { class: 'File', path: reference.id }]);
    await wb.waitForStatusBarText(`"${task.name}" is queued to run. You will be told when it ends.`, 15_000);
    await until('the platform to run it', () => {
      emulator.advance();
      return emulator.data.taskById.get(task.id)?.status === 'RUNNING' || undefined;
    }, 30_000);
    await wb.screenshot('apps-6-task-runs');
    // An untitled document left dirty would hold Close All Editors on a Save dialog.
    await wb.runCommand('View: Revert and Close Editor');
  });
});
