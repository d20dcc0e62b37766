// The localisable strings of src/: the English bundle shipped in l10n/ is the one the code's l10n.t calls export, and
// each call is written so that a translator can translate it once and for all (see README "Localisation").
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { exportL10n } from '../support/l10nExport';
import * as l10n from '@vscode/l10n';
import { ApiError, describeError } from '../../src/api/errors';
import { STATUS_LABELS } from '../../src/tasks/statuses';
import { fileCount } from '../../src/util/words';

const root = path.resolve(__dirname, '..', '..', '..');
const BUNDLE = path.join(root, 'l10n', 'bundle.l10n.json');

interface Call {
  /** file:line, for the messages. */
  where: string;
  /** The bundle's key: the message, then "/" and its translator comments when it has any (as @vscode/l10n-dev writes it). */
  key?: string;
  message?: string;
  /** How many arguments are handed to the placeholders; undefined when they are not a literal list. */
  args?: number;
  named?: boolean;
  /** The call is from @vscode/l10n (a vscode-free module) and runs when its module loads. */
  atLoad: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const literalText = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

/** `l10n.t(…)` and `vscode.l10n.t(…)` calls, read with the TypeScript parser. */
function l10nCalls(file: string): Call[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const usesPackage = /from '@vscode\/l10n'/.test(text);
  const calls: Call[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && /^(vscode\.)?l10n\.t$/.test(node.expression.getText(source))) {
      const where = `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const isVscode = node.expression.getText(source).startsWith('vscode.');
      let parent: ts.Node | undefined = node.parent;
      while (parent && !ts.isFunctionLike(parent)) parent = parent.parent;
      const call: Call = { where, atLoad: usesPackage && !isVscode && parent === undefined };
      const [first, ...rest] = node.arguments;
      const message = literalText(first);
      if (message !== undefined) {
        call.key = call.message = message;
        const named = rest.length === 1 && ts.isObjectLiteralExpression(rest[0]);
        call.named = named;
        call.args = named ? undefined : rest.length;
      } else if (first && ts.isObjectLiteralExpression(first)) {
        const prop = (name: string) =>
          first.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(source) === name)?.initializer;
        call.message = literalText(prop('message'));
        const comment = prop('comment');
        const comments = comment && ts.isArrayLiteralExpression(comment) ? comment.elements.map(literalText) : [literalText(comment)];
        if (call.message !== undefined && comments.every((c) => c !== undefined)) call.key = comment ? `${call.message}/${comments.join('')}` : call.message;
        const args = prop('args');
        call.named = !!args && ts.isObjectLiteralExpression(args);
        call.args = !args ? 0 : ts.isArrayLiteralExpression(args) ? args.elements.length : undefined;
      }
      calls.push(call);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

describe('localisable strings (l10n)', function () {
  this.timeout(60_000);
  const files = sourceFiles(path.join(root, 'src'));
  const calls = files.flatMap(l10nCalls);

  it('finds the calls it checks', () => {
    assert.ok(calls.length > 100, `${calls.length} l10n.t calls in src/`);
  });

  it('every l10n.t message is a literal (the exporter skips any other, which would never be translated)', () => {
    const unreadable = calls.filter((c) => c.key === undefined).map((c) => c.where);
    assert.deepStrictEqual(unreadable, []);
  });

  it('every l10n.t message is unique: one message (with its translator comment) is written in exactly one call; a message needed in two places is one exported function, and the same words with another meaning get a comment', () => {
    const byKey = new Map<string, string[]>();
    for (const c of calls) if (c.key !== undefined) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c.where]);
    const repeated = [...byKey].filter(([, where]) => where.length > 1).map(([key, where]) => `${JSON.stringify(key)} at ${where.join(', ')}`);
    assert.deepStrictEqual(repeated, []);
  });

  it("every positional message's placeholders are {0}…{n-1} for its n arguments", () => {
    const wrong = calls
      .filter((c) => c.message !== undefined && !c.named && c.args !== undefined)
      .filter((c) => {
        const used = new Set([...c.message!.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1])));
        return used.size !== c.args || [...used].some((i) => i >= c.args!);
      })
      .map((c) => `${c.where}: ${JSON.stringify(c.message)} with ${c.args} argument(s)`);
    assert.deepStrictEqual(wrong, []);
  });

  it('vscode-free modules call l10n.t only inside functions (at load time main.ts has not handed over the bundle yet)', () => {
    assert.deepStrictEqual(calls.filter((c) => c.atLoad).map((c) => c.where), []);
  });

  it('l10n/bundle.l10n.json is what `npm run l10n` exports from src/ (run it after changing a message)', async () => {
    const exported = await exportL10n(files.map((file) => ({ extension: path.extname(file), contents: fs.readFileSync(file, 'utf8') })));
    const shipped = JSON.parse(fs.readFileSync(BUNDLE, 'utf8')) as Record<string, unknown>;
    assert.deepStrictEqual(shipped, exported);
    // The exporter and this test's reading agree on what the messages are.
    assert.deepStrictEqual(Object.keys(shipped).sort(), [...new Set(calls.map((c) => c.key!))].sort());
  });

  it('a bundle handed to @vscode/l10n (as main.ts does) is what the vscode-free modules show, comments and placeholders included', () => {
    l10n.config({
      contents: {
        '1 file': '1 fichier',
        '{0} files': '{0} fichiers',
        'Running/A task status': 'En cours',
        'The platform did not answer in time. Try again.': 'La plateforme n’a pas répondu à temps. Réessayez.',
      },
    });
    try {
      assert.deepStrictEqual([fileCount(1), fileCount(1234)], ['1 fichier', '1,234 fichiers']);
      assert.strictEqual(STATUS_LABELS.RUNNING, 'En cours', 'read when used, not when the module loaded');
      assert.strictEqual(describeError(new ApiError({ kind: 'timeout', message: 'GET /v2/user timed out' })), 'La plateforme n’a pas répondu à temps. Réessayez.');
      assert.strictEqual(STATUS_LABELS.QUEUED, 'Queued', 'a message the bundle lacks stays English');
    } finally {
      l10n.config({ contents: {} });
    }
    assert.strictEqual(fileCount(2), '2 files');
  });

  // That the package ships it is checked with vsce's own file list in test/build/manifest.test.ts.
  it('the manifest points VS Code at the bundle', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { l10n?: string };
    assert.strictEqual(manifest.l10n, './l10n');
  });
});
