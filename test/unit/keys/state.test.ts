import * as assert from 'assert';
import { STATE_KEY_PREFIXES, STATE_KEYS } from '../../../src/keys/state';
import { manifest, readSource, sourceFiles } from './manifest';

describe('keys/state: the Memento keys', () => {
  const keys = Object.values(STATE_KEYS).map((k) => k.key);
  const prefixes = Object.values(STATE_KEY_PREFIXES);

  it('are distinct, and none falls in a family the outbox lists by prefix', () => {
    assert.strictEqual(new Set(keys).size, keys.length);
    assert.deepStrictEqual(keys.filter((k) => prefixes.some((p) => k.startsWith(p))), []);
    // One prefix inside another would make the outbox read a heartbeat as a write record, or the other way round.
    assert.deepStrictEqual(prefixes.filter((p) => prefixes.some((q) => q !== p && q.startsWith(p))), []);
  });

  it('are written nowhere else in src/', () => {
    // A view's ID may be spelled as a key is (sevenbridges.copyJobs): a view is not a key.
    const views = new Set(Object.values(manifest().contributes.views).flat().map((v) => v.id));
    const written: string[] = [...keys, ...prefixes].filter((k) => !views.has(k));
    const literals = sourceFiles('src')
      .filter((file) => !file.startsWith('src/keys/'))
      .flatMap((file) => [...readSource(file).matchAll(/['"`](sevenbridges\.[\w.]+)['"`]/g)].filter((m) => written.includes(m[1])).map((m) => `${file}: ${m[1]}`));
    assert.deepStrictEqual(literals, []);
  });
});
