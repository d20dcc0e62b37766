// The bundles (scripts/bundles.cjs, with scripts/esbuild.options.json, as scripts/build.mjs builds them): node-fetch
// goes in without its whatwg-url → tr46 chain, and node-fetch as bundled still talks to the platform (the emulator), even
// in a host whose `url` module has no URL, where node-fetch falls back to the whatwg-url shim. What activation loads is
// small; dist/main.js keeps within its bound; dist/features.js and dist/authoring.js, loaded on first use, share no
// module with it nor with each other.
import * as assert from 'assert';
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import type * as Yaml from 'yaml';
import { ACTIVATION_FILE_LIMIT_KB, MAIN_FILE_LIMIT_KB } from '../../scripts/bench/bundle';
import { WRITE_KINDS } from '../../src/keys/writes';
import { startEmulator, type Emulator } from '../emulator/index';

const root = path.resolve(__dirname, '..', '..', '..');
const load = createRequire(__filename);

interface Output {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
}
interface Built {
  outputs: Record<'extension' | 'main' | 'features' | 'authoring' | 'fetch' | 'yaml', Output>;
  /** By bundle, the modules it hands out to the bundles loaded after it. */
  shared: Record<'main' | 'features', string[]>;
}
const bundles = load(path.join(root, 'scripts', 'bundles.cjs')) as { OPTIONS: esbuild.BuildOptions; buildBundles(o: { root: string; outdir: string }): Promise<Built> };
const options = bundles.OPTIONS;

type NodeFetch = (input: string, init?: { headers?: Record<string, string> }) => Promise<{ status: number; json(): Promise<unknown> }>;

/** Runs a CommonJS bundle with `url.URL` taken away, as in a Node that predates the WHATWG URL. */
function loadWithoutUrlURL(code: string): NodeFetch {
  const mod = { exports: {} as unknown };
  const requireIn = (name: string): unknown => (name === 'url' ? { ...(load('url') as object), URL: undefined } : load(name));
  new Function('require', 'module', 'exports', code)(requireIn, mod, mod.exports);
  return mod.exports as NodeFetch;
}

/** The packages (node_modules) a bundle's inputs come from (not those read from an earlier bundle: `sb-main:…`). */
const packagesOf = (output: Output): string[] =>
  [...new Set(Object.keys(output.inputs).filter((i) => !i.includes(':')).map((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1]).filter((p): p is string => p !== undefined))].sort();

