// The size of the bundle the extension ships.
import * as fs from 'fs';
import * as path from 'path';
import type { Figure } from './figures';

export const BUNDLE = path.resolve(__dirname, '..', '..', '..', 'dist', 'extension.js');
/**
 * Declared bound: the bundle stays under this. It carries node-fetch and every feature, minified; node-fetch's
 * whatwg-url → tr46 chain (290 KB minified) is aliased to scripts/shims/whatwg-url.cjs (Node has its own URL).
 */
export const BUNDLE_LIMIT_KB = 150;

export function bundleFigure(): Figure {
  const kb = fs.existsSync(BUNDLE) ? fs.statSync(BUNDLE).size / 1024 : undefined;
  return { section: 'Extension', name: 'bundle size of dist/extension.js (npm run build)', unit: 'KB', value: kb, limit: BUNDLE_LIMIT_KB, margin: `bound: ${BUNDLE_LIMIT_KB} KB` };
}
