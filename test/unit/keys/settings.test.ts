import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { readSetting, SETTINGS } from '../../../src/keys/settings';
import { readSource, repoRoot, sourceFiles } from './manifest';

interface DeclaredSetting {
  type: string;
  default: unknown;
  enum?: unknown[];
  scope?: string;
}

const declared = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, DeclaredSetting> } };
}).contributes.configuration.properties;

describe('keys/settings: the settings', () => {
  it('are the ones package.json contributes, each with its type, default, values and scope', () => {
    const inTable = Object.fromEntries(
      Object.values(SETTINGS).map((s) => [s.key, { type: s.type, default: s.default, ...(s.values ? { enum: [...s.values] } : {}), ...(s.scope ? { scope: s.scope } : {}) }]),
    );
    const inManifest = Object.fromEntries(
      Object.entries(declared).map(([key, d]) => [key, { type: d.type, default: d.default, ...(d.enum ? { enum: d.enum } : {}), ...(d.scope ? { scope: d.scope } : {}) }]),
    );
    assert.deepStrictEqual(inTable, inManifest);
  });

  it('read back typed: a value of the wrong type, or not one of the values, reads as the default', () => {
    assert.strictEqual(readSetting(SETTINGS.refreshInterval, 60), 60);
    assert.strictEqual(readSetting(SETTINGS.refreshInterval, '60'), 30);
    assert.strictEqual(readSetting(SETTINGS.refreshInterval, Number.NaN), 30);
    assert.strictEqual(readSetting(SETTINGS.refreshInterval, undefined), 30);
    assert.strictEqual(readSetting(SETTINGS.notifyWhenWatchedTasksEnd, 'failures'), 'failures');
    assert.strictEqual(readSetting(SETTINGS.notifyWhenWatchedTasksEnd, 'sometimes'), 'all');
    assert.strictEqual(readSetting(SETTINGS.apiEndpoint, 42), 'https://api.sbgenomics.com/v2');
  });

  it('are read and written in one module only (src/ui/settings.ts), and named nowhere else in src/', () => {
    const readers = sourceFiles('src').filter((file) => /getConfiguration\(/.test(readSource(file)));
    assert.deepStrictEqual(readers, ['src/ui/settings.ts']);
    const keys = new Set(Object.values(SETTINGS).map((s) => s.key));
    const literals = sourceFiles('src')
      .filter((file) => file !== 'src/keys/settings.ts')
      .flatMap((file) => [...readSource(file).matchAll(/['"`](sevenbridges\.[\w.]+)['"`]/g)].filter((m) => keys.has(m[1])).map((m) => `${file}: ${m[1]}`));
    assert.deepStrictEqual(literals, []);
  });
});
