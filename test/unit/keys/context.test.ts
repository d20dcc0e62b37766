import * as assert from 'assert';
import { CONTEXT_KEYS } from '../../../src/keys/context';
import { manifest, readSource, sourceFiles } from './manifest';

/** The `sevenbridges.*` names a when-clause reads (views it compares against and settings left out). */
function keysRead(): Map<string, string[]> {
  const c = manifest().contributes;
  const views = new Set(Object.values(c.views).flat().map((v) => v.id));
  const clauses = [
    ...Object.entries(c.menus).flatMap(([menu, items]) => items.map((i) => [`menus.${menu}`, i.when] as const)),
    ...(c.viewsWelcome ?? []).map((w) => [`viewsWelcome(${w.view})`, w.when] as const),
    ...Object.values(c.views).flat().map((v) => [`views(${v.id})`, v.when] as const),
    ...(c.keybindings ?? []).map((k) => [`keybindings(${k.command})`, k.when] as const),
  ];
  const read = new Map<string, string[]>();
  for (const [where, when] of clauses) {
    // Not after a dot: `config.sevenbridges.x` is a setting; quoted and regex values are stripped first.
    const code = (when ?? '').replace(/'[^']*'/g, "''").replace(/\/(?:[^/\\]|\\.)*\//g, '//');
    for (const m of code.matchAll(/(?<![\w.])sevenbridges\.[\w.]+/g)) {
      if (views.has(m[0])) continue;
      read.set(m[0], [...(read.get(m[0]) ?? []), where]);
    }
  }
  return read;
}

describe('keys/context: the when-clause context keys', () => {
  it('lists every key a when-clause reads, and each key it lists is read somewhere', () => {
    const listed = new Set<string>(Object.values(CONTEXT_KEYS));
    const read = keysRead();
    assert.deepStrictEqual([...read.keys()].filter((k) => !listed.has(k)), [], 'read in package.json but never set');
    assert.deepStrictEqual([...listed].filter((k) => !read.has(k)), [], 'set but read by no when-clause');
  });

  it('are set in one place only (src/ui/whenContext.ts)', () => {
    const setters = sourceFiles('src').filter((file) => /['"`]setContext['"`]/.test(readSource(file)));
    assert.deepStrictEqual(setters, ['src/ui/whenContext.ts']);
  });
});
