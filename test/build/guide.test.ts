// ARCHITECTURE.md cannot drift from the code: its examples compile against src/ (test/support/guide.ts says how a
// fragment is completed), the files, functions and names it mentions exist, its tables of write kinds and of a kind's
// members are the code's; and the platform's API facts are cited from docs/platform-api.md, by sections that exist.
// (Its table of layers is read by test/unit/build/importCycles.test.ts.)
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { compileGuide, guideBlocks } from '../support/guide';
import { sourceFiles } from '../unit/keys/manifest';

const root = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const GUIDE = 'ARCHITECTURE.md';

/** The guide's prose: its code blocks and hidden comments left out (what they name is compiled). */
function prose(markdown: string): string {
  return markdown.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '').replace(/<!--[\s\S]*?-->/g, '');
}

/** A section of the guide: from its heading to the next heading of its level or above. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  assert.ok(start >= 0, `${GUIDE} has no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The rows of the first table in `text` whose header's first cell is `first`, as cells. */
function table(text: string, first: string): string[][] {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => l.startsWith('|') && l.split('|')[1]?.trim() === first);
  assert.ok(header >= 0, `no table whose first column is "${first}"`);
  const rows: string[][] = [];
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i].split('|').slice(1, -1).map((c) => c.trim()));
  return rows;
}

const ticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
const isCodeName = (name: string): boolean => /^[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*$/.test(name) || /^[A-Z][a-z]+[A-Z][A-Za-z0-9]*$/.test(name);

/** A path the guide names, found in the repository: as written, or under src/ (`write/outbox.ts`). */
function found(file: string): string | undefined {
  return [file, `src/${file}`].find((candidate) => fs.existsSync(path.join(root, candidate)));
}

/** The names a module exports (declared with `export`, or listed in `export { … }`). */
function exportsOf(file: string): Set<string> {
  const text = read(file);
  const names = [...text.matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+(\w+)/gm)].map((m) => m[1]);
  for (const list of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) names.push(...list[1].split(',').map((n) => n.trim().split(/\s+as\s+/).pop()!.replace(/^type\s+/, '')));
  return new Set(names.filter(Boolean));
}

/** The write kinds the code declares: functions that return one `WriteKind`, and classes that implement it. */
function kindDeclarations(): { name: string; file: string }[] {
  const kinds: { name: string; file: string }[] = [];
  for (const file of sourceFiles('src')) {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true);
    for (const node of source.statements) {
      const exported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      if (ts.isFunctionDeclaration(node) && node.name && node.type && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'WriteKind') kinds.push({ name: node.name.text, file });
      if (ts.isClassDeclaration(node) && node.name && node.heritageClauses?.some((h) => h.types.some((t) => t.expression.getText(source) === 'WriteKind'))) kinds.push({ name: node.name.text, file });
    }
  }
  return kinds;
}

/** The members of an interface, each with whether it is optional. */
function members(file: string, name: string): Map<string, boolean> {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true);
  const declaration = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  assert.ok(declaration, `${file} declares no interface ${name}`);
  return new Map(declaration.members.filter((m) => m.name).map((m) => [m.name!.getText(source), !!m.questionToken]));
}

/** The sections of docs/platform-api.md by number ("4", "8.5"). */
function apiSections(): Set<string> {
  return new Set([...read('docs/platform-api.md').matchAll(/^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/gm)].map((m) => m[1]));
}

/** The sections a text cites of docs/platform-api.md (`platform-api.md §4, §9.2`, `platform-api.md (§10.1)`). */
function citations(text: string): string[] {
  return [...text.matchAll(/platform-api\.md(?:'s)?\s*\(?((?:§\d+(?:\.\d+)*(?:,\s*)?)+)/g)].flatMap((m) => [...m[1].matchAll(/§(\d+(?:\.\d+)*)/g)].map((c) => c[1]));
}

/** Every text file of the repository that speaks of the platform (code, tests, scripts, documents). */
function repositoryTexts(): string[] {
  const tracked = ['src', 'test', 'scripts', 'docs'].flatMap((dir) => walk(dir));
  return [...tracked, ...fs.readdirSync(root).filter((f) => f.endsWith('.md'))];
}

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return walk(file);
    return /\.(ts|md|mjs|cjs|js|json|py)$/.test(entry.name) ? [file] : [];
  });
}