describe('bundle: node-fetch without whatwg-url (nor encoding)', function () {
  this.timeout(60_000);
  let dir: string;
  let dist: string;
  let built: Built;
  let emu: Emulator | undefined;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bundle-'));
    dist = path.join(dir, 'dist');
    built = await bundles.buildBundles({ root, outdir: dist });
  });
  after(async () => {
    await emu?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves whatwg-url, tr46 and webidl-conversions out of the bundles and puts the shim in', () => {
    const { main, features, authoring, fetch, yaml } = built.outputs;
    // @vscode/l10n (a few kB) reads VS Code's bundle for the vscode-free modules' messages; node-fetch is a bundle of its own.
    assert.deepStrictEqual(packagesOf(main), ['@vscode/l10n'], Object.keys(main.inputs).join('\n'));
    // yaml (the CWL and task documents' text) is a bundle of its own too, read when such a document is first read.
    assert.deepStrictEqual(packagesOf(features), [], Object.keys(features.inputs).join('\n'));
    assert.deepStrictEqual(packagesOf(authoring), [], Object.keys(authoring.inputs).join('\n'));
    assert.deepStrictEqual(packagesOf(yaml), ['yaml'], Object.keys(yaml.inputs).join('\n'));
    assert.deepStrictEqual(packagesOf(fetch), ['node-fetch'], Object.keys(fetch.inputs).join('\n'));
    assert.ok(Object.keys(fetch.inputs).includes('scripts/shims/whatwg-url.cjs'), Object.keys(fetch.inputs).join('\n'));
    // node-fetch's optional `encoding` is answered by a shim too, instead of a failing lookup on every load.
    assert.ok(Object.keys(fetch.inputs).includes('scripts/shims/encoding.cjs'), Object.keys(fetch.inputs).join('\n'));
    for (const file of ['main.js', 'features.js', 'authoring.js', 'fetch.js']) assert.ok(!fs.readFileSync(path.join(dist, file), 'utf8').includes('require("encoding")'), file);
  });

  it('makes what VS Code activates a small file that loads the rest (dist/main.js) only when asked', () => {
    const entry = built.outputs.extension;
    assert.deepStrictEqual(Object.keys(entry.inputs).sort(), ['src/extension.ts', 'src/lazyStart.ts']);
    assert.ok(entry.bytes < ACTIVATION_FILE_LIMIT_KB * 1024, `${entry.bytes} bytes`);
    const text = fs.readFileSync(path.join(dist, 'extension.js'), 'utf8');
    // Loaded inside a function (on first use), not when the file is: no top-level require of ./main.
    assert.match(text, /=>[^;]*require\("\.\/main"\)/);
  });

  it(`keeps dist/main.js within ${MAIN_FILE_LIMIT_KB} KB: features.js, authoring.js and fetch.js are loaded from it on first use only`, () => {
    const { main } = built.outputs;
    assert.ok(main.bytes <= MAIN_FILE_LIMIT_KB * 1024, `dist/main.js is ${(main.bytes / 1024).toFixed(1)} KB, over its bound of ${MAIN_FILE_LIMIT_KB} KB`);
    const text = fs.readFileSync(path.join(dist, 'main.js'), 'utf8');
    for (const lazy of ['./features', './authoring', './fetch.js']) {
      const requires = [...text.matchAll(new RegExp(`require\\("${lazy.replace(/\./g, '\\.')}"\\)`, 'g'))];
      assert.ok(requires.length >= 1, `main.js loads ${lazy}`);
      // Inside a function: esbuild's import() is `Promise.resolve().then(() => …require(…))`.
      for (const m of requires) assert.match(text.slice(Math.max(0, m.index - 60), m.index), /=>\s*[\w$]*\(?$/, `${lazy} is required on first use, not when main.js loads`);
    }
  });

  it('makes yaml a bundle of its own, dist/yaml.js, that authoring.js loads on first use and that reads a document', () => {
    const text = fs.readFileSync(path.join(dist, 'authoring.js'), 'utf8');
    const requires = [...text.matchAll(/require\("\.\/yaml\.js"\)/g)];
    assert.strictEqual(requires.length, 1, 'authoring.js loads ./yaml.js');
    assert.match(text.slice(Math.max(0, requires[0].index - 60), requires[0].index), /=>\s*[\w$]*\(?$/, './yaml.js is required on first use');
    for (const file of ['main.js', 'features.js']) assert.ok(!fs.readFileSync(path.join(dist, file), 'utf8').includes('./yaml.js'), `${file} never loads it`);
    const yaml = createRequire(path.join(dist, 'authoring.js'))('./yaml.js') as typeof Yaml;
    const document = yaml.parseDocument('app: admin/demo/bwa\ninputs:\n  reads: [a.fq, b.fq] # two\n');
    assert.deepStrictEqual(document.toJS(), { app: 'admin/demo/bwa', inputs: { reads: ['a.fq', 'b.fq'] } });
    assert.deepStrictEqual(document.errors, []);
  });

  it('puts every module in one bundle only: features.js and authoring.js read what main.js holds (one outbox, one tracker, one session), authoring.js what features.js holds', () => {
    const { extension, main, features, authoring, fetch, yaml } = built.outputs;
    const bundled = { extension, main, features, authoring, fetch, yaml };
    for (const [a, first] of Object.entries(bundled)) {
      for (const [b, second] of Object.entries(bundled)) {
        // The reads (`sb-main:…`) aside. extension.js's stand-ins (src/lazyStart.ts, no state) are main.js's too.
        if (a < b && !(a === 'extension' && b === 'main')) assert.deepStrictEqual(Object.keys(first.inputs).filter((i) => i in second.inputs && !i.includes(':')), [], `in ${a}.js and ${b}.js`);
      }
    }
    // The state holders live in main.js, and the bundles after it read them from there.
    for (const holder of ['src/write/outbox.ts', 'src/jobs/tracker.ts', 'src/auth/session.ts', 'node_modules/@vscode/l10n/dist/main.js']) {
      assert.ok(holder in main.inputs, `${holder} in main.js`);
    }
    for (const read of ['src/write/outbox.ts', 'node_modules/@vscode/l10n/dist/main.js', 'src/ui/commands.ts']) assert.ok(built.shared.main.includes(read), `main.js hands out ${read}`);
    // What both later bundles use and main.js does not hold (Run Task's write, the project pick) is features.js's, read from there.
    for (const read of ['src/tasks/taskWrites.ts', 'src/ui/projectPick.ts']) assert.ok(built.shared.features.includes(read), `features.js hands out ${read}`);
    for (const own of ['src/tasks/taskDocumentLanguage.ts', 'src/apps/commands.ts', 'src/tasks/sheetCommands.ts']) assert.ok(own in authoring.inputs, `${own} in authoring.js`);
  });

  it('loads features.js and authoring.js over main.js as the extension host does: every export there, every value each reads defined', () => {
    // A stand-in for the vscode module: the bundles only reach it in functions, not when they load.
    const stub: unknown = new Proxy(function () {}, { get: (_t, key) => (key === 'prototype' ? {} : stub), apply: () => stub, construct: () => ({}) });
    const requireIn = createRequire(path.join(dist, 'main.js'));
    const Module = load('module') as { _load: (request: string, ...rest: unknown[]) => unknown };
    const original = Module._load;
    Module._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? stub : original.call(this, request, ...rest);
    };
    const exportsOf = (entry: string) => [...fs.readFileSync(path.join(root, 'src', entry), 'utf8').matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim()));
    const undefinedIn = (handed: unknown[], keys: string[]) =>
      handed.flatMap((entry, i) => (Array.isArray(entry) ? entry.flatMap((v, j) => (v === undefined ? [`${keys[i]} #${j}`] : [])) : entry ? [] : [keys[i]]));
    try {
      const main = requireIn('./main.js') as { __shared: unknown[] };
      const features = requireIn('./features.js') as Record<string, unknown> & { __shared: unknown[] };
      const authoring = requireIn('./authoring.js') as Record<string, unknown>;
      const exported = exportsOf('features.ts');
      assert.ok(exported.length > 10, exported.join(', '));
      for (const name of exported) assert.strictEqual(typeof features[name], 'function', name);
      const authored = exportsOf('authoring.ts');
      assert.deepStrictEqual(authored.sort(), ['TaskDocumentLanguage', 'appsCommands', 'taskDocumentCommands']);
      for (const name of authored) assert.strictEqual(typeof authoring[name], 'function', name);
      // The outbox loads every kind of write from features.js (main.ts): the table, built as there, holds each kind once.
      const writeKinds = features.writeKinds as (...parts: unknown[]) => { name: string }[];
      const client = { files: {}, fileJobs: {}, bulkFiles: {}, tasks: {}, apps: {}, uploads: {}, budget: { serverClock: {} } };
      assert.deepStrictEqual(writeKinds(client, {}, {}).map((kind) => kind.name).sort(), Object.values(WRITE_KINDS).sort());
      assert.strictEqual(main.__shared.length, built.shared.main.length);
      assert.deepStrictEqual(undefinedIn(main.__shared, built.shared.main), [], 'main.js handed out undefined (a type imported without `type`?)');
      assert.strictEqual(features.__shared.length, built.shared.features.length);
      assert.deepStrictEqual(undefinedIn(features.__shared, built.shared.features), [], 'features.js handed out undefined');
    } finally {
      Module._load = original;
    }
  });

  it('packages every bundle (.vscodeignore as vsce applies it), and no source map', async function () {
    this.timeout(30_000);
    for (const file of ['package.json', '.vscodeignore']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
    fs.writeFileSync(path.join(dist, 'main.js.map'), '{}');
    // As `vsce ls --no-dependencies` (PackageManager.None: a copy without node_modules lists none).
    const vsce = (await import('@vscode/vsce')) as unknown as { listFiles(o: { cwd: string; packageManager: number }): Promise<string[]>; PackageManager: { None: number } };
    const listed = (await vsce.listFiles({ cwd: dir, packageManager: vsce.PackageManager.None })).map((f) => f.replace(/\\/g, '/')).filter((f) => f.startsWith('dist/'));
    assert.deepStrictEqual(listed.sort(), Object.keys(built.outputs).map((name) => `dist/${name}.js`).sort());
  });

  it('the shim hands out Node\'s own URL', () => {
    const shim = load(path.join(root, 'scripts', 'shims', 'whatwg-url.cjs')) as { URL: unknown };
    assert.strictEqual(shim.URL, URL);
  });

  it('node-fetch as bundled talks to the emulator, with the shim as its only URL', async () => {
    const result = await esbuild.build({
      ...options,
      entryPoints: undefined,
      outdir: undefined,
      stdin: { contents: "module.exports = require('node-fetch').default;", resolveDir: root, loader: 'js' },
      absWorkingDir: root,
      outfile: path.join(dir, 'fetch.js'),
      logLevel: 'silent',
    });
    assert.ok(Object.keys(result.metafile!.inputs).includes('scripts/shims/whatwg-url.cjs'));
    const fetch = loadWithoutUrlURL(fs.readFileSync(path.join(dir, 'fetch.js'), 'utf8'));
    emu = await startEmulator();
    // node-fetch normalises an absolute URL with `new URL` (here the shim's): "/./" is dropped on the way.
    const answer = await fetch(`${emu.baseUrl}/./user`, { headers: { 'X-SBG-Auth-Token': emu.token } });
    assert.strictEqual(answer.status, 200);
    assert.strictEqual(((await answer.json()) as { username: string }).username, emu.username);
  });

  it('the loader above really takes url.URL away, read as node-fetch reads it (so the fetch test runs on the shim)', () => {
    const code = "const ex = require('url'); const Url = ex && typeof ex === 'object' && 'default' in ex ? ex.default : ex; module.exports = { URL: Url.URL };";
    assert.strictEqual((loadWithoutUrlURL(code) as unknown as { URL: unknown }).URL, undefined);
  });
});
