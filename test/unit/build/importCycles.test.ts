// The folders are features that lean on each other one way, as ARCHITECTURE.md's table of layers draws them: no module
// may reach itself through its imports, type-only imports included (a cycle of types today is a cycle of code after
// the next refactoring).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { readSource, repoRoot, sourceFiles } from '../keys/manifest';

/** The src/ modules each src/ module imports or re-exports from, by path relative to the repository. */
export function importGraph(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const m of read(file).matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm)) {
      const spec = m[1] ?? m[2] ?? m[3];
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const target = [`${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Each cycle once, as the path around it (Tarjan's strongly connected components, then one path per component). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return components;
}

/** The folder graph of src/: an edge a → b when a module of a imports one of b (the files at the root wire, and are left out). */
export function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folder = (file: string) => file.split('/').slice(1, -1).join('/');
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!folder(file)) continue;
    const edges = folders.get(folder(file)) ?? new Set<string>();
    for (const target of targets) if (folder(target) && folder(target) !== folder(file)) edges.add(folder(target));
    folders.set(folder(file), edges);
  }
  return new Map([...folders].map(([name, edges]) => [name, [...edges].sort()]));
}


/**
 * The layers as ARCHITECTURE.md's table draws them (`| folder | holds | imports |`): each folder of src/, in order
 * from the top, with the folders it may import (`—`: none). The root row (the wiring) is left out.
 */
export function layers(markdown: string): Map<string, string[]> {
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => /^\|\s*folder\s*\|\s*holds\s*\|\s*imports\s*\|/.test(l));
  assert.ok(header >= 0, 'ARCHITECTURE.md has no table of layers (| folder | holds | imports |)');
  const rows = new Map<string, string[]>();
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const [folder, , imports] = lines[i].split('|').slice(1, -1).map((c) => c.trim());
    if (folder === 'root') continue;
    rows.set(folder.replace(/`/g, '').replace(/\/$/, ''), imports === '—' ? [] : imports.split(/\s+/));
  }
  return rows;
}

/** What is wrong with a table of layers: a folder that may import one that is not below it (or not in it). */
export function layerProblems(below: Map<string, string[]>): string[] {
  const order = [...below.keys()];
  return [...below].flatMap(([folder, imports]) => imports.filter((i) => !(order.indexOf(i) > order.indexOf(folder))).map((i) => `${folder} → ${i}: not below it`));
}

describe('imports', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const graph = importGraph(['src/a.ts', 'src/b/c.ts', 'src/d.ts'], (file) =>
      ({ 'src/a.ts': "import type { C } from './b/c';", 'src/b/c.ts': "export { A } from '../a';", 'src/d.ts': "import { A } from './a';" })[file]!,
    );
    assert.deepStrictEqual(cycles(graph), [['src/a.ts', 'src/b/c.ts']]);
  });

  it('of src/ form no cycle', () => {
    const files = sourceFiles('src');
    const graph = importGraph(files, readSource);
    assert.ok([...graph.values()].flat().length > files.length, 'the imports were not read');
    assert.deepStrictEqual(cycles(graph), []);
  });

  it('run only down the layers: each folder imports only the folders its row of ARCHITECTURE.md names', () => {
    const below = layers(fs.readFileSync(path.join(repoRoot, 'ARCHITECTURE.md'), 'utf8'));
    assert.deepStrictEqual(layerProblems(below), [], 'the table of layers');
    const graph = folderGraph(importGraph(sourceFiles('src'), readSource));
    assert.deepStrictEqual([...graph.keys()].filter((folder) => !below.has(folder)), [], 'a folder of src/ with no row in the layers');
    const upward = [...graph].flatMap(([folder, targets]) => targets.filter((t) => !below.get(folder)?.includes(t)).map((t) => `${folder} → ${t}`));
    assert.deepStrictEqual(upward, []);
  });

  it('read the table of layers as drawn, and find a row that imports one above it (the check itself)', () => {
    const drawn = ['| folder | holds | imports |', '|---|---|---|', '| root | wiring | every folder |', '| `jobs/` | the jobs | ui util |', '| `ui/` | views | util jobs |', '| `util/` | helpers | — |'].join('\n');
    const read = layers(drawn);
    assert.deepStrictEqual([...read], [['jobs', ['ui', 'util']], ['ui', ['util', 'jobs']], ['util', []]]);
    assert.deepStrictEqual(layerProblems(read), ['ui → jobs: not below it']);
  });

  it('of the feature folders form no cycle', () => {
    const found = cycles(folderGraph(importGraph(sourceFiles('src'), readSource)));
    assert.deepStrictEqual(found.map((c) => c.join(' ↔ ')), []);
  });
});
