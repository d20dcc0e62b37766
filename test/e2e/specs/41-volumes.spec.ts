/**
 * Cloud buckets as a person uses them (#41), each step seen on screen. The Volumes view (hidden until asked for) opened
 * with View: Open View…; the read-only volume browsed down to a prefix of 30 objects; Import… on that prefix into a
 * folder of a project that Projects & Files shows open, the questions answered (Back from the folders to the projects
 * once); the job followed in Data Jobs to its end; the prefix then a folder of 30 files in Projects & Files, without
 * Refresh. Then Export… of two result files to the read-write volume, at a location typed, copy only: both jobs end in
 * Data Jobs and the volume's listing, open before, shows the two objects there. A screenshot at each step.
 */
import * as assert from 'assert';
import { waitFor } from '../../support/waitFor';
import { e2e, ensureSignedIn, VIEW } from '../fixture';
import { escape, type TreeItem } from '../workbench';

const VOLUMES = VIEW.volumes;
/** A row whose label is this name, whole (`lane1` is the start of no other, but `results` is). */
const exactly = (name: string): RegExp => new RegExp(`^\\s*${escape(name)}\\s*$`);

describe('volumes: browse, import a prefix, export results', function () {
  this.timeout(180_000);

  /**
   * A writable project the other specs leave alone (the copy, files, manage and walkthrough specs use the first three),
   * the folder the import goes into (the first of its top level: its row right under the project) and the folder of
   * results two files are exported from.
   */
  const place = () => {
    const data = e2e().emulator.data;
    const project = data.projects.find((p) => p.id === 'mwilkins/shared-cohort')!;
    const folders = data.children(project.root_folder).filter((f) => f.type === 'folder');
    const into = folders[0];
    const results = folders.find((f) => f.name === 'results')!;
    return { data, project, into, results, resultFiles: data.children(results.id).filter((f) => f.type === 'file').slice(0, 2) };
  };
  const location = `results/cohort-${Date.now().toString(36)}/`;

  before(async () => {
    const { wb } = e2e();
    await wb.openViewContainer('Seven Bridges');
    await ensureSignedIn();
  });

  after(async () => {
    const { wb } = e2e();
    if (await wb.quickInput().isVisible().catch(() => false)) await wb.page.keyboard.press('Escape');
    await wb.clearNotifications();
    // The Volumes view hidden again (the other specs need their rows on screen), the panes as they were.
    if ((await wb.pane(VOLUMES).count()) > 0) {
      await wb.pane(VOLUMES).locator('.pane-header').click({ button: 'right' });
      await wb.clickContextMenuEntry('Hide');
      await wb.pane(VOLUMES).waitFor({ state: 'detached' });
    }
    await wb.collapsePane(VIEW.jobs).catch(() => undefined);
    await wb.resetViews().catch(() => undefined);
  });

  /** Folds every pane of the side bar but these (in the order given, each opened). */
  async function onlyPanes(...open: string[]): Promise<void> {
    const { wb } = e2e();
    for (const view of [VIEW.tasks, VIEW.files, VIEW.jobs, VOLUMES]) if (!open.includes(view) && (await wb.pane(view).count()) > 0) await wb.setPaneOpen(view, false);
    for (const view of open) await wb.setPaneOpen(view, true);
  }

  /** The Volumes view, hidden until asked for, opened as a person does: View: Open View…, its name typed; then alone. */
  async function showVolumes(): Promise<void> {
    const { wb } = e2e();
    if ((await wb.pane(VOLUMES).count()) === 0) {
      await wb.page.locator('.monaco-workbench').focus().catch(() => undefined);
      await wb.page.keyboard.press('F1');
      await wb.typeInQuickInput('>View: Open View');
      await wb.pickQuickItem(/^View: Open View(\.\.\.|…)?$/);
      await waitFor(async () => (await wb.quickInputState()).value.startsWith('view '), 'the list of views', 10_000);
      await wb.typeInQuickInput(`view ${VOLUMES}`);
      await wb.pickQuickItem(exactly(VOLUMES));
      await wb.waitForQuickInputClosed();
      await wb.pane(VOLUMES).waitFor();
    }
    await onlyPanes(VOLUMES);
  }

  /** The rows right under the row `parent` (its children, as rendered now). */
  function childrenOf(rows: TreeItem[], parent: string): TreeItem[] {
    const at = rows.findIndex((r) => r.label === parent);
    if (at < 0) return [];
    const under: TreeItem[] = [];
    for (const r of rows.slice(at + 1)) {
      if (r.level <= rows[at].level) break;
      if (r.level === rows[at].level + 1) under.push(r);
    }
    return under;
  }

  it('opens the Volumes view, browses a prefix of 30 objects and imports it into a folder: the 30 files shown there', async () => {
    const { wb, emulator } = e2e();
    const { data, project, into } = place();
    const lane1 = [...emulator.data.volumeObjects.get('rfranklin/sequencing_runs')!.keys()].filter((l) => l.startsWith('runs/2026-11-02/lane1/')).sort();
    assert.strictEqual(lane1.length, 30, 'the emulator seeds 30 objects under runs/2026-11-02/lane1/');
    const names = lane1.map((l) => l.slice('runs/2026-11-02/lane1/'.length));

    // Projects & Files open at the folder the import goes into, as a person has it while choosing where.
    await onlyPanes(VIEW.files);
    await wb.collapseAll(VIEW.files);
    await wb.openTreeItem(VIEW.files, project.name, exactly(into.name), 20_000);
    await wb.expandTreeItem(VIEW.files, exactly(into.name));
    await waitFor(async () => childrenOf(await wb.treeItems(VIEW.files), into.name).length > 0, `the rows of ${into.name}`, 20_000);
    assert.ok(!childrenOf(await wb.treeItems(VIEW.files), into.name).some((r) => r.label === 'lane1'), 'no lane1 folder there before');

    // 1. The Volumes view, hidden, opened by name: View: Open View…, "Volumes" typed.
    assert.strictEqual(await wb.pane(VOLUMES).count(), 0, 'the Volumes view is hidden at first');
    await showVolumes();
    const volumes = await wb.waitForTreeItems(VOLUMES, 'sequencing_runs', 20_000);
    await wb.screenshot('volumes-1-view-opened');
    assert.deepStrictEqual(volumes.map((r) => [r.label, r.description]), [
      ['analysis_results', 'GCS · franklin-lab-results · read-write'],
      ['old_archive', 'S3 · franklin-lab-archive-2019 · read-write · inactive'],
      ['sequencing_runs', 'S3 · franklin-lab-sequencing · read-only'],
    ]);

    // 2. Browsed down to runs/2026-11-02/lane1/: the prefixes are folders, the objects files with size and age.
    await wb.openTreeItem(VOLUMES, 'sequencing_runs', exactly('runs'));
    const top = childrenOf(await wb.treeItems(VOLUMES), 'sequencing_runs');
    assert.deepStrictEqual(top.map((r) => r.label), ['aligned', 'references', 'runs', 'README.txt', 'samples.tsv']);
    assert.match(top[3].description, /^[\d.,]+ (B|KB) · \d+ months? ago$/, JSON.stringify(top[3]));
    await wb.openTreeItem(VOLUMES, exactly('runs'), '2026-11-02');
    await wb.openTreeItem(VOLUMES, '2026-11-02', exactly('lane1'));
    await wb.expandTreeItem(VOLUMES, exactly('lane1'));
    await wb.waitForTreeItems(VOLUMES, names[0], 20_000);
    const firstObject = childrenOf(await wb.treeItems(VOLUMES), 'lane1')[0];
    await wb.screenshot('volumes-2-prefix-opened');
    assert.strictEqual(firstObject.label, names[0]);
    assert.match(firstObject.description, /^[\d.]+ (MB|GB) · \d+ (days|weeks) ago$/, JSON.stringify(firstObject));
    // 30 rows under lane1, as a screen reader counts them, and the last of them an object (no "Load more").
    assert.strictEqual(firstObject.setSize, 30, JSON.stringify(firstObject));
    await wb.scrollToTreeItem(VOLUMES, exactly(names[29]));
    const last = (await wb.treeItems(VOLUMES)).find((r) => r.label === names[29])!;
    assert.deepStrictEqual([last.position, last.setSize], [30, 30]);

    // 3. Import… on the prefix: the project, the folder (Here), what to do with a name taken, the folders kept.
    // Back up to the top of the view, where lane1's row is (a row scrolled under the pane's title takes no click).
    await wb.scrollToTreeItem(VOLUMES, exactly('analysis_results'));
    await wb.treeItemContextMenu(VOLUMES, exactly('lane1'), 'Import…');
    await wb.waitForQuickInput('Import 1 item into which project?', 20_000);
    await wb.quickItem(project.name).waitFor({ timeout: 20_000 });
    await wb.pickQuickItem(project.name);
    await wb.quickItem(exactly(into.name)).waitFor({ timeout: 20_000 });
    // Back, at the project's root, is the list of projects again (it ended the import): the project chosen again.
    await wb.pickQuickItem(exactly('Back'));
    await wb.waitForQuickInput('Import 1 item into which project?', 20_000);
    await wb.quickItem(project.name).waitFor({ timeout: 20_000 });
    await wb.pickQuickItem(project.name);
    await wb.quickItem(exactly(into.name)).waitFor({ timeout: 20_000 });
    await wb.pickQuickItem(exactly(into.name));
    await waitFor(async () => (await wb.quickInputState()).title.includes(into.name), `the browser in ${into.name}`, 20_000);
    await wb.screenshot('volumes-3-import-where');
    await wb.pickQuickItem('Here');
    await wb.waitForQuickInput(/^Import 1 item$/);
    await wb.quickItem('Keep both').waitFor();
    assert.strictEqual((await wb.quickInputState()).placeholder, 'When a name is taken in the destination');
    assert.deepStrictEqual((await wb.quickItems()).map((i) => i.label), ['Keep both', 'Overwrite', 'Skip it']);
    await wb.screenshot('volumes-4-import-name-taken');
    await wb.pickQuickItem('Keep both');
    await waitFor(async () => (await wb.quickInputState()).placeholder === 'The folders on the volume', 'the question about folders', 10_000);
    assert.deepStrictEqual((await wb.quickItems()).map((i) => i.label), ['Keep the folder structure', 'Only the files']);
    await wb.pickQuickItem('Keep the folder structure');
    await wb.waitForQuickInputClosed();
    const submitted = await wb.waitForNotification(/^Import of 1 item into /, 20_000);
    await wb.screenshot('volumes-5-import-submitted');
    assert.strictEqual(submitted, `Import of 1 item into ${project.id} › ${into.name} submitted: follow it in Data Jobs.`);

    // 4. Followed in Data Jobs (the notification's button) to its end.
    await wb.clickNotificationButton(/^Import of 1 item/, 'Show Data Jobs');
    await onlyPanes(VIEW.jobs);
    const done = await waitFor(async () => (await wb.treeItems(VIEW.jobs)).find((r) => /^Import · finished/.test(r.label)), 'the import job finished in Data Jobs', 30_000);
    await wb.screenshot('volumes-6-import-finished');
    assert.strictEqual(done.label, 'Import · finished · 1/1 item', JSON.stringify(done));
    assert.match(done.description, new RegExp(`^${escape(into.name)} · `), JSON.stringify(done));

    // 5. In Projects & Files, the folder open since before shows lane1, which holds the 30 files.
    await onlyPanes(VIEW.files);
    const made = await waitFor(() => data.children(into.id).find((f) => f.type === 'folder' && f.name === 'lane1'), 'lane1 made on the platform', 10_000);
    await wb.waitForTreeItems(VIEW.files, exactly('lane1'), 20_000);
    await wb.expandTreeItem(VIEW.files, exactly('lane1'));
    await wb.waitForTreeItems(VIEW.files, names[0], 20_000);
    await wb.page.mouse.move(900, 300);
    await wb.screenshot('volumes-7-imported-in-projects');
    const imported = childrenOf(await wb.treeItems(VIEW.files), 'lane1');
    assert.deepStrictEqual([imported[0].label, imported[0].setSize], [names[0], 30], JSON.stringify(imported[0]));
    await wb.scrollToTreeItem(VIEW.files, exactly(names[29]));
    const lastFile = (await wb.treeItems(VIEW.files)).find((r) => r.label === names[29])!;
    assert.deepStrictEqual([lastFile.position, lastFile.setSize], [30, 30]);
    assert.deepStrictEqual(data.children(made.id).map((f) => f.name).sort(), names, 'the 30 files, each once');
  });

  it('exports two result files to the read-write volume: both jobs end and the volume shows the two objects where chosen', async () => {
    const { wb, emulator } = e2e();
    const { project, results, resultFiles } = place();
    const [first, second] = resultFiles.map((f) => f.name);

    // The read-write volume's top level looked at first, as a person does before choosing where.
    await showVolumes();
    await wb.clickViewAction(VOLUMES, 'Collapse All').catch(() => undefined);
    await wb.openTreeItem(VOLUMES, 'analysis_results', exactly('qc'), 20_000);
    assert.ok(!childrenOf(await wb.treeItems(VOLUMES), 'analysis_results').some((r) => r.label === 'results'), 'no results/ on the volume before');

    // 1. Two files of results selected with Ctrl-click in Projects & Files, Export… on their menu.
    await onlyPanes(VIEW.files);
    await wb.collapseAll(VIEW.files);
    await wb.openTreeItem(VIEW.files, project.name, exactly(results.name), 20_000);
    await wb.scrollToTreeItem(VIEW.files, exactly(results.name));
    await wb.expandTreeItem(VIEW.files, exactly(results.name));
    await wb.waitForTreeItems(VIEW.files, exactly(second), 20_000);
    await wb.clickTreeItem(VIEW.files, exactly(first));
    await wb.clickTreeItem(VIEW.files, exactly(second), ['Control']);
    await waitFor(async () => (await wb.treeItems(VIEW.files)).filter((r) => r.selected && (r.label === first || r.label === second)).length === 2, 'both files selected', 10_000);
    await wb.treeItemContextMenu(VIEW.files, exactly(second), 'Export…');

    // 2. The volume (the read-only ones say why they cannot take it), the location typed, copy only.
    await wb.waitForQuickInput('Export 2 files to which volume?', 20_000);
    const offered = await wb.quickItems();
    await wb.screenshot('volumes-8-export-which-volume');
    assert.deepStrictEqual(offered.map((i) => i.label), ['analysis_results', 'old_archive', 'sequencing_runs'], JSON.stringify(offered));
    await wb.pickQuickItem('analysis_results');
    await wb.waitForQuickInput('Export 2 files to analysis_results');
    assert.strictEqual((await wb.quickInputState()).value, 'exports/');
    await wb.typeInQuickInput(location);
    await wb.screenshot('volumes-9-export-where');
    await wb.typeInQuickInput(location, { submit: true });
    await wb.waitForQuickInput('Export: copy, or move to the bucket?');
    await wb.quickItem('Copy only').waitFor();
    await wb.pickQuickItem('Copy only');
    await wb.waitForQuickInputClosed();
    const submitted = await wb.waitForNotification(/^Export of 2 files /, 20_000);
    assert.strictEqual(submitted, 'Export of 2 files to rfranklin/analysis_results submitted: follow it in Data Jobs.');

    // 3. Both jobs followed to their end in Data Jobs.
    await wb.clickNotificationButton(/^Export of 2 files/, 'Show Data Jobs');
    await onlyPanes(VIEW.jobs);
    const exports = await waitFor(async () => {
      const rows = (await wb.treeItems(VIEW.jobs)).filter((r) => r.label.startsWith('Export · '));
      return rows.length === 2 && rows.every((r) => r.label === 'Export · finished · 1/1 item') ? rows : undefined;
    }, 'the two export jobs finished in Data Jobs', 30_000);
    await wb.screenshot('volumes-10-export-finished');
    assert.deepStrictEqual(exports.map((r) => r.description.split(' · ')[0]).sort(), [first, second].sort(), JSON.stringify(exports));

    // 4. The volume's listing, open since before, shows results/ and under it the two objects.
    await onlyPanes(VOLUMES);
    await wb.openTreeItem(VOLUMES, exactly('results'), exactly(location.split('/')[1]), 20_000);
    await wb.expandTreeItem(VOLUMES, exactly(location.split('/')[1]));
    await wb.waitForTreeItems(VOLUMES, exactly(second), 20_000);
    await wb.page.mouse.move(900, 300);
    await wb.screenshot('volumes-11-exported-on-volume');
    const objects = childrenOf(await wb.treeItems(VOLUMES), location.split('/')[1]);
    assert.deepStrictEqual(objects.map((r) => r.label).sort(), [first, second].sort());
    const onVolume = emulator.data.volumeObjects.get('rfranklin/analysis_results')!;
    for (const f of resultFiles) assert.strictEqual(onVolume.get(`${location}${f.name}`)?.size, f.size, `${f.name} on the volume at ${location}`);
  });
});
