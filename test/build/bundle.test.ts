// The bundle's build options (scripts/esbuild.options.json, the ones scripts/build.mjs uses): node-fetch goes in
// without its whatwg-url → tr46 chain, and node-fetch as bundled still talks to the platform (the emulator), even
// in a host whose `url` module has no URL, where node-fetch falls back to the whatwg-url shim.
import * as assert from 'assert';
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import { startEmulator, type Emulator } from '../emulator/index';

const root = path.resolve(__dirname, '..', '..', '..');
const load = createRequire(__filename);
const options = JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'esbuild.options.json'), 'utf8')) as esbuild.BuildOptions;

type NodeFetch = (input: string, init?: { headers?: Record<string, string> }) => Promise<{ status: number; json(): Promise<unknown> }>;

/** Runs a CommonJS bundle with `url.URL` taken away, as in a Node that predates the WHATWG URL. */
function loadWithoutUrlURL(code: string): NodeFetch {
  const mod = { exports: {} as unknown };
  const requireIn = (name: string): unknown => (name === 'url' ? { ...(load('url') as object), URL: undefined } : load(name));
  new Function('require', 'module', 'exports', code)(requireIn, mod, mod.exports);
  return mod.exports as NodeFetch;
}

describe('bundle: node-fetch without whatwg-url (nor encoding)', function () {
  this.timeout(60_000);
  let dir: string;
  let emu: Emulator | undefined;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bundle-'));
  });
  after(async () => {
    await emu?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves whatwg-url, tr46 and webidl-conversions out of the extension bundle and puts the shim in', async () => {
    const result = await esbuild.build({ ...options, absWorkingDir: root, outdir: dir, minify: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile!.inputs);
    const packages = new Set(inputs.map((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1]).filter((p): p is string => p !== undefined));
    // @vscode/l10n (a few kB) reads VS Code's bundle for the vscode-free modules' messages.
    assert.deepStrictEqual([...packages].sort(), ['@vscode/l10n', 'node-fetch'], inputs.join('\n'));
    assert.ok(inputs.includes('scripts/shims/whatwg-url.cjs'), inputs.join('\n'));
    // node-fetch's optional `encoding` is answered by a shim too, instead of a failing lookup on every load.
    assert.ok(inputs.includes('scripts/shims/encoding.cjs'), inputs.join('\n'));
    assert.ok(!fs.readFileSync(path.join(dir, 'main.js'), 'utf8').includes('require("encoding")'));
  });

  it('makes what VS Code activates a small file that loads the rest (dist/main.js) only when asked', async () => {
    const result = await esbuild.build({ ...options, absWorkingDir: root, outdir: dir, minify: true, logLevel: 'silent' });
    const outputs = result.metafile!.outputs;
    const entry = outputs[path.relative(root, path.join(dir, 'extension.js'))];
    assert.ok(entry, Object.keys(outputs).join('\n'));
    assert.deepStrictEqual(Object.keys(entry.inputs).sort(), ['src/extension.ts', 'src/lazyStart.ts']);
    assert.ok(entry.bytes < 4 * 1024, `${entry.bytes} bytes`);
    const text = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    // Loaded inside a function (on first use), not when the file is: no top-level require of ./main.
    assert.match(text, /=>[^;]*require\("\.\/main"\)/);
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
