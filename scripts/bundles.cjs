// The bundles of the extension, built with the options of esbuild.options.json (scripts/build.mjs, and
// test/build/bundle.test.ts, which builds with exactly this):
//   dist/extension.js  what VS Code activates: a stand-in per command, loads main.js in the next turn (src/extension.ts);
//   dist/main.js       what runs from the start: the views, the models, the client, the write path (src/main.ts);
//   dist/features.js   what is loaded on first use: the commands' run functions, the copy flow, the transfer engines,
//                      the timeline panel… (src/features.ts: main.ts's `features`, and a stand-in per command until then);
//   dist/fetch.js      node-fetch, loaded by the transport after the start (Transport.warm) or by the first request;
//   dist/yaml.js       the yaml package, loaded when a task document or a CWL file is first read (src/util/yaml.ts).
// esbuild does not split CommonJS, so features.js takes every module main.js holds from main.js itself, at run time:
// main.js hands them out (`__shared`, added to src/main.ts here), features.js reads them there. A module is thus in one
// bundle only: one outbox, one l10n bundle, one `followed` map, classes that `instanceof` recognises.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const OPTIONS = JSON.parse(fs.readFileSync(path.join(__dirname, 'esbuild.options.json'), 'utf8'));
const MAIN_ENTRIES = { extension: 'src/extension.ts', main: 'src/main.ts' };
const FEATURES_ENTRY = 'src/features.ts';
const SHARED = 'sb-main';

/**
 * The packages that are bundles of their own, by the bundle's name: their import (`import('node-fetch')`,
 * src/api/transport.ts; `import('yaml')`, src/util/yaml.ts) reads dist/<name>.js.
 */
const APART = { fetch: 'node-fetch', yaml: 'yaml' };
const apart = {
  name: 'apart',
  setup(build) {
    for (const [name, pkg] of Object.entries(APART)) build.onResolve({ filter: new RegExp(`^${pkg}$`) }, () => ({ path: `./${name}.js`, external: true }));
  },
};

/** The bundles' outputs by entry name (extension, main, features, fetch, yaml) in a metafile. */
function outputsByEntry(metafile) {
  const byEntry = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.js')) continue;
    byEntry[path.basename(file, '.js')] = output;
  }
  return byEntry;
}

/**
 * features.js: a module that main.js holds (`held`: paths relative to the root) is not bundled again but read from
 * main.js's `__shared`; which ones were read is added to `used`. With `names` (what features.js imports of each, from
 * `importedNames`), each is read as those named exports, so that a name main.js does not hand out fails the build.
 */
function fromMain(root, held, used, names, order) {
  return {
    name: 'from-main',
    setup(build) {
      build.onResolve({ filter: /^\.\/main$/, namespace: SHARED }, () => ({ path: './main', external: true }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.fromMain || args.namespace === SHARED || args.kind === 'entry-point') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { fromMain: true } });
        if (found.errors.length || found.external || !found.path) return undefined;
        const key = relativeKey(root, found.path);
        if (!held.has(key)) return undefined;
        used.add(key);
        return { path: key, namespace: SHARED };
      });
      build.onLoad({ filter: /.*/, namespace: SHARED }, (args) => {
        const index = order ? order.indexOf(args.path) : -1;
        const read = index < 0 ? `require("./main").__shared[${JSON.stringify(args.path)}]` : `require("./main").__shared[${index}]`;
        const wanted = names?.get(args.path);
        if (!wanted || wanted === ALL) return { contents: `module.exports = ${read};`, loader: 'js' };
        // By position: main.js hands out an array of the values, in the order of the names (handOut).
        const list = [...wanted];
        return { contents: `export const [${list.map((n) => (n === 'default' ? '__default' : n)).join(', ')}] = ${read};${wanted.has('default') ? '\nexport default __default;' : ''}`, loader: 'js' };
      });
    },
  };
}

const ALL = 'all';

/** A path relative to the root, with forward slashes (as in a metafile). */
function relativeKey(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * What the TypeScript files `files` (relative to the root) import of the modules `shared`, by name: a key's set of
 * names, or ALL where a module is imported whole (`import * as`, `export *`). Type-only imports are left out.
 */
function importedNames(root, files, shared) {
  const ts = require(require.resolve('typescript', { paths: [root] }));
  const names = new Map();
  const add = (key, name) => {
    if (names.get(key) === ALL) return;
    if (name === ALL) return void names.set(key, ALL);
    if (!names.has(key)) names.set(key, new Set());
    names.get(key).add(name);
  };
  const keyOf = (file, spec) => {
    if (!spec.startsWith('.')) {
      const found = [...shared].find((key) => key.startsWith(`node_modules/${spec}/`));
      return found;
    }
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => shared.has(candidate));
  };
  for (const file of files) {
    if (!/\.ts$/.test(file)) continue;
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const spec = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      if (spec === undefined) continue;
      const key = keyOf(file, spec);
      if (!key) continue;
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (!clause) {
          if (!names.has(key)) names.set(key, new Set());
          continue;
        }
        if (clause.isTypeOnly) continue;
        if (clause.name) add(key, 'default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) add(key, ALL);
        else if (bindings) for (const element of bindings.elements) if (!element.isTypeOnly) add(key, (element.propertyName ?? element.name).text);
      } else if (ts.isExportDeclaration(statement)) {
        if (statement.isTypeOnly) continue;
        const clause = statement.exportClause;
        if (!clause || ts.isNamespaceExport(clause)) add(key, ALL);
        else for (const element of clause.elements) if (!element.isTypeOnly) add(key, (element.propertyName ?? element.name).text);
      }
    }
  }
  // A module with an `export let` or `export var` is handed out whole, so that features.js reads its live value.
  for (const key of names.keys()) {
    if (key.endsWith('.ts') && /^\s*export\s+(let|var)\b/m.test(fs.readFileSync(path.join(root, key), 'utf8'))) names.set(key, ALL);
  }
  return names;
}

