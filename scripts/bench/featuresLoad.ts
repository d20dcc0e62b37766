// Run by the bench (bundle.ts) in a Node process of its own: loads dist/main.js (and dist/features.js, for
// authoring.js), then times the first use of the bundle named (features or authoring: its require: read, parse, run,
// read what it takes from the bundles before it). The vscode module is a stand-in (a Proxy), as in
// test/build/bundle.test.ts: no bundle calls it while loading. Prints the ms.
import * as path from 'path';

const [dist, timed = 'features'] = process.argv.slice(2);
const before = timed === 'authoring' ? ['main.js', 'features.js'] : ['main.js'];
const stub: unknown = new Proxy(function () {}, { get: (_t, key) => (key === 'prototype' ? {} : stub), apply: () => stub, construct: () => ({}) });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('module') as { _load: (request: string, ...rest: unknown[]) => unknown };
const original = Module._load;
Module._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? stub : original.call(this, request, ...rest);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
for (const file of before) require(path.join(dist, file));
const start = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(dist, `${timed}.js`));
console.log(JSON.stringify({ ms: performance.now() - start }));
