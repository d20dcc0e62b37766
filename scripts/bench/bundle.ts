// The weight of what the extension ships (npm run build, minified): dist/extension.js, what VS Code loads to
// activate it, and dist/main.js, the rest, loaded right after activation (src/extension.ts).
import * as fs from 'fs';
import * as path from 'path';
import type { Figure } from './figures';

export const DIST = path.resolve(__dirname, '..', '..', '..', 'dist');
/** Declared bound of dist/extension.js: activation loads it, and nothing more. */
export const ACTIVATION_FILE_LIMIT_KB = 4;
/**
 * Declared bound of dist/main.js. It carries node-fetch and every feature; node-fetch's whatwg-url → tr46 chain
 * (290 KB minified) is aliased to scripts/shims/whatwg-url.cjs (Node has its own URL). A feature that needs a large
 * library loads it on first use (and the bench measures that).
 */
export const MAIN_FILE_LIMIT_KB = 250;

function sizeKb(file: string): number | undefined {
  const full = path.join(DIST, file);
  return fs.existsSync(full) ? fs.statSync(full).size / 1024 : undefined;
}

export function bundleFigures(): Figure[] {
  const section = 'Extension';
  return [
    { section, name: 'size of dist/extension.js, what activation loads (npm run build, minified)', unit: 'KB', value: sizeKb('extension.js'), limit: ACTIVATION_FILE_LIMIT_KB, margin: `bound: ${ACTIVATION_FILE_LIMIT_KB} KB` },
    { section, name: 'size of dist/main.js, loaded in the turn after activation (minified; 135 KB at #15, 217 KB before #27)', unit: 'KB', value: sizeKb('main.js'), limit: MAIN_FILE_LIMIT_KB, margin: `bound: ${MAIN_FILE_LIMIT_KB} KB` },
  ];
}
