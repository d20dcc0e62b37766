// The bundles of the extension, built with the options of esbuild.options.json (scripts/build.mjs, and
// test/build/bundle.test.ts, which builds with exactly this):
//   dist/extension.js  what VS Code activates: a stand-in per command, loads main.js in the next turn (src/extension.ts);
//   dist/main.js       what runs from the start: the views, the models, the client, the write path (src/main.ts);
//   dist/features.js   what is loaded on first use: the commands' run functions, the copy flow, the transfer engines,
//                      the timeline panel… (src/features.ts: main.ts's `features`, and a stand-in per command until then);
//   dist/authoring.js  what starts work, loaded when first used: the task document's language and commands, sample
//                      sheets, the CWL apps' commands (src/authoring.ts: main.ts's `authoring`);
//   dist/fetch.js      node-fetch, loaded by the transport after the start (Transport.warm) or by the first request;
//   dist/yaml.js       the yaml package, loaded when a task document or a CWL file is first read (src/util/yaml.ts).
// esbuild does not split CommonJS, so each bundle loaded later takes every module an earlier one holds from that one
// itself, at run time: features.js from main.js, authoring.js from main.js and features.js. The earlier bundle hands
// them out (`__shared`, added to its entry here), the later one reads them there. A module is thus in one bundle only:
// one outbox, one l10n bundle, one `followed` map, classes that `instanceof` recognises.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const OPTIONS = JSON.parse(fs.readFileSync(path.join(__dirname, 'esbuild.options.json'), 'utf8'));
const MAIN_ENTRIES = { extension: 'src/extension.ts', main: 'src/main.ts' };
/** The bundles loaded on first use, in order: each reads what main.js and the ones before it hold. */
const LATER_ENTRIES = { features: 'src/features.ts', authoring: 'src/authoring.ts' };
/** The namespace of the modules a bundle reads from `bundle`. */
const readFrom = (bundle) => `sb-${bundle}`;

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
 * A bundle loaded later: a module that an earlier bundle holds (`earlier`: each `{ bundle, held }`, main first; `held`:
 * paths relative to the root) is not bundled again but read from the first of them that holds it; which ones were read
 * is added to `used[bundle]`. With `names` (by bundle, what this one imports of each module, from `importedNames`),
 * each is read as those named exports, so that a name the earlier bundle does not hand out fails the build.
 */
