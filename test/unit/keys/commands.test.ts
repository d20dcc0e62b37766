import * as assert from 'assert';
import { commandTitles, COMMANDS } from '../../../src/keys/commands';
import { manifest, readSource, sourceFiles } from './manifest';

describe('keys/commands: the command IDs', () => {
  const contributed = manifest().contributes.commands;

  it('names every command package.json contributes, and no other', () => {
    const inModule = Object.values(COMMANDS).sort();
    const inManifest = contributed.map((c) => c.command).sort();
    assert.deepStrictEqual(inModule.filter((id) => !inManifest.includes(id)), [], 'in src/keys/commands.ts but not contributed');
    assert.deepStrictEqual(inManifest.filter((id) => !(inModule as string[]).includes(id)), [], 'contributed but not in src/keys/commands.ts');
    assert.strictEqual(new Set(inModule).size, inModule.length, 'an ID under two names');
  });

  it('gives the buttons that run a command the title the palette shows', () => {
    const titles = new Map(contributed.map((c) => [c.command, c.title]));
    const wrong = Object.entries(commandTitles()).filter(([name, title]) => titles.get(COMMANDS[name as keyof typeof COMMANDS]) !== title);
    assert.deepStrictEqual(wrong, []);
  });

  it('is the only place in src/ that writes a command ID', () => {
    const ids = new Set<string>(Object.values(COMMANDS));
    const literals = sourceFiles('src')
      .filter((file) => !file.startsWith('src/keys/'))
      .flatMap((file) => [...readSource(file).matchAll(/['"`](sevenbridges\.[\w.]+)['"`]/g)].filter((m) => ids.has(m[1])).map((m) => `${file}: ${m[1]}`));
    assert.deepStrictEqual(literals, []);
  });
});
