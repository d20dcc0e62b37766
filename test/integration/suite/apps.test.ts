/**
 * Apps' CWL between the platform and the repository, in a real VS Code against the emulator (issue 40): Pull App…
 * writes a revision as YAML with its `sbg:revision`; a default changed in the file and Push App Revision… makes the
 * next revision (one POST) with just that change; the same file pushed again sends nothing; invalid CWL comes back
 * as a diagnostic on the line it names; App Revisions… opens one revision read-only.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import { activateProduct, closeAllEditors, emulator, waitFor } from '../helpers';

const APP = 'rfranklin/my-project/align-and-sort';

describe('apps: pull, push, revisions', function () {
  this.timeout(90_000);
  let dir: string;
  let api: Awaited<ReturnType<typeof activateProduct>>;
  const revisions = (id = APP) => emulator().data.apps.get(id)?.revisions ?? [];
  const posts = (id = APP) => emulator().writes.filter((w) => w.method === 'POST' && w.path.startsWith(`/apps/${id}/`)).length;

  before(async () => {
    api = await activateProduct();
    await waitFor(() => api.services.session.state === 'signedIn', 'the product to be signed in to the emulator', 20_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-apps-'));
  });
  after(async () => {
    // What this suite typed is reverted, and its editors closed before their files are deleted: a file deleted under
    // an open editor (or one left dirty) makes the next suite's Close All wait on a Save dialog.
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await closeAllEditors();
    // The push the platform refused waits for the person in the outbox: discarded, as a person would, so that the
    // suites after this one find the outbox as they left it.
    for (const group of new Set(api.services.outbox.all().filter((r) => r.kind.startsWith('app.')).map((r) => r.group))) await api.services.outbox.discard(group);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('pulls the latest revision as YAML; a default changed and pushed makes the next revision with just that change; pushed again, nothing is sent', async () => {
    const file = path.join(dir, 'count-matches.cwl');
    const latest = revisions().length - 1;
    const pulled = (await vscode.commands.executeCommand('sevenbridges.apps.pull', APP, { revision: latest, format: 'yaml', target: file })) as vscode.Uri;
    assert.strictEqual(pulled.fsPath, file);
    const text = fs.readFileSync(file, 'utf8');
    const doc = parse(text) as { 'sbg:revision': number; 'sbg:id': string; inputs: { id: string; default?: unknown }[] };
    assert.deepStrictEqual([doc['sbg:revision'], doc['sbg:id']], [latest, `${APP}/${latest}`]);
    const input = doc.inputs.find((i) => i.default !== undefined && typeof i.default === 'number');
    assert.ok(input, 'an input with a number default');

    // The person changes that default in the editor Pull App… opened: the first `default:` line after the input's id.
    const document = await vscode.workspace.openTextDocument(pulled);
    const lines = document.getText().split('\n');
    const at = lines.findIndex((l, i) => i > lines.indexOf(`  - id: ${input.id}`) && /^\s+default: /.test(l));
    const edit = new vscode.WorkspaceEdit();
    const column = lines[at].indexOf('default: ') + 'default: '.length;
    edit.replace(pulled, new vscode.Range(at, column, at, lines[at].length), String((input.default as number) + 5));
    assert.ok(await vscode.workspace.applyEdit(edit));
    const before = posts();
    const outcome = (await vscode.commands.executeCommand('sevenbridges.apps.push', vscode.Uri.file(file), { confirm: false })) as { revision: number; id: string };
    assert.deepStrictEqual([outcome.revision, outcome.id], [latest + 1, `${APP}/${latest + 1}`]);
    assert.strictEqual(posts() - before, 1, 'one POST');
    const made = revisions()[latest + 1].content as { inputs: { id: string; default?: unknown }[] } & Record<string, unknown>;
    const was = revisions()[latest].content as { inputs: { id: string; default?: unknown }[] } & Record<string, unknown>;
    assert.deepStrictEqual(made.inputs.find((i) => i.id === input.id)!.default, (input.default as number) + 5);
    const rest = (c: Record<string, unknown>) => Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'inputs' && k !== 'sbg:revisionNotes'));
    assert.deepStrictEqual(rest(made), rest(was), 'nothing else changed');
    assert.deepStrictEqual(made.inputs.map((i) => (i.id === input.id ? { ...i, default: input.default } : i)), was.inputs, 'no other input changed');

    const again = await vscode.commands.executeCommand('sevenbridges.apps.push', vscode.Uri.file(file), { confirm: false });
    assert.strictEqual(again, undefined);
    assert.strictEqual(posts() - before, 1, 'nothing sent for the same document');
  });

  it('invalid CWL: refused, the platform\'s words on the line of the input they name; nothing made', async () => {
    const file = path.join(dir, 'bad-tool.cwl');
    fs.writeFileSync(file, 'cwlVersion: v1.0\nclass: CommandLineTool\nbaseCommand: echo\ninputs:\n  - id: words\n  - id: loud\n    type: boolean\noutputs: []\n');
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('sevenbridges.apps.push', uri, { confirm: false, app: 'rfranklin/my-project/int-bad-tool' });
    const problems = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(uri);
      return found.length ? found : undefined;
    }, 'the refusal as a diagnostic');
    assert.deepStrictEqual(problems.map((d) => [d.range.start.line, d.message.includes("Input 'words' has no 'type'.")]), [[4, true]]);
    assert.strictEqual(revisions('rfranklin/my-project/int-bad-tool').length, 0);
  });

  it('App Revisions… opens a revision read-only, as the platform serves it', async () => {
    await vscode.commands.executeCommand('sevenbridges.apps.revisions', APP, { revisions: [0] });
    const editor = await waitFor(() => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'sevenbridges-app' ? e : undefined;
    }, 'the revision open');
    assert.strictEqual(editor.document.uri.path, `/${APP}/0.cwl`);
    assert.match(editor.document.getText(), /^sbg:revision: 0$/m);
  });
});