function fromEarlier(root, earlier, used, names, orders) {
  const namespaces = new Map(earlier.map(({ bundle }) => [readFrom(bundle), bundle]));
  return {
    name: 'from-earlier',
    setup(build) {
      build.onResolve({ filter: /^\.\/[a-z]+$/ }, (args) => (namespaces.has(args.namespace) ? { path: args.path, external: true } : undefined));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.fromEarlier || namespaces.has(args.namespace) || args.kind === 'entry-point') return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { fromEarlier: true } });
        if (found.errors.length || found.external || !found.path) return undefined;
        const key = relativeKey(root, found.path);
        const holder = earlier.find(({ held }) => held.has(key));
        if (!holder) return undefined;
        used[holder.bundle].add(key);
        return { path: key, namespace: readFrom(holder.bundle) };
      });
      build.onLoad({ filter: /.*/ }, (args) => {
        const bundle = namespaces.get(args.namespace);
        if (bundle === undefined) return undefined;
        // The probes (no `orders`) read by path: their output is only looked at, never run.
        const index = orders ? orders[bundle].indexOf(args.path) : -1;
        if (orders && index < 0) throw new Error(`${args.path} is read from ${bundle}.js, which does not hand it out`);
        const read = index < 0 ? `require("./${bundle}").__shared[${JSON.stringify(args.path)}]` : `require("./${bundle}").__shared[${index}]`;
        const wanted = names?.[bundle]?.get(args.path);
        if (!wanted || wanted === ALL) return { contents: `module.exports = ${read};`, loader: 'js' };
        // By position: the earlier bundle hands out an array of the values, in the order of the names (handOut).
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

/** The order of the modules in `__shared`: the bundle that hands them out and those that read them take positions from it. */
const order = (names) => [...names.keys()].sort();

/** Adds `from` (a module's names, or ALL) into `into`, a map of the same kind. */
function mergeNames(into, from) {
  for (const [key, wanted] of from) {
    const known = into.get(key);
    into.set(key, known === ALL || wanted === ALL ? ALL : new Set([...(known ?? []), ...wanted]));
  }
}

/**
 * An earlier bundle's entry (`entry`, relative to the root), plus `__shared`, what the bundles after it read (`names`: by
 * module, the names they import, or ALL for the module object): an array, a module's values at its position (in the
 * order of its names) or its module object. A module handed out by name keeps esbuild's tree shaking of the rest of
 * it; positions keep the names out of both.
 */
function handOut(root, entry, names) {
  const entryFile = path.join(root, entry);
  return {
    name: 'hand-out',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (path.resolve(args.path) !== entryFile) return undefined;
        const lines = [];
        const entries = order(names).map((key, i) => {
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
        lines.push(`/** What the bundles loaded after this one read from it, by position (scripts/bundles.cjs). */`);
        lines.push(`export const __shared = [${entries.join(', ')}];`);
        return { contents: `${fs.readFileSync(entryFile, 'utf8')}\n${lines.join('\n')}\n`, loader: 'ts' };
      });
    },
  };
}

/**
 * Builds the six bundles into `outdir` (absolute). Returns each one's metafile output (by entry name: extension, main,
 * features, authoring, fetch, yaml), `shared` (by bundle, the modules it hands to those loaded after it) and
 * `plainMainBytes` (main.js as it would be without handing them out: what handing out costs).
 */
async function buildBundles({ root, outdir, minify = true, sourcemap = false, logLevel = 'silent' }) {
  const common = { ...OPTIONS, absWorkingDir: root, outdir, minify, sourcemap, logLevel };
  const later = Object.keys(LATER_ENTRIES);
  // 1. What main.js holds (not written).
  const first = await esbuild.build({ ...common, entryPoints: MAIN_ENTRIES, write: false, plugins: [apart] });
  const held = { main: new Set(Object.keys(outputsByEntry(first.metafile).main.inputs)) };
  // What a later bundle holds beyond its own modules: those it hands out that another had bundled (step 3).
  const adopted = Object.fromEntries(later.map((bundle) => [bundle, new Set()]));
  for (let round = 1; ; round++) {
    // 2. Each later bundle in turn, reading what the ones before it hold from them: once to learn which of its modules
    // import what of them (`names`, by the bundle read from), then with each read by the names imported (a name the
    // earlier bundle does not hand out fails the build).
    const names = { main: new Map() };
    const shared = { main: new Set() };
    const earlier = [{ bundle: 'main', held: held.main }];
    for (const bundle of later) {
      const used = Object.fromEntries(earlier.map((e) => [e.bundle, new Set()]));
      const probe = await esbuild.build({ ...common, entryPoints: { [bundle]: LATER_ENTRIES[bundle] }, write: false, plugins: [apart, fromEarlier(root, earlier, used)] });
      const own = Object.keys(outputsByEntry(probe.metafile)[bundle].inputs).filter((key) => !key.includes(':'));
      for (const [from, keys] of Object.entries(used)) {
        const imported = importedNames(root, own, keys);
        for (const key of keys) if (!imported.has(key)) imported.set(key, ALL);
        mergeNames(names[from], imported);
        for (const key of keys) shared[from].add(key);
      }
      held[bundle] = new Set([...own, ...adopted[bundle]]);
      names[bundle] = new Map();
      shared[bundle] = new Set();
      earlier.push({ bundle, held: held[bundle] });
    }
    const orders = Object.fromEntries(Object.entries(names).map(([bundle, n]) => [bundle, order(n)]));
    // 3. The later bundles again, each reading by name and handing out what the ones after it read; then extension.js
    // and main.js, main.js handing out. What a bundle hands out may bring in a module that it had left out (unused
    // there) and a later one bundled: that one is then read from the earlier bundle too.
    const built = [];
    const more = [];
    for (const [i, bundle] of later.entries()) {
      const plugins = [apart, fromEarlier(root, earlier.slice(0, i + 1), Object.fromEntries(earlier.map((e) => [e.bundle, new Set()])), names, orders)];
      if (names[bundle].size) plugins.push(handOut(root, LATER_ENTRIES[bundle], names[bundle]));
      const result = await esbuild.build({ ...common, entryPoints: { [bundle]: LATER_ENTRIES[bundle] }, write: false, plugins });
      for (const key of Object.keys(outputsByEntry(result.metafile)[bundle].inputs)) if (!key.includes(':') && !held[bundle].has(key)) more.push([bundle, key]);
      built.push(result);
    }
    const main = await esbuild.build({ ...common, entryPoints: MAIN_ENTRIES, write: false, plugins: [apart, handOut(root, MAIN_ENTRIES.main, names.main)] });
    for (const key of Object.keys(outputsByEntry(main.metafile).main.inputs)) if (!held.main.has(key)) more.push(['main', key]);
    if (more.length) {
      if (round === 5) throw new Error(`the bundles still share modules after ${round} rounds: ${more.map(([bundle, key]) => `${key} (${bundle})`).join(', ')}`);
      for (const [bundle, key] of more) (bundle === 'main' ? held.main : adopted[bundle]).add(key);
      continue;
    }
    // 4. fetch.js: node-fetch (its whatwg-url and encoding answered by the shims, esbuild.options.json's alias); yaml.js.
    const apartOutputs = {};
    for (const [name, pkg] of Object.entries(APART)) {
      const result = await esbuild.build({
        ...common,
        entryPoints: undefined,
        outdir: undefined,
        stdin: { contents: `module.exports = require('${pkg}');`, resolveDir: root, loader: 'js', sourcefile: `${name}.js` },
        outfile: path.join(outdir, `${name}.js`),
      });
      apartOutputs[name] = outputsByEntry(result.metafile)[name];
    }
    for (const file of [main, ...built].flatMap((result) => result.outputFiles)) {
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      fs.writeFileSync(file.path, file.contents);
    }
    return {
      outputs: Object.assign(outputsByEntry(main.metafile), ...built.map((result) => outputsByEntry(result.metafile)), apartOutputs),
      shared: Object.fromEntries(Object.entries(shared).filter(([, keys]) => keys.size).map(([bundle, keys]) => [bundle, [...keys].sort()])),
      plainMainBytes: outputsByEntry(first.metafile).main.bytes,
    };
  }
}

module.exports = { buildBundles, OPTIONS, MAIN_ENTRIES, LATER_ENTRIES };