describe('ARCHITECTURE.md, the guide', () => {
  const guide = read(GUIDE);

  it('its examples compile against the code', function () {
    this.timeout(180_000);
    const problems = compileGuide(root, guideBlocks(guide));
    assert.deepStrictEqual(problems.map((p) => `${GUIDE}:${p.line}: ${p.message}`), []);
  });

  it('the check of its examples fails on an example that names what the code does not have, at its line', function () {
    this.timeout(180_000);
    const markdown = [
      'An example completed by its comment:',
      '<!-- guide: src/keys/settings.ts',
      "import type { SETTINGS } from './settings';",
      'export const entries: Partial<typeof SETTINGS> = {',
      '{{block}}',
      '};',
      '-->',
      '```ts',
      "pageSize: { key: 'sevenbridges.files.pageSize', type: 'number', default: 100 },",
      '```',
      'One that stands alone:',
      '```ts',
      "import { transferNodes } from './jobs/jobsModel';",
      '```',
    ].join('\n');
    const problems = compileGuide(root, guideBlocks(markdown));
    assert.deepStrictEqual(
      problems.map((p) => p.line),
      [9, 13],
    );
    assert.match(problems[0].message, /pageSize/);
    assert.match(problems[1].message, /transferNodes/);
  });

  it('every file it names exists, and a function it names beside a file is exported there', () => {
    const text = prose(guide);
    // The bundles (`dist/…`, `main.js`) are built, not kept.
    const files = new Set([...ticked(text), ...[...text.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1])].filter((t) => /^[\w./-]+\.(ts|md|json|mjs|cjs|css|js)$/.test(t) && !t.startsWith('dist/') && !/^[\w-]+\.js$/.test(t)));
    assert.deepStrictEqual([...files].filter((f) => !found(f)), [], 'files named that are not in the repository');
    const missing: string[] = [];
    for (const m of text.matchAll(/`([\w./-]+\.ts)`\]?(?:\([^)]*\))?\s*\(([^)]*)\)/g)) {
      const beside = [m[1], ...ticked(m[2]).filter((t) => t.endsWith('.ts'))].map(found).filter((f): f is string => !!f);
      const exported = new Set(beside.flatMap((f) => [...exportsOf(f)]));
      for (const name of ticked(m[2]).filter(isCodeName)) if (!exported.has(name)) missing.push(`${name} (beside ${m[1]})`);
    }
    assert.deepStrictEqual(missing, []);
  });

  it('every setting, command, view and stored key it names is the code\'s', () => {
    const manifest = JSON.parse(read('package.json')) as { contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> }; views: Record<string, { id: string }[]> } };
    const known = new Set([
      ...manifest.contributes.commands.map((c) => c.command),
      ...Object.keys(manifest.contributes.configuration.properties),
      ...Object.values(manifest.contributes.views).flat().map((v) => v.id),
      ...sourceFiles('src/keys').flatMap((f) => [...read(f).matchAll(/'(sevenbridges\.[\w.]+)'/g)].map((m) => m[1])),
    ]);
    const named = [...guide.matchAll(/\bsevenbridges\.[A-Za-z0-9_.]*[A-Za-z0-9_]\b(?![<*#])/g)].map((m) => m[0]).filter((n) => !/^sevenbridges\.(write|writer|writeBid)$/.test(n));
    assert.deepStrictEqual([...new Set(named)].filter((n) => !known.has(n)), []);
  });

  it('its table of write kinds names every kind the code declares, and where', () => {
    const rows = table(section(guide, '## Writes'), 'kind');
    const where = rows.map((r) => r[r.length - 1]).join('\n');
    const kinds = kindDeclarations();
    assert.ok(kinds.length >= 10, `the code's kinds were not found (${kinds.length})`);
    const named = new Set(ticked(where));
    const unnamed = kinds.filter((k) => !named.has(k.file.replace(/^src\//, '')) || (!k.name.match(/^[A-Z]/) && !named.has(k.name)));
    assert.deepStrictEqual(unnamed.map((k) => `${k.name} (${k.file})`), []);
  });

  it('its table of a kind\'s members is WriteKind\'s, the optional ones said so', () => {
    const rows = table(section(guide, '## Writes'), 'member');
    const said = new Map(rows.flatMap((r) => ticked(r[0]).map((name) => [name, r[0].includes('(optional)')] as const)));
    const declared = members('src/write/kinds.ts', 'WriteKind');
    assert.deepStrictEqual([...said].sort(), [...declared].sort());
  });
});

describe('the platform\'s API facts', () => {
  const outside = [['', 'work', 'shared'].join('/'), ['API', 'CONTRACT'].join('_')];
  const self = 'test/build/guide.test.ts';

  it('are cited from docs/platform-api.md: nothing in the repository points outside it for them', () => {
    const pointing = repositoryTexts().filter((f) => f !== self && outside.some((o) => read(f).includes(o)));
    assert.deepStrictEqual(pointing, []);
  });

  it('are cited by sections of docs/platform-api.md that exist', () => {
    const sections = apiSections();
    assert.ok(sections.has('8.5') && sections.has('14'), 'the sections were not read');
    const cited = repositoryTexts().filter((f) => f !== self).flatMap((file) => citations(read(file)).map((n) => ({ file, n })));
    assert.ok(cited.length > 50, `the citations were not read (${cited.length})`);
    assert.deepStrictEqual(cited.filter((c) => !sections.has(c.n)).map((c) => `${c.file}: §${c.n}`), []);
  });

  it('the check of citations reads each form, and finds a section that is not there', () => {
    const sample = "(platform-api.md §4, §9.2); platform-api.md (§10.1); platform-api.md's §14.2; platform-api.md §99, §8.9";
    assert.deepStrictEqual(citations(sample), ['4', '9.2', '10.1', '14.2', '99', '8.9']);
    const sections = apiSections();
    assert.deepStrictEqual(citations(sample).filter((n) => !sections.has(n)), ['99', '8.9']);
  });
});