/** The order of the modules in `__shared`: both bundles read their positions from it. */
const order = (names) => [...names.keys()].sort();

/**
 * main.js: src/main.ts, plus `__shared`, what features.js reads (`names`: by module, the names it imports, or ALL for
 * the module object): an array, a module's values at its position (in the order of its names) or its module object.
 * A module handed out by name keeps esbuild's tree shaking of the rest of it; positions keep the names out of both.
 */
function handOut(root, names) {
  const mainFile = path.join(root, MAIN_ENTRIES.main);
  return {
    name: 'hand-out',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]main\.ts$/ }, (args) => {
        if (path.resolve(args.path) !== mainFile) return undefined;
        const keys = order(names);
        const lines = [];
        const entries = keys.map((key, i) => {
          const from = JSON.stringify(path.join(root, key));
          const wanted = names.get(key);
          if (wanted === ALL) {
            lines.push(`import * as __shared${i} from ${from};`);
            return `__shared${i}`;
          }
          const list = [...wanted];
          if (list.length) lines.push(`import { ${list.map((n, j) => `${n} as __shared${i}_${j}`).join(', ')} } from ${from};`);
          return `[${list.map((_, j) => `__shared${i}_${j}`).join(', ')}]`;
        });
        lines.push(`/** What dist/features.js reads from here, by position (scripts/bundles.cjs). */`);
        lines.push(`export const __shared = [${entries.join(', ')}];`);
        return { contents: `${fs.readFileSync(mainFile, 'utf8')}\n${lines.join('\n')}\n`, loader: 'ts' };
      });
    },
  };
}

/**
 * Builds the five bundles into `outdir` (absolute). Returns each one's metafile output (by entry name: extension, main,
 * features, fetch, yaml), `shared` (the modules main.js hands to features.js) and `plainMainBytes` (main.js as it would be
 * without handing them out: what handing out costs).
 */
async function buildBundles({ root, outdir, minify = true, sourcemap = false, logLevel = 'silent' }) {
  const common = { ...OPTIONS, absWorkingDir: root, outdir, minify, sourcemap, logLevel };
  // 1. What main.js holds (not written).
  const first = await esbuild.build({ ...common, entryPoints: MAIN_ENTRIES, write: false, plugins: [apart] });
  const held = new Set(Object.keys(outputsByEntry(first.metafile).main.inputs));
  for (let round = 1; ; round++) {
    // 2. features.js, reading those from main.js: once to learn which of its modules import what of them, then with
    // each read by the names imported (a name main.js does not hand out fails the build).
    const shared = new Set();
    const probe = await esbuild.build({ ...common, entryPoints: { features: FEATURES_ENTRY }, write: false, plugins: [apart, fromMain(root, held, shared)] });
    const names = importedNames(root, Object.keys(outputsByEntry(probe.metafile).features.inputs).filter((key) => !key.startsWith(`${SHARED}:`)), shared);
    for (const key of shared) if (!names.has(key)) names.set(key, ALL);
    const features = await esbuild.build({ ...common, entryPoints: { features: FEATURES_ENTRY }, write: false, plugins: [apart, fromMain(root, held, new Set(), names, order(names))] });
    // 3. extension.js and main.js, main.js handing out what features.js reads. What it hands out may bring in a module
    // that main.js had left out (unused there) and features.js bundled: that one is then read from main.js too.
    const main = await esbuild.build({ ...common, entryPoints: MAIN_ENTRIES, write: false, plugins: [apart, handOut(root, names)] });
    const more = Object.keys(outputsByEntry(main.metafile).main.inputs).filter((key) => !held.has(key));
    if (more.length) {
      if (round === 5) throw new Error(`main.js and features.js still share modules after ${round} rounds: ${more.join(', ')}`);
      for (const key of more) held.add(key);
      continue;
    }
    // 4. fetch.js: node-fetch (its whatwg-url and encoding answered by the shims, esbuild.options.json's alias); yaml.js.
    const apartOutputs = {};
    for (const [name, pkg] of Object.entries(APART)) {
      const built = await esbuild.build({
        ...common,
        entryPoints: undefined,
        outdir: undefined,
        stdin: { contents: `module.exports = require('${pkg}');`, resolveDir: root, loader: 'js', sourcefile: `${name}.js` },
        outfile: path.join(outdir, `${name}.js`),
      });
      apartOutputs[name] = outputsByEntry(built.metafile)[name];
    }
    for (const file of [...main.outputFiles, ...features.outputFiles]) {
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      fs.writeFileSync(file.path, file.contents);
    }
    return {
      outputs: { ...outputsByEntry(main.metafile), ...outputsByEntry(features.metafile), ...apartOutputs },
      shared: [...shared].sort(),
      plainMainBytes: outputsByEntry(first.metafile).main.bytes,
    };
  }
}

module.exports = { buildBundles, OPTIONS, MAIN_ENTRIES, FEATURES_ENTRY };
