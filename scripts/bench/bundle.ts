// The weight of what the extension ships (npm run build, minified; scripts/bundles.cjs): dist/extension.js, what VS
// Code loads to activate it; dist/main.js, what runs from the start, loaded right after activation (src/extension.ts);
// dist/features.js, loaded on first use (a command, a drop, a timeline: src/features.ts), and what that first use costs;
// dist/authoring.js, loaded when a task document is first open or its commands or the apps' first run (src/authoring.ts),
// and what that costs; dist/fetch.js, node-fetch, loaded by the transport after the start; dist/yaml.js, the yaml package, loaded when a task
// document or a CWL file is first read.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Figure } from './figures';

export const DIST = path.resolve(__dirname, '..', '..', '..', 'dist');
/** Declared bound of dist/extension.js: activation loads it, and nothing more. */
export const ACTIVATION_FILE_LIMIT_KB = 4;
/**
 * Declared bound of dist/main.js. It carries what runs from the start: the views, the models, the client, the write
 * path. What is not needed at start is in dist/features.js, node-fetch in dist/fetch.js; node-fetch's whatwg-url → tr46
 * chain (290 KB minified) is aliased to scripts/shims/whatwg-url.cjs (Node has its own URL). A feature that needs a
 * large library loads it on first use (and the bench measures that). The kinds of write are in dist/features.js:
 * the outbox loads them when it first meets a record (270 KB while they were here, 2–6 KB a feature).
 */
export const MAIN_FILE_LIMIT_KB = 250;
/** Declared bound of dist/features.js (loaded on first use: its cost is the figure below). */
export const FEATURES_FILE_LIMIT_KB = 250;
/** Declared bound of dist/authoring.js (loaded when work is first started from the editor: its cost is the figure below). */
export const AUTHORING_FILE_LIMIT_KB = 120;
/** Declared bound of dist/yaml.js (the yaml package, read when a task document or a CWL file is first read). */
export const YAML_FILE_LIMIT_KB = 120;
/** Declared bound of dist/fetch.js (node-fetch, without whatwg-url). */
export const FETCH_FILE_LIMIT_KB = 30;
/** Goal: the first command run (or task document opened) waits this long at most for dist/features.js (or dist/authoring.js) to load. */
export const FEATURES_FIRST_USE_LIMIT_MS = 30;
/** Node processes the first use is timed in (the median is the figure). */
const FIRST_USE_RUNS = 5;

function sizeKb(file: string): number | undefined {
  const full = path.join(DIST, file);
  return fs.existsSync(full) ? fs.statSync(full).size / 1024 : undefined;
}

/** The first use of dist/features.js (over dist/main.js) or dist/authoring.js (over both), in a Node process of its own each time (featuresLoad.ts). */
export function firstUseMs(bundle: 'features' | 'authoring', runs = FIRST_USE_RUNS): number[] {
  if (!fs.existsSync(path.join(DIST, `${bundle}.js`))) return [];
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = spawnSync(process.execPath, [path.join(__dirname, 'featuresLoad.js'), DIST, bundle], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`loading dist/${bundle}.js failed: ${run.stderr}`);
    times.push((JSON.parse(run.stdout) as { ms: number }).ms);
  }
  return times;
}

const median = (xs: number[]): number | undefined => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : undefined);

export function bundleFigures(): Figure[] {
  const section = 'Extension';
  const firstUse = firstUseMs('features');
  const authoringFirstUse = firstUseMs('authoring');
  return [
    { section, name: 'size of dist/extension.js, what activation loads (npm run build, minified)', unit: 'KB', value: sizeKb('extension.js'), limit: ACTIVATION_FILE_LIMIT_KB, margin: `bound: ${ACTIVATION_FILE_LIMIT_KB} KB` },
    { section, name: 'size of dist/main.js, loaded in the turn after activation (minified; 135 KB at #15, 217 KB before #27)', unit: 'KB', value: sizeKb('main.js'), limit: MAIN_FILE_LIMIT_KB, margin: `bound: ${MAIN_FILE_LIMIT_KB} KB` },
    { section, name: 'size of dist/features.js, loaded on first use: the commands, the copy flow, the transfers, the timeline (minified)', unit: 'KB', value: sizeKb('features.js'), limit: FEATURES_FILE_LIMIT_KB, margin: `bound: ${FEATURES_FILE_LIMIT_KB} KB` },
    { section, name: 'size of dist/authoring.js, loaded when work is first started: the task document, sample sheets, the apps\' commands (minified)', unit: 'KB', value: sizeKb('authoring.js'), limit: AUTHORING_FILE_LIMIT_KB, margin: `bound: ${AUTHORING_FILE_LIMIT_KB} KB` },
    { section, name: 'size of dist/fetch.js, node-fetch, loaded after the start by the transport (minified)', unit: 'KB', value: sizeKb('fetch.js'), limit: FETCH_FILE_LIMIT_KB, margin: `bound: ${FETCH_FILE_LIMIT_KB} KB` },
    { section, name: 'size of dist/yaml.js, the yaml package, loaded when a task document or a CWL file is first read (minified)', unit: 'KB', value: sizeKb('yaml.js'), limit: YAML_FILE_LIMIT_KB, margin: `bound: ${YAML_FILE_LIMIT_KB} KB` },
    {
      section,
      name: `first use of dist/features.js: its load over dist/main.js (Node, median of ${firstUse.length})`,
      unit: 'ms',
      value: median(firstUse),
      limit: FEATURES_FIRST_USE_LIMIT_MS,
      margin: `goal: ≤ ${FEATURES_FIRST_USE_LIMIT_MS} ms`,
    },
    {
      section,
      name: `first use of dist/authoring.js: its load over dist/main.js and dist/features.js (Node, median of ${authoringFirstUse.length})`,
      unit: 'ms',
      value: median(authoringFirstUse),
      limit: FEATURES_FIRST_USE_LIMIT_MS,
      margin: `goal: ≤ ${FEATURES_FIRST_USE_LIMIT_MS} ms`,
    },
  ];
}
