/**
 * Apps browsed and opened (issue 39) in a real VS Code against the emulator: Browse Apps… picks an app and opens its
 * page (inputs, outputs, revisions); from the page, Show App CWL opens the revision's CWL and New Task… its task
 * document; Run App on These Files… opens the document with the files picked placed into the inputs they fit.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import { activateProduct, closeAllEditors, emulator, waitFor } from '../helpers';

const PROJECT = 'rfranklin/my-project';
const APP = `${PROJECT}/variant-filter`;
const ACCEPT = 'workbench.action.acceptSelectedQuickOpenItem';

describe('apps browsed: an app\'s page, its CWL, New Task… from it, Run App on These Files…', function () {
  this.timeout(90_000);

  before(async () => {
    const api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
  });
  after(async () => {
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await closeAllEditors();
  });

  const active = () => vscode.window.activeTextEditor?.document;

  it('Browse Apps… opens the app picked as its page: what it is, its inputs, outputs and revisions', async () => {
    const latest = emulator().data.apps.get(APP)!.revisions.length - 1;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('sevenbridges.apps.browse', APP);
    assert.strictEqual(uri.toString(), active()?.uri.toString(), 'the page is the active editor');
    const text = active()!.getText();
    assert.match(text, /^# Variant Filter$/m);
    assert.ok(text.includes(`\`${APP}\` · revision ${latest} · project ${PROJECT}`), text.slice(0, 300));
    assert.match(text, /^Toolkit: vfilter 1\.\d+ · CommandLineTool, CWL v1\.0$/m);
    assert.match(text, /^\| `input_bam` \| Aligned reads \| `File` \| required \| {2}\| BAM \|$/m);
    assert.match(text, /^\| `min_quality` \| Minimum quality \| `int` \| optional \| `30` \| {2}\|$/m);
    assert.match(text, /^\| `filtered_vcf` \| Filtered variants \| `File` \| VCF\.GZ \|$/m);
    assert.match(text, new RegExp(`^\\| \\*\\*${latest}\\*\\* \\| rfranklin \\| .+ UTC \\| Adds a read filter \\\\\\(a record\\\\\\)\\. \\|$`, 'm'), 'the revision shown in bold, its notes escaped');
    assert.ok(text.indexOf(`| **${latest}** |`) < text.indexOf('| 0 |'), 'newest first');

    // From the page: its CWL, read-only, as the platform serves that revision.
    const cwl = await vscode.commands.executeCommand<vscode.Uri>('sevenbridges.apps.showCwl', uri);
    assert.strictEqual(active()?.uri.toString(), cwl.toString());
    assert.strictEqual(parse(active()!.getText())['sbg:id'], `${APP}/${latest}`);
  });

  it('the pick lists your apps and the public ones; the one accepted opens as its page', async () => {
    const opening = vscode.commands.executeCommand<vscode.Uri | undefined>('sevenbridges.apps.browse');
    let uri: vscode.Uri | undefined;
    void opening.then((u) => (uri = u));
    await waitFor(async () => {
      if (uri) return true;
      await vscode.commands.executeCommand(ACCEPT);
      return !!uri;
    }, 'an app accepted and its page opened', 30_000);
    const projects = new Set(emulator().data.projects.map((p) => p.id));
    const mine = [...emulator().data.apps.values()].filter((a) => projects.has(a.project)).map((a) => a.id);
    const shown = uri!.path.split('/').slice(1, 4).join('/');
    assert.ok(mine.includes(shown), `the first of your apps: ${shown}`);
    assert.match(active()!.getText(), /^## Inputs$/m);
  });

  it('New Task… from an app\'s page opens the task document of that revision in the app\'s project', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('sevenbridges.apps.browse', `${APP}/1`);
    await vscode.commands.executeCommand('sevenbridges.tasks.newTask', uri);
    await waitFor(() => active()?.uri.path.endsWith('.sbtask.yaml') === true, 'the task document to open');
    const doc = parse(active()!.getText());
    assert.strictEqual(doc.app, `${APP}/1`);
    assert.strictEqual(doc.project, PROJECT);
  });

  it('New Task… on a public app asks which of your projects runs it (never the public project it is in)', async () => {
    const opening = vscode.commands.executeCommand('sevenbridges.tasks.newTask', 'admin/sbg-public-data/fastqc-0-11-9');
    let opened = false;
    void opening.then(() => (opened = true));
    await waitFor(async () => {
      if (opened) return true;
      await vscode.commands.executeCommand(ACCEPT);
      return opened;
    }, 'a project accepted and the document opened', 30_000);
    await waitFor(() => active()?.uri.path.endsWith('.sbtask.yaml') === true, 'the task document to open');
    const doc = parse(active()!.getText());
    assert.match(doc.app, /^admin\/sbg-public-data\/fastqc-0-11-9\/\d+$/);
    assert.ok(emulator().data.projects.some((p) => p.id === doc.project), `one of your projects: ${doc.project}`);
  });

  it('Run App on These Files… places each file into the input it fits; what fits none is said, not placed', async () => {
    const emu = emulator();
    const files = emu.data.files.filter((f) => f.project === PROJECT);
    const bam = files.find((f) => f.type === 'file' && f.name.endsWith('.bam'))!;
    const vcfs = files.filter((f) => f.type === 'file' && f.name.endsWith('.vcf.gz')).slice(0, 2);
    const folder = files.find((f) => f.type === 'folder' && f.parent !== null)!;
    const tsv = files.find((f) => f.type === 'file' && f.name.endsWith('.tsv'))!;
    assert.ok(bam && vcfs.length === 2 && folder && tsv, 'a BAM, two VCFs, a folder and a TSV in the project');
    const picked = [tsv, vcfs[0], bam, folder, vcfs[1]].map((f) => ({ id: f.id, name: f.name, project: f.project, type: f.type }));
    const ran = await vscode.commands.executeCommand<{ unplaced: { id: string }[] }>('sevenbridges.tasks.runAppOnFiles', picked, { app: APP });
    await waitFor(() => active()?.uri.path.endsWith('.sbtask.yaml') === true, 'the task document to open');
    const text = active()!.getText();
    const doc = parse(text);
    assert.strictEqual(doc.project, PROJECT);
    assert.deepStrictEqual(doc.inputs, { input_bam: bam.id, known_sites: [vcfs[0].id, vcfs[1].id], annotation_dir: folder.id });
    assert.ok(text.includes(`${bam.id}  # ${bam.name}`), 'each file\'s name beside its ID');
    assert.deepStrictEqual(ran.unplaced.map((f) => f.id), [tsv.id], 'the TSV named as fitting no input');
  });
});
