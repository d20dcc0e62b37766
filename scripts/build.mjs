// Bundles the extension (scripts/bundles.cjs says which bundles and why): dist/extension.js (what VS Code activates),
// dist/main.js (loaded right after activation; see src/extension.ts), dist/features.js (loaded on first use; see
// src/features.ts), dist/authoring.js (loaded when work is first started; see src/authoring.ts), dist/fetch.js
// (node-fetch) and dist/yaml.js (yaml). `--production` minifies, `--watch` rebuilds
// on change.
// The options live in esbuild.options.json and the steps in bundles.cjs so that test/build/bundle.test.ts builds with
// exactly these; among them the alias that keeps node-fetch's `whatwg-url` (and tr46) out (see shims/whatwg-url.cjs).
import * as esbuild from 'esbuild';
import * as path from 'path';
import { fileURLToPath } from 'url';
import bundles from './bundles.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdir = path.join(root, 'dist');

async function build() {
  const { outputs } = await bundles.buildBundles({ root, outdir, minify: production, sourcemap: !production });
  const sizes = Object.entries(outputs).map(([name, o]) => `${name}.js ${(o.bytes / 1024).toFixed(1)} KB`);
  console.log(`built dist/: ${sizes.join(', ')}`);
}

if (watch) {
  // esbuild follows the sources of every bundle; each change builds them all again (each later bundle depends on those before).
  const context = await esbuild.context({
    ...bundles.OPTIONS,
    absWorkingDir: root,
    entryPoints: { ...bundles.MAIN_ENTRIES, ...bundles.LATER_ENTRIES },
    outdir,
    write: false,
    logLevel: 'silent',
    plugins: [{ name: 'rebuild', setup: (b) => b.onEnd(() => build().catch((error) => console.error(error.message))) }],
  });
  await context.watch();
} else {
  await build();
}
