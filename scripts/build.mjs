// Bundles the extension: dist/extension.js (what VS Code activates) and dist/main.js (everything else, loaded
// right after activation; see src/extension.ts). `--production` minifies, `--watch` rebuilds on change.
// The options live in esbuild.options.json so that test/build/bundle.test.ts builds with exactly these;
// among them the alias that keeps node-fetch's `whatwg-url` (and tr46) out of the bundle (see shims/whatwg-url.cjs).
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const options = JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'esbuild.options.json'), 'utf8'));

const context = await esbuild.context({
  ...options,
  absWorkingDir: root,
  minify: production,
  sourcemap: !production,
});

if (watch) {
  await context.watch();
} else {
  await context.rebuild();
  await context.dispose();
}
